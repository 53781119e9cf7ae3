//! Rule tests of the 1841 concession round (1841 §4), named after the rule they pin.

use referee_engine::g1841::{
    Action, Concession, Event, G1841, Options, Round, SealedBid, State, concession_round,
};
use referee_engine::{Game, GameStage, RejectionCode, Seat, Viewer};

fn v2(n: u32) -> State {
    G1841::setup(&Options::default(), n, 0).unwrap()
}

fn v1(n: u32) -> State {
    G1841::setup(
        &Options {
            version_1: true,
            ..Options::default()
        },
        n,
        0,
    )
    .unwrap()
}

fn lite(n: u32) -> State {
    G1841::setup(
        &Options {
            lite: true,
            ..Options::default()
        },
        n,
        0,
    )
    .unwrap()
}

fn bid(c: &str, price: i64) -> Action {
    Action::Bid {
        concession: c.to_string(),
        price,
    }
}

fn blind(amounts: &[i64]) -> Action {
    Action::BlindBid {
        amounts: amounts.to_vec(),
    }
}

/// Applies and expects success.
fn ok(s: &mut State, seat: Seat, a: Action) -> Vec<Event> {
    G1841::apply(s, seat, &a).unwrap_or_else(|r| panic!("seat {seat} {a:?} rejected: {r}"))
}

/// Applies and expects a rejection with `code`, the state unchanged.
fn rejected(s: &mut State, seat: Seat, a: Action, code: RejectionCode, rule: &str) {
    let before = s.clone();
    let r = G1841::apply(s, seat, &a).expect_err("should be rejected");
    assert_eq!(r.code, code, "{r}");
    assert_eq!(r.rule, rule, "{r}");
    assert!(!r.message.is_empty() && r.message.ends_with('.'), "{r}");
    assert_eq!(*s, before, "state changed by a rejected action");
}

fn round(s: &State) -> &referee_engine::g1841::ConcessionRound {
    s.concession_round().expect("concession round")
}

/// Seat `nominator` nominates `c` at `price`, every other bidder drops out.
fn buy_uncontested(s: &mut State, nominator: Seat, c: &str, price: i64) {
    ok(s, nominator, bid(c, price));
    while s.concession_round().is_some_and(|r| r.auction.is_some()) {
        let who = G1841::to_act(s)[0];
        ok(s, who, Action::Pass);
    }
}

#[test]
fn s4_1_min_bid_is_20() {
    let mut s = v2(4);
    rejected(
        &mut s,
        0,
        bid("SFTG", 19),
        RejectionCode::IllegalMove,
        "1841 §4.1",
    );
    let ev = ok(&mut s, 0, bid("SFTG", 20));
    assert_eq!(
        ev,
        [Event::AuctionOpened {
            seat: 0,
            concession: Concession::Sftg,
            price: 20
        }]
    );
    let a = round(&s).auction.clone().unwrap();
    assert_eq!((a.high_bid, a.high_bidder, a.to_act), (20, 0, 1));
    assert_eq!(a.bidders, [0, 1, 2, 3]);
}

#[test]
fn s4_1_raise_is_at_least_5() {
    let mut s = v2(4);
    ok(&mut s, 0, bid("Bayard", 20));
    rejected(
        &mut s,
        1,
        bid("Bayard", 24),
        RejectionCode::IllegalMove,
        "1841 §4.1",
    );
    rejected(
        &mut s,
        1,
        bid("Bayard", 20),
        RejectionCode::IllegalMove,
        "1841 §4.1",
    );
    ok(&mut s, 1, bid("Bayard", 25));
    // Any amount from the minimum up is fine, not only multiples of 5 (18xx).
    ok(&mut s, 2, bid("Bayard", 33));
    assert_eq!(round(&s).auction.as_ref().unwrap().high_bid, 33);
    let legal = G1841::legal(&s, 3);
    assert_eq!(legal.bids[0].min_price, 38);
    assert_eq!(legal.bids[0].max_price, 840);
}

