//! The trains step (1841 §9.6): the operating corporation buys trains from the depot, the
//! pool or another corporation ([`super::super::trains`]), or passes unless it must buy one.
//! A corporation that must buy a train and cannot pay for it raises the money in an
//! emergency (1841 §14, [`super::super::emergency`]): its president contributes, the needy
//! chain sells shares, or the president goes bankrupt.

use super::super::super::action::{Action, Event, LegalActions};
use super::super::super::state::{OperatingStep, ShareOwner, State};
use super::super::super::track;
use super::super::emergency::{
    contribute, declare_bankruptcy, emergency_buys, emergency_sales, emergency_sell,
    in_emergency_with, may_go_bankrupt, sweep,
};
use super::super::trains::{
    buy_train, has_train_option, must_buy_train_with, train_options, train_options_of,
};
use super::super::{legal_with_lays, only_a_pass, round};
use super::{At, Judged, Settled, Then, only, unlisted};
use crate::{Rejection, RejectionCode, Seat};

/// The rule of the step.
pub(in super::super) const RULE: &str = "1841 §9.6";
/// The step in plain words.
pub(in super::super) const NAME: &str = "trains";

/// In an emergency (1841 §14): the emergency sales and purchases, the ranges of other
/// corporations' trains until the first emergency sale, and bankruptcy where it may be
/// declared; no pass. Otherwise: the depot and pool purchases, the ranges of other
/// corporations' trains, and a pass unless a train must be bought.
pub(super) fn legal(at: &At) -> LegalActions {
    let mut out = LegalActions::default();
    if in_emergency_with(at.state, at.board) {
        out.actions = emergency_sales(at.state);
        out.actions.extend(emergency_buys(at.state));
        if !round(at.state).is_some_and(|r| r.emergency) {
            out.train_purchases = train_options(at.state).1;
        }
        if may_go_bankrupt(at.state) {
            out.actions.push(Action::DeclareBankruptcy { loan: false });
            out.actions.push(Action::DeclareBankruptcy { loan: true });
        }
    } else {
        let (actions, ranges) = train_options(at.state);
        out.actions = actions;
        out.train_purchases = ranges;
        if !must_buy_train_with(at.state, at.board, at.sym) {
            out.actions.push(Action::Pass);
        }
    }
    out
}

/// The part of the listing that judges `action`: a pass by whether the corporation must buy
/// a train (never in an emergency); a purchase by the depot and pool purchases and the ranges
/// of its own train ([`train_options_of`]), in an emergency by the emergency purchases and
/// those ranges until the first emergency sale; an emergency sale by the emergency sales; a
/// bankruptcy by whether it may be declared. `None` for any other action.
pub(super) fn judge(at: &At, action: &Action) -> Option<LegalActions> {
    let r = round(at.state)?;
    let emergency = in_emergency_with(at.state, at.board);
    Some(match action {
        Action::Pass => only(
            if emergency || must_buy_train_with(at.state, at.board, at.sym) {
                Vec::new()
            } else {
                vec![Action::Pass]
            },
        ),
        Action::BuyTrain { train, from, .. } => {
            let of = Some((train.as_str(), from.as_str()));
            if emergency {
                LegalActions {
                    actions: emergency_buys(at.state),
                    train_purchases: if r.emergency {
                        Vec::new()
                    } else {
                        train_options_of(at.state, of).1
                    },
                    ..LegalActions::default()
                }
            } else {
                let (actions, train_purchases) = train_options_of(at.state, of);
                LegalActions {
                    actions,
                    train_purchases,
                    ..LegalActions::default()
                }
            }
        }
        Action::EmergencySell { .. } if emergency => only(emergency_sales(at.state)),
        Action::DeclareBankruptcy { .. } if emergency && may_go_bankrupt(at.state) => only(vec![
            Action::DeclareBankruptcy { loan: false },
            Action::DeclareBankruptcy { loan: true },
        ]),
        Action::EmergencySell { .. } | Action::DeclareBankruptcy { .. } => only(Vec::new()),
        _ => return None,
    })
}

