//! The turn (autobahn §5.1, §10): phase 1 delivery-bonus claim, phase 2 main action (play a
//! card, take back cards, subsidy), phase 3 trucks, end of turn with the era-end check (U-29),
//! plus the answers to pending decisions. [`apply`] is transactional.

use super::action::{Action, Event};
use super::board::{ACTIONS, DEPARTMENTS};
use super::state::{Pending, PendingKind, Phase, State};
use super::{build, effects, era, movement, office};
use crate::{Rejection, RejectionCode, Seat};

fn reject(code: RejectionCode, rule: &str, msg: impl Into<String>) -> Rejection {
    Rejection::new(code, rule, msg)
}

/// Seats that must act now.
pub fn to_act(state: &State) -> Vec<Seat> {
    actor_seat(state).into_iter().collect()
}

/// The one seat that must act now, if any (Autobahn never has simultaneous decisions): the
/// player owing the first pending decision, else the drafter, else the current player.
pub fn actor_seat(state: &State) -> Option<Seat> {
    let who = match &state.phase {
        Phase::Over => None,
        _ if !state.pending.is_empty() => state.pending.first().map(|p| p.player),
        Phase::RouteDraft => drafter(state),
        _ => Some(state.current),
    };
    who.and_then(|p| state.players.get(p as usize))
        .and_then(|p| p.seat)
}

/// The player choosing a route card now: reverse turn order (U-20).
pub fn drafter(state: &State) -> Option<u32> {
    (0..state.players.len() as u32)
        .rev()
        .find(|p| state.p(*p).seat.is_some() && state.p(*p).route_card.is_none())
}

/// Applies `action` by `seat`; on `Err` the state is unchanged.
///
/// Works in place, without copying the state: every check that can refuse the action runs
/// before the first change (each rules helper validates fully, then mutates), so a rejection
/// leaves nothing behind. The property tests check this after every refused action.
pub fn apply(state: &mut State, seat: Seat, action: &Action) -> Result<Vec<Event>, Rejection> {
    if state.phase == Phase::Over {
        return Err(reject(
            RejectionCode::GameOver,
            "autobahn §7",
            "The game is over.",
        ));
    }
    let Some(player) = state.player_of(seat) else {
        return Err(reject(
            RejectionCode::InvalidArgument,
            "autobahn §3",
            format!("Seat {seat} is not in this game."),
        ));
    };
    if actor_seat(state) != Some(seat) {
        return Err(reject(
            RejectionCode::NotYourTurn,
            "autobahn §4",
            "It is not your turn to act.",
        ));
    }
    let mut ev = Vec::with_capacity(8);
    step(state, &mut ev, player, action)?;
    advance(state, &mut ev);
    state.action_count += 1;
    Ok(ev)
}

/// What the current phase is, without borrowing the state (so the arms below may mutate it).
#[derive(Clone, Copy)]
enum PhaseKind {
    RouteDraft,
    Main { bonus_claimed: bool },
    Trucks,
    Over,
}

fn phase_kind(phase: &Phase) -> PhaseKind {
    match phase {
        Phase::RouteDraft => PhaseKind::RouteDraft,
        Phase::Main { bonus_claimed } => PhaseKind::Main {
            bonus_claimed: *bonus_claimed,
        },
        Phase::Trucks { .. } => PhaseKind::Trucks,
        Phase::Over => PhaseKind::Over,
    }
}