#[test]
fn s4_1_bid_may_not_exceed_cash() {
    let mut s = v2(4);
    rejected(
        &mut s,
        0,
        bid("SFTG", 841),
        RejectionCode::InsufficientFunds,
        "1841 §4.1",
    );
    ok(&mut s, 0, bid("SFTG", 840));
    // Nobody else can raise to L.845: the nominator buys at once (1841 §4.1 step 2).
    assert_eq!(s.players[0].cash, 0);
    assert_eq!(s.players[0].concessions, [Concession::Sftg]);
    assert_eq!(round(&s).nominating_seat, 1);
    // A seat without L.20 may only pass.
    let mut poor = v2(4);
    poor.players[1].cash = 19;
    poor.bank_cash += 821;
    ok(&mut poor, 0, Action::Pass);
    let legal = G1841::legal(&poor, 1);
    assert_eq!(legal.actions, [Action::Pass]);
    assert!(legal.bids.is_empty());
    rejected(
        &mut poor,
        1,
        bid("Bayard", 20),
        RejectionCode::InsufficientFunds,
        "1841 §4.1",
    );
}

#[test]
fn s4_1_only_players_who_can_raise_join_the_auction() {
    let mut s = v2(4);
    // Seat 2 has exactly L.104: it cannot raise a L.100 bid to L.105 (1841 §4.1 step 2).
    s.bank_cash += s.players[2].cash - 104;
    s.players[2].cash = 104;
    s.bank_cash += s.players[3].cash - 105;
    s.players[3].cash = 105;
    ok(&mut s, 0, bid("IRSFF", 100));
    assert_eq!(round(&s).auction.as_ref().unwrap().bidders, [0, 1, 3]);
}

#[test]
fn s4_1_only_the_seat_to_act_may_act() {
    let mut s = v2(4);
    rejected(
        &mut s,
        1,
        bid("SFTG", 20),
        RejectionCode::NotYourTurn,
        "1841 §4.1",
    );
    rejected(
        &mut s,
        1,
        Action::Pass,
        RejectionCode::NotYourTurn,
        "1841 §4.1",
    );
    ok(&mut s, 0, bid("SFTG", 20));
    rejected(
        &mut s,
        0,
        bid("SFTG", 25),
        RejectionCode::NotYourTurn,
        "1841 §4.1",
    );
    rejected(
        &mut s,
        2,
        Action::Pass,
        RejectionCode::NotYourTurn,
        "1841 §4.1",
    );
    assert_eq!(G1841::to_act(&s), [1]);
    assert!(G1841::legal_actions(&s, 2).is_empty());
}

#[test]
fn s4_1_bids_must_name_the_concession_being_auctioned() {
    let mut s = v2(4);
    ok(&mut s, 0, bid("SFTG", 20));
    rejected(
        &mut s,
        1,
        bid("IRSFF", 25),
        RejectionCode::IllegalMove,
        "1841 §4.1",
    );
    rejected(
        &mut s,
        1,
        bid("XYZ", 25),
        RejectionCode::InvalidArgument,
        "1841 §3.2",
    );
    rejected(
        &mut s,
        1,
        blind(&[0; 8]),
        RejectionCode::WrongStep,
        "1841 §4.1",
    );
}

/// 132002, first auction: P1 nominates Bayard 20, P2 drops, P3 35, P4 40, P1 and P3 drop:
/// P4 buys for L.40 and the next nomination is P2's (after the nominator, not the winner).
#[test]
fn s4_1_next_nomination_passes_to_the_player_after_the_nominator() {
    let mut s = v2(4);
    ok(&mut s, 0, bid("Bayard", 20));
    ok(&mut s, 1, Action::Pass);
    assert_eq!(G1841::to_act(&s), [2]);
    ok(&mut s, 2, bid("Bayard", 35));
    ok(&mut s, 3, bid("Bayard", 40));
    assert_eq!(G1841::to_act(&s), [0]);
    ok(&mut s, 0, Action::Pass);
    let ev = ok(&mut s, 2, Action::Pass);
    assert_eq!(
        ev,
        [
            Event::DroppedOut {
                seat: 2,
                concession: Concession::Bayard
            },
            Event::ConcessionBought {
                seat: 3,
                concession: Concession::Bayard,
                price: 40
            },
        ]
    );
    assert_eq!(s.players[3].cash, 800);
    assert_eq!(s.bank_cash, 11_080);
    assert_eq!(round(&s).nominating_seat, 1);
    assert!(round(&s).auction.is_none());
    rejected(
        &mut s,
        1,
        bid("Bayard", 20),
        RejectionCode::IllegalMove,
        "1841 §4.1",
    );
}

