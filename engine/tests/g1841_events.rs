//! The corporate events of 1841 (1841 §7.4, §11, §12): the first 4-train (concessions
//! close, the delayed presidency check, unstarted historical corporations close), the
//! Ferdinandea split, the Tuscan merge, voluntary mergers, transformations, frozen and
//! circular control. Values are pinned on states of the recorded games (replayed with the
//! importer up to just before an action, then edited where a rule needs another situation)
//! and on hand-made situations.
//!
//! Seats of 132002: P1 = 0, P2 = 1, P3 = 2, P4 = 3.

use referee_engine::g1841::corporation::{circular, controller, frozen};
use referee_engine::g1841::operating_round::events::merger;
use referee_engine::g1841::validate::validate;
use referee_engine::g1841::{
    Action, Concession, CorporateEvent, Event, G1841, MergerStage, OddShareChoice, OperatingStep,
    Round, ShareOwner, SplitStage, State,
};
use referee_engine::{Game, RejectionCode, Seat};

mod common;
use common::edit::set_holders;
use common::{before_in, fixture};
use referee_engine::g1841::import18xx::{ReplaySettings, replay};

const P1: Seat = 0;
const P2: Seat = 1;
const P3: Seat = 2;
const P4: Seat = 3;

fn act(state: &mut State, seat: Seat, action: Action) -> Vec<Event> {
    let events = G1841::apply(state, seat, &action)
        .unwrap_or_else(|r| panic!("{action:?} by {seat} rejected: {r}"));
    assert_eq!(validate(state), Ok(()), "after {action:?}");
    events
}

fn percent(state: &State, sym: &str, holder: ShareOwner) -> u32 {
    state.corporation(sym).unwrap().percent_of(&holder)
}

fn p(seat: Seat) -> ShareOwner {
    ShareOwner::Player(seat)
}

fn corp(sym: &str) -> ShareOwner {
    ShareOwner::Corporation(sym.into())
}

fn event(state: &State) -> Option<&CorporateEvent> {
    match &state.round {
        Round::OperatingRound(r) => r.event.as_deref(),
        _ => None,
    }
}

/// The state after record `id` of `engine/tests/data/NAME.json` (an 18xx.games export of a
/// generated game, replayed by the importer without the final check).
fn data_at(name: &str, id: i64) -> State {
    let text = std::fs::read_to_string(format!(
        "{}/tests/data/{name}.json",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    replay(
        &text,
        &ReplaySettings {
            check: false,
            stop_at_action_id: Some(id),
        },
    )
    .state
    .unwrap()
}

fn buy_4_train() -> Action {
    Action::BuyTrain {
        train: "4-0".into(),
        from: "depot".into(),
        price: 350,
    }
}

fn hexes(state: &State, sym: &str) -> Vec<String> {
    state
        .corporation(sym)
        .unwrap()
        .tokens
        .iter()
        .map(|t| t.hex.clone())
        .collect()
}

fn trains(state: &State, sym: &str) -> Vec<String> {
    state
        .operations
        .trains
        .get(sym)
        .cloned()
        .unwrap_or_default()
}

/// Moves `amount` from the bank to a player (money stays conserved).
fn give(state: &mut State, seat: Seat, amount: i64) {
    state.bank_cash -= amount;
    state.players[seat as usize].cash += amount;
}

/// Every odd IRSFF share of the split's single-share stage exchanged for a share of `sym`
/// (1841 §12.4), each by the seat asked; those seats in order.
fn exchange_single_shares_for(state: &mut State, sym: &str) -> Vec<Seat> {
    let mut seats = Vec::new();
    while let Some(CorporateEvent::Split(s)) = event(state) {
        if s.stage != SplitStage::SingleShares {
            break;
        }
        let seat = G1841::to_act(state)[0];
        seats.push(seat);
        act(
            state,
            seat,
            Action::ExchangeSplitShare {
                corporation: sym.into(),
            },
        );
    }
    seats
}

/// 132002 from before action 529 (SFTC in its merge step, P2 its president): P2 proposes
/// SFTC's merger with SFTG and names AFI the new corporation (1841 §12.1).
fn merge_sftc_and_sftg_into_afi(state: &mut State) {
    act(
        state,
        P2,
        Action::ProposeMerger {
            partner: "SFTG".into(),
        },
    );
    act(
        state,
        P2,
        Action::FormCorporation {
            corporation: "AFI".into(),
        },
    );
}

// ----- 1841 §11: the first 4-train --------------------------------------------------------

/// 1841 §11 steps 1–3 (132002 action 326: CTDA buys the first 4-train): the 2-trains rust
/// (IRSFF ×2, SFTG ×2, SSFL ×2, SFTC, SFMA), phase 4 with the set-4 borders, every
/// concession removed (Bayard too), SFTN — never started — closed for good; CTDA goes on in
/// its trains step after the events.
#[test]
fn s11_first_4_train_rusts_closes_concessions_and_unstarted_historical_corporations() {
    let mut state = before_in("132002", 326);
    assert_eq!(state.phase, "3");
    assert!(state.players.iter().any(|p| !p.concessions.is_empty()));
    let events = act(&mut state, P4, buy_4_train());
    assert_eq!(state.phase, "4");
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::PhaseChanged { phase } if phase == "4"))
    );
    let rusted: Vec<&String> = state
        .operations
        .rusted
        .iter()
        .filter(|t| t.starts_with("2-"))
        .collect();
    assert_eq!(rusted.len(), 8, "all eight 2-trains are gone");
    assert!(
        state
            .operations
            .trains
            .values()
            .flatten()
            .all(|t| !t.starts_with("2-"))
    );
    assert!(state.players.iter().all(|p| p.concessions.is_empty()));
    assert!(state.bank_concessions.is_empty());
    let closed: Vec<usize> = events
        .iter()
        .filter(|e| matches!(e, Event::ConcessionClosed { .. }))
        .map(|_| 1)
        .collect();
    // P4 Bayard and SFMA, P3 IRSFF, P2 SFTG and SFTC, P1 SFLP and SSFL, the bank SFTN.
    assert_eq!(closed.len(), 8);
    let sftn = state.corporation("SFTN").unwrap();
    assert!(sftn.closed && !sftn.started());
    assert!(
        events.iter().any(
            |e| matches!(e, Event::CorporationClosed { corporation } if corporation == "SFTN")
        )
    );
    // The Torino home of SFTN is no longer reserved (SFTC places a token there in OR 3.1,
    // action 341).
    assert!(
        !referee_engine::g1841::start::reserved_home(&state, "H4", 1),
        "reservation gone"
    );
}

/// The state of the operating round, or a panic.
fn operating_round(state: &State) -> &referee_engine::g1841::OperatingRound {
    match &state.round {
        Round::OperatingRound(r) => r,
        _ => panic!("not in an operating round"),
    }
}

/// 1841 §9.6 with the first 4-train's events (§11, interpretation I30): the buyer's train
/// step ends at the purchase when it cannot buy another train at that moment, whatever its
/// treasury holds once the events are over (18xx `Step::BuyTrain#process_buy_train`:
/// `pass! unless can_buy_train?`; version_1 random 3 players seed 3012, 18xx id 466: RSFS,
/// L.0 after its 4-train, L.26 after the Tuscan merge, goes to its share step). 132002
/// action 326 with CTDA's treasury set to the price of the 4-train (L.350): its step is its
/// share step at once; with L.351 (L.1 left: another corporation's train at L.1) it stays
/// in its train step.
#[test]
fn s9_6_the_train_step_ends_at_a_purchase_that_leaves_nothing_to_buy_with() {
    for (cash, step) in [(350, OperatingStep::Shares), (351, OperatingStep::Trains)] {
        let mut state = before_in("132002", 326);
        let ctda = state.corporation("CTDA").unwrap().cash;
        state.bank_cash += ctda - cash;
        state.corporation_mut("CTDA").unwrap().cash = cash;
        act(&mut state, P4, buy_4_train());
        assert_eq!(state.corporation("CTDA").unwrap().cash, cash - 350);
        let r = operating_round(&state);
        assert_eq!(r.current.as_deref(), Some("CTDA"), "cash {cash}");
        assert_eq!(r.step, step, "cash {cash}");
    }
}

/// FAQ-C14 / 1841 §11 step 2: the presidency change caused by the concessions closing comes
/// first. P1 holds IRSFF's president's certificate (20%), P2 four shares (40%): at the first
/// 4-train P2 becomes president (P2: the certificate and two shares, P1: two shares); in the
/// split P2, with 40%, receives both successor presidencies and P1's pair becomes one SB and
/// one SFL share.
#[test]
fn faq_c14_presidency_change_at_concession_close_comes_before_the_split() {
    let mut state = before_in("132002", 326);
    set_holders(&mut state, "IRSFF", &[p(P1), p(P2), p(P2), p(P2), p(P2)]);
    let events = act(&mut state, P4, buy_4_train());
    assert!(events.iter().any(
        |e| matches!(e, Event::PresidentChanged { corporation, seat } if corporation == "IRSFF" && *seat == P2)
    ));
    for sym in ["SB", "SFL"] {
        let c = state.corporation(sym).unwrap();
        assert_eq!(c.president(), Some(&p(P2)), "{sym}");
        assert_eq!(percent(&state, sym, p(P2)), 20, "{sym}");
        assert_eq!(percent(&state, sym, p(P1)), 10, "{sym}");
    }
    assert!(state.corporation("IRSFF").unwrap().closed);
}

// ----- 1841 §12.4: the Ferdinandea split ---------------------------------------------------

