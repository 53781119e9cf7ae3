//! Followers of the `pass` records 18xx.games has for steps it keeps open where this engine
//! has moved on, kept over the replay: the end of a turn (1841 §7.4, §12.2, §12.3), turns this
//! engine played through (§9.1), the token step (§9.2) and the track step (§9.1).

use super::{Entity, ImportedAction};
use crate::g1841::action::Action;
use crate::g1841::state::{OperatingStep, Round, State};

/// The `pass` records 18xx.games (and this engine's writer) has after an action for steps it
/// keeps open there and this engine does not (a transformation offer at the end of a minor's
/// turn, 1841 §12.2; the optional removal of SFLi's tokens after the Tuscan merge, §12.3; the
/// train step of a corporation frozen mid-turn, §7.4:
/// [`crate::g1841::export18xx::turn_end_passes`]). Read as a pass of the corporation's controller,
/// such a record would pass whatever that player is asked next: another corporation of his
/// beginning its turn, SFLi's first turn right after the merge, or the same corporation, last of
/// one operating round and first of the next (after a bankruptcy or a merger few corporations may
/// be left), its new turn's track step. Counted in [`super::Replayed::records_dropped`], as the
/// passes after a turn this engine ended itself.
#[derive(Default)]
pub(super) struct TurnEndPasses {
    /// The corporations whose pass is still due, in the order written.
    due: std::collections::VecDeque<(String, bool)>,
}

impl TurnEndPasses {
    /// Follows an applied action (`pre` = the state before it, when in an operating round).
    pub(super) fn applied(&mut self, pre: Option<&State>, post: &State, action: &Action) {
        self.due.clear();
        if let Some(pre) = pre {
            self.due
                .extend(crate::g1841::export18xx::turn_end_passes(pre, post, action));
        }
    }

    /// Whether `action` is such a pass (to be dropped); any other record ends the wait, but
    /// those the writer puts before these passes: the decisions (`choose`) 18xx asks between
    /// (the count of a transformation's tokens, the split's "another round?" and its tokens
    /// for a successor without a president) and a merger's token removals with no action of
    /// ours (on a two-city tile).
    pub(super) fn drops(&mut self, action: &ImportedAction) -> Option<&'static str> {
        if action.auto || matches!(action.kind.as_str(), "choose" | "remove_token") {
            return None;
        }
        let due = self.due.pop_front();
        match (&action.entity, due) {
            (Entity::Corporation(c), Some((d, tuscan))) if action.kind == "pass" && *c == d => {
                Some(if tuscan {
                    "end of the optional removal of SFLi's tokens this engine does not open"
                } else {
                    "operating turn this engine ended itself (nothing legal)"
                })
            }
            _ => {
                self.due.clear();
                None
            }
        }
    }
}

/// The `pass` records of 18xx.games' track step that the writer adds after an action during
/// which this engine played whole operating turns by itself, one per corporation with a token
/// ([`crate::g1841::export18xx::turns_played_through`]: 18xx opens the track step of every such
/// corporation and waits for its `pass` even when no tile can be laid, 1841 §9.1, where this
/// engine, with nothing legal in any step, moves on). Followed over the replay as the writer
/// decides it, not by the round read from the state: when such a turn was the operating
/// round's last, the next round has begun when the pass is read (a stock round, or the next
/// operating round with its first corporation's track step open, whose controller the pass
/// would otherwise pass: v2 7 players seed 7138, 18xx id 1478, SB after ATFA, and FTP's lay
/// then refused "in its routes step"; heuristic 5 players seed 5171, id 550: SB's pass read in
/// the stock round, "It is seat 0's turn, not seat 1's"). The writer puts them in operating
/// order after the passes of [`TurnEndPasses`] and of the ended turn's token step, and before
/// the token-step pass of the turn begun ([`TokenStepPasses`]); those are left to their own
/// followers, and the next record applied ends the wait.
#[derive(Default)]
pub(super) struct PlayedThroughPasses {
    /// The corporations whose pass is still due, in operating order.
    pub(super) due: std::collections::VecDeque<String>,
}

impl PlayedThroughPasses {
    /// Follows an applied action (`events`: its events, `post`: the state after it).
    pub(super) fn applied(&mut self, post: &State, events: &[crate::g1841::action::Event]) {
        self.due.clear();
        self.due
            .extend(crate::g1841::export18xx::turns_played_through(post, events));
    }

    /// Whether `action` is such a pass (to be dropped): a recorded `pass` of the corporation
    /// due first. Another record leaves the wait as it is (the writer puts other steps'
    /// passes before these; any record applied ends it).
    pub(super) fn drops(&mut self, action: &ImportedAction) -> Option<&'static str> {
        let Entity::Corporation(c) = &action.entity else {
            return None;
        };
        if action.auto || action.kind != "pass" || self.due.front() != Some(c) {
            return None;
        }
        self.due.pop_front();
        Some("operating turn this engine ended itself (nothing legal)")
    }
}

/// The `pass` records of 18xx.games' token step (`Engine::Step::Token`, 1841 §9.2) that the
/// writer adds after an action where this engine, finding no legal placement, skipped the
/// step ([`crate::g1841::export18xx::token_step_opened_in_18xx`]: the corporation whose turn ended
/// with the action, then the one whose turn began). Read as a pass of whatever this engine
/// asks next, such a record would pass a step that is still to come: with `p2p_purchases`
/// (the token purchase from another corporation, §9.5, is a step of its own) a lay followed
/// by the token step's pass and a `buy_token` had the pass close the purchase step and the
/// purchase refused ("in its trains step"). Followed over the replay as the writer decides
/// it; any other record (but those the track step drops, written between) ends the wait.
#[derive(Default)]
pub(super) struct TokenStepPasses {
    /// The corporations whose token-step pass is still due, in the order written.
    due: std::collections::VecDeque<String>,
}

