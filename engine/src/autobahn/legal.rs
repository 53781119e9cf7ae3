//! Legal actions: every action `apply` accepts now, computed directly.
//!
//! [`legal_actions`] walks the same candidates as [`candidates`] (same order) and keeps each
//! one exactly when the checks `apply` makes would all pass — affordability, a station left
//! on the board, a goods token in the supply, a truck in reserve, the subsidy conditions —
//! without cloning the state or applying anything. Strings are built only for the actions
//! that are kept.
//!
//! [`legal_actions_by_trial`] is the definition the generator must match: the candidates,
//! each confirmed by a trial [`turn::apply`] on a copy of the state. It is kept as the test
//! oracle (`engine/tests/autobahn_legal_oracle.rs` checks that both agree, in order, on
//! random states) and as the fallback for the one situation the direct checks do not model:
//! a board whose player-board action spaces or depots repeat an id (no shipped board does).

use super::action::{Action, Id};
use super::board::{ACTIONS, DEPARTMENTS, GOODS};
use super::state::{PendingKind, Phase, State, TruckAt};
use super::{build, movement, office, turn};
use crate::Seat;

/// Every action `seat` may take now (empty when the seat need not act), in the order of
/// [`candidates`].
pub fn legal_actions(state: &State, seat: Seat) -> Vec<Action> {
    if turn::actor_seat(state) != Some(seat) {
        return vec![];
    }
    let Some(player) = state.player_of(seat) else {
        return vec![];
    };
    if has_duplicate_ids(state, player) {
        return legal_actions_by_trial(state, seat);
    }
    let mut out = Vec::new();
    generate(state, player, &mut out);
    out
}