/// 1841 §12.4 on 132002 action 326: IRSFF (L.159, row 2 col 9, L.287, trains 3-0 and 3-1,
/// 10% SSFL, tokens Milano and Venezia) splits: SB and SFL on IRSFF's cell in its place
/// (SB first), SB Venezia + one created token, SFL Milano + one, SB L.259 and SFL L.28
/// (10% rounded down), SB the 3-1 and SFL the 3-0 (best first, last bought first), SSFL 10% to
/// SB; P3 (40%) takes both presidencies, P1's pair → one SB and one SFL share; nobody can buy
/// (P3 L.12, P1 L.32); SB may buy 0–3 tokens at L.50 (decided by P3), SFL (L.28) cannot;
/// IRSFF had operated in OR 3.1: SB and SFL wait for OR 3.2 (FAQ-Q24).
#[test]
fn s12_4_split_of_irsff_into_sb_and_sfl() {
    let mut state = before_in("132002", 326);
    let irsff = state.corporation("IRSFF").unwrap().clone();
    assert_eq!(irsff.price(), Some(159));
    assert_eq!(irsff.cash, 287);
    act(&mut state, P4, buy_4_train());
    let (sb, sfl) = (
        state.corporation("SB").unwrap().clone(),
        state.corporation("SFL").unwrap().clone(),
    );
    for c in [&sb, &sfl] {
        let sp = c.share_price.unwrap();
        assert_eq!((sp.row, sp.col, c.price()), (2, 9, Some(159)));
    }
    assert!(sb.share_price.unwrap().arrival < sfl.share_price.unwrap().arrival);
    assert_eq!(
        (hexes(&state, "SB"), sb.tokens_total),
        (vec!["F16".to_string()], 2)
    );
    assert_eq!(
        (hexes(&state, "SFL"), sfl.tokens_total),
        (vec!["F8".to_string()], 2)
    );
    assert_eq!((sb.cash, sfl.cash), (259, 28));
    assert_eq!(trains(&state, "SB"), ["3-1"]);
    assert_eq!(trains(&state, "SFL"), ["3-0"]);
    assert_eq!(percent(&state, "SSFL", corp("SB")), 10);
    for sym in ["SB", "SFL"] {
        assert_eq!(state.corporation(sym).unwrap().president(), Some(&p(P3)));
        assert_eq!(percent(&state, sym, p(P3)), 20);
        assert_eq!(percent(&state, sym, p(P1)), 10);
    }
    let irsff = state.corporation("IRSFF").unwrap();
    assert!(irsff.closed && !irsff.started() && irsff.cash == 0);
    match event(&state) {
        Some(CorporateEvent::Split(s)) => {
            assert_eq!(s.stage, SplitStage::Tokens);
            assert_eq!(s.corporation, "SB");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(G1841::to_act(&state), [P3]);
    let legal = G1841::legal(&state, P3).actions;
    assert_eq!(
        legal,
        (2..=5)
            .map(|count| Action::BuyTokens { count })
            .collect::<Vec<_>>()
    );
    // Another seat may not decide; a count outside the list is refused.
    let mut probe = state.clone();
    let r = G1841::apply(&mut probe, P4, &Action::BuyTokens { count: 3 }).unwrap_err();
    assert_eq!(r.code, RejectionCode::NotYourTurn);
    let r = G1841::apply(&mut probe, P3, &Action::BuyTokens { count: 6 }).unwrap_err();
    assert_eq!(r.code, RejectionCode::IllegalMove);
    assert_eq!(probe, state);
    act(&mut state, P3, Action::BuyTokens { count: 3 });
    let sb = state.corporation("SB").unwrap();
    assert_eq!((sb.tokens_total, sb.cash), (3, 209));
    let Round::OperatingRound(r) = &state.round else {
        unreachable!()
    };
    assert!(r.done.contains(&"SB".to_string()) && r.done.contains(&"SFL".to_string()));
}

/// 1841 §12.4: IRSFF's certificates of other corporations alternate SB, SFL by descending
/// value; of equal values (the rules give no order) the later corporation's goes first, as
/// in 18xx.games (`secession_move_treasury_shares` reverses IRSFF's holdings, which it keeps
/// grouped by corporation, after sorting them by price). 132002 before action 326 with one
/// of SFTG's pool certificates in IRSFF's treasury beside its SSFL share and SFTG moved to
/// SSFL's cell (L.16): SFTG's (later in the list of corporations) goes to SB, SSFL's to SFL (before
/// 2026-12-06: SSFL's to SB; lite random 6 players seed 6002 split SFTC and SFTN that way
/// and SFL later sold the SFTC share 18xx had given SB).
#[test]
fn s12_4_equal_treasury_certificates_go_later_corporation_first() {
    let mut state = before_in("132002", 326);
    let irsff = corp("IRSFF");
    assert_eq!(percent(&state, "SSFL", irsff.clone()), 10);
    let ssfl = state.corporation("SSFL").unwrap().share_price.unwrap();
    let arrival = state.next_market_arrival;
    state.next_market_arrival += 1;
    let sftg = state.corporation_mut("SFTG").unwrap();
    sftg.share_price = Some(referee_engine::g1841::state::SharePrice {
        row: ssfl.row,
        col: ssfl.col,
        arrival,
    });
    let k = sftg
        .certificates
        .iter()
        .position(|c| c.owner == ShareOwner::Pool)
        .unwrap();
    sftg.certificates[k].owner = irsff;
    assert_eq!(validate(&state), Ok(()));
    assert_eq!(state.corporation("SFTG").unwrap().price(), Some(16));
    act(&mut state, P4, buy_4_train());
    assert_eq!(percent(&state, "SFTG", corp("SB")), 10);
    assert_eq!(percent(&state, "SFTG", corp("SFL")), 0);
    assert_eq!(percent(&state, "SSFL", corp("SFL")), 10);
    assert_eq!(percent(&state, "SSFL", corp("SB")), 0);
}

/// 1841 §12.4, §7.5: IRSFF's president's certificate of another corporation goes to SB with
/// its treasury; IRSFF, the president, is gone, so the presidency goes to the largest holder,
/// a player before a corporation on a tie (18xx.games `secession_move_treasury_shares`,
/// `player_distance_for_president`; p2p_purchases 3 players seed 3013, 18xx id 289: ICSF).
/// 132002 before action 326 with SFTG's 20% president's certificate in IRSFF's treasury and
/// two SFTG shares with P1: at the split SB receives the certificate (the higher value before
/// IRSFF's SSFL share), P1 (20%, as much as SB) becomes SFTG's president and SB keeps two
/// ordinary shares (before: SB stayed president).
#[test]
fn s12_4_irsffs_treasury_presidency_goes_to_a_player_holding_as_much() {
    let mut state = before_in("132002", 326);
    let mut owners = vec![corp("IRSFF"), p(P1), p(P1), p(P2)];
    owners.extend(std::iter::repeat_n(ShareOwner::Pool, 5));
    set_holders(&mut state, "SFTG", &owners);
    assert_eq!(validate(&state), Ok(()));
    let events = act(&mut state, P4, buy_4_train());
    let sftg = state.corporation("SFTG").unwrap();
    assert_eq!(sftg.president(), Some(&p(P1)));
    assert_eq!(percent(&state, "SFTG", p(P1)), 20);
    assert_eq!(percent(&state, "SFTG", corp("SB")), 20);
    assert_eq!(percent(&state, "SFTG", corp("SFL")), 0);
    assert_eq!(percent(&state, "SSFL", corp("SFL")), 10);
    assert!(events.iter().any(
        |e| matches!(e, Event::PresidentChanged { corporation, seat } if corporation == "SFTG" && *seat == P1)
    ));
}

/// 1841 §7.5 with §12.4: IRSFF gives its certificates of other corporations away at the split,
/// so the president's certificate it held does not make the successor that receives it
/// president: the presidency goes to the largest holder after the move, of tied holders to
/// the nearest after IRSFF, a corporation (players from the first in player order, then
/// corporations; 18xx.games `transfer_shares` with `player_distance_for_president`). 132002
/// before action 326 (player order P4, P3, P2, P1) with IRSFF holding SFTG's president's
/// certificate: it goes to SB (L.100 before SSFL's L.16), which ties with P2's 20% — P2
/// presides and SB gets two shares; with P3 at 20% too, P3 (before P2 in the order). Before
/// 2026-12-06 SB kept the presidency (lite 6p seed 6012 id 439, lite 3p seed 3011 id 360:
/// 18xx.games made the player president).
#[test]
fn s12_4_a_treasury_presidency_tie_goes_to_the_nearest_holder_after_irsff() {
    let pool = ShareOwner::Pool;
    for (p3_shares, president) in [(1, P2), (2, P3)] {
        let mut state = before_in("132002", 326);
        let mut owners = vec![corp("IRSFF"), p(P2), p(P2)];
        owners.extend(std::iter::repeat_n(p(P3), p3_shares));
        owners.extend(std::iter::repeat_n(pool.clone(), 5 - p3_shares));
        owners.push(corp("SFTC"));
        set_holders(&mut state, "SFTG", &owners);
        assert_eq!(validate(&state), Ok(()));
        assert_eq!(G1841::to_act(&state), [P4]);
        let events = act(&mut state, P4, buy_4_train());
        let sftg = state.corporation("SFTG").unwrap();
        assert_eq!(
            sftg.president(),
            Some(&p(president)),
            "P3 with {p3_shares} shares"
        );
        assert_eq!(percent(&state, "SFTG", p(president)), 20);
        assert_eq!(percent(&state, "SFTG", corp("SB")), 20);
        assert!(
            sftg.certificates
                .iter()
                .any(|c| c.owner == corp("SB") && !c.president)
        );
        assert_eq!(percent(&state, "SFTG", corp("SFL")), 0);
        assert_eq!(percent(&state, "SSFL", corp("SFL")), 10);
        assert!(events.contains(&Event::PresidentChanged {
            corporation: "SFTG".into(),
            seat: president,
        }));
    }
}

/// 1841 §12.4 ("if IRSFF had not yet operated in this OR, SB and SFL operate in its place;
/// otherwise they wait for the next OR"; 18xx.games `secession_finish`: "will not run this
/// OR" when IRSFF's place in the round is at or before the operating corporation's): the
/// same position as [`s12_4_split_of_irsff_into_sb_and_sfl`] with IRSFF not yet operated in
/// OR 3.1 — SB and SFL are not marked as operated and take IRSFF's place; with IRSFF
/// operated (that test) both are.
#[test]
fn s12_4_successors_operate_when_irsff_had_not() {
    let mut state = before_in("132002", 326);
    let Round::OperatingRound(r) = &mut state.round else {
        unreachable!()
    };
    assert!(r.done.contains(&"IRSFF".to_string()));
    r.done.retain(|d| d != "IRSFF");
    act(&mut state, P4, buy_4_train());
    let Round::OperatingRound(r) = &state.round else {
        unreachable!()
    };
    assert!(matches!(r.event.as_deref(), Some(CorporateEvent::Split(_))));
    assert!(!r.done.contains(&"SB".to_string()) && !r.done.contains(&"SFL".to_string()));
    let order = referee_engine::g1841::market::operating_order(&state);
    let at = |s: &str| order.iter().position(|x| x == s).unwrap();
    assert_eq!(at("SFL"), at("SB") + 1);
}

/// 1841 §12.4 (lite game, action 187: SFTC buys the first 4-train): P4 (50%) takes both
/// presidencies; the three odd shares (P4, P2, P3) are exchanged in order from P4, each
/// choosing SB; the purchase rounds: SB (P4 buys at L.111, P2 and P3 cannot pay), SFL (P4
/// declines), SB's president calls another round (P4 buys again), then nobody can pay; SB
/// declines extra tokens; SFL (L.21) cannot buy any.
#[test]
fn s12_4_split_odd_shares_and_purchase_rounds() {
    let mut state = before_in("1841_game_end_bank", 187);
    act(&mut state, 0, buy_4_train());
    let single = |state: &State| matches!(event(state), Some(CorporateEvent::Split(s)) if s.stage == SplitStage::SingleShares);
    for seat in [P4, P2, P3] {
        assert!(single(&state));
        assert_eq!(G1841::to_act(&state), [seat]);
        assert_eq!(
            G1841::legal(&state, seat).actions,
            [
                Action::ExchangeSplitShare {
                    corporation: "SB".into()
                },
                Action::ExchangeSplitShare {
                    corporation: "SFL".into()
                }
            ]
        );
        act(
            &mut state,
            seat,
            Action::ExchangeSplitShare {
                corporation: "SB".into(),
            },
        );
    }
    let buy = |sym: &str| Action::BuyShares {
        corporation: sym.into(),
        from_pool: false,
        percent: 10,
    };
    assert_eq!(G1841::legal(&state, P4).actions, [buy("SB"), Action::Pass]);
    let cash = state.players[P4 as usize].cash;
    act(&mut state, P4, buy("SB"));
    assert_eq!(state.players[P4 as usize].cash, cash - 111);
    assert_eq!(G1841::legal(&state, P4).actions, [buy("SFL"), Action::Pass]);
    act(&mut state, P4, Action::Pass);
    assert_eq!(
        G1841::legal(&state, P4).actions,
        [
            Action::RepeatPurchaseRound { repeat: true },
            Action::RepeatPurchaseRound { repeat: false }
        ]
    );
    act(&mut state, P4, Action::RepeatPurchaseRound { repeat: true });
    act(&mut state, P4, buy("SB"));
    // SB's extra tokens: 2 (none) … 5.
    assert_eq!(
        G1841::legal(&state, P4).actions[0],
        Action::BuyTokens { count: 2 }
    );
    act(&mut state, P4, Action::BuyTokens { count: 2 });
    assert!(event(&state).is_none());
    assert_eq!(percent(&state, "SB", p(P4)), 50);
    assert_eq!(percent(&state, "SB", p(P2)), 10);
    assert_eq!(percent(&state, "SB", p(P3)), 10);
    assert_eq!(percent(&state, "SFL", p(P4)), 20);
    let sb = state.corporation("SB").unwrap();
    assert_eq!((sb.cash, sb.tokens_total), (417, 2));
    assert_eq!(state.corporation("SFL").unwrap().cash, 21);
}

/// 1841 §12.4: IRSFF's president with less than 40% chooses his successor; the other
/// presidency goes to the next holder with 20% in order. 132002 before action 326 with IRSFF
/// held P3 30% (president), P1 30%, P2 10%: P3 takes SFL; P1 (next with 20%) gets SB's
/// certificate; the odd shares of P3, P1 and P2 are then chosen by their holders.
#[test]
fn s12_4_president_below_40_percent_chooses_his_successor() {
    let mut state = before_in("132002", 326);
    set_holders(
        &mut state,
        "IRSFF",
        &[p(P3), p(P3), p(P1), p(P1), p(P1), p(P2)],
    );
    act(&mut state, P4, buy_4_train());
    assert_eq!(G1841::to_act(&state), [P3]);
    assert_eq!(
        G1841::legal(&state, P3).actions,
        [
            Action::ChooseSplitPresidency {
                corporation: "SB".into()
            },
            Action::ChooseSplitPresidency {
                corporation: "SFL".into()
            }
        ]
    );
    act(
        &mut state,
        P3,
        Action::ChooseSplitPresidency {
            corporation: "SFL".into(),
        },
    );
    assert_eq!(state.corporation("SFL").unwrap().president(), Some(&p(P3)));
    assert_eq!(state.corporation("SB").unwrap().president(), Some(&p(P1)));
    // Odd shares in order from P3: P3, P1 (P2 is after P1 in the order P4, P3, P2, P1? no:
    // the order runs from IRSFF's president round the table).
    let seats = exchange_single_shares_for(&mut state, "SFL");
    let order: Vec<Seat> = referee_engine::g1841::corporation::players_from(&state, P3)
        .into_iter()
        .filter(|s| [P1, P2, P3].contains(s))
        .collect();
    assert_eq!(seats, order);
    assert_eq!(percent(&state, "SFL", p(P3)), 30);
    assert_eq!(percent(&state, "SB", p(P1)), 20);
    assert_eq!(percent(&state, "SFL", p(P1)), 10);
    assert_eq!(percent(&state, "SFL", p(P2)), 10);
}

/// 132002 before action 326 with IRSFF held: P3 20% (president), the pool 30%, P1 10%.
fn irsff_of_p3_the_pool_and_p1() -> State {
    let mut state = before_in("132002", 326);
    set_holders(
        &mut state,
        "IRSFF",
        &[
            p(P3),
            ShareOwner::Pool,
            ShareOwner::Pool,
            ShareOwner::Pool,
            p(P1),
        ],
    );
    state
}

/// 1841 §12.4: the other presidency goes to the first other holder with 20% in exchange for
/// a pair, the pool among the holders (after the players and their corporations), as 18xx
/// (`secession_exchange_pairs`). 132002 before action 326 with IRSFF held P3 20% (president),
/// the pool 30%, P1 10%: P3 takes SFL; nobody else holds 20% but the pool, whose first pair
/// buys SB's president's certificate (SB frozen, §7.4); the pool's odd share (decided by P3)
/// and P1's go to SB. SB: pool 30%, P1 10%; SFL: P3 20%; the 60% of IRSFF outside its IPO
/// became 60% of SB and SFL. (Before, the pool took SB's certificate without giving a pair:
/// pool SB 40% and SFL 10%.)
#[test]
fn s12_4_the_pool_gives_a_pair_for_the_other_presidency() {
    let mut state = irsff_of_p3_the_pool_and_p1();
    act(&mut state, P4, buy_4_train());
    act(
        &mut state,
        P3,
        Action::ChooseSplitPresidency {
            corporation: "SFL".into(),
        },
    );
    assert_eq!(state.corporation("SFL").unwrap().president(), Some(&p(P3)));
    assert_eq!(
        state.corporation("SB").unwrap().president(),
        Some(&ShareOwner::Pool)
    );
    assert_eq!(percent(&state, "SB", ShareOwner::Pool), 20);
    let seats = exchange_single_shares_for(&mut state, "SB");
    // P1's odd share, then the pool's (decided by IRSFF's president P3).
    assert_eq!(seats, [P1, P3]);
    assert_eq!(percent(&state, "SB", ShareOwner::Pool), 30);
    assert_eq!(percent(&state, "SB", p(P1)), 10);
    assert_eq!(percent(&state, "SFL", ShareOwner::Pool), 0);
    assert_eq!(percent(&state, "SFL", p(P3)), 20);
}

/// 1841 §7.4: a corporation frozen during its own turn does nothing more in it (listed
/// divergence `frozen-mid-turn-train-step`: 18xx.games keeps its train step open while the
/// pool controls it, `G1841::Round::Operating#after_process`, and lets it buy more trains).
/// The split position of [`s12_4_the_pool_gives_a_pair_for_the_other_presidency`] with
/// CTDA's president's certificate in IRSFF's treasury: CTDA (decided by IRSFF's president P3)
/// buys the first 4-train; the split gives that certificate to SB, whose own president's
/// certificate goes to the pool — SB and CTDA are frozen. Once the events are over CTDA's
/// turn is over: it keeps the 4-train it bought and its cash, and the next corporation
/// operates.
#[test]
fn s7_4_a_corporation_frozen_in_its_turn_ends_it() {
    let mut state = irsff_of_p3_the_pool_and_p1();
    let ctda: Vec<ShareOwner> = state
        .corporation("CTDA")
        .unwrap()
        .certificates
        .iter()
        .map(|c| c.owner.clone())
        .collect();
    // P4's 40% of CTDA: the president's certificate to IRSFF, the rest to the pool.
    assert_eq!(ctda[..4], [p(P4), p(P4), p(P4), p(P4)]);
    let mut owners = vec![corp("IRSFF")];
    owners.extend(ctda.iter().skip(1).map(|o| {
        if *o == p(P4) {
            ShareOwner::Pool
        } else {
            o.clone()
        }
    }));
    set_holders(&mut state, "CTDA", &owners);
    assert_eq!(validate(&state), Ok(()));
    assert_eq!(controller(&state, "CTDA"), Some(P3));
    let cash = state.corporation("CTDA").unwrap().cash;
    let mut expected = trains(&state, "CTDA");
    expected.push("4-0".into());
    act(&mut state, P3, buy_4_train());
    act(
        &mut state,
        P3,
        Action::ChooseSplitPresidency {
            corporation: "SFL".into(),
        },
    );
    assert_eq!(
        state.corporation("SB").unwrap().president(),
        Some(&ShareOwner::Pool)
    );
    assert_eq!(controller(&state, "CTDA"), None);
    // The rest of the events (the split's odd shares, the Tuscan merge), first choices.
    let mut decisions = 0;
    while event(&state).is_some() {
        decisions += 1;
        assert!(decisions < 20);
        let seat = G1841::to_act(&state)[0];
        let a = G1841::legal(&state, seat).actions[0].clone();
        act(&mut state, seat, a);
    }
    assert!(frozen(&state, "CTDA"));
    let Round::OperatingRound(r) = &state.round else {
        panic!("the operating round")
    };
    assert_eq!(
        (r.current.as_deref(), r.step, r.done.clone()),
        (
            Some("SFTC"),
            OperatingStep::Track,
            vec!["SB".to_string(), "SFL".into(), "CTDA".into()]
        )
    );
    assert_eq!(trains(&state, "CTDA"), expected);
    assert_eq!(state.corporation("CTDA").unwrap().cash, cash - 350);
}

/// 1841 §12.4: without IRSFF there is no split; SB and SFL close for good.
#[test]
fn s12_4_no_split_without_irsff() {
    let mut state = before_in("132002", 326);
    // Take IRSFF off the board: its cash to the bank, trains to the pool, shares to the IPO.
    let irsff = state.corporation("IRSFF").unwrap().clone();
    state.bank_cash += irsff.cash;
    let t = state.operations.trains.remove("IRSFF").unwrap_or_default();
    state.operations.pool_trains.extend(t);
    let c = state
        .corporations
        .iter_mut()
        .find(|c| c.sym == "IRSFF")
        .unwrap();
    c.cash = 0;
    c.tokens.clear();
    c.tokens_total = 0;
    c.share_price = None;
    c.par_price = 0;
    c.operated = false;
    set_holders(&mut state, "IRSFF", &[]);
    if let Round::OperatingRound(r) = &mut state.round {
        r.done.retain(|d| d != "IRSFF");
    }
    assert_eq!(validate(&state), Ok(()));
    let events = act(&mut state, P4, buy_4_train());
    for sym in ["SB", "SFL", "IRSFF"] {
        let c = state.corporation(sym).unwrap();
        assert!(c.closed && !c.started(), "{sym}");
    }
    assert!(
        !events.iter().any(
            |e| matches!(e, Event::CorporationFormed { corporation, .. } if corporation == "SB")
        )
    );
}

// ----- 1841 §12.3: the Tuscan merge --------------------------------------------------------

/// 1841 §12.3 on 132002 (after the split, action 327): SFLP (L.75, best value, P1) and SFMA
/// (L.54) merge into AFI (the first unstarted non-historical major) at L.53 (average 64.5);
/// AFI and SSFL (L.16) merge into SFLi at L.53 (sum 69): P1 (90% of the old shares) is
/// president; odd shares: P1 full (L.26 to SFLi), P3 cash (L.26 from the bank), SB full;
/// tokens: Firenze's second token destroyed, SFLi owns 5, keeps Pisa and Firenze and may
/// remove Lucca (0–1 removals): P1 removes it. AFI is available again; SSFL, SFLP, SFMA close;
/// SFLi operates in OR 3.1 (none of the three had operated).
#[test]
fn s12_3_tuscan_merge_into_sfli() {
    let mut state = before_in("132002", 327);
    act(&mut state, P3, Action::BuyTokens { count: 3 });
    let sfli = state.corporation("SFLi").unwrap();
    let sp = sfli.share_price.unwrap();
    assert_eq!((sfli.price(), sp.row, sp.col), (Some(53), 9, 8));
    assert_eq!(sfli.president(), Some(&p(P1)));
    assert_eq!(sfli.cash, 341 + 49);
    assert!(!state.corporation("AFI").unwrap().started());
    for sym in ["SFLP", "SFMA", "SSFL"] {
        assert!(state.corporation(sym).unwrap().closed, "{sym}");
    }
    // Odd shares: P1 first.
    assert_eq!(G1841::to_act(&state), [P1]);
    let full = Action::ExchangeOddShare {
        choice: OddShareChoice::FullShare,
    };
    let cash = Action::ExchangeOddShare {
        choice: OddShareChoice::Cash,
    };
    assert_eq!(
        G1841::legal(&state, P1).actions,
        [cash.clone(), full.clone()]
    );
    let p1 = state.players[P1 as usize].cash;
    act(&mut state, P1, full.clone());
    assert_eq!(state.players[P1 as usize].cash, p1 - 26);
    let p3 = state.players[P3 as usize].cash;
    act(&mut state, P3, cash);
    assert_eq!(state.players[P3 as usize].cash, p3 + 26);
    // SB's odd share (its 10% SSFL), decided by SB's controller P3.
    assert_eq!(G1841::to_act(&state), [P3]);
    act(&mut state, P3, full);
    assert_eq!(state.corporation("SFLi").unwrap().cash, 390 + 26 + 26);
    // Tokens: remove Lucca or keep it.
    assert_eq!(G1841::to_act(&state), [P1]);
    assert_eq!(
        G1841::legal(&state, P1).actions,
        [
            Action::RemoveToken {
                hex: "P12".into(),
                city: 0
            },
            Action::Pass
        ]
    );
    act(
        &mut state,
        P1,
        Action::RemoveToken {
            hex: "P12".into(),
            city: 0,
        },
    );
    let sfli = state.corporation("SFLi").unwrap();
    assert_eq!(
        (hexes(&state, "SFLi"), sfli.tokens_total),
        (vec!["R14".into(), "Q11".into()], 5)
    );
    assert_eq!(percent(&state, "SFLi", p(P1)), 50);
    assert_eq!(percent(&state, "SFLi", corp("SB")), 10);
    let Round::OperatingRound(r) = &state.round else {
        unreachable!()
    };
    assert!(!r.done.contains(&"SFLi".to_string()), "SFLi runs in OR 3.1");
    assert_eq!(r.current.as_deref(), Some("CTDA"));
    assert_eq!(r.step, OperatingStep::Trains);
    assert!(event(&state).is_none());
}

/// FAQ-R4, 1841 §12.3: SFLi's president's certificate goes to the pool only if nobody holds
/// 20% at the formation; a holder who reaches 20% with an odd share taken as a full share
/// becomes president, swapping two shares back to the IPO (18xx `merger_do_exchange`).
/// Version 2, heuristic, 3 players, seed 3012 (`tests/data/v2-3p-heuristic-s3012-to357.json`):
/// at the Tuscan merge nobody claims SFLi's presidency; players 2, 1, 3 and the pool each
/// exchange a pair for a share; player 3 (seat 2) takes his odd share as a full share
/// (id 349) and is president with the certificate; the pool keeps its share. His sale of 10%
/// at id 356 dumps the certificate into the pool, which gives him its share: 18xx's pool
/// holds SFLi 20%. Before 2026-12-06 the certificate went to the pool at once, the pool's
/// pair was cancelled, player 3 took it from the pool for his two shares, and the pool ended
/// with 30%. Since player 3 (30% of the old shares) is asked in the sweep over odd shares
/// (1841 §12.1 pass 2, 18xx `merger_next_exchange`), his full share is his answer there: the
/// pairs wait for it (this engine exchanges them once the presidency is settled).
#[test]
fn faq_r4_a_holder_of_20_percent_after_the_odd_shares_presides_sfli() {
    let at = |id| data_at("v2-3p-heuristic-s3012-to357", id);
    // Before player 3's odd share: the certificate waits in the IPO; he is asked in the
    // sweep over odd shares (no claim: he cannot pay 1.5 times the price).
    let s = at(348);
    assert!(matches!(event(&s), Some(CorporateEvent::Merger(_))));
    let sfli = s.corporation("SFLi").unwrap();
    assert_eq!(sfli.president(), Some(&ShareOwner::Ipo));
    assert_eq!(
        G1841::legal_actions(&s, 2),
        [
            Action::ClaimPresidency { claim: false },
            Action::ExchangeOddShare {
                choice: OddShareChoice::FullShare
            }
        ]
    );
    // Full share: 20%, the presidency by the swap (two shares back to the IPO).
    let s = at(349);
    let sfli = s.corporation("SFLi").unwrap();
    assert_eq!(sfli.president(), Some(&p(2)));
    assert_eq!(percent(&s, "SFLi", p(2)), 20);
    assert_eq!(percent(&s, "SFLi", ShareOwner::Pool), 10);
    assert_eq!(percent(&s, "SFLi", ShareOwner::Ipo), 50);
    assert!(!frozen(&s, "SFLi"));
    // Id 356: player 3 sells 10%; the certificate goes to the pool, its share to him.
    let s = at(357);
    let sfli = s.corporation("SFLi").unwrap();
    assert_eq!(sfli.president(), Some(&ShareOwner::Pool));
    assert_eq!(percent(&s, "SFLi", ShareOwner::Pool), 20);
    assert_eq!(percent(&s, "SFLi", p(2)), 10);
    assert!(frozen(&s, "SFLi"));
}

/// 1841 §12.3 ("the normal price and exchange rules apply") with §12.1 ("if new 10% shares
/// run out, further pairs are exchanged against the president's certificate if the holder
/// already owns a new share"): Version 2, random, 4 players, seed 4013
/// (`tests/data/v2-4p-random-s4013-to634.json`), the Tuscan merge's last step AFI + SSFL →
/// SFLi (id 631): nobody claims; ATFA's pair takes one share, the pool's pairs the other
/// seven, and the pool's eighth pair takes the president's certificate for one of its shares,
/// which goes back to the IPO: the pool holds 80% with the certificate, SFLi is frozen, and
/// player 1's odd share may take the share given back (id 632, full share). 18xx.games:
/// "Market exchanges 20% of old shares for president share of SFLi" (before 2026-12-06 the
/// pair was lost and at the end two pool shares went back to the IPO for the certificate:
/// pool 70%, IPO 20%, and 18xx.games asked ATFA's controller for CTS's odd share).
#[test]
fn s12_3_the_pools_pair_takes_sflis_certificate_when_the_shares_run_out() {
    let at = |id| data_at("v2-4p-random-s4013-to634", id);
    let s = at(631);
    let Some(CorporateEvent::Merger(m)) = event(&s) else {
        panic!("the Tuscan merge's odd shares expected")
    };
    assert!(m.tuscan && m.stage == MergerStage::OddShares && m.president.is_none());
    let sfli = s.corporation("SFLi").unwrap();
    assert_eq!(sfli.president(), Some(&ShareOwner::Pool));
    assert_eq!(percent(&s, "SFLi", ShareOwner::Pool), 80);
    assert_eq!(percent(&s, "SFLi", ShareOwner::Ipo), 10);
    assert_eq!(percent(&s, "SFLi", corp("ATFA")), 10);
    assert!(frozen(&s, "SFLi"));
    assert_eq!(G1841::to_act(&s), [P1]);
    let s = at(632);
    assert_eq!(percent(&s, "SFLi", p(P1)), 10);
    assert_eq!(percent(&s, "SFLi", ShareOwner::Ipo), 0);
    assert_eq!(percent(&s, "SFLi", ShareOwner::Pool), 80);
    assert!(event(&s).is_none());
}

/// 1841 §12.3 with §12.1's two-city rule in the Tuscan merge's first step: 132002 before
/// action 327, edited so that Firenze (R14) shows its printed yellow tile with SFMA in city 0
/// and SFLP (2 tokens: Lucca P12 and Firenze city 1) in the other city, SSFL only in Pisa
/// (Q11). SFLP (best value, P1) and SFMA merge into AFI, the holding; P1 takes AFI's
/// president's certificate for his 40% of SFLP and chooses which Firenze token goes (18xx
/// `merger_tokens_start`: a removal of that hex, min = max = 1, asked of the new corporation
/// when a player controls it; before 2026-12-06 this engine removed SFMA's itself). He
/// removes SFLP's (city 1): AFI keeps Lucca and Firenze city 0; the last step (AFI + SSFL
/// into SFLi) follows at once, P1 presiding, and SFLi will keep Firenze and Pisa and may
/// remove Lucca (0 to 1 removals).
#[test]
fn s12_3_tuscan_first_step_two_city_token_is_the_holding_presidents_choice() {
    let mut state = before_in("132002", 327);
    state.operations.tiles.remove("R14");
    let token = |hex: &str, city: u32| referee_engine::g1841::MapToken {
        hex: hex.into(),
        city,
    };
    for c in state.corporations.iter_mut() {
        match c.sym.as_str() {
            "SFLP" => {
                c.tokens = vec![token("P12", 0), token("R14", 1)];
                c.tokens_total = 2;
            }
            "SSFL" => c.tokens = vec![token("Q11", 0)],
            _ => {}
        }
    }
    assert_eq!(validate(&state), Ok(()));
    act(&mut state, P3, Action::BuyTokens { count: 3 });
    let Some(CorporateEvent::Merger(m)) = event(&state) else {
        panic!("the Tuscan merge's first step waits")
    };
    assert_eq!(
        (
            m.initiator.as_str(),
            m.partner.as_str(),
            m.target.as_str(),
            m.holding.as_deref(),
            m.tuscan,
            m.stage
        ),
        (
            "SFLP",
            "SFMA",
            "AFI",
            Some("AFI"),
            false,
            MergerStage::TwoCityTile
        )
    );
    let afi = state.corporation("AFI").unwrap();
    assert_eq!(afi.president(), Some(&p(P1)));
    assert_eq!(
        afi.tokens,
        [token("P12", 0), token("R14", 1), token("R14", 0)]
    );
    assert_eq!(G1841::to_act(&state), [P1]);
    let remove = |city: u32| Action::RemoveToken {
        hex: "R14".into(),
        city,
    };
    assert_eq!(G1841::legal(&state, P1).actions, [remove(1), remove(0)]);
    let refused = G1841::apply(&mut state.clone(), P1, &Action::Pass).unwrap_err();
    assert_eq!(
        (refused.code, refused.rule.as_str()),
        (RejectionCode::WrongStep, "1841 §12.3")
    );
    let events = act(&mut state, P1, remove(1));
    assert!(
        events.iter().any(|e| matches!(e,
        Event::TokenRemoved { corporation, hex, city: 1 } if corporation == "AFI" && hex == "R14"))
    );
    let Some(CorporateEvent::Merger(m)) = event(&state) else {
        panic!("the Tuscan merge's last step follows")
    };
    assert_eq!(
        (
            m.initiator.as_str(),
            m.partner.as_str(),
            m.target.as_str(),
            m.tuscan,
            m.stage,
            m.token_count,
            m.tokens_min_removal,
            m.tokens_max_removal
        ),
        ("AFI", "SSFL", "SFLi", true, MergerStage::OddShares, 5, 0, 1)
    );
    // P1 (90% of the old shares) presides at once; AFI's two map tokens and SSFL's one are
    // SFLi's; AFI is available again.
    let sfli = state.corporation("SFLi").unwrap();
    assert_eq!(sfli.president(), Some(&p(P1)));
    assert_eq!(
        sfli.tokens,
        [token("P12", 0), token("R14", 0), token("Q11", 0)]
    );
    assert!(!state.corporation("AFI").unwrap().started());
}

/// 1841 §12.3: the president of the participant with the best stock value carries the merge
/// out, but SFLP stays the first corporation of its merger with SFMA whoever leads
/// (18xx.games `tuscan_merge_start`: `merger_start(sflp, sfma, …)`): where both have a token
/// in one city, SFMA's goes, and SFLP's token keeps its slot. 132002 before
/// action 327 with SFLP's and SFMA's prices swapped (SFMA L.75, P4's, leads; SFLP L.54) and
/// SFLP's second token in Firenze (R14) beside SFMA's (SSFL only in Pisa): SFMA's Firenze
/// token is destroyed, as when SFLP leads (before 2026-12-06: SFLP's), and P4 decides.
#[test]
fn s12_3_sflp_is_the_first_corporation_whoever_leads() {
    let mut state = before_in("132002", 327);
    let sflp = state.corporation("SFLP").unwrap().share_price;
    let sfma = state.corporation("SFMA").unwrap().share_price;
    state.corporation_mut("SFLP").unwrap().share_price = sfma;
    state.corporation_mut("SFMA").unwrap().share_price = sflp;
    let token = |hex: &str| referee_engine::g1841::MapToken {
        hex: hex.into(),
        city: 0,
    };
    for c in state.corporations.iter_mut() {
        match c.sym.as_str() {
            "SFLP" => {
                c.tokens = vec![token("P12"), token("R14")];
                c.tokens_total = c.tokens_total.max(2);
            }
            "SSFL" => c.tokens = vec![token("Q11")],
            _ => {}
        }
    }
    assert_eq!(validate(&state), Ok(()));
    let events = act(&mut state, P3, Action::BuyTokens { count: 3 });
    let removed: Vec<(&str, &str, u32)> = events
        .iter()
        .filter_map(|e| match e {
            Event::TokenRemoved {
                corporation,
                hex,
                city,
            } => Some((corporation.as_str(), hex.as_str(), *city)),
            _ => None,
        })
        .collect();
    assert_eq!(removed, [("SFMA", "R14", 0)]);
    // The last step, AFI (the holding) with SSFL, is decided by SFMA's president, P4.
    let Some(CorporateEvent::Merger(m)) = event(&state) else {
        panic!("the Tuscan merge's last step waits")
    };
    assert_eq!(
        (m.initiator.as_str(), m.partner.as_str(), m.stage),
        ("AFI", "SSFL", MergerStage::Presidency)
    );
    assert_eq!(G1841::to_act(&state), [P4]);
}

/// 1841 §12.3 is silent on who carries the Tuscan merge out when the participant with the
/// best stock value has no president (frozen, its president's certificate in the pool,
/// §7.4): the controller of the operating corporation, the first 4-train's buyer, does
/// (18xx.games `tuscan_merge_start`: `decider.player || @round.current_entity.player`; before
/// 2026-12-06 this engine took the first player in player order). 132002 before action 327
/// (CTDA, P4's, bought the first 4-train; the split's token purchase next) with SFLP, the
/// leader, frozen (P1's president's certificate in the pool) and player order P1 first: P4
/// decides the merge.
#[test]
fn s12_3_a_frozen_leaders_tuscan_merge_is_decided_by_the_buyers_controller() {
    let mut state = before_in("132002", 327);
    let sflp = state.corporation_mut("SFLP").unwrap();
    for c in sflp.certificates.iter_mut().filter(|c| c.president) {
        c.owner = ShareOwner::Pool;
    }
    assert!(frozen(&state, "SFLP"));
    assert_eq!(operating_round(&state).current.as_deref(), Some("CTDA"));
    // Player order P1 first (it is P4 first in 132002 then), so that the old rule differs.
    state.player_order = vec![P1, P2, P3, P4];
    act(&mut state, P3, Action::BuyTokens { count: 3 });
    let Some(CorporateEvent::Merger(m)) = event(&state) else {
        panic!("the Tuscan merge waits")
    };
    // Its first step (SFLP + SFMA into AFI, the holding) is over; the last one waits.
    assert_eq!((m.initiator.as_str(), m.decider), ("AFI", Some(P4)));
}

/// 1841 §12.3 (FAQ-V2): SFLi operates in the round of its formation only if none of SFLP,
/// SFMA, SSFL has operated in it (or is operating); Version 1 never (FAQ-C17) unless
/// `sfli_run_variant`. 132002 action 327: none has → SFLi joins OR 3.1; the same with SSFL
/// marked as having operated → it waits.
#[test]
fn s12_3_sfli_runs_in_its_round_only_if_no_participant_operated() {
    let state = before_in("132002", 327);
    for (ssfl_done, runs) in [(false, true), (true, false)] {
        let mut s = state.clone();
        if ssfl_done && let Round::OperatingRound(r) = &mut s.round {
            r.done.push("SSFL".into());
        }
        G1841::apply(&mut s, P3, &Action::BuyTokens { count: 2 }).unwrap();
        let Some(CorporateEvent::Merger(m)) = event(&s) else {
            panic!("Tuscan merger expected")
        };
        assert!(m.tuscan);
        assert_eq!(m.joins_round, runs, "SSFL operated: {ssfl_done}");
    }
}

// ----- 1841 §12.1: voluntary mergers -------------------------------------------------------

/// 1841 §12.1 on 132002 before action 529: SFTC in its merge step may propose SFTG (both in
/// Torino, FAQ-Q26) — among the connected operated majors; the price follows (L.105 + L.56 →
/// L.162); P2 chooses the new corporation among the unstarted non-historical majors; with
/// 80% of the old shares P2 becomes president at once.
#[test]
fn s12_1_merger_partner_price_and_new_corporation() {
    let mut state = before_in("132002", 529);
    let Round::OperatingRound(r) = &state.round else {
        unreachable!()
    };
    assert_eq!(
        (r.current.as_deref(), r.step),
        (Some("SFTC"), OperatingStep::Merge)
    );
    let partners = merger::partners(&state, "SFTC");
    assert!(partners.contains(&"SFTG".to_string()), "{partners:?}");
    // Refusals name the reason: another type, not operated (AFI, formed later, is unstarted).
    let mut probe = state.clone();
    let r = G1841::apply(
        &mut probe,
        P2,
        &Action::ProposeMerger {
            partner: "AFI".into(),
        },
    )
    .unwrap_err();
    assert_eq!(
        (r.code, r.rule.as_str()),
        (RejectionCode::IllegalMove, "1841 §12.1")
    );
    assert!(r.message.contains("not started"), "{}", r.message);
    assert_eq!(probe, state);
    assert!(G1841::legal(&state, P2).actions.contains(&Action::Pass));
    act(
        &mut state,
        P2,
        Action::ProposeMerger {
            partner: "SFTG".into(),
        },
    );
    let Some(CorporateEvent::Merger(m)) = event(&state) else {
        panic!()
    };
    assert_eq!(m.stage, MergerStage::Corporation);
    let cell = m.cell.unwrap();
    assert_eq!(
        referee_engine::g1841::market::price_at(cell.row, cell.col),
        Some(162)
    );
    let legal = G1841::legal(&state, P2).actions;
    assert!(legal.contains(&Action::FormCorporation {
        corporation: "AFI".into()
    }));
    assert!(
        !legal
            .iter()
            .any(|a| matches!(a, Action::FormCorporation { corporation } if corporation == "CTDA"))
    );
    act(
        &mut state,
        P2,
        Action::FormCorporation {
            corporation: "AFI".into(),
        },
    );
    assert_eq!(state.corporation("AFI").unwrap().president(), Some(&p(P2)));
    assert!(state.corporation("SFTC").unwrap().closed);
    assert!(state.corporation("SFTG").unwrap().closed);
}

/// 1841 §12.1, FAQ-R6, #9404: when nobody holds 40% of the old shares and every player who
/// could claim the presidency declines, the merger fails and nothing changes; the initiator
/// is back in its merge step.
#[test]
fn s12_1_merger_without_a_president_fails() {
    let mut state = nobody_with_40_percent();
    for seat in [P1, P2, P3, P4] {
        give(&mut state, seat, 400);
    }
    let before = state.clone();
    merge_sftc_and_sftg_into_afi(&mut state);
    // Claims are asked in order, pairs first (P2 20%, P4 20%), then singles (P1, P3 10%).
    let mut asked = Vec::new();
    let mut events = Vec::new();
    while let Some(CorporateEvent::Merger(m)) = event(&state) {
        assert_eq!(m.stage, MergerStage::Presidency);
        let seat = G1841::to_act(&state)[0];
        asked.push(seat);
        events = act(&mut state, seat, Action::ClaimPresidency { claim: false });
    }
    assert_eq!(asked.first(), Some(&P2));
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::MergerFailed { .. }))
    );
    // Nothing changed but the round is where it was.
    assert_eq!(state, before);
}