/// 1841 §4.1 step 2: the bidder after the high bidder acts; dropping out is final.
#[test]
fn s4_1_bidding_order_follows_the_high_bidder() {
    let mut s = v2(5);
    ok(&mut s, 0, bid("SFTN", 20));
    ok(&mut s, 1, bid("SFTN", 25));
    ok(&mut s, 2, Action::Pass);
    assert_eq!(G1841::to_act(&s), [3]);
    ok(&mut s, 3, Action::Pass);
    ok(&mut s, 4, bid("SFTN", 30));
    assert_eq!(G1841::to_act(&s), [0]);
    ok(&mut s, 0, bid("SFTN", 35));
    assert_eq!(G1841::to_act(&s), [1]);
    ok(&mut s, 1, Action::Pass);
    assert_eq!(G1841::to_act(&s), [4]);
    assert_eq!(round(&s).auction.as_ref().unwrap().bidders, [0, 4]);
    ok(&mut s, 4, Action::Pass);
    assert_eq!(s.players[0].concessions, [Concession::Sftn]);
    assert_eq!(s.players[0].cash, 672 - 35);
    assert_eq!(round(&s).nominating_seat, 1);
}

#[test]
fn s4_1_sold_concession_cannot_be_nominated_again() {
    let mut s = v2(3);
    buy_uncontested(&mut s, 0, "SFTG", 20);
    rejected(
        &mut s,
        1,
        bid("SFTG", 20),
        RejectionCode::IllegalMove,
        "1841 §4.1",
    );
    let legal = G1841::legal(&s, 1);
    assert_eq!(legal.bids.len(), 7);
    assert!(legal.bids.iter().all(|b| b.concession != Concession::Sftg));
}

/// 1841 §4.1 step 4 and §17.13: the round ends when every player has passed a nomination turn
/// in a row; the first player may pass; unsold concessions go to the bank.
#[test]
fn s17_13_all_pass_ends_the_round_and_the_first_player_may_pass() {
    let mut s = v2(3);
    ok(&mut s, 0, Action::Pass);
    ok(&mut s, 1, Action::Pass);
    assert_eq!(round(&s).consecutive_passes, 2);
    let ev = ok(&mut s, 2, Action::Pass);
    assert_eq!(s.bank_concessions, Concession::ALL);
    // Pass, 8 × to bank, new order, Stock Round 1; nobody holds a concession, so the three
    // seats pass automatically (1841 §5.1) and Operating Round 1.1 starts (§5.5, §8); with no
    // corporation it ends at once and Stock Round 2 begins, where the bank's concessions are
    // for sale (I13, I21).
    assert_eq!(ev.len(), 1 + 8 + 2 + 3 + 1 + 1);
    assert!(ev.contains(&Event::RoundStarted {
        name: "Stock Round 1".into()
    }));
    assert!(ev.contains(&Event::RoundStarted {
        name: "Operating Round 1.1".into()
    }));
    assert_eq!(
        ev.last(),
        Some(&Event::RoundStarted {
            name: "Stock Round 2".into()
        })
    );
    assert!(
        G1841::legal(&s, G1841::to_act(&s)[0])
            .actions
            .contains(&Action::BuyConcession {
                concession: "Bayard".into()
            })
    );
    assert!(ev.contains(&Event::PlayerOrderChanged {
        player_order: vec![0, 1, 2]
    }));
    assert_eq!(s.bank_cash, 14_400 - 3 * 1120);
}

/// Fixture 1841_game_end_bank: P1 and P2 pass, P3 nominates; the passes before a nomination
/// do not count towards the end of the round.
#[test]
fn s17_13_a_nomination_resets_the_passes() {
    let mut s = lite(4);
    ok(&mut s, 0, Action::Pass);
    ok(&mut s, 1, Action::Pass);
    buy_uncontested(&mut s, 2, "SFTG", 20);
    assert_eq!(round(&s).consecutive_passes, 0);
    assert_eq!(round(&s).nominating_seat, 3);
    ok(&mut s, 3, Action::Pass);
    ok(&mut s, 0, Action::Pass);
    ok(&mut s, 1, Action::Pass);
    assert!(matches!(s.round, Round::ConcessionRound(_)));
    ok(&mut s, 2, Action::Pass);
    assert!(matches!(s.round, Round::StockRound(_)));
    assert_eq!(
        s.bank_concessions,
        [
            Concession::Bayard,
            Concession::Sftc,
            Concession::Sftn,
            Concession::Irsff
        ]
    );
}

