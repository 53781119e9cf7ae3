//! Track and token reachability (1841 §9.1, §9.2): the tiles on the map, the track graph
//! traced from a corporation's tokens, and the legality of tile lays.

use std::collections::BTreeSet;

use super::map::{self, End, Node, NodeKind, Path};
use super::state::{MapToken, PlacedTile, State};

/// What a hex shows now: the laid tile (rotated) or the printed hex. Borrows the static map
/// data (no copy per look-up).
#[derive(Clone, Copy, Debug)]
pub struct HexView {
    /// Nodes.
    pub nodes: &'static [Node],
    /// Track with rotated edges.
    pub paths: &'static [Path],
    /// Tile number laid, `None` for the printed hex.
    pub tile: Option<&'static str>,
}

/// The current content of `hex` (`None` for a hex not on the map).
pub fn hex_view(state: &State, hex: &str) -> Option<HexView> {
    let m = map::map(&state.options);
    let i = m.hex_index(hex)?;
    view_of(m, i, state.operations.tiles.get(hex))
}

/// What hex `i` of `m` shows with `placed` on it (`None`: a tile the manifest lacks).
fn view_of(m: &'static map::Map, i: usize, placed: Option<&PlacedTile>) -> Option<HexView> {
    match placed {
        Some(PlacedTile { tile, rotation }) => {
            let t = m.tile(tile)?;
            Some(HexView {
                nodes: &t.nodes,
                paths: &t.rotations[usize::from(*rotation % 6)],
                tile: Some(&t.id),
            })
        }
        None => {
            let printed = m.hex_list.get(i)?;
            Some(HexView {
                nodes: &printed.nodes,
                paths: &printed.paths,
                tile: None,
            })
        }
    }
}

/// The map of a state as the track searches read it, by hex index ([`map::Map::hex_ids`]):
/// what each hex shows and which corporations have tokens in which city. Built once from the
/// state (one pass over the laid tiles and the tokens) and shared by the searches of one
/// decision, so a search never looks a hex or a token up by name. It holds no reference to
/// the state: it stays true while the state's tiles, tokens and corporation list do not
/// change ([`Board::is_current`]).
///
/// [`Board::shared`] hands out the board of the last states read on this thread when their
/// tiles and tokens are the same, so consecutive decisions of a game share one board and the
/// searches it remembers ([`Board::reach`]).
#[derive(Clone, Debug)]
pub struct Board {
    /// The ruleset's map.
    pub map: &'static map::Map,
    /// By hex index: what the hex shows (`None`: a laid tile the manifest lacks).
    views: Vec<Option<HexView>>,
    /// Tokens on the map as (hex index, city, corporation index in `state.corporations`),
    /// sorted, one entry per corporation and city; tokens on hexes off the map are left out.
    tokens: Vec<(usize, u32, usize)>,
    /// By hex index: the laid tile as (tile index in [`map::Map::tile_list`], rotation).
    laid: Vec<Option<(usize, u8)>>,
    /// By tile index: copies on the map.
    used: Vec<u32>,
    /// The searches made on this board so far, with what they were asked
    /// ([`Board::reach`]): a search depends only on the board, the tracing corporation, the
    /// start nodes and the border set.
    reaches: std::cell::RefCell<Vec<(ReachQuestion, std::rc::Rc<Reach>)>>,
}

/// What a search was asked: the tracing corporation, the start nodes and the border set.
#[derive(Clone, Debug, PartialEq, Eq)]
struct ReachQuestion {
    corp: String,
    starts: Vec<(String, usize)>,
    border_set: Option<String>,
}

impl PartialEq for Board {
    /// The same map, views, tokens and tiles (the searches remembered are left out).
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.map, other.map)
            && self.views == other.views
            && self.tokens == other.tokens
            && self.laid == other.laid
            && self.used == other.used
    }
}

/// What a [`Board`] is made from, with identifiers packed into integers
/// ([`super::ids::pack`]): the map, each laid tile as (hex, tile, rotation) in the state's
/// order, and each token as (corporation index, corporation symbol, hex, city). It is
/// compared with a state without building anything ([`BoardKey::matches`]).
#[derive(Clone, Debug, PartialEq, Eq)]
struct BoardKey {
    map: usize,
    tiles: Vec<(u64, u64, u8)>,
    tokens: Vec<(u32, u64, u64, u32)>,
}

impl BoardKey {
    /// The key of `state`; `None` when an identifier is too long to pack (such a state is
    /// never shared).
    fn of(state: &State) -> Option<BoardKey> {
        let map = map::map(&state.options) as *const map::Map as usize;
        let pack = |s: &str| super::ids::pack(s.as_bytes());
        let mut tiles = Vec::with_capacity(state.operations.tiles.len());
        for (hex, p) in &state.operations.tiles {
            tiles.push((pack(hex)?, pack(&p.tile)?, p.rotation));
        }
        let mut tokens = Vec::new();
        for (c, corp) in state.corporations.iter().enumerate() {
            let sym = pack(&corp.sym)?;
            for t in &corp.tokens {
                tokens.push((c as u32, sym, pack(&t.hex)?, t.city));
            }
        }
        Some(BoardKey { map, tiles, tokens })
    }

    /// This key with the tile on `hex` laid or replaced by `placed` (the tiles stay in the
    /// state's order, that of the hexes' names); `None` when an identifier is too long to
    /// pack.
    fn with_tile(mut self, hex: &str, placed: &PlacedTile) -> Option<BoardKey> {
        let pack = |s: &str| super::ids::pack(s.as_bytes());
        let entry = (pack(hex)?, pack(&placed.tile)?, placed.rotation);
        match self
            .tiles
            .binary_search_by(|&(h, _, _)| unpacked(&h.to_le_bytes()).cmp(hex.as_bytes()))
        {
            Ok(at) => self.tiles[at] = entry,
            Err(at) => self.tiles.insert(at, entry),
        }
        Some(self)
    }