/// The definition of the legal actions: the [`candidates`] that a trial [`turn::apply`] on a
/// copy of the state accepts. Slow (one clone and one apply per candidate): the oracle of the
/// tests, not for play.
pub fn legal_actions_by_trial(state: &State, seat: Seat) -> Vec<Action> {
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

/// Whether the ids `apply` looks up by name could resolve to another entry than the one a
/// candidate was generated from (duplicate action-space ids of the player, duplicate depot
/// ids of the board). Board validation does not forbid these, so they are handled by trial.
fn has_duplicate_ids(state: &State, player: u32) -> bool {
    let spaces = &state.p(player).action_spaces;
    let depots = &state.board.def.depots;
    spaces
        .iter()
        .enumerate()
        .any(|(i, s)| spaces[..i].iter().any(|x| x.id == s.id))
        || depots
            .iter()
            .enumerate()
            .any(|(i, d)| depots[..i].iter().any(|x| x.id == d.id))
}

/// Whether `player` can pay `cost` (the Autobot never pays, autobahn §8.1).
fn affordable(state: &State, player: u32, cost: i64) -> bool {
    state.is_bot(player) || state.p(player).dm >= cost
}

/// Whether a build or upgrade on autobahn `a` can seat its employee (the office exists).
fn office_exists(state: &State, a: usize) -> bool {
    a < state.offices.len()
}

/// Whether `player` may build section `s` now, given that it is buildable
/// ([`build::buildable_sections`]): the checks [`build::build_section`] adds.
fn build_ok(state: &State, player: u32, s: usize) -> bool {
    affordable(state, player, state.board.section_cost(s, state.era))
        && office_exists(state, state.board.map.sections[s].autobahn)
}

/// Whether `player` may upgrade link `l` now, given that it is upgradable
/// ([`build::upgradable_links`]): the checks [`build::upgrade_link`] adds.
fn upgrade_ok(state: &State, player: u32, l: usize) -> bool {
    affordable(state, player, build::upgrade_cost(state, l))
        && office_exists(state, state.board.map.link_autobahn[l])
}

/// Whether `player` has a station left and can pay for it ([`build::build_station`] checks).
fn station_possible(state: &State, player: u32) -> bool {
    let st = &state.board.def.service_stations;
    state.p(player).stations_built < st.per_player
        && affordable(state, player, st.build_cost(state.era))
}

/// Whether `player` can load `goods` now ([`build::load_truck`] checks beyond the depot).
fn load_possible(state: &State, player: u32, goods: &str) -> bool {
    let gi = GOODS.iter().position(|g| *g == goods).unwrap_or(0);
    state.goods_supply.get(gi).is_some_and(|n| *n > 0)
        && state
            .p(player)
            .trucks
            .iter()
            .any(|t| t.at == TruckAt::Reserve)
}

fn id(s: &str) -> Id {
    Id::from(s)
}

/// The legal actions of `player` (who must act now), in candidate order.
fn generate(state: &State, player: u32, out: &mut Vec<Action>) {
    let b = &state.board;
    if let Some(p) = state.pending.first() {
        if p.player != player {
            return;
        }
        match &p.kind {
            PendingKind::Promote { department } => {
                for (d, f) in office::promotion_options(state, player, department.as_deref()) {
                    out.push(Action::Promote {
                        department: id(DEPARTMENTS[d]),
                        from_floor: f,
                    });
                }
            }
            PendingKind::PlaceEmployee => {
                for o in &state.offices {
                    if b.autobahn(&o.autobahn)
                        .is_some_and(|a| office_exists(state, a))
                    {
                        out.push(Action::PlaceEmployee {
                            colour: id(&o.autobahn),
                        });
                    }
                }
            }
            PendingKind::BuildRoad { colour } => {
                let c = colour.as_deref().and_then(|c| b.autobahn(c));
                for s in build::buildable_sections(state, c) {
                    if build_ok(state, player, s) {
                        out.push(Action::BuildRoad {
                            section: id(&b.map.section_ids[s]),
                        });
                    }
                }
                out.push(Action::Decline);
            }
            PendingKind::UpgradeLink => {
                for l in build::upgradable_links(state, None) {
                    if upgrade_ok(state, player, l) {
                        out.push(Action::UpgradeLink {
                            link: id(&b.def.links[l].id),
                        });
                    }
                }
                out.push(Action::Decline);
            }
            PendingKind::BuildStation => {
                if station_possible(state, player) {
                    for i in build::free_station_spaces(state, None) {
                        out.push(Action::BuildStation {
                            space: id(&b.map.station_spaces[i].id),
                        });
                    }
                }
                out.push(Action::Decline);
            }
            PendingKind::Unlock => out.extend(
                build::unlockable_cells(state, player)
                    .iter()
                    .map(|cell| Action::Unlock { cell: id(cell) }),
            ),
            PendingKind::TakeDisplayCard => out.extend(
                (0..state.display.len() as u32).map(|slot| Action::TakeDisplayCard { slot }),
            ),
            PendingKind::DiscardDisplayCard => out.extend(
                (0..state.display.len() as u32).map(|slot| Action::DiscardDisplayCard { slot }),
            ),
            PendingKind::ActionTile => {
                let pl = state.p(player);
                if pl.action_tiles_left > 0 {
                    out.extend(
                        pl.action_spaces
                            .iter()
                            .map(|s| Action::PlaceActionTile { space: id(&s.id) }),
                    );
                }
            }
        }
        return;
    }
    match &state.phase {
        Phase::RouteDraft => out.extend(
            state
                .route_offer
                .iter()
                .map(|c| Action::ChooseRouteCard { card: id(c) }),
        ),
        Phase::Main { bonus_claimed } => {
            let p = state.p(player);
            if !bonus_claimed {
                out.extend(
                    p.deliveries
                        .iter()
                        .filter(|r| r.goods_token && !r.bonus_used)
                        .map(|r| Action::ClaimDeliveryBonus {
                            country: id(&r.country),
                        }),
                );
            }
            play_card_actions(state, player, out);
            out.push(Action::TakeBackCards);
            if !p.subsidy_used && p.reserve > 0 {
                out.push(Action::Subsidy);
            }
        }
        Phase::Trucks { colour, moved } => {
            if let Some(c) = b.autobahn(colour) {
                // One walk collects every move (sections in a flat arena), then the list is
                // allocated once at its final size.
                let mut arena: Vec<usize> = Vec::with_capacity(512);
                let mut moves: Vec<(u32, usize, usize, bool)> = Vec::with_capacity(192);
                for t in 0..state.p(player).trucks.len() {
                    if moved.contains(&(t as u32)) || !movement::may_start(state, player, t, c) {
                        continue;
                    }
                    let max = movement::max_steps(state, player, t);
                    movement::for_each_move(state, player, t, max, |path, deliver| {
                        moves.push((t as u32, arena.len(), path.len(), deliver));
                        arena.extend_from_slice(path);
                    });
                }
                out.reserve_exact(moves.len() + 1);
                for (t, at, len, deliver) in moves {
                    out.push(Action::MoveTruck {
                        truck: t,
                        path: arena[at..at + len]
                            .iter()
                            .map(|&s| id(&b.map.section_ids[s]))
                            .collect(),
                        deliver,
                    });
                }
            }
            out.push(Action::EndTurn);
        }
        Phase::Over => {}
    }
}

/// The legal targets of every player-board action for one player now, each list in board
/// order (the order of the rules helpers) with the autobahn colour of every entry. Built
/// lazily, once per call, and shared by every card and colour of the hand.
struct Targets<'a> {
    state: &'a State,
    player: u32,
    /// `(colour, target, goods)` per action of [`ACTIONS`] (index 4: unlock, any colour).
    lists: [Option<TargetList<'a>>; 5],
}

/// Targets of one action: `(colour, target id, goods id)`, ids borrowed from the board.
type TargetList<'a> = Vec<(usize, &'a str, Option<&'a str>)>;

/// Index in [`ACTIONS`] of a player-board action name (anything else unlocks, as in `apply`).
fn action_index(action: &str) -> usize {
    ACTIONS[..4].iter().position(|a| *a == action).unwrap_or(4)
}

/// Colour marker of unlock targets: they serve every colour.
const ANY_COLOUR: usize = usize::MAX;

impl<'a> Targets<'a> {
    fn new(state: &'a State, player: u32) -> Self {
        Targets {
            state,
            player,
            lists: Default::default(),
        }
    }

    /// The targets of action `k` (computed on first use).
    fn list(&mut self, k: usize) -> &TargetList<'a> {
        let (state, player) = (self.state, self.player);
        self.lists[k].get_or_insert_with(|| {
            let board: &'a super::board::Board = &state.board;
            let m = &board.map;
            let mut v: TargetList<'a> = Vec::with_capacity(16);
            match k {
                0 => {
                    if build::buildable_sections_any(state) {
                        for s in 0..m.sections.len() {
                            if build::is_buildable(state, s, None) && build_ok(state, player, s) {
                                v.push((m.sections[s].autobahn, &m.section_ids[s], None));
                            }
                        }
                    }
                }
                1 => {
                    for l in 0..m.link_sections.len() {
                        if build::is_upgradable(state, l, None) && upgrade_ok(state, player, l) {
                            v.push((m.link_autobahn[l], &board.def.links[l].id, None));
                        }
                    }
                }
                2 => {
                    for (d, dep) in board.def.depots.iter().enumerate() {
                        let Some(a) = board.autobahn(&dep.autobahn) else {
                            continue;
                        };
                        for g in build::depot_goods_iter(state, d) {
                            if load_possible(state, player, g) {
                                v.push((a, &dep.id, Some(g)));
                            }
                        }
                    }
                }
                3 => {
                    if station_possible(state, player) {
                        for (i, sp) in m.station_spaces.iter().enumerate() {
                            if build::is_free_station_space(state, i, None) {
                                v.push((m.sections[sp.section].autobahn, &sp.id, None));
                            }
                        }
                    }
                }
                _ => {
                    // build::can_unlock for every cell, with the unlocked cells looked up once.
                    let cells = &board.def.player_board.unlock_grid.cells;
                    let unlocked = &state.p(player).unlocked;
                    let done: Vec<bool> = cells.iter().map(|c| unlocked.contains(&c.id)).collect();
                    for (i, cell) in cells.iter().enumerate() {
                        let open = m.unlock_entry.get(i).copied().unwrap_or(false)
                            || m.unlock_tails
                                .get(i)
                                .is_some_and(|t| t.iter().any(|&j| done[j]));
                        if !done[i] && open {
                            v.push((ANY_COLOUR, &cell.id, None));
                        }
                    }
                }
            }
            v
        })
    }

    /// Number of legal targets of action `k` in colour `c`.
    fn count(&mut self, k: usize, c: usize) -> usize {
        self.list(k)
            .iter()
            .filter(|x| x.0 == c || x.0 == ANY_COLOUR)
            .count()
    }

    /// Pushes one `PlayCard` per legal target of action `k` in colour `c`.
    fn push(&mut self, k: usize, c: usize, proto: &PlayProto<'_>, out: &mut Vec<Action>) {
        for (_, target, goods) in self
            .list(k)
            .iter()
            .filter(|x| x.0 == c || x.0 == ANY_COLOUR)
        {
            out.push(Action::PlayCard {
                card: proto.card.clone(),
                colour: proto.colour.clone(),
                space: proto.space.clone(),
                target: id(target),
                goods: goods.map(id),
            });
        }
    }
}