/// 1841 §4.1 step 5: ascending cash; ties by the lowest concession number held, a player
/// without concession first (§17.14); further ties by previous order.
#[test]
fn s4_1_new_order_by_ascending_cash_with_tie_breaks() {
    let mut s = v2(5);
    // Seat 0 buys SFTG (7) for 40, seat 1 buys Bayard (1) for 40, seat 2 buys IRSFF for 30.
    buy_uncontested(&mut s, 0, "SFTG", 40);
    buy_uncontested(&mut s, 1, "Bayard", 40);
    buy_uncontested(&mut s, 2, "IRSFF", 30);
    for seat in [3, 4, 0, 1, 2] {
        ok(&mut s, seat, Action::Pass);
    }
    // Cash: 0: 632, 1: 632, 2: 642, 3: 672, 4: 672.
    // 0 and 1 tie at 632: seat 1 holds concession 1, seat 0 concession 7 → 1 first.
    // 3 and 4 tie at 672 without concessions → previous order.
    assert_eq!(s.player_order, [1, 0, 2, 3, 4]);
    // 1841 §4.3: Stock Round 1 with priority to seat 1; seat 1 (Bayard only, nothing to
    // start or buy) passes automatically and seat 0 (SFTG) is the first to act (1841 §5.1).
    let Round::StockRound(sr) = &s.round else {
        panic!("{:?}", s.round)
    };
    assert_eq!((sr.number, sr.priority_seat, sr.current_seat), (1, 1, 0));
}

#[test]
fn s17_14_player_without_concession_sorts_first_among_cash_ties() {
    let mut s = v2(3);
    buy_uncontested(&mut s, 0, "Bayard", 20);
    // Make seat 2 (no concession) tie with seat 0 at L.1100.
    s.players[2].cash = 1100;
    s.bank_cash += 20;
    for seat in [1, 2, 0] {
        ok(&mut s, seat, Action::Pass);
    }
    assert_eq!(s.player_order, [2, 0, 1]);
}

#[test]
fn s4_3_after_the_round_stock_round_1_begins() {
    let mut s = lite(3);
    for c in ["Bayard", "SFTC", "SFTN", "SFTG", "IRSFF"] {
        let seat = round(&s).nominating_seat;
        buy_uncontested(&mut s, seat, c, 20);
    }
    // Seats 0 and 1 bought two each (L.40), seat 2 one (L.20): seat 0 (Bayard) before seat 1.
    assert_eq!(s.player_order, [0, 1, 2]);
    assert!(s.bank_concessions.is_empty());
    // Stock Round 1 (1841 §4.3, §5): seat 0 has priority and may start its corporation.
    assert_eq!(G1841::to_act(&s), [0]);
    assert!(!G1841::legal_actions(&s, 0).is_empty());
    for seat in 1..3 {
        assert!(G1841::legal_actions(&s, seat).is_empty());
        rejected(
            &mut s,
            seat,
            Action::Pass,
            RejectionCode::NotYourTurn,
            "1841 §5.1",
        );
    }
    assert_eq!(G1841::outcome(&s), None);
}

#[test]
fn s2_bad_input_is_rejected_not_panicking() {
    let mut s = v2(4);
    rejected(
        &mut s,
        4,
        Action::Pass,
        RejectionCode::InvalidArgument,
        "1841 §2",
    );
    rejected(
        &mut s,
        u32::MAX,
        bid("SFTG", 20),
        RejectionCode::InvalidArgument,
        "1841 §2",
    );
    rejected(
        &mut s,
        0,
        bid("", 20),
        RejectionCode::InvalidArgument,
        "1841 §3.2",
    );
    rejected(
        &mut s,
        0,
        bid("sftg", 20),
        RejectionCode::InvalidArgument,
        "1841 §3.2",
    );
    rejected(
        &mut s,
        0,
        bid("SFTG", -20),
        RejectionCode::InvalidArgument,
        "1841 §4.1",
    );
    rejected(
        &mut s,
        0,
        bid("SFTG", 0),
        RejectionCode::InvalidArgument,
        "1841 §4.1",
    );
    rejected(
        &mut s,
        0,
        bid("SFTG", i64::MAX),
        RejectionCode::InsufficientFunds,
        "1841 §4.1",
    );
    rejected(
        &mut s,
        0,
        blind(&[0; 8]),
        RejectionCode::WrongStep,
        "1841 §4.1",
    );
    ok(&mut s, 0, bid("SFTG", 20));
    rejected(
        &mut s,
        1,
        bid("SFTG", i64::MIN),
        RejectionCode::InvalidArgument,
        "1841 §4.1",
    );
    rejected(
        &mut s,
        1,
        bid("SFTG", i64::MAX),
        RejectionCode::InsufficientFunds,
        "1841 §4.1",
    );
}