    /// This key with `token` added after the other tokens of corporation `corp` (an index in
    /// `state.corporations`, symbol `sym`); `None` when an identifier is too long to pack.
    fn with_token(mut self, corp: usize, sym: &str, token: &MapToken) -> Option<BoardKey> {
        let pack = |s: &str| super::ids::pack(s.as_bytes());
        let c = u32::try_from(corp).ok()?;
        let entry = (c, pack(sym)?, pack(&token.hex)?, token.city);
        let at = self.tokens.partition_point(|&(kc, _, _, _)| kc <= c);
        self.tokens.insert(at, entry);
        Some(self)
    }

    /// Whether `state` has exactly these tiles and tokens (on the same map).
    fn matches(&self, state: &State) -> bool {
        if self.map != map::map(&state.options) as *const map::Map as usize
            || self.tiles.len() != state.operations.tiles.len()
        {
            return false;
        }
        let tiles_same =
            self.tiles
                .iter()
                .zip(&state.operations.tiles)
                .all(|(&(h, t, r), (hex, p))| {
                    h == packed(hex) && t == packed(&p.tile) && r == p.rotation
                });
        if !tiles_same {
            return false;
        }
        let mut key = self.tokens.iter();
        for (c, corp) in state.corporations.iter().enumerate() {
            if corp.tokens.is_empty() {
                continue;
            }
            let sym = packed(&corp.sym);
            for t in &corp.tokens {
                match key.next() {
                    Some(&(kc, ks, kh, kcity))
                        if kc == c as u32
                            && ks == sym
                            && kh == packed(&t.hex)
                            && kcity == t.city => {}
                    _ => return false,
                }
            }
        }
        key.next().is_none()
    }
}

/// `s` packed into a `u64` as [`super::ids::pack`] packs it (its bytes, then the length in the
/// last byte), or `u64::MAX` when `s` is too long to pack (never a packed value: the length
/// is at most 7). The identifiers of a key are 1–3 bytes long but for a few: those lengths
/// are read at fixed offsets (the key of a state is compared at every decision).
#[inline]
fn packed(s: &str) -> u64 {
    match *s.as_bytes() {
        [a] => u64::from(a) | 1 << 56,
        [a, b] => u64::from(a) | u64::from(b) << 8 | 2 << 56,
        [a, b, c] => u64::from(a) | u64::from(b) << 8 | u64::from(c) << 16 | 3 << 56,
        _ => super::ids::pack(s.as_bytes()).unwrap_or(u64::MAX),
    }
}

/// The identifier packed into `bytes` (the little-endian bytes of a [`super::ids::pack`]
/// value): its first bytes, as many as the length in the last byte says.
fn unpacked(bytes: &[u8; 8]) -> &[u8] {
    &bytes[..usize::from(bytes[7]).min(7)]
}

