//! End of an era (autobahn §6, AQ-6), the final round and final scoring (autobahn §7).

use std::collections::BTreeSet;

use super::action::Event;
use super::board::{DEPARTMENTS, Node};
use super::build::{link_complete, link_upgraded};
use super::state::{FinalResult, PendingKind, Phase, ScoreLine, State};

/// Whether node `n` is "connected to the built network" (autobahn §6 step 2 [L]): it ends at
/// least one complete link; with `strict_budget_connection`, it is joined to the pre-built road
/// through complete links.
pub fn connected_nodes(state: &State) -> BTreeSet<Node> {
    let m = &state.board.map;
    let mut out = BTreeSet::new();
    for (l, (a, b)) in m.link_ends.iter().enumerate() {
        if link_complete(state, l) {
            out.insert(*a);
            out.insert(*b);
        }
    }
    if state.options.strict_budget_connection {
        let pre: BTreeSet<Node> = state
            .board
            .def
            .prebuilt
            .links
            .iter()
            .filter_map(|id| m.link_index.get(id))
            .flat_map(|l| [m.link_ends[*l].0, m.link_ends[*l].1])
            .collect();
        let mut seen = pre.clone();
        let mut q: Vec<Node> = pre.into_iter().collect();
        while let Some(u) = q.pop() {
            if matches!(u, Node::Foreign(_)) {
                continue;
            }
            for (l, (a, b)) in m.link_ends.iter().enumerate() {
                if link_complete(state, l) {
                    for (x, y) in [(a, b), (b, a)] {
                        if *x == u && seen.insert(*y) {
                            q.push(*y);
                        }
                    }
                }
            }
        }
        out = out.intersection(&seen).copied().collect();
    }
    out
}

/// Value of a node: current city value or the country's fixed value (U-4).
pub fn node_value(state: &State, n: Node) -> i64 {
    match n {
        Node::City(c) => state.city_values.get(c).map_or(0, |v| v.value),
        Node::Foreign(c) => state.board.def.countries[c].value,
    }
}

/// The budget sum of autobahn `a` (AQ-6): the values of the connected cities along it,
/// commercial cities included.
pub fn budget_sum(state: &State, a: usize) -> i64 {
    budget_sum_with(state, a, &connected_nodes(state))
}

/// [`budget_sum`] with the connected nodes already computed.
fn budget_sum_with(state: &State, a: usize, conn: &BTreeSet<Node>) -> i64 {
    let m = &state.board.map;
    let along: BTreeSet<Node> = (0..m.link_ends.len())
        .filter(|l| m.link_autobahn[*l] == a)
        .flat_map(|l| [m.link_ends[l].0, m.link_ends[l].1])
        .collect();
    along
        .intersection(conn)
        .map(|n| node_value(state, *n))
        .sum()
}

/// Pays the construction budget (AQ-6): per office with employees, `sum // employees` per
/// employee; the Autobot counts in the divisor but is not paid (§8.6).
pub fn pay_budgets(state: &mut State, ev: &mut Vec<Event>) {
    // Connections change only when roads are built, never while budgets are paid.
    let conn = connected_nodes(state);
    for a in 0..state.offices.len() {
        let n = state.offices[a].seats.len() as i64;
        if n == 0 {
            continue;
        }
        let total = budget_sum_with(state, a, &conn);
        let share = total / n;
        for p in 0..state.players.len() as u32 {
            let k = state.offices[a].seats.iter().filter(|s| **s == p).count() as i64;
            if k == 0 || state.is_bot(p) {
                continue;
            }
            state.pm(p).dm += share * k;
            ev.push(Event::BudgetPaid {
                office: state.offices[a].autobahn.clone(),
                total,
                share,
                player: p,
                amount: share * k,
            });
        }
    }
}

/// Whether German cities `x` and `y` are joined by complete (or, with `upgraded`, two-lane)
/// links, never passing through a commercial city.
pub fn joined(state: &State, x: usize, y: usize, upgraded: bool) -> bool {
    let m = &state.board.map;
    let n = state.board.def.cities.len();
    if x >= n || y >= n {
        return x == y;
    }
    let mut seen = vec![false; n];
    seen[x] = true;
    let mut q = vec![x];
    while let Some(u) = q.pop() {
        if u == y {
            return true;
        }
        for &l in &m.city_links[u] {
            let ok = if upgraded {
                link_upgraded(state, l)
            } else {
                link_complete(state, l)
            };
            if !ok {
                continue;
            }
            let (a, b) = m.link_ends[l];
            for (p, q2) in [(a, b), (b, a)] {
                if let (Node::City(pu), Node::City(v)) = (p, q2)
                    && pu == u
                    && !seen[v]
                {
                    seen[v] = true;
                    q.push(v);
                }
            }
        }
    }
    false
}

