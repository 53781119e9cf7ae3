//! Adds states to the golden corpus (`tests/golden/`, docs/COMPATIBILITY.md).
//!
//! ```text
//! cargo run -p referee-tests --example golden -- defaults
//! cargo run -p referee-tests --example golden -- add NAME --game 1841|autobahn --seats N \
//!     [--option KEY=VALUE]... [--seed S] [--moves M | --to-end] [--note TEXT]
//! cargo run -p referee-tests --example golden -- import NAME FILE.json [--stop-at ACTION_ID]
//! ```
//!
//! `defaults` writes the standard corpus (only files that do not exist yet); `add` sets up a
//! game and plays `M` seeded random legal moves (or to the end); `import` replays a recorded
//! 18xx.games game of 1841 (to its end or up to an action id). Each new state is written as
//! `tests/golden/NAME.pb` (the `GameState` envelope's wire bytes) and appended to
//! `tests/golden/MANIFEST.tsv`. An existing file is never overwritten: golden files are only
//! ever added (the test `golden` fails when one changes or stops decoding).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use prost::Message;
use referee_engine::{Game, Seat};
use referee_service::games::autobahn::WireAutobahn;
use referee_service::games::g1841::Wire1841;
use referee_service::games::{WireGame, encode_state};
use referee_service::pb::v1 as pb;
use referee_tests::Rng;
use sha2::{Digest, Sha256};

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("golden")
}

/// Rare 1841 choices (bankruptcy, offers, withholding, trains from other corporations) are
/// picked one time in eight, so random games progress like real ones.
fn rare_1841(a: &referee_engine::g1841::Action) -> bool {
    use referee_engine::g1841::Action;
    match a {
        Action::DeclareBankruptcy { .. } | Action::OfferPurchase { .. } => true,
        Action::Dividend { payout } => !payout,
        Action::BuyTrain { from, .. } => from != "depot" && from != "pool",
        _ => false,
    }
}

fn rare_autobahn(a: &referee_engine::autobahn::Action) -> bool {
    use referee_engine::autobahn::Action;
    matches!(a, Action::TakeBackCards | Action::Decline)
}

/// Plays `moves` random legal moves (or until the game ends); returns the state and the number
/// of actions applied.
fn play<W: WireGame>(
    mut state: <W::G as Game>::State,
    seed: u64,
    moves: usize,
    rare: fn(&<W::G as Game>::Action) -> bool,
) -> (<W::G as Game>::State, u64) {
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut n = 0u64;
    for _ in 0..moves {
        if W::G::outcome(&state).is_some() {
            break;
        }
        let to_act = W::G::to_act(&state);
        let Some(&seat) = to_act.get(rng.below(to_act.len())) else {
            break;
        };
        let legal = W::G::legal_actions(&state, seat as Seat);
        let common: Vec<_> = legal.iter().filter(|a| !rare(a)).collect();
        let pick = if !common.is_empty() && rng.below(8) != 0 {
            common[rng.below(common.len())].clone()
        } else {
            legal[rng.below(legal.len())].clone()
        };
        W::G::apply(&mut state, seat, &pick).expect("a legal action is accepted");
        n += 1;
    }
    (state, n)
}

fn phase_of(finished: bool, count: u64) -> &'static str {
    if finished {
        "finished"
    } else if count == 0 {
        "setup"
    } else {
        "in-progress"
    }
}

