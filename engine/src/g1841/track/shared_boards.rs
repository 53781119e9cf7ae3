//! Boards shared between the states read on one thread: a state's tiles and tokens packed
//! into a `BoardKey`, the boards of the last two states kept by key ([`Board::shared`]), and a
//! board made from the one before a tile lay (1841 §9.1) or a token (§9.2) instead of anew.

use super::board::Board;
use super::*;

/// What a [`Board`] is made from, with identifiers packed into integers
/// ([`crate::g1841::ids::pack`]): the map, each laid tile as (hex, tile, rotation) in the state's
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
        let pack = |s: &str| crate::g1841::ids::pack(s.as_bytes());
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
        let pack = |s: &str| crate::g1841::ids::pack(s.as_bytes());
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
        let pack = |s: &str| crate::g1841::ids::pack(s.as_bytes());
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

/// `s` packed into a `u64` as [`crate::g1841::ids::pack`] packs it (its bytes, then the length in the
/// last byte), or `u64::MAX` when `s` is too long to pack (never a packed value: the length
/// is at most 7). The identifiers of a key are 1–3 bytes long but for a few: those lengths
/// are read at fixed offsets (the key of a state is compared at every decision).
#[inline]
fn packed(s: &str) -> u64 {
    match *s.as_bytes() {
        [a] => u64::from(a) | 1 << 56,
        [a, b] => u64::from(a) | u64::from(b) << 8 | 2 << 56,
        [a, b, c] => u64::from(a) | u64::from(b) << 8 | u64::from(c) << 16 | 3 << 56,
        _ => crate::g1841::ids::pack(s.as_bytes()).unwrap_or(u64::MAX),
    }
}

/// The identifier packed into `bytes` (the little-endian bytes of a [`crate::g1841::ids::pack`]
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

impl Board {
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
