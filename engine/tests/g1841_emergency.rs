//! Emergency money raising (1841 §14, rule {4.5.1}): an emergency sale never moves the
//! presidency of the needy corporation or of a corporation above it in its chain of control.
//! Positions are taken from the recorded lite game `1841_game_end_bank` and edited: the
//! certificates moved stay conserved, and every edited position passes the state validator.

use referee_engine::g1841::operating_round;
use referee_engine::g1841::validate::validate;
use referee_engine::g1841::{Action, Event, G1841, ShareOwner, State};
use referee_engine::{Game, RejectionCode};

mod common;
use common::{move_shares, recorded_states, set_cash};

fn corp(sym: &str) -> ShareOwner {
    ShareOwner::Corporation(sym.into())
}

fn sale(corporation: &str, percent: u32) -> Action {
    Action::EmergencySell {
        seller: None,
        corporation: corporation.into(),
        percent,
    }
}

/// The lite game in phase 5 with IFAI (non-historical) in emergency money raising; its chain
/// of control is IFAI ← SFTG (historical, presidency free from phase 4) ← Player 3 (seat 2,
/// 30% of SFTG: the president's certificate and one share). Edited so that IFAI and SFTG have
/// nothing left to sell (IFAI's IPO shares and SFTG's SFTC share in the pool) and no cash,
/// seat 2 has no cash, and seat 0 holds 30% of SFTG (20% more from the pool).
fn ifai_needs_its_controllers_shares() -> State {
    let mut s = recorded_states("1841_game_end_bank").swap_remove(220);
    assert_eq!(s.phase, "5");
    move_shares(&mut s, "IFAI", &ShareOwner::Ipo, &ShareOwner::Pool, 80);
    move_shares(&mut s, "SFTC", &corp("SFTG"), &ShareOwner::Pool, 10);
    move_shares(
        &mut s,
        "SFTG",
        &ShareOwner::Pool,
        &ShareOwner::Player(0),
        20,
    );
    set_cash(&mut s, &corp("IFAI"), 0);
    set_cash(&mut s, &corp("SFTG"), 0);
    set_cash(&mut s, &ShareOwner::Player(2), 0);
    assert_eq!(validate(&s), Ok(()));
    assert!(operating_round::in_emergency(&s));
    assert_eq!(G1841::to_act(&s), [2]);
    s
}

/// 1841 §14 (rule {4.5.1}; 18xx `emr_can_sell?`): seat 2, raising money for IFAI, may not sell
/// his ordinary SFTG share — SFTG controls IFAI, and seat 0 (30%) would take SFTG's presidency
/// and with it the control of IFAI. His SFTC and SB shares (10% each, outside the chain) stay
/// for sale; a refused SFTG sale leaves the state unchanged and names §14.
#[test]
fn s14_no_emergency_sale_moves_a_presidency_above_the_needy_corporation() {
    let s = ifai_needs_its_controllers_shares();
    let legal = G1841::legal(&s, 2).actions;
    assert!(legal.contains(&sale("SFTC", 10)), "{legal:?}");
    assert!(legal.contains(&sale("SB", 10)), "{legal:?}");
    assert!(
        !legal.iter().any(|a| matches!(a,
            Action::EmergencySell { corporation, .. } if corporation == "SFTG")),
        "{legal:?}"
    );
    let mut after = s.clone();
    let err = G1841::apply(&mut after, 2, &sale("SFTG", 10)).unwrap_err();
    assert_eq!(
        (err.code, err.rule.as_str()),
        (RejectionCode::IllegalMove, "1841 §14")
    );
    assert_eq!(
        err.message,
        "Selling 10% of SFTG would leave its president with less than another holder's 30% \
         and move the presidency; SFTG is in IFAI's chain of control, so an emergency sale may \
         not change its president (at most 0% may be sold)."
    );
    assert_eq!(after, s, "a refused action leaves the state unchanged");
    // The same holding with seat 0 at 20% only: the sale keeps seat 2 president (a tie
    // keeps the president), so it is offered.
    let mut tie = s.clone();
    move_shares(
        &mut tie,
        "SFTG",
        &ShareOwner::Player(0),
        &ShareOwner::Pool,
        10,
    );
    assert!(G1841::legal(&tie, 2).actions.contains(&sale("SFTG", 10)));
    G1841::apply(&mut tie, 2, &sale("SFTG", 10)).unwrap();
    let sftg = tie.corporation("SFTG").unwrap();
    assert_eq!(sftg.president(), Some(&ShareOwner::Player(2)));
    assert_eq!(sftg.percent_of(&ShareOwner::Player(2)), 20);
}