/// The step waits while the listing holds more than a pass, found without listing: an
/// emergency (1841 §14) never lists a pass, a corporation that must buy lists none unless it
/// can buy, otherwise a pass is listed beside the purchases. Skipped otherwise.
pub(super) fn settle(state: &State, sym: &str, seat: Seat, board: &track::LazyBoard) -> Settled {
    let stay = has_train_option(state) || must_buy_train_with(state, board, sym);
    debug_assert_eq!(
        stay,
        !only_a_pass(&legal_with_lays(state, seat, None, board)),
        "the train step's skipping agrees with its listing"
    );
    Settled::waits_if(stay)
}

/// Carries out a purchase (in an emergency with the president's contribution first), an
/// emergency sale (with the proceeds moved on at once) or a bankruptcy (1841 §14: it settles
/// the train obligation and ends the turn; 18xx.games: `G1841::Step::Bankrupt#process_bankrupt`
/// → `done_operating!`, also when a holder took the presidency and could go on). Refuses a
/// pass of a corporation that must buy a train.
pub(super) fn apply(
    state: &mut State,
    j: &Judged,
    action: &Action,
    events: &mut Vec<Event>,
) -> Result<Then, Rejection> {
    match action {
        Action::Pass => {
            let emergency = in_emergency_with(state, j.board);
            Err(Rejection::new(
                RejectionCode::IllegalMove,
                if emergency { "1841 §14" } else { RULE },
                format!(
                    "{} has a route but no train: it must buy one{}.",
                    j.sym,
                    if emergency {
                        " (emergency money raising)"
                    } else {
                        ""
                    }
                ),
            ))
        }
        Action::BuyTrain { train, from, price }
            if j.listed && in_emergency_with(state, j.board) =>
        {
            contribute(state, j.sym, *price, events);
            buy_train(state, j.sym, train, from, *price, events);
            Ok(spent(state))
        }
        Action::EmergencySell {
            seller,
            corporation,
            percent,
        } if j.listed => {
            emergency_sell(state, j.seat, seller, corporation, *percent, events);
            let owner = match seller {
                Some(c) => ShareOwner::Corporation(c.clone()),
                None => ShareOwner::Player(j.seat),
            };
            sweep(state, j.sym, &owner, events);
            Ok(Then::Stay)
        }
        Action::DeclareBankruptcy { loan } if j.listed => {
            declare_bankruptcy(state, j.seat, *loan, events);
            Ok(
                if round(state).is_some_and(|r| r.event.is_none() && r.start.is_none()) {
                    Then::EndTurn
                } else {
                    Then::Stay
                },
            )
        }
        Action::BuyTrain { train, from, price }
            if j.listed
                || j.legal.train_purchases.iter().any(|t| {
                    &t.train == train
                        && &t.from == from
                        && (t.min_price..=t.max_price).contains(price)
                }) =>
        {
            buy_train(state, j.sym, train, from, *price, events);
            Ok(spent(state))
        }
        _ => Err(unlisted(state, j, action)),
    }
}

/// Ends the train step right after a purchase when the buyer cannot buy another train at
/// that moment (no room under the train limit of the phase now in force, or no train it can
/// pay from its treasury), before the first 4-train's events (1841 §11) or a discard
/// (§9.6) change its cash or its trains. 1841 §9.6 lets a corporation buy trains in its
/// train step and is silent on whether the step survives a purchase that leaves it unable
/// to buy; 18xx.games ends it then (`Step::BuyTrain#process_buy_train`: `pass! unless
/// can_buy_train?`), so a buyer left with L.0 that gets cash in the Tuscan merge (§12.3:
/// its SSFL share sold for half the new price) does not buy again, and this engine does
/// the same (interpretation I30; version_1 random p3 seed 3012, 18xx id 466: RSFS, L.0
/// after its 4-train, L.26 after the merge, goes to its share step).
fn spent(state: &State) -> Then {
    if round(state).is_some_and(|r| r.step == OperatingStep::Trains) && !has_train_option(state) {
        Then::Next
    } else {
        Then::Stay
    }
}