thread_local! {
    /// The boards of the last two states read on this thread, by their keys
    /// ([`Board::shared`]); the most recent first.
    static SHARED_BOARDS: std::cell::RefCell<Vec<(BoardKey, std::rc::Rc<Board>)>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// A [`Board`] made (or shared, [`Board::shared`]) when first needed, for code where most
/// paths need none. The caller keeps it with the state it was made from (it holds no
/// reference to it).
#[derive(Debug, Default)]
pub struct LazyBoard(std::cell::OnceCell<std::rc::Rc<Board>>);

impl LazyBoard {
    /// No board yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// The board of `state`, made now if not yet made.
    pub fn get(&self, state: &State) -> &Board {
        self.0.get_or_init(|| Board::shared(state))
    }

    /// The board if it has been made.
    pub fn made(&self) -> Option<&Board> {
        self.0.get().map(|b| &**b)
    }

    /// The shared board if it has been made (for [`Board::after_lay`] and
    /// [`Board::after_token`]).
    pub fn made_shared(&self) -> Option<&std::rc::Rc<Board>> {
        self.0.get()
    }

    /// A lazy board already holding `board`, which must be the board of the state it will be
    /// used with (what [`Board::new`] gives for it).
    pub fn of(board: std::rc::Rc<Board>) -> Self {
        Self(std::cell::OnceCell::from(board))
    }
}

/// The [`Shape`]s of a map's track, made once per map: by tile index and rotation, and of
/// every printed hex by hex index.
pub struct Shapes {
    /// By tile index, by rotation 0–5.
    pub tiles: Vec<[Shape; 6]>,
    /// By hex index: the printed track.
    pub hexes: Vec<Shape>,
}

/// The shapes of `m`'s tiles and printed hexes.
pub fn shapes(m: &'static map::Map) -> &'static Shapes {
    static SHAPES: [std::sync::OnceLock<Shapes>; 3] = [const { std::sync::OnceLock::new() }; 3];
    let slot = match m.ruleset {
        "lite" => 2,
        "v1" => 1,
        _ => 0,
    };
    SHAPES[slot].get_or_init(|| Shapes {
        tiles: m
            .tile_list
            .iter()
            .map(|t| [0usize, 1, 2, 3, 4, 5].map(|r| Shape::of(&t.nodes, &t.rotations[r])))
            .collect(),
        hexes: m
            .hex_list
            .iter()
            .map(|h| Shape::of(&h.nodes, &h.paths))
            .collect(),
    })
}

/// By hex index: what every hex of `m` shows with no tile laid (where a [`Board`] starts),
/// made once per map.
fn printed_views(m: &'static map::Map) -> &'static [Option<HexView>] {
    static VIEWS: [std::sync::OnceLock<Vec<Option<HexView>>>; 3] =
        [const { std::sync::OnceLock::new() }; 3];
    let slot = match m.ruleset {
        "lite" => 2,
        "v1" => 1,
        _ => 0,
    };
    VIEWS[slot].get_or_init(|| (0..m.hex_list.len()).map(|i| view_of(m, i, None)).collect())
}

/// The tile of `placed` as (tile index, what it shows in its rotation); `None` for a tile the
/// manifest lacks.
fn laid_tile(m: &'static map::Map, placed: &PlacedTile) -> Option<(usize, HexView)> {
    let t = m.tile_lookup.get(&placed.tile)?;
    let tile = m.tile_list.get(t)?;
    Some((
        t,
        HexView {
            nodes: &tile.nodes,
            paths: tile.rotations.get(usize::from(placed.rotation % 6))?,
            tile: Some(&tile.id),
        },
    ))
}

impl PartialEq for HexView {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.nodes, other.nodes)
            && std::ptr::eq(self.paths, other.paths)
            && self.tile == other.tile
    }
}

impl Board {
    /// Reads the tiles and tokens of `state`.
    pub fn new(state: &State) -> Self {
        let m = map::map(&state.options);
        let mut views = printed_views(m).to_vec();
        let mut laid = vec![None; views.len()];
        let mut used = vec![0u32; m.tile_list.len()];
        for (hex, placed) in &state.operations.tiles {
            let tile = laid_tile(m, placed);
            if let Some((t, _)) = tile {
                used[t] += 1;
            }
            if let Some(i) = m.hex_index(hex) {
                views[i] = tile.map(|(_, v)| v);
                laid[i] = tile.map(|(t, _)| (t, placed.rotation % 6));
            }
        }
        let mut tokens = Vec::new();
        for (c, corp) in state.corporations.iter().enumerate() {
            for t in &corp.tokens {
                if let Some(i) = m.hex_index(&t.hex) {
                    tokens.push((i, t.city, c));
                }
            }
        }
        tokens.sort_unstable();
        tokens.dedup();
        Board {
            map: m,
            views,
            tokens,
            laid,
            used,
            reaches: Default::default(),
        }
    }

    /// The board of `state`: the one made for the last states read on this thread when their
    /// tiles and tokens are exactly those of `state` ([`BoardKey`]), else a new one (kept for
    /// the next call). Shared boards keep the searches made on them ([`Board::reach`]).
    pub fn shared(state: &State) -> std::rc::Rc<Board> {
        let found = SHARED_BOARDS.with(|cache| {
            let mut cache = cache.borrow_mut();
            let at = cache.iter().position(|(k, _)| k.matches(state))?;
            if at > 0 {
                let entry = cache.remove(at);
                cache.insert(0, entry);
            }
            cache.first().map(|(_, b)| b.clone())
        });
        if let Some(board) = found {
            debug_assert!(board.is_current(state), "a shared board shows its state");
            return board;
        }
        let board = std::rc::Rc::new(Board::new(state));
        if let Some(key) = BoardKey::of(state) {
            SHARED_BOARDS.with(|cache| {
                let mut cache = cache.borrow_mut();
                cache.insert(0, (key, board.clone()));
                cache.truncate(2);
            });
        }
        board
    }

    /// The board of `state` right after a tile lay on `hex` (1841 §9.1), made from `before`,
    /// the board of the state before the lay, instead of read from the whole state: `state`
    /// must differ from that state in the tile on `hex` alone (laid or replaced; no token
    /// moved). It is what [`Board::new`] gives for `state` (checked in debug builds), and it is
    /// kept for the next look-ups of this thread ([`Board::shared`]) with the key of `before`
    /// changed in that one tile. A hex off the map or a changed map: [`Board::shared`].
    pub fn after_lay(before: &std::rc::Rc<Board>, state: &State, hex: &str) -> std::rc::Rc<Board> {
        let m = before.map;
        let (true, Some(i), Some(placed)) = (
            std::ptr::eq(m, map::map(&state.options)),
            m.hex_index(hex),
            state.operations.tiles.get(hex),
        ) else {
            return Board::shared(state);
        };
        let mut board = before.copy_without_searches();
        // The tile replaced goes back to the supply.
        if let Some((old, _)) = board.laid(i)
            && let Some(u) = board.used.get_mut(old)
        {
            *u = u.saturating_sub(1);
        }
        let tile = laid_tile(m, placed);
        if let Some((t, _)) = tile
            && let Some(u) = board.used.get_mut(t)
        {
            *u += 1;
        }
        if let (Some(v), Some(l)) = (board.views.get_mut(i), board.laid.get_mut(i)) {
            *v = tile.map(|(_, v)| v);
            *l = tile.map(|(t, _)| (t, placed.rotation % 6));
        }
        debug_assert!(
            board == Board::new(state),
            "after_lay: the board of the state"
        );
        let board = std::rc::Rc::new(board);
        Board::keep(before, state, board.clone(), |key| {
            key.with_tile(hex, placed)
        });
        board
    }

    /// A copy of this board without the searches made on it (a board about to be changed:
    /// they would not hold on it).
    fn copy_without_searches(&self) -> Board {
        Board {
            map: self.map,
            views: self.views.clone(),
            tokens: self.tokens.clone(),
            laid: self.laid.clone(),
            used: self.used.clone(),
            reaches: Default::default(),
        }
    }

    /// The board of `state` right after corporation `corp` (an index in `state.corporations`)
    /// placed a token, made from `before`, the board of the state before: `state` must differ
    /// from that state in the token added last to `corp`'s tokens alone. It is what
    /// [`Board::new`] gives for `state` (checked in debug builds), kept for the next look-ups
    /// as [`Board::after_lay`] keeps its board.
    pub fn after_token(
        before: &std::rc::Rc<Board>,
        state: &State,
        corp: usize,
    ) -> std::rc::Rc<Board> {
        let m = before.map;
        let (true, Some(c)) = (
            std::ptr::eq(m, map::map(&state.options)),
            state.corporations.get(corp),
        ) else {
            return Board::shared(state);
        };
        let Some(token) = c.tokens.last() else {
            return Board::shared(state);
        };
        let mut board = before.copy_without_searches();
        if let Some(i) = m.hex_index(&token.hex) {
            let entry = (i, token.city, corp);
            if let Err(at) = board.tokens.binary_search(&entry) {
                board.tokens.insert(at, entry);
            }
        }
        debug_assert!(
            board == Board::new(state),
            "after_token: the board of the state"
        );
        let board = std::rc::Rc::new(board);
        Board::keep(before, state, board.clone(), |key| {
            key.with_token(corp, &c.sym, token)
        });
        board
    }

    /// Puts `board`, made from `before` for `state`, first among the shared boards, under
    /// the key of `before` changed by `change` (the key of `state` read afresh when `before`
    /// is no longer shared).
    fn keep(
        before: &std::rc::Rc<Board>,
        state: &State,
        board: std::rc::Rc<Board>,
        change: impl FnOnce(BoardKey) -> Option<BoardKey>,
    ) {
        SHARED_BOARDS.with(|cache| {
            let mut cache = cache.borrow_mut();
            let key = match cache.iter().find(|(_, b)| std::rc::Rc::ptr_eq(b, before)) {
                Some((k, _)) => change(k.clone()),
                None => BoardKey::of(state),
            };
            debug_assert!(
                key.as_ref().is_none_or(|k| k.matches(state)),
                "the key of a derived board"
            );
            if let Some(key) = key {
                cache.insert(0, (key, board));
                cache.truncate(2);
            }
        });
    }

    /// The tile laid on hex `i` as (tile index, rotation 0–5), `None` for the printed hex.
    pub fn laid(&self, i: usize) -> Option<(usize, u8)> {
        self.laid.get(i).copied().flatten()
    }

    /// Copies of tile `t` (an index) still in the supply: the manifest count minus those on
    /// the map ([`tiles_available`] by index).
    pub fn available(&self, t: usize) -> u32 {
        let manifest = self.map.tile_manifest.get(t).copied().unwrap_or(0);
        manifest.saturating_sub(self.used.get(t).copied().unwrap_or(0))
    }

    /// The track of hex `i` as [`Shape`]s: of the laid tile or the printed hex (made once per
    /// map).
    pub fn shape(&self, i: usize) -> Option<&'static Shape> {
        let shapes = shapes(self.map);
        match self.laid(i) {
            Some((t, r)) => shapes.tiles.get(t).map(|s| &s[usize::from(r)]),
            None => shapes.hexes.get(i),
        }
    }

    /// Whether the board still shows `state` (what a fresh [`Board::new`] would give): for
    /// debug checks of a board kept across changes.
    pub fn is_current(&self, state: &State) -> bool {
        *self == Board::new(state)
    }

    /// What hex `i` shows now ([`hex_view`] by index).
    pub fn view(&self, i: usize) -> Option<HexView> {
        self.views.get(i).copied().flatten()
    }

    /// Indices (in `state.corporations`) of the corporations with a token in city `city` of
    /// hex `i`, in index order.
    pub fn tokens_in(&self, i: usize, city: u32) -> impl Iterator<Item = usize> + '_ {
        let from = self.tokens.partition_point(|&(h, c, _)| (h, c) < (i, city));
        self.tokens[from..]
            .iter()
            .take_while(move |&&(h, c, _)| h == i && c == city)
            .map(|&(_, _, corp)| corp)
    }

    /// Whether some corporation has a token in a city numbered `city` or higher on hex `i`.
    pub fn has_token_from(&self, i: usize, city: u32) -> bool {
        let from = self.tokens.partition_point(|&(h, c, _)| (h, c) < (i, city));
        self.tokens.get(from).is_some_and(|&(h, _, _)| h == i)
    }

    /// The corporation's bases ([`bases`]): its tokens in non-pass cities, as (hex, node,
    /// city), in token order; the hexes borrowed from the state.
    pub fn bases<'s>(&self, state: &'s State, corp: &str) -> Vec<(&'s str, usize, u32)> {
        let Some(c) = state.corporation(corp) else {
            return Vec::new();
        };
        c.tokens
            .iter()
            .filter_map(|t| {
                let v = self.view(self.map.hex_index(&t.hex)?)?;
                let n = city_node(v.nodes, t.city)?;
                (v.nodes[n].kind == NodeKind::City).then_some((t.hex.as_str(), n, t.city))
            })
            .collect()
    }

    /// [`reach`] on this board; a search asked before on this board is answered from
    /// memory.
    pub fn reach(
        &self,
        state: &State,
        corp: &str,
        starts: &[(impl AsRef<str>, usize)],
        border_set: Option<&str>,
    ) -> std::rc::Rc<Reach> {
        if let Some(r) = self.known_reach(corp, starts, border_set) {
            return r;
        }
        let r = std::rc::Rc::new(reach_on(self, state, corp, starts, border_set));
        self.remember(corp, starts, border_set, r.clone());
        r
    }

    /// The nodes and edges a trace reaches as a route runs ([`Board::route_reaches_at_least`]:
    /// a node is left by its other paths, never back along the path it was reached by), the
    /// edges of the province border set `border_set` not crossed: where a corporation may
    /// place a token (1841 §9.2: reachable "18xx region graph", whose walk, `Node#walk`, never
    /// takes a node's entry path again) or buy one (§9.5). Not remembered on the board.
    ///
    /// Lite random 5 players seed 5011, 18xx id 669: SFTN (Torino H4) reaches the two towns of
    /// Vercelli & Novara (F6, tile 633: one town between edges 0 and 1, the other between 3
    /// and 4) only by the first; [`Board::reach`] went back from it into G5 and over G5's other
    /// branch (tile 26) to E5, D6 and the second town, and offered tokens in E7 and Milano,
    /// where 18xx.games' token step, finding no city, is skipped.
    pub fn traced_reach(
        &self,
        state: &State,
        corp: &str,
        starts: &[(impl AsRef<str>, usize)],
        border_set: Option<&str>,
    ) -> Reach {
        reach_until(self, state, corp, starts, border_set, false, |_, _| false).0
    }

    /// Whether the search [`Board::reach`] would answer reaches at least `wanted` distinct
    /// nodes for which `counts(hex index, node)` holds, found without always tracing the
    /// whole graph: a search remembered on the board is read; otherwise the search stops
    /// at the `wanted`-th such node (that partial search is not remembered; a search that
    /// runs to its end is, as [`Board::reach`] keeps it).
    pub fn reaches_at_least(
        &self,
        state: &State,
        corp: &str,
        starts: &[(impl AsRef<str>, usize)],
        border_set: Option<&str>,
        wanted: usize,
        counts: impl Fn(usize, usize) -> bool,
    ) -> bool {
        let count_in = |r: &Reach| {
            r.node_indices()
                .iter()
                .filter(|&&(i, n)| counts(i, n))
                .count()
                >= wanted
        };
        if let Some(r) = self.known_reach(corp, starts, border_set) {
            return count_in(&r);
        }
        let mut found: Vec<(usize, usize)> = Vec::with_capacity(wanted);
        let (reach, stopped) = reach_until(self, state, corp, starts, border_set, true, |i, n| {
            if counts(i, n) && !found.contains(&(i, n)) {
                found.push((i, n));
            }
            found.len() >= wanted
        });
        if stopped {
            return true;
        }
        let answer = count_in(&reach);
        self.remember(corp, starts, border_set, std::rc::Rc::new(reach));
        answer
    }

    /// Whether a trace as a route runs it reaches at least `wanted` distinct nodes for which
    /// `counts(hex index, node)` holds: as [`Board::reaches_at_least`], but a trace leaves a
    /// node only by its other paths, never back along the path it came by (a route uses no
    /// track twice; 18xx `Node#walk`, whose entry path is visited, for `route_info`). A node
    /// reached again by another path is traced once more. Not remembered on the board (the
    /// track searches for tile lays and tokens keep [`Board::reach`]'s rule).
    ///
    /// Version_1 4p seed 4001, id 486: AFI (tokens in Ancona L14 and in the pass N12) reaches
    /// from L14 over M13 (tile 27: branches 1–4 and 1–2) only N12 and the pass O11; L12, on
    /// M13's other branch, lies beyond N12 only by going back the way it came: no route.
    pub fn route_reaches_at_least(
        &self,
        state: &State,
        corp: &str,
        starts: &[(impl AsRef<str>, usize)],
        wanted: usize,
        counts: impl Fn(usize, usize) -> bool,
    ) -> bool {
        self.traced_reaches_at_least(state, corp, starts, None, wanted, counts)
    }

    /// [`Board::route_reaches_at_least`] with the edges of the province border set
    /// `border_set` not crossed (the token step's and the token purchase's search, 1841
    /// §9.2, §9.5).
    pub fn traced_reaches_at_least(
        &self,
        state: &State,
        corp: &str,
        starts: &[(impl AsRef<str>, usize)],
        border_set: Option<&str>,
        wanted: usize,
        counts: impl Fn(usize, usize) -> bool,
    ) -> bool {
        let mut found: Vec<(usize, usize)> = Vec::with_capacity(wanted);
        let (reach, stopped) = reach_until(self, state, corp, starts, border_set, false, |i, n| {
            if counts(i, n) && !found.contains(&(i, n)) {
                found.push((i, n));
            }
            found.len() >= wanted
        });
        stopped
            || reach
                .node_indices()
                .iter()
                .filter(|&&(i, n)| counts(i, n))
                .count()
                >= wanted
    }

    /// The search asked before on this board with these terms, if any.
    fn known_reach(
        &self,
        corp: &str,
        starts: &[(impl AsRef<str>, usize)],
        border_set: Option<&str>,
    ) -> Option<std::rc::Rc<Reach>> {
        self.reaches.borrow().iter().find_map(|(q, r)| {
            (q.corp == corp
                && q.starts.len() == starts.len()
                && q.starts
                    .iter()
                    .zip(starts)
                    .all(|((qh, qn), (h, n))| qh == h.as_ref() && qn == n)
                && q.border_set.as_deref() == border_set)
                .then(|| r.clone())
        })
    }

    /// Keeps a finished search for the next question with the same terms.
    fn remember(
        &self,
        corp: &str,
        starts: &[(impl AsRef<str>, usize)],
        border_set: Option<&str>,
        reach: std::rc::Rc<Reach>,
    ) {
        self.reaches.borrow_mut().push((
            ReachQuestion {
                corp: corp.to_string(),
                starts: starts
                    .iter()
                    .map(|(h, n)| (h.as_ref().to_string(), *n))
                    .collect(),
                border_set: border_set.map(str::to_string),
            },
            reach,
        ));
    }
}

