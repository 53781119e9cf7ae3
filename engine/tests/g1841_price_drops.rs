//! The price drop after a sale (1841 §5.3: one row down per unit sold) on every path that
//! sells — the stock round (§5.3), the corporate share step (§9.7), a frozen corporation
//! selling out of its loop (§7.4, FAQ-Q23), emergency sales in the train step, a bankruptcy
//! and a transformation's token emergency (§14, §12.2), the automatic IPO sale of a start
//! (§5.4 step 4) — all through `g1841::sale`. Each test pins the path with both settings of
//! `price_drops_lowest_first` (FAQ-Q2: "After a sale, prices are lowered in reverse operating
//! order, i.e. by increasing share value. Markers higher in a stack move later. As a result,
//! when shares of several companies whose markers share a stack are sold together, those
//! markers end up in reverse order."): off, each sale drops at once, so two corporations sold
//! from one stack keep their order (18xx); on, the drops wait for the end of the selling and
//! the two change places. States are taken from the recorded games (replayed with the
//! importer up to just before an action) and edited; money moves to or from the bank.
//!
//! Seats of both recorded games: P1 = 0, P2 = 1, P3 = 2, P4 = 3.

use referee_engine::g1841::market::{self, set_cell};
use referee_engine::g1841::operating_round::in_emergency;
use referee_engine::g1841::validate::validate;
use referee_engine::g1841::{
    Action, CorporateEvent, Event, G1841, MapToken, OperatingStep, Round, ShareOwner, State,
};
use referee_engine::{Game, Seat};

mod common;
use common::before_in;
use common::edit::{
    act, cell, corp, or_mut, p, set_corp_cash, set_holders, set_player_cash, share_step_of, start,
    with_option,
};

const P1: Seat = 0;
const P2: Seat = 1;
const P3: Seat = 2;
const P4: Seat = 3;

const OPTION: &str = "price_drops_lowest_first";

/// `state` with `price_drops_lowest_first` set to `on` (the version default overridden).
fn with(state: &State, on: bool) -> State {
    with_option(state, OPTION, on)
}

/// Whether `a` operates before `b` (1841 §6).
fn before(state: &State, a: &str, b: &str) -> bool {
    let order = market::operating_order(state);
    let at = |s: &str| order.iter().position(|x| x == s).unwrap();
    at(a) < at(b)
}

/// The pending drops of the round in progress (FAQ-Q2).
fn pending(state: &State) -> usize {
    match &state.round {
        Round::StockRound(r) => r.pending_drops.len(),
        Round::OperatingRound(r) => r.pending_drops.len(),
        Round::ConcessionRound(_) => 0,
    }
}

fn sell(corporation: &str, percent: u32) -> Action {
    Action::SellShares {
        corporation: corporation.into(),
        percent,
    }
}

fn emergency_sell(seller: Option<&str>, corporation: &str, percent: u32) -> Action {
    Action::EmergencySell {
        seller: seller.map(str::to_string),
        corporation: corporation.into(),
        percent,
    }
}

/// The position of the first `SharePriceChanged` of `sym` in `events`.
fn drop_at(events: &[Event], sym: &str) -> usize {
    events
        .iter()
        .position(
            |e| matches!(e, Event::SharePriceChanged { corporation, .. } if corporation == sym),
        )
        .unwrap_or_else(|| panic!("no price change of {sym} in {events:?}"))
}

// ----- 1841 §5.3: the stock round (`stock_round::sell::sell`) ---------------------------------

/// 1841 §5.3, FAQ-Q2's own test: 132002 before action 800 (stock round 6, Player 1 to act),
/// AFI arriving on L.100 (row 3, col 5) before CTDA; Player 1 sells 10% of AFI, then 10% of
/// CTDA (L.100 each, L.200), then passes; both end on L.95 (row 4, col 5). Off: each sale
/// drops at once, AFI first, and AFI still operates first. On: nothing moves before the
/// pass, then CTDA (behind) drops first and operates before AFI.
#[test]
fn stock_round_sales() {
    let mut base = before_in("132002", 800);
    set_cell(&mut base, "AFI", 3, 5);
    set_cell(&mut base, "CTDA", 3, 5);
    assert!(before(&base, "AFI", "CTDA"));
    for on in [false, true] {
        let mut s = with(&base, on);
        assert_eq!(G1841::to_act(&s), [P1]);
        let cash = s.players[P1 as usize].cash;
        act(&mut s, P1, sell("AFI", 10));
        act(&mut s, P1, sell("CTDA", 10));
        assert_eq!(
            s.players[P1 as usize].cash,
            cash + 200,
            "{on}: both at L.100"
        );
        let waiting = if on { (3, 5) } else { (4, 5) };
        assert_eq!(
            (cell(&s, "AFI"), cell(&s, "CTDA")),
            (waiting, waiting),
            "{on}"
        );
        act(&mut s, P1, Action::Pass);
        assert_eq!((cell(&s, "AFI"), cell(&s, "CTDA")), ((4, 5), (4, 5)));
        assert_eq!(s.corporation("AFI").unwrap().price(), Some(95));
        assert_eq!(before(&s, "CTDA", "AFI"), on, "{on}");
        assert_eq!(pending(&s), 0);
    }
}

