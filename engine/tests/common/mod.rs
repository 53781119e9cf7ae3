//! Helpers shared by the 1841 integration tests: the recorded games in `tests/fixtures/1841`
//! and the states they pass through. Each test crate uses a part of them.
#![allow(dead_code)]

pub mod edit;
pub mod g1841;

use std::path::PathBuf;

use referee_engine::Game;
use referee_engine::g1841::import18xx::{ReplaySettings, parse_export, replay};
use referee_engine::g1841::{G1841, ShareOwner, State};

/// The text of `tests/fixtures/1841/<rel>` (a recorded game or a snapshot).
pub fn fixture(rel: &str) -> String {
    let path: PathBuf = [
        env!("CARGO_MANIFEST_DIR"),
        "..",
        "tests",
        "fixtures",
        "1841",
        rel,
    ]
    .iter()
    .collect();
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The state of recorded game `name` (`132002`, `1841_game_end_bank`) just before action
/// `id`: every earlier effective action applied, with the importer's mapping.
pub fn before_in(name: &str, id: i64) -> State {
    let export = parse_export(&fixture(&format!("{name}.json"))).unwrap();
    let options = export.options().unwrap();
    let mut state = G1841::setup(&options, export.players.len() as u32, 0).unwrap();
    for action in &export.actions {
        if action.id.is_some_and(|a| a >= id) {
            break;
        }
        if action.kind == "destination_connection" || action.kind.starts_with("program") {
            continue;
        }
        let (seat, a) = action.to_action(&state).unwrap().unwrap();
        G1841::apply(&mut state, seat, &a).unwrap();
    }
    state
}

/// Every state of recorded game `name` (`132002`, `1841_game_end_bank`), from the setup on:
/// the setup, then the state after each action the importer replays.
pub fn recorded_states(name: &str) -> Vec<State> {
    let r = replay(
        &fixture(&format!("{name}.json")),
        &ReplaySettings::default(),
    );
    let export = r.export.expect("export");
    let options = export.options().expect("options");
    let mut state = G1841::setup(&options, export.players.len() as u32, 0).expect("setup");
    let mut out = vec![state.clone()];
    for (seat, a) in &r.actions {
        G1841::apply(&mut state, *seat, a).expect("a recorded action");
        out.push(state.clone());
    }
    out
}

/// The tests' seeded random numbers (xorshift64*): small, fast and the same on every machine,
/// so a failing seed replays exactly.
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
}

/// Moves `percent` of ordinary certificates of `corp` from `from` to `to`.
pub fn move_shares(s: &mut State, corp: &str, from: &ShareOwner, to: &ShareOwner, percent: u32) {
    let c = s.corporations.iter_mut().find(|c| c.sym == corp).unwrap();
    let mut left = percent;
    for k in c.certificates.iter_mut() {
        if left > 0 && &k.owner == from && !k.president && k.percent <= left {
            k.owner = to.clone();
            left -= k.percent;
        }
    }
    assert_eq!(left, 0, "{percent}% of {corp} held by {from:?}");
}

/// Sets a corporation's or a player's cash, the difference moved to or from the bank.
pub fn set_cash(s: &mut State, who: &ShareOwner, cash: i64) {
    let have = match who {
        ShareOwner::Corporation(c) => {
            let c = s.corporations.iter_mut().find(|x| &x.sym == c).unwrap();
            std::mem::replace(&mut c.cash, cash)
        }
        ShareOwner::Player(p) => std::mem::replace(&mut s.players[*p as usize].cash, cash),
        _ => unreachable!(),
    };
    s.bank_cash += have - cash;
}

/// Sets how many trains of each type the depot has sold (`sold`, type and count). Trains
/// sold on top of the recorded ones are set aside as rusted, so trains stay conserved (the
/// invariant checker runs after every apply in debug builds).
pub fn set_depot_sold(s: &mut State, sold: &[(&str, u32)]) {
    for &(t, n) in sold {
        let before = s.operations.depot_sold.insert(t.into(), n).unwrap_or(0);
        s.operations
            .rusted
            .extend((before..n).map(|i| format!("{t}-{i}")));
    }
}

/// [`set_depot_sold`] down to the L.1,100 7-trains: every 2- to 6-train sold.
pub fn depot_down_to_7_trains(s: &mut State) {
    set_depot_sold(s, &[("2", 6), ("3", 5), ("4", 3), ("5", 2), ("6", 2)]);
}