/// Paths with edges rotated by `rotation`.
pub fn rotated(paths: &[Path], rotation: u8) -> Vec<Path> {
    paths
        .iter()
        .map(|p| Path {
            a: map::rotate(p.a, rotation),
            b: map::rotate(p.b, rotation),
            terminal: p.terminal,
        })
        .collect()
}

/// Node index of city `city` (counting cities and passes in node order).
pub fn city_node(nodes: &[Node], city: u32) -> Option<usize> {
    nodes
        .iter()
        .enumerate()
        .filter(|(_, n)| n.is_city())
        .nth(city as usize)
        .map(|(i, _)| i)
}

/// City index of node `node`.
pub fn node_city(nodes: &[Node], node: usize) -> Option<u32> {
    if !nodes.get(node)?.is_city() {
        return None;
    }
    Some(nodes[..node].iter().filter(|n| n.is_city()).count() as u32)
}

/// City `city` of `hex` as it exists now: a printed city index beyond the laid tile's cities
/// (yellow Firenze/Torino upgraded to a single two-slot city) becomes city 0 (1841 §9.1).
pub fn current_city(state: &State, hex: &str, city: u32) -> u32 {
    let cities = hex_view(state, hex).map_or(0, |v| v.nodes.iter().filter(|n| n.is_city()).count());
    if (city as usize) < cities { city } else { 0 }
}