/// 1841 §12.1 ("if new 10% shares run out, further pairs are exchanged against the
/// president's certificate if the holder already owns a new share"; the pool exchanges its
/// pairs like any holder, FAQ-Q25) with FAQ-R6: on 132002 before action 529 with SFTC = P2's
/// president's certificate and eight pool shares, SFTG = P4's president's certificate, P1's
/// share and seven pool shares, P2 and P4 (one pair each) decline the presidency; the pairs
/// then give P2 one share, P4 one and the pool six, and the pool's seventh pair takes the
/// president's certificate, so P1's single share may no longer claim it: nobody presides and
/// the merger fails without asking P1 (before 2026-12-06 P1 was asked and could claim;
/// 18xx.games: "Market exchanges 20% of old shares for president share", v2 8 players seed
/// 8013 id 1229). With P2 and P4 unable to pay for a claim, SFTC may not propose SFTG at all.
#[test]
fn s12_1_the_pools_pairs_take_an_unclaimed_presidency_when_shares_run_out() {
    let pool = ShareOwner::Pool;
    let mut state = before_in("132002", 529);
    let mut sftc = vec![p(P2)];
    sftc.extend(std::iter::repeat_n(pool.clone(), 8));
    set_holders(&mut state, "SFTC", &sftc);
    let mut sftg = vec![p(P4), p(P1)];
    sftg.extend(std::iter::repeat_n(pool.clone(), 7));
    set_holders(&mut state, "SFTG", &sftg);
    for seat in [P1, P2, P3, P4] {
        give(&mut state, seat, 400);
    }
    assert_eq!(validate(&state), Ok(()));
    let before = state.clone();
    merge_sftc_and_sftg_into_afi(&mut state);
    let mut asked = Vec::new();
    let mut events = Vec::new();
    while let Some(CorporateEvent::Merger(m)) = event(&state) {
        assert_eq!(m.stage, MergerStage::Presidency);
        let seat = G1841::to_act(&state)[0];
        asked.push(seat);
        events = act(&mut state, seat, Action::ClaimPresidency { claim: false });
    }
    assert_eq!(asked, [P2, P4]);
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::MergerFailed { .. }))
    );
    assert_eq!(state, before);
    // Only P1's single share could claim: the merger is not offered.
    let mut poor = before.clone();
    for seat in [P2, P4] {
        let cash = poor.players[seat as usize].cash;
        poor.players[seat as usize].cash = 0;
        poor.bank_cash += cash;
    }
    assert!(poor.players[P1 as usize].cash >= 300);
    assert!(!merger::partners(&poor, "SFTC").contains(&"SFTG".to_string()));
    assert!(merger::partners(&before, "SFTC").contains(&"SFTG".to_string()));
}

