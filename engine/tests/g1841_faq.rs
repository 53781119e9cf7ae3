//! The FAQ rulings of 1841 (`1841-faq.md`): one test per FAQ option, built from the FAQ
//! entry's **Test** scenario with its exact values, asserting both settings (option off →
//! 18xx, option on → the FAQ's value), and tests for the rulings this engine already follows
//! (`1841-faq.md` §7 items 8 and 15–20). States are taken from the recorded games (replayed
//! with the importer up to just before an action) and edited where the FAQ needs another
//! situation; money always moves to or from the bank, so it stays conserved.
//!
//! Seats of both recorded games: P1 = 0, P2 = 1, P3 = 2, P4 = 3.

use referee_engine::g1841::corporation::{certificate_count, certificate_limit, holder_order};
use referee_engine::g1841::market::{self, price_at, set_cell};
use referee_engine::g1841::operating_round::{self, best_routes, check_routes, in_emergency};
use referee_engine::g1841::validate::validate;
use referee_engine::g1841::{
    Action, CorporateEvent, Event, G1841, MapToken, MergerStage, OddShareChoice, OperatingStep,
    Options, Round, ShareOwner, State,
};
use referee_engine::{Game, RejectionCode, Seat};

mod common;
use common::edit::{
    act, cell, corp, or_mut, p, set_corp_cash, set_holders, set_player_cash, share_step_of, start,
    with_option as with,
};
use common::{Rng, before_in};

const P1: Seat = 0;
const P2: Seat = 1;
const P3: Seat = 2;
const P4: Seat = 3;

fn position(order: &[String], sym: &str) -> usize {
    order.iter().position(|s| s == sym).unwrap()
}

fn event(state: &State) -> Option<&CorporateEvent> {
    match &state.round {
        Round::OperatingRound(r) => r.event.as_deref(),
        _ => None,
    }
}

/// The lite game before action 175: IFAI (trainless, with a route) in its train step, the
/// L.200 3-train next in the depot; IFAI's president is SFTG, whose president is Player 3
/// (seat 2). Treasuries of IFAI and SFTG and seat 2's cash set as given.
fn ifai_short(ifai: i64, sftg: i64, player: i64) -> State {
    let mut s = before_in("1841_game_end_bank", 175);
    set_corp_cash(&mut s, "IFAI", ifai);
    set_corp_cash(&mut s, "SFTG", sftg);
    set_player_cash(&mut s, P3, player);
    s
}

fn emergency_sell(seller: Option<&str>, corporation: &str, percent: u32) -> Action {
    Action::EmergencySell {
        seller: seller.map(str::to_string),
        corporation: corporation.into(),
        percent,
    }
}

// ----- FAQ-Q21: half_price_round_down ---------------------------------------------------------

/// FAQ-Q21: "In emergency money raising, a company at L.75 sells 3 IPO shares at half price:
/// 3 × 37.5 = 112.5, and the company receives L.112. Not L.113 (18xx), not L.111 or L.114
/// (per-share rounding)." IFAI at L.75 (row 6, col 5) with L.100 must buy the L.200 3-train:
/// its bundles of 10–30% are offered (20% pays only L.75 of the L.100 short); the 30% sale
/// pays L.113 without the option, L.112 with it, and the price drops three rows to L.39.
#[test]
fn faq_q21_half_price_total_rounded_down() {
    let mut base = ifai_short(100, 0, 0);
    set_cell(&mut base, "IFAI", 6, 5);
    assert_eq!(base.corporation("IFAI").unwrap().price(), Some(75));
    for (on, proceeds) in [(false, 113), (true, 112)] {
        let mut s = with(&base, "half_price_round_down", on);
        assert!(in_emergency(&s));
        let seat = G1841::to_act(&s)[0];
        let legal = G1841::legal(&s, seat).actions;
        assert!(legal.contains(&emergency_sell(Some("IFAI"), "IFAI", 30)));
        assert!(!legal.contains(&emergency_sell(Some("IFAI"), "IFAI", 40)));
        let bank = s.bank_cash;
        let events = act(&mut s, seat, emergency_sell(Some("IFAI"), "IFAI", 30));
        assert!(events.contains(&Event::EmergencySold {
            seller: Some("IFAI".into()),
            seat,
            corporation: "IFAI".into(),
            percent: 30,
            proceeds,
        }));
        assert_eq!(s.corporation("IFAI").unwrap().cash, 100 + proceeds);
        assert_eq!(s.bank_cash, bank - proceeds);
        assert_eq!(cell(&s, "IFAI"), (9, 5));
        assert_eq!(s.corporation("IFAI").unwrap().price(), Some(39));
    }
}

// ----- FAQ-C13 / FAQ-M6: emergency_sales_unrestricted -------------------------------------

/// The FAQ-C13 test situation on 132002 before action 420 (phase 4, SFTC operating): SFTC
/// (president P2) is trainless with a route, has L.0 and nothing to sell and must buy the
/// L.350 4-train; P2 has L.100 and holds 30% of AFI (started this stock round, not operated,
/// L.100), ICSF's president's certificate (L.80, nobody else holds 20%) and 20% of IFAI (not
/// the president; 40% of IFAI already in the pool).
fn faq_c13_situation() -> State {
    let mut s = before_in("132002", 420);
    {
        let r = or_mut(&mut s);
        assert_eq!(r.current.as_deref(), Some("SFTC"));
        r.step = OperatingStep::Trains;
    }
    // SFTC's 3-train goes to CTDA (3 trains, its phase-4 limit); nothing left to sell: its
    // IPO shares and its SFTG share go to Player 4.
    let train = s.operations.trains.remove("SFTC").unwrap();
    s.operations.trains.get_mut("CTDA").unwrap().extend(train);
    set_holders(
        &mut s,
        "SFTC",
        &[
            p(P2),
            p(P2),
            corp("SFTG"),
            p(P3),
            corp("SFTG"),
            corp("SFLi"),
            p(P2),
            p(P4),
            p(P4),
        ],
    );
    let sftg = s.corporations.iter_mut().find(|c| c.sym == "SFTG").unwrap();
    for c in sftg.certificates.iter_mut() {
        if c.owner == corp("SFTC") {
            c.owner = p(P4);
        }
    }
    set_corp_cash(&mut s, "SFTC", 0);
    set_player_cash(&mut s, P2, 100);
    start(&mut s, "AFI", 3, 5, &[p(P1), p(P2), p(P2), p(P2)], false);
    start(&mut s, "ICSF", 3, 3, &[p(P2), p(P1)], true);
    start(
        &mut s,
        "IFAI",
        3,
        6,
        &[
            p(P3),
            p(P2),
            p(P2),
            ShareOwner::Pool,
            ShareOwner::Pool,
            ShareOwner::Pool,
            ShareOwner::Pool,
        ],
        true,
    );
    assert_eq!(validate(&s), Ok(()));
    s
}

/// FAQ-C13 (and FAQ-M6), the FAQ's test: every one of P2's sales is allowed at half price —
/// AFI (not operated) at L.50 a share, IFAI although the pool passes 50%, ICSF's president's
/// certificate into the pool (ICSF becomes frozen) — in any order. This part the engine
/// already follows (18xx too) under both settings of `emergency_sales_unrestricted`.
#[test]
fn faq_c13_emergency_sales_ignore_operated_pool_limit_and_presidency() {
    for on in [false, true] {
        let s = with(&faq_c13_situation(), "emergency_sales_unrestricted", on);
        assert!(in_emergency(&s));
        assert_eq!(G1841::to_act(&s), [P2]);
        let legal = G1841::legal(&s, P2).actions;
        for sale in [
            emergency_sell(None, "AFI", 10),
            emergency_sell(None, "AFI", 20),
            emergency_sell(None, "AFI", 30),
            emergency_sell(None, "IFAI", 10),
            emergency_sell(None, "IFAI", 20),
            emergency_sell(None, "ICSF", 20),
        ] {
            assert!(legal.contains(&sale), "{on}: {sale:?} in {legal:?}");
        }
        // The president's certificate is 20%: no half of it into the pool.
        assert!(!legal.contains(&emergency_sell(None, "ICSF", 10)));
        // Any order: ICSF first, then AFI, then IFAI past 50% in the pool.
        let mut t = s.clone();
        let ev = act(&mut t, P2, emergency_sell(None, "ICSF", 20));
        assert!(ev.contains(&Event::EmergencySold {
            seller: None,
            seat: P2,
            corporation: "ICSF".into(),
            percent: 20,
            proceeds: 80,
        }));
        assert_eq!(
            t.corporation("ICSF").unwrap().president(),
            Some(&ShareOwner::Pool)
        );
        assert!(ev.contains(&Event::FrozenChanged {
            corporation: "ICSF".into(),
            frozen: true
        }));
        let ev = act(&mut t, P2, emergency_sell(None, "AFI", 10));
        assert!(ev.iter().any(|e| matches!(
            e,
            Event::EmergencySold { corporation, proceeds: 50, .. } if corporation == "AFI"
        )));
        act(&mut t, P2, emergency_sell(None, "IFAI", 20));
        assert_eq!(t.corporation("IFAI").unwrap().pool_percent(), 60);
    }
}

