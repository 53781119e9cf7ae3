//! The 60% control limit in the corporate share step (1841 §7.3, FAQ-C7, FAQ-Q11): a
//! corporation whose controlling player controls more than 60% of a corporation it holds
//! shares of must sell them before it may buy, start a corporation or pass.

use referee_engine::g1841::{Action, G1841, OperatingStep, Round, ShareOwner, State};
use referee_engine::{Game, RejectionCode};

mod common;
use common::{move_shares, recorded_states};

fn sell(corporation: &str, percent: u32) -> Action {
    Action::SellShares {
        corporation: corporation.into(),
        percent,
    }
}

/// The lite game in phase 4, SFTC (controlled by Player 1, seat 0) in its share step. SFTC
/// holds 30% of AFI (the president's certificate and one share); seat 0 is given 50% of AFI
/// from its IPO, so he controls 80% of AFI (FAQ-Q11's numbers: his own 50%, plus the 30% of
/// the corporation he controls).
fn sftc_over_the_limit() -> State {
    let mut s = recorded_states("1841_game_end_bank").swap_remove(193);
    move_shares(&mut s, "AFI", &ShareOwner::Ipo, &ShareOwner::Player(0), 50);
    let Round::OperatingRound(r) = &s.round else {
        panic!("an operating round")
    };
    assert_eq!(
        (r.current.as_deref(), r.step),
        (Some("SFTC"), OperatingStep::Shares)
    );
    assert_eq!(
        referee_engine::g1841::corporation::controlled_percent(&s, 0, "AFI"),
        80
    );
    assert_eq!(referee_engine::g1841::validate::validate(&s), Ok(()));
    s
}

/// 1841 §7.3, FAQ-C7 (the next share step of one of his corporations comes before his next
/// stock-round turn), FAQ-Q11 (it sells even if he stays over 60%): SFTC may only sell AFI —
/// its one share, or beyond it out of its president's certificate, seat 0 (50%) being there
/// to take the presidency (§9.7 "same limits as player sales", §5.3; 18xx offers 10%, 20%
/// and 30%) — no purchase, no start, no pass; the refused pass names §7.3 and the 80%.
/// After the sale seat 0 (50%) holds more AFI than SFTC (20%), so he takes AFI's presidency
/// and hands SFTC two 10% shares for the president's certificate (1841 §5.3, §7.5, §9.7);
/// he still controls 70% of AFI, so SFTC must sell again: 10% or 20%. After a second 10%
/// he controls 60% and SFTC may pass, buy or start again.
#[test]
fn s7_3_a_corporation_over_the_limit_sells_in_its_share_step() {
    let mut s = sftc_over_the_limit();
    assert_eq!(
        G1841::legal(&s, 0).actions,
        [sell("AFI", 10), sell("AFI", 20), sell("AFI", 30)]
    );
    let before = s.clone();
    let err = G1841::apply(&mut s, 0, &Action::Pass).unwrap_err();
    assert_eq!(
        (err.code, err.rule.as_str()),
        (RejectionCode::IllegalMove, "1841 §7.3")
    );
    assert_eq!(
        err.message,
        "Seat 0, who controls SFTC, controls 80% of AFI (his own shares and his \
         corporations'), more than 60%: SFTC must sell its AFI shares first (1841 §7.3, \
         FAQ-C7, FAQ-Q11). Possible now: selling 10% of AFI, selling 20% of AFI, selling 30% of \
         AFI."
    );
    let buy = Action::BuyShares {
        corporation: "ATFA".into(),
        from_pool: false,
        percent: 10,
    };
    assert_eq!(G1841::apply(&mut s, 0, &buy).unwrap_err().rule, "1841 §7.3");
    assert_eq!(s, before, "refused actions leave the state unchanged");
    G1841::apply(&mut s, 0, &sell("AFI", 10)).unwrap();
    assert_eq!(
        referee_engine::g1841::corporation::controlled_percent(&s, 0, "AFI"),
        70
    );
    let afi = s.corporation("AFI").unwrap();
    let holdings = |owner: &ShareOwner| -> Vec<(u32, bool)> {
        afi.certificates
            .iter()
            .filter(|c| c.owner == *owner)
            .map(|c| (c.percent, c.president))
            .collect()
    };
    assert_eq!(
        holdings(&ShareOwner::Corporation("SFTC".into())),
        [(10, false), (10, false)]
    );
    assert_eq!(holdings(&ShareOwner::Player(0)).first(), Some(&(20, true)));
    assert_eq!(
        G1841::legal(&s, 0).actions,
        [sell("AFI", 10), sell("AFI", 20)]
    );
    G1841::apply(&mut s, 0, &sell("AFI", 10)).unwrap();
    assert_eq!(
        referee_engine::g1841::corporation::controlled_percent(&s, 0, "AFI"),
        60
    );
    let legal = G1841::legal(&s, 0).actions;
    assert!(legal.contains(&Action::Pass), "{legal:?}");
    assert!(legal.contains(&buy), "{legal:?}");
    G1841::apply(&mut s, 0, &Action::Pass).unwrap();
}

