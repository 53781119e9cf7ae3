//! Property test: `legal_actions` agrees with `apply` over random games through the
//! concession round and Stock Round 1 (3–8 players full, 3–6 lite, Version 1 and 2, with and
//! without `p2p_purchases`: offers inside and outside their ranges, answers): money is
//! conserved (bank + players + corporations), every corporation's certificates sum to 100%
//! (IPO + pool + holders), rejections leave the state unchanged, and the game always reaches
//! Operating Round 1 with every concession owned by a player or the bank.

use proptest::prelude::*;
use referee_engine::g1841::Event;
use referee_engine::g1841::check_invariants;
use referee_engine::g1841::corporation::{
    certificate_count, certificate_limit, controlled_percent,
};
use referee_engine::g1841::{
    Action, Concession, G1841, LegalActions, Options, PurchaseItem, Round, Route, ShareOwner, Stop,
    setup::concessions_of,
};
use referee_engine::{Game, RejectionCode, Seat};

/// Small deterministic RNG driven by the proptest seed (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        if n == 0 { 0 } else { self.next() % n }
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        if hi <= lo {
            lo
        } else {
            lo + self.below((hi - lo + 1) as u64) as i64
        }
    }
}

/// Whether `action` lies inside the legal set (listed action or within a range).
fn covered(legal: &LegalActions, action: &Action) -> bool {
    match action {
        Action::Pass => legal.actions.contains(&Action::Pass),
        Action::Bid { concession, price } => legal.bids.iter().any(|b| {
            b.concession.as_str() == concession && *price >= b.min_price && *price <= b.max_price
        }),
        Action::BlindBid { amounts } => legal.blind_bid.as_ref().is_some_and(|bb| {
            amounts.len() == bb.concessions.len()
                && amounts.iter().all(|a| *a == 0 || *a >= bb.min_price)
                && amounts
                    .iter()
                    .try_fold(0i64, |t, a| t.checked_add(*a))
                    .is_some_and(|t| t <= bb.max_total)
        }),
        // Generated route sets are empty (valid) or name a train nobody owns (invalid).
        Action::RunRoutes { routes } => legal.run_routes.is_some() && routes.is_empty(),
        Action::BuyToken {
            hex,
            city,
            seller,
            price,
        } => legal.token_purchases.iter().any(|t| {
            t.hex == *hex
                && t.city == *city
                && t.seller == *seller
                && (t.min_price..=t.max_price).contains(price)
        }),
        Action::BuyTrain { train, from, price } => {
            legal.actions.contains(action)
                || legal.train_purchases.iter().any(|t| {
                    t.train == *train
                        && t.from == *from
                        && (t.min_price..=t.max_price).contains(price)
                })
        }
        Action::OfferPurchase {
            seller,
            item,
            price,
        } => legal.offers.iter().any(|o| {
            o.seller == *seller && o.item == *item && (o.min_price..=o.max_price).contains(price)
        }),
        other => legal.actions.contains(other),
    }
}

/// A random legal action drawn from the ranges.
fn random_legal(rng: &mut Rng, legal: &LegalActions) -> Action {
    if legal.run_routes.is_some() {
        return Action::RunRoutes { routes: Vec::new() };
    }
    if !legal.token_purchases.is_empty() && rng.chance(30) {
        let t = &legal.token_purchases[rng.below(legal.token_purchases.len() as u64) as usize];
        return Action::BuyToken {
            hex: t.hex.clone(),
            city: t.city,
            seller: t.seller.clone(),
            price: rng.range(t.min_price, t.max_price),
        };
    }
    if !legal.train_purchases.is_empty() && (legal.actions.is_empty() || rng.chance(10)) {
        let t = &legal.train_purchases[rng.below(legal.train_purchases.len() as u64) as usize];
        return Action::BuyTrain {
            train: t.train.clone(),
            from: t.from.clone(),
            price: rng.range(t.min_price, t.max_price),
        };
    }
    if !legal.offers.is_empty() && rng.chance(10) {
        // 1841 §15.3: an offer to another player, at the range's ends or anywhere in it.
        let o = &legal.offers[rng.below(legal.offers.len() as u64) as usize];
        let price = match rng.below(4) {
            0 => o.min_price,
            1 => o.max_price,
            2 => o.market_value.clamp(o.min_price, o.max_price),
            _ => rng.range(o.min_price, o.max_price),
        };
        return Action::OfferPurchase {
            seller: o.seller,
            item: o.item.clone(),
            price,
        };
    }
    if legal.bids.is_empty() && legal.blind_bid.is_none() && legal.actions.len() > 1 {
        // Stock round: pass rarely, so that corporations get started and shares bought.
        let others: Vec<&Action> = legal
            .actions
            .iter()
            .filter(|a| **a != Action::Pass)
            .collect();
        if !others.is_empty() && (rng.chance(85) || !legal.actions.contains(&Action::Pass)) {
            return others[rng.below(others.len() as u64) as usize].clone();
        }
    }
    if let Some(bb) = &legal.blind_bid {
        let mut budget = bb.max_total;
        let amounts = bb
            .concessions
            .iter()
            .map(|_| {
                if budget >= bb.min_price && rng.chance(40) {
                    // Often a round amount, so that sealed bids tie and tie auctions happen.
                    let round = bb.min_price + 5 * rng.range(0, 2);
                    let cap = if rng.chance(80) {
                        (bb.min_price + 60).min(budget)
                    } else {
                        budget
                    };
                    let a = if rng.chance(50) && round <= budget {
                        round
                    } else {
                        rng.range(bb.min_price, cap)
                    };
                    budget -= a;
                    a
                } else {
                    0
                }
            })
            .collect();
        return Action::BlindBid { amounts };
    }
    if legal.bids.is_empty() || (rng.chance(45) && !legal.actions.is_empty()) {
        return legal.actions[rng.below(legal.actions.len() as u64) as usize].clone();
    }
    let b = &legal.bids[rng.below(legal.bids.len() as u64) as usize];
    let cap = if rng.chance(85) {
        (b.min_price + 30).min(b.max_price)
    } else {
        b.max_price
    };
    Action::Bid {
        concession: b.concession.as_str().to_string(),
        price: rng.range(b.min_price, cap),
    }
}

