//! Emergency money raising (1841 §14, rule {4.5.1}): an emergency sale never moves the
//! presidency of the needy corporation or of a corporation above it in its chain of control.
//! Positions are taken from the recorded lite game `1841_game_end_bank` and edited: the
//! certificates moved stay conserved, and every edited position passes the state validator.

use referee_engine::g1841::operating_round;
use referee_engine::g1841::validate::validate;
use referee_engine::g1841::{Action, G1841, ShareOwner, State};
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
/// certificate and two shares, 40%). Edited so that SFTN has nothing to sell (its ATFA share
/// and its IPO shares in the pool) and no cash, seat 1 has no cash, and seat 3 holds 30% of
/// SFTN (from the pool).
fn sftn_needs_its_presidents_shares() -> State {
    let mut s = recorded_states("1841_game_end_bank").swap_remove(206);
    assert_eq!(s.phase, "4");
    move_shares(&mut s, "ATFA", &corp("SFTN"), &ShareOwner::Pool, 20);
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
/// The 10% sale pays ceil(1 × 43 ÷ 2) = L.22 and leaves seat 1 president.
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
    assert_eq!(s.players[1].cash, 22);
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
