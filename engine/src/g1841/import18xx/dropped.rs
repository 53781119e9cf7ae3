//! Records of steps this engine skips or decisions it takes itself, judged one record at a
//! time and dropped by the replay: a stock turn it passed (1841 §5.1), a start's optional
//! second home token (§5.4), a token step with no placement (§9.2), a discard it made itself
//! (§9.6), a two-city token a merger removed by rule (§12.1), a token count or a split
//! question it settled (§12.2, §12.4).

use serde_json::Value;

use super::{Entity, ImportedAction, as_whole_number};
use crate::g1841::G1841;
use crate::g1841::action::Action;
use crate::g1841::corporation::controller;
use crate::g1841::data;
use crate::g1841::operating_round;
use crate::g1841::state::{CorporateEvent, MergerStage, OperatingStep, Round, SplitStage, State};
use crate::{Rejection, Seat};

/// The start of a corporation in progress (1841 §5.4), in a stock round or an operating
/// round's share step.
pub fn corporation_start(state: &State) -> Option<&crate::g1841::state::CorporationStart> {
    match &state.round {
        Round::StockRound(r) => r.start.as_ref(),
        Round::OperatingRound(r) => r.start.as_ref(),
        Round::ConcessionRound(_) => None,
    }
}

/// Whether `action` is 18xx.games' `pass` of the optional second home token of a
/// non-historical major (1841 §5.4 step 3) that this engine skipped because no city of the
/// region has a free slot (18xx offers the step while the region has another city at all).
pub(super) fn second_home_pass(state: &State, action: &ImportedAction) -> Option<&'static str> {
    let st = corporation_start(state)?;
    (action.kind == "pass"
        && matches!(&action.entity, Entity::Corporation(c) if *c == st.corporation)
        && st.step == crate::g1841::state::StartStep::BuyTokens
        && crate::g1841::start::home_optional(state, &st.corporation))
    .then_some("optional second home token with no free city")
}

/// Whether `action` is 18xx.games' "no" to another round of purchases of a successor in the
/// Ferdinandea split (`secession_offer_again`, `choose "n"`) where this engine has already
/// closed that successor's purchases (1841 §12.4: it asks only the president of a successor a
/// player controls, while a holder can buy and the last round sold a share; the writer
/// records 18xx's other questions as declined, [`crate::g1841::export18xx`]). The answer is the one
/// this engine took. Such a record arrives while this engine asks nothing of the split (its
/// tokens, or the split already over, another event open or none: `choose "n"` is only this
/// question in 1841), or while
/// it asks about the other successor (the record's entity is not that successor: IRSFF's
/// president for a successor no player controls, or the other successor).
pub(super) fn repeat_round_declined(
    state: &State,
    action: &ImportedAction,
) -> Option<&'static str> {
    let Round::OperatingRound(r) = &state.round else {
        return None;
    };
    if action.kind != "choose" || action.field("choice").and_then(Value::as_str) != Some("n") {
        return None;
    }
    let closed = match r.event.as_deref() {
        Some(CorporateEvent::Split(sp)) => {
            sp.stage != SplitStage::RepeatRound
                || !matches!(&action.entity, Entity::Corporation(c) if *c == sp.corporation)
        }
        // Another event already open (a merger voted right after the split, seed 6 of
        // `g1841_share_ids`): none of its questions is answered "n".
        _ => true,
    };
    closed.then_some("another round of split purchases this engine closed itself")
}