/// A random action that may or may not be legal (near the range borders, garbage symbols,
/// wrong vector lengths, extreme numbers).
fn random_any(rng: &mut Rng, legal: &LegalActions, n_concessions: usize) -> Action {
    const SYMBOLS: [&str; 11] = [
        "Bayard", "SFLP", "SFTC", "SFMA", "SFTN", "SSFL", "SFTG", "IRSFF", "", "sftg", "SFLi",
    ];
    let price = |rng: &mut Rng| -> i64 {
        let base = legal.bids.first().map_or(20, |b| b.min_price);
        let max = legal.bids.first().map_or(1000, |b| b.max_price);
        match rng.below(8) {
            0 => base - 1,
            1 => base,
            2 => max,
            3 => max + 1,
            4 => -rng.range(0, 100),
            5 => i64::MAX,
            6 => i64::MIN,
            _ => rng.range(0, 1200),
        }
    };
    const CORPS: [&str; 9] = [
        "SFTG", "SFTN", "SFTC", "IRSFF", "SFMA", "SFLP", "SSFL", "AFI", "XX",
    ];
    let corp = |rng: &mut Rng| CORPS[rng.below(CORPS.len() as u64) as usize].to_string();
    let percent = |rng: &mut Rng| [0, 10, 20, 30, 40, 15, u32::MAX][rng.below(7) as usize];
    match rng.below(17) {
        15 => {
            // 1841 §15.3: offers near the ranges' borders, to wrong seats, of wrong things.
            if let Some(o) = legal
                .offers
                .get(rng.below(legal.offers.len() as u64 + 1) as usize)
                && rng.chance(70)
            {
                let price = [
                    o.min_price - 1,
                    o.min_price,
                    o.max_price,
                    o.max_price + 1,
                    0,
                    i64::MIN,
                ][rng.below(6) as usize];
                return Action::OfferPurchase {
                    seller: o.seller,
                    item: o.item.clone(),
                    price,
                };
            }
            let item = if rng.chance(50) {
                PurchaseItem::Shares {
                    corporation: corp(rng),
                    percent: percent(rng),
                }
            } else {
                PurchaseItem::Concession {
                    concession: SYMBOLS[rng.below(SYMBOLS.len() as u64) as usize].to_string(),
                }
            };
            Action::OfferPurchase {
                seller: rng.below(9) as u32,
                item,
                price: [1, 50, 0, -1, 100_000][rng.below(5) as usize],
            }
        }
        16 => Action::AnswerOffer {
            accept: rng.chance(50),
        },
        14 => Action::BuyToken {
            hex: ["H4", "J6", "F8", "Z1"][rng.below(4) as usize].to_string(),
            city: rng.below(3) as u32,
            seller: corp(rng),
            price: [1, 0, -1, 50, i64::MAX][rng.below(5) as usize],
        },
        12 => Action::RunRoutes {
            routes: if rng.chance(50) {
                Vec::new()
            } else {
                vec![Route {
                    train: "9-9".into(),
                    stops: vec![
                        Stop {
                            hex: "F8".into(),
                            node: 0,
                        },
                        Stop {
                            hex: "E9".into(),
                            node: rng.below(3) as u32,
                        },
                    ],
                    connections: vec![vec!["F8".into(), "E9".into()]],
                }]
            },
        },
        13 => Action::Dividend {
            payout: rng.chance(50),
        },
        10 => Action::LayTile {
            hex: ["E9", "F16", "G5", "H4", "Z9", ""][rng.below(6) as usize].to_string(),
            tile: ["7", "8", "9", "202", "601", "999"][rng.below(6) as usize].to_string(),
            rotation: rng.below(8) as u32,
        },
        11 => Action::BuyTrain {
            train: ["2-0", "2-1", "3-0", "x"][rng.below(4) as usize].to_string(),
            from: ["depot", "pool", "SFTG", "IRSFF", "XX"][rng.below(5) as usize].to_string(),
            price: [100, 99, 1, 0, -5, i64::MAX][rng.below(6) as usize],
        },
        3 => {
            if let Some(a) = legal
                .actions
                .get(rng.below(legal.actions.len() as u64 + 1) as usize)
            {
                return a.clone();
            }
            Action::Pass
        }
        4 => Action::Par {
            corporation: corp(rng),
            price: [68, 100, 144, 216, 340, 95, 0, -68, i64::MAX][rng.below(9) as usize],
        },
        5 => Action::BuyShares {
            corporation: corp(rng),
            from_pool: rng.chance(30),
            percent: percent(rng),
        },
        6 => Action::SellShares {
            corporation: corp(rng),
            percent: percent(rng),
        },
        7 => Action::PlaceToken {
            hex: ["R14", "H4", "", "Z99"][rng.below(4) as usize].to_string(),
            city: rng.below(3) as u32,
        },
        8 => Action::BuyTokens {
            count: rng.below(7) as u32,
        },
        9 => Action::BuyConcession {
            concession: SYMBOLS[rng.below(SYMBOLS.len() as u64) as usize].to_string(),
        },
        0 => Action::Pass,
        1 => Action::Bid {
            concession: SYMBOLS[rng.below(SYMBOLS.len() as u64) as usize].to_string(),
            price: price(rng),
        },
        _ => {
            let len = match rng.below(4) {
                0 => rng.below(10) as usize,
                _ => n_concessions,
            };
            let amounts = (0..len)
                .map(|_| match rng.below(6) {
                    0 => rng.range(1, 19),
                    1 => -rng.range(1, 50),
                    2 => rng.range(20, 400),
                    3 => i64::MAX,
                    _ => 0,
                })
                .collect();
            Action::BlindBid { amounts }
        }
    }
}