/// FAQ-C13 ("they may choose to sell shares that normally could not be sold, even while
/// they still hold shares that could be sold normally"): 18xx makes a corporation sell the
/// other corporations' certificates it holds before its own IPO shares; with
/// `emergency_sales_unrestricted` it chooses. IFAI (lite game, L.10 of the L.200 3-train)
/// holds 10% of SFTN: without the option only the SFTN share is offered, with it the SFTN
/// share and IFAI's own IPO shares.
#[test]
fn faq_c13_corporation_chooses_between_others_shares_and_its_ipo() {
    let mut base = ifai_short(10, 0, 0);
    pool_share_to(&mut base, "SFTN", "IFAI");
    assert_eq!(validate(&base), Ok(()));
    for on in [false, true] {
        let s = with(&base, "emergency_sales_unrestricted", on);
        let legal = G1841::legal(&s, P3).actions;
        assert!(legal.contains(&emergency_sell(Some("IFAI"), "SFTN", 10)));
        assert_eq!(
            legal.contains(&emergency_sell(Some("IFAI"), "IFAI", 10)),
            on,
            "own IPO shares while holding SFTN: {legal:?}"
        );
    }
}

/// Moves one pool certificate of `corporation` to corporation `holder` (a test set-up).
fn pool_share_to(state: &mut State, corporation: &str, holder: &str) {
    let certificate = state
        .corporations
        .iter_mut()
        .find(|c| c.sym == corporation)
        .unwrap()
        .certificates
        .iter_mut()
        .find(|c| c.owner == ShareOwner::Pool)
        .unwrap();
    certificate.owner = corp(holder);
}

// ----- FAQ-R5: no_corporate_rebuy_after_sale ------------------------------------------------

/// FAQ-R5: "CTS must buy a train, and in emergency money raising sells its 10% of CFCC. In its
/// share step the same turn, CTS tries to buy a CFCC share (IPO or pool): refused. 18xx
/// currently accepts." IFAI (lite game, L.190 of the L.200 3-train) holds 10% of SFTN and
/// sells it (half of L.48 = L.24), buys the train and, with L.100 more in its treasury, comes
/// to its share step: a SFTN share from the pool or the IPO is offered without the option,
/// refused with it (and the refusal names the rule).
#[test]
fn faq_r5_no_buy_back_after_an_emergency_sale_in_the_same_turn() {
    let mut base = ifai_short(190, 0, 0);
    pool_share_to(&mut base, "SFTN", "IFAI");
    for on in [false, true] {
        let mut s = with(&base, "no_corporate_rebuy_after_sale", on);
        let seat = G1841::to_act(&s)[0];
        act(&mut s, seat, emergency_sell(Some("IFAI"), "SFTN", 10));
        assert_eq!(s.corporation("IFAI").unwrap().cash, 214);
        act(
            &mut s,
            seat,
            Action::BuyTrain {
                train: "3-4".into(),
                from: "depot".into(),
                price: 200,
            },
        );
        set_corp_cash(&mut s, "IFAI", 114);
        // Nothing more in the train step: on to the share step.
        if or_mut(&mut s).step == OperatingStep::Trains {
            act(&mut s, seat, Action::Pass);
        }
        assert_eq!(or_mut(&mut s).step, OperatingStep::Shares);
        let legal = G1841::legal(&s, seat).actions;
        let buy = |from_pool| Action::BuyShares {
            corporation: "SFTN".into(),
            from_pool,
            percent: 10,
        };
        assert_eq!(legal.contains(&buy(true)), !on, "{on}: pool");
        assert_eq!(legal.contains(&buy(false)), !on, "{on}: IPO");
        if on {
            let err = G1841::apply(&mut s.clone(), seat, &buy(true)).unwrap_err();
            assert_eq!(err.code, RejectionCode::IllegalMove);
        }
    }
}

/// FAQ-R5 ("in the current OR"): a corporation selling in another corporation's emergency (as
/// a raiser up the chain of control) may not buy those shares back later in the same
/// operating round. SFTG (IFAI's president, L.0) sells its 10% of SFTN in IFAI's emergency;
/// in SFTG's own share step of the round (reached by hand, L.100 in its treasury) the SFTN
/// share is offered without the option and not with it.
#[test]
fn faq_r5_no_buy_back_later_in_the_operating_round() {
    let mut base = ifai_short(0, 0, 300);
    // IFAI has nothing to sell (its IPO shares are with Player 1 and Player 2); SFTG holds 10%
    // of SFTN.
    set_holders(
        &mut base,
        "IFAI",
        &[
            corp("SFTG"),
            p(P1),
            p(P1),
            p(P1),
            p(P1),
            p(P2),
            p(P2),
            p(P2),
            p(P2),
        ],
    );
    pool_share_to(&mut base, "SFTN", "SFTG");
    for on in [false, true] {
        let mut s = with(&base, "no_corporate_rebuy_after_sale", on);
        let seat = G1841::to_act(&s)[0];
        let legal = G1841::legal(&s, seat).actions;
        assert!(
            legal.contains(&emergency_sell(Some("SFTG"), "SFTN", 10)),
            "{legal:?}"
        );
        act(&mut s, seat, emergency_sell(Some("SFTG"), "SFTN", 10));
        // SFTG's own turn later in this round, at its share step.
        {
            let r = or_mut(&mut s);
            r.current = Some("SFTG".into());
            r.step = OperatingStep::Shares;
            r.done.push("IFAI".into());
            r.sold.clear();
            r.emergency = false;
        }
        set_corp_cash(&mut s, "SFTG", 100);
        assert_eq!(validate(&s), Ok(()));
        let legal = G1841::legal(&s, seat).actions;
        let buy = Action::BuyShares {
            corporation: "SFTN".into(),
            from_pool: true,
            percent: 10,
        };
        assert_eq!(legal.contains(&buy), !on, "{on}: {legal:?}");
    }
}

// ----- FAQ-Q2: price_drops_lowest_first ----------------------------------------------------

/// FAQ-Q2: "A and B share the L.100 cell (row 3, col 5), A operating first. One turn sells one
/// share of A and one of B. Expected: B drops to L.95 (row 4, col 5) first, then A. B now
/// operates before A. 18xx keeps A first if the player sells A first." 132002 before action
/// 800 (stock round 6, Player 1 to act): AFI (A) arrives on L.100 before CTDA (B); Player 1
/// sells 10% of AFI, then 10% of CTDA, then passes. Both sales pay L.100. Without the option
/// each drops at once (AFI first, so AFI still operates first); with it the drops come when
/// the selling ends, CTDA first, and CTDA operates first.
#[test]
fn faq_q2_price_drops_lowest_value_first() {
    let mut base = before_in("132002", 800);
    set_cell(&mut base, "AFI", 3, 5);
    set_cell(&mut base, "CTDA", 3, 5);
    let order = market::operating_order(&base);
    assert!(position(&order, "AFI") < position(&order, "CTDA"));
    for (on, ctda_first) in [(false, false), (true, true)] {
        let mut s = with(&base, "price_drops_lowest_first", on);
        assert_eq!(G1841::to_act(&s), [P1]);
        let cash = s.players[P1 as usize].cash;
        for sym in ["AFI", "CTDA"] {
            act(
                &mut s,
                P1,
                Action::SellShares {
                    corporation: sym.into(),
                    percent: 10,
                },
            );
        }
        assert_eq!(s.players[P1 as usize].cash, cash + 200, "both at L.100");
        if on {
            // The drops wait for the end of the selling.
            assert_eq!(cell(&s, "AFI"), (3, 5));
        }
        act(&mut s, P1, Action::Pass);
        for sym in ["AFI", "CTDA"] {
            assert_eq!(cell(&s, sym), (4, 5), "{sym} at L.95");
        }
        let order = market::operating_order(&s);
        assert_eq!(
            position(&order, "CTDA") < position(&order, "AFI"),
            ctda_first,
            "{on}: {order:?}"
        );
    }
}