/// Whether city `city` of `hex` has a free token slot.
pub fn has_free_slot(state: &State, hex: &str, city: u32) -> bool {
    hex_view(state, hex)
        .and_then(|v| city_node(v.nodes, city).map(|n| v.nodes[n].slots))
        .is_some_and(|slots| (token_count_at(state, hex, city) as u32) < slots)
}

/// How many corporations have a token in city `city` of `hex` (the length of [`tokens_at`],
/// without building the list).
pub fn token_count_at(state: &State, hex: &str, city: u32) -> usize {
    state
        .corporations
        .iter()
        .filter(|c| c.tokens.iter().any(|t| t.hex == hex && t.city == city))
        .count()
}

/// Symbols of the corporations with a token in city `city` of `hex`.
pub fn tokens_at(state: &State, hex: &str, city: u32) -> Vec<String> {
    state
        .corporations
        .iter()
        .filter(|c| c.tokens.iter().any(|t| t.hex == hex && t.city == city))
        .map(|c| c.sym.clone())
        .collect()
}

/// The track graph reached from some start nodes ([`reach`]): the nodes and the hex edges
/// reached, by hex index.
#[derive(Clone, Debug)]
pub struct Reach {
    map: &'static map::Map,
    /// Nodes reached as (hex index, node index), sorted (hex index order is coordinate
    /// order), each once.
    nodes: Vec<(usize, usize)>,
    /// Start nodes on hexes that are not on the map (reached, nothing beyond them).
    outside: Vec<(String, usize)>,
    /// By hex index: the edges reached (bit `e` for edge `e`); `None` for a hex not reached
    /// at all (18xx `connected_hexes`).
    edges: Vec<Option<u8>>,
}