/// What happened in one random round (to show the properties are exercised).
#[derive(Default, Debug)]
struct Stats {
    steps: usize,
    events: Vec<Event>,
    tie_auctions: usize,
    started: usize,
    or_steps: usize,
}

fn play(options: Options, players: u32, seed: u64) -> Stats {
    let mut stats = Stats::default();
    let mut rng = Rng(seed | 1);
    let mut state = G1841::setup(&options, players, 0).unwrap();
    let money = state.total_money();
    let all = concessions_of(&options);
    let mut steps = 0;
    // Whether a player has gone bankrupt in this game (1841 §14).
    let mut bankruptcy = false;
    loop {
        let stop = match &state.round {
            Round::ConcessionRound(_) => false,
            // Without a corporation an operating round ends at once (I21): stop at Stock
            // Round 3 then.
            Round::StockRound(sr) => sr.number >= 3,
            // Play into the operating rounds until nobody can act or Operating Round 2.1.
            Round::OperatingRound(or) => G1841::to_act(&state).is_empty() || or.stock_round >= 2,
        };
        if stop {
            break;
        }
        steps += 1;
        assert!(steps < 50_000, "round does not end");
        // Actions of the stock round (besides the concession round's).
        let to_act = G1841::to_act(&state);
        assert!(!to_act.is_empty());
        // Probe every seat (and one out of range) with random actions: accepted exactly when
        // covered by the legal set; a rejection leaves the state unchanged.
        for seat in 0..=players {
            let legal = G1841::legal(&state, seat);
            assert_eq!(!legal.is_empty(), to_act.contains(&seat), "seat {seat}");
            for rep in G1841::legal_actions(&state, seat) {
                let mut probe = state.clone();
                assert!(
                    G1841::apply(&mut probe, seat, &rep).is_ok(),
                    "listed {rep:?} rejected"
                );
            }
            for _ in 0..3 {
                let action = random_any(&mut rng, &legal, all.len());
                let mut probe = state.clone();
                match G1841::apply(&mut probe, seat, &action) {
                    Ok(_) => assert!(
                        covered(&legal, &action),
                        "seat {seat}: {action:?} accepted but not legal"
                    ),
                    Err(r) => {
                        assert!(
                            !covered(&legal, &action),
                            "seat {seat}: legal {action:?} rejected: {r}"
                        );
                        assert_eq!(probe, state, "rejection changed the state");
                        // Every rule of 1841 is implemented: nothing may be UNSUPPORTED.
                        assert_ne!(r.code, RejectionCode::Unsupported);
                    }
                }
            }
        }
        let seat: Seat = to_act[rng.below(to_act.len() as u64) as usize];
        let legal = G1841::legal(&state, seat);
        let action = random_legal(&mut rng, &legal);
        assert!(covered(&legal, &action));
        let in_tie_before = options.version_1
            && state
                .concession_round()
                .is_some_and(|r| r.auction.is_some());
        let events = G1841::apply(&mut state, seat, &action)
            .unwrap_or_else(|r| panic!("legal {action:?} by {seat} rejected: {r}"));
        let in_tie_after = options.version_1
            && state
                .concession_round()
                .is_some_and(|r| r.auction.is_some());
        if in_tie_after
            && (!in_tie_before
                || events
                    .iter()
                    .any(|e| matches!(e, Event::ConcessionBought { .. })))
        {
            stats.tie_auctions += 1;
        }
        stats.steps += 1;
        let last = format!("{action:?} by seat {seat}: {events:?}");
        bankruptcy |= events.iter().any(|e| matches!(e, Event::Bankrupt { .. }));
        stats.events.extend(events);
        assert_eq!(state.total_money(), money, "money not conserved");
        assert!(
            state.players.iter().all(|p| p.cash >= 0)
                && (state.bank_cash >= 0 || state.game_end.trigger.is_some())
        );
        assert!(state.corporations.iter().all(|c| c.cash >= 0));
        for c in &state.corporations {
            let holders: u32 = c
                .certificates
                .iter()
                .filter(|x| matches!(x.owner, ShareOwner::Player(_) | ShareOwner::Corporation(_)))
                .map(|x| x.percent)
                .sum();
            assert_eq!(
                c.ipo_percent() + c.pool_percent() + holders,
                100,
                "{}",
                c.sym
            );
            if c.started() {
                // A bankrupt player's presidencies may end in the pool (1841 §14); nothing
                // else puts a president's certificate there.
                assert!(
                    matches!(
                        c.president(),
                        Some(ShareOwner::Player(_) | ShareOwner::Corporation(_))
                    ) || (bankruptcy && c.president() == Some(&ShareOwner::Pool)),
                    "{} has a president after {last}",
                    c.sym
                );
            }
        }
        for seat in 0..players {
            assert!(certificate_count(&state, seat) <= certificate_limit(&state));
            for c in &state.corporations {
                assert!(controlled_percent(&state, seat, &c.sym) <= 60, "60% limit");
            }
        }
        assert_eq!(check_invariants(&state), Ok(()));
        // Trains conserved: every train sold by the depot is owned, in the pool or rusted.
        let ops = &state.operations;
        let sold: u32 = ops.depot_sold.values().sum();
        let held: usize = ops.trains.values().map(Vec::len).sum::<usize>()
            + ops.pool_trains.len()
            + ops.rusted.len();
        assert_eq!(sold as usize, held, "trains conserved");
        // Tokens conserved: never more on the map than owned.
        for c in &state.corporations {
            assert!(c.tokens.len() as u32 <= c.tokens_total, "{} tokens", c.sym);
        }
        stats.or_steps += usize::from(matches!(state.round, Round::OperatingRound(_)));
    }
    assert!(matches!(
        state.round,
        Round::OperatingRound(_) | Round::StockRound(_)
    ));
    let mut order = state.player_order.clone();
    order.sort();
    assert_eq!(order, (0..players).collect::<Vec<_>>());
    let mut owned: Vec<_> = state
        .players
        .iter()
        .flat_map(|p| p.concessions.iter().copied())
        .chain(state.bank_concessions.iter().copied())
        .collect();
    owned.sort();
    assert_eq!(owned, all, "every concession owned exactly once");
    // 1841 §5.5: every concession still held by a player is Bayard or a started one's.
    for p in &state.players {
        for c in &p.concessions {
            let used = *c == Concession::Bayard
                || state
                    .corporation(c.as_str())
                    .is_some_and(|corp| corp.started());
            assert!(used, "{c} unused but kept");
        }
    }
    stats.started += state.corporations.iter().filter(|c| c.started()).count();
    let stuck = G1841::to_act(&state).is_empty();
    for seat in (0..players).filter(|_| stuck) {
        assert!(G1841::legal_actions(&state, seat).is_empty());
        let mut probe = state.clone();
        assert!(G1841::apply(&mut probe, seat, &Action::Pass).is_err());
        assert_eq!(probe, state);
    }
    stats
}