/// 1841 §12.1 (FAQ-R6: the first holder of 40% must take the presidency) with §7.5 (a holder
/// with strictly more takes it over): on 132002 before action 529, P2 (SFTC 40%, asked
/// first) receives AFI's president's certificate, then P3 (SFTG 60%) receives three shares,
/// 30% against P2's 20%, and becomes president, swapping two shares for the certificate, as
/// 18xx.games' exchange does (`allow_president_change: true`; lite heuristic 4 players seed
/// 4001, id 502: "Player 2 becomes the president of CTDA", then "Player 3 becomes the
/// president of CTDA"). Without the check P2 stayed president below P3.
#[test]
fn s12_1_a_larger_holder_takes_the_new_presidency_after_the_exchange() {
    let mut state = before_in("132002", 529);
    set_holders(&mut state, "SFTC", &[p(P2), p(P2), p(P2)]);
    set_holders(&mut state, "SFTG", &[p(P3), p(P3), p(P3), p(P3), p(P3)]);
    act(
        &mut state,
        P2,
        Action::ProposeMerger {
            partner: "SFTG".into(),
        },
    );
    let events = act(
        &mut state,
        P2,
        Action::FormCorporation {
            corporation: "AFI".into(),
        },
    );
    assert!(events.contains(&Event::PresidentChanged {
        corporation: "AFI".into(),
        seat: P3,
    }));
    let afi = state.corporation("AFI").unwrap();
    assert_eq!(afi.president(), Some(&p(P3)));
    assert_eq!(
        (percent(&state, "AFI", p(P3)), percent(&state, "AFI", p(P2))),
        (30, 20)
    );
}

/// 1841 §7.5 (a holder with strictly more than the president takes the presidency,
/// corporations included, after every share movement), §7.4 (a corporation with no player at
/// the top of its chain is frozen and "cannot take decisions in exchanges"), §12.1 (the
/// treasury certificates go to the new corporation before the exchange), §12.3. Version 2
/// random 5 players seed 5122: in the Tuscan merge's second step (AFI and SSFL into SFLi,
/// id 616) SFLi receives 30% of SFTG (AFI's 20%, SSFL's 10%) against player 3's 20%
/// president's certificate, so SFTG answers to SFLi, which nobody presides yet: SFTG, a
/// holder of three units, is not asked to pay for a full share (18xx.games: its odd share
/// goes for cash unasked, `merger_next_exchange` offers `full` only with `entity.player`),
/// and the next decision is CFCC's odd share, player 1's. Before, player 3 was asked for
/// SFTG.
#[test]
fn s12_3_a_holder_the_new_corporation_now_presides_is_not_asked_in_the_exchange() {
    let state = data_at("v2-5p-random-s5122-to616", 616);
    let Some(CorporateEvent::Merger(m)) = event(&state) else {
        panic!("the Tuscan merge's second step");
    };
    assert_eq!((m.initiator.as_str(), m.target.as_str()), ("AFI", "SFLi"));
    assert_eq!(m.stage, MergerStage::OddShares);
    assert_eq!(m.holders.get(m.next as usize), Some(&corp("CFCC")));
    assert_eq!(G1841::to_act(&state), vec![P1]);
    let sftg = m.holders.iter().position(|h| *h == corp("SFTG")).unwrap();
    assert_eq!(m.units[sftg], 1);
    assert_eq!(
        state.corporation("SFTG").unwrap().president(),
        Some(&corp("SFLi"))
    );
    assert_eq!(percent(&state, "SFLi", corp("SFTG")), 10);
}

