//! Writer of 18xx.games-style exports: a game of 1841 played on Referee (its setup and the
//! actions applied, in order) as the JSON 18xx.games serves for a game, the inverse of
//! [`super::import18xx`]. Pure: takes the history, returns JSON; no I/O.
//!
//! Every action is applied to the engine and written with the 18xx action type and the
//! identifier notation of [`super::import18xx::notation`] (share `SFTG_3`, tile copy `57-0`,
//! city `R14-0-0`, node `F16-1`, share price `100,3,5`). Details the engine's action leaves
//! open are taken from the state before and after it: the certificates that moved (share ids),
//! the market cell of a par, the tile copy laid, the revenue of each route, a concession's price.
//!
//! Mapping (the reverse of [`super::import18xx::ImportedAction::to_action`]):
//! `Bid` → `bid`, `BlindBid` → `blind_bid`, `Pass` → `pass` (`choose "no"` for an offered
//! share in a split or transformation), `Par` → `par`, `BuyShares` → `buy_shares` (`choose
//! "yes"` when offered), `SellShares`/`EmergencySell` → `sell_shares`, `PlaceToken` →
//! `place_token`, `BuyTokens` → `choose` (total at a start; additional tokens in a split or a
//! transformation), `BuyConcession` → `buy_company`, `LayTile` → `lay_tile`, `BuyTrain` →
//! `buy_train`, `RunRoutes` → `run_routes`, `Dividend` → `dividend`, `BuyToken` → `buy_token`,
//! `ChooseSplitPresidency`/`ExchangeSplitShare` → `choose "a"|"b"`, `RepeatPurchaseRound` →
//! `choose "y"|"n"`, `ProposeMerger`/`FormCorporation`/`Transform` → `merge`,
//! `ChooseMergerPrice` → `choose "first"|"last"`, `ClaimPresidency` → `choose "pres"|"no"`,
//! `ExchangeOddShare` → `choose "full"|"cash"` (in pass 2 one record per holder, as 18xx.games
//! asks: a declined claim with a single share is written as the holder's odd-share answer,
//! [`merger_pass2`]), `RemoveToken` → `remove_token`,
//! `DeclareBankruptcy` → `bankrupt`, `DiscardTrain` → `discard_train`; a merger this
//! engine backs out (nobody takes the presidency, 1841 §12.1) is followed by the `undo` to the
//! record before its proposal that 18xx.games' player records ([`MERGER_BACKED_OUT`]); with
//! `p2p_purchases` (1841 §15.3) an `OfferPurchase` accepted by `AnswerOffer` → one
//! `buy_shares` by the buyer (the certificates that left the seller, `percent`,
//! `total_price`) or `buy_company` (`company`, `price`), as 18xx.games records a direct
//! purchase from a player; a declined offer is not written (18xx has none; a buyer who then
//! passed automatically is written as passing), and an offer still waiting for its answer
//! at the end stops the export ([`ExportFailureKind::NotRepresentable`]).
//!
//! The entity is the one 18xx records: the player in the concession and stock rounds, the
//! operating corporation in its turn, the corporation being started for its home token and
//! token purchase, the holder deciding in a corporate event. Each written action is read back
//! at once with the importer against the same state; an action the importer would not read
//! back as the same seat and action is written with the acting player as entity, and if it
//! still does not read back the export stops there with
//! [`ExportFailureKind::NotRepresentable`]. So an export always re-imports to the same game.
//!
//! Share ids are 18xx.games' own: 18xx's certificates keep their ids through presidency
//! swaps, exchanges and restarts, where this engine's certificates of one size are
//! interchangeable, so the export follows 18xx's objects ([`super::share_ledger`]) and, where
//! this engine's indices differ, writes them beside (`referee_shares`, [`REFEREE_SHARES`]),
//! which the importer reads in place of `shares`. The top-level `exported_by` field marks the
//! file as Referee's; `referee_action_ids` ([`ACTION_IDS`]) maps each of our action indices to
//! the id of its record.
//!
//! The modules:
//! * `writer`: one action as a record, checked by reading it back, with `fields` (its 18xx
//!   type, fields and entity) and `shares` (the certificates it moves);
//! * `open_steps` and `passes`: the steps 18xx.games keeps open where this engine has moved on,
//!   and the records written for them; `stock_turns` (stock turns, 1841 §5.1) and
//!   `frozen_turn` (a corporation frozen mid-turn, §7.4) in particular;
//! * `events` (transformations, mergers, discards), `merger_pass2` (a merger's pass 2,
//!   §12.1) and `split` (the Ferdinandea split, §12.4): corporate events in 18xx's form;
//! * `order`: records put in 18xx's order once written; `top_level`: the document around
//!   the actions.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use serde_json::{Map, Value, json};