/// The lite game in phase 4 with SFTN (historical, presidency free from phase 4) in
/// emergency money raising, controlled directly by Player 2 (seat 1: the president's
/// certificate and two shares, 40%). Edited so that SFTN has nothing to sell (its ATFA
/// certificates, the president's included, and its IPO shares in the pool) and no cash, seat 1 has no cash, and seat 3 holds 30% of
/// SFTN (from the pool).
fn sftn_needs_its_presidents_shares() -> State {
    let mut s = recorded_states("1841_game_end_bank").swap_remove(206);
    assert_eq!(s.phase, "4");
    move_shares(&mut s, "ATFA", &corp("SFTN"), &ShareOwner::Pool, 20);
    // SFTN also holds ATFA's president's certificate, which it could dump in an emergency
    // (1841 §14, FAQ-C13): into the pool with it (ATFA frozen).
    let atfa = s.corporations.iter_mut().find(|c| c.sym == "ATFA").unwrap();
    let pres = atfa.certificates.iter_mut().find(|k| k.president).unwrap();
    assert_eq!(pres.owner, corp("SFTN"));
    pres.owner = ShareOwner::Pool;
    move_shares(&mut s, "SFTN", &ShareOwner::Ipo, &ShareOwner::Pool, 20);
    move_shares(
        &mut s,
        "SFTN",
        &ShareOwner::Pool,
        &ShareOwner::Player(3),
        30,
    );
    set_cash(&mut s, &corp("SFTN"), 0);
    set_cash(&mut s, &ShareOwner::Player(1), 0);
    assert_eq!(validate(&s), Ok(()));
    assert!(operating_round::in_emergency(&s));
    assert_eq!(G1841::to_act(&s), [1]);
    s
}

/// 1841 §14 (rule {4.5.1}): seat 1, raising money for SFTN, may sell 10% of SFTN (he keeps
/// 30%, as much as seat 3: he stays president) but not 20% — seat 3 would become SFTN's
/// president and be left to raise the money for its train while seat 1 keeps his cash.
/// The 10% sale pays ceil(1 × 43 ÷ 2) = L.22, swept into SFTN at once (18xx `sweep_cash`),
/// and leaves seat 1 president.
#[test]
fn s14_no_emergency_sale_moves_the_needy_corporations_presidency() {
    let s = sftn_needs_its_presidents_shares();
    let price = s.corporation("SFTN").unwrap().price().unwrap();
    assert_eq!(price, 43);
    let legal = G1841::legal(&s, 1).actions;
    assert!(legal.contains(&sale("SFTN", 10)), "{legal:?}");
    assert!(!legal.contains(&sale("SFTN", 20)), "{legal:?}");
    let mut after = s.clone();
    let err = G1841::apply(&mut after, 1, &sale("SFTN", 20)).unwrap_err();
    assert_eq!(err.rule, "1841 §14");
    assert!(
        err.message
            .contains("SFTN is the corporation raising the money")
            && err.message.contains("at most 10% may be sold"),
        "{}",
        err.message
    );
    assert_eq!(after, s);
    let mut s = s;
    G1841::apply(&mut s, 1, &sale("SFTN", 10)).unwrap();
    // The proceeds flow down at once (18xx `sweep_cash`): seat 1's L.22 are SFTN's.
    assert_eq!(s.players[1].cash, 0);
    assert_eq!(s.corporation("SFTN").unwrap().cash, 22);
    let sftn = s.corporation("SFTN").unwrap();
    assert_eq!(sftn.president(), Some(&ShareOwner::Player(1)));
    assert_eq!(sftn.percent_of(&ShareOwner::Player(1)), 30);
    assert!(
        !G1841::legal(&s, 1).actions.iter().any(
            |a| matches!(a, Action::EmergencySell { corporation, .. } if corporation == "SFTN")
        ),
        "no further SFTN sale"
    );
}