#[test]
fn s15_2_lite_has_five_concessions() {
    let mut s = lite(6);
    assert!(s.players.iter().all(|p| p.cash == 420));
    for c in ["SFLP", "SFMA", "SSFL"] {
        rejected(
            &mut s,
            0,
            bid(c, 20),
            RejectionCode::InvalidArgument,
            "1841 §15.2",
        );
    }
    let legal = G1841::legal(&s, 0);
    let offered: Vec<_> = legal.bids.iter().map(|b| b.concession.as_str()).collect();
    assert_eq!(offered, ["Bayard", "SFTC", "SFTN", "SFTG", "IRSFF"]);
    assert!(
        legal
            .bids
            .iter()
            .all(|b| b.min_price == 20 && b.max_price == 420)
    );
}

#[test]
fn s4_1_legal_actions_match_the_turn() {
    let s = v2(4);
    let l = G1841::legal(&s, 0);
    assert_eq!(l.actions, [Action::Pass]);
    assert_eq!(l.bids.len(), 8);
    assert!(l.blind_bid.is_none());
    assert!(G1841::legal(&s, 1).is_empty());
    assert!(G1841::legal(&s, 99).is_empty());
    let reps = G1841::legal_actions(&s, 0);
    assert_eq!(reps.len(), 9);
    assert_eq!(reps[1], bid("Bayard", 20));
}

// ---------------------------------------------------------------- Version 1 (1841 §4.2)

#[test]
fn s4_2_sealed_bids_are_simultaneous() {
    let mut s = v1(4);
    assert_eq!(G1841::to_act(&s), [0, 1, 2, 3]);
    let l = G1841::legal(&s, 2);
    let bb = l.blind_bid.clone().unwrap();
    assert_eq!(bb.concessions, Concession::ALL);
    assert_eq!((bb.min_price, bb.max_total), (20, 840));
    assert!(l.actions.is_empty() && l.bids.is_empty());
    ok(&mut s, 2, blind(&[0, 0, 0, 0, 0, 0, 20, 0]));
    assert_eq!(G1841::to_act(&s), [0, 1, 3]);
    assert!(G1841::legal(&s, 2).is_empty());
    rejected(
        &mut s,
        2,
        blind(&[0; 8]),
        RejectionCode::NotYourTurn,
        "1841 §4.2",
    );
}

#[test]
fn s4_2_sealed_bid_validation() {
    let mut s = v1(3);
    rejected(
        &mut s,
        0,
        blind(&[0; 7]),
        RejectionCode::InvalidArgument,
        "1841 §4.2",
    );
    rejected(
        &mut s,
        0,
        blind(&[0; 9]),
        RejectionCode::InvalidArgument,
        "1841 §4.2",
    );
    rejected(
        &mut s,
        0,
        blind(&[]),
        RejectionCode::InvalidArgument,
        "1841 §4.2",
    );
    rejected(
        &mut s,
        0,
        blind(&[0, 0, 0, -20, 0, 0, 0, 0]),
        RejectionCode::InvalidArgument,
        "1841 §4.2",
    );
    rejected(
        &mut s,
        0,
        blind(&[19, 0, 0, 0, 0, 0, 0, 0]),
        RejectionCode::IllegalMove,
        "1841 §4.2",
    );
    rejected(
        &mut s,
        0,
        blind(&[1000, 0, 0, 0, 0, 0, 0, 121]),
        RejectionCode::InsufficientFunds,
        "1841 §4.2",
    );
    rejected(
        &mut s,
        0,
        blind(&[i64::MAX, i64::MAX, 0, 0, 0, 0, 0, 0]),
        RejectionCode::InsufficientFunds,
        "1841 §4.2",
    );
    rejected(
        &mut s,
        0,
        bid("SFTG", 20),
        RejectionCode::WrongStep,
        "1841 §4.2",
    );
    rejected(
        &mut s,
        0,
        Action::Pass,
        RejectionCode::WrongStep,
        "1841 §4.2",
    );
    ok(&mut s, 0, blind(&[1000, 0, 0, 0, 0, 0, 0, 120]));
    let mut l = v1(3);
    l.options.lite = true;
    let mut l = G1841::setup(&l.options, 3, 0).unwrap();
    rejected(
        &mut l,
        0,
        blind(&[0; 8]),
        RejectionCode::InvalidArgument,
        "1841 §4.2",
    );
    ok(&mut l, 0, blind(&[20, 0, 0, 0, 20]));
}