use super::G1841;
use super::action::Action;
use super::import18xx::{Entity, ExportPlayer};
use super::options::Options;
use super::share_ledger::{Ledger, TokenSlots};
use super::state::{PurchaseOffer, ShareOwner, State};
use crate::{Game, Rejection, Seat, SetupError};
use merger_pass2::{ALSO_INDEX_TAG, Pass2};

mod events;
mod fields;
mod frozen_turn;
mod merger_pass2;
mod open_steps;
mod order;
mod passes;
mod shares;
mod split;
mod stock_turns;
mod top_level;
mod writer;

pub(super) use events::compulsory_token_bought;
use events::discards_around_tuscan_merge;
pub(super) use open_steps::{
    frozen_mid_turn, token_step_opened_in_18xx, turn_end_passes, turns_played_through,
};
use open_steps::{
    share_step_closed_in_18xx, train_step_left_open_in_18xx, transform_offer_skipped,
    tuscan_removal_open,
};
use order::{
    PASS_2_PRES_TAG, PASS_2_TAG, in_player_order, merger_price_after_form,
    pass_2_claim_in_holder_order, pass_2_full_president, pass_2_position, sweep_place,
};
pub use top_level::optional_rules;
use top_level::top_level;

/// What to write besides the actions.

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExportSettings {
    /// The `id` written (default 0).
    pub id: Option<i64>,
    /// The players, one per seat in seat order. Empty: ids `1`, `2`, … and names
    /// `Player 1`, `Player 2`, …. Ids that are whole numbers are written as JSON numbers, as
    /// 18xx.games does.
    pub players: Vec<ExportPlayer>,
    /// The `description` written (default: `Exported by Referee (<rules version>)`).
    pub description: Option<String>,
}

/// Why the export stopped before the end of the history.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExportFailureKind {
    /// The engine refused the action (`rejection`).
    Refused,
    /// The action has no 18xx form that reads back as the same action.
    NotRepresentable,
}

/// The action the export stopped at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExportFailure {
    /// Index of the action in the history, from 0.
    pub index: usize,
    /// What happened.
    pub kind: ExportFailureKind,
    /// One sentence.
    pub reason: String,
    /// The engine's rejection, for a refused action.
    pub rejection: Option<Rejection>,
}

/// Why no export could be written at all.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ExportError {
    /// The game cannot be set up (player count for these options).
    #[error("{0}")]
    Setup(#[from] SetupError),
    /// `players` does not list one player per seat.
    #[error("players: {given} listed for {seats} seats")]
    Players {
        /// Players listed.
        given: usize,
        /// Seats of the game.
        seats: u32,
    },
}

/// An export and the game it describes.
#[derive(Clone, Debug, PartialEq)]
pub struct Exported {
    /// The export (an 18xx.games game JSON object).
    pub json: Value,
    /// The state after the last exported action.
    pub state: State,
    /// Actions written (= applied).
    pub actions_exported: usize,
    /// For each applied action (our index, from 0), the id of the record that carries it: its
    /// own record, or for an action with no record of its own (a purchase offer, a declined
    /// offer) the id of the next record written. Records 18xx.games needs where this engine
    /// skips a step (an explicit `pass`) have no index. Written as `referee_action_ids`.
    pub action_ids: Vec<i64>,
    /// Set when the history could not be written to its end.
    pub failure: Option<ExportFailure>,
}