/// One action; every `Err` is returned before the state changes.
fn step(
    state: &mut State,
    ev: &mut Vec<Event>,
    player: u32,
    action: &Action,
) -> Result<(), Rejection> {
    if !state.pending.is_empty() {
        return answer(state, ev, player, action);
    }
    match (phase_kind(&state.phase), action) {
        (PhaseKind::RouteDraft, Action::ChooseRouteCard { card }) => {
            let Some(i) = state.route_offer.iter().position(|c| c == card) else {
                return Err(reject(
                    RejectionCode::IllegalMove,
                    "U-20",
                    format!("Route card `{card}` is not on offer."),
                ));
            };
            state.route_offer.remove(i);
            state.pm(player).route_card = Some(card.to_string());
            ev.push(Event::RouteCardChosen {
                player,
                card: card.to_string(),
            });
            if drafter(state).is_none() {
                state.route_offer.clear();
                state.phase = Phase::Main {
                    bonus_claimed: false,
                };
                ev.push(Event::TurnStarted {
                    player: state.current,
                });
            }
            Ok(())
        }
        (PhaseKind::Main { bonus_claimed }, Action::ClaimDeliveryBonus { country }) => {
            if bonus_claimed {
                return Err(reject(
                    RejectionCode::IllegalMove,
                    "autobahn §5.1",
                    "Only one delivery bonus may be claimed per turn.",
                ));
            }
            claim_bonus(state, ev, player, country)?;
            state.phase = Phase::Main {
                bonus_claimed: true,
            };
            Ok(())
        }
        (
            PhaseKind::Main { .. },
            Action::PlayCard {
                card,
                colour,
                space,
                target,
                goods,
            },
        ) => play_card(
            state,
            ev,
            player,
            card,
            colour,
            space,
            target,
            goods.as_deref(),
        ),
        (PhaseKind::Main { .. }, Action::TakeBackCards) => {
            let p = state.pm(player);
            let mut n = 0u32;
            for s in &mut p.action_spaces {
                n += s.cards.len() as u32;
                p.hand.append(&mut s.cards);
            }
            p.dm += i64::from(n);
            ev.push(Event::CardsTakenBack { player, count: n });
            end_turn(state, ev);
            Ok(())
        }
        (PhaseKind::Main { .. }, Action::Subsidy) => {
            if state.p(player).subsidy_used {
                return Err(reject(
                    RejectionCode::IllegalMove,
                    "autobahn §5.1",
                    "The subsidy may be taken once per era.",
                ));
            }
            if state.p(player).reserve == 0 {
                return Err(reject(
                    RejectionCode::IllegalMove,
                    "autobahn §5.1",
                    "The subsidy needs an employee in your reserve.",
                ));
            }
            let amount = state
                .board
                .def
                .subsidy
                .dm_by_era
                .get(state.era as usize - 1)
                .copied()
                .unwrap_or(0);
            let p = state.pm(player);
            p.reserve -= 1;
            p.subsidy += 1;
            p.subsidy_used = true;
            p.dm += amount;
            ev.push(Event::SubsidyTaken { player, amount });
            end_turn(state, ev);
            Ok(())
        }
        (
            PhaseKind::Trucks,
            Action::MoveTruck {
                truck,
                path,
                deliver,
            },
        ) => {
            let (c, moved) = match &state.phase {
                Phase::Trucks { colour, moved } => {
                    (state.board.autobahn(colour), moved.contains(truck))
                }
                _ => (None, false),
            };
            if moved {
                return Err(reject(
                    RejectionCode::IllegalMove,
                    "AQ-4",
                    "Each truck moves once per turn.",
                ));
            }
            let t = *truck as usize;
            if t >= state.p(player).trucks.len() {
                return Err(reject(
                    RejectionCode::InvalidArgument,
                    "autobahn §1.2",
                    "No such truck.",
                ));
            }
            let max = movement::max_steps(state, player, t);
            movement::move_truck(state, ev, player, t, path, *deliver, c, max)?;
            if let Phase::Trucks { moved, .. } = &mut state.phase {
                moved.push(*truck);
            }
            Ok(())
        }
        (PhaseKind::Trucks, Action::EndTurn) => {
            end_turn(state, ev);
            Ok(())
        }
        _ => Err(reject(
            RejectionCode::WrongStep,
            "autobahn §5.1",
            "That action is not possible in this phase of the turn.",
        )),
    }
}

