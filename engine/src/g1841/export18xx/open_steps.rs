//! The steps 18xx.games opens or keeps open where this engine has moved on, decided from the
//! states before and after an action: a track step with no lay (1841 §9.1), a token step with
//! no placement (§9.2), a transformation offer (§12.2), the removal of SFLi's tokens after the
//! Tuscan merge (§12.3), the steps of a corporation frozen mid-turn (§7.4), and the corporate
//! share step 18xx closes first (§9.7). The importer reads the same answers to drop the
//! records again.

use super::frozen_turn;
use crate::g1841::G1841;
use crate::g1841::action::{Action, Event};
use crate::g1841::data;
use crate::g1841::operating_round;
use crate::g1841::state::{CorporateEvent, OperatingStep, Round, State};
use crate::{Game, Seat};

/// The corporation whose operating turn began with `pre → post` and whose track step this
/// engine skipped (no legal lay, 1841 §9.1), where 18xx.games opens its track step anyway and
/// needs a `pass` (the importer drops it again,
/// [`crate::g1841::import18xx::Replayed::passes_dropped`]).
pub(super) fn track_step_skipped(pre: &State, post: &State) -> Option<String> {
    let Round::OperatingRound(r) = &post.round else {
        return None;
    };
    if r.event.is_some() || !r.crowded.is_empty() || r.start.is_some() {
        return None;
    }
    let corp = r.current.clone()?;
    let began = match &pre.round {
        Round::OperatingRound(p) => {
            p.current.as_ref() != Some(&corp)
                || (p.stock_round, p.number) != (r.stock_round, r.number)
        }
        _ => true,
    };
    (began && r.step != crate::g1841::state::OperatingStep::Track && r.laid_hexes.is_empty())
        .then_some(corp)
}

/// The corporations whose whole operating turn this engine played by itself during one action
/// (`events`: each [`Event::OperatingTurn`] but a last one still running in `post`), in
/// operating order, that hold a token: 18xx.games opens the track step of every corporation
/// with a token (`G1841::Step::Track#can_lay_tile?`) and waits for its `pass` even when no tile
/// can be laid (1841 §9.1: the lay is optional), where this engine, with nothing legal in any
/// step, moves on to the next corporation (the importer drops the passes again:
/// "operating turn this engine ended itself"). A frozen corporation's turn (1841 §7.4) has no
/// such event; 18xx passes its steps itself.
pub(in crate::g1841) fn turns_played_through(post: &State, events: &[Event]) -> Vec<String> {
    let mut turns: Vec<&str> = events
        .iter()
        .filter_map(|e| match e {
            Event::OperatingTurn { corporation } => Some(corporation.as_str()),
            _ => None,
        })
        .collect();
    if let Round::OperatingRound(r) = &post.round
        && turns
            .last()
            .is_some_and(|c| r.current.as_deref() == Some(*c))
    {
        turns.pop();
    }
    turns
        .into_iter()
        .filter(|c| post.corporation(c).is_some_and(|k| !k.tokens.is_empty()))
        .map(str::to_string)
        .collect()
}