/// Writes the game set up with `options` for `seats` players and played through `actions`
/// (`(seat, action)` in order, as `Replay` takes them) as an 18xx.games export: `id`,
/// `players`, `title` `1841`, `settings.optional_rules`, `actions` (ids from 1), `status`,
/// `acting`, and once the game is over `result` (player id → value in L.) and
/// `game_end_reason`. Stops at the first action the engine refuses or that has no 18xx form
/// ([`Exported::failure`]); the actions before it are written.
///
/// Errors: [`ExportError`] when no game can be set up or `players` has the wrong length.
pub fn export(
    options: &Options,
    seats: u32,
    actions: &[(Seat, Action)],
    settings: &ExportSettings,
) -> Result<Exported, ExportError> {
    let players = if settings.players.is_empty() {
        (1..=seats)
            .map(|n| ExportPlayer {
                id: n.to_string(),
                name: format!("Player {n}"),
            })
            .collect()
    } else if settings.players.len() == seats as usize {
        settings.players.clone()
    } else {
        return Err(ExportError::Players {
            given: settings.players.len(),
            seats,
        });
    };
    let mut state = G1841::setup(options, seats, 0)?;
    let mut writer = Writer {
        players: &players,
        tiles: BTreeMap::new(),
        supply: BTreeMap::new(),
        connected: BTreeSet::new(),
        ledger: Ledger::new(&state),
        split_tokens_seen: 0,
        compulsory: None,
        oo_removals: Vec::new(),
        slots: TokenSlots::default(),
        split_offers_done: BTreeSet::new(),
        ran_in_phase_2: BTreeSet::new(),
        pass_2: Pass2::default(),
    };
    let mut out = Vec::new();
    let mut failure = None;
    // 1841 §15.3: a purchase offer to another player waits for its answer (its index and the
    // state before it).
    let mut waiting: Option<(usize, State, PurchaseOffer)> = None;
    // Actions written as no record because 18xx.games had moved past their step with the
    // record before (the action's index and that record's id).
    let mut closed_with: Vec<(usize, i64)> = Vec::new();
    // The id of the last record before the merger proposal under way (1841 §12.1).
    let mut merger_base: i64 = 0;
    // 18xx.games' share ids at that record: its undo of a merger backed out restores them
    // ([`Writer::merger_backed_out`]).
    let mut merger_base_ledger: Option<Ledger> = None;
    for (index, (seat, action)) in actions.iter().enumerate() {
        let pre = state.clone();
        if matches!(action, Action::ProposeMerger { .. }) {
            merger_base = i64::try_from(out.len()).unwrap_or(i64::MAX);
            merger_base_ledger = Some(writer.ledger.clone());
        }
        // Seats whose stock turn this engine ended by itself where 18xx.games still offers
        // them something: their `pass` is written after the action's record.
        let (applied, open_turns) =
            super::stock_round::probe_turn_ends(stock_turns::turn_open_in_18xx, || {
                G1841::apply(&mut state, *seat, action)
            });
        let events = match applied {
            Ok(events) => events,
            Err(r) => {
                failure = Some(ExportFailure {
                    index,
                    kind: ExportFailureKind::Refused,
                    reason: r.message.clone(),
                    rejection: Some(r),
                });
                break;
            }
        };
        let id = i64::try_from(out.len() + 1).unwrap_or(i64::MAX);
        // 18xx.games records a purchase from a player as one direct purchase: an accepted
        // offer is written as that, a declined one not at all (a buyer who then passes
        // automatically is written as passing).
        match action {
            Action::OfferPurchase {
                seller,
                item,
                price,
            } => {
                let offer = PurchaseOffer {
                    buyer: *seat,
                    seller: *seller,
                    item: item.clone(),
                    price: *price,
                };
                waiting = Some((index, pre, offer));
                continue;
            }
            Action::AnswerOffer { accept } => {
                let Some((offer_index, before, offer)) = waiting.take() else {
                    continue;
                };
                let written = if *accept {
                    writer.purchase(&before, &state, &offer, id).map(Some)
                } else {
                    Ok(writer.pass_after_decline(&offer, &events, id))
                };
                writer.ledger.settle(&state);
                match written {
                    Ok(Some(mut json)) => {
                        json[INDEX_TAG] = Value::from(index);
                        out.push(json);
                        writer.open_turn_passes(&open_turns, &mut out);
                        writer.token_pass(&pre, &state, *seat, false, &mut out);
                        writer.track_pass(&pre, &state, *seat, &events, &mut out);
                        writer.token_pass(&pre, &state, *seat, true, &mut out);
                    }
                    Ok(None) => {
                        writer.open_turn_passes(&open_turns, &mut out);
                        writer.token_pass(&pre, &state, *seat, false, &mut out);
                        writer.track_pass(&pre, &state, *seat, &events, &mut out);
                        writer.token_pass(&pre, &state, *seat, true, &mut out);
                    }
                    Err(reason) => {
                        state = before;
                        failure = Some(ExportFailure {
                            index: offer_index,
                            kind: ExportFailureKind::NotRepresentable,
                            reason,
                            rejection: None,
                        });
                        break;
                    }
                }
                continue;
            }
            _ => {}
        }
        match writer.write(&pre, &state, *seat, action, &events, id) {
            Ok(mut json) => {
                if matches!(action, Action::DeclareBankruptcy { .. }) {
                    writer.ledger.bankrupt_sales(&ShareOwner::Player(*seat));
                }
                writer.follow_ledger(&pre, &state, *seat, action, &events);
                let open = writer.auto_actions(&pre, &state, action, &mut json);
                json[INDEX_TAG] = Value::from(index);
                if let Some(position) = pass_2_position(&pre, action) {
                    json[PASS_2_TAG] = Value::from(position);
                    if pass_2_full_president(&pre, action) {
                        json[PASS_2_PRES_TAG] = Value::from(true);
                    }
                }
                if share_step_closed_in_18xx(&pre, *seat, action) {
                    // No record: the step was over in 18xx with the last record written.
                    if let Ok(last) = i64::try_from(out.len())
                        && last > 0
                    {
                        closed_with.push((index, last));
                    }
                } else if writer
                    .pass_2
                    .answered(&pre, action, index, &mut out)
                    .is_none()
                {
                    // A merger's pass 2: one record per holder (`merger_pass2`).
                    if writer.pass_2.declined(&pre, action, &events, out.len())
                        && let Some(place) = sweep_place(&pre)
                    {
                        // Written now, answered at the odd shares, placed in holder order.
                        json[PASS_2_TAG] = Value::from(place);
                    }
                    out.push(json);
                }
                writer.pass_2.settled(&state, &events, &mut out);
                // The discards of a Tuscan merge that ran on behind the split's end in the
                // same action come after the split's token questions (below).
                let (early, late) = discards_around_tuscan_merge(&pre, action, &events);
                // 18xx's discard step waits for these corporations too (1841 §9.6, I26).
                writer.write_discards(early, *seat, &mut out);
                if let Some(undo) = writer.merger_backed_out(&events, *seat, merger_base, out.len())
                {
                    out.push(undo);
                    // The undo puts every certificate back where it was at the record before
                    // the proposal, under its id then: the exchanges and the treasury moves
                    // the ledger followed are taken back with it, not settled back by holding
                    // counts, which can swap two holders' ids (lite random 3 players seed
                    // 3103, ids 349-354: ATFA's and ICSF's 10% of RATF came back as each
                    // other's, and ICSF's emergency sale at id 381 named ATFA's RATF_5).
                    if let Some(ledger) = merger_base_ledger.take() {
                        writer.ledger = ledger;
                    }
                }
                writer.open_turn_passes(&open_turns, &mut out);
                writer.merger_oo_removals(&pre, &state, &events);
                writer.follow_slots(&pre, &state, action, &events);
                for raw in writer.merger_oo_due(&state, out.len()) {
                    out.push(raw);
                }
                if let Some(corp) = transform_offer_skipped(&pre, &state, action) {
                    // 18xx offers the transformation; the corporation did not transform.
                    let id = i64::try_from(out.len() + 1).unwrap_or(i64::MAX);
                    let seat = super::corporation::controller(&pre, &corp).unwrap_or(*seat);
                    out.push(writer.record(
                        "pass",
                        &Map::new(),
                        &Entity::Corporation(corp),
                        seat,
                        id,
                    ));
                }
                if let Some(major) = writer.compulsory_token(&pre, &state, action, &events) {
                    // 18xx asks for the count even when only the compulsory token is
                    // possible (`transform_tokens`: `min` = `max` = 1).
                    let id = i64::try_from(out.len() + 1).unwrap_or(i64::MAX);
                    let mut f = Map::new();
                    f.insert("choice".into(), Value::from(1));
                    let seat = super::corporation::controller(&state, &major).unwrap_or(*seat);
                    out.push(writer.record("choose", &f, &Entity::Corporation(major), seat, id));
                }
                for (entity, seat) in
                    writer.split_repeat_declines(&pre, &state, *seat, action, &events)
                {
                    // 18xx asks "another round of purchases?" where this engine closed that
                    // successor's purchases by rule: the decline (1841 §12.4).
                    let id = i64::try_from(out.len() + 1).unwrap_or(i64::MAX);
                    let mut f = Map::new();
                    f.insert("choice".into(), Value::from("n"));
                    out.push(writer.record("choose", &f, &entity, seat, id));
                }
                for (corp, decider) in
                    writer.split_tokens_by_rule(&pre, &state, *seat, action, &events)
                {
                    // 18xx asks IRSFF's president how many tokens a successor without a
                    // president buys; this engine buys none for it (1841 §12.4).
                    let id = i64::try_from(out.len() + 1).unwrap_or(i64::MAX);
                    let mut f = Map::new();
                    f.insert("choice".into(), Value::from(0));
                    let _ = corp;
                    out.push(writer.record("choose", &f, &Entity::Player(decider), decider, id));
                }
                writer.write_discards(late, *seat, &mut out);
                if let Some(target) = tuscan_removal_open(&pre, &state, action) {
                    // 18xx's removal of SFLi's tokens stays open for more (1841 §12.3).
                    let id = i64::try_from(out.len() + 1).unwrap_or(i64::MAX);
                    let seat = super::corporation::controller(&state, &target).unwrap_or(*seat);
                    out.push(writer.record(
                        "pass",
                        &Map::new(),
                        &Entity::Corporation(target),
                        seat,
                        id,
                    ));
                }
                // 18xx's train step, then its corporate share step and its transformation
                // step, of a corporation frozen mid-turn stay open.
                for (corp, seat) in train_step_left_open_in_18xx(&pre, &state)
                    .into_iter()
                    .chain(frozen_turn::share_step_left_open_in_18xx(&pre, &state))
                    .chain(frozen_turn::transform_step_left_open_in_18xx(&pre, &state))
                {
                    let id = i64::try_from(out.len() + 1).unwrap_or(i64::MAX);
                    out.push(writer.record(
                        "pass",
                        &Map::new(),
                        &Entity::Corporation(corp),
                        seat,
                        id,
                    ));
                }
                if let Some((corp, autos)) = open {
                    // 18xx's track step still waits: its `pass` carries the Destinate record.
                    let id = i64::try_from(out.len() + 1).unwrap_or(i64::MAX);
                    let mut pass =
                        writer.record("pass", &Map::new(), &Entity::Corporation(corp), *seat, id);
                    pass["auto_actions"] = Value::Array(autos);
                    out.push(pass);
                }
                writer.token_pass(&pre, &state, *seat, false, &mut out);
                writer.track_pass(&pre, &state, *seat, &events, &mut out);
                writer.token_pass(&pre, &state, *seat, true, &mut out);
                writer.stale_route_runs(&pre, &state, *seat, action, &events, &mut out);
            }
            Err(reason) => {
                state = pre;
                failure = Some(ExportFailure {
                    index,
                    kind: ExportFailureKind::NotRepresentable,
                    reason,
                    rejection: None,
                });
                break;
            }
        }
    }
    if failure.is_none()
        && let Some((index, before, _)) = waiting
    {
        state = before;
        failure = Some(ExportFailure {
            index,
            kind: ExportFailureKind::NotRepresentable,
            reason: "a purchase offer waiting for its answer has no 18xx form".into(),
            rejection: None,
        });
    }
    in_player_order(&mut out, &players);
    merger_price_after_form(&mut out);
    pass_2_claim_in_holder_order(&mut out);
    let applied = failure.as_ref().map_or(actions.len(), |f| f.index);
    let mut action_ids = index_to_id(&mut out, applied);
    for (index, id) in closed_with {
        if let Some(slot) = action_ids.get_mut(index) {
            *slot = id;
        }
    }
    let mut json = top_level(options, &players, &state, out.clone(), settings);
    json[ACTION_IDS] = json!(action_ids);
    Ok(Exported {
        json,
        state,
        actions_exported: out.len(),
        action_ids,
        failure,
    })
}