// ----- 1841 §9.7: the corporate share step (`shares::sell_share`) ----------------------------

/// 1841 §9.7, FAQ-Q2: SFTC in its share step and SFTG share L.100 (row 3, col 5), SFTC
/// first; SFTC sells 10% of its own IPO, then its 10% of SFTG (L.200), then passes; both end
/// on L.95. Off: SFTC drops first and stays ahead; on: the drops wait for the pass and SFTG
/// (behind) drops first, so SFTG is ahead.
#[test]
fn corporate_share_step_sales() {
    let mut base = share_step_of("SFTC");
    set_cell(&mut base, "SFTC", 3, 5);
    set_cell(&mut base, "SFTG", 3, 5);
    let seat = G1841::to_act(&base)[0];
    for on in [false, true] {
        let mut s = with(&base, on);
        let cash = s.corporation("SFTC").unwrap().cash;
        act(&mut s, seat, sell("SFTC", 10));
        act(&mut s, seat, sell("SFTG", 10));
        assert_eq!(s.corporation("SFTC").unwrap().cash, cash + 200);
        let waiting = if on { (3, 5) } else { (4, 5) };
        assert_eq!(
            (cell(&s, "SFTC"), cell(&s, "SFTG")),
            (waiting, waiting),
            "{on}"
        );
        act(&mut s, seat, Action::Pass);
        assert_eq!((cell(&s, "SFTC"), cell(&s, "SFTG")), ((4, 5), (4, 5)));
        assert_eq!(before(&s, "SFTG", "SFTC"), on, "{on}");
        assert_eq!(pending(&s), 0);
    }
}

// ----- 1841 §7.4, FAQ-Q23: a frozen corporation sells out of its loop (`shares::sell_all`) ---

/// 1841 §7.4, FAQ-Q23: 132002 before action 386 (OR 3.2, SB operating, SFL and CTDA done),
/// edited into a loop of three: SFLi presides over SFTC, SFTG over SFLi, SFTC over SFTG; SFTC
/// also holds 20% of SFLi. SFTC is at L.100 (row 3, col 5); SFLi and SFTG share L.86 (row 4,
/// col 4), SFLi first. SB passes; SFTC's frozen turn moves it left twice (L.80) and sells, in
/// its chain's order, its 20% of SFLi and SFTG's president's certificate (2 units each, L.172
/// each at L.86; Player 2's 20% takes SFTG), both dropping two rows to L.68 (row 6, col 4).
/// Off: SFLi drops first and stays ahead; on: the drops are made once the loop is sold, SFTG
/// (behind) first, so SFTG is ahead.
#[test]
fn frozen_corporation_sells_out_of_its_loop() {
    let mut base = before_in("132002", 386);
    set_cell(&mut base, "SFLi", 4, 4);
    set_cell(&mut base, "SFTG", 4, 4);
    set_holders(&mut base, "SFTC", &[corp("SFLi"), p(P2), p(P2), p(P3)]);
    set_holders(
        &mut base,
        "SFLi",
        &[corp("SFTG"), corp("SFTC"), corp("SFTC"), p(P1)],
    );
    set_holders(&mut base, "SFTG", &[corp("SFTC"), p(P2), p(P2)]);
    {
        let r = or_mut(&mut base);
        r.step = OperatingStep::Merge;
        r.done = vec!["SFL".into(), "CTDA".into()];
    }
    assert_eq!(validate(&base), Ok(()));
    assert_eq!(cell(&base, "SFTC"), (3, 5));
    assert!(before(&base, "SFTC", "SFLi") && before(&base, "SFLi", "SFTG"));
    for on in [false, true] {
        let mut s = with(&base, on);
        let cash = s.corporation("SFTC").unwrap().cash;
        act(&mut s, P3, Action::Pass);
        let sftc = s.corporation("SFTC").unwrap();
        assert!(sftc.operated);
        assert_eq!((cell(&s, "SFTC"), sftc.price()), ((3, 3), Some(80)));
        assert_eq!(sftc.cash, cash + 2 * 86 + 2 * 86, "{on}");
        assert_eq!(s.corporation("SFTG").unwrap().president(), Some(&p(P2)));
        assert_eq!((cell(&s, "SFLi"), cell(&s, "SFTG")), ((6, 4), (6, 4)));
        assert_eq!(s.corporation("SFTG").unwrap().price(), Some(68));
        assert_eq!(before(&s, "SFTG", "SFLi"), on, "{on}");
        assert_eq!(pending(&s), 0);
    }
}