/// Resolves the end of the current era (autobahn §6): last-builder promotion, the Autobot's
/// extra promotions (§8.6), construction budget (AQ-6), route cards (U-12), then era
/// housekeeping and the era-3 openings. Promotions become pending decisions.
pub fn end_era(state: &mut State, ev: &mut Vec<Event>) {
    let era = state.era;
    ev.push(Event::EraEnded {
        era,
        last_builder: state.last_builder,
    });
    if let Some(lb) = state.last_builder.take() {
        super::effects::queue(
            state,
            ev,
            lb,
            PendingKind::Promote { department: None },
            "autobahn §6 step 1 (last builder)",
        );
    }
    super::autobot::era_end_promotions(state, ev);
    pay_budgets(state, ev);
    // route cards (autobahn §6 step 3, U-12)
    let board = state.board.clone();
    for p in 0..state.players.len() as u32 {
        let Some(card) = state.p(p).route_card.clone() else {
            continue;
        };
        let Some(rc) = board.def.route_cards.iter().find(|r| r.id == card) else {
            continue;
        };
        let (Some(a), Some(b)) = (
            rc.ends.first().and_then(|e| board.map.city_index.get(e)),
            rc.ends.get(1).and_then(|e| board.map.city_index.get(e)),
        ) else {
            continue;
        };
        let tier = if joined(state, *a, *b, true) {
            2
        } else if joined(state, *a, *b, false) {
            1
        } else {
            0
        };
        if tier == 0 {
            continue;
        }
        ev.push(Event::RouteCardScored {
            player: p,
            card: card.clone(),
            tier,
        });
        let rewards = if tier == 2 { &rc.r2 } else { &rc.r1 };
        for r in rewards {
            super::effects::resolve(state, ev, p, r, &format!("route card {card}"));
        }
    }
    if era >= 3 {
        return;
    }
    // housekeeping (autobahn §6 step 4, U-7): subsidy employees return, subsidy again.
    for p in &mut state.players {
        p.reserve += p.subsidy;
        p.subsidy = 0;
        p.subsidy_used = false;
    }
    // refill empty country tiles (board bonus_tiles.setup.refill default)
    for i in 0..state.country_tiles.len() {
        if state.country_tiles[i].is_none() {
            state.country_tiles[i] = state.delivery_tile_stack.pop();
        }
    }
    state.era += 1;
    ev.push(Event::EraStarted { era: state.era });
    if state.era == 3 {
        // §6 start of era 3: yellow card to hand, advanced cards join the deck, East and
        // closures open (by era), pharmaceuticals and PL/CZ (by era).
        for p in &mut state.players {
            let aside = std::mem::take(&mut p.set_aside);
            if p.autobot.is_none() {
                p.hand.extend(aside);
            }
        }
        let mut adv = std::mem::take(&mut state.advanced_aside);
        state.card_deck.append(&mut adv);
        let mut deck = std::mem::take(&mut state.card_deck);
        state.rng.shuffle(&mut deck);
        state.card_deck = deck;
        super::autobot::start_era3(state);
    }
}

/// Scores the game (autobahn §7 step 4) and ranks with the tie-breakers (§7 step 5, U-22).
pub fn final_scoring(state: &mut State, ev: &mut Vec<Event>) {
    let vp = state.board.def.administration.lobby.vp_per_employee;
    let mut lines = Vec::new();
    for i in 0..state.players.len() as u32 {
        let p = state.p(i);
        let seated = state
            .offices
            .iter()
            .map(|o| o.seats.iter().filter(|s| **s == i).count() as i64)
            .sum::<i64>();
        let countries = p.deliveries.iter().filter(|r| r.delivered).count() as i64;
        let stations = state
            .station_spaces
            .iter()
            .filter(|s| s.owner == Some(i))
            .count() as i64;
        let bot = p.autobot.is_some();
        let metric = [seated, countries, stations, if bot { 0 } else { p.dm / 20 }];
        let mut dept = [0i64; 4];
        for d in 0..DEPARTMENTS.len() {
            for f in 0..3 {
                dept[d] += (f as i64 + 1) * i64::from(p.departments[d][f]) * metric[d];
            }
        }
        let lobby = vp * i64::from(p.lobby);
        let admin_employees: u32 = p.departments.iter().flatten().sum();
        let admin_height: u32 = p
            .departments
            .iter()
            .map(|fl| {
                fl.iter()
                    .enumerate()
                    .map(|(f, n)| (f as u32 + 1) * n)
                    .sum::<u32>()
            })
            .sum();
        lines.push(ScoreLine {
            lobby,
            network: dept[0],
            trade: dept[1],
            service: dept[2],
            finance: dept[3],
            total: lobby + dept.iter().sum::<i64>(),
            admin_employees,
            admin_height,
        });
    }
    let key = |l: &ScoreLine| (l.total, l.admin_employees, l.admin_height);
    let ranks = lines
        .iter()
        .map(|l| 1 + lines.iter().filter(|o| key(o) > key(l)).count() as u32)
        .collect();
    ev.push(Event::GameEnded {
        scores: lines.iter().map(|l| l.total).collect(),
    });
    state.result = Some(FinalResult {
        scores: lines,
        ranks,
        end_reason: "final_round".into(),
    });
    state.phase = Phase::Over;
}
