//! When the corporate share step (1841 §9.7) waits for the corporation although it can only
//! pass (interpretation I35, `operating_round::shares_step_open`): as 18xx.games, whose step
//! lists a `par` whenever the treasury can pay the first IPO certificate of a corporation it
//! may par, at L.68 a unit.

use referee_engine::Game;
use referee_engine::g1841::{Action, G1841, OperatingStep, Round, ShareOwner, State};

mod common;
use common::{before_in, set_cash};

/// The lite recorded game just before action 720: IFAI (phase 8, L.1547 in its treasury)
/// buys the 8-train 8-1 from the depot for L.1450, leaving L.97. IRSFF closed at the split
/// (1841 §12.4) with three of its shares still unsold in its IPO.
fn ifai_buying_its_8_train() -> State {
    let s = before_in("1841_game_end_bank", 720);
    let Round::OperatingRound(r) = &s.round else {
        panic!("an operating round")
    };
    assert_eq!(
        (r.current.as_deref(), r.step),
        (Some("IFAI"), OperatingStep::Trains)
    );
    assert_eq!(s.corporation("IFAI").unwrap().cash, 1547);
    let irsff = s.corporation("IRSFF").unwrap();
    assert!(irsff.closed && irsff.historical);
    s
}

fn buy_8_train(s: &mut State) {
    let seat = G1841::to_act(s)[0];
    G1841::apply(
        s,
        seat,
        &Action::BuyTrain {
            train: "8-1".into(),
            from: "depot".into(),
            price: 1450,
        },
    )
    .unwrap();
}

/// Where IFAI is after its purchase: its step, or `None` when its turn is over.
fn ifai_step(s: &State) -> Option<OperatingStep> {
    let Round::OperatingRound(r) = &s.round else {
        panic!("an operating round")
    };
    (r.current.as_deref() == Some("IFAI")).then_some(r.step)
}

/// I35, lite action 721: IRSFF kept unsold IPO shares through the split, so 18xx.games' first
/// IRSFF certificate is a 10% share at L.68, which IFAI's L.97 pays: 18xx opens the share
/// step (its `par` of the closed IRSFF is never a real start, §3.4) and IFAI passes it (721)
/// before passing its merger step (722). Referee opens it as well, with a pass alone.
#[test]
fn i35_a_closed_historical_with_unsold_ipo_shares_opens_the_step_from_l68() {
    let mut s = ifai_buying_its_8_train();
    assert!(s.corporation("IRSFF").unwrap().ipo_first_share_ordinary);
    buy_8_train(&mut s);
    assert_eq!(s.corporation("IFAI").unwrap().cash, 97);
    assert_eq!(ifai_step(&s), Some(OperatingStep::Shares));
    let seat = G1841::to_act(&s)[0];
    assert_eq!(G1841::legal(&s, seat).actions, [Action::Pass]);
}

/// I35: with the president's certificate first in the closed corporation's IPO (L.136 at the
/// lowest par), the same L.97 opens no step: IFAI goes straight on to its merger step, as
/// it does with L.135; with L.136 the step waits, where IFAI may start any of the eleven
/// non-historical corporations at L.68 (1841 §5.4, §9.7) or pass.
#[test]
fn i35_otherwise_the_step_waits_only_from_twice_the_lowest_par() {
    for (extra, open) in [(0, false), (38, false), (39, true)] {
        let mut s = ifai_buying_its_8_train();
        for c in s.corporations.iter_mut().filter(|c| c.closed) {
            c.ipo_first_share_ordinary = false;
        }
        set_cash(
            &mut s,
            &ShareOwner::Corporation("IFAI".into()),
            1547 + extra,
        );
        buy_8_train(&mut s);
        assert_eq!(s.corporation("IFAI").unwrap().cash, 97 + extra);
        if open {
            assert_eq!(
                ifai_step(&s),
                Some(OperatingStep::Shares),
                "L.{}",
                97 + extra
            );
            let seat = G1841::to_act(&s)[0];
            let mut listed: Vec<Action> = [
                "AFI", "ATFA", "CGTF", "CTDA", "CTS", "ICSF", "ILTF", "RATF", "CTLP", "FTP", "SLDV",
            ]
            .iter()
            .map(|c| Action::Par {
                corporation: (*c).into(),
                price: 68,
            })
            .collect();
            listed.push(Action::Pass);
            assert_eq!(G1841::legal(&s, seat).actions, listed);
        } else {
            assert_eq!(
                ifai_step(&s),
                Some(OperatingStep::Merge),
                "L.{}",
                97 + extra
            );
        }
    }
}

/// The flag belongs to closed corporations only: a state giving it to an open one is
/// refused.
#[test]
fn i35_the_flag_of_an_open_corporation_is_refused() {
    let mut s = ifai_buying_its_8_train();
    s.corporations
        .iter_mut()
        .find(|c| c.sym == "IFAI")
        .unwrap()
        .ipo_first_share_ordinary = true;
    let e = referee_engine::g1841::validate::validate(&s).unwrap_err();
    assert!(e.to_string().contains("ipo_first_share_ordinary"), "{e}");
}