// ----- 1841 §14: emergency sales (`emergency::emergency_sell`) -------------------------------

/// 132002 before action 420 (phase 4, SFTC operating, in its train step): SFTC (president P2,
/// L.54 at row 3, col 0) is trainless with a route, has L.0 and nothing to sell and must buy
/// the L.350 4-train; P2 has `cash`, SFTC's president's certificate and 20% of it (P3 holds
/// 20%: P2 may sell 20%), 20% of AFI and 20% of IFAI, both on L.100 (row 3, col 5), AFI
/// first; his SFTG shares went to P4. AFI and IFAI have operated in this round.
fn emergency(cash: i64) -> State {
    let mut s = before_in("132002", 420);
    {
        let r = or_mut(&mut s);
        assert_eq!(r.current.as_deref(), Some("SFTC"));
        r.step = OperatingStep::Trains;
        // They have operated: no turn of theirs moves them after SFTC's.
        for sym in ["AFI", "IFAI"] {
            if !r.done.iter().any(|d| d == sym) {
                r.done.push(sym.into());
            }
        }
    }
    let train = s.operations.trains.remove("SFTC").unwrap();
    s.operations.trains.get_mut("CTDA").unwrap().extend(train);
    set_cell(&mut s, "SFTC", 3, 0);
    set_holders(
        &mut s,
        "SFTC",
        &[
            p(P2),
            p(P2),
            p(P2),
            p(P3),
            p(P3),
            ShareOwner::Pool,
            ShareOwner::Pool,
            ShareOwner::Pool,
            ShareOwner::Pool,
        ],
    );
    let sftg = s.corporations.iter_mut().find(|c| c.sym == "SFTG").unwrap();
    for c in sftg.certificates.iter_mut() {
        if c.owner == corp("SFTC") {
            c.owner = ShareOwner::Pool;
        } else if c.owner == p(P2) {
            c.owner = p(P4);
        }
    }
    set_corp_cash(&mut s, "SFTC", 0);
    set_player_cash(&mut s, P2, cash);
    start(&mut s, "AFI", 3, 5, &[p(P1), p(P2), p(P2)], true);
    start(
        &mut s,
        "IFAI",
        3,
        5,
        &[p(P3), p(P2), p(P2), ShareOwner::Pool, ShareOwner::Pool],
        true,
    );
    assert_eq!(validate(&s), Ok(()));
    assert!(in_emergency(&s));
    assert!(before(&s, "AFI", "IFAI"));
    s
}

