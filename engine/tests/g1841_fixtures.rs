//! The oracle: replays the concession round of each recorded 18xx.games game
//! (`tests/fixtures/1841/*.json`) and compares the state with the first line of its
//! `snapshots/<name>.rounds.jsonl` (the state at the start of Stock Round 1).

use referee_engine::g1841::import18xx::{Export, parse_export};
use referee_engine::g1841::{Concession, G1841, Round, State};
use referee_engine::{Game, Seat};
use serde_json::Value;

mod common;
use common::fixture;

/// Replays the effective actions while the concession round lasts; returns the state and
/// the index of the first action not applied.
fn replay_concession_round(export: &Export) -> (State, usize) {
    let options = export.options().unwrap();
    let mut state = G1841::setup(&options, export.players.len() as u32, 0).unwrap();
    let mut applied = 0;
    for action in &export.actions {
        if !matches!(state.round, Round::ConcessionRound(_)) {
            break;
        }
        let (seat, a) = action
            .concession_round_action()
            .unwrap()
            .unwrap_or_else(|| {
                panic!(
                    "action {:?} ({}) inside the concession round",
                    action.id, action.kind
                )
            });
        assert!(
            G1841::to_act(&state).contains(&seat),
            "action {:?}: seat {seat} acts, engine expects {:?}",
            action.id,
            G1841::to_act(&state)
        );
        G1841::apply(&mut state, seat, &a).unwrap_or_else(|r| {
            panic!("action {:?} {a:?} by seat {seat} rejected: {r}", action.id)
        });
        applied += 1;
    }
    (state, applied)
}

