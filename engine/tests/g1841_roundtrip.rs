use referee_engine::g1841::export18xx::{ExportSettings, export};
use referee_engine::g1841::import18xx::{ReplaySettings, replay};
use referee_engine::g1841::{Action, G1841, Options};
use referee_engine::{Game, Seat};

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn random_game(options: Options, players: u32, seed: u64) -> Vec<(Seat, Action)> {
    let rare = |a: &Action| match a {
        Action::DeclareBankruptcy { .. } | Action::OfferPurchase { .. } => true,
        Action::Dividend { payout } => !payout,
        Action::BuyTrain { from, .. } => from != "depot" && from != "pool",
        _ => false,
    };
    let mut state = G1841::setup(&options, players, 0).unwrap();
    let mut rng = Rng(seed.wrapping_mul(2) | 1);
    let mut history = Vec::new();
    for _ in 0..20_000 {
        if G1841::outcome(&state).is_some() {
            return history;
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
        G1841::apply(&mut state, seat, &pick).unwrap();
        history.push((seat, pick));
    }
    panic!("seed {seed}: no result after 20,000 actions");
}

#[test]
#[ignore]
fn dump() {
    let seed: u64 = std::env::var("SEED").unwrap().parse().unwrap();
    let options = Options::default();
    let history = random_game(options, 4, seed);
    let written = export(&options, 4, &history, &ExportSettings::default()).unwrap();
    std::fs::write("/tmp/rt/export.json", serde_json::to_string_pretty(&written.json).unwrap()).unwrap();
    let mut h = String::new();
    let mut st = G1841::setup(&options, 4, 0).unwrap();
    for (i, (s, a)) in history.iter().enumerate() {
        G1841::apply(&mut st, *s, a).unwrap();
        let r = match &st.round {
            referee_engine::g1841::Round::OperatingRound(o) => format!("OR{}.{}/{} {:?} {:?}", o.stock_round, o.number, o.total, o.current, o.step),
            referee_engine::g1841::Round::StockRound(_) => "SR".to_string(),
            _ => "CR".to_string(),
        };
        h += &format!("{i} id={:?} seat={s} {a:?}  => {r}\n", written.action_ids.get(i));
    }
    std::fs::write("/tmp/rt/history.txt", h).unwrap();
    let again = replay(&written.json.to_string(), &ReplaySettings::default());
    println!("{:?}", again.failure);
}

fn modes() -> Vec<(&'static str, Options, u32)> {
    let mut v = Vec::new();
    for p in 3..=8 {
        v.push(("v2", Options::default(), p));
    }
    for p in 3..=6 {
        v.push(("lite", Options { lite: true, ..Options::default() }, p));
    }
    for p in [3, 4, 5, 6] {
        v.push(("v1", Options { version_1: true, ..Options::default() }, p));
        v.push(("v1-sfli", Options { version_1: true, sfli_run_variant: true, ..Options::default() }, p));
        v.push(("p2p", Options { p2p_purchases: true, ..Options::default() }, p));
    }
    v
}

#[test]
#[ignore]
fn survey() {
    let n: u64 = std::env::var("SEEDS").ok().and_then(|v| v.parse().ok()).unwrap_or(5);
    let mut bad = 0;
    for (name, options, players) in modes() {
        for seed in 0..n {
            let t = std::time::Instant::now();
            let history = random_game(options, players, seed);
            let t1 = t.elapsed();
            let written = export(&options, players, &history, &ExportSettings::default()).unwrap();
            if let Some(f) = &written.failure {
                println!("{name} {players}p seed {seed}: EXPORT {f:?}");
                bad += 1;
                continue;
            }
            let again = replay(&written.json.to_string(), &ReplaySettings::default());
            let t2 = t.elapsed();
            match &again.failure {
                Some(f) => { bad += 1; println!("{name} {players}p seed {seed}: id {:?} idx {:?} {} {}", f.action_id, f.action_index, f.action_type.clone().unwrap_or_default(), f.reason); }
                None => {
                    let same_state = again.state.as_ref() == Some(&written.state);
                    let same = again.actions == history;
                    if !same_state || !same {
                        bad += 1;
                        let k = again.actions.iter().zip(&history).position(|(a, b)| a != b);
                        println!("{name} {players}p seed {seed}: state {same_state} actions {same} first diff {k:?} lens {} {}", again.actions.len(), history.len());
                    }
                }
            }
            eprintln!("{name} {players}p seed {seed}: {} actions, play {:?} total {:?}", history.len(), t1, t2);
        }
    }
    println!("bad {bad}");
}