/// 1841 §14: a refused sale by the controlling player of a corporation in the needy chain
/// whose president is a corporation is judged on his own holding. Seat 2, controlling IFAI
/// through SFTG, holds 10% of IFAI (not its president: SFTG holds the president's certificate,
/// seat 0 holds 20%) and asks to sell 20%: refused for what it is — more than he holds, not
/// a listed sale — and not as a sale that would move IFAI's presidency ("at most 0% may be
/// sold" was said while his 10% sale was listed).
#[test]
fn s14_a_refused_sale_of_a_share_the_player_does_not_preside_names_the_open_sales() {
    let mut s = ifai_needs_its_controllers_shares();
    // Seat 0 back to 10% of SFTG (the sale of seat 2's SFTG share stays open).
    move_shares(
        &mut s,
        "SFTG",
        &ShareOwner::Player(0),
        &ShareOwner::Pool,
        20,
    );
    move_shares(
        &mut s,
        "IFAI",
        &ShareOwner::Pool,
        &ShareOwner::Player(2),
        10,
    );
    move_shares(
        &mut s,
        "IFAI",
        &ShareOwner::Pool,
        &ShareOwner::Player(0),
        20,
    );
    assert_eq!(validate(&s), Ok(()));
    assert!(operating_round::in_emergency(&s));
    let legal = G1841::legal(&s, 2).actions;
    assert!(legal.contains(&sale("IFAI", 10)), "{legal:?}");
    let mut after = s.clone();
    let err = G1841::apply(&mut after, 2, &sale("IFAI", 20)).unwrap_err();
    assert_eq!(after, s);
    assert_eq!(
        (err.code, err.rule.as_str()),
        (RejectionCode::IllegalMove, "1841 §14")
    );
    assert_eq!(
        err.message,
        "The president selling 20% of IFAI is not an emergency sale open now (sales go up the \
         chain of control, only as many shares as needed). Possible now: the president selling \
         10% of SFTG, the president selling 10% of SFTC, the president selling 10% of SB, the \
         president selling 10% of IFAI."
    );
}

/// 1841 §14: a corporation of the needy chain sells, before its own IPO shares, the
/// certificates it holds of other corporations — those of a corporation in the chain too, as
/// long as it stays president (18xx `emr_valid_bundles`, `corp_minimum_to_retain`). Oracle
/// game `lite-5p-s103` (played by 18xx.games' own engine) before its action 200: CGTF must buy
/// a train, has L.155 and nothing left to sell (IPO empty); SFTG, its president with 30% (the
/// president's certificate and CGTF_1, nobody else holding CGTF outside the pool), sells
/// CGTF_1 at half of L.11: ceil(5.5) = L.6, and only then its own IPO shares (action 201).
/// After the sale SFTG's cash, proceeds included, is swept into CGTF up to the cheapest
/// train's price (1841 §14, 18xx `EmergencyAssist#sweep_cash`).
/// Before, Referee skipped every corporation of the chain and offered SFTG's IPO at once.
#[test]
fn s14_a_chain_corporation_sells_its_shares_of_the_needy_one_first() {
    use referee_engine::g1841::import18xx::{ReplaySettings, replay};
    let settings = ReplaySettings {
        check: false,
        stop_at_action_id: Some(199),
    };
    let r = replay(
        &common::fixture("oracle-played/lite-5p-s103-to199.json"),
        &settings,
    );
    assert!(r.failure.is_none(), "{:?}", r.failure);
    let mut state = r.state.expect("state");
    assert_eq!(operating_round::current(&state).as_deref(), Some("CGTF"));
    let cgtf = state.corporation("CGTF").unwrap();
    assert_eq!((cgtf.cash, cgtf.price()), (155, Some(11)));
    assert_eq!(
        cgtf.percent_of(&corp("SFTG")),
        30,
        "SFTG: the president's certificate and CGTF_1"
    );
    let seat = G1841::to_act(&state)[0];
    let sell = |seller: &str, corporation: &str, percent: u32| Action::EmergencySell {
        seller: Some(seller.into()),
        corporation: corporation.into(),
        percent,
    };
    let legal = G1841::legal_actions(&state, seat);
    let sales: Vec<&Action> = legal
        .iter()
        .filter(|a| matches!(a, Action::EmergencySell { .. }))
        .collect();
    assert_eq!(sales, [&sell("SFTG", "CGTF", 10)]);
    let sftg_cash = state.corporation("SFTG").unwrap().cash;
    G1841::apply(&mut state, seat, &sell("SFTG", "CGTF", 10)).unwrap();
    assert_eq!(validate(&state), Ok(()));
    // The proceeds and SFTG's cash flow down to CGTF at once, up to the cheapest train's
    // price (18xx `sweep_cash` after a chain corporation's sale): all of SFTG's L.53 + L.6.
    assert_eq!(sftg_cash, 53);
    assert_eq!(state.corporation("SFTG").unwrap().cash, 0);
    assert_eq!(state.corporation("CGTF").unwrap().cash, 155 + 59);
    let cgtf = state.corporation("CGTF").unwrap();
    assert_eq!(cgtf.president(), Some(&corp("SFTG")));
    assert_eq!(cgtf.percent_of(&corp("SFTG")), 20);
    // Then SFTG's own IPO shares, as 18xx's action 201 (30% of SFTG).
    let legal = G1841::legal_actions(&state, seat);
    assert!(legal.contains(&sell("SFTG", "SFTG", 30)), "{legal:?}");
}