/// FAQ-Q2 with the option: a second sale of the same corporation in the turn is made at the
/// price before the turn's drops, and the drops add up (two rows for two shares).
#[test]
fn faq_q2_a_turns_sales_are_priced_before_its_drops() {
    let mut s = with(&before_in("132002", 800), "price_drops_lowest_first", true);
    set_cell(&mut s, "AFI", 3, 5);
    let cash = s.players[P1 as usize].cash;
    for _ in 0..2 {
        act(
            &mut s,
            P1,
            Action::SellShares {
                corporation: "AFI".into(),
                percent: 10,
            },
        );
    }
    assert_eq!(s.players[P1 as usize].cash, cash + 200);
    act(&mut s, P1, Action::Pass);
    assert_eq!(cell(&s, "AFI"), (5, 5));
    assert_eq!(s.corporation("AFI").unwrap().price(), Some(87));
}

/// FAQ-C13: a president's certificate that goes into the pool is sold whole (20% of a major),
/// and it is offered when the smaller sales fall short even if its half would have done: P2
/// only L.30 short (L.320), ICSF at L.80 → the 20% sale (L.80) is listed, 10% never.
#[test]
fn faq_c13_a_presidents_certificate_into_the_pool_is_sold_whole() {
    let mut s = faq_c13_situation();
    set_player_cash(&mut s, P2, 320);
    let legal = G1841::legal(&s, P2).actions;
    assert!(
        legal.contains(&emergency_sell(None, "ICSF", 20)),
        "{legal:?}"
    );
    assert!(!legal.contains(&emergency_sell(None, "ICSF", 10)));
    assert!(legal.contains(&emergency_sell(None, "AFI", 10)));
    assert!(
        !legal.contains(&emergency_sell(None, "AFI", 20)),
        "10% (L.50) already covers L.30"
    );
}

// ----- FAQ-R6: merger_presidency_for_companies ----------------------------------------------

/// 132002 before action 529 (phase 4, SFTC in its merge step, Player 2 its president), set up
/// for the FAQ-R6 example: SFTC (A) at L.90 (row 3, col 4) and SFTG (B) at L.59 (row 4, col
/// 1; the FAQ's L.60 is no market price — the sum L.149 gives the same L.141). SFTC: P2
/// president, CTDA 10%; SFTG: P4 president, CTDA 20%; CTDA (P4's) thus holds 30% of the two,
/// P2 and P4 20% each; every player and CTDA can pay a claim.
fn faq_r6_situation() -> State {
    let mut s = before_in("132002", 529);
    set_cell(&mut s, "SFTC", 3, 4);
    set_cell(&mut s, "SFTG", 4, 1);
    set_holders(
        &mut s,
        "SFTC",
        &[p(P2), corp("CTDA"), ShareOwner::Pool, ShareOwner::Pool],
    );
    set_holders(
        &mut s,
        "SFTG",
        &[p(P4), corp("CTDA"), corp("CTDA"), ShareOwner::Pool],
    );
    for seat in [P1, P2, P3, P4] {
        set_player_cash(&mut s, seat, 400);
    }
    assert!(s.corporation("CTDA").unwrap().cash >= 70);
    assert_eq!(validate(&s), Ok(()));
    s
}

/// FAQ-R6: "A (L.90) and B (L.60) merge; the sum of 150 gives a new price of L.141 (row 6,
/// col 11). P1, the proposer's president, holds 30% … He may pay L.70 (141 × 10/20 = 70.5,
/// rounded down) … A company holding 30% would, under the FAQ, also be offered the
/// certificate." The claims are asked pairs first in holder order (P2, P4, then P4's CTDA):
/// without the option only the players are asked; both declining, CTDA (30%) is asked in the
/// sweep over odd shares only whether it pays for a full share, which would give it 20% and
/// the presidency (1841 §12.1, R4; 18xx asks it `cash`/`full`), and declining too the merger
/// fails; with the option CTDA (decided by P4) is asked in the pairs' sweep, claims for L.70
/// from its treasury and becomes the new corporation's president.
#[test]
fn faq_r6_a_corporation_may_claim_the_merger_presidency() {
    for on in [false, true] {
        let mut s = with(&faq_r6_situation(), "merger_presidency_for_companies", on);
        act(
            &mut s,
            P2,
            Action::ProposeMerger {
                partner: "SFTG".into(),
            },
        );
        act(
            &mut s,
            P2,
            Action::FormCorporation {
                corporation: "AFI".into(),
            },
        );
        let Some(CorporateEvent::Merger(m)) = event(&s) else {
            panic!("merger expected")
        };
        let c = m.cell.unwrap();
        assert_eq!((price_at(c.row, c.col), c.row, c.col), (Some(141), 6, 11));
        assert_eq!(m.stage, MergerStage::Presidency);
        // P2 and P4 (20% each) decline.
        for seat in [P2, P4] {
            assert_eq!(G1841::to_act(&s), [seat]);
            act(&mut s, seat, Action::ClaimPresidency { claim: false });
        }
        if !on {
            assert_eq!(G1841::to_act(&s), [P4]);
            assert_eq!(
                G1841::legal_actions(&s, P4),
                [
                    Action::ClaimPresidency { claim: false },
                    Action::ExchangeOddShare {
                        choice: OddShareChoice::FullShare
                    }
                ]
            );
            act(&mut s, P4, Action::ClaimPresidency { claim: false });
            assert!(event(&s).is_none(), "nobody left to ask: the merger failed");
            assert!(!s.corporation("AFI").unwrap().started());
            continue;
        }
        // P4 decides for CTDA (30%): L.70.
        assert_eq!(G1841::to_act(&s), [P4]);
        let cash = s.corporation("CTDA").unwrap().cash;
        let events = act(&mut s, P4, Action::ClaimPresidency { claim: true });
        assert!(events.contains(&Event::ExchangePayment {
            holder: corp("CTDA"),
            corporation: "AFI".into(),
            amount: 70,
            to_corporation: true,
        }));
        assert_eq!(s.corporation("CTDA").unwrap().cash, cash - 70);
        assert_eq!(
            s.corporation("AFI").unwrap().president(),
            Some(&corp("CTDA"))
        );
    }
}

// ----- FAQ-T: merger_price_cap --------------------------------------------------------------

/// FAQ-T: "243 and more → 242": a merger of majors never gives more than L.242. 18xx keeps
/// the price of the one major above L.250, and lets the proposer's president choose when
/// both are. 132002 before action 529, SFTC proposing a merger with SFTG:
/// * SFTC L.284 (row 3, col 15) + SFTG L.100: without the option the new corporation starts
///   on SFTC's L.284, with it on L.242 (row 2, col 13);
/// * SFTC L.284 + SFTG L.256 (row 3, col 14): without the option P2 chooses between L.256
///   and L.284, with it the price is L.242 at once.
#[test]
fn faq_t_merger_price_of_majors_capped_at_242() {
    let base = before_in("132002", 529);
    for (b_cell, on, expected) in [
        ((3, 5), false, Some(284)),
        ((3, 5), true, Some(242)),
        ((3, 14), false, None),
        ((3, 14), true, Some(242)),
    ] {
        let mut s = with(&base, "merger_price_cap", on);
        set_cell(&mut s, "SFTC", 3, 15);
        set_cell(&mut s, "SFTG", b_cell.0, b_cell.1);
        act(
            &mut s,
            P2,
            Action::ProposeMerger {
                partner: "SFTG".into(),
            },
        );
        let Some(CorporateEvent::Merger(m)) = event(&s) else {
            panic!("merger expected")
        };
        match expected {
            Some(price) => {
                let c = m.cell.unwrap();
                assert_eq!(price_at(c.row, c.col), Some(price), "{b_cell:?} {on}");
                if price == 242 {
                    assert_eq!((c.row, c.col), (2, 13));
                }
            }
            None => {
                assert_eq!(m.stage, MergerStage::Price);
                assert_eq!(
                    G1841::legal(&s, P2).actions,
                    [
                        Action::ChooseMergerPrice { price: 256 },
                        Action::ChooseMergerPrice { price: 284 }
                    ]
                );
            }
        }
    }
}