/// The minor whose operating turn ended with `action` (`pre → post`) without this engine
/// opening its transformation step, where 18xx.games offers it (`G1841::Step::Transform`: a
/// minor, non-historical or from phase 4, while a non-historical major can be formed; 1841
/// §12.2) and needs the corporation's `pass`. This engine offers the step to the same minors
/// whatever their cash (the second token may be raised by emergency money raising), so this
/// is left for a minor whose controller the action took away (`controller` in `pre`, no
/// target in `post`); the random games of `g1841_export_steps` write none since 2026-12-06
/// (9 before, while a minor without the L.50 skipped the step). The pass is the decision
/// made: no transformation.
pub(super) fn transform_offer_skipped(
    pre: &State,
    post: &State,
    action: &Action,
) -> Option<String> {
    let Round::OperatingRound(r) = &pre.round else {
        return None;
    };
    // A start by the minor in its share step (§9.7) may end its turn too: the new
    // corporation's token count is then the action (lite random 6 players seed 6002, 18xx id
    // 348: CTS's `choose` after CTLP started it; 18xx then offered CTLP the transformation).
    if r.event.is_some() || !r.crowded.is_empty() {
        return None;
    }
    let corp = r.current.clone()?;
    if r.step == crate::g1841::state::OperatingStep::Transform
        || matches!(
            action,
            Action::ProposeMerger { .. }
                | Action::Transform { .. }
                | Action::DeclareBankruptcy { .. }
        )
    {
        return None;
    }
    let ended = match &post.round {
        Round::OperatingRound(q) => {
            q.event.is_none()
                && (q.current.as_ref() != Some(&corp)
                    || (q.stock_round, q.number) != (r.stock_round, r.number))
        }
        _ => true,
    };
    let c = post.corporation(&corp)?;
    let offered = c.kind == crate::g1841::state::CorporationKind::Minor
        && !c.closed
        && c.started()
        && (!c.historical || crate::g1841::corporation::phase_number(post) >= 4)
        && crate::g1841::corporation::controller(pre, &corp).is_some()
        && operating_round::events::any_formable_major(post)
        && operating_round::events::transform::targets(post, &corp).is_empty();
    (ended && offered).then_some(corp)
}

/// Whether `action` is the operating corporation's `pass` of this engine's corporate share
/// step (1841 §9.7) where 18xx.games has closed that step already, so that no record is
/// written (the importer inserts the pass again,
/// [`crate::g1841::import18xx::Replayed::passes_inserted`]). 18xx opens the step
/// (`G1841::Step::CorporateBuySellParShares#actions`) only with something to sell, buy or
/// start; to start, the corporation must afford the first certificate in the treasury of a
/// corporation it may start (`can_ipo_any?`: a non-historical one from phase 3, a historical
/// one from phase 4; the president's certificate, or an ordinary one of a corporation that
/// was closed, at the lowest par price). This engine opens its step in the same cases since
/// interpretation I35's revision of 2026-12-06 (`operating_round::steps::shares`), so this
/// bridge is left for the cases I35 does not model (such as the split with IRSFF's
/// president's certificate in the pool): a step whose only action here is the pass, for a
/// corporation that cannot pay that certificate of any such corporation, is one 18xx skipped.
pub(super) fn share_step_closed_in_18xx(pre: &State, seat: Seat, action: &Action) -> bool {
    let Round::OperatingRound(r) = &pre.round else {
        return false;
    };
    if !matches!(action, Action::Pass)
        || r.step != OperatingStep::Shares
        || r.event.is_some()
        || r.start.is_some()
        || !r.crowded.is_empty()
    {
        return false;
    }
    let Some(buyer) = r.current.as_deref().and_then(|sym| pre.corporation(sym)) else {
        return false;
    };
    let startable = frozen_turn::startable_in_18xx(pre, &buyer.sym);
    !startable && G1841::legal_actions(pre, seat) == vec![Action::Pass]
}

/// How far `corp` is in its operating turn in `state`: `None` before its turn (or outside an
/// operating round), its step during it, `Some(None)` once it is over.
pub(super) fn turn_position(state: &State, corp: &str) -> Option<Option<OperatingStep>> {
    let Round::OperatingRound(r) = &state.round else {
        return None;
    };
    if r.current.as_deref() == Some(corp) {
        Some(Some(r.step))
    } else if r.done.iter().any(|d| d == corp) {
        Some(None)
    } else {
        None
    }
}

