//! Game end and final scores (1841 §13).
//!
//! Triggers and when they end the game (`game_end.triggers` of the data):
//! * `bankrupt` — all players but one bankrupt: immediately;
//! * `stock_market` — a corporation reaches the end-game cell (L.516): at the end of the
//!   current corporation turn (or of the stock round);
//! * `offboards` — every off-board group connected by track to some corporation: at the end
//!   of the current corporation turn;
//! * `bank` — the bank is broken (its cash falls below 0): at the end of the current
//!   operating round (or of the next one, when it breaks in a stock round).
//!
//! The first trigger met is kept unless a later one ends the game sooner (immediate before
//! the end of the turn before the end of the operating round: L.516 reached after the bank
//! broke ends the game after that turn, reason `stock_market`); the game ends when the kept
//! trigger's timing comes. With
//! `immediate_game_end` (FAQ-Q27: "even if the bank has already run out of money, the game
//! ends immediately when a price marker reaches L.516 or when all off-board connections have
//! been connected") the `stock_market` and `offboards` triggers end the game at once — right
//! after the action that met them, in the middle of a turn — and replace a `bank` trigger
//! recorded before. Score (18xx
//! `player_value`) = cash, plus the market value of every certificate held (units × current
//! price), plus the face value of concessions still held, minus bankruptcy loans (a player who
//! resigned through bankruptcy holds nothing: minus his earlier loans); highest wins, ties
//! share the rank.

use super::action::Event;
use super::data;
use super::map;
use super::state::{Round, ShareOwner, State};
use super::track;
use crate::Outcome;

/// End reason of a game that could never change again, as builds before 2026-12-07 ended it
/// (interpretation I29 then: a stock round from SR 2 on in which nobody could act, no
/// corporation with a controlling player, no income for anyone). No longer given: such a game
/// plays its empty rounds to 18xx.games' turn limit ([`TURN_LIMIT`]), as 18xx.games does, since
/// frozen corporations still move left in them and the scores with them (p2p_purchases random
/// 7 players seed 7132: one player's score). A state saved with it still loads.
pub const NO_PLAYER_CAN_ACT: &str = "no_player_can_act";

/// End reason of a game still running when a round ends in stock round (turn) 100 or later
/// ([`LAST_TURN`]): 18xx.games' safety stop (`Game::Base#process_action`: `elsif @turn >= 100
/// then end_game!(:dnf)`, "did not finish"), with the usual scores. The rules have no such
/// end (interpretation I29); a game this long is one in which nothing can change any more:
/// every corporation frozen, or corporations with a controlling player and nothing to do
/// (version_1 + `sfli_run_variant` random 8 players seed 8166, whose empty rounds after its
/// last action once overflowed the stack). It also bounds the rounds one action can play
/// through by themselves ([`super::flow`]).
pub const TURN_LIMIT: &str = "dnf";

/// The stock round (18xx's turn) whose end, or the end of any later round, ends the game as
/// [`TURN_LIMIT`].
pub const LAST_TURN: u32 = 100;

/// Ends the game as [`TURN_LIMIT`] when a round of stock round `stock_round` ends and the
/// limit is reached; whether it did.
pub fn at_turn_limit(state: &mut State, stock_round: u32, events: &mut Vec<Event>) -> bool {
    if stock_round < LAST_TURN || state.game_end.ended {
        return false;
    }
    state.game_end.trigger = Some(TURN_LIMIT.to_string());
    finish(state, events);
    true
}

/// Whether the game is over.
pub fn ended(state: &State) -> bool {
    state.game_end.ended
}

/// Whether `reason` is a trigger FAQ-Q27 makes immediate (option `immediate_game_end`).
fn immediate_by_faq(state: &State, reason: &str) -> bool {
    state.options.immediate_game_end() && matches!(reason, "stock_market" | "offboards")
}

fn timing(state: &State, reason: &str) -> String {
    if immediate_by_faq(state, reason) {
        return "immediate".to_string();
    }
    data::ruleset(&state.options)
        .game_end
        .triggers
        .get(reason)
        .cloned()
        .unwrap_or_else(|| "current_or".to_string())
}

/// How soon a trigger's timing ends the game: `immediate` before `current_turn` (the end of
/// the current corporation turn) before `current_or` (the end of the operating round).
fn urgency(timing: &str) -> u8 {
    match timing {
        "immediate" => 0,
        "current_turn" => 1,
        _ => 2,
    }
}