fn check_against_first_snapshot(name: &str, expected_players: usize, expected_actions: usize) {
    let export = parse_export(&fixture(&format!("{name}.json"))).unwrap();
    assert_eq!(export.players.len(), expected_players);
    let (state, applied) = replay_concession_round(&export);
    assert_eq!(
        applied, expected_actions,
        "effective concession-round actions"
    );
    assert_eq!(
        export.actions[applied].kind, "par",
        "first stock-round action"
    );
    assert!(matches!(state.round, Round::StockRound(ref sr) if sr.number == 1));

    let snapshots = fixture(&format!("snapshots/{name}.rounds.jsonl"));
    let first: Value = serde_json::from_str(snapshots.lines().next().unwrap()).unwrap();
    assert_eq!(first["round"], "Stock");
    assert_eq!(first["round_num"], 1);
    assert_eq!(first["phase"].as_str().unwrap(), state.phase);
    assert_eq!(
        first["bank_cash"].as_i64().unwrap(),
        state.bank_cash,
        "bank cash"
    );

    // The snapshot lists the players in the new order.
    let order: Vec<Seat> = first["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| export.seat_of(&p["id"].to_string()).unwrap())
        .collect();
    assert_eq!(state.player_order, order, "new player order");
    let Round::StockRound(sr) = &state.round else {
        unreachable!()
    };
    assert_eq!(sr.priority_seat, order[0]);

    for p in first["players"].as_array().unwrap() {
        let seat = export.seat_of(&p["id"].to_string()).unwrap();
        let ours = &state.players[seat as usize];
        assert_eq!(
            ours.cash,
            p["cash"].as_i64().unwrap(),
            "cash of {}",
            p["name"]
        );
        let mut theirs: Vec<Concession> = p["concessions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap().parse().unwrap())
            .collect();
        theirs.sort();
        assert_eq!(ours.concessions, theirs, "concessions of {}", p["name"]);
    }
    // Every concession is owned by exactly one player or the bank.
    let mut owned: Vec<Concession> = state
        .players
        .iter()
        .flat_map(|p| p.concessions.iter().copied())
        .chain(state.bank_concessions.iter().copied())
        .collect();
    owned.sort();
    let all = referee_engine::g1841::setup::concessions_of(&state.options);
    assert_eq!(owned, all);
}

/// 132002.json: 4 players, Version 2, full map. Bank L.11,395; order P2 725, P1 745,
/// P4 760, P3 775.
#[test]
fn fixture_132002_concession_round_matches_snapshot() {
    check_against_first_snapshot("132002", 4, 53);
}

/// 1841_game_end_bank.json: 4 players, lite. Bank L.8,680; order P2 530 (Bayard) before
/// P3 530 (SFTG) by the lowest-numbered concession, then P4 550, P1 610.
#[test]
fn fixture_game_end_bank_concession_round_matches_snapshot() {
    check_against_first_snapshot("1841_game_end_bank", 4, 45);
}

#[test]
fn fixture_undo_filter_drops_the_undone_ssfl_bid() {
    // 132002: bid SSFL 35 (id 56) and passes 60/63 are undone by `undo` to ids 56 and 53.
    let export = parse_export(&fixture("132002.json")).unwrap();
    let ids: Vec<i64> = export
        .actions
        .iter()
        .take(30)
        .filter_map(|a| a.id)
        .collect();
    assert!(!ids.contains(&56) && !ids.contains(&60) && !ids.contains(&63));
    assert!(ids.contains(&53) && ids.contains(&67));
    // 1841_game_end_bank: the plain `undo` (id 37) removes the pass id 36.
    let export = parse_export(&fixture("1841_game_end_bank.json")).unwrap();
    let ids: Vec<i64> = export
        .actions
        .iter()
        .take(40)
        .filter_map(|a| a.id)
        .collect();
    assert!(!ids.contains(&36) && ids.contains(&35) && ids.contains(&38));
}

/// Replays the effective actions until Operating Round 1 begins (through the concession
/// round and Stock Round 1), mapping every action with `ImportedAction::to_action`; returns
/// the state and the number of actions applied.
fn replay_through_stock_round_1(export: &Export) -> (State, usize) {
    let options = export.options().unwrap();
    let mut state = G1841::setup(&options, export.players.len() as u32, 0).unwrap();
    let mut applied = 0;
    for action in &export.actions {
        if matches!(state.round, Round::OperatingRound(_)) {
            break;
        }
        let mapped = action
            .to_action(&state)
            .unwrap_or_else(|e| panic!("action {:?}: {e}", action.id));
        let Some((seat, a)) = mapped else {
            // Only 18xx's own programming actions are not game actions.
            assert!(
                action.kind.starts_with("program_"),
                "action {:?} ({}) not mapped",
                action.id,
                action.kind
            );
            continue;
        };
        assert_eq!(
            G1841::to_act(&state),
            [seat],
            "action {:?} ({}): the engine expects another seat",
            action.id,
            action.kind
        );
        G1841::apply(&mut state, seat, &a).unwrap_or_else(|r| {
            panic!("action {:?} {a:?} by seat {seat} rejected: {r}", action.id)
        });
        applied += 1;
        assert_eq!(state.total_money(), state_total(&state), "money");
    }
    (state, applied)
}

fn state_total(state: &State) -> i64 {
    referee_engine::g1841::data::ruleset(&state.options).bank_cash_total
}

/// Compares our state after Stock Round 1 with the second snapshot line (state at the start of
/// Operating Round 1.1): bank, players' cash, holdings and concessions, player order, and
/// every started corporation's price, market cell, cash, president, tokens, IPO and pool.
fn check_against_second_snapshot(name: &str) {
    use referee_engine::g1841::ShareOwner;
    let export = parse_export(&fixture(&format!("{name}.json"))).unwrap();
    let (state, applied) = replay_through_stock_round_1(&export);
    assert!(
        matches!(state.round, Round::OperatingRound(ref or) if or.stock_round == 1 && or.number == 1 && or.total == 1),
        "{:?}",
        state.round
    );
    assert_eq!(
        export.actions[applied].kind, "lay_tile",
        "the first operating-round action follows"
    );
    let snapshots = fixture(&format!("snapshots/{name}.rounds.jsonl"));
    let second: Value = serde_json::from_str(snapshots.lines().nth(1).unwrap()).unwrap();
    assert_eq!(second["round"], "Operating");
    assert_eq!(
        second["bank_cash"].as_i64().unwrap(),
        state.bank_cash,
        "bank"
    );
    let order: Vec<Seat> = second["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| export.seat_of(&p["id"].to_string()).unwrap())
        .collect();
    assert_eq!(state.player_order, order, "priority order after SR1");
    for p in second["players"].as_array().unwrap() {
        let seat = export.seat_of(&p["id"].to_string()).unwrap();
        let ours = &state.players[seat as usize];
        assert_eq!(
            ours.cash,
            p["cash"].as_i64().unwrap(),
            "cash of {}",
            p["name"]
        );
        let mut theirs: Vec<Concession> = p["concessions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap().parse().unwrap())
            .collect();
        theirs.sort();
        assert_eq!(ours.concessions, theirs, "concessions of {}", p["name"]);
        for corp in &state.corporations {
            let held = corp.percent_of(&ShareOwner::Player(seat));
            let expected = p["shares"][corp.sym.as_str()].as_u64().unwrap_or(0) as u32;
            assert_eq!(held, expected, "{} of {}", corp.sym, p["name"]);
        }
    }
    let corps = second["corporations"].as_array().unwrap();
    let started: Vec<&str> = state
        .corporations
        .iter()
        .filter(|c| c.started())
        .map(|c| c.sym.as_str())
        .collect();
    assert_eq!(
        started.len(),
        corps.len(),
        "started corporations {started:?}"
    );
    for c in corps {
        let sym = c["sym"].as_str().unwrap();
        let ours = state.corporation(sym).unwrap();
        let p = ours.share_price.unwrap();
        assert_eq!(
            ours.price().unwrap(),
            c["price"].as_i64().unwrap(),
            "{sym} price"
        );
        assert_eq!(
            [p.row as i64, p.col as i64],
            [
                c["coords"][0].as_i64().unwrap(),
                c["coords"][1].as_i64().unwrap()
            ],
            "{sym} cell"
        );
        assert_eq!(ours.cash, c["cash"].as_i64().unwrap(), "{sym} cash");
        let president = ours.president_seat().unwrap();
        assert_eq!(
            export.players[president as usize].name,
            c["president"].as_str().unwrap(),
            "{sym} president"
        );
        let hexes: Vec<&str> = ours.tokens.iter().map(|t| t.hex.as_str()).collect();
        let theirs: Vec<&str> = c["tokens_on_map"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| h.as_str().unwrap())
            .collect();
        assert_eq!(hexes, theirs, "{sym} tokens on the map");
        assert_eq!(
            ours.tokens_total as i64,
            c["tokens_total"].as_i64().unwrap(),
            "{sym} tokens"
        );
        assert_eq!(
            ours.ipo_percent() as i64,
            c["ipo_percent"].as_i64().unwrap(),
            "{sym} IPO"
        );
        assert_eq!(
            ours.pool_percent() as i64,
            c["pool_percent"].as_i64().unwrap(),
            "{sym} pool"
        );
        assert_eq!(c["frozen"], false);
    }
}

/// 132002 (V2): SR1 to the start of OR 1.1 — six corporations started (SFMA home token in
/// Firenze city 0 chosen by its president), P4 holds 50% SFTG without the presidency (the
/// concession lock), Bayard pays P4 L.20, the unused SFTN concession returns to the bank,
/// priority to P3 (after P4, the last to act). Bank L.12,025.
#[test]
fn fixture_132002_stock_round_1_matches_snapshot() {
    check_against_second_snapshot("132002");
}

/// 1841_game_end_bank (lite): SR1 — four majors started, Bayard pays P2, priority stays with
/// P2 (after P1, the last to act). Bank L.9,160.
#[test]
fn fixture_game_end_bank_stock_round_1_matches_snapshot() {
    check_against_second_snapshot("1841_game_end_bank");
}

/// Replays the effective actions from the start until Stock Round `sr` begins. The
/// `destination_connection` markers are not replayed; every other action (including 18xx's
/// programmed automatic passes) is applied, must be listed by `G1841::legal`, and every route
/// set must earn exactly the recorded revenue.
fn replay_until_stock_round(export: &Export, sr: u32) -> State {
    replay_until(
        export,
        |state, _| matches!(state.round, Round::StockRound(ref r) if r.number >= sr),
    )
}

/// Replays every effective action up to and including action `id` (and the automatic actions
/// recorded with it).
fn replay_through_action(export: &Export, id: i64) -> State {
    replay_until(export, |_, action| action.id.is_some_and(|a| a > id))
}

/// Replays from the start of Stock Round 1 until `done(state, next action)` holds, checking
/// each action as [`replay_until_stock_round`] describes.
fn replay_until(
    export: &Export,
    done: impl Fn(&State, &referee_engine::g1841::import18xx::ImportedAction) -> bool,
) -> State {
    let (mut state, applied) = replay_through_stock_round_1(export);
    for action in &export.actions[applied..] {
        if done(&state, action) {
            break;
        }
        apply_recorded(&mut state, action);
    }
    state
}

/// Applies one recorded action (see [`replay_until_stock_round`] for the checks): the seat to
/// act, listed by `G1841::legal`, accepted, the recorded route revenues, money, `validate`.
fn apply_recorded(state: &mut State, action: &referee_engine::g1841::import18xx::ImportedAction) {
    if action.kind == "destination_connection" {
        return;
    }
    let mapped = action
        .to_action(&*state)
        .unwrap_or_else(|e| panic!("action {:?}: {e}", action.id));
    let Some((seat, a)) = mapped else {
        // Only 18xx's own programming actions are not game actions.
        assert!(
            action.kind.starts_with("program_"),
            "action {:?} ({}) not mapped",
            action.id,
            action.kind
        );
        return;
    };
    assert_eq!(
        G1841::to_act(&*state),
        [seat],
        "action {:?} ({}): the engine expects another seat ({:?})",
        action.id,
        action.kind,
        state.round
    );
    let legal = G1841::legal(&*state, seat);
    let listed = legal.actions.contains(&a)
            || legal.train_purchases.iter().any(|t| {
                matches!(&a, referee_engine::g1841::Action::BuyTrain { train, from, price }
                    if *train == t.train && *from == t.from && (t.min_price..=t.max_price).contains(price))
            })
            || (legal.run_routes.is_some()
                && matches!(a, referee_engine::g1841::Action::RunRoutes { .. }));
    assert!(
        listed,
        "action {:?} {a:?} not listed in {legal:?}",
        action.id
    );
    let events = G1841::apply(state, seat, &a).unwrap_or_else(|r| {
        panic!(
            "action {:?} {a:?} by seat {seat} rejected: {r} ({:?})",
            action.id, state.round
        )
    });
    if action.kind == "run_routes" {
        let recorded: Vec<i64> = action.raw()["routes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["revenue"].as_i64().unwrap())
            .collect();
        let ours = events
            .iter()
            .find_map(|e| match e {
                referee_engine::g1841::Event::RoutesRun { revenues, .. } => Some(revenues.clone()),
                _ => None,
            })
            .unwrap();
        assert_eq!(ours, recorded, "action {:?}: route revenues", action.id);
    }
    assert_eq!(state.total_money(), state_total(state), "money");
    assert_eq!(
        referee_engine::g1841::validate::validate(&*state),
        Ok(()),
        "action {:?}",
        action.id
    );
}

/// Compares the state at the start of Stock Round `sr` (after the operating rounds of the
/// previous set) with snapshot line `line` (0-based): bank, phase, players' cash and holdings,
/// every corporation's price, cell, cash, trains, tokens, IPO, pool and holdings of other
/// corporations.
fn check_start_of_stock_round(name: &str, sr: u32, line: usize) {
    let export = parse_export(&fixture(&format!("{name}.json"))).unwrap();
    let state = replay_until_stock_round(&export, sr);
    assert!(
        matches!(state.round, Round::StockRound(ref r) if r.number == sr),
        "{:?}",
        state.round
    );
    let snapshots = fixture(&format!("snapshots/{name}.rounds.jsonl"));
    let snapshot: Value = serde_json::from_str(snapshots.lines().nth(line).unwrap()).unwrap();
    assert_eq!(snapshot["round"], "Stock");
    compare_with_snapshot(&export, &state, &snapshot);
}

/// Replays through the snapshot's `after_action_id` and compares (snapshot line `line`,
/// 0-based): the round (`Stock` n / `Operating` n.m) and everything [`compare_with_snapshot`]
/// checks.
fn check_snapshot(name: &str, line: usize) {
    let export = parse_export(&fixture(&format!("{name}.json"))).unwrap();
    let snapshots = fixture(&format!("snapshots/{name}.rounds.jsonl"));
    let snapshot: Value = serde_json::from_str(snapshots.lines().nth(line).unwrap()).unwrap();
    let state = replay_through_action(&export, snapshot["after_action_id"].as_i64().unwrap());
    let turn = snapshot["turn"].as_u64().unwrap() as u32;
    let number = snapshot["round_num"].as_u64().unwrap() as u32;
    match snapshot["round"].as_str().unwrap() {
        "Stock" => assert!(
            matches!(state.round, Round::StockRound(ref r) if r.number == turn),
            "{:?}",
            state.round
        ),
        _ => assert!(
            matches!(state.round, Round::OperatingRound(ref r) if r.stock_round == turn && r.number == number),
            "{:?}",
            state.round
        ),
    }
    compare_with_snapshot(&export, &state, &snapshot);
}

/// Bank, phase, players' cash and holdings, every corporation's price, cell, cash, trains,
/// tokens, IPO, pool and holdings of other corporations.
fn compare_with_snapshot(export: &Export, state: &State, third: &Value) {
    use referee_engine::g1841::ShareOwner;
    assert_eq!(third["phase"].as_str().unwrap(), state.phase);
    for p in third["players"].as_array().unwrap() {
        let seat = export.seat_of(&p["id"].to_string()).unwrap();
        assert_eq!(
            state.players[seat as usize].cash,
            p["cash"].as_i64().unwrap(),
            "cash of {}",
            p["name"]
        );
        for corp in &state.corporations {
            let held = corp.percent_of(&ShareOwner::Player(seat));
            let expected = p["shares"][corp.sym.as_str()].as_u64().unwrap_or(0) as u32;
            assert_eq!(held, expected, "{} of {}", corp.sym, p["name"]);
        }
    }
    let corps = third["corporations"].as_array().unwrap();
    assert_eq!(
        state.corporations.iter().filter(|c| c.started()).count(),
        corps.len()
    );
    for c in corps {
        let sym = c["sym"].as_str().unwrap();
        let ours = state.corporation(sym).unwrap();
        let p = ours.share_price.unwrap();
        assert_eq!(
            ours.price().unwrap(),
            c["price"].as_i64().unwrap(),
            "{sym} price"
        );
        assert_eq!(
            [p.row as i64, p.col as i64],
            [
                c["coords"][0].as_i64().unwrap(),
                c["coords"][1].as_i64().unwrap()
            ],
            "{sym} cell"
        );
        assert_eq!(ours.cash, c["cash"].as_i64().unwrap(), "{sym} cash");
        let trains: Vec<String> = state
            .operations
            .trains
            .get(sym)
            .map(|t| {
                t.iter()
                    .map(|id| id.split('-').next().unwrap().to_string())
                    .collect()
            })
            .unwrap_or_default();
        let theirs: Vec<String> = c["trains"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_str().unwrap().to_string())
            .collect();
        assert_eq!(trains, theirs, "{sym} trains");
        let hexes: Vec<&str> = ours.tokens.iter().map(|t| t.hex.as_str()).collect();
        let theirs: Vec<&str> = c["tokens_on_map"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| h.as_str().unwrap())
            .collect();
        assert_eq!(hexes, theirs, "{sym} tokens on the map");
        assert_eq!(
            ours.tokens_total as i64,
            c["tokens_total"].as_i64().unwrap()
        );
        assert_eq!(
            ours.ipo_percent() as i64,
            c["ipo_percent"].as_i64().unwrap(),
            "{sym} IPO"
        );
        assert_eq!(
            ours.pool_percent() as i64,
            c["pool_percent"].as_i64().unwrap(),
            "{sym} pool"
        );
        for other in &state.corporations {
            let held = other.percent_of(&ShareOwner::Corporation(sym.to_string()));
            let expected = c["holdings"][other.sym.as_str()].as_u64().unwrap_or(0) as u32;
            assert_eq!(held, expected, "{} held by {sym}", other.sym);
        }
    }
    assert_eq!(
        third["bank_cash"].as_i64().unwrap(),
        state.bank_cash,
        "bank"
    );
}

/// 132002 (V2): Operating Round 1.1 — tile lays with the Venezia swamp cost (L.50), two lays
/// for two-base majors, 2-trains from the depot, SSFL buys SFLP's 2-train for L.257, SFTG and
/// SFTC buy each other's shares, every corporation moves left (no run).
#[test]
fn fixture_132002_operating_round_1_matches_snapshot() {
    check_start_of_stock_round("132002", 2, 2);
}

/// 132002 (V2): Stock Round 2 and Operating Round 2.1 — routes with the Venezia port and
/// town (IRSFF L.100), payouts with IPO shares paying the treasury and price moves right /
/// none / left (SSFL withholds), the first 3-train starts phase 3, green tiles (Cuneo 207
/// for L.50, Firenze 208, Pisa 619), SSFL's token in green Firenze.
#[test]
fn fixture_132002_operating_round_2_matches_snapshot() {
    check_start_of_stock_round("132002", 3, 4);
}

/// 1841_game_end_bank (lite): Operating Round 1.1 — N4 mountain L.50, Venezia L.50, IRSFF
/// passes its token placement.
#[test]
fn fixture_game_end_bank_operating_round_1_matches_snapshot() {
    check_start_of_stock_round("1841_game_end_bank", 2, 2);
}

/// 132002 (V2): Stock Round 3 — P4 (the last player) starts the non-historical CTDA at L.144
/// (§3.4, from phase 3), buys two more shares, places home tokens in Parma (K11) and, in the
/// same zone, Modena (K13), and buys 4 tokens at L.25 each (no connected hex within 2 of
/// either home, §5.4): CTDA L.620 at the start of OR 3.1.
#[test]
fn fixture_132002_stock_round_3_matches_snapshot() {
    check_snapshot("132002", 5);
}

/// 1841_game_end_bank (lite): Operating Round 2.1 and Stock Round 3 — corporations start
/// corporations in their share step (§9.7): SFTC issues 50% and starts AFI at L.216 in Genova
/// (tokens at L.50: a connected hex 2 away), SFTN starts ATFA (Modena, second token skipped,
/// L.25), SFTG starts IFAI (Parma + Bologna, L.25); none of them operates before OR 3.1.
#[test]
fn fixture_game_end_bank_stock_round_3_matches_snapshot() {
    check_snapshot("1841_game_end_bank", 5);
}

/// Both recorded games replay, every action listed and accepted and every revenue equal,
/// up to the purchase of the first 4-train (132002 action 326, the bank game action 187),
/// the start of the events of the next issue (1841 §11).
#[test]
fn fixtures_replay_to_the_first_4_train() {
    for (name, first_4_train) in [("132002", 326), ("1841_game_end_bank", 187)] {
        let export = parse_export(&fixture(&format!("{name}.json"))).unwrap();
        let state = replay_through_action(&export, first_4_train - 1);
        let next = export
            .actions
            .iter()
            .find(|a| a.id.is_some_and(|id| id >= first_4_train))
            .unwrap();
        assert_eq!(next.id, Some(first_4_train));
        assert_eq!(next.raw()["train"], "4-0", "{name}");
        assert!(matches!(state.round, Round::OperatingRound(_)), "{name}");
    }
}

/// 132002 (V2): Operating Round 3.1 — CTDA buys the first 4-train (action 326): 2-trains
/// rust, concessions close, SFTN (never started) closes, set-4 borders; the Ferdinandea split
/// (Milano and Venezia not connected): P3 (40%) takes both presidencies, P1's pair → one SB
/// and one SFL share, SB L.259 / SFL L.28, a 3-train each, SSFL 10% → SB, SB buys one token
/// (L.50), both wait for OR 3.2; the Tuscan merge: SFLP (best value) and SFMA → AFI at L.53,
/// AFI and SSFL → SFLi at L.53, P1 president, odd shares (P1 full L.26, P3 cash L.26, SB full
/// L.26), AFI's Lucca token removed, SFLi (5 tokens) runs in OR 3.1 (§11, §12.3, §12.4).
#[test]
fn fixture_132002_operating_round_3_1_matches_snapshot() {
    check_snapshot("132002", 6);
}

/// 132002 (V2): Operating Round 3.2 — SB and SFL operate for the first time (SB's 3-1 from
/// IRSFF, its token in Padova), CTDA's and SFLi's turns, every merge step of a corporation
/// that has operated passed (§12.1).
#[test]
fn fixture_132002_operating_round_3_2_matches_snapshot() {
    check_snapshot("132002", 7);
}

/// 132002 (V2): Stock Round 4, closing price moves (SFLi sold out → up).
#[test]
fn fixture_132002_stock_round_4_matches_snapshot() {
    check_snapshot("132002", 8);
}

/// 132002 (V2): Operating Round 4.1 — SB and SFL issue 50% and start IFAI and CGTF at L.340;
/// the voluntary merger of SFTC and SFTG (both in Torino, FAQ-Q26) into AFI (actions
/// 529–535): L.105 + L.56 → L.162, P2 president with 80% of the old shares, SFLi's pair,
/// odd shares (P1 and SFLi cashed out automatically for L.81, P4 full share, CTDA, P3 and SB
/// cash), Torino's second token destroyed, AFI 5 tokens (§12.1).
#[test]
fn fixture_132002_operating_round_4_1_matches_snapshot() {
    check_snapshot("132002", 9);
}

/// 132002 (V2): Operating Round 4.2 — the first 5-train (phase 5), AFI (formed by the merger)
/// operates first in OR 4.2; the first 6-train (phase 6) and Stock Round 5.
#[test]
fn fixture_132002_operating_round_4_2_matches_snapshot() {
    check_snapshot("132002", 10);
}

/// 132002 (V2): Stock Round 5.
#[test]
fn fixture_132002_stock_round_5_matches_snapshot() {
    check_snapshot("132002", 11);
}

/// 1841_game_end_bank (lite): Operating Round 3.1 — SFTC buys the first 4-train (action 187):
/// the split with P4 (50%) president of both, the three odd shares to SB, P4 buys two SB
/// shares in two rounds, SB declines extra tokens (§12.4).
#[test]
fn fixture_game_end_bank_operating_round_3_1_matches_snapshot() {
    check_snapshot("1841_game_end_bank", 6);
}

/// 1841 §13: the off-board groups connected by track, recorded after each tile lay, equal the
/// groups of every hex 18xx.games reported in its `destination_connection` records up to the
/// first 4-train (132002: East via E17 and Roma via U15; the lite game: East and Marseille
/// via Q5); the game goes on (no trigger).
#[test]
fn s13_connected_offboards_match_the_recorded_destination_connections() {
    let groups = |hex: &str| match hex {
        "E17" | "C17" => "East",
        "U15" | "V12" | "V14" => "Roma",
        "Q3" | "Q5" => "Marseille",
        other => panic!("unexpected hex {other}"),
    };
    for (name, first_4_train, expected) in [
        ("132002", 326, vec!["East", "Roma"]),
        ("1841_game_end_bank", 187, vec!["East", "Marseille"]),
    ] {
        let export = parse_export(&fixture(&format!("{name}.json"))).unwrap();
        let mut recorded: Vec<&str> = export
            .actions
            .iter()
            .take_while(|a| a.id.is_none_or(|id| id < first_4_train))
            .filter(|a| a.kind == "destination_connection")
            .flat_map(|a| a.raw()["hexes"].as_array().cloned().unwrap_or_default())
            .map(|h| groups(h.as_str().unwrap()))
            .collect();
        recorded.sort();
        recorded.dedup();
        assert_eq!(recorded, expected, "{name}: 18xx records");
        let state = replay_through_action(&export, first_4_train - 1);
        let mut ours: Vec<&str> = state
            .game_end
            .connected_offboards
            .iter()
            .map(String::as_str)
            .collect();
        ours.sort();
        assert_eq!(ours, expected, "{name}");
        assert_eq!(state.game_end.trigger, None);
        assert!(!state.game_end.ended);
    }
}

/// Replays the whole recorded game once and compares every snapshot line from `first` on
/// when the replay reaches its `after_action_id` ([`compare_with_snapshot`] and the round).
fn replay_checking_snapshots(name: &str, first: usize) -> usize {
    let export = parse_export(&fixture(&format!("{name}.json"))).unwrap();
    let snapshots: Vec<Value> = fixture(&format!("snapshots/{name}.rounds.jsonl"))
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let (mut state, applied) = replay_through_stock_round_1(&export);
    let mut next = first;
    let mut checked = 0;
    let mut check = |state: &State, upto: Option<i64>, next: &mut usize| {
        while let Some(snap) = snapshots.get(*next) {
            let after = snap["after_action_id"].as_i64().unwrap();
            if upto.is_some_and(|id| id <= after) {
                break;
            }
            let turn = snap["turn"].as_u64().unwrap() as u32;
            let number = snap["round_num"].as_u64().unwrap() as u32;
            let ended = state.game_end.ended;
            match snap["round"].as_str().unwrap() {
                "Stock" => assert!(
                    ended || matches!(state.round, Round::StockRound(ref r) if r.number == turn),
                    "line {}: {:?}",
                    *next,
                    state.round
                ),
                _ => assert!(
                    ended
                        || matches!(state.round, Round::OperatingRound(ref r) if r.stock_round == turn && r.number == number),
                    "line {}: {:?}",
                    *next,
                    state.round
                ),
            }
            compare_with_snapshot(&export, state, snap);
            *next += 1;
            checked += 1;
        }
    };
    for action in &export.actions[applied..] {
        // Automatic actions (no id) belong to the action before them.
        if action.id.is_some() {
            check(&state, action.id, &mut next);
        }
        apply_recorded(&mut state, action);
    }
    check(&state, None, &mut next);
    assert_eq!(next, snapshots.len(), "{name}: every snapshot line reached");
    // §13: the game is over with the recorded reason and every player's recorded value.
    let raw: Value = serde_json::from_str(&fixture(&format!("{name}.json"))).unwrap();
    assert!(state.game_end.ended, "{name}: the game ended");
    assert_eq!(
        state.game_end.trigger.as_deref(),
        raw["game_end_reason"].as_str(),
        "{name}: end reason"
    );
    let scores = referee_engine::g1841::game_end::scores(&state);
    for (seat, p) in export.players.iter().enumerate() {
        assert_eq!(
            scores[seat],
            raw["result"][p.id.as_str()].as_i64().unwrap(),
            "{name}: value of {}",
            p.name
        );
    }
    checked
}

/// 132002 (V2) from Operating Round 5.2 to the end (snapshot lines 12–20, the last after
/// action 939): phases 7 and 8, the merger of SFL and CGTF into ICSF (P3 claims the
/// presidency for L.121, action 651), emergency sales, ICSF at L.516 ending the game after
/// its turn (§13). Every action listed and accepted, every route revenue equal.
#[test]
fn fixture_132002_replays_to_the_end() {
    assert_eq!(replay_checking_snapshots("132002", 12), 9);
}

/// 1841_game_end_bank (lite) from Operating Round 3.2 to the end (snapshot lines 7–19, the
/// last after action 849): phases 5–8, SFL frozen by P4's emergency sale of its president's
/// certificate (action 248) and unfrozen later, the mergers SFTG + IFAI → CFCC (496),
/// ATFA + AFI → IFAI (551), SFTC + CTS → RSFS (568), SFL + IFAI → AFI (743), the bank broken
/// (§13).
#[test]
fn fixture_game_end_bank_replays_to_the_end() {
    assert_eq!(replay_checking_snapshots("1841_game_end_bank", 7), 13);
}