impl Reach {
    /// The nodes reached as (hex, node index), in (hex, node) order.
    pub fn nodes(&self) -> impl Iterator<Item = (&str, usize)> + '_ {
        let mut on_map = self
            .nodes
            .iter()
            .map(|&(i, n)| (self.map.hex_ids[i].as_str(), n))
            .peekable();
        let mut outside = self
            .outside
            .iter()
            .map(|(h, n)| (h.as_str(), *n))
            .peekable();
        std::iter::from_fn(move || match (on_map.peek(), outside.peek()) {
            (Some(a), Some(b)) if b < a => outside.next(),
            (Some(_), _) => on_map.next(),
            (None, _) => outside.next(),
        })
    }

    /// The nodes reached on the map as (hex index, node index), sorted.
    pub fn node_indices(&self) -> &[(usize, usize)] {
        &self.nodes
    }

    /// Whether node `node` of `hex` is reached.
    pub fn contains(&self, hex: &str, node: usize) -> bool {
        match self.map.hex_index(hex) {
            Some(i) => self.nodes.binary_search(&(i, node)).is_ok(),
            None => self.outside.iter().any(|(h, n)| h == hex && *n == node),
        }
    }

    /// The hexes reached with the edges reached on each (bit `e` for edge `e`), as (hex
    /// index, mask), in hex order.
    pub fn edges(&self) -> impl Iterator<Item = (usize, u8)> + '_ {
        self.edges
            .iter()
            .enumerate()
            .filter_map(|(i, m)| m.map(|m| (i, m)))
    }
}

/// Traces `corp`'s track graph from `starts` (hex, node) (1841 §9.1, §9.2; FAQ: tracing from
/// own tokens, cities filled by other corporations block, off-boards end a trace, yellow
/// Milano's terminal stubs cannot be passed through). Every edge of a start hex toward a
/// neighbour counts as reached, a province border's too (a tile may be laid on a token's hex
/// with any exit toward a neighbour; 18xx `Graph#compute` marks every `hex.neighbors` edge of
/// a token's hex). With `border_set`, edges on that province border set are not crossed. Several searches on one state share a [`Board`]
/// ([`Board::reach`]).
pub fn reach(
    state: &State,
    corp: &str,
    starts: &[(impl AsRef<str>, usize)],
    border_set: Option<&str>,
) -> Reach {
    reach_on(&Board::shared(state), state, corp, starts, border_set)
}

/// Positions of the search on one hex, as bits of a `u64`: edge `e` is bit `e`, node `n`
/// entered normally bit `8 + n`, node `n` entered through a terminal stub bit `32 + n`.
const NODE_BITS: usize = 24;