// ----- FAQ-C11: pass_token_not_a_route_base -------------------------------------------------

/// FAQ-C11 (b): "Company X's only token on the route is in pass K7 … (18xx accepts it
/// today)". The lite game after action 371 (phase 6; K7 has the green pass tile 613, Genova
/// M7 the green 609): SB's only token placed in pass K7. Without the option the route
/// optimizer finds K7 → Genova → N6 → Savona (O5) → Marseille (Q5) for its 6-train (L.230)
/// and `check_routes` accepts it; with the option there is no route (no SB token in a
/// city) and the same route is refused.
#[test]
fn faq_c11_a_pass_token_is_not_the_routes_token() {
    let mut base = before_in("1841_game_end_bank", 372);
    let sb = base
        .corporations
        .iter_mut()
        .find(|c| c.sym == "SB")
        .unwrap();
    sb.tokens = vec![MapToken {
        hex: "K7".into(),
        city: 0,
    }];
    assert_eq!(validate(&base), Ok(()));
    let off = with(&base, "pass_token_not_a_route_base", false);
    let best = best_routes(&off, "SB", operating_round::DEFAULT_BUDGET);
    assert_eq!(best.revenues, [230]);
    let stops: Vec<&str> = best.routes[0]
        .stops
        .iter()
        .map(|s| s.hex.as_str())
        .collect();
    assert_eq!(stops, ["K7", "M7", "N6", "O5", "Q5"]);
    assert_eq!(check_routes(&off, "SB", &best.routes), Ok(vec![230]));
    let on = with(&base, "pass_token_not_a_route_base", true);
    assert!(
        best_routes(&on, "SB", operating_round::DEFAULT_BUDGET)
            .routes
            .is_empty()
    );
    let err = check_routes(&on, "SB", &best.routes).unwrap_err();
    assert_eq!(
        (err.code, err.rule.as_str()),
        (RejectionCode::IllegalMove, "1841 §9.3")
    );
    assert!(
        err.message.contains("no city with a SB token"),
        "{}",
        err.message
    );
}

// ----- FAQ-Q27: immediate_game_end ----------------------------------------------------------

/// FAQ-Q27: "The bank broke earlier in this OR. CGTF's payout moves it to L.516. Expected:
/// the game ends at once. CGTF does not buy trains or take its share step, and no later
/// company operates." 132002 before action 936 (OR 7.1, phase 8): ICSF at L.465 (row 0,
/// col 17) pays out its L.670; the bank is made broken first (its cash moved to Player 1).
/// Without the option the L.516 stock-market trigger replaces the bank's (1841 §13: it ends
/// the game sooner, at the end of ICSF's turn: ICSF goes on to its train step,
/// `s13_516_after_the_bank_broke_ends_the_game_after_that_turn`); with it the payout ends
/// the game at once with reason `stock_market`.
#[test]
fn faq_q27_the_game_ends_at_once_at_516() {
    let mut base = before_in("132002", 936);
    let moved = base.bank_cash + 1;
    let cash = base.players[P1 as usize].cash + moved;
    set_player_cash(&mut base, P1, cash);
    assert_eq!(base.bank_cash, -1);
    base.game_end.trigger = Some("bank".into());
    assert_eq!(validate(&base), Ok(()));
    for on in [false, true] {
        let mut s = with(&base, "immediate_game_end", on);
        {
            let r = or_mut(&mut s);
            assert_eq!(
                (r.current.as_deref(), r.step),
                (Some("ICSF"), OperatingStep::Dividend)
            );
        }
        let seat = G1841::to_act(&s)[0];
        // The bank broke before: recorded by the first action that sees it.
        let events = act(&mut s, seat, Action::Dividend { payout: true });
        assert_eq!(cell(&s, "ICSF"), (0, 18));
        assert_eq!(s.corporation("ICSF").unwrap().price(), Some(516));
        if on {
            assert!(s.game_end.ended);
            assert_eq!(s.game_end.trigger.as_deref(), Some("stock_market"));
            assert!(
                events.iter().any(
                    |e| matches!(e, Event::GameEnded { reason, .. } if reason == "stock_market")
                )
            );
            assert!(G1841::to_act(&s).is_empty());
        } else {
            assert!(!s.game_end.ended);
            assert_eq!(s.game_end.trigger.as_deref(), Some("stock_market"));
            assert_eq!(G1841::to_act(&s), [seat], "ICSF's turn goes on");
        }
    }
}

/// 1841 §13 (the first triggered timing wins: immediate > end of the current turn > end of
/// the OR; FAQ-Q27's note), Version 2 defaults: the bank broke earlier in this OR (132002
/// before action 936, the bank's cash moved to Player 1, L.−1) and ICSF's L.670 payout moves
/// it from L.465 to L.516. The game ends at the end of ICSF's turn with reason
/// `stock_market`: ICSF finishes its turn (train, share, merge steps passed) and no later
/// corporation operates or pays. Scores are the values at that moment (cash + certificates
/// at market value).
#[test]
fn s13_516_after_the_bank_broke_ends_the_game_after_that_turn() {
    let mut s = before_in("132002", 936);
    let moved = s.bank_cash + 1;
    let cash = s.players[P1 as usize].cash + moved;
    set_player_cash(&mut s, P1, cash);
    s.game_end.trigger = Some("bank".into());
    assert_eq!(validate(&s), Ok(()));
    let seat = G1841::to_act(&s)[0];
    act(&mut s, seat, Action::Dividend { payout: true });
    assert_eq!(s.corporation("ICSF").unwrap().price(), Some(516));
    assert_eq!(s.game_end.trigger.as_deref(), Some("stock_market"));
    let mut ended_by = None;
    for _ in 0..20 {
        if s.game_end.ended {
            break;
        }
        assert_eq!(
            or_mut(&mut s).current.as_deref(),
            Some("ICSF"),
            "only ICSF acts before the game ends"
        );
        let seat = G1841::to_act(&s)[0];
        let legal = G1841::legal(&s, seat).actions;
        let action = if legal.contains(&Action::Pass) {
            Action::Pass
        } else {
            legal[0].clone()
        };
        let events = act(&mut s, seat, action);
        for e in events {
            assert!(
                !matches!(&e, Event::OperatingTurn { corporation, .. } if corporation != "ICSF"),
                "{e:?}"
            );
            if let Event::GameEnded { reason, scores } = e {
                ended_by = Some((reason, scores));
            }
        }
    }
    let (reason, scores) = ended_by.expect("the game ends at the end of ICSF's turn");
    assert_eq!(reason, "stock_market");
    let outcome = G1841::outcome(&s).unwrap();
    assert_eq!(outcome.end_reason, "stock_market");
    assert_eq!(outcome.scores, scores);
    let value = |seat: u32| -> i64 {
        let p = &s.players[seat as usize];
        let shares: i64 = s
            .corporations
            .iter()
            .filter_map(|c| c.price().map(|price| (c, price)))
            .map(|(c, price)| {
                let held: u32 = c
                    .certificates
                    .iter()
                    .filter(|k| k.owner == ShareOwner::Player(seat))
                    .map(|k| k.percent / c.unit_percent())
                    .sum();
                price * i64::from(held)
            })
            .sum();
        p.cash + shares - p.loan
    };
    for (seat, score) in scores.iter().enumerate() {
        assert_eq!(*score, value(seat as u32), "seat {seat}");
    }
}

/// FAQ-Q27 without a broken bank: the L.516 payout ends the game after ICSF's turn (18xx)
/// or at once (option): the stock-market trigger either way.
#[test]
fn faq_q27_without_a_broken_bank_only_the_timing_differs() {
    let base = before_in("132002", 936);
    for on in [false, true] {
        let mut s = with(&base, "immediate_game_end", on);
        let seat = G1841::to_act(&s)[0];
        act(&mut s, seat, Action::Dividend { payout: true });
        assert_eq!(s.game_end.trigger.as_deref(), Some("stock_market"));
        assert_eq!(s.game_end.ended, on);
    }
}

// ----- FAQ-Q20: no_train_obligation_after_last_8_train ---------------------------------------