/// The random play reaches every kind of situation the properties are about.
#[test]
fn s4_random_play_exercises_every_path() {
    let mut all_pass_with_unsold = 0;
    let mut sold_out = 0;
    let mut raises = 0;
    let mut tie_auctions = 0;
    let mut tie_raises = 0;
    let mut started = 0;
    let mut seen: Vec<(&str, usize)> = vec![
        ("buy", 0),
        ("auto pass", 0),
        ("tokens bought", 0),
        ("SFMA city choice", 0),
        ("Bayard income", 0),
        ("concession returned", 0),
        ("tile laid", 0),
        ("train bought", 0),
        ("corporate share bought", 0),
        ("did not run", 0),
        ("p2p offer accepted", 0),
        ("p2p offer declined", 0),
    ];
    for seed in 1..=150u64 {
        for version_1 in [false, true] {
            let options = Options {
                version_1,
                lite: seed % 2 == 0,
                p2p_purchases: seed % 3 == 0,
                ..Options::default()
            };
            let stats = play(options, 3 + (seed % 4) as u32, seed * 7919);
            started += stats.started;
            for e in &stats.events {
                let k = match e {
                    Event::SharesBought { .. } => 0,
                    Event::Passed {
                        automatic: true, ..
                    } => 1,
                    Event::TokensBought { .. } => 2,
                    Event::TokenPlaced { hex, .. } if hex == "R14" => 3,
                    Event::ConcessionIncome { .. } => 4,
                    Event::ConcessionReturned { .. } => 5,
                    Event::TileLaid { .. } => 6,
                    Event::TrainBought { .. } => 7,
                    Event::CorporationBoughtShares { .. } => 8,
                    Event::DidNotRun { .. } => 9,
                    Event::OfferAccepted { .. } => 10,
                    Event::OfferDeclined { .. } => 11,
                    _ => continue,
                };
                seen[k].1 += 1;
            }
            let unsold = stats
                .events
                .iter()
                .any(|e| matches!(e, Event::ConcessionToBank { .. }));
            let bids = stats
                .events
                .iter()
                .filter(|e| matches!(e, Event::BidPlaced { .. }))
                .count();
            if version_1 {
                tie_auctions += stats.tie_auctions;
                tie_raises += bids;
            } else {
                raises += bids;
                if unsold {
                    all_pass_with_unsold += 1
                } else {
                    sold_out += 1
                }
            }
        }
    }
    assert!(all_pass_with_unsold > 10, "{all_pass_with_unsold}");
    assert!(sold_out > 10, "{sold_out}");
    assert!(raises > 100, "{raises}");
    assert!(tie_auctions > 10, "{tie_auctions}");
    assert!(tie_raises > 5, "{tie_raises}");
    assert!(started > 300, "{started}");
    for (name, n) in &seen {
        assert!(*n > 20, "{name}: {n}");
    }
}