/// Writes `NAME.pb` and its manifest line; refuses to overwrite.
fn write(name: &str, gs: &pb::GameState, finished: bool, to_act: &[Seat], note: &str) -> bool {
    let dir = golden_dir();
    std::fs::create_dir_all(&dir).expect("create tests/golden");
    let file = format!("{name}.pb");
    let path = dir.join(&file);
    if path.exists() {
        eprintln!("golden: {file} exists; golden files are never regenerated (pick a new name)");
        return false;
    }
    let bytes = gs.encode_to_vec();
    std::fs::write(&path, &bytes).expect("write golden file");
    let manifest = dir.join("MANIFEST.tsv");
    let mut text = std::fs::read_to_string(&manifest).unwrap_or_else(|_| {
        "# file\tgame\tschema_version\taction_count\tphase\tto_act\tsha256\trules_version\tnote\n"
            .to_string()
    });
    let to_act: Vec<String> = to_act.iter().map(|s| s.to_string()).collect();
    let to_act = if to_act.is_empty() {
        "-".to_string()
    } else {
        to_act.join(",")
    };
    text.push_str(&format!(
        "{file}\t{}\t{}\t{}\t{}\t{to_act}\t{}\t{}\t{note}\n",
        gs.game,
        gs.schema_version,
        gs.action_count,
        phase_of(finished, gs.action_count),
        hex(&Sha256::digest(&bytes)),
        gs.rules_version,
    ));
    std::fs::write(&manifest, text).expect("write manifest");
    println!(
        "golden: wrote {file} ({} bytes, {} actions)",
        bytes.len(),
        gs.action_count
    );
    true
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn add_game<W: WireGame>(
    name: &str,
    options: &BTreeMap<String, String>,
    seats: u32,
    seed: u64,
    moves: usize,
    rare: fn(&<W::G as Game>::Action) -> bool,
    note: &str,
) -> bool {
    let opts = W::options_from_pb(options).unwrap_or_else(|e| panic!("options: {}", e.message()));
    let state = W::G::setup(&opts, seats, seed).unwrap_or_else(|e| panic!("setup: {e}"));
    let (state, n) = play::<W>(state, seed, moves, rare);
    let gs = encode_state::<W>(&state, n);
    write(
        name,
        &gs,
        W::G::outcome(&state).is_some(),
        &W::G::to_act(&state),
        note,
    )
}

fn add(
    name: &str,
    game: &str,
    options: &[(&str, &str)],
    seats: u32,
    seed: u64,
    moves: usize,
    note: &str,
) -> bool {
    let options: BTreeMap<String, String> = options
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    match game {
        "1841" => add_game::<Wire1841>(name, &options, seats, seed, moves, rare_1841, note),
        "autobahn" => {
            add_game::<WireAutobahn>(name, &options, seats, seed, moves, rare_autobahn, note)
        }
        other => panic!("unknown game `{other}`"),
    }
}

fn import(name: &str, file: &Path, stop_at: Option<i64>, note: &str) -> bool {
    use referee_engine::g1841::import18xx::{ReplaySettings, replay};
    let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let r = replay(
        &text,
        &ReplaySettings {
            check: false,
            stop_at_action_id: stop_at,
        },
    );
    if let Some(f) = &r.failure {
        panic!("{}: replay failed: {f:?}", file.display());
    }
    let state = r.state.expect("a replayed state");
    let gs = encode_state::<Wire1841>(&state, r.actions.len() as u64);
    write(
        name,
        &gs,
        referee_engine::g1841::G1841::outcome(&state).is_some(),
        &<referee_engine::g1841::G1841 as Game>::to_act(&state),
        note,
    )
}

/// The standard corpus: both games, every phase, 1841 in Version 2, Version 1 and lite,
/// Autobahn solo and 2–4 players.
fn defaults() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/1841");
    let g = fixtures.join("132002.json");
    let bank = fixtures.join("1841_game_end_bank.json");
    import(
        "1841-v2-132002-early",
        &g,
        Some(60),
        "recorded game 132002 up to action id 60",
    );
    import(
        "1841-v2-132002-mid",
        &g,
        Some(180),
        "recorded game 132002 up to action id 180",
    );
    import(
        "1841-v2-132002-late",
        &g,
        Some(750),
        "recorded game 132002 up to action id 750",
    );
    import(
        "1841-v2-132002-finished",
        &g,
        None,
        "recorded game 132002 to its end",
    );
    import(
        "1841-lite-recorded-finished",
        &bank,
        None,
        "recorded lite game (bank broken) to its end",
    );
    let v1 = [("version_1", "true")];
    let lite = [("lite", "true")];
    let p2p = [("p2p_purchases", "true")];
    add(
        "1841-v2-setup-4p",
        "1841",
        &[],
        4,
        1,
        0,
        "Version 2, 4 players, setup",
    );
    add(
        "1841-v1-setup-5p",
        "1841",
        &v1,
        5,
        2,
        0,
        "Version 1 (sealed bids), 5 players, setup",
    );
    add(
        "1841-v1-sealed-bids-5p",
        "1841",
        &v1,
        5,
        3,
        3,
        "Version 1, 3 sealed bids made (hidden)",
    );
    add(
        "1841-v1-mid-4p",
        "1841",
        &v1,
        4,
        4,
        400,
        "Version 1, 4 players, 400 random moves",
    );
    add(
        "1841-lite-setup-3p",
        "1841",
        &lite,
        3,
        5,
        0,
        "lite, 3 players, setup",
    );
    add(
        "1841-lite-mid-3p",
        "1841",
        &lite,
        3,
        6,
        300,
        "lite, 3 players, 300 random moves",
    );
    add(
        "1841-lite-finished-4p",
        "1841",
        &lite,
        4,
        7,
        20_000,
        "lite, 4 players, random to the end",
    );
    add(
        "1841-v2-p2p-late-6p",
        "1841",
        &p2p,
        6,
        8,
        800,
        "Version 2, p2p purchases, 6 players, 800 random moves",
    );
    add(
        "autobahn-solo-setup",
        "autobahn",
        &[],
        1,
        11,
        0,
        "solo against the Autobot, setup",
    );
    add(
        "autobahn-solo-mid",
        "autobahn",
        &[("autobot_level", "5")],
        1,
        12,
        25,
        "solo, Autobot level 5, 25 random moves",
    );
    add(
        "autobahn-solo-finished",
        "autobahn",
        &[],
        1,
        13,
        20_000,
        "solo, random to the end",
    );
    add(
        "autobahn-2p-mid",
        "autobahn",
        &[],
        2,
        14,
        120,
        "2 players, 120 random moves",
    );
    add(
        "autobahn-3p-late",
        "autobahn",
        &[],
        3,
        15,
        130,
        "3 players, 130 random moves",
    );
    add(
        "autobahn-4p-setup",
        "autobahn",
        &[],
        4,
        16,
        0,
        "4 players, setup",
    );
    add(
        "autobahn-4p-mid",
        "autobahn",
        &[],
        4,
        17,
        90,
        "4 players, 90 random moves",
    );
    add(
        "autobahn-4p-finished",
        "autobahn",
        &[],
        4,
        18,
        20_000,
        "4 players, random to the end",
    );
}