/// The corporation whose token step (1841 §9.2) this engine skipped during `pre → post`
/// while 18xx.games opens it with a `pass` as its only action
/// ([`operating_round::token_step_opens_in_18xx`]): with `began`, the corporation whose turn
/// began with the action, else the one operating before it. The importer's replay drops the
/// pass again (a pass of a step it has moved past). `pre` may be outside an operating round
/// (`None` for the importer, which keeps no state then): the round's first corporation, whose
/// turn began with the stock round's last action, skipped the step too (v2 6 players random
/// seed 6145, id 335: SFLP, reaching only Firenze before phase 4, "Blocking step Place a
/// Token cannot process action run_routes").
pub(in crate::g1841) fn token_step_opened_in_18xx(
    pre: Option<&State>,
    post: &State,
    began: bool,
) -> Option<String> {
    let Round::OperatingRound(q) = &post.round else {
        return None;
    };
    let p = match pre.map(|s| &s.round) {
        Some(Round::OperatingRound(p)) => Some(p),
        _ => None,
    };
    if q.event.is_some() || q.start.is_some() || !q.crowded.is_empty() {
        return None;
    }
    let corp = if began {
        q.current.clone()?
    } else {
        p?.current.clone()?
    };
    let same_round = p.is_some_and(|p| (p.stock_round, p.number) == (q.stock_round, q.number));
    let before = match pre {
        Some(pre) if same_round => turn_position(pre, &corp),
        _ => None,
    };
    if began != before.is_none() {
        return None;
    }
    // Before the token step then (or not yet operating), past it now.
    let was_before = match before {
        None => true,
        Some(Some(step)) => {
            step == OperatingStep::Track
                && p.is_some_and(|p| p.event.is_none() && p.start.is_none())
        }
        Some(None) => false,
    };
    let past = match turn_position(post, &corp) {
        Some(Some(step)) => step > OperatingStep::Token,
        Some(None) => true,
        None => false,
    };
    if !(was_before && past) {
        return None;
    }
    // 18xx's token step seen on the board after the action (the track step is over).
    let mut at_token = post.clone();
    if let Round::OperatingRound(r) = &mut at_token.round {
        r.current = Some(corp.clone());
        r.step = OperatingStep::Token;
    }
    operating_round::token_step_opens_in_18xx(&at_token).then_some(corp)
}

/// The corporation frozen mid-turn (1841 §7.4: no player controls it any more, here through
/// the event its train purchase caused, such as the split, §12.4) whose turn this engine
/// ended with `pre → post`, while 18xx.games keeps its train step open
/// (`G1841::Round::Operating#after_process` goes on for a corporation the pool controls;
/// `Step::BuyTrain` waits while the corporation has room under its limit and can pay the
/// cheapest train: L.1 from another corporation), with the seat to write its `pass` for:
/// no further train, the decision this engine makes for it.
pub(super) fn train_step_left_open_in_18xx(pre: &State, post: &State) -> Option<(String, Seat)> {
    if !matches!(&pre.round, Round::OperatingRound(p) if p.step == OperatingStep::Trains) {
        return None;
    }
    let (corp, seat) = frozen_mid_turn(pre, post)?;
    let c = post.corporation(&corp)?;
    let owned = post.operations.trains.get(&corp).map_or(0, Vec::len);
    let room = (owned as u32) < operating_round::train_limit(post, &corp);
    let affordable = operating_round::depot_train(post).is_some_and(|(_, price)| price <= c.cash)
        || (c.cash >= 1
            && post
                .operations
                .trains
                .iter()
                .any(|(other, trains)| *other != corp && !trains.is_empty()));
    (room && affordable).then_some((corp, seat))
}

/// The corporation frozen mid-turn whose turn this engine ended with `pre → post` (1841
/// §7.4, through the events of its train purchase), with the seat to write its passes for
/// (its controller before, else the next operating corporation's): see
/// [`train_step_left_open_in_18xx`] and
/// [`frozen_turn::share_step_left_open_in_18xx`]. The events may end in its
/// train step or, when this engine had already moved it on to its share step (no further
/// train to buy), in its share step: v2 5 players random seed 5112, 18xx id 529: RSFS's
/// 4-train splits IRSFF (§12.4), RSFS's president's certificate goes to SB, whose own is in
/// the pool, and the Tuscan merge follows (§11); after SFLi's last token decision (id 533)
/// 18xx waits in RSFS's share step (SFTN's pool share at L.9, RSFS L.19).
pub(in crate::g1841) fn frozen_mid_turn(pre: &State, post: &State) -> Option<(String, Seat)> {
    let (Round::OperatingRound(p), Round::OperatingRound(q)) = (&pre.round, &post.round) else {
        return None;
    };
    if !matches!(p.step, OperatingStep::Trains | OperatingStep::Shares)
        || p.event.is_none()
        || q.event.is_some()
    {
        return None;
    }
    let corp = p.current.clone()?;
    if turn_position(post, &corp) != Some(None)
        || crate::g1841::corporation::controller(post, &corp).is_some()
        || post.corporation(&corp).is_none_or(|c| c.closed)
    {
        return None;
    }
    let seat = crate::g1841::corporation::controller(pre, &corp)
        .or_else(|| {
            q.current
                .as_deref()
                .and_then(|n| crate::g1841::corporation::controller(post, n))
        })
        .unwrap_or(0);
    Some((corp, seat))
}