/// 1841 §12.1: the holders exchange in order (from the initiator's president round the
/// table), and the president's certificate is handed over at its holder's turn, as in
/// 18xx.games (`merger_do_exchange`), so the events tell it there: on 132002 before action
/// 529, P2 (SFTC 30%, asked first) declines and takes one share, then P3 (SFTG 40%) must take
/// the presidency. Followed by the export's share ledger, P2 holds AFI_1 and P3 the
/// president's certificate (AFI_2 and AFI_3, his first two, went back to the IPO), as 18xx
/// numbers them (p2p_purchases heuristic 3 players seed 3001, id 679: player 2's IFAI share
/// was written as IFAI_3, in 18xx's IPO, before the change).
#[test]
fn s12_1_the_presidents_exchange_comes_at_his_turn() {
    use referee_engine::g1841::share_ledger::Ledger;
    let mut state = before_in("132002", 529);
    set_holders(&mut state, "SFTC", &[p(P2), p(P2)]);
    set_holders(&mut state, "SFTG", &[p(P3), p(P3), p(P3)]);
    give(&mut state, P2, 400);
    let mut ledger = Ledger::new(&state);
    act(
        &mut state,
        P2,
        Action::ProposeMerger {
            partner: "SFTG".into(),
        },
    );
    let mut events = act(
        &mut state,
        P2,
        Action::FormCorporation {
            corporation: "AFI".into(),
        },
    );
    assert_eq!(G1841::to_act(&state), [P2]);
    events.extend(act(
        &mut state,
        P2,
        Action::ClaimPresidency { claim: false },
    ));
    let exchanged: Vec<(ShareOwner, u32, bool)> = events
        .iter()
        .filter_map(|e| match e {
            Event::SharesExchanged {
                holder,
                percent,
                president,
                ..
            } => Some((holder.clone(), *percent, *president)),
            _ => None,
        })
        .collect();
    assert_eq!(exchanged, [(p(P2), 10, false), (p(P3), 20, true)]);
    ledger.exchanged(&events, &state);
    ledger.settle(&state);
    assert_eq!(ledger.held("AFI", &p(P2)), ["AFI_1"]);
    assert_eq!(ledger.held("AFI", &p(P3)), ["AFI_0"]);
}

/// 132002 before action 529 with nobody holding 40% of SFTC and SFTG's shares together:
/// SFTC: P2 president (20%) + P3 10%; SFTG: P4 president (20%) + P1 10%; the rest pool.
fn nobody_with_40_percent() -> State {
    let mut state = before_in("132002", 529);
    set_holders(
        &mut state,
        "SFTC",
        &[p(P2), p(P3), ShareOwner::Pool, ShareOwner::Pool],
    );
    set_holders(&mut state, "SFTG", &[p(P4), p(P1)]);
    state
}

/// The position of [`s12_1_merger_without_a_president_fails`] (132002 before action 529,
/// nobody with 40%, everybody L.400 richer) with SFTC holding CTDA's 3-5 beside its 3-3, SFTG
/// CTDA's 4-0 beside its 3-2, SFTG one SFTC share (certificate 3) instead of the pool, and
/// SFTC SB's first ordinary certificate left in its IPO (returned with its index).
fn crowded_merger_position() -> (State, usize) {
    let mut state = before_in("132002", 529);
    set_holders(
        &mut state,
        "SFTC",
        &[p(P2), p(P3), ShareOwner::Pool, corp("SFTG")],
    );
    set_holders(&mut state, "SFTG", &[p(P4), p(P1)]);
    for seat in [P1, P2, P3, P4] {
        give(&mut state, seat, 400);
    }
    let t = &mut state.operations.trains;
    t.remove("CTDA");
    t.insert("SFTC".into(), vec!["3-3".into(), "3-5".into()]);
    t.insert("SFTG".into(), vec!["3-2".into(), "4-0".into()]);
    let held = state
        .corporation("SB")
        .unwrap()
        .certificates
        .iter()
        .position(|x| x.owner == ShareOwner::Ipo && !x.president)
        .unwrap();
    let sb = state
        .corporations
        .iter_mut()
        .find(|c| c.sym == "SB")
        .unwrap();
    sb.certificates[held].owner = corp("SFTC");
    assert_eq!(validate(&state), Ok(()));
    (state, held)
}

/// 1841 §12.1 in 18xx.games' order (`merger_exchange_start`; D2 part 3): when the new
/// corporation is named it is placed on its cell (L.162) and receives both corporations'
/// cash (L.657 + L.266 = L.923), trains (SFTC's 3-3, 3-5, then SFTG's 3-2, 4-0) and treasury
/// (SFTC's SB share; SFTG's SFTC share stays until the exchange eliminates it) — before
/// anybody claims the presidency. Four
/// trains over the phase-4 limit of 3 (§9.6): AFI discards first, and with no president yet
/// its discard is decided by P2, the initiator SFTC's president (18xx's `@merger_decider`),
/// not by P4; then the claims. P2 claims (L.162 to AFI): AFI ends with L.1085 and the 3-5,
/// 3-2 and 4-0, the 3-3 in the pool.
#[test]
fn s12_1_merger_assets_move_before_the_claims_and_the_new_corporation_discards_first() {
    let (mut state, held) = crowded_merger_position();
    merge_sftc_and_sftg_into_afi(&mut state);
    let afi = state.corporation("AFI").unwrap();
    assert_eq!(
        (afi.price(), afi.cash, afi.president()),
        (Some(162), 923, Some(&ShareOwner::Ipo))
    );
    assert_eq!(trains(&state, "AFI"), ["3-3", "3-5", "3-2", "4-0"]);
    assert_eq!(trains(&state, "SFTC"), Vec::<String>::new());
    assert_eq!(
        (
            state.corporation("SFTC").unwrap().cash,
            state.corporation("SFTG").unwrap().cash
        ),
        (0, 0)
    );
    assert_eq!(
        state.corporation("SB").unwrap().certificates[held].owner,
        corp("AFI")
    );
    assert_eq!(
        state.corporation("SFTC").unwrap().certificates[3].owner,
        corp("SFTG")
    );
    let Round::OperatingRound(r) = &state.round else {
        unreachable!()
    };
    assert_eq!(r.crowded, ["AFI"]);
    assert_eq!(G1841::to_act(&state), [P2]);
    let discard = |train: &str| Action::DiscardTrain {
        corporation: "AFI".into(),
        train: train.into(),
    };
    assert_eq!(
        G1841::legal(&state, P2).actions,
        [discard("3-3"), discard("4-0")]
    );
    let r = G1841::apply(&mut state.clone(), P4, &discard("3-3")).unwrap_err();
    assert_eq!(r.code, RejectionCode::NotYourTurn);
    act(&mut state, P2, discard("3-3"));
    assert_eq!(state.operations.pool_trains, ["3-3"]);
    let Some(CorporateEvent::Merger(m)) = event(&state) else {
        panic!()
    };
    assert_eq!(m.stage, MergerStage::Presidency);
    assert_eq!(G1841::to_act(&state), [P2]);
    act(&mut state, P2, Action::ClaimPresidency { claim: true });
    let afi = state.corporation("AFI").unwrap();
    assert_eq!((afi.cash, afi.president()), (923 + 162, Some(&p(P2))));
    assert_eq!(trains(&state, "AFI"), ["3-5", "3-2", "4-0"]);
    assert_eq!(state.operations.pool_trains, ["3-3"]);
    assert_eq!(
        state.corporation("SB").unwrap().certificates[held].owner,
        corp("AFI")
    );
}

/// 1841 §12.1, FAQ-R6, 18xx #9404 ("Cannot complete this merger without a president. Undo
/// required."): the merger of [`s12_1_merger_assets_move_before_the_claims_and_the_new_corporation_discards_first`]
/// with every claim declined is taken back whole — the cash, the four trains (the 3-3 AFI
/// discarded comes back out of the pool), SFTC's SB share, AFI unstarted and off the
/// market: the state is the one before the proposal.
#[test]
fn s12_1_failed_merger_takes_back_the_moved_assets_and_the_discard() {
    let (mut state, held) = crowded_merger_position();
    let before = state.clone();
    merge_sftc_and_sftg_into_afi(&mut state);
    act(
        &mut state,
        P2,
        Action::DiscardTrain {
            corporation: "AFI".into(),
            train: "3-3".into(),
        },
    );
    assert_eq!(state.operations.pool_trains, ["3-3"]);
    assert_eq!(
        state.corporation("SB").unwrap().certificates[held].owner,
        corp("AFI")
    );
    let mut asked = Vec::new();
    let mut events = Vec::new();
    while let Some(CorporateEvent::Merger(_)) = event(&state) {
        let seat = G1841::to_act(&state)[0];
        asked.push(seat);
        events = act(&mut state, seat, Action::ClaimPresidency { claim: false });
    }
    assert_eq!(asked, [P2, P4, P1, P3]);
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::MergerFailed { .. }))
    );
    assert_eq!(trains(&state, "SFTC"), ["3-3", "3-5"]);
    assert!(state.operations.pool_trains.is_empty());
    assert_eq!(
        state.corporation("SB").unwrap().certificates[held].owner,
        corp("SFTC")
    );
    assert_eq!(state.corporation("AFI").unwrap().share_price, None);
    assert_eq!(state, before);
}

/// A merger saved by an older build in its presidency stage (no `moved` record, the new
/// corporation still unstarted, the assets still with the old corporations) still loads and
/// plays as it did: the assets move with the exchange — P2 claims, AFI gets L.923 + L.162 and
/// the four trains, and only then, with P2 its president, discards (1841 §9.6) — and a
/// failure leaves the state as before the proposal.
#[test]
fn s12_1_a_merger_saved_without_the_moved_record_moves_the_assets_at_the_exchange() {
    let (start, _) = crowded_merger_position();
    let mut state = start.clone();
    act(
        &mut state,
        P2,
        Action::ProposeMerger {
            partner: "SFTG".into(),
        },
    );
    let mut named = state.clone();
    act(
        &mut named,
        P2,
        Action::FormCorporation {
            corporation: "AFI".into(),
        },
    );
    let Some(CorporateEvent::Merger(m)) = event(&named) else {
        panic!()
    };
    let mut old = m.clone();
    old.moved = None;
    let Round::OperatingRound(r) = &mut state.round else {
        unreachable!()
    };
    r.event = Some(Box::new(CorporateEvent::Merger(old)));
    assert_eq!(validate(&state), Ok(()));
    assert_eq!(state.corporation("AFI").unwrap().share_price, None);
    assert_eq!(G1841::to_act(&state), [P2]);
    let mut declined = state.clone();
    let mut claimed = state;
    act(&mut claimed, P2, Action::ClaimPresidency { claim: true });
    let afi = claimed.corporation("AFI").unwrap();
    assert_eq!((afi.cash, afi.president()), (923 + 162, Some(&p(P2))));
    assert_eq!(trains(&claimed, "AFI"), ["3-3", "3-5", "3-2", "4-0"]);
    let Round::OperatingRound(r) = &claimed.round else {
        unreachable!()
    };
    assert_eq!(r.crowded, ["AFI"]);
    assert_eq!(G1841::to_act(&claimed), [P2]);
    while let Some(CorporateEvent::Merger(_)) = event(&declined) {
        let seat = G1841::to_act(&declined)[0];
        act(
            &mut declined,
            seat,
            Action::ClaimPresidency { claim: false },
        );
    }
    assert_eq!(declined, start);
}

/// 1841 §12.1 (rule 4.7.4.1), FAQ-R6, 18xx #9404: a merger that cannot end with a president
/// whatever the holders decide is not offered (18xx.games refuses it at once: "Cannot
/// complete this merger without a president. Undo required."). 132002 before action 529 with
/// SFTC held by P2 (20%) and P3 (10%), SFTG by P4 (20%) and P1 (10%): nobody holds 40% of the
/// old shares; the new price is L.162, so P2's claim costs 162 × (40 − 20) ÷ 20 = L.162, P4's
/// the same, P1's and P3's 162 × 30 ÷ 20 = L.243. With L.161 each nobody can claim: SFTG is
/// not a partner, and proposing it is refused with the reason. With L.162 for P2 it is.
#[test]
fn s12_1_merger_nobody_can_preside_is_not_offered() {
    let mut state = nobody_with_40_percent();
    for seat in [P1, P2, P3, P4] {
        let cash = state.players[seat as usize].cash;
        give(&mut state, seat, 161 - cash);
    }
    assert_eq!(validate(&state), Ok(()));
    let propose = Action::ProposeMerger {
        partner: "SFTG".into(),
    };
    assert!(!G1841::legal(&state, P2).actions.contains(&propose));
    assert!(!merger::partners(&state, "SFTC").contains(&"SFTG".to_string()));
    let mut probe = state.clone();
    let r = G1841::apply(&mut probe, P2, &propose).unwrap_err();
    assert_eq!(
        (r.code, r.rule.as_str()),
        (RejectionCode::IllegalMove, "1841 §12.1")
    );
    assert!(
        r.message.contains("cannot end with a president"),
        "{}",
        r.message
    );
    assert_eq!(probe, state);
    // One more lira for P2: he can claim, the merger is offered and goes through with him.
    give(&mut state, P2, 1);
    assert!(G1841::legal(&state, P2).actions.contains(&propose));
    act(&mut state, P2, propose);
    act(
        &mut state,
        P2,
        Action::FormCorporation {
            corporation: "AFI".into(),
        },
    );
    assert_eq!(G1841::to_act(&state), [P2]);
    act(&mut state, P2, Action::ClaimPresidency { claim: true });
    assert_eq!(state.corporation("AFI").unwrap().president(), Some(&p(P2)));
    assert_eq!(state.players[P2 as usize].cash, 0);
}

