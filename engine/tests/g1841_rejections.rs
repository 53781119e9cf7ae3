//! Rejections that name the rule that refused (1841 §5.1, §7.3, §9.5, §14): a player or a
//! corporation told why, in a sentence it understands, on positions of the recorded lite game
//! `1841_game_end_bank` (edited where said; certificates and money stay conserved).

use referee_engine::g1841::validate::validate;
use referee_engine::g1841::{Action, G1841, OperatingStep, Round, ShareOwner, State};
use referee_engine::{Game, RejectionCode};

mod common;
use common::{move_shares, recorded_states, set_cash};

/// The stock round of state 150: seat 2 (30% of SFTG, its president) given 40% more of
/// SFTG from the pool — he controls 70% — and L.200.
fn seat_2_over_60_percent() -> State {
    let mut s = recorded_states("1841_game_end_bank").swap_remove(150);
    assert!(matches!(s.round, Round::StockRound(_)));
    assert_eq!(G1841::to_act(&s), [2]);
    move_shares(
        &mut s,
        "SFTG",
        &ShareOwner::Pool,
        &ShareOwner::Player(2),
        40,
    );
    set_cash(&mut s, &ShareOwner::Player(2), 200);
    assert_eq!(validate(&s), Ok(()));
    s
}

/// 1841 §5.1, §7.3 (FAQ-Q9): a player controlling more than 60% of a corporation must sell
/// first. Buying a L.62 SFTN share with L.200, starting nothing and passing are refused
/// with the 60% limit named (not "the certificate costs L.62"); the sales are listed.
#[test]
fn s7_3_a_purchase_refused_by_the_60_percent_limit_says_so() {
    let s = seat_2_over_60_percent();
    let buy = Action::BuyShares {
        corporation: "SFTN".into(),
        from_pool: false,
        percent: 10,
    };
    for action in [buy, Action::Pass] {
        let err = G1841::apply(&mut s.clone(), 2, &action).unwrap_err();
        assert_eq!(
            (err.code, err.rule.as_str()),
            (RejectionCode::IllegalMove, "1841 §7.3"),
            "{action:?}"
        );
        assert!(
            err.message.starts_with(
                "Seat 2 controls 70% of SFTG (his own shares and his corporations'), more \
                 than 60%: he must sell first. Sales possible now: "
            ),
            "{}",
            err.message
        );
        assert!(err.message.contains("10% of SFTG"), "{}", err.message);
    }
}

/// 1841 §9.5: a corporation keeps at least one token in a city. State 62 (SFTN in its
/// token-purchase step): buying SFTC's only city token, in M3, is refused by naming that
/// rule, not as a token SFTC does not have.
#[test]
fn s9_5_the_last_city_token_is_not_for_sale() {
    let s = recorded_states("1841_game_end_bank").swap_remove(62);
    let Round::OperatingRound(r) = &s.round else {
        panic!("an operating round")
    };
    assert_eq!(
        (r.current.as_deref(), r.step),
        (Some("SFTN"), OperatingStep::BuyToken)
    );
    let seat = G1841::to_act(&s)[0];
    let err = G1841::apply(
        &mut s.clone(),
        seat,
        &Action::BuyToken {
            hex: "M3".into(),
            city: 0,
            seller: "SFTC".into(),
            price: 1,
        },
    )
    .unwrap_err();
    assert_eq!(
        (err.code, err.rule.as_str()),
        (RejectionCode::IllegalMove, "1841 §9.5")
    );
    assert!(
        err.message.starts_with(
            "The token on M3 city 0 is SFTC's last city token: a corporation keeps at least \
             one token in a city (only a token in a pass can always be sold)."
        ),
        "{}",
        err.message
    );
}

/// 1841 §14: in emergency money raising, before the chain's sales cover the cheapest train,
/// a train purchase is refused because shares must be sold first (the sales are listed),
/// not with "cannot buy a train now". Phase 4, SFTN at L.0, its president seat 1 at L.0 with
/// his SFTN and SB shares to sell (the position of `g1841_emergency`).
#[test]
fn s14_a_train_purchase_before_the_emergency_sales_names_them() {
    let mut s = recorded_states("1841_game_end_bank").swap_remove(206);
    move_shares(
        &mut s,
        "ATFA",
        &ShareOwner::Corporation("SFTN".into()),
        &ShareOwner::Pool,
        20,
    );
    // SFTN's ATFA president's certificate too, which it could dump in an emergency (1841 §14,
    // FAQ-C13): into the pool (ATFA frozen), as in `g1841_emergency`.
    let atfa = s.corporations.iter_mut().find(|c| c.sym == "ATFA").unwrap();
    let pres = atfa.certificates.iter_mut().find(|k| k.president).unwrap();
    assert_eq!(pres.owner, ShareOwner::Corporation("SFTN".into()));
    pres.owner = ShareOwner::Pool;
    move_shares(&mut s, "SFTN", &ShareOwner::Ipo, &ShareOwner::Pool, 20);
    set_cash(&mut s, &ShareOwner::Corporation("SFTN".into()), 0);
    set_cash(&mut s, &ShareOwner::Player(1), 0);
    assert_eq!(validate(&s), Ok(()));
    let Some(Action::BuyTrain { train, from, price }) =
        referee_engine::g1841::operating_round::depot_train(&s).map(|(train, price)| {
            Action::BuyTrain {
                train,
                from: "depot".into(),
                price,
            }
        })
    else {
        panic!("a depot train")
    };
    let err = G1841::apply(
        &mut s.clone(),
        1,
        &Action::BuyTrain {
            train: train.clone(),
            from,
            price,
        },
    )
    .unwrap_err();
    assert_eq!(
        (err.code, err.rule.as_str()),
        (RejectionCode::IllegalMove, "1841 §14")
    );
    assert!(
        err.message.starts_with(&format!(
            "SFTN is raising money in an emergency: the cheapest train ({train} from depot for \
             L.{price}) costs more than the cash of its chain of control, so shares must be sold \
             first. Possible now: "
        )),
        "{}",
        err.message
    );
    assert!(
        err.message.contains("the president selling 10% of SFTN"),
        "{}",
        err.message
    );
}