/// The harness game lite, heuristic, 4 players, seed 4001 (`scripts/oracle_harness.py`),
/// replayed to 18xx id 489: phase 6, SFTN (historical, controlled by Player 4, seat 3) must buy
/// the cheapest train, a 6-train at L.800, with L.387. SFTN holds the president's
/// certificates of AFI (20%, nobody else holds AFI: its IPO holds 80%) and CTS (20%, with
/// two more CTS shares: 40%; its IPO holds 60%); neither is in SFTN's chain of control nor
/// historical.
fn sftn_presides_over_afi_and_cts() -> (State, u32) {
    use referee_engine::g1841::import18xx::{ReplaySettings, replay};
    let settings = ReplaySettings {
        check: false,
        stop_at_action_id: Some(489),
    };
    let r = replay(
        &common::fixture("oracle-played/lite-heuristic-4p-s4001-to489.json"),
        &settings,
    );
    assert!(r.failure.is_none(), "{:?}", r.failure);
    let state = r.state.expect("state");
    assert_eq!(state.phase, "6");
    assert_eq!(operating_round::current(&state).as_deref(), Some("SFTN"));
    assert!(operating_round::in_emergency(&state));
    let sftn = corp("SFTN");
    assert_eq!(state.corporation("SFTN").unwrap().cash, 387);
    for (sym, percent, price) in [("AFI", 20, 41), ("CTS", 40, 59)] {
        let c = state.corporation(sym).unwrap();
        assert_eq!(c.president(), Some(&sftn), "{sym}");
        assert_eq!(c.percent_of(&sftn), percent, "{sym}");
        assert_eq!(c.price(), Some(price), "{sym}");
    }
    let seat = G1841::to_act(&state)[0];
    assert_eq!(seat, 3);
    (state, seat)
}

fn sftn_sells(corporation: &str, percent: u32) -> Action {
    Action::EmergencySell {
        seller: Some("SFTN".into()),
        corporation: corporation.into(),
        percent,
    }
}

fn emergency_sales(state: &State, seat: u32) -> Vec<Action> {
    G1841::legal_actions(state, seat)
        .into_iter()
        .filter(|a| matches!(a, Action::EmergencySell { .. }))
        .collect()
}

