//! Scratch probe (not committed): replays an export with the importer and prints, for our
//! action indices FROM..=TO, the round, the action applied and each seat's legal actions.
use referee_engine::Game;
use referee_engine::g1841::G1841;
use referee_engine::g1841::import18xx::{ReplaySettings, replay};
use referee_engine::g1841::state::Round;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let text = std::fs::read_to_string(&args[1]).unwrap();
    let from: usize = args[2].parse().unwrap();
    let to: usize = args[3].parse().unwrap();
    let r = replay(&text, &ReplaySettings::default());
    println!("failure: {:?}", r.failure.as_ref().map(|f| &f.reason));
    let export = r.export.unwrap();
    let options = export.options().unwrap();
    let mut state = G1841::setup(&options, export.players.len() as u32, 0).unwrap();
    for (i, (seat, a)) in r.actions.iter().enumerate() {
        if i > to {
            break;
        }
        if i >= from {
            let round = match &state.round {
                Round::OperatingRound(o) => format!(
                    "OR {}.{} current {:?} step {:?} event {:?}",
                    o.stock_round,
                    o.number,
                    o.current,
                    o.step,
                    o.event
                        .as_ref()
                        .map(|e| format!("{e:?}").chars().take(300).collect::<String>())
                ),
                Round::StockRound(s) => format!("SR {}", s.number),
                Round::ConcessionRound(_) => "CR".into(),
            };
            println!("--- index {i} (id {:?}) {round}", r.action_ids.get(i));
            for s in G1841::to_act(&state) {
                let l = G1841::legal(&state, s);
                let v: Vec<String> = l
                    .actions
                    .iter()
                    .take(12)
                    .map(|a| format!("{a:?}"))
                    .collect();
                println!("  seat {s} legal ({}): {}", l.actions.len(), v.join(" | "));
            }
            println!("  APPLY seat {seat}: {a:?}");
        }
        let ev = G1841::apply(&mut state, *seat, a).unwrap();
        if i >= from {
            println!(
                "  events: {:?}",
                ev.iter()
                    .map(|e| format!("{e:?}"))
                    .collect::<Vec<_>>()
                    .join("; ")
                    .chars()
                    .take(600)
                    .collect::<String>()
            );
        }
    }
}
