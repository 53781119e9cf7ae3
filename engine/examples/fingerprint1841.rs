//! A digest of everything the 1841 engine shows along many games, to check that a change
//! meant to be invisible (an optimization, a refactoring) really changes nothing
//! (docs/PERFORMANCE.md, "Checking that an optimization changes nothing"):
//!
//! ```sh
//! cargo run --release -p referee-engine --example fingerprint1841 -- 12 > before.txt
//! # … change the engine …
//! cargo run --release -p referee-engine --example fingerprint1841 -- 12 > after.txt
//! diff before.txt after.txt     # no output: nothing observable changed
//! ```
//!
//! It replays both recorded games (`tests/fixtures/1841`) and plays N seeded random games
//! (default 12; 3–8 players, `lite`, `p2p_purchases`, Version 1 and every FAQ option, as
//! `tests/g1841_full_games.rs` mixes them). At every step it hashes, for every seat, the legal
//! actions with their ranges, the seats to act, the view of every seat and of a spectator,
//! the validator's verdict, the events and the state after the action taken, and the
//! answers (events and new state, or the rejection with its message) to probe actions: a few
//! listed ones, variants of them with one field changed (another rotation, tile, city,
//! price, percent, …) and a pass by a seat not to act. One line per game, then a total.
//! The hash is the standard library's `DefaultHasher` over `Debug` text: stable for one
//! toolchain, so compare digests made with the same `rustc`.

use std::hash::{DefaultHasher, Hash, Hasher};

use referee_engine::g1841::import18xx::parse_export;
use referee_engine::g1841::{Action, G1841, Options, State, validate};
use referee_engine::{Game, Seat, Viewer};

const FIXTURES: [&str; 2] = ["132002.json", "1841_game_end_bank.json"];

/// xorshift64*: the same numbers on every machine.
struct Rng(u64);

impl Rng {
    fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
}

fn feed(h: &mut DefaultHasher, x: &impl std::fmt::Debug) {
    format!("{x:?}").hash(h);
}

/// Variants of `a` with one field changed: most are refused, with a message to compare.
fn variants(a: &Action, rng: &mut Rng) -> Vec<Action> {
    let mut out = Vec::new();
    match a {
        Action::LayTile {
            hex,
            tile,
            rotation,
        } => {
            out.push(Action::LayTile {
                hex: hex.clone(),
                tile: tile.clone(),
                rotation: (rotation + 1 + rng.below(5) as u32) % 6,
            });
            for t in ["8", "9", "57", "14", "15", "202", "23", "24", "X1"] {
                out.push(Action::LayTile {
                    hex: hex.clone(),
                    tile: t.to_string(),
                    rotation: *rotation,
                });
            }
            out.push(Action::LayTile {
                hex: ["F8", "E9", "H4", "G5", "B1", "Z99"][rng.below(6)].to_string(),
                tile: tile.clone(),
                rotation: *rotation,
            });
        }
        Action::PlaceToken { hex, city } => {
            out.push(Action::PlaceToken {
                hex: hex.clone(),
                city: city + 1,
            });
            out.push(Action::PlaceToken {
                hex: ["F8", "E9", "H4", "G5"][rng.below(4)].to_string(),
                city: 0,
            });
        }
        Action::Par { corporation, price } => {
            out.push(Action::Par {
                corporation: corporation.clone(),
                price: price + 1,
            });
            out.push(Action::Par {
                corporation: "SFTG".to_string(),
                price: *price,
            });
        }
        Action::BuyShares {
            corporation,
            from_pool,
            percent,
        } => {
            out.push(Action::BuyShares {
                corporation: corporation.clone(),
                from_pool: !from_pool,
                percent: *percent,
            });
            out.push(Action::BuyShares {
                corporation: corporation.clone(),
                from_pool: *from_pool,
                percent: percent * 2,
            });
        }
        Action::SellShares {
            corporation,
            percent,
        } => {
            out.push(Action::SellShares {
                corporation: corporation.clone(),
                percent: percent + 10,
            });
        }
        Action::BuyTrain { train, from, price } => {
            out.push(Action::BuyTrain {
                train: train.clone(),
                from: from.clone(),
                price: price - 1,
            });
            out.push(Action::BuyTrain {
                train: train.clone(),
                from: "pool".to_string(),
                price: *price,
            });
        }
        Action::RunRoutes { routes } if !routes.is_empty() => {
            out.push(Action::RunRoutes {
                routes: routes[1..].to_vec(),
            });
            let mut longer = routes.clone();
            longer[0].stops.reverse();
            longer[0].connections.reverse();
            out.push(Action::RunRoutes { routes: longer });
        }
        Action::Bid { concession, price } => {
            out.push(Action::Bid {
                concession: concession.clone(),
                price: price - 1,
            });
        }
        Action::BuyTokens { count } => out.push(Action::BuyTokens { count: count + 1 }),
        Action::BuyToken {
            hex,
            city,
            seller,
            price,
        } => out.push(Action::BuyToken {
            hex: hex.clone(),
            city: *city,
            seller: seller.clone(),
            price: price - 1,
        }),
        Action::EmergencySell {
            seller,
            corporation,
            percent,
        } => out.push(Action::EmergencySell {
            seller: seller.clone(),
            corporation: corporation.clone(),
            percent: percent + 10,
        }),
        _ => {}
    }
    out.push(Action::Pass);
    out.push(Action::Dividend { payout: true });
    out
}