/// Phase 1: slide a delivery token off its goods icon and resolve its bonus (autobahn §5.1).
fn claim_bonus(
    state: &mut State,
    ev: &mut Vec<Event>,
    player: u32,
    country: &str,
) -> Result<(), Rejection> {
    let Some(ri) = state
        .p(player)
        .deliveries
        .iter()
        .position(|r| r.country == country && r.goods_token && !r.bonus_used)
    else {
        return Err(reject(
            RejectionCode::IllegalMove,
            "autobahn §5.1",
            format!("You have no unused delivery token on the goods icon of {country}."),
        ));
    };
    let row = &mut state.pm(player).deliveries[ri];
    row.goods_token = false;
    row.bonus_used = true;
    ev.push(Event::DeliveryBonusClaimed {
        player,
        country: country.to_string(),
    });
    let board = state.board.clone();
    let bonus = board
        .def
        .delivery_boards
        .iter()
        .find(|b| b.id == state.p(player).delivery_board)
        .and_then(|b| b.rows.iter().find(|r| r.country == country))
        .map(|r| r.bonus.clone());
    if let Some(b) = bonus {
        effects::resolve(state, ev, player, &b, &format!("delivery bonus {country}"));
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn play_card(
    state: &mut State,
    ev: &mut Vec<Event>,
    player: u32,
    card: &str,
    colour: &str,
    space: &str,
    target: &str,
    goods: Option<&str>,
) -> Result<(), Rejection> {
    let Some(hi) = state.p(player).hand.iter().position(|c| c == card) else {
        return Err(reject(
            RejectionCode::IllegalMove,
            "autobahn §5.1",
            format!("Card `{card}` is not in your hand."),
        ));
    };
    let board = state.board.clone();
    let Some(def) = board.card(card) else {
        return Err(reject(
            RejectionCode::InvalidArgument,
            "autobahn §5.2",
            "Unknown card.",
        ));
    };
    if !def.colours.iter().any(|c| c == colour) {
        return Err(reject(
            RejectionCode::IllegalMove,
            "U-32",
            format!("Card `{card}` has no colour {colour}."),
        ));
    }
    let Some(c) = board.autobahn(colour) else {
        return Err(reject(
            RejectionCode::InvalidArgument,
            "autobahn §1.3",
            "Unknown colour.",
        ));
    };
    let Some(si) = state
        .p(player)
        .action_spaces
        .iter()
        .position(|s| s.id == space)
    else {
        return Err(reject(
            RejectionCode::InvalidArgument,
            "autobahn §5.3",
            format!("Unknown action space `{space}`."),
        ));
    };
    let sp = &state.p(player).action_spaces[si];
    if sp.cards.len() as u32 >= sp.capacity {
        return Err(reject(
            RejectionCode::IllegalMove,
            "autobahn §5.3",
            "That action space is full; take your cards back first.",
        ));
    }
    let action = board
        .def
        .player_board
        .action_spaces
        .get(si)
        .map_or("", |a| a.action.as_str());
    match action {
        a if a == ACTIONS[0] => {
            let s = lookup(&board.map.section_index, target, "section")?;
            build::build_section(state, ev, player, s, Some(c))?;
        }
        a if a == ACTIONS[1] => {
            let l = lookup(&board.map.link_index, target, "link")?;
            build::upgrade_link(state, ev, player, l, Some(c))?;
        }
        a if a == ACTIONS[2] => {
            let Some(d) = board.def.depots.iter().position(|x| x.id == target) else {
                return Err(reject(
                    RejectionCode::InvalidArgument,
                    "autobahn §5.6",
                    format!("Unknown depot `{target}`."),
                ));
            };
            let offered = build::depot_goods(state, d);
            let g = match goods {
                Some(g) => g.to_string(),
                None if offered.len() == 1 => offered[0].clone(),
                None => {
                    return Err(reject(
                        RejectionCode::InvalidArgument,
                        "autobahn §5.6",
                        "Say which goods to load.",
                    ));
                }
            };
            build::load_truck(state, ev, player, d, &g, Some(c))?;
        }
        a if a == ACTIONS[3] => {
            let Some(i) = board.map.station_spaces.iter().position(|x| x.id == target) else {
                return Err(reject(
                    RejectionCode::InvalidArgument,
                    "autobahn §5.7",
                    format!("Unknown station space `{target}`."),
                ));
            };
            build::build_station(state, ev, player, i, Some(c))?;
        }
        _ => build::unlock(state, ev, player, target)?,
    }
    let card_id = state.pm(player).hand.remove(hi);
    state.pm(player).action_spaces[si].cards.push(card_id);
    ev.push(Event::CardPlayed {
        player,
        card: card.to_string(),
        colour: colour.to_string(),
        space: space.to_string(),
    });
    if def.extra_action.as_deref() == Some("BuildRoadSection") {
        effects::queue(
            state,
            ev,
            player,
            PendingKind::BuildRoad {
                colour: Some(colour.to_string()),
            },
            "card extra action (U-8)",
        );
    }
    state.phase = Phase::Trucks {
        colour: colour.to_string(),
        moved: vec![],
    };
    Ok(())
}

fn lookup(
    map: &std::collections::HashMap<String, usize>,
    id: &str,
    what: &str,
) -> Result<usize, Rejection> {
    map.get(id).copied().ok_or_else(|| {
        reject(
            RejectionCode::InvalidArgument,
            "autobahn §2",
            format!("Unknown {what} `{id}`."),
        )
    })
}

/// Answers the first pending decision.
///
/// The entry is taken off the queue while it is answered (effects it triggers queue behind the
/// others) and put back in front if the answer is refused; the helpers called here refuse
/// before they change anything, so a refusal leaves the state as it was.
fn answer(
    state: &mut State,
    ev: &mut Vec<Event>,
    player: u32,
    action: &Action,
) -> Result<(), Rejection> {
    if state.pending.first().is_some_and(|p| p.player != player) {
        return Err(reject(
            RejectionCode::NotYourTurn,
            "autobahn §5.11",
            "Another player must decide first.",
        ));
    }
    let p = state.pending.remove(0);
    let result = answer_with(state, ev, player, &p, action);
    if result.is_err() {
        state.pending.insert(0, p);
    }
    result
}

fn answer_with(
    state: &mut State,
    ev: &mut Vec<Event>,
    player: u32,
    p: &Pending,
    action: &Action,
) -> Result<(), Rejection> {
    let board = state.board.clone();
    match (&p.kind, action) {
        (
            PendingKind::Promote { department },
            Action::Promote {
                department: d,
                from_floor,
            },
        ) => {
            let Some(di) = DEPARTMENTS.iter().position(|x| x == d) else {
                return Err(reject(
                    RejectionCode::InvalidArgument,
                    "autobahn §1.6",
                    format!("Unknown department `{d}`."),
                ));
            };
            office::promote(state, ev, player, di, *from_floor, department.as_deref())
        }
        (PendingKind::PlaceEmployee, Action::PlaceEmployee { colour }) => {
            let Some(a) = board.autobahn(colour) else {
                return Err(reject(
                    RejectionCode::InvalidArgument,
                    "autobahn §1.3",
                    "Unknown colour.",
                ));
            };
            office::place_employee(state, ev, player, a, &p.source)
        }
        (PendingKind::BuildRoad { colour }, Action::BuildRoad { section }) => {
            let s = lookup(&board.map.section_index, section, "section")?;
            let c = colour.as_deref().and_then(|c| board.autobahn(c));
            build::build_section(state, ev, player, s, c)
        }
        (PendingKind::UpgradeLink, Action::UpgradeLink { link }) => {
            let l = lookup(&board.map.link_index, link, "link")?;
            build::upgrade_link(state, ev, player, l, None)
        }
        (PendingKind::BuildStation, Action::BuildStation { space }) => {
            let Some(i) = board.map.station_spaces.iter().position(|x| x.id == *space) else {
                return Err(reject(
                    RejectionCode::InvalidArgument,
                    "autobahn §5.7",
                    "Unknown station space.",
                ));
            };
            build::build_station(state, ev, player, i, None)
        }
        (PendingKind::Unlock, Action::Unlock { cell }) => build::unlock(state, ev, player, cell),
        (PendingKind::TakeDisplayCard, Action::TakeDisplayCard { slot }) => {
            let card = take_display(state, *slot)?;
            state.pm(player).hand.push(card.clone());
            ev.push(Event::DisplayCardTaken { player, card });
            Ok(())
        }
        (PendingKind::DiscardDisplayCard, Action::DiscardDisplayCard { slot }) => {
            let card = take_display(state, *slot)?;
            ev.push(Event::DisplayCardDiscarded { card });
            Ok(())
        }
        (PendingKind::ActionTile, Action::PlaceActionTile { space }) => {
            let Some(si) = state
                .p(player)
                .action_spaces
                .iter()
                .position(|s| s.id == *space)
            else {
                return Err(reject(
                    RejectionCode::InvalidArgument,
                    "autobahn §5.3",
                    "Unknown action space.",
                ));
            };
            if state.p(player).action_tiles_left == 0 {
                return Err(reject(
                    RejectionCode::IllegalMove,
                    "autobahn §5.3",
                    "You have no action tile left.",
                ));
            }
            let pl = state.pm(player);
            pl.action_tiles_left -= 1;
            pl.action_spaces[si].capacity += 1;
            ev.push(Event::ActionTilePlaced {
                player,
                space: space.to_string(),
            });
            Ok(())
        }
        (
            PendingKind::BuildRoad { .. } | PendingKind::UpgradeLink | PendingKind::BuildStation,
            Action::Decline,
        ) => Ok(()),
        _ => Err(reject(
            RejectionCode::WrongStep,
            &p.source,
            format!("First answer the pending decision: {:?}.", p.kind),
        )),
    }
}

/// Removes display slot `slot`: cards to its left slide right and the leftmost slot refills
/// (autobahn §5.2).
pub fn take_display(state: &mut State, slot: u32) -> Result<String, Rejection> {
    let i = slot as usize;
    if i >= state.display.len() {
        return Err(reject(
            RejectionCode::InvalidArgument,
            "autobahn §5.2",
            "No card in that display slot.",
        ));
    }
    let card = state.display.remove(i);
    if let Some(c) = state.card_deck.pop() {
        state.display.insert(0, c);
    }
    Ok(card)
}

/// Ends the current turn: era-end check (autobahn §6, U-29), final round (§7), next player.
pub fn end_turn(state: &mut State, ev: &mut Vec<Event>) {
    let n = state.players.len() as u32;
    let supply_empty = state
        .era_supply
        .get(state.era as usize - 1)
        .copied()
        .unwrap_or(0)
        == 0;
    match state.final_turns_left {
        None if supply_empty && state.era < 3 => era::end_era(state, ev),
        None if supply_empty => {
            state.final_turns_left = Some(n);
            ev.push(Event::FinalRoundStarted {
                trigger: state.current,
            });
        }
        Some(k) if k > 0 => {
            state.final_turns_left = Some(k - 1);
            if k == 1 {
                // §7 step 3: the era-3 end steps after the final round.
                state.last_builder = state.last_builder.or(Some(state.current));
                era::end_era(state, ev);
                return;
            }
        }
        _ => {}
    }
    state.current = (state.current + 1) % n;
    state.phase = Phase::Main {
        bonus_claimed: false,
    };
    ev.push(Event::TurnStarted {
        player: state.current,
    });
}

/// Runs everything that needs no decision: lost effects, automatic turn ends, the Autobot's
/// turns and final scoring.
pub fn advance(state: &mut State, ev: &mut Vec<Event>) {
    for _ in 0..10_000 {
        effects::settle(state, ev);
        if !state.pending.is_empty() || state.phase == Phase::Over {
            return;
        }
        if state.final_turns_left == Some(0) {
            era::final_scoring(state, ev);
            return;
        }
        match &state.phase {
            Phase::Trucks { colour, moved } => {
                let c = state.board.autobahn(colour).unwrap_or(0);
                let p = state.current;
                let any = (0..state.p(p).trucks.len()).any(|t| {
                    !moved.contains(&(t as u32))
                        && movement::may_start(state, p, t, c)
                        && movement::has_move(state, p, t, movement::max_steps(state, p, t))
                });
                if any {
                    return;
                }
                end_turn(state, ev);
            }
            Phase::Main { .. } if state.is_bot(state.current) => {
                super::autobot::take_turn(state, ev);
                end_turn(state, ev);
            }
            _ => return,
        }
    }
}