/// 1841 §12.1, FAQ-R6: a player with less than 40% claims the presidency for price × (40 −
/// held%) ÷ 20 rounded down, paid to the new corporation: A at L.90 and B at L.60 → L.141
/// (FAQ-T); with 30% the claim costs L.70 (70.5 rounded down) and gives him the 20%
/// certificate for his whole holding.
#[test]
fn s12_1_claiming_the_presidency_costs_price_times_40_minus_held_over_20() {
    let mut state = before_in("132002", 529);
    referee_engine::g1841::market::set_cell(&mut state, "SFTC", 7, 9); // L.95
    referee_engine::g1841::market::set_cell(&mut state, "SFTG", 8, 6); // L.56? see below
    let pa = state.corporation("SFTC").unwrap().price().unwrap();
    let pb = state.corporation("SFTG").unwrap().price().unwrap();
    // P2 30% (SFTC president + 10% SFTG), P4 20% (SFTG president), the rest pool.
    set_holders(&mut state, "SFTC", &[p(P2), ShareOwner::Pool]);
    set_holders(&mut state, "SFTG", &[p(P4), p(P2)]);
    give(&mut state, P2, 300);
    merge_sftc_and_sftg_into_afi(&mut state);
    let Some(CorporateEvent::Merger(m)) = event(&state) else {
        panic!()
    };
    let cell = m.cell.unwrap();
    let price = referee_engine::g1841::market::price_at(cell.row, cell.col).unwrap();
    assert_eq!(
        (pa, pb, price),
        (
            pa,
            pb,
            referee_engine::g1841::market::price_at(
                referee_engine::g1841::market::cell_below(2 * (pa + pb).min(250)).0,
                referee_engine::g1841::market::cell_below(2 * (pa + pb).min(250)).1
            )
            .unwrap()
        )
    );
    assert_eq!(G1841::to_act(&state), [P2]);
    let cash = state.players[P2 as usize].cash;
    act(&mut state, P2, Action::ClaimPresidency { claim: true });
    let cost = price * 10 / 20;
    assert_eq!(state.players[P2 as usize].cash, cash - cost);
    assert_eq!(state.corporation("AFI").unwrap().president(), Some(&p(P2)));
    assert_eq!(percent(&state, "AFI", p(P2)), 20);
}

/// 1841 §9.6, §12.1: a merger in the turn of the round's last corporation leaves the new
/// corporation over its train limit; it discards as soon as the merger stops for a decision
/// (before the odd shares: 18xx.games' `DiscardTrain` step blocks before its `ChooseOption`
/// step once the assets have moved), and the round ends only after the merger. Before the
/// fix of 2026-12-05 the round ended at once and the new corporation kept its excess trains
/// into later rounds (a random game reached a later merger whose new corporation held 9
/// trains and failed the state validator); until issue #22's alignment the discard waited
/// for the end of the merger.
///
/// 132002 before action 529 (phase 4, limit 3 for a major), SFLi marked as operated so that
/// SFTC operates last: SFTC (3-3 and SB's 4-2) + SFTG (3-2 and SFL's 4-3) → AFI with 4 trains.
#[test]
fn s9_6_merger_of_the_last_corporation_discards_before_the_round_ends() {
    let mut state = before_in("132002", 529);
    let t = &mut state.operations.trains;
    t.get_mut("SB").unwrap().retain(|x| x != "4-2");
    t.get_mut("SFL").unwrap().retain(|x| x != "4-3");
    t.get_mut("SFTC").unwrap().push("4-2".into());
    t.get_mut("SFTG").unwrap().push("4-3".into());
    let Round::OperatingRound(r) = &mut state.round else {
        unreachable!()
    };
    r.done.push("SFLi".into());
    assert_eq!((r.stock_round, r.number, r.total), (4, 1, 2));
    assert_eq!(validate(&state), Ok(()));
    merge_sftc_and_sftg_into_afi(&mut state);
    assert_eq!(trains(&state, "AFI"), ["3-3", "4-2", "3-2", "4-3"]);
    // The merger waits for the odd shares, but AFI discards first.
    assert!(event(&state).is_some());
    let Round::OperatingRound(r) = &state.round else {
        panic!("the round must wait for AFI's discard: {:?}", state.round)
    };
    assert_eq!((r.stock_round, r.number), (4, 1));
    assert_eq!(r.crowded.as_slice(), &["AFI".to_string()][..]);
    assert_eq!(G1841::to_act(&state), [P2]);
    let discards = |train: &str| Action::DiscardTrain {
        corporation: "AFI".into(),
        train: train.into(),
    };
    assert_eq!(
        G1841::legal_actions(&state, P2),
        [discards("3-3"), discards("4-2")]
    );
    // Nothing else moves first: not another seat, not another action (the odd share neither).
    let mut probe = state.clone();
    let r = G1841::apply(&mut probe, P1, &discards("3-3")).unwrap_err();
    assert_eq!(
        (r.code, r.rule.as_str()),
        (RejectionCode::NotYourTurn, "1841 §9.6")
    );
    let r = G1841::apply(
        &mut probe,
        P2,
        &Action::ExchangeOddShare {
            choice: OddShareChoice::Cash,
        },
    )
    .unwrap_err();
    assert_eq!(
        (r.code, r.rule.as_str()),
        (RejectionCode::WrongStep, "1841 §9.6")
    );
    assert_eq!(probe, state);
    act(&mut state, P2, discards("3-3"));
    assert_eq!(trains(&state, "AFI"), ["4-2", "3-2", "4-3"]);
    assert_eq!(state.operations.pool_trains, ["3-3"]);
    // Then the odd shares: every holder sells his to the bank.
    assert!(event(&state).is_some());
    while event(&state).is_some() {
        let seat = G1841::to_act(&state)[0];
        act(
            &mut state,
            seat,
            Action::ExchangeOddShare {
                choice: OddShareChoice::Cash,
            },
        );
    }
    // Then the round is over: Operating Round 4.2 begins with the first corporation.
    let Round::OperatingRound(r) = &state.round else {
        panic!("{:?}", state.round)
    };
    assert_eq!((r.stock_round, r.number), (4, 2));
    assert!(r.crowded.is_empty());
    assert!(r.current.is_some());
}

/// FAQ-R6 worked example (fixed numbers): 30% at a new price of L.141 costs L.70.
#[test]
fn faq_r6_claim_cost_example() {
    // price × (40 − 30) ÷ 20 = 70.5 → 70; with 20%: L.141; with 10%: L.211 (1.5×, rounded down).
    let cost = |price: i64, held: i64| price * (40 - held) / 20;
    assert_eq!(cost(141, 30), 70);
    assert_eq!(cost(141, 20), 141);
    assert_eq!(cost(141, 10), 211);
    let (r, c) = referee_engine::g1841::market::cell_below(2 * (90 + 60));
    assert_eq!(referee_engine::g1841::market::price_at(r, c), Some(141));
    assert_eq!((r, c), (6, 11));
}

// ----- 1841 §7.4: frozen and circular control ---------------------------------------------

/// 1841 §7.4, FAQ-Q23: two corporations holding each other's president's certificate are
/// under circular control: frozen, with no controlling player.
#[test]
fn s7_4_mutual_presidents_are_circular_and_frozen() {
    let mut state = before_in("132002", 529);
    // SFTC holds SFTG's president's certificate and SFTG holds SFTC's.
    set_holders(&mut state, "SFTC", &[corp("SFTG"), p(P2)]);
    set_holders(&mut state, "SFTG", &[corp("SFTC"), p(P2)]);
    for sym in ["SFTC", "SFTG"] {
        assert!(circular(&state, sym), "{sym}");
        assert!(frozen(&state, sym), "{sym}");
        assert_eq!(controller(&state, sym), None);
    }
}

/// 1841 §7.4, FAQ-Q23, FAQ-Q1: a corporation under circular control has no turn of its own:
/// its price moves left twice and it sells, at the market price with the usual drops, what
/// it holds of the corporations in its loop; it has operated then. 132002 before action 386
/// (OR 3.2) with SFTC and SFTG holding each other's president's certificate, SB ending its
/// turn at once.
#[test]
fn s7_4_circular_corporation_moves_left_twice_and_sells_out_of_its_loop() {
    use referee_engine::g1841::market;
    let mut state = before_in("132002", 386);
    set_holders(&mut state, "SFTC", &[corp("SFTG"), p(P2), p(P2)]);
    set_holders(&mut state, "SFTG", &[corp("SFTC"), p(P3)]);
    if let Round::OperatingRound(r) = &mut state.round {
        r.step = OperatingStep::Merge;
        r.done = vec!["SFL".into(), "CTDA".into(), "SFLi".into()];
    }
    assert_eq!(validate(&state), Ok(()));
    let first = referee_engine::g1841::market::operating_order(&state)
        .into_iter()
        .find(|s| s == "SFTC" || s == "SFTG")
        .unwrap();
    let other = if first == "SFTC" { "SFTG" } else { "SFTC" };
    let before = state.corporation(&first).unwrap().share_price.unwrap();
    let other_price = state.corporation(other).unwrap().price().unwrap();
    let cash = state.corporation(&first).unwrap().cash;
    act(&mut state, P3, Action::Pass);
    let after = state.corporation(&first).unwrap();
    let (r1, c1) = market::left(before.row, before.col);
    let (r2, c2) = market::left(r1, c1);
    assert_eq!(
        (
            after.share_price.unwrap().row,
            after.share_price.unwrap().col
        ),
        (r2, c2)
    );
    assert!(after.operated);
    // It sold the other's president's certificate (2 units) at the market price.
    assert_eq!(after.cash, cash + 2 * other_price);
    assert_eq!(percent(&state, other, corp(&first)), 0);
    assert!(!circular(&state, &first));
}

/// FAQ-R1 / 1841 §7.4: a sale that would put corporations under mutual control is not
/// offered and is refused. 132002 Stock Round 4 (before action 449, P4 to act): SFTG holds
/// SFTC's president's certificate; P4 is SFTG's president (20%) and SFTC holds 30% of SFTG.
/// P4 dumping SFTG would make SFTC its president: SFTC → SFTG → SFTC.
#[test]
fn faq_r1_no_sale_that_creates_mutual_control() {
    let mut state = before_in("132002", 449);
    assert_eq!(G1841::to_act(&state), [P4]);
    set_holders(&mut state, "SFTC", &[corp("SFTG"), p(P2), p(P2)]);
    set_holders(
        &mut state,
        "SFTG",
        &[p(P4), corp("SFTC"), corp("SFTC"), corp("SFTC")],
    );
    assert_eq!(controller(&state, "SFTC"), Some(P4));
    let sell = Action::SellShares {
        corporation: "SFTG".into(),
        percent: 20,
    };
    assert!(!G1841::legal(&state, P4).actions.contains(&sell));
    let mut probe = state.clone();
    assert!(G1841::apply(&mut probe, P4, &sell).is_err());
    assert_eq!(probe, state);
}

/// 1841 §12.2: a minor transforms into an unstarted non-historical major at the same price
/// and place: the 40% certificate becomes the 20% one, each 20% share one 10% share; cash,
/// tokens go over; two rounds of optional purchases (shareholders, then every player), the
/// compulsory second token for L.50, then more at L.100; the minor is available again and the
/// major does not operate again in this round. Hand-made: CTLP at L.100 (P1 40%, P2 20%,
/// L.300, a token in Reggio) in 132002's OR 3.2.
#[test]
fn s12_2_minor_transforms_into_a_major() {
    let mut state = before_in("132002", 386);
    let (row, col) =
        referee_engine::g1841::market::par_cell(100, referee_engine::g1841::CorporationKind::Minor)
            .unwrap();
    referee_engine::g1841::market::set_cell(&mut state, "CTLP", row, col);
    set_holders(&mut state, "CTLP", &[p(P1), p(P2)]);
    state.bank_cash -= 300;
    let c = state
        .corporations
        .iter_mut()
        .find(|c| c.sym == "CTLP")
        .unwrap();
    c.cash = 300;
    c.par_price = 100;
    c.tokens = vec![referee_engine::g1841::MapToken {
        hex: "L12".into(),
        city: 0,
    }];
    c.tokens_total = 1;
    if let Round::OperatingRound(r) = &mut state.round {
        r.current = Some("CTLP".into());
        r.step = OperatingStep::Transform;
    }
    give(&mut state, P1, 500);
    assert_eq!(validate(&state), Ok(()));
    let legal = G1841::legal(&state, P1).actions;
    assert!(legal.contains(&Action::Transform {
        corporation: "ATFA".into()
    }));
    assert!(legal.contains(&Action::Pass));
    act(
        &mut state,
        P1,
        Action::Transform {
            corporation: "ATFA".into(),
        },
    );
    let atfa = state.corporation("ATFA").unwrap();
    let sp = atfa.share_price.unwrap();
    assert_eq!((sp.row, sp.col, atfa.price()), (row, col, Some(100)));
    assert_eq!(atfa.president(), Some(&p(P1)));
    assert_eq!(percent(&state, "ATFA", p(P1)), 20);
    assert_eq!(percent(&state, "ATFA", p(P2)), 10);
    assert_eq!(hexes(&state, "ATFA"), ["L12"]);
    let ctlp = state.corporation("CTLP").unwrap();
    assert!(!ctlp.started() && !ctlp.closed, "available again");
    // Round 1: the shareholders from the president (P1, then P2 if he can pay).
    let buy = Action::BuyShares {
        corporation: "ATFA".into(),
        from_pool: false,
        percent: 10,
    };
    assert_eq!(G1841::to_act(&state), [P1]);
    act(&mut state, P1, buy.clone());
    // Everyone else passes (round 1 and round 2).
    while let Some(CorporateEvent::Transformation(t)) = event(&state) {
        if t.stage >= 3 {
            break;
        }
        let seat = G1841::to_act(&state)[0];
        act(&mut state, seat, Action::Pass);
    }
    let atfa = state.corporation("ATFA").unwrap();
    // L.300 + L.100 (P1's share) − L.50 (the compulsory second token).
    assert_eq!((atfa.cash, atfa.tokens_total), (350, 2));
    assert_eq!(
        G1841::legal(&state, P1).actions,
        [
            Action::BuyTokens { count: 2 },
            Action::BuyTokens { count: 3 },
            Action::BuyTokens { count: 4 },
            Action::BuyTokens { count: 5 }
        ]
    );
    act(&mut state, P1, Action::BuyTokens { count: 3 });
    let atfa = state.corporation("ATFA").unwrap();
    assert_eq!((atfa.cash, atfa.tokens_total), (250, 3));
    assert!(event(&state).is_none());
    let Round::OperatingRound(r) = &state.round else {
        unreachable!()
    };
    assert!(r.done.contains(&"ATFA".to_string()));
    assert_ne!(r.current.as_deref(), Some("CTLP"));
}

