//! The records the writer adds for the steps of [`super::open_steps`]: the `pass` of each
//! step 18xx.games keeps open (1841 §5.4 step 3, §9.1, §9.2, §5.1), an empty `run_routes` where
//! 18xx opens a routes step from its stale route cache (§9.4), and the `destination_connection`
//! `auto_actions` of a track step (§13).

use serde_json::{Map, Value, json};

use super::Writer;
use super::open_steps::{
    token_step_opened_in_18xx, track_step_skipped, turn_position, turns_played_through,
};
use crate::Seat;
use crate::g1841::action::{Action, Event};
use crate::g1841::data;
use crate::g1841::import18xx::{self, Entity};
use crate::g1841::operating_round;
use crate::g1841::state::{OperatingStep, Round, StartStep, State};

impl Writer<'_> {
    /// Adds to `json` (the record of `action`, applied from `pre` to `post`) the `auto_actions`
    /// 18xx.games records with it: the engine's own actions it generates after processing the
    /// action, which a stored game replays from the record.
    ///
    /// * `destination_connection` (18xx `G1841::Step::Destinate`) after the action that ends
    ///   an operating corporation's track step when it laid at least one tile this turn, with
    ///   the off-board hexes connected since the last one written (1841 §13: the game-end
    ///   condition "every off-board group connected"; one hex with track per group newly
    ///   connected, which is all the condition reads).
    ///
    /// Returns the corporation whose track step 18xx.games still holds open after this
    /// action: a lay that left this engine's track step with fewer lays than the turn allows
    /// (1841 §9.1; no legal lay left here, while 18xx's step waits for its `pass` as long as
    /// lays remain); the `destination_connection` then goes with that `pass`.
    pub(super) fn auto_actions(
        &mut self,
        pre: &State,
        post: &State,
        action: &Action,
        json: &mut Value,
    ) -> Option<(String, Vec<Value>)> {
        let mut autos = Vec::new();
        let mut open = None;
        if let Round::OperatingRound(r) = &pre.round
            && r.event.is_none()
            && r.crowded.is_empty()
            && r.start.is_none()
            && r.step == crate::g1841::state::OperatingStep::Track
            && let Some(corp) = r.current.as_deref()
        {
            // The same turn's track step: a corporation whose turn ends with this lay (nothing
            // left to do) and that operates first in the next operating round is in a new
            // track step (version_1, 3 players, random, seed 3113, id 676: AFI's lay ends
            // operating round 7.1 and AFI opens 7.2; the `destination_connection` goes with
            // the lay, 18xx.games' Destinate step being active after it).
            let still = match &post.round {
                Round::OperatingRound(q) => {
                    q.current.as_deref() == Some(corp)
                        && q.step == crate::g1841::state::OperatingStep::Track
                        && q.stock_round == r.stock_round
                        && q.number == r.number
                }
                _ => false,
            };
            let laid = !r.laid_hexes.is_empty() || matches!(action, Action::LayTile { .. });
            if !still && laid {
                let groups = &data::ruleset(&post.options).game_end.offboard_groups;
                let hexes: Vec<String> = post
                    .game_end
                    .connected_offboards
                    .iter()
                    .filter(|g| self.connected.insert((*g).clone()))
                    .filter_map(|g| groups.get(g))
                    .flat_map(|g| g.hexes_with_track.iter().cloned())
                    .collect();
                let dc = json!({
                    "type": "destination_connection",
                    "entity": corp,
                    "entity_type": "corporation",
                    "hexes": hexes,
                });
                let lays =
                    r.laid_hexes.len() + usize::from(matches!(action, Action::LayTile { .. }));
                let allowed = operating_round::tile_actions(pre, corp) as usize;
                if matches!(action, Action::LayTile { .. }) && lays < allowed {
                    open = Some((corp.to_string(), vec![dc]));
                } else {
                    autos.push(dc);
                }
            }
        }
        if !autos.is_empty() {
            json["auto_actions"] = Value::Array(autos);
        }
        open
    }

    /// Appends 18xx.games' `pass` of a step this engine skipped after the action from `pre`
    /// to `post`: the optional second home token of a non-historical major when no city of
    /// the region has a free slot (1841 §5.4 step 3; 18xx offers the step while the region
    /// has another city), the track step of each corporation whose whole turn this engine
    /// played by itself ([`turns_played_through`]), the track step at the start of a
    /// corporation's turn ([`track_step_skipped`]). The importer drops them again.
    pub(super) fn track_pass(
        &self,
        pre: &State,
        post: &State,
        seat: Seat,
        events: &[Event],
        out: &mut Vec<Value>,
    ) {
        let placed_first = import18xx::corporation_start(pre).is_some_and(|st| {
            st.step == StartStep::HomeToken
                && pre
                    .corporation(&st.corporation)
                    .is_some_and(|c| c.tokens.is_empty())
        });
        if placed_first
            && let Some(st) = import18xx::corporation_start(post)
            && st.step == StartStep::BuyTokens
            && crate::g1841::start::home_optional(post, &st.corporation)
            && post
                .corporation(&st.corporation)
                .and_then(|c| c.tokens.first())
                .is_some_and(|t| crate::g1841::start::region_has_other_city(post, &t.hex))
        {
            let id = i64::try_from(out.len() + 1).unwrap_or(i64::MAX);
            let seat = crate::g1841::corporation::controller(post, &st.corporation).unwrap_or(seat);
            let corp = Entity::Corporation(st.corporation.clone());
            out.push(self.record("pass", &Map::new(), &corp, seat, id));
        }
        for corp in turns_played_through(post, events) {
            let id = i64::try_from(out.len() + 1).unwrap_or(i64::MAX);
            let seat = crate::g1841::corporation::controller(post, &corp).unwrap_or(seat);
            out.push(self.record("pass", &Map::new(), &Entity::Corporation(corp), seat, id));
        }
        if let Some(corp) = track_step_skipped(pre, post) {
            let id = i64::try_from(out.len() + 1).unwrap_or(i64::MAX);
            let seat = crate::g1841::corporation::controller(post, &corp).unwrap_or(seat);
            out.push(self.record("pass", &Map::new(), &Entity::Corporation(corp), seat, id));
        }
    }

    /// Appends 18xx.games' `pass` of a token step this engine skipped during `pre → post`
    /// ([`token_step_opened_in_18xx`]): with `began`, the corporation whose turn began.
    /// The `pass` of each player whose stock turn this engine ended by itself where 18xx.games
    /// still offers him an action it cannot carry out ([`super::stock_turns`]).
    pub(super) fn open_turn_passes(&self, seats: &[Seat], out: &mut Vec<Value>) {
        for &seat in seats {
            let id = i64::try_from(out.len() + 1).unwrap_or(i64::MAX);
            out.push(self.record("pass", &Map::new(), &Entity::Player(seat), seat, id));
        }
    }

    /// Appends an empty `run_routes` where 18xx.games opens the routes step of a corporation
    /// this engine found without a route (1841 §9.3, §9.4: it runs nothing, withholds 0 and
    /// moves left, `DidNotRun`), from its stale route cache: in phase 2 its selected graph is
    /// `@region_graph`, whose `route_info` of a corporation that once had a route
    /// (`route_train_purchase`) survives every `clear`, and a token sale clears only `@graph`
    /// (`G1841::Step::BuyToken#process_buy_token`). So a corporation that ran routes in
    /// phase 2 and then sold its only useful token still gets `Route` (lite heuristic 3
    /// players seed 3011, id 108: SFTG, H4 sold to SFTC at id 101, "Blocking step Run Routes
    /// cannot process action pass"). The empty run earns 0: 18xx then skips its dividend step
    /// with a withholding and moves the price left, as this engine did. Also notes the
    /// corporations that run routes in phase 2.
    pub(super) fn stale_route_runs(
        &mut self,
        pre: &State,
        post: &State,
        seat: Seat,
        action: &Action,
        events: &[Event],
        out: &mut Vec<Value>,
    ) {
        if let Action::RunRoutes { routes } = action
            && !routes.is_empty()
            && pre.phase == "2"
            && let Some(corp) = operating_round::current(pre)
        {
            self.ran_in_phase_2.insert(corp);
        }
        // 18xx also fills the cache whenever its token step asks the phase-2 graph whether
        // the operating corporation can token (`Tokener#can_place_token?`: not tokened this
        // turn and a token left — placing is free, 1841 §9.2 — then `can_token?`, which
        // computes the whole graph and keeps a route of two stops for good) while a route is
        // there. Its track step asks the graph nothing that stays. Seen: a state with the
        // corporation in this engine's token step, and the state after an action that took
        // it from its track step (or the start of its turn) past a token step this engine
        // skipped, when it has a token left. v2 6 players random seed 6164, id 387: SFTG's
        // lays at ids 252–253 joined H4 (Torino) to another city, its token step asked, and
        // H4's token was later sold; seed 7174, id 304: SFTG's lays at ids 161–162 joined its
        // two homes but both its tokens were placed, its token step never asked, and 18xx
        // skips its routes step (before, every state of the track step counted as seen).
        let in_token_step = |st: &State| match &st.round {
            Round::OperatingRound(r) if r.step == OperatingStep::Token && r.event.is_none() => {
                r.current.clone()
            }
            _ => None,
        };
        let mut seen: Vec<(&State, String)> = Vec::new();
        for st in [pre, post] {
            if let Some(corp) = in_token_step(st) {
                seen.push((st, corp));
            }
        }
        let from_track = match &pre.round {
            Round::OperatingRound(p) if p.event.is_none() && p.start.is_none() => {
                match p.current.as_ref() {
                    Some(c) if p.step <= OperatingStep::Track => Some(c.clone()),
                    _ => None,
                }
            }
            _ => None,
        };
        let began_now = match (&pre.round, &post.round) {
            (Round::OperatingRound(p), Round::OperatingRound(q)) if p.current != q.current => {
                q.current.clone()
            }
            (_, Round::OperatingRound(q)) if !matches!(pre.round, Round::OperatingRound(_)) => {
                q.current.clone()
            }
            _ => None,
        };
        for corp in [from_track, began_now].into_iter().flatten() {
            let past = match turn_position(post, &corp) {
                Some(Some(step)) => step > OperatingStep::Token,
                Some(None) => true,
                None => false,
            };
            let token_left = post
                .corporation(&corp)
                .is_some_and(|c| (c.tokens.len() as u32) < c.tokens_total);
            let quiet = matches!(&post.round, Round::OperatingRound(q) if q.event.is_none());
            if past && token_left && quiet {
                seen.push((post, corp));
            }
        }
        for (st, corp) in seen {
            if st.phase == "2"
                && !self.ran_in_phase_2.contains(&corp)
                && operating_round::region_route_available(st, &corp)
            {
                self.ran_in_phase_2.insert(corp);
            }
        }
        for e in events {
            let Event::DidNotRun { corporation } = e else {
                continue;
            };
            let has_trains = post
                .operations
                .trains
                .get(corporation)
                .is_some_and(|t| !t.is_empty());
            if post.phase != "2" || !has_trains || !self.ran_in_phase_2.contains(corporation) {
                continue;
            }
            let id = i64::try_from(out.len() + 1).unwrap_or(i64::MAX);
            let seat = crate::g1841::corporation::controller(post, corporation).unwrap_or(seat);
            let mut f = Map::new();
            f.insert("routes".into(), Value::Array(Vec::new()));
            f.insert("extra_revenue".into(), Value::from(0));
            f.insert("subsidy".into(), Value::from(0));
            out.push(self.record(
                "run_routes",
                &f,
                &Entity::Corporation(corporation.clone()),
                seat,
                id,
            ));
        }
    }

    pub(super) fn token_pass(
        &self,
        pre: &State,
        post: &State,
        seat: Seat,
        began: bool,
        out: &mut Vec<Value>,
    ) {
        if let Some(corp) = token_step_opened_in_18xx(Some(pre), post, began) {
            let id = i64::try_from(out.len() + 1).unwrap_or(i64::MAX);
            let seat = crate::g1841::corporation::controller(post, &corp).unwrap_or(seat);
            out.push(self.record("pass", &Map::new(), &Entity::Corporation(corp), seat, id));
        }
    }
}