/// Records the end trigger met now (1841 §13): all players but one bankrupt, a corporation
/// on the end-game price, every off-board group connected, a broken bank. A trigger is
/// recorded when none is, and replaces the recorded one when its timing comes sooner (1841
/// §13: "the first triggered timing wins, priority immediate > end of current turn > end of
/// OR"; 18xx `game_end_check` with `GAME_END_TIMING_PRIORITY`): L.516 reached in the
/// operating round in which the bank broke ends the game at the end of that corporation's
/// turn, reason `stock_market`, not at the end of the round (FAQ-Q27's note). With
/// `immediate_game_end` (FAQ-Q27) the stock-market and off-board triggers are immediate and
/// so replace a recorded `bank` trigger at once.
pub fn detect(state: &mut State) {
    if state.game_end.ended {
        return;
    }
    let Some(now) = trigger_now(state) else {
        return;
    };
    let sooner = match state.game_end.trigger.as_deref() {
        None => true,
        Some(recorded) => urgency(&timing(state, now)) < urgency(&timing(state, recorded)),
    };
    if sooner {
        state.game_end.trigger = Some(now.to_string());
    }
}

/// Records the `bank` trigger when the bank's cash has just fallen below 0 in the middle of
/// an action that refills it before it ends (1841 §13: the bank breaks when it cannot pay;
/// 18xx `Bank#check_cash` breaks it on any payment it cannot cover, for good): the end of
/// the action would show a bank in funds and [`detect`] would miss it. A trigger recorded
/// before stays unless this one ends the game sooner, as in [`detect`].
pub fn bank_breaks_if_short(state: &mut State) {
    if state.game_end.ended || state.bank_cash >= 0 {
        return;
    }
    let sooner = match state.game_end.trigger.as_deref() {
        None => true,
        Some(recorded) => urgency(&timing(state, "bank")) < urgency(&timing(state, recorded)),
    };
    if sooner {
        state.game_end.trigger = Some("bank".to_string());
    }
}

/// The end trigger met now, the first of: all players but one bankrupt, a corporation on
/// the end-game price, every off-board group connected, a broken bank (1841 §13).
fn trigger_now(state: &State) -> Option<&'static str> {
    let rules = data::ruleset(&state.options);
    let end_price = rules.game_end.end_game_price;
    let solvent = state.players.iter().filter(|p| !p.bankrupt).count();
    if solvent <= 1 && state.players.iter().any(|p| p.bankrupt) {
        Some("bankrupt")
    } else if state
        .corporations
        .iter()
        .any(|c| c.price().is_some_and(|p| p >= end_price))
    {
        Some("stock_market")
    } else if !rules.game_end.offboard_groups.is_empty()
        && state.game_end.connected_offboards.len() >= rules.game_end.offboard_groups.len()
    {
        Some("offboards")
    } else if state.bank_cash < 0 {
        Some("bank")
    } else {
        None
    }
}

/// Records the off-board groups that corporation `sym`'s track now reaches (1841 §13: after
/// each of its tile lays; the track graph from its tokens, province borders ignored).
///
/// The search runs only when some group not yet connected lies next to track
/// ([`may_be_reached`]: most lays are far from every off-board), on the shared board of the
/// state, where it is remembered (a corporation with one base asks the same question for its
/// route check, `route_available`).
pub fn record_offboards(state: &mut State, sym: &str) {
    let board = track::Board::shared(state);
    record_offboards_on(state, sym, &board);
}