/// A hand-made CTLP (P1 40%, P2 20%, a token in Reggio) at market cell (`row`, `col`) with
/// `cash`, in its transform step of 132002's OR 3.2; every player holds `player_cash`
/// (money moved to or from the bank).
fn minor_to_transform(row: u32, col: u32, cash: i64, player_cash: i64) -> State {
    let mut state = before_in("132002", 386);
    referee_engine::g1841::market::set_cell(&mut state, "CTLP", row, col);
    set_holders(&mut state, "CTLP", &[p(P1), p(P2)]);
    state.bank_cash -= cash;
    let c = state
        .corporations
        .iter_mut()
        .find(|c| c.sym == "CTLP")
        .unwrap();
    c.cash = cash;
    c.par_price = 100;
    c.tokens = vec![referee_engine::g1841::MapToken {
        hex: "L12".into(),
        city: 0,
    }];
    c.tokens_total = 1;
    if let Round::OperatingRound(r) = &mut state.round {
        r.current = Some("CTLP".into());
        r.step = OperatingStep::Transform;
    }
    for seat in 0..state.players.len() {
        let have = state.players[seat].cash;
        give(&mut state, seat as Seat, player_cash - have);
    }
    assert_eq!(validate(&state), Ok(()));
    state
}

/// Everyone passes the transformation's two purchase rounds (1841 §12.2).
fn decline_offers(state: &mut State) {
    while let Some(CorporateEvent::Transformation(t)) = event(state) {
        if t.stage > 2 {
            break;
        }
        let seat = G1841::to_act(state)[0];
        act(state, seat, Action::Pass);
    }
}

/// 1841 §12.2 ("emergency money raising allowed" for the second token), §14, FAQ-Q5: a minor
/// with one token and less than L.50 may transform; after the purchase rounds the major
/// sells at half price for the L.50 before its president pays anything. CTLP at L.100
/// (row 3, col 5) with L.20 transforms into ATFA; nobody buys (the players hold L.60); ATFA
/// must sell one IPO share (ceil(100 ÷ 2) = L.50 covers the L.30 missing; two are not
/// offered), its price drops a row to L.95, it pays L.50 and keeps L.20, with two tokens.
#[test]
fn s12_2_a_transformation_raises_the_second_tokens_money_by_emergency_sales() {
    let mut state = minor_to_transform(3, 5, 20, 60);
    let legal = G1841::legal(&state, P1).actions;
    assert!(legal.contains(&Action::Transform {
        corporation: "ATFA".into()
    }));
    act(
        &mut state,
        P1,
        Action::Transform {
            corporation: "ATFA".into(),
        },
    );
    decline_offers(&mut state);
    let Some(CorporateEvent::Transformation(t)) = event(&state) else {
        panic!("the transformation waits for the token money");
    };
    assert_eq!(t.stage, 5);
    assert_eq!(G1841::to_act(&state), [P1]);
    let sale = Action::EmergencySell {
        seller: Some("ATFA".into()),
        corporation: "ATFA".into(),
        percent: 10,
    };
    assert_eq!(
        G1841::legal(&state, P1).actions,
        std::slice::from_ref(&sale)
    );
    // Another seat, another action: refused, the state unchanged.
    let mut probe = state.clone();
    assert!(G1841::apply(&mut probe, P2, &sale).is_err());
    assert!(G1841::apply(&mut probe, P1, &Action::BuyTokens { count: 2 }).is_err());
    assert_eq!(probe, state);
    let bank = state.bank_cash;
    act(&mut state, P1, sale);
    let atfa = state.corporation("ATFA").unwrap();
    assert_eq!(
        (atfa.cash, atfa.tokens_total, atfa.price()),
        (20, 2, Some(95))
    );
    assert_eq!(percent(&state, "ATFA", ShareOwner::Pool), 10);
    assert_eq!(state.players[P1 as usize].cash, 60);
    // L.50 from the bank for the share, L.50 back for the token.
    assert_eq!(state.bank_cash, bank);
    assert!(event(&state).is_none(), "no further token (FAQ-Q5)");
}

/// FAQ-Q5 ("if that is not enough, the president must pay the rest"), 1841 §14: ATFA at L.11
/// (row 11, col 0) with L.0 sells every IPO share it has (70%, ceil(7 × 11 ÷ 2) = L.39; each
/// bundle of 1 to 7 shares is offered, none covering the L.50), then its president P1
/// (L.60) pays the L.11 missing; it buys no further token.
#[test]
fn s12_2_the_president_pays_what_the_majors_sales_leave_short() {
    let mut state = minor_to_transform(11, 0, 0, 60);
    act(
        &mut state,
        P1,
        Action::Transform {
            corporation: "ATFA".into(),
        },
    );
    decline_offers(&mut state);
    let sales: Vec<Action> = (1..=7)
        .map(|k| Action::EmergencySell {
            seller: Some("ATFA".into()),
            corporation: "ATFA".into(),
            percent: 10 * k,
        })
        .collect();
    assert_eq!(G1841::legal(&state, P1).actions, sales);
    act(&mut state, P1, sales[6].clone());
    let atfa = state.corporation("ATFA").unwrap();
    assert_eq!((atfa.cash, atfa.tokens_total), (0, 2));
    assert_eq!(percent(&state, "ATFA", ShareOwner::Pool), 70);
    assert_eq!(state.players[P1 as usize].cash, 49);
    assert!(event(&state).is_none());
}

/// 1841 §12.2: the exchange is simultaneous; it is made in 18xx.games' order
/// (`transform_shares`, which decides the share ids of its export): the president's
/// certificate, then the players round the table from the president, the pool last. Hand-made
/// as above: CTLP's president P2, a 20% share in the pool (certificate 1), one with P1
/// (certificate 2); ATFA's shares go to P2 (president), P1, then the pool, certificates 0, 1
/// and 2 in that order.
#[test]
fn s12_2_transformation_exchanges_players_before_the_pool() {
    let mut state = before_in("132002", 386);
    let (row, col) =
        referee_engine::g1841::market::par_cell(100, referee_engine::g1841::CorporationKind::Minor)
            .unwrap();
    referee_engine::g1841::market::set_cell(&mut state, "CTLP", row, col);
    set_holders(&mut state, "CTLP", &[p(P2), ShareOwner::Pool, p(P1)]);
    state.bank_cash -= 300;
    let c = state
        .corporations
        .iter_mut()
        .find(|c| c.sym == "CTLP")
        .unwrap();
    c.cash = 300;
    c.par_price = 100;
    c.tokens = vec![referee_engine::g1841::MapToken {
        hex: "L12".into(),
        city: 0,
    }];
    c.tokens_total = 1;
    if let Round::OperatingRound(r) = &mut state.round {
        r.current = Some("CTLP".into());
        r.step = OperatingStep::Transform;
    }
    assert_eq!(validate(&state), Ok(()));
    let events = act(
        &mut state,
        P2,
        Action::Transform {
            corporation: "ATFA".into(),
        },
    );
    let exchanged: Vec<(ShareOwner, u32, bool)> = events
        .iter()
        .filter_map(|e| match e {
            Event::SharesExchanged {
                holder,
                percent,
                president,
                ..
            } => Some((holder.clone(), *percent, *president)),
            _ => None,
        })
        .collect();
    assert_eq!(
        exchanged,
        [
            (p(P2), 20, true),
            (p(P1), 10, false),
            (ShareOwner::Pool, 10, false)
        ]
    );
    let owners: Vec<ShareOwner> = state.corporation("ATFA").unwrap().certificates[..3]
        .iter()
        .map(|c| c.owner.clone())
        .collect();
    assert_eq!(owners, [p(P2), p(P1), ShareOwner::Pool]);
}

/// Random play through the corporate events keeps the contract (design: legal ⇔ accepted,
/// rejections leave the state unchanged, money conserved, every corporation 100%, `validate`
/// passes): from just before the first 4-train of both recorded games, before the merger of
/// 132002 (action 529) and with a hand-made minor in its transform step, each seat choosing
/// among its listed actions at random for up to 100 actions (6 games from each).
#[test]
fn s12_random_decisions_through_the_events_keep_the_contract() {
    let starts = [
        before_in("132002", 326),
        before_in("1841_game_end_bank", 187),
        before_in("132002", 529),
        before_in("132002", 649),
    ];
    for (k, start) in starts.iter().enumerate() {
        let total = start.total_money();
        for seed in 0..6u64 {
            let mut state = start.clone();
            let mut rng = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(k as u64 + 1);
            let mut next = || {
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                rng
            };
            for _ in 0..100 {
                let to_act = G1841::to_act(&state);
                if to_act.is_empty() || state.game_end.ended {
                    break;
                }
                for seat in 0..state.players.len() as Seat {
                    let reps = G1841::legal_actions(&state, seat);
                    assert_eq!(!reps.is_empty(), to_act.contains(&seat));
                    // A few listed actions are accepted (a sample: listing every tile lay
                    // and applying each is quadratic).
                    for _ in 0..reps.len().min(3) {
                        let a = &reps[(next() % reps.len() as u64) as usize];
                        let mut probe = state.clone();
                        assert!(
                            G1841::apply(&mut probe, seat, a).is_ok(),
                            "start {k} seed {seed}: listed {a:?} rejected"
                        );
                    }
                    // A decision of another kind or by another seat is refused, state unchanged.
                    for wrong in [
                        Action::ClaimPresidency { claim: true },
                        Action::RemoveToken {
                            hex: "F8".into(),
                            city: 0,
                        },
                        Action::ExchangeSplitShare {
                            corporation: "SFL".into(),
                        },
                    ] {
                        if reps.contains(&wrong) {
                            continue;
                        }
                        let mut probe = state.clone();
                        assert!(G1841::apply(&mut probe, seat, &wrong).is_err());
                        assert_eq!(probe, state);
                    }
                }
                let seat = to_act[(next() % to_act.len() as u64) as usize];
                let reps = G1841::legal_actions(&state, seat);
                // Prefer decisions over passes now and then, to go deep into the events.
                let a = reps[(next() % reps.len() as u64) as usize].clone();
                G1841::apply(&mut state, seat, &a).unwrap();
                assert_eq!(state.total_money(), total, "money");
                assert_eq!(
                    validate(&state),
                    Ok(()),
                    "start {k} seed {seed} after {a:?}"
                );
                for c in &state.corporations {
                    let sum: u32 = c.certificates.iter().map(|x| x.percent).sum();
                    assert_eq!(sum, 100, "{}", c.sym);
                    if c.started() && event(&state).is_none() {
                        assert!(
                            !matches!(c.president(), Some(ShareOwner::Ipo) | None),
                            "{} has a president",
                            c.sym
                        );
                    }
                }
            }
        }
    }
}

/// 1841 §9.6, §10: the buyer of the first train of a phase counts its new train against the
/// phase's lower limit. 132002 before action 578 (phase 5, limit 3): CTDA holds 4-0 and SB's
/// 5-1 and buys the first 6-train (L.800) → phase 6, limit 2, CTDA holds 3 trains and must
/// discard before its turn goes on. Before the fix the limits were checked before the new
/// train was added, and CTDA kept 3 trains.
#[test]
fn s9_6_first_train_of_a_phase_counts_against_the_new_limit() {
    let mut state = before_in("132002", 578);
    let t = &mut state.operations.trains;
    t.get_mut("SB").unwrap().retain(|x| x != "5-1");
    t.get_mut("CTDA").unwrap().push("5-1".into());
    assert_eq!(validate(&state), Ok(()));
    let seat = G1841::to_act(&state)[0];
    let events = act(
        &mut state,
        seat,
        Action::BuyTrain {
            train: "6-0".into(),
            from: "depot".into(),
            price: 800,
        },
    );
    assert!(events.contains(&Event::PhaseChanged { phase: "6".into() }));
    assert_eq!(state.phase, "6");
    assert_eq!(trains(&state, "CTDA"), ["4-0", "5-1", "6-0"]);
    let Round::OperatingRound(r) = &state.round else {
        unreachable!()
    };
    assert_eq!(r.crowded, ["CTDA"]);
    assert_eq!(r.current.as_deref(), Some("CTDA"));
    assert_eq!(G1841::to_act(&state), [seat]);
    let discard = |train: &str| Action::DiscardTrain {
        corporation: "CTDA".into(),
        train: train.into(),
    };
    assert_eq!(
        G1841::legal_actions(&state, seat),
        [discard("4-0"), discard("5-1"), discard("6-0")]
    );
    act(&mut state, seat, discard("4-0"));
    assert_eq!(trains(&state, "CTDA"), ["5-1", "6-0"]);
    assert_eq!(state.operations.pool_trains, ["4-0"]);
    let Round::OperatingRound(r) = &state.round else {
        unreachable!()
    };
    assert!(r.crowded.is_empty());
    assert_eq!(r.current.as_deref(), Some("CTDA"));
}

// ----- 1841 §3.2: a bank concession whose president's certificate lies in the pool --------

/// 1841 §3.2 (interpretation I15; 18xx.games `process_buy_company`): after a bankruptcy before
/// phase 4 the concession is back in the bank and the president's certificate in the pool
/// (§14); the buyer of the concession pays its L.50 and 2 × the market price for that
/// certificate, takes it and becomes president (the corporation is no longer frozen). One
/// who cannot pay both is not offered the concession.
///
/// 132002 before action 288 (Stock Round 3): SFTG's president's certificate moved from P2 to
/// the pool, SFTG's concession from P2 to the bank.
#[test]
fn s3_2_bank_concession_brings_the_pool_presidency() {
    let mut state = before_in("132002", 288);
    let sftg = state.corporation_mut("SFTG").unwrap();
    for c in sftg.certificates.iter_mut().filter(|c| c.president) {
        assert_eq!(c.owner, p(P2));
        c.owner = ShareOwner::Pool;
    }
    let price = sftg.price().unwrap();
    state.players[P2 as usize]
        .concessions
        .retain(|c| *c != Concession::Sftg);
    state.bank_concessions.push(Concession::Sftg);
    state.bank_concessions.sort();
    assert_eq!(validate(&state), Ok(()));
    assert!(frozen(&state, "SFTG"));
    // P3 (L.235) is on turn in Stock Round 3; SFTG is at L.105, so the concession costs
    // L.50 + L.210. The bank lends him L.100 for the test.
    let seat = G1841::to_act(&state)[0];
    assert_eq!(
        (seat, state.players[P3 as usize].cash, price),
        (P3, 235, 105)
    );
    state.players[P3 as usize].cash += 100;
    state.bank_cash -= 100;
    let buy = Action::BuyConcession {
        concession: "SFTG".into(),
    };
    assert!(G1841::legal_actions(&state, seat).contains(&buy));
    // Short of the certificate's price: not offered, refused with the amounts.
    let mut poor = state.clone();
    poor.players[seat as usize].cash = 50 + 2 * price - 1;
    assert!(!G1841::legal_actions(&poor, seat).contains(&buy));
    let r = G1841::apply(&mut poor.clone(), seat, &buy).unwrap_err();
    assert_eq!(
        (r.code, r.rule.as_str()),
        (RejectionCode::InsufficientFunds, "1841 §3.2")
    );
    let (cash, bank) = (state.players[seat as usize].cash, state.bank_cash);
    let events = act(&mut state, seat, buy);
    assert_eq!((cash, state.players[seat as usize].cash), (335, 75));
    assert_eq!(state.bank_cash, bank + 260);
    assert!(
        state.players[seat as usize]
            .concessions
            .contains(&Concession::Sftg)
    );
    assert_eq!(
        state.corporation("SFTG").unwrap().president(),
        Some(&p(seat))
    );
    assert!(!frozen(&state, "SFTG"));
    assert_eq!(controller(&state, "SFTG"), Some(seat));
    assert!(events.iter().any(|e| matches!(
        e,
        Event::PresidentChanged { corporation, seat: s } if corporation == "SFTG" && *s == seat
    )));
}

