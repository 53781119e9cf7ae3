//! The map of a state as the track searches read it ([`Board`]): what each hex shows, the
//! tokens (1841 §9.2) and the tiles laid (§9.1), the tile supply, and the searches made on it
//! remembered with what they were asked; [`LazyBoard`] makes one when first needed.

use super::search::{Reach, reach_on, reach_until};
use super::shape::{Shape, shapes};
use super::*;

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
    pub(super) views: Vec<Option<HexView>>,
    /// Tokens on the map as (hex index, city, corporation index in `state.corporations`),
    /// sorted, one entry per corporation and city; tokens on hexes off the map are left out.
    pub(super) tokens: Vec<(usize, u32, usize)>,
    /// By hex index: the laid tile as (tile index in [`map::Map::tile_list`], rotation).
    pub(super) laid: Vec<Option<(usize, u8)>>,
    /// By tile index: copies on the map.
    pub(super) used: Vec<u32>,
    /// The searches made on this board so far, with what they were asked
    /// ([`Board::reach`]): a search depends only on the board, the tracing corporation, the
    /// start nodes and the border set.
    pub(super) reaches: std::cell::RefCell<Vec<(ReachQuestion, std::rc::Rc<Reach>)>>,
}

/// What a search was asked: the tracing corporation, the start nodes and the border set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct ReachQuestion {
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
    ///
    /// [`reach`]: super::search::reach
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
