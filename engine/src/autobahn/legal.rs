//! Legal actions: every action `apply` accepts now. Candidates are generated from the rules
//! helpers and each is confirmed by a trial `apply` on a copy, so the list and `apply` agree.

use super::action::Action;
use super::board::{ACTIONS, DEPARTMENTS};
use super::state::{PendingKind, Phase, State};
use super::{build, movement, office, turn};
use crate::Seat;

/// Every action `seat` may take now.
pub fn legal_actions(state: &State, seat: Seat) -> Vec<Action> {
    if !turn::to_act(state).contains(&seat) {
        return vec![];
    }
    candidates(state, seat)
        .into_iter()
        .filter(|a| {
            let mut s = state.clone();
            turn::apply(&mut s, seat, a).is_ok()
        })
        .collect()
}

/// A superset of the legal actions (cheap; not confirmed).
pub fn candidates(state: &State, seat: Seat) -> Vec<Action> {
    let Some(player) = state.player_of(seat) else {
        return vec![];
    };
    let mut out = Vec::new();
    let b = &state.board;
    if let Some(p) = state.pending.first() {
        match &p.kind {
            PendingKind::Promote { department } => {
                for (d, f) in office::promotion_options(state, player, department.as_deref()) {
                    out.push(Action::Promote {
                        department: DEPARTMENTS[d].to_string(),
                        from_floor: f,
                    });
                }
            }
            PendingKind::PlaceEmployee => {
                out.extend(state.offices.iter().map(|o| Action::PlaceEmployee {
                    colour: o.autobahn.clone(),
                }))
            }
            PendingKind::BuildRoad { colour } => {
                let c = colour.as_deref().and_then(|c| b.autobahn(c));
                out.extend(build::buildable_sections(state, c).into_iter().map(|s| {
                    Action::BuildRoad {
                        section: b.map.section_ids[s].clone(),
                    }
                }));
                out.push(Action::Decline);
            }
            PendingKind::UpgradeLink => {
                out.extend(build::upgradable_links(state, None).into_iter().map(|l| {
                    Action::UpgradeLink {
                        link: b.def.links[l].id.clone(),
                    }
                }));
                out.push(Action::Decline);
            }
            PendingKind::BuildStation => {
                out.extend(
                    build::free_station_spaces(state, None)
                        .into_iter()
                        .map(|i| Action::BuildStation {
                            space: b.map.station_spaces[i].id.clone(),
                        }),
                );
                out.push(Action::Decline);
            }
            PendingKind::Unlock => out.extend(
                build::unlockable_cells(state, player)
                    .into_iter()
                    .map(|cell| Action::Unlock { cell }),
            ),
            PendingKind::TakeDisplayCard => out.extend(
                (0..state.display.len() as u32).map(|slot| Action::TakeDisplayCard { slot }),
            ),
            PendingKind::DiscardDisplayCard => out.extend(
                (0..state.display.len() as u32).map(|slot| Action::DiscardDisplayCard { slot }),
            ),
            PendingKind::ActionTile => {
                out.extend(
                    state
                        .p(player)
                        .action_spaces
                        .iter()
                        .map(|s| Action::PlaceActionTile {
                            space: s.id.clone(),
                        }),
                )
            }
        }
        return out;
    }
    match &state.phase {
        Phase::RouteDraft => out.extend(
            state
                .route_offer
                .iter()
                .map(|c| Action::ChooseRouteCard { card: c.clone() }),
        ),
        Phase::Main { bonus_claimed } => {
            let p = state.p(player);
            if !bonus_claimed {
                out.extend(
                    p.deliveries
                        .iter()
                        .filter(|r| r.goods_token && !r.bonus_used)
                        .map(|r| Action::ClaimDeliveryBonus {
                            country: r.country.clone(),
                        }),
                );
            }
            let mut hand = p.hand.clone();
            hand.sort();
            hand.dedup();
            for card in &hand {
                let Some(def) = b.card(card) else { continue };
                for colour in &def.colours {
                    let Some(c) = b.autobahn(colour) else {
                        continue;
                    };
                    for (si, sp) in p.action_spaces.iter().enumerate() {
                        if sp.cards.len() as u32 >= sp.capacity {
                            continue;
                        }
                        let action = b
                            .def
                            .player_board
                            .action_spaces
                            .get(si)
                            .map_or("", |a| a.action.as_str());
                        let mut targets: Vec<(String, Option<String>)> = Vec::new();
                        if action == ACTIONS[0] {
                            targets.extend(
                                build::buildable_sections(state, Some(c))
                                    .into_iter()
                                    .map(|s| (b.map.section_ids[s].clone(), None)),
                            );
                        } else if action == ACTIONS[1] {
                            targets.extend(
                                build::upgradable_links(state, Some(c))
                                    .into_iter()
                                    .map(|l| (b.def.links[l].id.clone(), None)),
                            );
                        } else if action == ACTIONS[2] {
                            for (d, dep) in b.def.depots.iter().enumerate() {
                                if dep.autobahn == *colour {
                                    for g in build::depot_goods(state, d) {
                                        targets.push((dep.id.clone(), Some(g)));
                                    }
                                }
                            }
                        } else if action == ACTIONS[3] {
                            targets.extend(
                                build::free_station_spaces(state, Some(c))
                                    .into_iter()
                                    .map(|i| (b.map.station_spaces[i].id.clone(), None)),
                            );
                        } else {
                            targets.extend(
                                build::unlockable_cells(state, player)
                                    .into_iter()
                                    .map(|x| (x, None)),
                            );
                        }
                        for (target, goods) in targets {
                            out.push(Action::PlayCard {
                                card: card.clone(),
                                colour: colour.clone(),
                                space: sp.id.clone(),
                                target,
                                goods,
                            });
                        }
                    }
                }
            }
            out.push(Action::TakeBackCards);
            out.push(Action::Subsidy);
        }
        Phase::Trucks { colour, moved } => {
            if let Some(c) = b.autobahn(colour) {
                for t in 0..state.p(player).trucks.len() {
                    if moved.contains(&(t as u32)) || !movement::may_start(state, player, t, c) {
                        continue;
                    }
                    let max = movement::max_steps(state, player, t);
                    for (path, deliver) in movement::all_moves(state, player, t, max) {
                        out.push(Action::MoveTruck {
                            truck: t as u32,
                            path,
                            deliver,
                        });
                    }
                }
            }
            out.push(Action::EndTurn);
        }
        Phase::Over => {}
    }
    out
}