#[test]
fn s4_2_view_hides_other_seats_amounts_until_all_have_bid() {
    let mut s = v1(3);
    ok(&mut s, 0, blind(&[30, 0, 0, 0, 0, 0, 0, 0]));
    ok(&mut s, 1, blind(&[0, 25, 0, 0, 0, 0, 0, 0]));
    let bids = |v: &State| -> Vec<SealedBid> { v.concession_round().unwrap().sealed_bids.clone() };
    let own = G1841::view(&s, Viewer::Seat(0)).state;
    assert_eq!(bids(&own)[0].amounts, [30, 0, 0, 0, 0, 0, 0, 0]);
    assert!(bids(&own)[1].amounts.is_empty());
    assert!(bids(&own)[1].submitted && !bids(&own)[2].submitted);
    let spectator = G1841::view(&s, Viewer::Spectator).state;
    assert!(bids(&spectator).iter().all(|b| b.amounts.is_empty()));
    // The view differs from the state only in the hidden amounts.
    let mut redacted = s.clone();
    if let Round::ConcessionRound(r) = &mut redacted.round {
        r.sealed_bids[0].amounts.clear();
        r.sealed_bids[1].amounts.clear();
    }
    assert_eq!(spectator, redacted);
    // Seat 2 bids; all are revealed.
    let ev = ok(&mut s, 2, blind(&[30, 0, 0, 0, 0, 0, 0, 0]));
    assert!(
        matches!(ev[1], Event::SealedBidsRevealed { ref bids } if bids.len() == 3 && bids[1].amounts[1] == 25)
    );
    let spectator = G1841::view(&s, Viewer::Spectator).state;
    assert_eq!(bids(&spectator)[1].amounts, [0, 25, 0, 0, 0, 0, 0, 0]);
}

/// What a bot playing for a seat may look at (review of #24, finding G): other seats'
/// submitted bids read as zeros until the reveal, the seat's own bid and every view stay.
#[test]
fn s4_2_a_seat_knows_only_its_own_sealed_bid() {
    use referee_engine::g1841::view::without_others_secrets;
    let mut s = v1(3);
    ok(&mut s, 0, blind(&[30, 0, 0, 0, 0, 0, 0, 0]));
    ok(&mut s, 1, blind(&[0, 25, 0, 0, 0, 0, 0, 0]));
    let bids = |v: &State| -> Vec<SealedBid> { v.concession_round().unwrap().sealed_bids.clone() };
    let known = without_others_secrets(&s, 1);
    assert_eq!(bids(&known)[0].amounts, [0; 8]);
    assert_eq!(bids(&known)[1].amounts, [0, 25, 0, 0, 0, 0, 0, 0]);
    assert!(bids(&known)[0].submitted && !bids(&known)[2].submitted);
    referee_engine::g1841::check_invariants(&known).unwrap();
    for viewer in [Viewer::Seat(1), Viewer::Spectator] {
        assert_eq!(G1841::view(&known, viewer), G1841::view(&s, viewer));
    }
    // After the reveal nothing is secret.
    ok(&mut s, 2, blind(&[0; 8]));
    assert_eq!(without_others_secrets(&s, 1), s);
}