/// Top-level field of an export: for each of our actions (index from 0), the id of the record
/// that carries it ([`Exported::action_ids`]), so that a report on an 18xx id names our index.
pub const ACTION_IDS: &str = "referee_action_ids";

/// The temporary field that carries a record's action index until the ids are final.
const INDEX_TAG: &str = "_referee_index";

/// Takes the index tags off the records and returns the id of the record of each of the
/// first `applied` actions (an action without a record of its own: the next record's id, or
/// one past the last id).
fn index_to_id(out: &mut [Value], applied: usize) -> Vec<i64> {
    let mut ids: Vec<Option<i64>> = vec![None; applied];
    for record in out.iter_mut() {
        let Some(obj) = record.as_object_mut() else {
            continue;
        };
        let index = obj.remove(INDEX_TAG).and_then(|v| v.as_u64());
        let also = obj.remove(ALSO_INDEX_TAG).and_then(|v| v.as_u64());
        let id = obj.get("id").and_then(Value::as_i64);
        for i in [index, also].into_iter().flatten() {
            if let Some(id) = id
                && let Some(slot) = usize::try_from(i).ok().and_then(|i| ids.get_mut(i))
            {
                *slot = Some(id);
            }
        }
    }
    let mut next = i64::try_from(out.len() + 1).unwrap_or(i64::MAX);
    let mut result = vec![0; applied];
    for (i, id) in ids.iter().enumerate().rev() {
        if let Some(id) = id {
            next = *id;
        }
        result[i] = next;
    }
    result
}