fn reach_on(
    board: &Board,
    state: &State,
    corp: &str,
    starts: &[(impl AsRef<str>, usize)],
    border_set: Option<&str>,
) -> Reach {
    reach_until(board, state, corp, starts, border_set, true, |_, _| false).0
}

/// [`reach_on`] that stops as soon as `enough(hex index, node)`, called for every node
/// reached on the map (a node may be reported more than once), returns true: the nodes and
/// edges reached until then, and whether it stopped so. When it does not stop, the reach is
/// that of [`reach_on`].
fn reach_until(
    board: &Board,
    state: &State,
    corp: &str,
    starts: &[(impl AsRef<str>, usize)],
    border_set: Option<&str>,
    turn_back: bool,
    mut enough: impl FnMut(usize, usize) -> bool,
) -> (Reach, bool) {
    /// A node (hex index, node index, entered through a terminal stub, the index of the
    /// path it was entered by) or the near side of a hex's edge (hex index, edge).
    #[derive(Clone, Copy)]
    enum Pos {
        Node(usize, usize, bool, Option<usize>),
        Edge(usize, u8),
    }
    /// The bit of a position in its hex's word of `seen`; `None` for a node or edge no
    /// tile has (nothing to trace there).
    fn bit(pos: Pos) -> Option<(usize, u64)> {
        match pos {
            Pos::Node(i, n, via_terminal, _) if n < NODE_BITS => {
                Some((i, 1 << if via_terminal { 32 + n } else { 8 + n }))
            }
            Pos::Edge(i, e) if e < 8 => Some((i, 1 << e)),
            _ => None,
        }
    }
    let m = board.map;
    let hexes = m.hex_ids.len();
    let corp_index = state.corporation_index(corp);
    let borders = border_set.and_then(|s| m.border_mask(s));
    let on_border = |i: usize, e: u8| {
        e < 8 && borders.is_some_and(|b| b.get(i).is_some_and(|mask| mask & (1 << e) != 0))
    };
    // Reached edges by hex index (`None`: the hex has no entry).
    let mut edges: Vec<Option<u8>> = vec![None; hexes];
    let mut nodes: Vec<(usize, usize)> = Vec::with_capacity(64);
    let mut outside = Vec::new();
    // Positions queued so far (a position is queued once: the search is breadth-first from
    // the starts, which are queued first).
    let mut seen: Vec<u64> = vec![0; hexes];
    let mut queue: Vec<(Pos, bool)> = Vec::with_capacity(64);
    // The path each node was first entered by (`None` once it has been traced a second time,
    // entered by another path: between them the two traces leave by every path).
    let mut first_entry: std::collections::HashMap<(usize, usize, bool), Option<usize>> =
        std::collections::HashMap::new();
    let push = |seen: &mut Vec<u64>, queue: &mut Vec<(Pos, bool)>, pos: Pos, first: bool| {
        if let Some((i, b)) = bit(pos)
            && seen[i] & b == 0
        {
            seen[i] |= b;
            queue.push((pos, first));
        }
    };
    for (h, n) in starts {
        let h = h.as_ref();
        let Some(i) = m.hex_index(h) else {
            // Not a hex of the map: reached, and nothing beyond it.
            outside.push((h.to_string(), *n));
            continue;
        };
        nodes.push((i, *n));
        let mask = edges[i].get_or_insert(0);
        *mask |= m.neighbor_mask[i] & 0x3f;
        push(&mut seen, &mut queue, Pos::Node(i, *n, false, None), true);
    }
    // Crossing edge `e` of hex `i`: both sides are reached; the neighbour is entered unless a
    // border of the set lies there.
    let exit = |edges: &mut Vec<Option<u8>>, i: usize, e: u8| -> Option<Pos> {
        *edges[i].get_or_insert(0) |= 1 << e;
        if on_border(i, e) {
            return None;
        }
        let nb = m.neighbor_index[i].get(usize::from(e)).copied().flatten()?;
        let back = (e + 3) % 6;
        *edges[nb].get_or_insert(0) |= 1 << back;
        Some(Pos::Edge(nb, back))
    };
    let mut stopped = nodes.iter().any(|&(i, n)| enough(i, n));
    let mut head = 0;
    while let Some(&(pos, first)) = queue.get(head) {
        if stopped {
            break;
        }
        head += 1;
        let i = match pos {
            Pos::Node(i, n, _, _) => {
                nodes.push((i, n));
                stopped = enough(i, n);
                i
            }
            Pos::Edge(i, _) => i,
        };
        let Some(v) = board.view(i) else { continue };
        // Without `turn_back` a trace leaves a node by its other paths, never back along the
        // path it came by (see [`Board::route_reaches_at_least`]).
        let (here, entered) = match pos {
            Pos::Node(_, n, via_terminal, entered) => {
                if !first && (via_terminal || blocked(board, corp_index, i, &v, n)) {
                    continue;
                }
                (End::Node(n), entered)
            }
            Pos::Edge(_, e) => (End::Edge(e), None),
        };
        for (k, p) in v.paths.iter().enumerate() {
            if !turn_back && entered == Some(k) {
                continue;
            }
            let other = if p.a == here {
                p.b
            } else if p.b == here {
                p.a
            } else {
                continue;
            };
            match other {
                End::Node(o) => {
                    let next = Pos::Node(i, o, p.terminal, Some(k));
                    match bit(next) {
                        Some((hi, b)) if seen[hi] & b == 0 => {
                            seen[hi] |= b;
                            first_entry.insert((i, o, p.terminal), Some(k));
                            queue.push((next, false));
                        }
                        // Reached before by another path: traced once more, now leaving by the
                        // path it was first entered by (and not by this one).
                        Some(_) if !turn_back => {
                            if let Some(entry) = first_entry.get_mut(&(i, o, p.terminal))
                                && entry.is_some_and(|e| e != k)
                            {
                                *entry = None;
                                queue.push((next, false));
                            }
                        }
                        _ => {}
                    }
                }
                End::Edge(f) => {
                    if let Some(next) = exit(&mut edges, i, f) {
                        push(&mut seen, &mut queue, next, false);
                    }
                }
            }
        }
    }
    nodes.sort_unstable();
    nodes.dedup();
    outside.sort();
    outside.dedup();
    (
        Reach {
            map: m,
            nodes,
            outside,
            edges,
        },
        stopped,
    )
}

