//! Plays one Autobahn game with strategy bots and prints every action (debugging aid):
//! `cargo run --release -p referee-engine --example autobahn_bot_trace -- SEED NAME,NAME[,..]`.
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use referee_engine::Game;
use referee_engine::autobahn::bots::{Strategy, choose};
use referee_engine::autobahn::{Autobahn, Options};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let seed: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    let names: Vec<Strategy> = args
        .get(2)
        .map_or("balanced,builder", String::as_str)
        .split(',')
        .filter_map(Strategy::from_name)
        .collect();
    let mut options = Options::default();
    if let Some(path) = args.get(3) {
        let text = std::fs::read_to_string(path).expect("board file");
        options.set("board", &text).expect("board");
    }
    let mut state = Autobahn::setup(&options, names.len() as u32, seed).expect("setup");
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for n in 0..5000 {
        if let Some(o) = Autobahn::outcome(&state) {
            println!("END after {n}: {:?}", o.scores);
            if let Some(r) = &state.result {
                for l in &r.scores {
                    println!("{l:?}");
                }
            }
            return;
        }
        let seat = Autobahn::to_act(&state)[0];
        let legal = Autobahn::legal_actions(&state, seat);
        if n == 1000 {
            for l in &legal {
                let mut c = state.clone();
                let _ = Autobahn::apply(&mut c, seat, l);
                let p = state.player_of(seat).unwrap_or(0);
                println!(
                    "  legal {l:?} -> {:.2}",
                    referee_engine::autobahn::bots::evaluate(&c, p, names[seat as usize])
                );
            }
            println!(
                "  supply {:?} hand {:?}",
                state.era_supply, state.players[seat as usize].hand
            );
        }
        let a = choose(names[seat as usize], &state, seat, legal, &mut rng);
        println!(
            "{n} era{} s{seat} dm{} {a:?}",
            state.era, state.players[seat as usize].dm
        );
        Autobahn::apply(&mut state, seat, &a).expect("legal");
    }
    println!("unfinished");
}