/// Follows what the record needs across actions: the tile copy on each hex.
struct Writer<'a> {
    players: &'a [ExportPlayer],
    /// Tile copy id (`57-0`) on each hex where a tile was laid.
    tiles: BTreeMap<String, String>,
    /// Tile copies in the supply, by tile number, in the order 18xx offers them.
    supply: BTreeMap<String, VecDeque<String>>,
    /// Off-board groups (1841 §13) whose connection a `destination_connection` has recorded.
    connected: BTreeSet<String>,
    /// 18xx.games' share ids and their holders.
    ledger: Ledger,
    /// Successors of the Ferdinandea split whose token purchase is written or decided
    /// (1841 §12.4; [`Writer::split_tokens_by_rule`]).
    split_tokens_seen: usize,
    /// The major of a transformation in progress whose compulsory second token this engine
    /// bought when the token step began (1841 §12.2), counted in 18xx's token choice.
    compulsory: Option<String>,
    /// Tokens of a merger's old corporations this engine removed from the second city of a
    /// two-city hex holding the other's token ([`Writer::merger_oo_removals`]), to be written
    /// as 18xx.games' `remove_token` once the merger's exchanges are over.
    oo_removals: Vec<OoRemoval>,
    /// 18xx.games' token slots of each city ([`Writer::follow_slots`]).
    slots: TokenSlots,
    /// Successors of the Ferdinandea split whose further purchase rounds 18xx.games counts as
    /// over (`@secession_offer_donea`/`doneb`; [`Writer::split_repeat_declines`]).
    split_offers_done: BTreeSet<String>,
    /// Corporations that ran routes in phase 2, whose route 18xx.games' phase-2 graph keeps
    /// as runnable for good ([`Writer::stale_route_runs`]).
    ran_in_phase_2: BTreeSet<String>,
    /// A merger's pass-2 records, one per holder as 18xx.games asks (1841 §12.1).
    pass_2: Pass2,
}