/// The corporations whose `pass` the writer appends after `action` (`pre → post`) for a step
/// 18xx.games keeps open where this engine has moved on, in the order written: the
/// transformation offer at the end of a minor's turn ([`transform_offer_skipped`]), the
/// optional removal of SFLi's tokens after the Tuscan merge ([`tuscan_removal_open`]) and the
/// train step, the share step and the transformation step of a corporation frozen mid-turn
/// ([`train_step_left_open_in_18xx`], [`frozen_turn`]). The
/// importer drops these passes: read as a pass of the corporation's controller, each would
/// pass what this engine asks next (SFLi's or the same corporation's next turn, or another
/// corporation of that player; [`crate::g1841::import18xx::Replayed::passes_dropped`]).
/// Each with whether it ends the Tuscan removal (else an operating turn).
pub(in crate::g1841) fn turn_end_passes(
    pre: &State,
    post: &State,
    action: &Action,
) -> Vec<(String, bool)> {
    transform_offer_skipped(pre, post, action)
        .map(|c| (c, false))
        .into_iter()
        .chain(tuscan_removal_open(pre, post, action).map(|c| (c, true)))
        .chain(train_step_left_open_in_18xx(pre, post).map(|(corp, _)| (corp, false)))
        .chain(frozen_turn::share_step_left_open_in_18xx(pre, post).map(|(corp, _)| (corp, false)))
        .chain(
            frozen_turn::transform_step_left_open_in_18xx(pre, post).map(|(corp, _)| (corp, false)),
        )
        .collect()
}

/// SFLi when the Tuscan merge ended with `pre → post` (1841 §12.3) and 18xx.games' removal
/// of its tokens still waits for a `pass` (`G1841::Step::RemoveTokens`): both engines let
/// SFLi's controller remove any of its tokens outside Pisa and Firenze (`merger_tokens_finish`:
/// at most every such token), but this engine's removal also ends when the only token left
/// to remove is SFLi's last non-pass token, which 18xx refuses to remove ("Cannot remove last
/// non-pass token") while its step waits; so when the merge ended otherwise than by a `pass`
/// with such a token left and a player controlling SFLi, 18xx's step is open. The importer
/// drops the `pass` again.
pub(super) fn tuscan_removal_open(pre: &State, post: &State, action: &Action) -> Option<String> {
    if matches!(action, Action::Pass) {
        return None;
    }
    let rules = data::ruleset(&post.options);
    let target = rules.tuscan_merge.as_ref()?.result.clone();
    let tuscan = |s: &State| {
        matches!(&s.round, Round::OperatingRound(r)
            if matches!(r.event.as_deref(), Some(CorporateEvent::Merger(m)) if m.target == target))
    };
    let started = |s: &State| s.corporation(&target).is_some_and(|c| c.started());
    let ended = started(post) && !tuscan(post) && (tuscan(pre) || !started(pre));
    if !ended {
        return None;
    }
    crate::g1841::corporation::controller(post, &target)?;
    let protected = rules.city_set("TUSCAN_TOKEN_HEXES");
    post.corporation(&target)?
        .tokens
        .iter()
        .any(|t| !protected.contains(&t.hex))
        .then_some(target)
}