/// Whether `action` is 18xx.games' `discard_train` by a corporation no player controls:
/// this engine discards such a corporation's lowest trains itself when the limit drops
/// (1841 §9.6, interpretation I26), so the record has nothing left to do (another train
/// chosen by 18xx is a rules matter: the states part there).
/// Whether `action` is 18xx.games' removal of one of two merging corporations' tokens on a
/// two-city tile (yellow Torino H4, yellow Firenze; `merger_tokens_start` asks which goes,
/// 1841 §12.1) that this engine already made by itself: only in the automatic first step of
/// the Tuscan merge now (§12.3; the second minor's token goes), while a merger's choice
/// (stage `TwoCityTile`, and the removals of stage `Tokens`) reads as its `RemoveToken` —
/// so an export written before the choice was asked (the second corporation's token, at the
/// same place) still replays. Dropped when the named city holds no token of the corporation
/// removing (or, for a player, of any corporation with a token in another city of the hex)
/// while the hex holds one in another city, and no merger's own token removal is open on
/// that city.
pub(super) fn merger_second_city_removal(
    state: &State,
    action: &ImportedAction,
) -> Option<&'static str> {
    if action.kind != "remove_token" {
        return None;
    }
    let (hex, city) = action
        .city_of(state, action.field("city")?.as_str()?)
        .ok()?;
    if let Round::OperatingRound(r) = &state.round
        && let Some(CorporateEvent::Merger(m)) = r.event.as_deref()
        && matches!(m.stage, MergerStage::TwoCityTile | MergerStage::Tokens)
        && state
            .corporation(&m.target)
            .is_some_and(|c| c.tokens.iter().any(|t| t.hex == hex && t.city == city))
    {
        return None;
    }
    let elsewhere = |c: &crate::g1841::state::Corporation| {
        c.tokens.iter().any(|t| t.hex == hex && t.city != city)
            && !c.tokens.iter().any(|t| t.hex == hex && t.city == city)
    };
    let by_rule = match &action.entity {
        Entity::Corporation(sym) => state.corporation(sym).is_some_and(elsewhere),
        _ => state.corporations.iter().any(elsewhere),
    };
    by_rule.then_some("token on a two-city tile a merger removed by rule")
}

/// Whether `action` is 18xx.games' `discard_train` by a corporation nobody decides for
/// ([`operating_round::discard_seat`]: no controller, and not a merger's new corporation
/// before its presidency, whose discard the merger's decider makes, 1841 §12.1): this engine
/// discards such a corporation's lowest trains itself (1841 §9.6, I26). Dropped.
pub(super) fn discard_without_controller(
    state: &State,
    action: &ImportedAction,
) -> Option<&'static str> {
    (action.kind == "discard_train"
        && matches!(&action.entity, Entity::Corporation(c)
            if operating_round::discard_seat(state, c).is_none()))
    .then_some("train discard of a corporation nobody controls (automatic here)")
}

/// Whether `action` is 18xx.games' token count (`choose` with a number) asked of a player in
/// an operating round: 18xx asks IRSFF's president for a split successor without a president
/// (`secession_tokens`, `@secession_decider`) and the Tuscan merge's decider for a
/// presidentless SFLi (`transform_tokens`), where this engine buys no token for a
/// corporation nobody controls (1841 §12.4, §12.3). A corporation's own counts name the
/// corporation. Dropped: a count other than 0 is a decision this engine took otherwise (the
/// states part there, a rules matter for the conformance issue). Also in a stock round, which
/// asks players no count: the split's end, with the operating round's last train purchase,
/// may have begun it (lite 3 players random seed 3101, 18xx id 173: IRSFF's president's
/// `choose 0` for SB after ICSF's 4-train ended the round; it met "It is seat 2's turn").
pub(super) fn token_count_by_player(
    state: &State,
    action: &ImportedAction,
) -> Option<&'static str> {
    let number = action.field("choice").and_then(|c| {
        as_whole_number(c).or_else(|| c.as_str().and_then(|t| t.parse::<i64>().ok()))
    })?;
    (action.kind == "choose"
        && matches!(action.entity, Entity::Player(_))
        && matches!(state.round, Round::OperatingRound(_) | Round::StockRound(_)))
    .then_some(if number == 0 {
        "token count of a corporation without a president (none, as this engine decides)"
    } else {
        "token count of a corporation without a president (18xx bought some; this engine none)"
    })
}