fn usage() -> ! {
    eprintln!(
        "usage: golden defaults\n       golden add NAME --game 1841|autobahn --seats N [--option K=V]... [--seed S] [--moves M | --to-end] [--note TEXT]\n       golden import NAME FILE.json [--stop-at ACTION_ID] [--note TEXT]"
    );
    std::process::exit(2)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flag = |name: &str| -> Option<String> {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1).cloned())
    };
    let ok = match args.first().map(String::as_str) {
        Some("defaults") => {
            defaults();
            true
        }
        Some("add") => {
            let name = args.get(1).cloned().unwrap_or_else(|| usage());
            let game = flag("--game").unwrap_or_else(|| usage());
            let seats = flag("--seats")
                .and_then(|s| s.parse().ok())
                .unwrap_or_else(|| usage());
            let seed = flag("--seed").and_then(|s| s.parse().ok()).unwrap_or(0);
            let moves = if args.iter().any(|a| a == "--to-end") {
                20_000
            } else {
                flag("--moves").and_then(|s| s.parse().ok()).unwrap_or(0)
            };
            let opts: Vec<(String, String)> = args
                .windows(2)
                .filter(|w| w[0] == "--option")
                .filter_map(|w| {
                    w[1].split_once('=')
                        .map(|(k, v)| (k.to_string(), v.to_string()))
                })
                .collect();
            let opts: Vec<(&str, &str)> =
                opts.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
            let note = flag("--note").unwrap_or_default();
            add(&name, &game, &opts, seats, seed, moves, &note)
        }
        Some("import") => {
            let name = args.get(1).cloned().unwrap_or_else(|| usage());
            let file = args.get(2).cloned().unwrap_or_else(|| usage());
            let stop = flag("--stop-at").and_then(|s| s.parse().ok());
            let note = flag("--note").unwrap_or_default();
            import(&name, Path::new(&file), stop, &note)
        }
        _ => usage(),
    };
    if !ok && args.first().map(String::as_str) != Some("defaults") {
        std::process::exit(1);
    }
}