/// FAQ-C1 / {2.4}, the worked example: P1 SFTG 60; P2 IRSFF 100; P3 SFTG 60 + Bayard 30;
/// P4 SFTN 20. New order P2, P3, P1, P4; SFTG tied P3/P1 at L.60, P3 acts first.
fn faq_c1() -> State {
    let mut s = v1(4);
    ok(&mut s, 0, blind(&[0, 0, 0, 0, 0, 0, 60, 0]));
    ok(&mut s, 1, blind(&[0, 0, 0, 0, 0, 0, 0, 100]));
    ok(&mut s, 2, blind(&[30, 0, 0, 0, 0, 0, 60, 0]));
    let ev = ok(&mut s, 3, blind(&[0, 0, 0, 0, 20, 0, 0, 0]));
    assert!(ev.contains(&Event::PlayerOrderChanged {
        player_order: vec![1, 2, 0, 3]
    }));
    assert!(ev.contains(&Event::ConcessionBought {
        seat: 2,
        concession: Concession::Bayard,
        price: 30
    }));
    assert!(ev.contains(&Event::ConcessionBought {
        seat: 1,
        concession: Concession::Irsff,
        price: 100
    }));
    assert!(ev.contains(&Event::ConcessionBought {
        seat: 3,
        concession: Concession::Sftn,
        price: 20
    }));
    for c in [
        Concession::Sflp,
        Concession::Sftc,
        Concession::Sfma,
        Concession::Ssfl,
    ] {
        assert!(ev.contains(&Event::ConcessionToBank { concession: c }));
    }
    s
}

#[test]
fn faq_c1_tied_player_furthest_from_priority_takes_the_concession() {
    let mut s = faq_c1();
    assert_eq!(s.player_order, [1, 2, 0, 3]);
    let a = round(&s).auction.clone().unwrap();
    assert_eq!(a.concession, Concession::Sftg);
    assert_eq!(
        (a.high_bid, a.high_bidder, a.nominator, a.to_act),
        (60, 0, 2, 2)
    );
    assert_eq!(a.bidders, [2, 0]);
    assert_eq!(G1841::to_act(&s), [2]);
    assert_eq!(round(&s).remaining, [Concession::Sftg]);
    ok(&mut s, 2, Action::Pass);
    assert_eq!(s.players[0].concessions, [Concession::Sftg]);
    assert_eq!(s.players[0].cash, 780);
    assert_eq!(
        s.bank_concessions,
        [
            Concession::Sflp,
            Concession::Sftc,
            Concession::Sfma,
            Concession::Ssfl
        ]
    );
    let Round::StockRound(sr) = &s.round else {
        panic!("{:?}", s.round)
    };
    assert_eq!((sr.number, sr.priority_seat), (1, 1));
    // Version 1 keeps the order set at the reveal (by bids, not by cash).
    assert_eq!(s.player_order, [1, 2, 0, 3]);
    assert_eq!(s.total_money(), 14_400);
}

#[test]
fn faq_c1_a_tied_player_may_raise_by_at_least_5() {
    let mut s = faq_c1();
    rejected(
        &mut s,
        2,
        bid("SFTG", 64),
        RejectionCode::IllegalMove,
        "1841 §4.2",
    );
    rejected(
        &mut s,
        0,
        bid("SFTG", 65),
        RejectionCode::NotYourTurn,
        "1841 §4.2",
    );
    ok(&mut s, 2, bid("SFTG", 65));
    assert_eq!(G1841::to_act(&s), [0]);
    ok(&mut s, 0, bid("SFTG", 70));
    ok(&mut s, 2, Action::Pass);
    assert_eq!(s.players[0].concessions, [Concession::Sftg]);
    assert_eq!(s.players[0].cash, 770);
}

/// 1841 §4.2 step 3: total bid first, then bids concession by concession, then the later
/// seat (18xx).
#[test]
fn s4_2_new_order_by_total_then_per_concession_then_later_seat() {
    let b = |seat: Seat, amounts: &[i64]| SealedBid {
        seat,
        submitted: true,
        amounts: amounts.to_vec(),
    };
    let bids = [
        b(0, &[0, 0, 50]),
        b(1, &[50, 0, 0]),
        b(2, &[0, 0, 80]),
        b(3, &[0, 0, 50]),
        b(4, &[0, 0, 0]),
        b(5, &[0, 0, 0]),
    ];
    assert_eq!(
        concession_round::order_after_sealed_bids(&[0, 1, 2, 3, 4, 5], &bids),
        [2, 1, 3, 0, 5, 4]
    );
    // All pass (all zero): the order is reversed.
    let mut s = v1(3);
    for seat in 0..3 {
        ok(&mut s, seat, blind(&[0; 8]));
    }
    assert_eq!(s.player_order, [2, 1, 0]);
    assert_eq!(s.bank_concessions, Concession::ALL);
    // Nobody holds a concession: every seat passes automatically in Stock Round 1 (1841
    // §5.1), which ends at once; the empty Operating Round 1.1 follows and ends at once, and
    // Stock Round 2 begins (1841 §8, I13, I21).
    assert!(matches!(s.round, Round::StockRound(ref sr) if sr.number == 2));
    assert_eq!(
        s.player_order,
        [2, 1, 0],
        "nobody acted: priority unchanged"
    );
}