/// 1841 §14, FAQ-Q2: P2 (L.150) raises SFTC's L.350 by selling 20% of AFI, then 20% of IFAI,
/// at half price (L.100 each), and SFTC buys the 4-train; AFI and IFAI both drop two rows to
/// L.87 (row 5, col 5). Off: each sale drops at once, AFI first, AFI stays ahead; on: the
/// drops wait for the purchase (the end of the emergency's selling), IFAI (behind) drops
/// first and is ahead.
#[test]
fn emergency_sales() {
    let base = emergency(150);
    for on in [false, true] {
        let mut s = with(&base, on);
        assert_eq!(G1841::to_act(&s), [P2]);
        act(&mut s, P2, emergency_sell(None, "AFI", 20));
        act(&mut s, P2, emergency_sell(None, "IFAI", 20));
        // The proceeds flow down to SFTC at once (1841 §14).
        assert_eq!(s.corporation("SFTC").unwrap().cash, 350, "{on}");
        let waiting = if on { (3, 5) } else { (5, 5) };
        assert_eq!(
            (cell(&s, "AFI"), cell(&s, "IFAI")),
            (waiting, waiting),
            "{on}"
        );
        let buy = G1841::legal(&s, P2)
            .actions
            .into_iter()
            .find(|a| matches!(a, Action::BuyTrain { price: 350, .. }))
            .expect("the 4-train");
        let events = act(&mut s, P2, buy);
        assert!(
            s.operations.trains["SFTC"]
                .iter()
                .any(|t| t.starts_with('4'))
        );
        assert_eq!(s.corporation("SFTC").unwrap().cash, 0);
        assert_eq!((cell(&s, "AFI"), cell(&s, "IFAI")), ((5, 5), (5, 5)));
        assert_eq!(s.corporation("AFI").unwrap().price(), Some(87));
        assert_eq!(before(&s, "IFAI", "AFI"), on, "{on}");
        assert_eq!(pending(&s), 0);
        if on {
            // The drops are made before the purchase.
            let bought = events
                .iter()
                .position(|e| matches!(e, Event::TrainBought { .. }))
                .unwrap();
            assert!(drop_at(&events, "IFAI") < drop_at(&events, "AFI"));
            assert!(drop_at(&events, "AFI") < bought);
        }
    }
}

/// 1841 §14, FAQ-Q2: P2 with L.0 cannot raise the L.350 (AFI L.100 + IFAI L.100 + 20% of SFTC
/// L.54 at half price) and declares bankruptcy with a loan. He first sells his largest bundle
/// of each corporation with drops, in operating order: AFI 20% and IFAI 20% (L.100 each, two
/// rows to L.87, row 5, col 5), 20% of SFTC (L.54, two rows to L.47, row 5, col 0); then the
/// rest without drops: SFTC's presidency goes to P3 for two shares, sold at half of L.47
/// (L.47) — after the drops in both settings. SFTC receives it all: L.301. Off: AFI drops
/// first and stays ahead; on: the drops are made after the sales with drops, IFAI (behind)
/// first, and IFAI is ahead.
#[test]
fn bankruptcy_sales() {
    let base = emergency(0);
    let go = Action::DeclareBankruptcy { loan: true };
    assert!(G1841::legal(&base, P2).actions.contains(&go));
    for on in [false, true] {
        let mut s = with(&base, on);
        act(&mut s, P2, go.clone());
        assert!(s.players[P2 as usize].loan > 0);
        for sym in ["AFI", "IFAI", "SFTC"] {
            assert_eq!(s.corporation(sym).unwrap().percent_of(&p(P2)), 0);
        }
        let sftc = s.corporation("SFTC").unwrap();
        assert_eq!(sftc.president(), Some(&p(P3)));
        assert_eq!((cell(&s, "SFTC"), sftc.price()), ((5, 0), Some(47)));
        assert_eq!(sftc.cash, 100 + 100 + 54 + 47, "{on}");
        assert_eq!((cell(&s, "AFI"), cell(&s, "IFAI")), ((5, 5), (5, 5)));
        assert_eq!(s.corporation("IFAI").unwrap().price(), Some(87));
        assert_eq!(before(&s, "IFAI", "AFI"), on, "{on}");
        assert_eq!(pending(&s), 0);
    }
}

// ----- 1841 §12.2, §14: a transformation's token emergency -----------------------------------