/// [`record_offboards`] on `board`, the board of `state` (what [`track::Board::new`] gives
/// for it).
pub fn record_offboards_on(state: &mut State, sym: &str, board: &track::Board) {
    debug_assert!(
        board.is_current(state),
        "record_offboards: the board of the state"
    );
    let rules = data::ruleset(&state.options);
    let starts: Vec<(&str, usize)> = board
        .bases(state, sym)
        .into_iter()
        .map(|(h, n, _)| (h, n))
        .collect();
    // The groups still unconnected that the search could reach.
    let candidates: Vec<(&String, &data::OffboardGroup)> = rules
        .game_end
        .offboard_groups
        .iter()
        .filter(|(name, group)| {
            !state.game_end.connected_offboards.contains(name)
                && may_be_reached(board, group, &starts)
        })
        .collect();
    if starts.is_empty() || candidates.is_empty() {
        return;
    }
    let reach = board.reach(state, sym, &starts, None);
    let m = board.map;
    for (name, group) in candidates {
        // A node reached on one of the group's hexes (looked up by index; a hex off the
        // map is never reached).
        let reached = group.hexes_with_track.iter().any(|h| match m.hex_index(h) {
            Some(i) => {
                let nodes = reach.node_indices();
                let at = nodes.partition_point(|&(hi, _)| hi < i);
                nodes.get(at).is_some_and(|&(hi, _)| hi == i)
            }
            None => reach.nodes().any(|(hex, _)| hex == h.as_str()),
        });
        if reached {
            state.game_end.connected_offboards.push(name.clone());
        }
    }
    let order: Vec<&String> = rules.game_end.offboard_groups.keys().collect();
    state
        .game_end
        .connected_offboards
        .sort_by_key(|g| order.iter().position(|o| *o == g));
}

/// Whether a track search from `starts` on `board` (borders ignored) could reach a node of
/// `group` at all — a necessary condition, checked without searching: a start lies on one of
/// the group's hexes, or a neighbour of one of them shows track on the edge they share (the
/// search enters a hex only from a start on it or across an edge from a neighbour's track,
/// [`track::reach`]). A group hex off the map counts as reachable (the search decides).
fn may_be_reached(
    board: &track::Board,
    group: &data::OffboardGroup,
    starts: &[(&str, usize)],
) -> bool {
    let m = board.map;
    group.hexes_with_track.iter().any(|h| {
        let Some(i) = m.hex_index(h) else {
            return true;
        };
        if starts.iter().any(|(s, _)| *s == h.as_str()) {
            return true;
        }
        // Edge `e` of hex `i` is edge `e + 3` of its neighbour there (`map` tests that the
        // neighbours are symmetric).
        (0..6u8).any(|e| {
            let Some(nb) = m.neighbor_index[i][usize::from(e)] else {
                return false;
            };
            let facing = map::End::Edge((e + 3) % 6);
            board
                .view(nb)
                .is_some_and(|v| v.paths.iter().any(|p| p.a == facing || p.b == facing))
        })
    })
}

/// Ends the game at once for an immediate trigger (all players but one bankrupt, §13).
pub fn finish_if_immediate(state: &mut State, events: &mut Vec<Event>) {
    detect(state);
    let due = state
        .game_end
        .trigger
        .clone()
        .is_some_and(|r| timing(state, &r) == "immediate");
    if due {
        finish(state, events);
    }
}

/// Ends the game if its trigger's timing has come at the end of a corporation's turn.
pub fn at_end_of_turn(state: &mut State, events: &mut Vec<Event>) -> bool {
    detect(state);
    let due = state
        .game_end
        .trigger
        .clone()
        .is_some_and(|r| matches!(timing(state, &r).as_str(), "current_turn" | "immediate"));
    if due {
        finish(state, events);
    }
    due
}

/// Ends the game at the end of an operating round if any trigger is recorded.
pub fn at_end_of_operating_round(state: &mut State, events: &mut Vec<Event>) -> bool {
    detect(state);
    let due = state.game_end.trigger.is_some();
    if due {
        finish(state, events);
    }
    due
}

/// Ends the game at the end of a stock round if a turn-timed trigger (the stock market) is
/// recorded; a broken bank waits for the end of the next operating round.
pub fn at_end_of_stock_round(state: &mut State, events: &mut Vec<Event>) -> bool {
    detect(state);
    at_end_of_turn(state, events)
}

/// Ends the game now (1841 §13): no one acts any more; the scores are final.
pub fn finish(state: &mut State, events: &mut Vec<Event>) {
    if state.game_end.ended {
        return;
    }
    state.game_end.ended = true;
    if let Round::OperatingRound(r) = &mut state.round {
        r.current = None;
        r.start = None;
        r.crowded.clear();
    }
    if let Round::StockRound(r) = &mut state.round {
        r.start = None;
    }
    events.push(Event::GameEnded {
        reason: state.game_end.trigger.clone().unwrap_or_default(),
        scores: scores(state),
    });
}