/// `options` with every FAQ option on when `faq` (the FAQ-V3 variant included).
fn with_faq(options: Options, faq: bool) -> Options {
    if faq {
        options.with_all_faq_rulings()
    } else {
        options
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// `faq`: every FAQ option on (1841-faq.md §7; `version_1` turns the rulings on anyway).
    #[test]
    fn s4_random_rounds_full(players in 3u32..=8, version_1 in any::<bool>(), faq in any::<bool>(), p2p_purchases in any::<bool>(), seed in any::<u64>()) {
        play(with_faq(Options { version_1, p2p_purchases, ..Options::default() }, faq), players, seed);
    }

    #[test]
    fn s4_random_rounds_lite(players in 3u32..=6, version_1 in any::<bool>(), faq in any::<bool>(), p2p_purchases in any::<bool>(), seed in any::<u64>()) {
        play(with_faq(Options { version_1, lite: true, p2p_purchases, ..Options::default() }, faq), players, seed);
    }
}

/// The case CI's proptest found (8 players, version 1, every FAQ ruling): a started
/// corporation must keep a president after every action.
#[test]
fn s4_regression_8_players_version_1_faq() {
    play(
        with_faq(
            Options {
                version_1: true,
                p2p_purchases: false,
                ..Options::default()
            },
            true,
        ),
        8,
        14477602363791813544,
    );
}