/// Hashes what the engine shows in `state` and its answers to probe actions.
fn probe(h: &mut DefaultHasher, state: &State, rng: &mut Rng) {
    let players = state.players.len() as Seat;
    let to_act = G1841::to_act(state);
    feed(h, &to_act);
    feed(h, &validate::validate(state));
    feed(h, &G1841::outcome(state));
    feed(h, &G1841::view(state, Viewer::Spectator));
    for seat in 0..players {
        feed(h, &G1841::legal(state, seat));
        feed(h, &G1841::view(state, Viewer::Seat(seat)));
    }
    let Some(&seat) = to_act.first() else { return };
    let listed = G1841::legal_actions(state, seat);
    feed(h, &listed);
    let mut probes = Vec::new();
    for _ in 0..3.min(listed.len()) {
        let a = &listed[rng.below(listed.len())];
        probes.push(a.clone());
        probes.extend(variants(a, rng));
    }
    for a in &probes {
        let mut s = state.clone();
        match G1841::apply(&mut s, seat, a) {
            Ok(events) => {
                feed(h, &events);
                feed(h, &s);
            }
            Err(r) => {
                feed(h, &r);
                assert_eq!(&s, state, "a refused {a:?} changed the state");
            }
        }
    }
    if let Some(other) = (0..players).find(|s| !to_act.contains(s)) {
        let mut s = state.clone();
        feed(h, &G1841::apply(&mut s, other, &Action::Pass));
    }
}

fn replay(text: &str, rng: &mut Rng) -> (u64, usize) {
    let mut h = DefaultHasher::new();
    let export = parse_export(text).expect("export parses");
    let options = export.options().expect("options");
    let mut state = G1841::setup(&options, export.players.len() as u32, 0).expect("setup");
    let mut applied = 0;
    for a in &export.actions {
        if a.kind == "destination_connection" || a.kind.starts_with("program_") {
            continue;
        }
        probe(&mut h, &state, rng);
        let mapped = a.to_action(&state);
        feed(&mut h, &mapped);
        let Ok(Some((seat, action))) = mapped else {
            continue;
        };
        let result = G1841::apply(&mut state, seat, &action);
        feed(&mut h, &result);
        feed(&mut h, &state);
        if result.is_err() {
            break;
        }
        applied += 1;
    }
    probe(&mut h, &state, rng);
    (h.finish(), applied)
}

fn rare(a: &Action) -> bool {
    match a {
        Action::DeclareBankruptcy { .. } | Action::OfferPurchase { .. } => true,
        Action::Dividend { payout } => !payout,
        Action::BuyTrain { from, .. } => from != "depot" && from != "pool",
        _ => false,
    }
}

fn random_game(k: u64) -> (u64, usize, String) {
    let players = 3 + (k % 6) as u32;
    let base = Options {
        lite: k % 7 == 6 && players <= 6,
        p2p_purchases: k % 2 == 1,
        ..Options::default()
    };
    let rule_set = ["Version 2", "version_1", "every FAQ option"][(k % 3) as usize];
    let options = match k % 3 {
        0 => base,
        1 => Options {
            version_1: true,
            sfli_run_variant: true,
            ..base
        },
        _ => base.with_all_faq_rulings(),
    };
    let mut h = DefaultHasher::new();
    let mut rng = Rng((1000 + k).wrapping_mul(2) | 1);
    let mut state = G1841::setup(&options, players, 0).expect("setup");
    for step in 0..20_000 {
        probe(&mut h, &state, &mut rng);
        if G1841::outcome(&state).is_some() {
            return (
                h.finish(),
                step,
                format!(
                    "{players} players, {rule_set}, lite {}, p2p {}",
                    options.lite, options.p2p_purchases
                ),
            );
        }
        let to_act = G1841::to_act(&state);
        let seat = to_act[rng.below(to_act.len())];
        let legal = G1841::legal_actions(&state, seat);
        let common: Vec<&Action> = legal.iter().filter(|a| !rare(a)).collect();
        let pick = if !common.is_empty() && rng.below(8) != 0 {
            common[rng.below(common.len())].clone()
        } else {
            legal[rng.below(legal.len())].clone()
        };
        let events = G1841::apply(&mut state, seat, &pick).expect("a listed action is accepted");
        feed(&mut h, &events);
        feed(&mut h, &state);
    }
    (h.finish(), 20_000, "unfinished".to_string())
}

fn main() {
    let games: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(12);
    let mut total = DefaultHasher::new();
    for name in FIXTURES {
        let path = format!(
            "{}/../tests/fixtures/1841/{name}",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(&path).expect("fixture");
        let (digest, applied) = replay(&text, &mut Rng(7));
        println!("{name}: {applied} actions, digest {digest:016x}");
        digest.hash(&mut total);
    }
    for k in 0..games {
        let (digest, steps, what) = random_game(k);
        println!("random game {k}: {steps} actions, digest {digest:016x} ({what})");
        digest.hash(&mut total);
    }
    println!("total {:016x}", total.finish());
}