/// A city/pass whose slots are all taken by other corporations, or an off-board, cannot be
/// traced through (1841 §9.1, §9.2). `corp`: the tracing corporation's index.
pub(super) fn blocked(
    board: &Board,
    corp: Option<usize>,
    i: usize,
    v: &HexView,
    node: usize,
) -> bool {
    let Some(n) = v.nodes.get(node) else {
        return true;
    };
    match n.kind {
        NodeKind::Offboard => true,
        NodeKind::City | NodeKind::Pass => {
            let Some(city) = node_city(v.nodes, node) else {
                return true;
            };
            let mut count = 0u32;
            for c in board.tokens_in(i, city) {
                if Some(c) == corp {
                    return false;
                }
                count += 1;
            }
            count >= n.slots
        }
        _ => false,
    }
}

/// The corporation's bases: its tokens in non-pass cities, as (hex, node) (1841 §9.1: tokens
/// in passes are never bases).
pub fn bases(state: &State, corp: &str) -> Vec<(String, usize, u32)> {
    let Some(c) = state.corporation(corp) else {
        return Vec::new();
    };
    c.tokens
        .iter()
        .filter_map(|t| {
            let v = hex_view(state, &t.hex)?;
            let n = city_node(v.nodes, t.city)?;
            (v.nodes[n].kind == NodeKind::City).then(|| (t.hex.clone(), n, t.city))
        })
        .collect()
}

/// Exits of a path list.
pub fn exits(paths: &[Path]) -> BTreeSet<u8> {
    paths
        .iter()
        .flat_map(|p| [p.a, p.b])
        .filter_map(|e| match e {
            End::Edge(e) => Some(e),
            End::Node(_) => None,
        })
        .collect()
}

/// Whether the new track keeps every old connection (1841 §9.1: upgrades preserve track):
/// every old edge-to-edge path exists again, and the edges meeting at each old node meet at
/// one node of the same kind on the new tile.
pub fn preserves(old_nodes: &[Node], old: &[Path], new_nodes: &[Node], new: &[Path]) -> bool {
    Shape::of(old_nodes, old).preserved_by(&Shape::of(new_nodes, new))
}

/// The connections of a hex's track as bit masks (edges 0–5; the sets of [`preserves`]
/// without allocating sets).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Shape {
    /// Per node: its kind and the edges with a path to it (bit `e` for edge `e`).
    pub groups: Vec<(NodeKind, u32)>,
    /// Edge-to-edge paths: bit `8·min + max`.
    pub pairs: u64,
    /// Every edge with track ([`exits`]).
    pub exits: u32,
}

impl Shape {
    /// The shape of `paths` over `nodes`.
    pub fn of(nodes: &[Node], paths: &[Path]) -> Shape {
        let mut groups: Vec<(NodeKind, u32)> = nodes.iter().map(|n| (n.kind, 0)).collect();
        let mut pairs = 0u64;
        let mut exits = 0u32;
        for p in paths {
            for end in [p.a, p.b] {
                if let End::Edge(e) = end {
                    exits |= 1 << e;
                }
            }
            match (p.a, p.b) {
                (End::Node(n), End::Edge(e)) | (End::Edge(e), End::Node(n)) => {
                    if let Some(g) = groups.get_mut(n) {
                        g.1 |= 1 << e;
                    }
                }
                (End::Edge(a), End::Edge(b)) => pairs |= 1 << (8 * a.min(b) + a.max(b)),
                _ => {}
            }
        }
        Shape {
            groups,
            pairs,
            exits,
        }
    }

    /// [`preserves`]: whether `new` keeps every connection of `self`.
    pub fn preserved_by(&self, new: &Shape) -> bool {
        let old_ok = self.groups.iter().all(|(k, edges)| {
            *edges == 0
                || new
                    .groups
                    .iter()
                    .any(|(nk, ne)| nk == k && edges & !ne == 0)
        });
        old_ok && self.pairs & !new.pairs == 0
    }
}

/// Tiles of `tile` still in the supply: the manifest count minus the copies on the map.
pub fn tiles_available(state: &State, tile: &str) -> u32 {
    let m = map::map(&state.options);
    let used = state
        .operations
        .tiles
        .values()
        .filter(|p| p.tile == tile)
        .count() as u32;
    m.tile_count(tile).saturating_sub(used)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The packing of the board keys is that of `ids::pack` (the key of a state is made with
    /// either), and `unpacked` gives the identifier back.
    #[test]
    fn key_packing_is_that_of_ids_pack() {
        for id in [
            "", "8", "57", "202", "F8", "F10", "SFTG", "abcdefg", "abcdefgh", "ü", "€",
        ] {
            let want = crate::g1841::ids::pack(id.as_bytes());
            assert_eq!(packed(id), want.unwrap_or(u64::MAX), "{id:?}");
            if let Some(k) = want {
                assert_eq!(unpacked(&k.to_le_bytes()), id.as_bytes(), "{id:?}");
            }
        }
    }
}