/// Whether `action` is a corporation's `pass` after this engine ended its operating turn
/// (18xx.games' transformation step, which it offers to a minor this engine lets go on, 1841
/// §12.2; written by a Referee export, [`crate::g1841::export18xx`]). Dropped before it is read, as
/// its seat may control the corporation operating now.
///
/// When that turn was the last of its operating round, the next round has begun (an operating
/// round with no turn done yet, or a stock round not starting this corporation): the pass
/// follows the corporation's own last record (`previous`).
pub(super) fn pass_after_turn(
    state: &State,
    action: &ImportedAction,
    previous: Option<&ImportedAction>,
) -> Option<&'static str> {
    let Entity::Corporation(c) = &action.entity else {
        return None;
    };
    if action.kind != "pass" {
        return None;
    }
    let after_own = !action.auto && previous.is_some_and(|p| p.entity == action.entity);
    const ROUND_END: &str = "operating turn this engine ended itself, the round's last";
    let r = match &state.round {
        Round::OperatingRound(r) => r,
        Round::StockRound(sr) => {
            return (after_own && sr.start.as_ref().is_none_or(|st| st.corporation != *c))
                .then_some(ROUND_END);
        }
        _ => return None,
    };
    if r.event.is_some() || r.start.is_some() || !r.crowded.is_empty() {
        return None;
    }
    if r.current.as_ref() == Some(c) {
        return None;
    }
    if r.done.contains(c) {
        return Some("operating turn this engine ended itself (nothing legal)");
    }
    // 18xx.games' removal of SFLi's tokens after the Tuscan merge (`G1841::Step::
    // RemoveTokens`) waits for a `pass` also when only SFLi's last non-pass token is left,
    // which neither engine removes; this engine's removal ends there (1841 §12.3).
    if data::ruleset(&state.options)
        .tuscan_merge
        .as_ref()
        .is_some_and(|t| t.result == *c)
    {
        return Some("end of the optional removal of SFLi's tokens this engine does not open");
    }
    (r.done.is_empty() && after_own).then_some(ROUND_END)
}

/// Whether `action` is a player's `pass` ending a stock round this engine had already ended:
/// the last turn of the round passed by itself (nothing legal, 1841 §5.1), where 18xx.games
/// still offered the player something it could not carry out and recorded his pass
/// ([`crate::g1841::export18xx`], `stock_turns`). The operating round has begun with no turn done
/// (the round may have ended with the action before: a sale, after which every other player and
/// then the seller passed by themselves). Dropped before it is read: read as a pass of the
/// player, it would pass the track step of a corporation he controls (a corporation's own
/// record names the corporation; 18xx records no player's `pass` in an operating round but
/// in a corporate event's decisions).
pub(super) fn stock_round_last_pass(
    state: &State,
    action: &ImportedAction,
    played_through: &std::collections::VecDeque<String>,
) -> Option<&'static str> {
    let Round::OperatingRound(r) = &state.round else {
        return None;
    };
    (action.kind == "pass"
        && !action.auto
        && matches!(action.entity, Entity::Player(_))
        && r.event.is_none()
        && r.start.is_none()
        && no_turn_recorded_yet(state, r, played_through)
        && r.laid_hexes.is_empty())
    .then_some("stock-round turn this engine passed itself (nothing legal), the round's end")
}

/// Whether no corporation has had a turn with records in the operating round `r` yet: none
/// is done but frozen ones, whose turn is automatic (1841 §7.4: a frozen corporation only
/// moves left; 18xx records nothing for it). A frozen corporation first in the order operates
/// as soon as the stock round ends (v2 4 players seed 2002 of `g1841_export`: SFLi). Nor
/// ones whose turn this engine played through with nothing legal (`played_through`: their
/// 18xx.games passes, [`super::passes::PlayedThroughPasses`], are still to be read, after the
/// players' last passes of the stock round: version_1 random 7 players seed 7116, id 895, CTS with
/// no train, no cash and no lay, first in the order).
fn no_turn_recorded_yet(
    state: &State,
    r: &crate::g1841::state::OperatingRound,
    played_through: &std::collections::VecDeque<String>,
) -> bool {
    r.done
        .iter()
        .all(|c| crate::g1841::corporation::frozen(state, c) || played_through.contains(c))
}