/// 1841 §12.2 (the compulsory second token, L.50, by emergency money raising), §14, FAQ-Q2:
/// 132002 before action 386 with a hand-made CTLP (P1 40%, P2 20%, L.0, a token in Reggio) on
/// L.50 (row 7, col 3) behind SFTG, which arrived there first. CTLP transforms into ATFA in its
/// place; nobody buys; ATFA is given one SFTG share and must raise L.50: it sells that share
/// (half of L.50: L.25), then, having no other certificates, one IPO share (L.25), and pays
/// the token. Both drop a row to L.40 (row 8, col 3). Off: SFTG drops first and stays ahead;
/// on: the drops are made when the selling is over, ATFA (behind) first, and ATFA is ahead.
#[test]
fn transformation_token_emergency_sales() {
    let mut base = before_in("132002", 386);
    set_cell(&mut base, "SFTG", 7, 3);
    set_cell(&mut base, "CTLP", 7, 3);
    set_holders(&mut base, "CTLP", &[p(P1), p(P2)]);
    {
        let c = base
            .corporations
            .iter_mut()
            .find(|c| c.sym == "CTLP")
            .unwrap();
        c.cash = 0;
        c.par_price = 100;
        c.tokens = vec![MapToken {
            hex: "L12".into(),
            city: 0,
        }];
        c.tokens_total = 1;
    }
    {
        let r = or_mut(&mut base);
        r.current = Some("CTLP".into());
        r.step = OperatingStep::Transform;
    }
    for seat in 0..base.players.len() as Seat {
        set_player_cash(&mut base, seat, 60);
    }
    assert_eq!(validate(&base), Ok(()));
    for on in [false, true] {
        let mut s = with(&base, on);
        act(
            &mut s,
            P1,
            Action::Transform {
                corporation: "ATFA".into(),
            },
        );
        assert_eq!(cell(&s, "ATFA"), (7, 3));
        assert!(before(&s, "SFTG", "ATFA"));
        while let Some(CorporateEvent::Transformation(t)) = event(&s) {
            if t.stage > 2 {
                break;
            }
            let seat = G1841::to_act(&s)[0];
            act(&mut s, seat, Action::Pass);
        }
        assert!(matches!(event(&s), Some(CorporateEvent::Transformation(t)) if t.stage == 5));
        let sftg = s.corporations.iter_mut().find(|c| c.sym == "SFTG").unwrap();
        let share = sftg
            .certificates
            .iter_mut()
            .find(|c| !c.president && c.owner == ShareOwner::Pool)
            .expect("an SFTG pool share");
        share.owner = corp("ATFA");
        act(&mut s, P1, emergency_sell(Some("ATFA"), "SFTG", 10));
        let waiting = if on { (7, 3) } else { (8, 3) };
        assert_eq!(cell(&s, "SFTG"), waiting, "{on}");
        assert_eq!(
            G1841::legal(&s, P1).actions,
            [emergency_sell(Some("ATFA"), "ATFA", 10)]
        );
        act(&mut s, P1, emergency_sell(Some("ATFA"), "ATFA", 10));
        assert!(event(&s).is_none(), "the token is paid");
        let atfa = s.corporation("ATFA").unwrap();
        assert_eq!((atfa.cash, atfa.tokens_total), (0, 2));
        assert_eq!((cell(&s, "ATFA"), cell(&s, "SFTG")), ((8, 3), (8, 3)));
        assert_eq!(atfa.price(), Some(40));
        assert_eq!(before(&s, "ATFA", "SFTG"), on, "{on}");
        assert_eq!(pending(&s), 0);
    }
}

fn event(state: &State) -> Option<&CorporateEvent> {
    match &state.round {
        Round::OperatingRound(r) => r.event.as_deref(),
        _ => None,
    }
}

// ----- 1841 §5.4 step 4: the automatic IPO sale of a start (`start::raise_by_ipo_sale`) -------

/// 1841 §5.4 step 4 (18xx `auto_emr`), FAQ-Q5: AFI (1841_game_end_bank before action 111)
/// with L.30 must buy 2 tokens at L.50; it sells one IPO share at half of L.216 (L.108),
/// drops one row to L.196 and ends with L.38. The sale is one bundle of one corporation, its
/// selling ends with it: with `price_drops_lowest_first` too the drop is made at once, before
/// the tokens are bought, and nothing is left pending — the option changes nothing here
/// (FAQ-Q2's order needs two corporations sold together).
#[test]
fn start_sale_for_its_tokens() {
    let mut base = before_in("1841_game_end_bank", 111);
    set_corp_cash(&mut base, "AFI", 30);
    let seat = G1841::to_act(&base)[0];
    for on in [false, true] {
        let mut s = with(&base, on);
        assert_eq!(
            G1841::legal(&s, seat).actions,
            [Action::BuyTokens { count: 2 }]
        );
        let events = act(&mut s, seat, Action::BuyTokens { count: 2 });
        let afi = s.corporation("AFI").unwrap();
        assert_eq!(
            (afi.cash, afi.pool_percent(), afi.price()),
            (38, 10, Some(196))
        );
        let sold = events
            .iter()
            .position(|e| matches!(e, Event::CorporationSoldShares { price: 108, .. }))
            .unwrap();
        let tokens = events
            .iter()
            .position(|e| matches!(e, Event::TokensBought { .. }))
            .unwrap();
        let dropped = drop_at(&events, "AFI");
        assert!(sold < dropped && dropped < tokens, "{on}: {events:?}");
        assert_eq!(pending(&s), 0);
    }
}