/// 1841 §12.4 ("each odd share → SB or SFL, holder's choice"), §7.2 (a corporation acts
/// through the player at the end of its chain of control): a corporation holding an odd
/// IRSFF share at the split is asked through its controller, as 18xx.games asks
/// `entity.player` (`secession_next_exchange`). Oracle-played game v2-6p-s202 before id 431:
/// ILTF's 4-train split IRSFF; SFMA, SFLP and SFTN hold an odd share each.
#[test]
fn s12_4_a_corporations_odd_split_share_is_its_controllers_choice() {
    let mut state = replay(
        &fixture("oracle-played/v2-6p-s202-to443.json"),
        &ReplaySettings {
            stop_at_action_id: Some(430),
            ..ReplaySettings::default()
        },
    )
    .state
    .unwrap();
    let holder = |state: &State| match event(state) {
        Some(CorporateEvent::Split(s)) if s.stage == SplitStage::SingleShares => {
            s.holders.get(s.next as usize).cloned()
        }
        _ => None,
    };
    assert_eq!(holder(&state), Some(ShareOwner::Corporation("SFMA".into())));
    let seat = controller(&state, "SFMA").unwrap();
    assert_eq!(G1841::to_act(&state), [seat]);
    let exchange = |s: &str| Action::ExchangeSplitShare {
        corporation: s.into(),
    };
    assert_eq!(
        G1841::legal(&state, seat).actions,
        [exchange("SB"), exchange("SFL")]
    );
    let other = (seat + 1) % state.players.len() as Seat;
    assert!(G1841::legal(&state, other).actions.is_empty());
    let before = state.clone();
    let r = G1841::apply(&mut state, other, &exchange("SFL")).unwrap_err();
    assert_eq!(r.code, RejectionCode::NotYourTurn);
    assert_eq!(r.rule, "1841 §12.4");
    assert_eq!(
        r.message,
        format!("Seat {seat} decides now in the corporate event, not seat {other}.")
    );
    let r = G1841::apply(&mut state, seat, &Action::Pass).unwrap_err();
    assert_eq!(r.code, RejectionCode::WrongStep);
    assert_eq!(
        r.message,
        "`pass` is not a legal choice now; the event waits for: exchange a split share."
    );
    assert_eq!(state, before);
    let (line, ok) = referee_engine::g1841::assist::describe(&state, seat, &exchange("SFL"));
    assert_eq!(
        line,
        format!("Seat {seat} exchanges SFMA's odd IRSFF share for a share of SFL")
    );
    assert_eq!(ok, Ok(()));
    // SFMA's controller takes SFL (18xx recorded "a"; either is legal); SFLP is next.
    let sfl = percent(&state, "SFL", ShareOwner::Corporation("SFMA".into()));
    act(&mut state, seat, exchange("SFL"));
    assert_eq!(
        percent(&state, "SFL", ShareOwner::Corporation("SFMA".into())),
        sfl + 10
    );
    assert_eq!(
        percent(&state, "SB", ShareOwner::Corporation("SFMA".into())),
        0
    );
    assert_eq!(holder(&state), Some(ShareOwner::Corporation("SFLP".into())));
    assert_eq!(G1841::to_act(&state), [controller(&state, "SFLP").unwrap()]);
}

/// 1841 §12.4, §17 item 9: with IRSFF's president's certificate in the pool, both successor
/// presidencies go to the pool, and 18xx.games orders the exchanges and asks the pool's odd
/// share of `@secession_decider`, the controller of the corporation whose train purchase
/// caused the split (`old.player || current_entity.player`). 132002 before action 326 with
/// IRSFF held: pool the president's certificate and 50%, P1, P2 and P3 10% each (nobody can
/// take the presidency); CTDA (P4) buys the first 4-train. The odd shares are asked round the
/// table from P4 — P1, P2 and P3 in that order — and then the pool's, of P4.
#[test]
fn s12_4_with_irsffs_president_in_the_pool_the_buyers_controller_decides_for_the_pool() {
    let mut state = before_in("132002", 326);
    set_holders(
        &mut state,
        "IRSFF",
        &[
            ShareOwner::Pool,
            p(P1),
            p(P2),
            p(P3),
            ShareOwner::Pool,
            ShareOwner::Pool,
            ShareOwner::Pool,
            ShareOwner::Pool,
            ShareOwner::Pool,
        ],
    );
    assert_eq!(controller(&state, "CTDA"), Some(P4));
    act(&mut state, P4, buy_4_train());
    assert_eq!(
        state.corporation("SB").unwrap().president(),
        Some(&ShareOwner::Pool)
    );
    let mut asked = Vec::new();
    while let Some(CorporateEvent::Split(s)) = event(&state) {
        if s.stage != SplitStage::SingleShares {
            break;
        }
        let holder = s.holders[s.next as usize].clone();
        let seat = G1841::to_act(&state)[0];
        asked.push((holder, seat));
        act(
            &mut state,
            seat,
            Action::ExchangeSplitShare {
                corporation: "SFL".into(),
            },
        );
    }
    let players: Vec<Seat> = referee_engine::g1841::corporation::players_from(&state, P4)
        .into_iter()
        .filter(|s| [P1, P2, P3].contains(s))
        .collect();
    let mut expected: Vec<(ShareOwner, Seat)> = players.iter().map(|s| (p(*s), *s)).collect();
    expected.push((ShareOwner::Pool, P4));
    assert_eq!(asked, expected);
    // The pool: the successors' presidents' certificates (20% each), one share of each from
    // its two pairs and SFL's from its odd share.
    assert_eq!(percent(&state, "SFL", ShareOwner::Pool), 50);
    assert_eq!(percent(&state, "SB", ShareOwner::Pool), 40);
}

/// 1841 §12.4 (rounds of purchases: "each shareholder ..., from the president"): a successor
/// without a president (its certificate in the pool) starts its round from the split's
/// decider, here the controller of the 4-train's buyer (IRSFF's president's certificate in
/// the pool), as 18xx.games does (`secession_offer`: `corp.player || @secession_decider`);
/// the rulebook names no other start. v2 4 players random seed 4013, id 628: Referee started
/// from the first player. On 132002 before action 327 as above, the single shares exchanged
/// for SB: SB's first round starts with the first SB holder from P4 (CTDA's controller).
#[test]
fn s12_4_a_presidentless_successors_purchases_start_from_the_decider() {
    let mut state = before_in("132002", 326);
    set_holders(
        &mut state,
        "IRSFF",
        &[
            ShareOwner::Pool,
            p(P1),
            p(P2),
            p(P3),
            ShareOwner::Pool,
            ShareOwner::Pool,
            ShareOwner::Pool,
            ShareOwner::Pool,
            ShareOwner::Pool,
        ],
    );
    // Player order P2, P4, P1, P3: the first player (P2) is not the first holder from the
    // decider P4 (P1).
    state.player_order = vec![P2, P4, P1, P3];
    // Cash enough for the players to buy (each L.500 more, from the bank).
    for pl in &mut state.players {
        pl.cash += 500;
        state.bank_cash -= 500;
    }
    act(&mut state, P4, buy_4_train());
    while let Some(CorporateEvent::Split(s)) = event(&state) {
        if s.stage != SplitStage::SingleShares {
            break;
        }
        let seat = G1841::to_act(&state)[0];
        act(
            &mut state,
            seat,
            Action::ExchangeSplitShare {
                corporation: "SB".into(),
            },
        );
    }
    let Some(CorporateEvent::Split(s)) = event(&state) else {
        panic!("no split event: {:?}", event(&state));
    };
    assert_eq!(s.corporation, "SB");
    assert_eq!(
        state.corporation("SB").unwrap().president(),
        Some(&ShareOwner::Pool)
    );
    let buyers: Vec<Seat> = referee_engine::g1841::corporation::players_from(&state, P4)
        .into_iter()
        .filter(|&x| percent(&state, "SB", p(x)) > 0)
        .collect();
    assert_eq!(buyers, [P1, P3, P2]);
    assert_eq!(G1841::to_act(&state), vec![P1]);
}

/// 1841 §12.1 (minor merger: each 40% certificate → the new president's certificate, the
/// first in order, or two shares; each 20% share → one share) with §7.5 (a holder with
/// strictly more takes the presidency over): on 132002 before action 327 the Tuscan merge's
/// first step merges SFLP and SFMA into AFI, the holding, in order from P1 (SFLP's president,
/// the leader). P1 (SFLP's 40%) takes AFI's president's certificate; P2 (SFMA's 40% and a
/// 20% share) receives three shares, 30% against 20%, and becomes AFI's president, as in
/// 18xx.games (`merger_minor_exchange`, `allow_president_change: true`; v2 7 players random
/// seed 7013, id 734: "Player 4 becomes the president of CGTF", so CGTF's CTLP is his when
/// the holding merges into SFLi). Before 2026-12-06 P1 stayed president with 20%.
#[test]
fn s12_1_minor_merger_a_larger_holder_takes_the_new_presidency() {
    let mut state = before_in("132002", 327);
    set_holders(&mut state, "SFLP", &[p(P1)]);
    set_holders(&mut state, "SFMA", &[p(P2), p(P2)]);
    assert_eq!(validate(&state), Ok(()));
    let events = act(&mut state, P3, Action::BuyTokens { count: 3 });
    // AFI's exchange, in order, then the change (AFI itself merges into SFLi at once).
    let afi: Vec<&Event> = events
        .iter()
        .filter(|e| {
            matches!(e, Event::SharesExchanged { corporation, .. }
                | Event::PresidentChanged { corporation, .. } if corporation == "AFI")
        })
        .collect();
    assert_eq!(
        afi,
        [
            &Event::SharesExchanged {
                holder: p(P1),
                corporation: "AFI".into(),
                percent: 20,
                president: true,
            },
            &Event::SharesExchanged {
                holder: p(P2),
                corporation: "AFI".into(),
                percent: 30,
                president: false,
            },
            &Event::PresidentChanged {
                corporation: "AFI".into(),
                seat: P2,
            },
        ]
    );
}

/// 1841 §12.2: the major starts on the minor's cell; the rules do not say where in its stack,
/// and 18xx.games (`transform_start`: `set_par` appends) puts it at the back, behind the
/// markers already there. Hand-made as above: CTLP on L.100 (SFTC's cell), then SFTG moved
/// to the same cell; after CTLP transforms into ATFA the stack reads SFTC, SFTG, ATFA (before
/// 2026-12-06: SFTC, ATFA, SFTG, the minor's place; lite heuristic 4 players seed 4015, 18xx id
/// 867, stopped on it).
#[test]
fn s12_2_transformed_major_goes_to_the_back_of_its_stack() {
    use referee_engine::g1841::market;
    let mut state = before_in("132002", 386);
    let (row, col) = market::par_cell(100, referee_engine::g1841::CorporationKind::Minor).unwrap();
    market::set_cell(&mut state, "CTLP", row, col);
    market::set_cell(&mut state, "SFTG", row, col);
    set_holders(&mut state, "CTLP", &[p(P1), p(P2)]);
    let c = state.corporation_mut("CTLP").unwrap();
    c.par_price = 100;
    c.tokens = vec![referee_engine::g1841::MapToken {
        hex: "L12".into(),
        city: 0,
    }];
    c.tokens_total = 1;
    state.bank_cash -= 300;
    state.corporation_mut("CTLP").unwrap().cash = 300;
    if let Round::OperatingRound(r) = &mut state.round {
        r.current = Some("CTLP".into());
        r.step = OperatingStep::Transform;
    }
    assert_eq!(validate(&state), Ok(()));
    let in_cell = |state: &State| -> Vec<String> {
        market::operating_order(state)
            .into_iter()
            .filter(|s| {
                let sp = state.corporation(s).unwrap().share_price.unwrap();
                (sp.row, sp.col) == (row, col)
            })
            .collect()
    };
    assert_eq!(in_cell(&state), ["SFTC", "CTLP", "SFTG"]);
    act(
        &mut state,
        P1,
        Action::Transform {
            corporation: "ATFA".into(),
        },
    );
    assert_eq!(in_cell(&state), ["SFTC", "SFTG", "ATFA"]);
    assert_eq!(state.corporation("ATFA").unwrap().price(), Some(100));
}

/// A state is checked before it is trusted (`validate`): the odd-share answers a merger keeps
/// from its sweep over odd shares until the odd shares are exchanged (1841 §12.1 pass 2, R4;
/// `Merger::pass2`, filled when a holder of three old units answers while others are still
/// to be asked) are each a listed holder's, once. The Tuscan merge of
/// `v2-3p-heuristic-s3012-to357` (above) before id 349, in the presidency stage: an answer of
/// player 3 (seat 2, 30% of the old shares) is accepted; an answer of a player or
/// corporation without old shares, a second answer of his, or more answers than holders is
/// refused, naming the field.
#[test]
fn validate_checks_the_merger_odd_share_answers() {
    let s = data_at("v2-3p-heuristic-s3012-to357", 348);
    let Some(CorporateEvent::Merger(m)) = event(&s) else {
        panic!("the Tuscan merge is under way")
    };
    assert_eq!(m.stage, MergerStage::Presidency);
    assert!(m.pass2.is_empty());
    let holders = m.holders.clone();
    assert!(holders.contains(&p(2)));
    let with = |answers: Vec<(ShareOwner, OddShareChoice)>| {
        let mut t = s.clone();
        if let Round::OperatingRound(r) = &mut t.round
            && let Some(CorporateEvent::Merger(m)) = r.event.as_deref_mut()
        {
            m.pass2 = answers;
        }
        validate(&t).map_err(|e| e.path)
    };
    let (cash, full) = (OddShareChoice::Cash, OddShareChoice::FullShare);
    assert_eq!(with(vec![(p(2), cash)]), Ok(()));
    let outsider = (0..3)
        .map(p)
        .chain(s.corporations.iter().map(|c| corp(&c.sym)))
        .find(|h| !holders.contains(h))
        .expect("a player or corporation without old shares");
    assert_eq!(
        with(vec![(outsider, cash)]),
        Err("operating_round.event.merger.pass2[0]".to_string())
    );
    assert_eq!(
        with(vec![(p(2), cash), (p(2), full)]),
        Err("operating_round.event.merger.pass2[1]".to_string())
    );
    assert_eq!(
        with(vec![(p(2), cash); holders.len() + 1]),
        Err("operating_round.event.merger.pass2".to_string())
    );
}