/// 132002 before action 936 (phase 8) changed to: all seven 8-trains sold (the ones still in
/// the depot to SB, AFI, CTDA and IFAI), SFLi's 7-train discarded to the pool, SFLi
/// (trainless, with a route, L.0) in its train step.
fn faq_q20_situation() -> State {
    let mut s = before_in("132002", 936);
    let sold = s.operations.depot_sold.get("8").copied().unwrap_or(0);
    let mut owners = ["SB", "AFI", "CTDA", "IFAI"].iter().cycle();
    for k in sold..7 {
        let sym = owners.next().unwrap();
        s.operations
            .trains
            .entry(sym.to_string())
            .or_default()
            .push(format!("8-{k}"));
    }
    s.operations.depot_sold.insert("8".into(), 7);
    let seven = s.operations.trains.remove("SFLi").unwrap();
    s.operations.pool_trains.extend(seven);
    {
        let r = or_mut(&mut s);
        r.current = Some("SFLi".into());
        r.step = OperatingStep::Trains;
        r.revenue = 0;
        r.done.retain(|d| d != "SFLi");
    }
    assert_eq!(operating_round::depot_train(&s), None);
    assert_eq!(s.operations.pool_trains, ["7-1"]);
    assert_eq!(validate(&s), Ok(()));
    s
}

/// FAQ-Q20: "All seven 8-trains are sold, the depot is empty, and the pool holds one
/// discarded 7-train. A trainless company with a route ends its turn without buying: legal
/// under the FAQ (18xx currently forces the 7-train)." Without the option SFLi (L.0) is in
/// emergency money raising for the pool's L.1,100 7-train and may not pass; with it SFLi may
/// pass.
#[test]
fn faq_q20_no_train_obligation_after_the_last_8_train() {
    let base = faq_q20_situation();
    let seat = referee_engine::g1841::corporation::controller(&base, "SFLi").unwrap();
    for on in [false, true] {
        let s = with(&base, "no_train_obligation_after_last_8_train", on);
        assert_eq!(in_emergency(&s), !on);
        let legal = G1841::legal(&s, seat).actions;
        assert_eq!(legal.contains(&Action::Pass), on, "{on}: {legal:?}");
        if !on {
            let err = G1841::apply(&mut s.clone(), seat, &Action::Pass).unwrap_err();
            assert_eq!(
                (err.code, err.rule.as_str()),
                (RejectionCode::IllegalMove, "1841 §14")
            );
        }
    }
}

/// 18xx (the default, `1841-faq.md` FAQ-Q20): the obligation lasts while the depot or the
/// pool holds a train; with neither, a trainless corporation passes.
#[test]
fn faq_q20_without_depot_or_pool_trains_nobody_must_buy() {
    let mut s = faq_q20_situation();
    let seven = std::mem::take(&mut s.operations.pool_trains);
    s.operations.trains.get_mut("AFI").unwrap().extend(seven);
    assert_eq!(validate(&s), Ok(()));
    let seat = referee_engine::g1841::corporation::controller(&s, "SFLi").unwrap();
    assert!(!in_emergency(&s));
    assert!(G1841::legal(&s, seat).actions.contains(&Action::Pass));
}

// ----- FAQ-C16 / FAQ-Q25: exchanges_by_share_value -------------------------------------------

/// FAQ-C16: "P2 controls CTS (L.150) and AFI (L.120), and both hold old shares. Expected
/// order: P2, CTS, AFI … 18xx currently puts AFI before CTS." FAQ-Q25: "frozen CTS (L.90) and
/// frozen AFI (L.70) … CTS exchanges before AFI. 18xx currently takes AFI first." On 132002
/// before action 529: P2 controls CTS and AFI (started by hand), and, in a second state, both
/// are frozen (their president's certificates in the pool). The holder order of an exchange
/// (`holder_order`, used by mergers, transformations and the split) lists them in the
/// corporation list order without the option (AFI first) and by share value with it.
#[test]
fn faq_c16_q25_exchanges_in_share_value_order() {
    let mut base = before_in("132002", 529);
    start(&mut base, "AFI", 0, 4, &[p(P2)], true); // L.120
    start(&mut base, "CTS", 5, 10, &[p(P2)], true); // L.146
    let mut frozen = before_in("132002", 529);
    start(&mut frozen, "AFI", 5, 3, &[ShareOwner::Pool], true); // L.70
    start(&mut frozen, "CTS", 4, 4, &[ShareOwner::Pool], true); // L.86
    let corps = |order: Vec<ShareOwner>| -> Vec<ShareOwner> {
        order
            .into_iter()
            .filter(|h| *h == corp("AFI") || *h == corp("CTS") || *h == p(P2))
            .collect()
    };
    for on in [false, true] {
        let s = with(&base, "exchanges_by_share_value", on);
        let order = corps(holder_order(&s, P2, true, |_| true));
        let expected = if on {
            vec![p(P2), corp("CTS"), corp("AFI")]
        } else {
            vec![p(P2), corp("AFI"), corp("CTS")]
        };
        assert_eq!(order, expected, "controlled, {on}");
        let s = with(&frozen, "exchanges_by_share_value", on);
        let order = holder_order(&s, P1, true, |_| true);
        let tail: Vec<ShareOwner> = order
            .iter()
            .skip_while(|h| **h != ShareOwner::Pool)
            .filter(|h| **h == corp("AFI") || **h == corp("CTS"))
            .cloned()
            .collect();
        let expected = if on {
            vec![corp("CTS"), corp("AFI")]
        } else {
            vec![corp("AFI"), corp("CTS")]
        };
        assert_eq!(tail, expected, "frozen, {on}");
    }
}

/// FAQ-C16 in a merger: the holders of the old shares are asked in that order. SFTC (P2)
/// proposes a merger with SFTG; P2's AFI (L.120) and CTS (L.146) each hold a SFTG share.
#[test]
fn faq_c16_merger_holders_in_share_value_order() {
    let mut base = before_in("132002", 529);
    start(&mut base, "AFI", 0, 4, &[p(P2)], true);
    start(&mut base, "CTS", 5, 10, &[p(P2)], true);
    let sftg = base
        .corporations
        .iter_mut()
        .find(|c| c.sym == "SFTG")
        .unwrap();
    let mut given = 0;
    for c in sftg.certificates.iter_mut() {
        if c.owner == corp("SFTC") && given < 2 {
            c.owner = if given == 0 { corp("AFI") } else { corp("CTS") };
            given += 1;
        }
    }
    assert_eq!(given, 2);
    assert_eq!(validate(&base), Ok(()));
    for on in [false, true] {
        let mut s = with(&base, "exchanges_by_share_value", on);
        act(
            &mut s,
            P2,
            Action::ProposeMerger {
                partner: "SFTG".into(),
            },
        );
        act(
            &mut s,
            P2,
            Action::FormCorporation {
                corporation: "ATFA".into(),
            },
        );
        let Some(CorporateEvent::Merger(m)) = event(&s) else {
            panic!("merger expected")
        };
        let order: Vec<&ShareOwner> = m
            .holders
            .iter()
            .filter(|h| **h == corp("AFI") || **h == corp("CTS"))
            .collect();
        let expected = if on {
            [&corp("CTS"), &corp("AFI")]
        } else {
            [&corp("AFI"), &corp("CTS")]
        };
        assert_eq!(order, expected, "{on}");
    }
}

// ----- FAQ-R3: ferdinandea_unexchanged_payout (Version 1) ------------------------------------

