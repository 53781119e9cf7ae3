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

/// 1841 §5.3, §7.5, §9.7: a corporation's sale in its share step hands the presidency over
/// when another holder then holds more than it (18xx `sell_shares_and_change_price` with
/// `allow_president_change`). Version 1 with `sfli_run_variant`, 6 players, played by
/// 18xx.games' own engine (`scripts/oracle_random.rb --mode version_1+sfli --players 0 --seed
/// 80008`, cut after id 305): SFTN, president of IFAI with its 20% certificate and a 10%
/// share, sells 30% of IFAI at L.16 in its share step (id 304, IFAI_1 and IFAI_0); Player 5
/// (seat 4), holding 30% in three 10% shares, takes the presidency and hands two of them to
/// the pool for the president's certificate. SFTN receives 3 × L.16 = L.48 (L.86 → L.134),
/// IFAI drops from L.16 to L.8 and the pool holds 30% of it, as in 18xx.games.
///
/// (The earlier excerpt, a Referee export of lite heuristic 3 players seed 3003 cut after id
/// 633, placed a token the engine now refuses at id 326, §9.2.)
#[test]
fn s9_7_a_corporate_sale_hands_the_presidency_over() {
    use referee_engine::g1841::import18xx::{ReplaySettings, replay};
    let text = std::fs::read_to_string(format!(
        "{}/../tests/fixtures/1841/oracle-played/version_1+sfli-6p-s80008-to305.json",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let at = |id: i64| {
        let r = replay(
            &text,
            &ReplaySettings {
                check: false,
                stop_at_action_id: Some(id),
            },
        );
        assert_eq!(r.failure, None);
        r.state.unwrap()
    };
    let holdings = |s: &State, owner: &ShareOwner| -> Vec<(u32, bool)> {
        let mut v: Vec<(u32, bool)> = s
            .corporation("IFAI")
            .unwrap()
            .certificates
            .iter()
            .filter(|c| c.owner == *owner)
            .map(|c| (c.percent, c.president))
            .collect();
        v.sort();
        v.reverse();
        v
    };
    let sftn = ShareOwner::Corporation("SFTN".into());
    let before = at(303);
    assert_eq!(holdings(&before, &sftn), [(20, true), (10, false)]);
    assert_eq!(
        holdings(&before, &ShareOwner::Player(4)),
        [(10, false), (10, false), (10, false)]
    );
    assert_eq!(before.corporation("SFTN").unwrap().cash, 86);
    assert_eq!(before.corporation("IFAI").unwrap().price(), Some(16));
    let after = at(304);
    assert_eq!(holdings(&after, &sftn), []);
    assert_eq!(
        holdings(&after, &ShareOwner::Player(4)),
        [(20, true), (10, false)]
    );
    assert_eq!(
        holdings(&after, &ShareOwner::Pool),
        [(10, false), (10, false), (10, false)]
    );
    assert_eq!(after.corporation("SFTN").unwrap().cash, 134);
    assert_eq!(after.corporation("IFAI").unwrap().price(), Some(8));
}