/// The fixed part of a `PlayCard` being listed.
struct PlayProto<'a> {
    card: &'a Id,
    colour: &'a Id,
    space: &'a Id,
}

/// Every legal `PlayCard` of `player`: distinct cards of the hand in sorted order × the card's
/// colours × action spaces with room × legal targets (the order of [`candidates`]).
fn play_card_actions(state: &State, player: u32, out: &mut Vec<Action>) {
    let b = &state.board;
    let p = state.p(player);
    let mut hand: Vec<&String> = p.hand.iter().collect();
    hand.sort_unstable();
    hand.dedup();
    let spaces: Vec<(Id, usize)> = p
        .action_spaces
        .iter()
        .enumerate()
        .filter(|(_, sp)| (sp.cards.len() as u32) < sp.capacity)
        .map(|(si, sp)| {
            let action = b
                .def
                .player_board
                .action_spaces
                .get(si)
                .map_or("", |a| a.action.as_str());
            (id(&sp.id), action_index(action))
        })
        .collect();
    if spaces.is_empty() {
        return;
    }
    // (card, colour) pairs in listing order.
    let mut plays: Vec<(Id, Id, usize)> = Vec::new();
    for card in hand {
        let Some(def) = b.card(card) else { continue };
        for colour in &def.colours {
            if let Some(c) = b.autobahn(colour) {
                plays.push((id(card), id(colour), c));
            }
        }
    }
    let mut targets = Targets::new(state, player);
    // Count first, so the (often long) list is allocated once.
    let mut n = 0;
    for (_, _, c) in &plays {
        for (_, k) in &spaces {
            n += targets.count(*k, *c);
        }
    }
    out.reserve_exact(n + 3);
    for (card, colour, c) in &plays {
        for (space, k) in &spaces {
            let proto = PlayProto {
                card,
                colour,
                space,
            };
            targets.push(*k, *c, &proto, out);
        }
    }
}