/// A `version_1` game of 4 players played at random (seeded, the policy of the random
/// full-game tests: rare withholding, no bankruptcy, no trains from other corporations) up to
/// the first moment the operating corporation may buy the first 4-train from the depot while
/// IRSFF is started, no corporation connects Milano and Venezia (so the split happens) and no
/// player is bankrupt (every player may be given shares).
fn version_1_before_the_first_4_train() -> State {
    let options = Options {
        version_1: true,
        ..Options::default()
    };
    for seed in 1..40u64 {
        let mut state = G1841::setup(&options, 4, 0).unwrap();
        let mut rng = Rng(seed.wrapping_mul(2) | 1);
        for _ in 0..5000 {
            if G1841::outcome(&state).is_some() {
                break;
            }
            let to_act = G1841::to_act(&state);
            let Some(&seat) = to_act.first() else { break };
            let legal = G1841::legal_actions(&state, seat);
            let four = Action::BuyTrain {
                train: "4-0".into(),
                from: "depot".into(),
                price: 350,
            };
            if legal.contains(&four)
                && !in_emergency(&state)
                && state.corporation("IRSFF").is_some_and(|c| c.started())
                && operating_round::current(&state).as_deref() != Some("IRSFF")
                && !operating_round::events::split::milano_venezia_connected(&state)
                && state.players.iter().all(|p| !p.bankrupt)
            {
                return state;
            }
            let common: Vec<&Action> = legal
                .iter()
                .filter(|a| match a {
                    Action::DeclareBankruptcy { .. } => false,
                    Action::Dividend { payout } => *payout,
                    Action::BuyTrain { from, .. } => from == "depot" || from == "pool",
                    _ => true,
                })
                .collect();
            let pick = if common.is_empty() {
                legal[rng.below(legal.len())].clone()
            } else {
                common[rng.below(common.len())].clone()
            };
            if pick == four {
                // The first 4-train without a split to follow: try the next seed.
                break;
            }
            G1841::apply(&mut state, seat, &pick).unwrap();
        }
    }
    panic!("no version_1 game reached the first 4-train with IRSFF started");
}

/// FAQ-R3: "`version_1`, IRSFF at L.100. P1 holds only the president's certificate (20%).
/// Seven different holders (players and their companies) hold one 10% share each, and the
/// pool holds 10%. Nobody else holds 20% or more. Expected: P1 takes one presidency (say
/// SFV). The SFL certificate goes to the pool and SFL is frozen. The first six single
/// holders in order each get one 20% share. The seventh receives L.100 from the bank, and
/// IRSFF's price is unchanged." A Version 1 game reached by random play just before the
/// first 4-train, IRSFF at L.100 with: P1 the president's certificate; single shares with P2,
/// P3, P4 and four corporations controlled by players; 10% in the pool. The successors
/// (minors, three 20% shares each) run out after six single holders in the split's order:
/// the seventh is paid L.100 with the option and nothing without it (18xx).
#[test]
fn faq_r3_unexchangeable_irsff_shares_paid_at_market_value() {
    let mut base = version_1_before_the_first_4_train();
    let buyer = operating_round::current(&base).unwrap();
    let seat = G1841::to_act(&base)[0];
    set_cell(&mut base, "IRSFF", 3, 5);
    let controlled =
        |s: &State, sym: &str| referee_engine::g1841::corporation::controller(s, sym).is_some();
    let mut corps: Vec<String> = base
        .corporations
        .iter()
        .filter(|c| {
            // Not IRSFF, not the buyer, not a Tuscan participant (the Tuscan merge follows
            // the split and moves their holdings).
            c.started()
                && !["IRSFF", "SFLP", "SFMA", "SSFL"].contains(&c.sym.as_str())
                && c.sym != buyer
                && controlled(&base, &c.sym)
        })
        .map(|c| c.sym.clone())
        .take(4)
        .collect();
    let spare: Vec<String> = [
        "AFI", "ATFA", "CFCC", "CGTF", "CTDA", "CTS", "ICSF", "IFAI", "ILTF", "RATF", "RSFS",
    ]
    .iter()
    .filter(|s| !base.corporation(s).unwrap().started())
    .map(|s| s.to_string())
    .collect();
    for (k, sym) in spare.iter().enumerate() {
        if corps.len() == 4 {
            break;
        }
        start(
            &mut base,
            sym,
            4,
            5 + k as u32,
            &[p(P1 + k as u32 % 4)],
            true,
        );
        corps.push(sym.clone());
    }
    assert_eq!(corps.len(), 4);
    let mut owners = vec![p(P1), p(P2), p(P3), p(P4)];
    owners.extend(corps.iter().map(|c| corp(c)));
    owners.push(ShareOwner::Pool);
    set_holders(&mut base, "IRSFF", &owners);
    assert_eq!(base.corporation("IRSFF").unwrap().price(), Some(100));
    for on in [false, true] {
        let mut s = with(&base, "ferdinandea_unexchanged_payout", on);
        let bank_before = s.bank_cash;
        let mut events = act(
            &mut s,
            seat,
            Action::BuyTrain {
                train: "4-0".into(),
                from: "depot".into(),
                price: 350,
            },
        );
        let Some(CorporateEvent::Split(split)) = event(&s) else {
            panic!("the split waits for IRSFF's president")
        };
        let singles: Vec<ShareOwner> = split
            .holders
            .iter()
            .filter(|h| **h != p(P1) && **h != ShareOwner::Pool)
            .cloned()
            .collect();
        assert_eq!(singles.len(), 7, "{:?}", split.holders);
        // Decide the split: the first choice each time, no purchases.
        while let Some(CorporateEvent::Split(_)) = event(&s) {
            let who = G1841::to_act(&s)[0];
            let legal = G1841::legal(&s, who).actions;
            let choice = legal
                .iter()
                .find(|a| {
                    matches!(
                        a,
                        Action::Pass | Action::RepeatPurchaseRound { repeat: false }
                    )
                })
                .unwrap_or(&legal[0])
                .clone();
            events.extend(act(&mut s, who, choice));
        }
        let paid: Vec<&Event> = events
            .iter()
            .filter(|e| matches!(e, Event::ExchangePayment { corporation, .. } if corporation == "IRSFF"))
            .collect();
        // The first six single holders received a 20% share, the seventh none.
        let share_of = |h: &ShareOwner| -> u32 {
            ["SFV", "SFL"]
                .iter()
                .map(|x| s.corporation(x).unwrap().percent_of(h))
                .sum()
        };
        // The split takes its holders' order again after the presidencies (1841 §12.4,
        // `reorder_holders`): the seventh is the last of the singles in that order, not
        // necessarily in the order before them.
        let (got, none): (Vec<&ShareOwner>, Vec<&ShareOwner>) =
            singles.iter().partition(|h| share_of(h) > 0);
        assert_eq!(got.len(), 6, "{singles:?}");
        for h in got {
            assert_eq!(share_of(h), 20, "{h:?}");
        }
        let [seventh] = none[..] else {
            panic!("one single holder without a share: {none:?}")
        };
        let seventh = seventh.clone();
        assert_eq!(share_of(&seventh), 0);
        let frozen_successor = ["SFV", "SFL"]
            .iter()
            .filter(|x| s.corporation(x).unwrap().president() == Some(&ShareOwner::Pool))
            .count();
        assert_eq!(
            frozen_successor, 1,
            "the second presidency went to the pool"
        );
        if on {
            assert_eq!(
                paid,
                [&Event::ExchangePayment {
                    holder: seventh,
                    corporation: "IRSFF".into(),
                    amount: 100,
                    to_corporation: false,
                }]
            );
        } else {
            assert!(paid.is_empty(), "{paid:?}");
        }
        // The bank received the L.350 and paid L.100 with the option.
        assert_eq!(s.bank_cash, bank_before + 350 - if on { 100 } else { 0 });
    }
}

// ----- FAQ-V3: no_cross_border_corporate_shares (variant) ------------------------------------

/// FAQ-V3: "Phase 3, option on. SFTG buying an IRSFF share is refused, and IRSFF buying an
/// SFTG share is refused. CTS (Genova, Piedmont) buying an SFTN share is allowed." On 132002
/// before action 326: SFTG (Torino, Alessandria) may buy an IRSFF IPO share (Milano,
/// Venezia, across the Piedmont–Lombardy border) only without the variant; IRSFF may buy an
/// SFTG pool share only without it; SFTC (Cuneo, Piedmont) buys an SFTG pool share (Piedmont)
/// either way. The variant is off under every version unless set, `version_1` included.
#[test]
fn faq_v3_no_corporate_share_buying_across_a_border() {
    let cases = [
        ("SFTG", "IRSFF", false, false),
        ("IRSFF", "SFTG", true, false),
        ("SFTC", "SFTG", true, true),
    ];
    for (buyer, target, from_pool, allowed_with_variant) in cases {
        let base = share_step_of(buyer);
        let seat = G1841::to_act(&base)[0];
        let buy = Action::BuyShares {
            corporation: target.into(),
            from_pool,
            percent: 10,
        };
        for on in [false, true] {
            let s = with(&base, "no_cross_border_corporate_shares", on);
            let legal = G1841::legal(&s, seat).actions;
            assert_eq!(
                legal.contains(&buy),
                !on || allowed_with_variant,
                "{buyer} buys {target}, variant {on}: {legal:?}"
            );
        }
        let mut v1 = base.clone();
        v1.options.version_1 = true;
        assert!(!v1.options.no_cross_border_corporate_shares());
    }
}