/// A merger's token on a two-city tile removed by rule ([`Writer::merger_oo_removals`]).
struct OoRemoval {
    /// The corporation formed.
    target: String,
    /// Who 18xx asks: the new corporation when a player controls it, else the player
    /// controlling the initiator (18xx `@merger_decider`).
    entity: Entity,
    seat: Seat,
    /// 18xx's city id and the token's slot in it.
    city: String,
    slot: usize,
}

/// Field of a `buy_shares`/`sell_shares` record written beside 18xx's `shares` where this
/// engine's certificate indices differ from 18xx.games' ids ([`super::share_ledger`]): the
/// importer reads it in place of `shares`, so an export re-imports to the same game.
pub const REFEREE_SHARES: &str = "referee_shares";

/// Field of the `undo` record a Referee export writes after a merger this engine backed out
/// ([`Writer::merger_backed_out`]): this engine's importer skips such an undo (18xx.games
/// follows it) and replays the proposal and the declines that backed the merger out.
pub const MERGER_BACKED_OUT: &str = "referee_merger_backed_out";

/// Field of a `buy_token` record naming the corporation whose token is bought (1841 §9.5),
/// beside 18xx's `slot` (18xx's slot order, [`Writer::follow_slots`], is not the order in
/// which this engine lists a city's holders): the importer reads it in place of the slot.
pub const REFEREE_SELLER: &str = "referee_seller";