/// 1841 §14, §5.3, FAQ-C13 ("companies and players may … [put] even its president's
/// certificate, into the pool"; 18xx `emr_valid_bundles`: a corporation outside the needy
/// chain, not historical before phase 4, may be sold in any amount): SFTN may sell its AFI
/// and CTS president's certificates; as nobody else can take either presidency, each goes
/// into the pool, whole while the pool holds no share of it (no 10% half of it, no 30% of
/// CTS), and the corporation is frozen.
/// SFTN's own IPO shares are offered only once it holds no other certificates (18xx
/// `emr_shares_next`). The sales of the harness game (18xx ids 490–492 after the fix):
/// CTS 20% at L.59 → L.59, CTS's president's certificate at L.47 → L.47, AFI's at L.41 →
/// L.41; CTS drops two rows twice, 59 → 47 → 31, AFI two rows, 41 → 27 (the 18xx prices
/// after its ids 490–492). Before, Referee offered only the two ordinary CTS shares and then SFTN's IPO
/// (18xx refused the purchase at id 494: "SFTN must sell shares before buying this train").
#[test]
fn s14_a_corporation_dumps_presidencies_nobody_can_take_into_the_pool() {
    let (mut s, seat) = sftn_presides_over_afi_and_cts();
    assert_eq!(
        emergency_sales(&s, seat),
        [
            sftn_sells("AFI", 20),
            sftn_sells("CTS", 10),
            sftn_sells("CTS", 20),
            sftn_sells("CTS", 40),
        ]
    );
    let bank = s.bank_cash;
    G1841::apply(&mut s, seat, &sftn_sells("CTS", 20)).unwrap();
    assert_eq!(validate(&s), Ok(()));
    assert_eq!(s.corporation("SFTN").unwrap().cash, 387 + 59);
    assert_eq!(s.corporation("CTS").unwrap().price(), Some(47));
    // The president's certificate alone: whole into the pool, or half of it now that the pool
    // holds CTS shares to give one back (interpretation I39; 18xx `can_sell_partial?`; see
    // `s14_half_a_presidents_certificate_goes_into_the_pool_for_a_pool_share`). The harness
    // game sells it whole; CTS is frozen.
    assert_eq!(
        emergency_sales(&s, seat),
        [
            sftn_sells("AFI", 20),
            sftn_sells("CTS", 10),
            sftn_sells("CTS", 20)
        ]
    );
    G1841::apply(&mut s, seat, &sftn_sells("CTS", 20)).unwrap();
    assert_eq!(validate(&s), Ok(()));
    let cts = s.corporation("CTS").unwrap();
    assert_eq!(cts.president(), Some(&ShareOwner::Pool));
    assert_eq!(cts.percent_of(&corp("SFTN")), 0);
    assert_eq!(cts.percent_of(&ShareOwner::Pool), 40);
    assert_eq!(cts.percent_of(&ShareOwner::Ipo), 60);
    assert_eq!(cts.price(), Some(31));
    assert!(referee_engine::g1841::corporation::frozen(&s, "CTS"));
    assert_eq!(s.corporation("SFTN").unwrap().cash, 387 + 59 + 47);
    assert_eq!(emergency_sales(&s, seat), [sftn_sells("AFI", 20)]);
    G1841::apply(&mut s, seat, &sftn_sells("AFI", 20)).unwrap();
    assert_eq!(validate(&s), Ok(()));
    let afi = s.corporation("AFI").unwrap();
    assert_eq!(afi.president(), Some(&ShareOwner::Pool));
    assert_eq!(afi.percent_of(&ShareOwner::Pool), 20);
    assert_eq!(afi.price(), Some(27));
    assert!(referee_engine::g1841::corporation::frozen(&s, "AFI"));
    assert_eq!(s.corporation("SFTN").unwrap().cash, 387 + 59 + 47 + 41);
    assert_eq!(s.bank_cash, bank - 59 - 47 - 41);
    // Nothing of others left: SFTN's own IPO shares (five, at L.117).
    let sales = emergency_sales(&s, seat);
    assert_eq!(sales.first(), Some(&sftn_sells("SFTN", 10)));
    assert!(
        sales.iter().all(
            |a| matches!(a, Action::EmergencySell { corporation, .. } if corporation == "SFTN")
        )
    );
}

/// 1841 §14, FAQ-C13, interpretation I39 (18xx `can_sell_partial?`, `handle_partial`): once
/// SFTN has sold its two ordinary CTS shares (L.59, CTS at L.47, the pool holding 20%), it may
/// put half of CTS's president's certificate into the pool: the certificate goes in and the
/// pool gives one of its shares back. SFTN is paid ceil(1 × 47 ÷ 2) = L.24 for the 10% and
/// keeps 10% of CTS; the pool holds the certificate and one share (30%); CTS drops one row
/// (47 → 39) and is frozen. SFTN's last CTS share is then an ordinary sale (10%).
#[test]
fn s14_half_a_presidents_certificate_goes_into_the_pool_for_a_pool_share() {
    let (mut s, seat) = sftn_presides_over_afi_and_cts();
    G1841::apply(&mut s, seat, &sftn_sells("CTS", 20)).unwrap();
    let (bank, cash) = (s.bank_cash, s.corporation("SFTN").unwrap().cash);
    assert_eq!(cash, 387 + 59);
    G1841::apply(&mut s, seat, &sftn_sells("CTS", 10)).unwrap();
    assert_eq!(validate(&s), Ok(()));
    let cts = s.corporation("CTS").unwrap();
    assert_eq!(cts.president(), Some(&ShareOwner::Pool));
    assert_eq!(
        (
            cts.percent_of(&corp("SFTN")),
            cts.percent_of(&ShareOwner::Pool),
            cts.percent_of(&ShareOwner::Ipo),
            cts.price()
        ),
        (10, 30, 60, Some(39))
    );
    assert!(
        cts.certificates
            .iter()
            .any(|k| k.president && k.owner == ShareOwner::Pool)
    );
    assert!(referee_engine::g1841::corporation::frozen(&s, "CTS"));
    assert_eq!(s.corporation("SFTN").unwrap().cash, cash + 24);
    assert_eq!(s.bank_cash, bank - 24);
    assert_eq!(
        emergency_sales(&s, seat),
        [sftn_sells("AFI", 20), sftn_sells("CTS", 10)]
    );
}