#[test]
fn s4_2_three_way_tie_goes_round_in_new_order() {
    let mut s = v1(3);
    ok(&mut s, 0, blind(&[40, 0, 0, 0, 0, 0, 0, 0]));
    ok(&mut s, 1, blind(&[40, 0, 0, 0, 0, 0, 0, 0]));
    ok(&mut s, 2, blind(&[40, 0, 0, 0, 0, 0, 0, 0]));
    // Complete tie → later seat first: order 2, 1, 0.
    let a = round(&s).auction.clone().unwrap();
    assert_eq!(a.bidders, [2, 1, 0]);
    assert_eq!((a.to_act, a.high_bidder), (2, 0));
    ok(&mut s, 2, Action::Pass);
    assert_eq!(G1841::to_act(&s), [1]);
    ok(&mut s, 1, bid("Bayard", 45));
    assert_eq!(G1841::to_act(&s), [0]);
    ok(&mut s, 0, Action::Pass);
    assert_eq!(s.players[1].concessions, [Concession::Bayard]);
    // Stock Round 1: nobody can start anything (seat 1 holds only Bayard), all pass
    // automatically and Bayard pays L.20 at the end of the round (1841 §5.5).
    assert_eq!(s.players[1].cash, 1120 - 45 + 20);
}

/// Interpretation I4: a tied seat that can no longer pay the tied bid (it raised in an earlier
/// tie auction) is left out of the later tie auction.
#[test]
fn s4_2_tied_seat_that_cannot_pay_is_left_out() {
    let mut s = v1(3);
    // Seats 0 and 1 tie on Bayard (600) and SFLP (500); seat 1 has 1120.
    ok(&mut s, 0, blind(&[600, 500, 0, 0, 0, 0, 0, 0]));
    ok(&mut s, 1, blind(&[600, 500, 0, 0, 0, 0, 0, 0]));
    ok(&mut s, 2, blind(&[0; 8]));
    assert_eq!(s.player_order, [1, 0, 2]);
    assert_eq!(round(&s).pending_tie_auctions.len(), 1);
    ok(&mut s, 1, bid("Bayard", 700));
    let ev = ok(&mut s, 0, Action::Pass);
    // Seat 1 now has L.420 < L.500: seat 0 gets SFLP at L.500.
    assert_eq!(
        ev,
        [
            Event::DroppedOut {
                seat: 0,
                concession: Concession::Bayard
            },
            Event::ConcessionBought {
                seat: 1,
                concession: Concession::Bayard,
                price: 700
            },
            Event::DroppedOut {
                seat: 1,
                concession: Concession::Sflp
            },
            Event::ConcessionBought {
                seat: 0,
                concession: Concession::Sflp,
                price: 500
            },
            Event::RoundStarted {
                name: "Stock Round 1".into()
            },
            // Seat 1 (priority) holds only Bayard: nothing to do, it passes automatically and
            // seat 0 (SFLP) is the first to act (1841 §5.1).
            Event::Passed {
                seat: 1,
                automatic: true
            },
        ]
    );
    assert_eq!(G1841::to_act(&s), [0]);
}

#[test]
fn catalog_lists_1841_as_complete() {
    let info = G1841::info();
    assert_eq!(info.id, "1841");
    assert_eq!((info.min_players, info.max_players), (3, 8));
    assert_eq!(info.stage, GameStage::Complete);
    let names: Vec<_> = info.options.iter().map(|o| o.name).collect();
    assert_eq!(
        names,
        [
            "version_1",
            "lite",
            "p2p_purchases",
            "sfli_run_variant",
            // FAQ rulings (1841-faq.md §7), tri-state: unset = the version default.
            "emergency_sales_unrestricted",
            "merger_presidency_for_companies",
            "merger_price_cap",
            "pass_token_not_a_route_base",
            "no_corporate_rebuy_after_sale",
            "price_drops_lowest_first",
            "immediate_game_end",
            "no_train_obligation_after_last_8_train",
            "exchanges_by_share_value",
            "half_price_round_down",
            "ferdinandea_unexchanged_payout",
            "no_cross_border_corporate_shares",
        ]
    );
    assert!(referee_engine::games().iter().any(|g| g.id == "1841"));
}