/// Whether a record this engine refused (`rejection`) belongs to a step it skips or a decision
/// it takes itself, to be accepted and dropped, and which (`previous`: the record applied
/// last, or a pass of 18xx's track step dropped after it):
/// * a player's `pass` in a stock round when this engine has already ended that turn: right
///   after the player's own sale, or a turn with nothing legal this engine passed by itself
///   (1841 §5.1; a pass changes nothing);
/// * a corporation's `pass` after this engine ended its operating turn, having nothing
///   legal left (18xx.games' track step waits for a `pass` even then);
/// * a corporation's `pass` ending the optional removal of tokens after a merger (18xx's
///   `G1841::Step::RemoveTokens` waits for it once the minimum is removed, 1841 §12.3) when
///   this engine has closed the removal;
/// * a corporation's `pass` of 18xx's token step (`Engine::Step::Token` opens whenever the
///   corporation has a token left and money for it, 1841 §9.2) right after its track step,
///   when this engine, finding no legal placement, is already past its token step;
/// * an automatic `pass` (from `auto_actions`) of a step this engine does not open: 18xx's
///   token purchase from another corporation (`G1841::Step::BuyToken`, 1841 §9.5) passes by
///   itself when nothing can be bought, and its merger step (§12.1) when no partner is
///   connected; this engine skips such steps;
/// * a corporation's token count (`choose` with a number) when this engine has no token
///   purchase open: it settled the count itself (a single possible count, 1841 §5.4,
///   §12.2).
///
/// Only refusals for the turn or the step (`NOT_YOUR_TURN`, `WRONG_STEP`, and the
/// `ILLEGAL_MOVE` of a pass where a pass is not an option) qualify: a record this engine
/// understands but finds against the rules still stops the replay.
pub(super) fn skipped_record(
    state: &State,
    action: &ImportedAction,
    previous: Option<&ImportedAction>,
    rejection: &Rejection,
    played_through: &std::collections::VecDeque<String>,
) -> Option<&'static str> {
    use crate::RejectionCode as C;
    let step_or_turn = matches!(rejection.code, C::NotYourTurn | C::WrongStep);
    match action.kind.as_str() {
        "pass"
            if rejection.code == C::NotYourTurn
                && matches!(action.entity, Entity::Player(_))
                && matches!(state.round, Round::StockRound(_)) =>
        {
            Some(
                if previous.is_some_and(|p| p.kind == "sell_shares" && p.entity == action.entity) {
                    "end of a stock-round turn this engine ended after a sale"
                } else {
                    "stock-round turn this engine passed itself (nothing legal)"
                },
            )
        }
        // The last turn of a stock round this engine passed by itself (nothing legal), the
        // round's last pass: 18xx's player still passes (1841 §5.1, I10).
        "pass"
            if rejection.code == C::NotYourTurn
                && matches!(action.entity, Entity::Player(_))
                && matches!(&state.round, Round::OperatingRound(r)
                    if r.event.is_none() && no_turn_recorded_yet(state, r, played_through) && r.laid_hexes.is_empty())
                && previous
                    .is_some_and(|p| p.kind == "pass" && matches!(p.entity, Entity::Player(_))) =>
        {
            Some("stock-round turn this engine passed itself (nothing legal), the round's end")
        }
        "pass"
            if !action.auto
                && matches!(rejection.code, C::WrongStep | C::IllegalMove)
                && matches!(&state.round, Round::OperatingRound(r)
                if r.event.is_none()
                    && r.start.is_none()
                    && matches!(r.step, OperatingStep::Routes | OperatingStep::Dividend
                        | OperatingStep::BuyToken | OperatingStep::Trains)
                    && matches!(&action.entity, Entity::Corporation(c)
                        if Some(c) == r.current.as_ref()
                            && state.corporation(c).is_some_and(|k| {
                                usize::try_from(k.tokens_total).unwrap_or(0) > k.tokens.len()
                            })))
                && previous.is_some_and(|p| {
                    p.entity == action.entity && matches!(p.kind.as_str(), "lay_tile" | "pass")
                }) =>
        {
            Some("token step with no legal placement")
        }
        "pass"
            if matches!(rejection.code, C::NotYourTurn | C::WrongStep)
                && matches!(action.entity, Entity::Corporation(_))
                && previous
                    .is_some_and(|p| p.kind == "remove_token" && p.entity == action.entity) =>
        {
            Some("end of the optional token removal this engine closed")
        }
        "pass"
            if rejection.code == C::NotYourTurn
                && matches!(&state.round, Round::OperatingRound(r)
                    if matches!(&action.entity, Entity::Corporation(c) if r.done.contains(c))) =>
        {
            Some("operating turn this engine ended itself (nothing legal)")
        }
        "pass" if action.auto && (step_or_turn || rejection.code == C::IllegalMove) => {
            Some("automatic pass of a step this engine skips")
        }
        // 18xx's routes step opened from its stale route cache for a corporation with no
        // route, run with no route (the export's `Writer::stale_route_runs`; 1841 §9.4: this
        // engine withheld 0 and moved on).
        "run_routes"
            if step_or_turn
                && action.fields.routes().is_some_and(<[_]>::is_empty)
                && matches!(&state.round, Round::OperatingRound(r)
                    if r.event.is_none()
                        && r.step != OperatingStep::Routes
                        && matches!(&action.entity, Entity::Corporation(c)
                            if Some(c) == r.current.as_ref())) =>
        {
            Some("empty run of a routes step this engine skipped (no route)")
        }
        "choose"
            if step_or_turn
                && matches!(action.entity, Entity::Corporation(_))
                && action.field("choice").is_some_and(|c| {
                    as_whole_number(c).is_some()
                        || c.as_str().is_some_and(|t| t.parse::<u32>().is_ok())
                })
                && !token_count_open(state) =>
        {
            Some("token count this engine settled itself")
        }
        _ => None,
    }
}