/// 1841 §5.3, §14, FAQ-C13: the same position with Player 1 (seat 0) holding 20% of CTS
/// (from its IPO): SFTN's 30% sale of CTS dumps the presidency on him — he takes the
/// president's certificate for his two shares — and SFTN keeps one share (10%). It is paid
/// ceil(3 × 59 ÷ 2) = L.89 and CTS drops three rows (59 → 54 → 47 → 39); CTS stays unfrozen.
/// 18xx moves the certificates the same way (`transfer_shares`, `change_president`,
/// `handle_partial`).
#[test]
fn s14_a_corporation_dumps_a_presidency_on_the_next_holder() {
    let (mut s, seat) = sftn_presides_over_afi_and_cts();
    move_shares(&mut s, "CTS", &ShareOwner::Ipo, &ShareOwner::Player(0), 20);
    assert_eq!(validate(&s), Ok(()));
    let sales = emergency_sales(&s, seat);
    assert!(sales.contains(&sftn_sells("CTS", 30)), "{sales:?}");
    let p0 = s.players[0].cash;
    G1841::apply(&mut s, seat, &sftn_sells("CTS", 30)).unwrap();
    assert_eq!(validate(&s), Ok(()));
    let cts = s.corporation("CTS").unwrap();
    assert_eq!(cts.president(), Some(&ShareOwner::Player(0)));
    assert_eq!(cts.percent_of(&ShareOwner::Player(0)), 20);
    assert_eq!(cts.percent_of(&corp("SFTN")), 10);
    assert_eq!(cts.percent_of(&ShareOwner::Pool), 30);
    assert_eq!(cts.percent_of(&ShareOwner::Ipo), 40);
    assert_eq!(cts.price(), Some(39));
    assert!(!referee_engine::g1841::corporation::frozen(&s, "CTS"));
    assert_eq!(s.corporation("SFTN").unwrap().cash, 387 + 89);
    assert_eq!(s.players[0].cash, p0);
}

/// 1841 §14, §5.3: a bankrupt's remaining certificates go into the pool "regardless of
/// presidency restrictions", but a president's certificate among them passes, as in any sale,
/// to the holder who then has the most when he holds at least its size (18xx.games:
/// `G1841::Step::Bankrupt` sells the rest with `allow_president_change: true`); only with
/// nobody such does it end in the pool (the corporation frozen). Seat 1, SFTN's president
/// (40%) raising money for SFTN, goes bankrupt: his sale with drops may not move SFTN's
/// presidency (10%, as above); of the other 30%, the president's certificate passes to seat 3
/// (30%), who gives two shares for it, and those go into the pool with the rest. SFTN keeps
/// a president and is not frozen (it used to go into the pool, SFTN frozen; harness
/// version_1 random 3 players seed 3001, 18xx id 706). Its turn ends with the bankruptcy.
#[test]
fn s14_a_bankrupts_presidency_passes_to_a_holder_with_enough() {
    let mut s = sftn_needs_its_presidents_shares();
    let bankrupt = Action::DeclareBankruptcy { loan: true };
    assert!(G1841::legal(&s, 1).actions.contains(&bankrupt));
    let events = G1841::apply(&mut s, 1, &bankrupt).unwrap();
    let sftn = s.corporation("SFTN").unwrap();
    assert_eq!(sftn.president(), Some(&ShareOwner::Player(3)));
    assert_eq!(sftn.percent_of(&ShareOwner::Player(3)), 30);
    assert_eq!(sftn.percent_of(&ShareOwner::Player(1)), 0);
    assert_eq!(sftn.percent_of(&ShareOwner::Pool), 70);
    assert!(events.iter().any(|e| matches!(e,
        referee_engine::g1841::Event::PresidentChanged { corporation, seat: 3 } if corporation == "SFTN")));
    assert!(!referee_engine::g1841::stock_round::frozen(&s, "SFTN"));
    // The bankruptcy ends SFTN's turn, though seat 3 could go on for it (18xx.games:
    // `done_operating!`).
    let referee_engine::g1841::Round::OperatingRound(r) = &s.round else {
        panic!("an operating round")
    };
    // SFTN was the last to operate: the next operating round begins with AFI.
    assert_eq!(
        (r.current.as_deref(), r.step),
        (Some("AFI"), referee_engine::g1841::OperatingStep::Track)
    );
    assert_eq!(validate(&s), Ok(()));
}