impl TokenStepPasses {
    /// Follows an applied action (`pre` = the state before it, when in an operating round;
    /// without it, the turn that began with an operating round's start).
    pub(super) fn applied(&mut self, pre: Option<&State>, post: &State) {
        self.due.clear();
        for began in [false, true] {
            if let Some(corp) =
                crate::g1841::export18xx::token_step_opened_in_18xx(pre, post, began)
            {
                self.due.push_back(corp);
            }
        }
    }

    /// Whether `action` is such a pass (to be dropped): a recorded (not automatic) `pass` of
    /// the corporation due first, which this engine has moved past its token step.
    pub(super) fn drops(&mut self, state: &State, action: &ImportedAction) -> Option<&'static str> {
        if action.auto {
            return None;
        }
        let due = self.due.pop_front();
        let past_token = |c: &str| match &state.round {
            Round::OperatingRound(r) if r.current.as_deref() == Some(c) => {
                r.step > OperatingStep::Token && r.event.is_none() && r.start.is_none()
            }
            Round::OperatingRound(r) => r.done.iter().any(|d| d == c),
            _ => false,
        };
        match (&action.entity, due) {
            (Entity::Corporation(c), Some(d))
                if action.kind == "pass" && *c == d && past_token(c) =>
            {
                Some("token step with no legal placement")
            }
            _ => {
                self.due.clear();
                None
            }
        }
    }
}

/// How many tiles 18xx.games' track step lets `corp` lay in one turn
/// (`G1841::Step::Track#num_possible_lays`): a minor 1; a major one per base (token in a
/// non-pass city) in phase 2, at most 2 in phases 3 and 4, then 1 (1841 §9.1). Its step stays
/// open, waiting for a lay or a `pass`, until that many tiles are laid.
fn xx_possible_lays(state: &State, corp: &str) -> usize {
    let major = state
        .corporation(corp)
        .is_some_and(|c| c.kind == crate::g1841::state::CorporationKind::Major);
    if !major {
        return 1;
    }
    let bases = crate::g1841::track::bases(state, corp).len();
    match state.phase.as_str() {
        "2" => bases,
        "3" | "4" => bases.min(2),
        _ => 1,
    }
}

/// 18xx.games' track step (`G1841::Step::Track`) opens every corporation's operating turn,
/// also when no tile can be laid, and stays open after a lay while its count of lays
/// ([`xx_possible_lays`]) allows another: its record then has a `pass` where this engine has
/// already moved on (1841 §9.1: the track action is optional; this engine skips a step with
/// nothing legal). Followed over the replay: the step is open from the start of a
/// corporation's turn, and again after each of its lays while 18xx's count allows more, until
/// the corporation's next record.
#[derive(Default)]
pub(super) struct TrackStep {
    /// The turn followed: the operating round (stock round and number) and the corporation
    /// (a corporation can end one round's turns and begin the next round's).
    turn: Option<(u32, u32, String)>,
    open: bool,
    lays: usize,
}

impl TrackStep {
    /// Whether `action` is 18xx's pass of a track step this engine skipped (to be dropped),
    /// and which.
    pub(super) fn drops(&mut self, state: &State, action: &ImportedAction) -> Option<&'static str> {
        let Round::OperatingRound(r) = &state.round else {
            self.turn = None;
            return None;
        };
        let turn = r
            .current
            .as_ref()
            .map(|c| (r.stock_round, r.number, c.clone()));
        if turn != self.turn {
            self.open = turn.is_some();
            self.turn = turn;
            self.lays = 0;
            // A turn first seen after its lays: a record that opened it applied them too
            // (the odd merger shares this engine asks at the presidency's record, played
            // with the next record, a lay of the next corporation: v2 8 players seed 8170,
            // 18xx ids 922-926, SFLi's lay after RSFS's formation; its open track step's
            // `pass` was read as the pass of SFLi's token step, and its token refused "in
            // its routes step"). The lays are the state's.
            if let Some(c) = r.current.as_deref()
                && !r.laid_hexes.is_empty()
            {
                self.lays = r.laid_hexes.len();
                self.open = self.lays < xx_possible_lays(state, c);
            }
        }
        let operating = match &action.entity {
            Entity::Corporation(c) if Some(c) == r.current.as_ref() => c,
            _ => return None,
        };
        // 18xx's track step takes no automatic actions: an automatic pass is another step's.
        if !self.open || action.auto {
            return None;
        }
        if action.kind == "lay_tile" && !action.auto {
            self.lays += 1;
            self.open = self.lays < xx_possible_lays(state, operating);
            return None;
        }
        // A decision of a step 18xx asks before the track step leaves it open: the split's
        // "another round of purchases?" of a successor whose turn the split's end began
        // (lite 3 players random seed 3163, 18xx ids 422–423: SB's `choose n`, then its
        // track step's `pass`, which was read as its token purchase's pass and ended its
        // turn before its share purchase at id 426).
        if action.kind == "choose" {
            return None;
        }
        self.open = false;
        let skipped = action.kind == "pass"
            && r.event.is_none()
            && r.crowded.is_empty()
            && r.step != OperatingStep::Track
            && r.start.is_none();
        if !skipped {
            None
        } else if self.lays == 0 && r.laid_hexes.is_empty() {
            Some("track step with no legal lay")
        } else if self.lays > 0 {
            Some("further track lays with no legal lay")
        } else {
            None
        }
    }
}
