//! The writer's own work: one action as a record, read back with the importer to check it
//! ([`Writer::write`]), a purchase from another player (1841 §15.3), and what it follows
//! over the game: tile copies, 18xx's share ids ([`crate::g1841::share_ledger`]) and token
//! slots.

use std::collections::BTreeSet;

use serde_json::{Map, Value, json};

use super::fields::entity;
use super::shares::{action_corporation, moved, share_moves, sold_ordinary};
use super::split::split_end_with_events;
use super::top_level::player_id_json;
use super::{REFEREE_SHARES, Writer};
use crate::Seat;
use crate::g1841::action::{Action, Event};
use crate::g1841::import18xx::{self, Entity, notation};
use crate::g1841::options::Options;
use crate::g1841::share_ledger::{TokenSlots, reserved_slots, waiting_homes};
use crate::g1841::state::{CorporateEvent, PurchaseItem, PurchaseOffer, Round, ShareOwner, State};
use crate::g1841::token_slots::retiled_hexes;

impl Writer<'_> {
    /// The 18xx form of one applied action, checked by reading it back.
    pub(super) fn write(
        &mut self,
        pre: &State,
        post: &State,
        seat: Seat,
        action: &Action,
        events: &[Event],
        id: i64,
    ) -> Result<Value, String> {
        self.follow_tiles(pre, post);
        // A purchase that ends the Ferdinandea split, with the Tuscan merge queued behind it
        // running on in the same action (1841 §12.4, §12.3): 18xx moves the certificate to
        // its buyer, a successor's holder that may be gone after the merge, before the merge
        // (`share_offer_option`, then `secession_finish`), so the buyer is read at the
        // split's end ([`split_end_with_events`]), as [`Writer::follow_ledger`] settles it
        // (p2p_purchases random 3 players seed 3183, 18xx id 569: SFMA buys SFL_8, takes
        // SFL's presidency from ATFA for SFL_3 and SFL_6, then the merge moves SFMA's SFL
        // to SFLi; read after the merge, the buyer was SFLi, and ATFA's sale at id 611
        // named SFL_8, SFLi's in 18xx: "All shares must be owned by the same owner").
        let staged = split_end_with_events(pre, post, seat, action, events);
        let moves = share_moves(pre, staged.as_ref().map_or(post, |(end, _)| end), action);
        let ours: Vec<String> = moves
            .iter()
            .map(|(i, _, _)| notation::share_id(action_corporation(action), *i))
            .collect();
        // A president whose sale is worth more than his other certificates sells the
        // president's certificate (the presidency passes to a player or a corporation, or the
        // certificate goes to the pool, 1841 §5.3): 18xx's bundle holds it, after his other
        // certificates (partial when only part of it is sold; `ShareBundle` of the
        // president's share), and its pool moves the certificates as
        // [`Ledger::president_sale`] follows.
        let dump = match action {
            Action::SellShares {
                corporation,
                percent,
            }
            | Action::EmergencySell {
                corporation,
                percent,
                ..
            } => moves.first().and_then(|(_, seller, _)| {
                let held = |s: &State| {
                    s.corporation(corporation).map(|c| {
                        c.certificates
                            .iter()
                            .filter(|x| x.owner == *seller)
                            .map(|x| (x.percent, x.president))
                            .collect::<Vec<_>>()
                    })
                };
                let (a, b) = (held(pre)?, held(post)?);
                let others: u32 = a.iter().filter(|x| !x.1).map(|x| x.0).sum();
                if !a.iter().any(|x| x.1) || *percent <= others || b.iter().any(|x| x.1) {
                    return None;
                }
                let president = post
                    .corporation(corporation)?
                    .certificates
                    .iter()
                    .find(|x| x.president)
                    .map(|x| x.owner.clone())
                    .filter(|p| *p != ShareOwner::Ipo)?;
                Some((corporation.clone(), seller.clone(), president, *percent))
            }),
            _ => None,
        };
        let mut ids = Vec::new();
        let mut from_to: Vec<(&ShareOwner, &ShareOwner)> = Vec::new();
        for (_, from, to) in moves.iter().filter(|_| dump.is_none()) {
            if !from_to.contains(&(from, to)) {
                from_to.push((from, to));
            }
        }
        for (from, to) in from_to {
            let indices: Vec<usize> = moves
                .iter()
                .filter(|(_, f, t)| (f, t) == (from, to))
                .map(|(i, _, _)| *i)
                .collect();
            ids.extend(
                self.ledger
                    .pick(action_corporation(action), from, to, pre, &indices),
            );
        }
        if let Some((corporation, seller, president, percent)) = &dump {
            ids = self
                .ledger
                .president_sale(corporation, seller, president, *percent);
        }
        let (kind, mut fields) = self.fields(pre, post, action, events, &ids)?;
        if ids != ours {
            fields.insert(REFEREE_SHARES.into(), json!(ours));
        }
        let preferred = entity(pre, seat, action);
        let mut candidates = vec![preferred];
        if !candidates.contains(&Entity::Player(seat)) {
            candidates.push(Entity::Player(seat));
        }
        let mut last = None;
        for entity in &candidates {
            let raw = self.record(&kind, &fields, entity, seat, id);
            match self.read_back(pre, &raw) {
                Ok(Some(read)) if read == (seat, action.clone()) => return Ok(raw),
                other => last = Some(other),
            }
        }
        Err(format!(
            "{} by seat {seat} has no 18xx form that reads back as the same action (`{kind}` reads back as {last:?})",
            action.kind_name(),
        ))
    }

    /// A `discard_train` record of each (corporation, train) in order, written by `seat`'s
    /// action (1841 §9.6).
    pub(super) fn write_discards<T: Into<Value>>(
        &self,
        discards: impl IntoIterator<Item = (String, T)>,
        seat: Seat,
        out: &mut Vec<Value>,
    ) {
        for (corp, train) in discards {
            let id = i64::try_from(out.len() + 1).unwrap_or(i64::MAX);
            let mut f = Map::new();
            f.insert("train".into(), train.into());
            out.push(self.record("discard_train", &f, &Entity::Corporation(corp), seat, id));
        }
    }

    pub(super) fn record(
        &self,
        kind: &str,
        fields: &Map<String, Value>,
        entity: &Entity,
        seat: Seat,
        id: i64,
    ) -> Value {
        let mut raw = Map::new();
        raw.insert("type".into(), Value::from(kind));
        let user = self
            .players
            .get(seat as usize)
            .map(|p| player_id_json(&p.id));
        match entity {
            Entity::Corporation(sym) => {
                raw.insert("entity".into(), Value::from(sym.as_str()));
                raw.insert("entity_type".into(), Value::from("corporation"));
            }
            Entity::Player(_) | Entity::Other(_) => {
                let p = match entity {
                    Entity::Player(s) => self.players.get(*s as usize),
                    _ => None,
                };
                raw.insert(
                    "entity".into(),
                    p.map_or(Value::Null, |p| player_id_json(&p.id)),
                );
                raw.insert("entity_type".into(), Value::from("player"));
            }
        }
        raw.insert("id".into(), Value::from(id));
        if let Some(u) = user {
            raw.insert("user".into(), u);
        }
        raw.extend(fields.clone());
        Value::Object(raw)
    }

    /// An accepted purchase from another player (1841 §15.3), from the state `before` the
    /// offer to the state after the acceptance, as 18xx's direct purchase: `buy_shares` by
    /// the buyer naming the certificates that left the seller (the first one his), with
    /// `percent` and `total_price`, or `buy_company` with `company` and `price`; checked by
    /// reading it back as the same offer and acceptance.
    pub(super) fn purchase(
        &mut self,
        before: &State,
        post: &State,
        offer: &PurchaseOffer,
        id: i64,
    ) -> Result<Value, String> {
        let mut f = Map::new();
        let kind = match &offer.item {
            PurchaseItem::Shares {
                corporation,
                percent,
            } => {
                let seller = ShareOwner::Player(offer.seller);
                let ours =
                    sold_ordinary(before, corporation, &seller, *percent).unwrap_or_else(|| {
                        moved(before, post, corporation, |a, b| {
                            *a == seller && *b != seller
                        })
                    });
                if ours.is_empty() {
                    return Err(format!("no certificate of {corporation} left the seller"));
                }
                let indices: Vec<usize> = ours
                    .iter()
                    .filter_map(|id| notation::parse_share_id(id).map(|(_, i)| i))
                    .collect();
                let buyer = ShareOwner::Player(offer.buyer);
                let ids = self
                    .ledger
                    .pick(corporation, &seller, &buyer, before, &indices);
                if let Some(president) = post
                    .corporation(corporation)
                    .and_then(|c| c.president().cloned())
                {
                    self.ledger.president_purchase(
                        corporation,
                        &ids,
                        &seller,
                        &buyer,
                        &president,
                        *percent,
                    );
                }
                if ids != ours {
                    f.insert(REFEREE_SHARES.into(), json!(ours));
                }
                f.insert("shares".into(), json!(ids));
                f.insert("percent".into(), Value::from(*percent));
                f.insert("total_price".into(), Value::from(offer.price));
                "buy_shares"
            }
            PurchaseItem::Concession { concession } => {
                f.insert("company".into(), Value::from(concession.as_str()));
                f.insert("price".into(), Value::from(offer.price));
                "buy_company"
            }
        };
        let raw = self.record(kind, &f, &Entity::Player(offer.buyer), offer.buyer, id);
        let expected = vec![
            (
                offer.buyer,
                Action::OfferPurchase {
                    seller: offer.seller,
                    item: offer.item.clone(),
                    price: offer.price,
                },
            ),
            (offer.seller, Action::AnswerOffer { accept: true }),
        ];
        let read = import18xx::imported(self.players, raw.clone(), false).to_actions(before);
        match read {
            Ok(list) if list == expected => Ok(raw),
            other => Err(format!(
                "the purchase from seat {} has no 18xx form that reads back as the same purchase (`{kind}` reads back as {other:?})",
                offer.seller
            )),
        }
    }

    /// A declined offer is not written; if the buyer then passed automatically (nothing left
    /// to do), his turn is written as a `pass`, as he could pass before the offer.
    pub(super) fn pass_after_decline(
        &self,
        offer: &PurchaseOffer,
        events: &[Event],
        id: i64,
    ) -> Option<Value> {
        let buyer = offer.buyer;
        events
            .iter()
            .any(|e| matches!(e, Event::Passed { seat, automatic: true } if *seat == buyer))
            .then(|| self.record("pass", &Map::new(), &Entity::Player(buyer), buyer, id))
    }

    /// The action as the importer reads it in `pre`.
    fn read_back(
        &self,
        pre: &State,
        raw: &Value,
    ) -> Result<Option<(Seat, Action)>, import18xx::ImportError> {
        let mut imported = import18xx::imported(self.players, raw.clone(), false);
        // The importer follows tile copies over the whole record; here the hex is known.
        if let Some((first, tile, _)) = raw
            .get("city")
            .and_then(Value::as_str)
            .and_then(notation::parse_city_id)
            && !crate::g1841::map::map(&pre.options)
                .hexes
                .contains_key(first)
        {
            imported.tile_hex = self
                .tiles
                .iter()
                .find(|(_, copy)| copy.as_str() == tile)
                .map(|(hex, _)| hex.clone());
        }
        let mut read = imported.to_action(pre);
        // The importer's replay takes the compulsory second token out of 18xx's count the
        // same way ([`crate::g1841::import18xx::replay`]).
        if let Ok(Some((_, Action::BuyTokens { count }))) = &mut read
            && let Some(major) = self.compulsory.as_deref()
            && matches!(&pre.round, Round::OperatingRound(r)
                if matches!(r.event.as_deref(),
                    Some(CorporateEvent::Transformation(t)) if t.major == major))
        {
            *count = count.saturating_sub(1);
        }
        read
    }

    /// Gives every hex whose tile changed its tile copy, as 18xx picks it: the first copy of
    /// that tile in the supply, where copies start in number order and a replaced tile goes
    /// back at the end (18xx lays the copy the record names; the site offers the first).
    fn follow_tiles(&mut self, pre: &State, post: &State) {
        let changed: Vec<(String, String)> = post
            .operations
            .tiles
            .iter()
            .filter(|(hex, t)| pre.operations.tiles.get(*hex).map(|p| &p.tile) != Some(&t.tile))
            .map(|(hex, t)| (hex.clone(), t.tile.clone()))
            .collect();
        let map = crate::g1841::map::map(&post.options);
        for (hex, tile) in changed {
            let supply = self.supply.entry(tile.clone()).or_insert_with(|| {
                (0..map.tile_count(&tile).max(1))
                    .map(|c| notation::tile_id(&tile, c))
                    .collect()
            });
            let copy = supply.pop_front().unwrap_or_else(|| {
                // More copies than the manifest lists: number on.
                let used: BTreeSet<&String> = self.tiles.values().collect();
                (0..)
                    .map(|c| notation::tile_id(&tile, c))
                    .find(|id| !used.contains(id))
                    .unwrap_or_default()
            });
            if let Some(old) = self.tiles.insert(hex, copy) {
                let name = notation::tile_number(&old).to_string();
                self.supply.entry(name).or_default().push_back(old);
            }
        }
        let gone: Vec<String> = self
            .tiles
            .keys()
            .filter(|hex| !post.operations.tiles.contains_key(*hex))
            .cloned()
            .collect();
        for hex in gone {
            if let Some(old) = self.tiles.remove(&hex) {
                let name = notation::tile_number(&old).to_string();
                self.supply.entry(name).or_default().push_back(old);
            }
        }
    }

    /// The id of city `city` of `hex` now: on a laid tile copy, or on the printed tile.
    pub(super) fn city_id(&self, options: &Options, hex: &str, city: u32) -> String {
        match self.tiles.get(hex) {
            Some(copy) => notation::laid_city_id(copy, city),
            None => notation::printed_city_id(options, hex, city),
        }
    }

    /// Follows 18xx.games' share ids over `action` (`pre → post`, with `events`): the
    /// bankrupt's sales, the split's treasury, a merger's treasury and exchanges, then the
    /// holdings of `post` ([`crate::g1841::share_ledger::Ledger::settle`]). When the Ferdinandea
    /// split ends in this action and the Tuscan merge queued behind it runs on (1841 §11, §12.4,
    /// §12.3), 18xx finishes the split first (`secession_finish`): the ledger is brought to the
    /// split's end ([`super::split::split_end_state`]) before the merge moves the treasuries, so
    /// the certificates a successor's holder bought in the split's last purchase round move on with
    /// their own ids (Version 2, 4 players, random seed 4143: SFLP's SFL shares go to SFLi, 18xx id
    /// 307–310; before, the ledger gave SFLi other pool ids, and a later purchase named
    /// `SFL_8`, which 18xx's SFLi holds, at id 456).
    pub(super) fn follow_ledger(
        &mut self,
        pre: &State,
        post: &State,
        seat: Seat,
        action: &Action,
        events: &[Event],
    ) {
        if matches!(action, Action::DeclareBankruptcy { .. }) {
            self.ledger.bankrupt_sales(&ShareOwner::Player(seat));
        }
        self.ledger.concessions_closed(events);
        let mut from = pre;
        let mut rest = events;
        let staged = split_end_with_events(pre, post, seat, action, events);
        if let Some((end, n)) = &staged {
            let split = &events[..*n];
            self.ledger.split_treasury(pre, split);
            self.ledger.merger_treasury(pre, end, split);
            self.ledger.exchanged(split, end);
            self.ledger.settle(end);
            from = end;
            rest = &events[*n..];
        }
        self.ledger.split_treasury(from, rest);
        self.ledger.merger_treasury(from, post, rest);
        self.ledger.exchanged(rest, post);
        self.ledger.settle(post);
    }

    /// 18xx's slot of `corporation`'s token in city `city` of `hex`, as followed by
    /// [`Writer::follow_slots`].
    pub(super) fn slot_of(&self, hex: &str, city: u32, corporation: &str) -> Option<usize> {
        self.slots.slot_of(hex, city, corporation)
    }

    /// Follows 18xx.games' token slots over `action` (`pre → post`), which `buy_token` and
    /// `remove_token` name ([`TokenSlots::follow`]).
    pub(super) fn follow_slots(
        &mut self,
        pre: &State,
        post: &State,
        action: &Action,
        events: &[Event],
    ) {
        let waiting = waiting_homes(pre);
        self.slots.follow(
            &TokenSlots::locate(pre),
            &TokenSlots::locate(post),
            &retiled_hexes(pre, post),
            matches!(action, Action::BuyToken { .. }),
            events,
            &|hex, city| reserved_slots(post, &waiting, hex, city),
        );
    }
}
