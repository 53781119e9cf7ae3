//! Whether a trail of track joins a corporation's bases to one node, using no track twice
//! (1841 §9.2 "reachable", §9.3 "no reuse of track segments"): the exact test behind the
//! token step (§9.2) and the token purchase (§9.5).
//!
//! [`track::Board::traced_reach`] is a breadth-first search over positions (a node, the near
//! side of a hex edge). It is fast, but it may cross one hexside twice: out of hex X by one
//! branch of a junction, around a loop, and back into X over the same hexside onto the
//! junction's other branch. A train cannot run so (18xx.games' route check refuses a route
//! that uses one hex edge twice, `Game::Base#check_overlap`), and 18xx.games' token graph
//! never walks so (`Part::Path#walk` skips a path over an edge already left on the walk).
//!
//! P2p_purchases heuristic 7 players seed 7143, 18xx id 832: SFTC (Torino H4) reaches green
//! Milano (F8) only from G5 (tile 628) over E5 (tile 45) and back over the E5/G5 hexside onto
//! G5's other branch; 18xx.games finds no city for SFTC's token and skips its token step.
//!
//! [`trail_reaches`] searches the trails depth-first, each branch keeping the hexsides it
//! crossed and the nodes it passed; it is exponential in the worst case, so one token search
//! gives up after [`STEP_BUDGET`] steps in all and answers `None`: the callers then keep the
//! breadth-first answer (a node is offered when a trace reaches it), the documented default
//! for a board too tangled to decide within the bound.

use super::map::End;
use super::track::{self, Board};

/// The steps (paths followed) one token search may spend on [`trail_reaches`], over all the
/// cities it asks about: far above any board of a played game (the 7143 board above takes
/// a few hundred for its four cities), and a bound on the work of a crafted state (about 10 ms in a release
/// build).
pub const STEP_BUDGET: u32 = 200_000;

/// Whether a trail of `corp` (index in `state.corporations`, for the cities its tokens open)
/// leads from one of `starts` (hex index, node) to node `target` (hex index, node) without
/// crossing a hexside twice, passing a node twice, passing through a city or pass full of
/// other corporations' tokens or an off-board (1841 §9.1, §9.2), passing on through a
/// terminal stub (yellow Milano, §9.1), or crossing an edge of the province border mask
/// `borders` (by hex index, bit `e` for edge `e`; §9.2). Each path followed takes one step
/// from `budget` (start a search with [`STEP_BUDGET`] and pass the rest on to the next
/// question of the same search). `Some(true)` or `Some(false)`, or `None` when the budget
/// ran out.
pub fn trail_reaches(
    board: &Board,
    corp: Option<usize>,
    starts: &[(usize, usize)],
    borders: Option<&[u8]>,
    target: (usize, usize),
    budget: &mut u32,
) -> Option<bool> {
    if starts.contains(&target) {
        return Some(true);
    }
    let hexes = board.map.hex_ids.len();
    let mut search = Search {
        board,
        corp,
        borders,
        target,
        crossed: vec![0; hexes],
        passed: vec![0; hexes],
        budget: *budget,
    };
    for &(i, n) in starts {
        if i >= hexes || n >= 64 {
            continue;
        }
        search.passed[i] |= 1 << n;
        let found = search.leave_node(i, n);
        search.passed[i] &= !(1 << n);
        match found {
            Some(false) => {}
            answer => {
                *budget = search.budget;
                return answer;
            }
        }
    }
    *budget = search.budget;
    Some(false)
}

/// One depth-first search of [`trail_reaches`]: what the current branch has used.
struct Search<'a> {
    board: &'a Board,
    corp: Option<usize>,
    borders: Option<&'a [u8]>,
    target: (usize, usize),
    /// By hex index: the edges whose hexside the branch has crossed (both sides marked).
    crossed: Vec<u8>,
    /// By hex index: the nodes the branch has passed (bit `n` for node `n`).
    passed: Vec<u64>,
    /// Steps left.
    budget: u32,
}

impl Search<'_> {
    /// Leaves node `n` of hex `i` by each of its paths.
    fn leave_node(&mut self, i: usize, n: usize) -> Option<bool> {
        let Some(v) = self.board.view(i) else {
            return Some(false);
        };
        for p in v.paths {
            let (other, terminal) = if p.a == End::Node(n) {
                (p.b, p.terminal)
            } else if p.b == End::Node(n) {
                (p.a, p.terminal)
            } else {
                continue;
            };
            if self.follow(i, other, terminal)? {
                return Some(true);
            }
        }
        Some(false)
    }

    /// Arrives at end `end` of a path of hex `i` (`terminal`: the path is a terminal stub) and
    /// goes on from it.
    fn follow(&mut self, i: usize, end: End, terminal: bool) -> Option<bool> {
        if self.budget == 0 {
            return None;
        }
        self.budget -= 1;
        match end {
            End::Node(o) => {
                if (i, o) == self.target {
                    return Some(true);
                }
                if o >= 64 || self.passed[i] & (1 << o) != 0 || terminal {
                    return Some(false);
                }
                let Some(v) = self.board.view(i) else {
                    return Some(false);
                };
                if track::blocked(self.board, self.corp, i, &v, o) {
                    return Some(false);
                }
                self.passed[i] |= 1 << o;
                let found = self.leave_node(i, o);
                self.passed[i] &= !(1 << o);
                found
            }
            End::Edge(e) => {
                if e >= 6 || self.crossed[i] & (1 << e) != 0 {
                    return Some(false);
                }
                if self
                    .borders
                    .is_some_and(|b| b.get(i).is_some_and(|m| m & (1 << e) != 0))
                {
                    return Some(false);
                }
                let Some(nb) = self
                    .board
                    .map
                    .neighbor_index
                    .get(i)
                    .and_then(|n| n[usize::from(e)])
                else {
                    return Some(false);
                };
                let back = (e + 3) % 6;
                let Some(v) = self.board.view(nb) else {
                    return Some(false);
                };
                self.crossed[i] |= 1 << e;
                self.crossed[nb] |= 1 << back;
                let mut found = Some(false);
                for p in v.paths {
                    let other = if p.a == End::Edge(back) {
                        p.b
                    } else if p.b == End::Edge(back) {
                        p.a
                    } else {
                        continue;
                    };
                    match self.follow(nb, other, p.terminal) {
                        Some(false) => {}
                        f => {
                            found = f;
                            break;
                        }
                    }
                }
                self.crossed[i] &= !(1 << e);
                self.crossed[nb] &= !(1 << back);
                found
            }
        }
    }
}