/// [`sftn_needs_its_presidents_shares`] with the depot down to the L.1,100 7-trains (the
/// trains sold on top of the recorded ones set aside as rusted, so trains stay conserved).
fn sftn_president_bankrupt() -> State {
    let mut s = sftn_needs_its_presidents_shares();
    common::depot_down_to_7_trains(&mut s);
    assert_eq!(validate(&s), Ok(()));
    s
}

/// 1841 §14 (18xx `G1841::Step::Bankrupt`: `done_operating!`, `done_this_round`): a
/// bankruptcy ends the corporation's turn — no corporate share step, merger or
/// transformation follows, even for a president who takes the L.500 loan and plays on.
/// Seat 1 takes the loan (L.500, all else sold); SFTN, the last of the round to operate, has
/// operated, and the round's second operating round begins with AFI.
#[test]
fn s14_a_bankruptcy_ends_the_corporations_turn() {
    let mut s = sftn_president_bankrupt();
    let events = G1841::apply(&mut s, 1, &Action::DeclareBankruptcy { loan: true }).unwrap();
    assert!(s.corporation("SFTN").unwrap().operated);
    assert!(
        events.ends_with(&[
            Event::Bankrupt {
                seat: 1,
                corporation: "SFTN".into(),
                loan: true,
            },
            Event::RoundStarted {
                name: "Operating Round 3.2".into(),
            },
            Event::OperatingTurn {
                corporation: "AFI".into(),
            },
        ]),
        "{events:?}"
    );
    assert_eq!(operating_round::current(&s).as_deref(), Some("AFI"));
    assert_eq!((s.players[1].cash, s.players[1].loan), (500, 500));
}

/// 1841 §14: the bankrupt's sales with drops take the corporations in operating order as it
/// stands before them (the rules give no order; 18xx.games sells
/// `shares_by_corporation(sorted: true)`), so two corporations dropped from one cell keep
/// their order in the cell below. [`sftn_president_bankrupt`] with seat 1 also holding 10% of
/// SFTC and 10% of SFTG (both L.69, row 8, column 8, SFTC arrived first; SFTG comes first in
/// the list of corporations): SB, SFTC, SFTG are sold in that order (SB to L.106), both drop to L.53 (row 9)
/// and SFTC still operates before SFTG (before 2026-12-06: list order, SFTG sold and dropped
/// first, then operating before SFTC; v2 heuristic 6 players seed 6012, 18xx id 1124).
#[test]
fn s14_a_bankrupts_sales_go_in_operating_order() {
    use referee_engine::g1841::market;
    let mut s = sftn_president_bankrupt();
    move_shares(
        &mut s,
        "SFTC",
        &ShareOwner::Pool,
        &ShareOwner::Player(1),
        10,
    );
    move_shares(
        &mut s,
        "SFTG",
        &ShareOwner::Pool,
        &ShareOwner::Player(1),
        10,
    );
    assert_eq!(validate(&s), Ok(()));
    let order = market::operating_order(&s);
    assert_eq!(order[5..7], ["SFTC", "SFTG"]);
    let events = G1841::apply(&mut s, 1, &Action::DeclareBankruptcy { loan: true }).unwrap();
    let dropped: Vec<(String, i64)> = events
        .iter()
        .filter_map(|e| match e {
            Event::SharePriceChanged {
                corporation, price, ..
            } => Some((corporation.clone(), *price)),
            _ => None,
        })
        .take(3)
        .collect();
    assert_eq!(
        dropped,
        [
            ("SB".to_string(), 106),
            ("SFTC".to_string(), 53),
            ("SFTG".to_string(), 53)
        ]
    );
    let order = market::operating_order(&s);
    let at_53: Vec<&str> = order
        .iter()
        .map(String::as_str)
        .filter(|c| s.corporation(c).unwrap().price() == Some(53))
        .collect();
    assert_eq!(at_53, ["SFTC", "SFTG"]);
}