/// Each player's value in L., by seat (1841 §13, 18xx `player_value`): cash + certificates
/// at market value (units × price; unstarted corporations count 0) + face value of the
/// concessions still held − bankruptcy loans; a player who resigned (§14) holds nothing and
/// scores minus the loans he took before (0 without).
pub fn scores(state: &State) -> Vec<i64> {
    let face = data::ruleset(&state.options).concession_round.face_value;
    state
        .players
        .iter()
        .map(|p| {
            let shares: i64 = state
                .corporations
                .iter()
                .filter_map(|c| c.price().map(|price| (c, price)))
                .map(|(c, price)| {
                    let units: u32 = c
                        .certificates
                        .iter()
                        .filter(|x| x.owner == ShareOwner::Player(p.seat))
                        .map(|x| x.percent / c.unit_percent())
                        .sum();
                    price.saturating_mul(i64::from(units))
                })
                .sum();
            // A resigned player holds nothing; loans he took at an earlier bankruptcy stay
            // subtracted (18xx `player_value`: `value - @loans[player]`).
            if p.bankrupt {
                return 0i64.saturating_sub(p.loan);
            }
            p.cash
                .saturating_add(shares)
                .saturating_add(face.saturating_mul(p.concessions.len() as i64))
                .saturating_sub(p.loan)
        })
        .collect()
}

/// The outcome of a finished game: scores, ranks (1 = best, ties share a rank) and the end
/// reason (`bank`, `stock_market`, `offboards`, `bankrupt`); `None` while the game goes on.
pub fn outcome(state: &State) -> Option<Outcome> {
    if !state.game_end.ended {
        return None;
    }
    let scores = scores(state);
    let ranks = scores
        .iter()
        .map(|s| 1 + scores.iter().filter(|o| *o > s).count() as u32)
        .collect();
    Some(Outcome {
        scores,
        ranks,
        end_reason: state.game_end.trigger.clone().unwrap_or_default(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Game;
    use crate::g1841::{G1841, Options};

    #[test]
    fn s13_scores_count_cash_certificates_and_concessions() {
        let mut s = G1841::setup(&Options::default(), 4, 0).unwrap_or_else(|e| panic!("{e}"));
        // Fresh game: only cash (L.840 each, 4 players).
        assert_eq!(scores(&s), vec![840; 4]);
        s.players[1]
            .concessions
            .push(crate::g1841::Concession::Bayard);
        assert_eq!(
            scores(&s)[1],
            890,
            "a concession counts its face value L.50"
        );
        assert_eq!(outcome(&s), None);
        s.game_end.trigger = Some("bank".into());
        let mut events = Vec::new();
        finish(&mut s, &mut events);
        let o = outcome(&s).unwrap_or_else(|| panic!("ended"));
        assert_eq!(o.ranks, [2, 1, 2, 2]);
        assert_eq!(o.end_reason, "bank");
    }

    /// 1841 §13, §14: a player who resigned holds nothing; the loans he took in earlier
    /// bankruptcies still count (18xx `player_value` = value − loans: harness version_1 random
    /// 3 players seed 3001, player 2 took a loan at id 706 and resigned later: 18xx −500).
    #[test]
    fn s13_a_resigned_player_still_owes_his_earlier_loans() {
        let mut s = G1841::setup(&Options::default(), 4, 0).unwrap_or_else(|e| panic!("{e}"));
        for seat in [1, 2] {
            let p = &mut s.players[seat];
            p.cash = 0;
            p.bankrupt = true;
        }
        s.players[2].loan = 1000;
        s.players[3].loan = 500;
        assert_eq!(scores(&s), vec![840, 0, -1000, 340]);
    }

    /// 1841 §14: a player who took the L.500 loan and later resigned keeps the loan against
    /// his score of 0 (18xx `player_value`: −500); one who only resigned scores 0.
    #[test]
    fn s14_a_resigned_players_earlier_loan_still_counts() {
        let mut s = G1841::setup(&Options::default(), 4, 0).unwrap_or_else(|e| panic!("{e}"));
        for seat in [1, 2] {
            let p = &mut s.players[seat];
            s.bank_cash += p.cash;
            p.cash = 0;
            p.bankrupt = true;
        }
        s.players[1].loan = 500;
        assert_eq!(scores(&s), vec![840, -500, 0, 840]);
    }
}