// ----- Rulings the engine already follows (1841-faq.md §7 items 8, 15–20) -------------------

/// FAQ-C15: "Cell L.100 (row 3, col 5) holds CTS, IRSFF, AFI in operating order. The first
/// 4-train triggers the split. Expected order in that cell: CTS, SB, SFL, AFI … not CTS, AFI,
/// SB, SFL." 132002 before action 326 with SFTC, IRSFF and SFTG arriving on L.100 in that
/// order; CTDA buys the first 4-train: SFTC, SB, SFL, SFTG.
#[test]
fn faq_c15_split_successors_take_irsffs_place_in_its_stack() {
    let mut s = before_in("132002", 326);
    for sym in ["SFTC", "IRSFF", "SFTG"] {
        set_cell(&mut s, sym, 3, 5);
    }
    act(
        &mut s,
        P4,
        Action::BuyTrain {
            train: "4-0".into(),
            from: "depot".into(),
            price: 350,
        },
    );
    let stack: Vec<String> = market::operating_order(&s)
        .into_iter()
        .filter(|c| cell(&s, c) == (3, 5))
        .collect();
    assert_eq!(stack, ["SFTC", "SB", "SFL", "SFTG"]);
}

/// FAQ-Q22: "Phase 4. X (L.90, row 3, col 4; cash L.200; no train; has a route) must buy a
/// 4-train (L.350). It sells 4 IPO shares at L.45 (L.180); price falls to L.57 (row 7, col
/// 4); cash is L.380. It buys the 4-train, leaving L.30. It may then buy a 3-train from
/// company Y for up to L.30." X = SFTC on 132002 before action 420 (its 3-train moved to
/// CTDA, four IPO shares, nothing else to sell); Y = CTDA.
#[test]
fn faq_q22_further_trains_after_an_emergency_purchase() {
    let mut s = before_in("132002", 420);
    or_mut(&mut s).step = OperatingStep::Trains;
    let train = s.operations.trains.remove("SFTC").unwrap();
    s.operations.trains.get_mut("CTDA").unwrap().extend(train);
    set_holders(
        &mut s,
        "SFTC",
        &[
            p(P2),
            p(P2),
            corp("SFTG"),
            p(P3),
            ShareOwner::Ipo,
            ShareOwner::Ipo,
            p(P2),
            ShareOwner::Ipo,
            ShareOwner::Ipo,
        ],
    );
    let sftg = s.corporations.iter_mut().find(|c| c.sym == "SFTG").unwrap();
    for c in sftg.certificates.iter_mut() {
        if c.owner == corp("SFTC") {
            c.owner = ShareOwner::Pool;
        }
    }
    set_cell(&mut s, "SFTC", 3, 4);
    set_corp_cash(&mut s, "SFTC", 200);
    set_player_cash(&mut s, P2, 0);
    assert_eq!(validate(&s), Ok(()));
    assert!(in_emergency(&s));
    let legal = G1841::legal(&s, P2).actions;
    assert!(legal.contains(&emergency_sell(Some("SFTC"), "SFTC", 40)));
    assert!(!legal.contains(&emergency_sell(Some("SFTC"), "SFTC", 50)));
    act(&mut s, P2, emergency_sell(Some("SFTC"), "SFTC", 40));
    assert_eq!(s.corporation("SFTC").unwrap().cash, 380);
    assert_eq!(cell(&s, "SFTC"), (7, 4));
    assert_eq!(s.corporation("SFTC").unwrap().price(), Some(57));
    act(
        &mut s,
        P2,
        Action::BuyTrain {
            train: "4-2".into(),
            from: "depot".into(),
            price: 350,
        },
    );
    assert_eq!(s.corporation("SFTC").unwrap().cash, 30);
    let legal = G1841::legal(&s, P2);
    let from_ctda = legal
        .train_purchases
        .iter()
        .find(|t| t.from == "CTDA" && t.train.starts_with("3-"))
        .expect("CTDA's 3-train on offer");
    assert_eq!((from_ctda.min_price, from_ctda.max_price), (1, 30));
    let train = from_ctda.train.clone();
    act(
        &mut s,
        P2,
        Action::BuyTrain {
            train: train.clone(),
            from: "CTDA".into(),
            price: 30,
        },
    );
    assert!(s.operations.trains["SFTC"].contains(&train));
}

/// 132002 before action 800 (stock round 6, Player 1 to act) with everything Player 1 held
/// given to Player 2.
fn player_1_without_holdings() -> State {
    let mut s = before_in("132002", 800);
    for c in s.corporations.iter_mut() {
        for x in c.certificates.iter_mut() {
            if x.owner == p(P1) {
                x.owner = p(P2);
            }
        }
    }
    s
}

/// FAQ-Q9: "After a presidency change P1 is 2 over his limit, and all his holdings are in
/// companies that have not operated: no forced sale. If exactly one of his certificates is
/// sellable, he must sell it, and may then act although he is still 1 over." Player 1 (limit
/// 16 with 4 players) holds 60% (5 certificates) of each of ATFA, ILTF and RATF and 3 of RSFS
/// (all started by hand, not operated): 18, and no sale is offered or forced (nothing else being possible either, his
/// turn passes). With one ILTF certificate swapped for a CTDA share (operated), that sale is
/// his only action; afterwards, still 17, no further sale is required.
#[test]
fn faq_q9_over_the_limit_but_nothing_sellable() {
    let mut s = player_1_without_holdings();
    start(&mut s, "ATFA", 3, 5, &vec![p(P1); 5], false);
    start(&mut s, "ILTF", 3, 6, &vec![p(P1); 5], false);
    start(&mut s, "RATF", 3, 7, &vec![p(P1); 5], false);
    start(&mut s, "RSFS", 3, 8, &vec![p(P1); 3], false);
    assert_eq!(certificate_limit(&s), 16);
    assert_eq!(certificate_count(&s, P1), 18);
    assert_eq!(G1841::to_act(&s), [P1]);
    let legal = G1841::legal(&s, P1).actions;
    assert!(
        legal.iter().all(|a| *a == Action::Pass),
        "no sale forced or offered: {legal:?}"
    );
    // One CTDA share instead of the last RSFS share.
    let mut one = s.clone();
    set_holders(&mut one, "RSFS", &[p(P1), p(P1)]);
    let ctda = one
        .corporations
        .iter_mut()
        .find(|c| c.sym == "CTDA")
        .unwrap();
    let x = ctda
        .certificates
        .iter_mut()
        .find(|x| !x.president && x.owner == p(P2))
        .unwrap();
    x.owner = p(P1);
    assert_eq!(certificate_count(&one, P1), 18);
    let sell = Action::SellShares {
        corporation: "CTDA".into(),
        percent: 10,
    };
    assert_eq!(G1841::legal(&one, P1).actions, std::slice::from_ref(&sell));
    let err = G1841::apply(&mut one.clone(), P1, &Action::Pass).unwrap_err();
    assert_ne!(err.code, RejectionCode::NotYourTurn);
    act(&mut one, P1, sell);
    assert_eq!(certificate_count(&one, P1), 17);
    let legal = G1841::legal(&one, P1).actions;
    assert!(
        !legal.iter().any(|a| matches!(a, Action::SellShares { .. })),
        "still 1 over, nothing more to sell: {legal:?}"
    );
}