/// The seat that passes an optional step this engine has open while 18xx.games, which
/// recorded `action` (refused with `rejection`), had nothing to offer there and went on: in an
/// operating round without a corporate event or start, the operating corporation is in its
/// token, token-purchase, train (a purchase not required: the pass is refused otherwise),
/// corporate share, merger or transformation step (1841 §9.2, §9.5, §9.6, §9.7, §12), and the
/// record, refused for the turn or the step, is not a `pass` of that
/// corporation (a refused pass is never answered with another).
pub(super) fn step_18xx_skipped(
    state: &State,
    action: &ImportedAction,
    rejection: &Rejection,
) -> Option<Seat> {
    use crate::RejectionCode as C;
    if !matches!(rejection.code, C::NotYourTurn | C::WrongStep) {
        return None;
    }
    let Round::OperatingRound(r) = &state.round else {
        return None;
    };
    let by_operating =
        matches!(&action.entity, Entity::Corporation(c) if Some(c) == r.current.as_ref());
    if action.kind == "pass" && by_operating {
        return None;
    }
    // An empty run of 18xx's routes step by the operating corporation comes where this
    // engine found no route and moved on ([`skipped_record`]): no step of ours is passed.
    if action.kind == "run_routes"
        && by_operating
        && action.fields.routes().is_some_and(<[_]>::is_empty)
    {
        return None;
    }
    // A corporation's token count follows the record that opened it (a start, a split, a
    // transformation); passing an optional step opens none. One this engine refused is one
    // it settled itself ([`skipped_record`]: 18xx asks for the count even when only the
    // compulsory token of a transformation is possible, 1841 §12.2), even when the next
    // corporation's turn begins with an optional step.
    if action.kind == "choose"
        && matches!(action.entity, Entity::Corporation(_))
        && action.field("choice").is_some_and(|c| {
            as_whole_number(c).is_some() || c.as_str().is_some_and(|t| t.parse::<u32>().is_ok())
        })
    {
        return None;
    }
    if r.event.is_some() || r.start.is_some() || !r.crowded.is_empty() {
        return None;
    }
    let optional = matches!(
        r.step,
        OperatingStep::Token
            | OperatingStep::BuyToken
            | OperatingStep::Trains
            | OperatingStep::Shares
            | OperatingStep::Merge
            | OperatingStep::Transform
    );
    if !optional {
        return None;
    }
    controller(state, r.current.as_deref()?)
}

/// Whether the engine waits for a token count now (a start, the split's tokens, a
/// transformation's tokens).
fn token_count_open(state: &State) -> bool {
    state.players.iter().any(|p| {
        G1841::legal(state, p.seat)
            .actions
            .iter()
            .any(|a| matches!(a, Action::BuyTokens { .. }))
    })
}