/// 1841 §9.7 (a corporation sells "with the same limits as player sales"), §5.3 (a president
/// may sell his president's certificate when another holder can take the presidency): SFTC
/// sells all its 30% of AFI, the president's certificate included. Seat 0 (50%) takes AFI's
/// presidency for two of his shares, which go to the pool with SFTC's share: SFTC holds no
/// AFI, the pool 30% more, seat 0 the president's certificate and 30%; SFTC is paid three
/// units at AFI's price and AFI drops three rows (18xx.games' corporate share step offers
/// the same sale: v2 4 players seed 4014, id 645).
#[test]
fn s9_7_a_corporation_sells_out_of_a_presidency_another_holder_takes() {
    let mut s = sftc_over_the_limit();
    let sftc = ShareOwner::Corporation("SFTC".into());
    let afi = s.corporation("AFI").unwrap();
    let price = afi.price().unwrap();
    let pool_before = afi.pool_percent();
    let cash_before = s.corporation("SFTC").unwrap().cash;
    let cell = afi.share_price.unwrap();
    G1841::apply(&mut s, 0, &sell("AFI", 30)).unwrap();
    let afi = s.corporation("AFI").unwrap();
    assert_eq!(afi.president(), Some(&ShareOwner::Player(0)));
    assert_eq!(afi.percent_of(&sftc), 0);
    assert_eq!(afi.percent_of(&ShareOwner::Player(0)), 50);
    assert_eq!(afi.pool_percent(), pool_before + 30);
    assert_eq!(s.corporation("SFTC").unwrap().cash, cash_before + 3 * price);
    assert_eq!(afi.share_price.unwrap().row, cell.row + 3);
    assert_eq!(referee_engine::g1841::validate::validate(&s), Ok(()));
}

/// Without the extra AFI shares (seat 0 controls 30% of AFI) nothing forces SFTC: its share
/// step offers the AFI sale, purchases, starts and the pass, as recorded.
#[test]
fn s7_3_within_the_limit_the_share_step_is_free() {
    let s = recorded_states("1841_game_end_bank").swap_remove(193);
    let legal = G1841::legal(&s, 0).actions;
    assert_eq!(legal.first(), Some(&sell("AFI", 10)));
    assert_eq!(legal.last(), Some(&Action::Pass));
    assert_eq!(legal.len(), 21);
}

/// 1841 §7.5 (18xx `player_distance_for_president`: the players from the old president on,
/// then `corporations.sort`, the operating order of 1841 §6): of two corporations holding as
/// much, the one first in operating order takes a presidency, not the one first in the
/// corporation list. The lite game in phase 5: SFTG (L.69, 7th in operating order, 2nd in the
/// list) and ATFA (L.177, 1st in operating order, 8th in the list) each given 20% of SFL from
/// its IPO; seat 3 (SFL's president, the president's certificate alone) dumps it into the
/// pool: ATFA becomes SFL's president and hands two shares to the pool for the certificate.
/// Before, SFTG did (harness game v2 4 players seed 4001, 18xx id 373: Player 1's
/// sale of SFTN gave 18xx's presidency to ATFA, ours to SFTG).
#[test]
fn s7_5_corporations_tied_for_a_presidency_rank_in_operating_order() {
    let mut s = recorded_states("1841_game_end_bank").swap_remove(220);
    assert_eq!(s.phase, "5");
    let order = referee_engine::g1841::market::operating_order(&s);
    assert_eq!(order.iter().position(|c| c == "ATFA"), Some(0));
    assert_eq!(order.iter().position(|c| c == "SFTG"), Some(6));
    let sftg = ShareOwner::Corporation("SFTG".into());
    let atfa = ShareOwner::Corporation("ATFA".into());
    move_shares(&mut s, "SFL", &ShareOwner::Ipo, &sftg, 20);
    move_shares(&mut s, "SFL", &ShareOwner::Ipo, &atfa, 20);
    let sfl = s.corporations.iter_mut().find(|c| c.sym == "SFL").unwrap();
    let pres = sfl.certificates.iter_mut().find(|k| k.president).unwrap();
    assert_eq!(pres.owner, ShareOwner::Player(3));
    pres.owner = ShareOwner::Pool;
    let mut events = Vec::new();
    referee_engine::g1841::corporation::update_presidency(&mut s, "SFL", Some(3), &mut events);
    let sfl = s.corporation("SFL").unwrap();
    assert_eq!(sfl.president(), Some(&atfa));
    assert_eq!(sfl.percent_of(&atfa), 20);
    assert_eq!(sfl.percent_of(&sftg), 20);
    assert_eq!(sfl.pool_percent(), 20);
    assert_eq!(
        events.first(),
        Some(&referee_engine::g1841::Event::PresidencyMoved {
            corporation: "SFL".into(),
            president: atfa.clone(),
        }),
        "{events:?}"
    );
}