/// A superset of the legal actions, unconfirmed: what [`legal_actions_by_trial`] filters.
/// Tests use it to check that the candidates the generator leaves out are rejected.
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
                        department: DEPARTMENTS[d].into(),
                        from_floor: f,
                    });
                }
            }
            PendingKind::PlaceEmployee => {
                out.extend(state.offices.iter().map(|o| Action::PlaceEmployee {
                    colour: o.autobahn.as_str().into(),
                }))
            }
            PendingKind::BuildRoad { colour } => {
                let c = colour.as_deref().and_then(|c| b.autobahn(c));
                out.extend(build::buildable_sections(state, c).into_iter().map(|s| {
                    Action::BuildRoad {
                        section: b.map.section_ids[s].as_str().into(),
                    }
                }));
                out.push(Action::Decline);
            }
            PendingKind::UpgradeLink => {
                out.extend(build::upgradable_links(state, None).into_iter().map(|l| {
                    Action::UpgradeLink {
                        link: b.def.links[l].id.as_str().into(),
                    }
                }));
                out.push(Action::Decline);
            }
            PendingKind::BuildStation => {
                out.extend(
                    build::free_station_spaces(state, None)
                        .into_iter()
                        .map(|i| Action::BuildStation {
                            space: b.map.station_spaces[i].id.as_str().into(),
                        }),
                );
                out.push(Action::Decline);
            }
            PendingKind::Unlock => out.extend(
                build::unlockable_cells(state, player)
                    .into_iter()
                    .map(|cell| Action::Unlock { cell: cell.into() }),
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
                            space: s.id.as_str().into(),
                        }),
                )
            }
        }
        return out;
    }
    match &state.phase {
        Phase::RouteDraft => {
            out.extend(state.route_offer.iter().map(|c| Action::ChooseRouteCard {
                card: c.as_str().into(),
            }))
        }
        Phase::Main { bonus_claimed } => {
            let p = state.p(player);
            if !bonus_claimed {
                out.extend(
                    p.deliveries
                        .iter()
                        .filter(|r| r.goods_token && !r.bonus_used)
                        .map(|r| Action::ClaimDeliveryBonus {
                            country: r.country.as_str().into(),
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
                                card: card.as_str().into(),
                                colour: colour.as_str().into(),
                                space: sp.id.as_str().into(),
                                target: target.into(),
                                goods: goods.map(Into::into),
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
                            path: path.into(),
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

/// Why `action` by `seat` is a trap, when its reward is certain to be lost (issue #23: "no
/// trap actions without a word"). The action stays legal (the rules allow it); the legal-action
/// entry and `Describe` carry this text, and the strategy bots never pick it while anything
/// else is legal. Two cases, both exact:
///
/// * an unlock (the `KEY` space, a pending `Unlock`) or a delivery bonus whose reward is lost
///   at once because nothing can take it (autobahn §5.11: e.g. the Promote cell unlocked with
///   an empty Lobby and nobody to promote) — found by applying the action to a copy;
/// * loading a truck at a depot with no built road at its city (autobahn §5.6, AQ-4): the
///   truck cannot leave the depot until a road reaches it.
///
/// `None` for every other action, and for actions `apply` refuses.
pub fn warning(state: &State, seat: Seat, action: &Action) -> Option<String> {
    let player = state.player_of(seat)?;
    let reward = match action {
        Action::PlayCard { space, target, .. } if space == "LOAD_TRUCK" => {
            let d = state
                .board
                .def
                .depots
                .iter()
                .position(|d| d.id == *target)?;
            if build::depot_connected(state, d) {
                return None;
            }
            let city = &state.board.def.depots[d].at;
            return Some(format!(
                "no built road reaches depot {target} ({city}): the truck cannot leave it until a road section at {city} is built"
            ));
        }
        Action::PlayCard { space, target, .. } if action_index(space) == 4 => {
            format!("unlocking {target}")
        }
        Action::Unlock { cell } => format!("unlocking {cell}"),
        Action::ClaimDeliveryBonus { country } => format!("the delivery bonus of {country}"),
        _ => return None,
    };
    let mut copy = state.clone();
    let events = turn::apply(&mut copy, seat, action).ok()?;
    let lost: Vec<String> = events
        .iter()
        .filter_map(|e| match e {
            super::action::Event::EffectLost { player: p, effect } if *p == player => {
                Some(effect.clone())
            }
            _ => None,
        })
        .collect();
    if lost.is_empty() {
        None
    } else {
        Some(format!(
            "the reward of {reward} is lost: {}",
            lost.join("; ")
        ))
    }
}