/// FAQ-Q8: "P1 holds 13 certificates [5 players] and is president of CTS, which holds 4
/// certificates. P1 is at his limit, not over it, so no forced sale." With 4 players (limit
/// 16): Player 1 holds 16 (60% of each of ATFA, ILTF and RATF, not operated, and a sellable
/// CTDA share) and is president of ATFA, which holds 4 certificates of other corporations:
/// his count is 16, the sale is optional (Pass is legal) and he may not buy.
#[test]
fn faq_q8_corporate_holdings_do_not_count_toward_the_presidents_limit() {
    let mut s = player_1_without_holdings();
    start(&mut s, "ATFA", 3, 5, &vec![p(P1); 5], false);
    start(&mut s, "ILTF", 3, 6, &vec![p(P1); 5], false);
    start(&mut s, "RATF", 3, 7, &vec![p(P1); 5], false);
    let ctda = s.corporations.iter_mut().find(|c| c.sym == "CTDA").unwrap();
    let x = ctda
        .certificates
        .iter_mut()
        .find(|x| !x.president && x.owner == p(P2))
        .unwrap();
    x.owner = p(P1);
    // Four certificates of other corporations for ATFA (from Player 4).
    let mut moved = 0;
    for c in s.corporations.iter_mut().filter(|c| c.sym != "ATFA") {
        for x in c.certificates.iter_mut() {
            if moved < 4 && !x.president && x.owner == p(P4) {
                x.owner = corp("ATFA");
                moved += 1;
            }
        }
    }
    assert_eq!(moved, 4);
    assert_eq!(validate(&s), Ok(()));
    assert_eq!(certificate_count(&s, P1), 16);
    let legal = G1841::legal(&s, P1).actions;
    assert!(
        legal.contains(&Action::Pass),
        "not over the limit: {legal:?}"
    );
    assert!(legal.contains(&Action::SellShares {
        corporation: "CTDA".into(),
        percent: 10
    }));
    assert!(
        !legal.iter().any(|a| matches!(a, Action::BuyShares { .. })),
        "at the limit: {legal:?}"
    );
}

/// FAQ-Q10: "5 players (limit 13). P5 goes bankrupt and resigns. The remaining four keep
/// limit 13 (not 16)." The lite game (4 players) before action 175 with IFAI, SFTG and
/// Player 3 at L.0 and the depot down to the L.1,100 7-train: Player 3 resigns through
/// bankruptcy; the certificate limit of the others stays the 4-player one.
#[test]
fn faq_q10_the_certificate_limit_is_unchanged_after_a_bankruptcy() {
    let mut s = ifai_short(0, 0, 0);
    common::depot_down_to_7_trains(&mut s);
    let limit = certificate_limit(&s);
    let legal = G1841::legal(&s, P3).actions;
    assert!(legal.contains(&Action::DeclareBankruptcy { loan: false }));
    G1841::apply(&mut s, P3, &Action::DeclareBankruptcy { loan: false }).unwrap();
    assert!(s.players[P3 as usize].bankrupt);
    assert_eq!(certificate_limit(&s), limit);
    let mut three = s.clone();
    three.players.truncate(3);
    assert_ne!(
        certificate_limit(&three),
        limit,
        "3 players would have another limit"
    );
}

/// FAQ-C10 and FAQ-Q17: track may point off the map only toward a port or an off-board, and
/// the hex side north of Pisa (Q11, edge 3) is impassable. SSFL's track step on 132002
/// before action 281 (phase 3): green tile 15 never fits Pisa — rotation 4 (exits 4, 5, 0,
/// 1; edge 1 leads off the map) and rotation 3 (exits 3, 4, 5, 0) are refused — while 619 in
/// rotation 2 (exits 2, 4, 5, 0) is accepted.
#[test]
fn faq_c10_q17_pisa_tile_orientations() {
    let s = before_in("132002", 281);
    assert_eq!(operating_round::current(&s).as_deref(), Some("SSFL"));
    let seat = G1841::to_act(&s)[0];
    let lays: Vec<(String, u8)> = operating_round::legal_lays(&s)
        .into_iter()
        .filter(|l| l.hex == "Q11")
        .map(|l| (l.tile, l.rotation))
        .collect();
    assert!(lays.contains(&("619".to_string(), 2)), "{lays:?}");
    assert!(!lays.iter().any(|(t, _)| t == "15"), "{lays:?}");
    for rotation in [3, 4] {
        let err = G1841::apply(
            &mut s.clone(),
            seat,
            &Action::LayTile {
                hex: "Q11".into(),
                tile: "15".into(),
                rotation,
            },
        )
        .unwrap_err();
        assert_eq!(err.code, RejectionCode::IllegalMove);
    }
    act(
        &mut s.clone(),
        seat,
        Action::LayTile {
            hex: "Q11".into(),
            tile: "619".into(),
            rotation: 2,
        },
    );
}

/// FAQ-Q16: "`version_1`, phase 3. A company reaching M7 from L6 lays 608 in rotation 2 (exits
/// 2/5): accepted, with the port not connected. Rotation 1 (exits 1/4): rejected (edge 4 is
/// impassable). A company … may use rotation 0 (exits 0/3)." A Version 1 game in phase 3
/// (random play), CTS started by hand with its token on Genova's printed city and in its
/// track step: 608 is offered in exactly the orientations 0/3 and 2/5 (the port need not be
/// connected), never 1/4.
#[test]
fn faq_q16_version_1_genova_tile_either_way() {
    let mut s = version_1_before_the_first_4_train();
    assert_eq!(s.phase, "3");
    // Genova back to its printed yellow city, free of tokens.
    s.operations.tiles.remove("M7");
    for c in s.corporations.iter_mut() {
        c.tokens.retain(|t| t.hex != "M7");
    }
    start(&mut s, "CTS", 4, 5, &[p(P1)], true);
    let cts = s.corporations.iter_mut().find(|c| c.sym == "CTS").unwrap();
    cts.tokens = vec![MapToken {
        hex: "M7".into(),
        city: 0,
    }];
    cts.tokens_total = 2;
    set_corp_cash(&mut s, "CTS", 200);
    {
        let r = or_mut(&mut s);
        r.current = Some("CTS".into());
        r.step = OperatingStep::Track;
        r.laid_hexes.clear();
        r.used_bases.clear();
        r.bought_train = false;
        r.done.retain(|d| d != "CTS");
    }
    assert_eq!(validate(&s), Ok(()));
    let exits: Vec<[u8; 2]> = operating_round::legal_lays(&s)
        .into_iter()
        .filter(|l| l.hex == "M7" && l.tile == "608")
        .map(|l| {
            let mut e = [l.rotation % 6, (l.rotation + 3) % 6];
            e.sort_unstable();
            e
        })
        .collect();
    assert!(exits.contains(&[0, 3]), "{exits:?}");
    assert!(exits.contains(&[2, 5]), "{exits:?}");
    assert!(!exits.contains(&[1, 4]), "{exits:?}");
    let seat = G1841::to_act(&s)[0];
    let err = G1841::apply(
        &mut s.clone(),
        seat,
        &Action::LayTile {
            hex: "M7".into(),
            tile: "608".into(),
            rotation: 1,
        },
    )
    .unwrap_err();
    assert_eq!(err.code, RejectionCode::IllegalMove);
    act(
        &mut s,
        seat,
        Action::LayTile {
            hex: "M7".into(),
            tile: "608".into(),
            rotation: 2,
        },
    );
    assert_eq!(s.operations.tiles["M7"].rotation, 2);
}

/// FAQ-Q2 in the corporate share step ({4.7.1}): SFTC (132002 before action 326, in its share
/// step) and SFTG share the L.100 cell, SFTC first; SFTC sells 10% of its own IPO, then its
/// 10% of SFTG, then passes. Without the option SFTC drops first and stays ahead; with it the
/// drops wait for the end of the selling and SFTG (behind) drops first, so SFTG is ahead.
#[test]
fn faq_q2_corporate_sales_drop_lowest_value_first() {
    let mut base = share_step_of("SFTC");
    set_cell(&mut base, "SFTC", 3, 5);
    set_cell(&mut base, "SFTG", 3, 5);
    let seat = G1841::to_act(&base)[0];
    for on in [false, true] {
        let mut s = with(&base, "price_drops_lowest_first", on);
        let cash = s.corporation("SFTC").unwrap().cash;
        for sym in ["SFTC", "SFTG"] {
            act(
                &mut s,
                seat,
                Action::SellShares {
                    corporation: sym.into(),
                    percent: 10,
                },
            );
        }
        assert_eq!(s.corporation("SFTC").unwrap().cash, cash + 200);
        act(&mut s, seat, Action::Pass);
        assert_eq!((cell(&s, "SFTC"), cell(&s, "SFTG")), ((4, 5), (4, 5)));
        let order = market::operating_order(&s);
        assert_eq!(
            position(&order, "SFTG") < position(&order, "SFTC"),
            on,
            "{on}: {order:?}"
        );
    }
}
