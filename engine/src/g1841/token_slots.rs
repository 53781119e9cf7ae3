//! 18xx.games' token slots followed over a game played on Referee, for the export
//! ([`super::export18xx`]) and the import ([`super::import18xx`]): `buy_token` and
//! `remove_token` name a token by its slot in a city (`city.tokens[slot]`), and this engine's
//! tokens carry no slot.

use std::collections::{BTreeMap, BTreeSet};

use super::action::Event;
use super::data;
use super::state::State;

/// 18xx.games' reserved slots of a city, by slot: the corporation and whether the reservation
/// still holds ([`reserved_slots`]).
pub type ReservedSlots = Vec<(String, bool)>;

/// Where a token stands: hex, city index, corporation.
pub type Located = BTreeSet<(String, u32, String)>;

/// 18xx.games' token slots of each city (hex, city index) holding or having held a token: the
/// corporation in each slot, `None` for a slot emptied. `buy_token` and `remove_token` name
/// a token by its slot (`city.tokens[slot]`); this engine's tokens carry no slot (its city
/// holders are in corporation order), so the export and the import follow 18xx's.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TokenSlots {
    slots: BTreeMap<(String, u32), Vec<Option<String>>>,
}

impl TokenSlots {
    /// Every token of `state`, for [`TokenSlots::follow`].
    pub fn locate(state: &State) -> Located {
        state
            .corporations
            .iter()
            .flat_map(|c| {
                c.tokens
                    .iter()
                    .map(|t| (t.hex.clone(), t.city, c.sym.clone()))
            })
            .collect()
    }

    /// 18xx's slot of `corporation`'s token in city `city` of `hex`.
    pub fn slot_of(&self, hex: &str, city: u32, corporation: &str) -> Option<usize> {
        self.slots
            .get(&(hex.to_string(), city))?
            .iter()
            .position(|s| s.as_deref() == Some(corporation))
    }

    /// The corporation whose token is in 18xx's slot `slot` of city `city` of `hex`.
    pub fn holder(&self, hex: &str, city: u32, slot: usize) -> Option<&str> {
        self.slots
            .get(&(hex.to_string(), city))?
            .get(slot)?
            .as_deref()
    }

    /// Follows a new tile on `hex`: 18xx moves the old tile's tokens to the new tile
    /// (`Hex#lay`), taking the old cities in order and each one's tokens in slot order, and
    /// places each in its city of the new tile with `City#exchange_token`, which takes the
    /// token's reserved slot, else the first slot neither holding a token nor reserved
    /// (`City#get_slot`, [`free_slot`]). So the slots a token removal emptied close up: a
    /// merger's removed duplicate in slot 0 of a green city leaves the other token in slot 1,
    /// and after the brown upgrade that token is in slot 0 (Version 2 heuristic 4 players
    /// seed 4001: IFAI's token at L12, 18xx id 962). `after` gives each token's city on the
    /// new tile (two yellow cities of Firenze or Torino become one, 1841 §9.1). A token's own
    /// home reservation was emptied when it was placed, so it goes to the first open slot
    /// like any other (4 players random seed 10: SFTN's home token in Torino, H4, is in slot 0
    /// of green tile 607 once SFTG closed without starting; slot 1 was written for SFTC's
    /// purchase of it, 1841 §9.5).
    pub fn retile(
        &mut self,
        hex: &str,
        after: &Located,
        reserved: &dyn Fn(&str, u32) -> ReservedSlots,
    ) {
        let cities: Vec<(String, u32)> = self
            .slots
            .keys()
            .filter(|(h, _)| h == hex)
            .cloned()
            .collect();
        let mut tokens = Vec::new();
        for key in cities {
            if let Some(old) = self.slots.remove(&key) {
                tokens.extend(old.into_iter().flatten());
            }
        }
        for sym in tokens {
            let Some(city) = after
                .iter()
                .find(|(h, _, s)| h == hex && *s == sym)
                .map(|t| t.1)
            else {
                continue;
            };
            let slots = self.slots.entry((hex.to_string(), city)).or_default();
            // The token's own reservation went when it was placed (`City#place_token`:
            // `remove_reservation!` leaves `nil` in its place), so it takes no reserved slot.
            let placed: ReservedSlots = reserved(hex, city)
                .into_iter()
                .map(|(r, held)| {
                    if r == sym {
                        (String::new(), false)
                    } else {
                        (r, held)
                    }
                })
                .collect();
            let slot = free_slot(slots, &placed, &sym);
            if slots.len() <= slot {
                slots.resize(slot + 1, None);
            }
            slots[slot] = Some(sym);
        }
    }

    /// Follows one action from the tokens `before` to the tokens `after`: a token leaving a
    /// city empties its slot (18xx `Token#remove!` leaves `nil`); a token arriving takes the
    /// slot a token of the same action left in that city (a merger's or a transformation's
    /// new corporation takes its old corporation's slot, `swap_token`), else the first empty
    /// slot, else a new one (`City#get_slot`; a `bought` token, `exchange_token`, takes the
    /// first empty slot). A token this engine destroys (`TokenRemoved` in `events` of a
    /// corporation other than the one arriving: a merger's second token in a city, 1841
    /// §12.1) empties its slot and leaves it empty: 18xx removes the partner's duplicate
    /// (`merger_tokens_start`, `remove!`) and the new corporation takes the slot of the token
    /// kept, the initiator's (`swap_token`), whatever their order in the city. A slot
    /// `reserved` for a historical corporation's home ([`reserved_slots`]) is taken by its
    /// home token only ([`free_slot`]).
    ///
    /// The hexes in `retiled` got a new tile in this action ([`retiled_hexes`]); their
    /// tokens are re-placed first ([`TokenSlots::retile`]).
    pub fn follow(
        &mut self,
        before: &Located,
        after: &Located,
        retiled: &[String],
        bought: bool,
        events: &[Event],
        reserved: &dyn Fn(&str, u32) -> ReservedSlots,
    ) {
        let moved;
        let before = if retiled.is_empty() {
            before
        } else {
            for hex in retiled {
                self.retile(hex, after, reserved);
            }
            let on = |t: &(String, u32, String)| retiled.contains(&t.0);
            moved = before
                .iter()
                .filter(|t| !on(t))
                .chain(after.iter().filter(|t| on(t)))
                .cloned()
                .collect::<Located>();
            &moved
        };
        if before == after {
            return;
        }
        let mut freed: BTreeMap<(String, u32), Vec<usize>> = BTreeMap::new();
        for (hex, city, sym) in before.difference(after) {
            let key = (hex.clone(), *city);
            let slots = self.slots.entry(key.clone()).or_default();
            if let Some(i) = slots
                .iter()
                .position(|s| s.as_deref() == Some(sym.as_str()))
            {
                slots[i] = None;
                let destroyed = events.iter().any(|e| {
                    matches!(e, Event::TokenRemoved { corporation, hex: h, city: c }
                        if corporation == sym && h == hex && c == city)
                });
                if !destroyed {
                    freed.entry(key).or_default().push(i);
                }
            }
        }
        for (hex, city, sym) in after.difference(before) {
            let key = (hex.clone(), *city);
            let slots = self.slots.entry(key.clone()).or_default();
            let reuse = if bought {
                None
            } else {
                freed.get_mut(&key).and_then(|f| {
                    f.sort_unstable();
                    (!f.is_empty()).then(|| f.remove(0))
                })
            };
            let slot = reuse.unwrap_or_else(|| free_slot(slots, &reserved(hex, *city), sym));
            if slots.len() <= slot {
                slots.resize(slot + 1, None);
            }
            slots[slot] = Some(sym.clone());
        }
    }
}

/// The hexes whose tile `post` has and `pre` had not (a tile laid or upgraded), whose
/// tokens 18xx re-places ([`TokenSlots::retile`]).
pub fn retiled_hexes(pre: &State, post: &State) -> Vec<String> {
    post.operations
        .tiles
        .iter()
        .filter(|(hex, t)| pre.operations.tiles.get(*hex).map(|p| &p.tile) != Some(&t.tile))
        .map(|(hex, _)| hex.clone())
        .collect()
}

/// The historical corporations whose home reservation holds in `state`: neither started nor
/// closed (1841 §5.4; 18xx frees a reservation when the home token is placed,
/// `City#place_token`, and deletes a closed corporation's). Taken before an action, for
/// [`reserved_slots`]: a home token being placed takes its reservation (`City#get_slot`).
pub fn waiting_homes(state: &State) -> BTreeSet<String> {
    data::ruleset(&state.options)
        .historical_corporations
        .iter()
        .filter(|h| {
            !state
                .corporation(&h.sym)
                .is_some_and(|c| c.started() || c.closed)
        })
        .map(|h| h.sym.clone())
        .collect()
}

/// 18xx.games' reserved slots of city `city` of `hex` on the tile `state` has there: by
/// slot, the historical corporation whose home it is (1841 §5.4; 18xx reserves a slot for
/// each home given with its city, `City#add_reservation!`, in the order of the corporations,
/// keeps the reservation through upgrades, and frees it, keeping its place, when the home
/// token is placed; Version 2 SFMA, whose president chooses the city, reserves none). Each
/// with whether it still holds: the corporation is one of `waiting` ([`waiting_homes`], taken
/// before the action).
///
/// The city is the home's city on `state`'s tile, the one after the action: an upgrade moves
/// the reservations to the new tile before the tokens (`Hex#lay`, hex.rb 120–137: each old
/// city's reservations are appended to its new city's, then the tokens are re-placed with
/// `exchange_token`). Version 1 SFMA's home is city 1 of Firenze's yellow tile (R14, 1841
/// §15.1); on the green 622 (one city) its held reservation is slot 0, and the token of the
/// yellow city 0 goes to slot 1 (Version 1 heuristic 3 players seed 3145, 18xx id 215:
/// `[nil, SSFL]`; before, the yellow tile's cities were asked, city 0 had no reservation, and
/// SSFL was followed in slot 0, so a later `remove_token` named the wrong slot, 18xx id 597).
pub fn reserved_slots(
    state: &State,
    waiting: &BTreeSet<String>,
    hex: &str,
    city: u32,
) -> ReservedSlots {
    data::ruleset(&state.options)
        .historical_corporations
        .iter()
        .filter(|h| {
            h.homes.iter().any(|home| {
                home.hex == hex
                    && home
                        .city_index
                        .is_some_and(|i| super::track::current_city(state, hex, i) == city)
            })
        })
        .map(|h| (h.sym.clone(), waiting.contains(&h.sym)))
        .collect()
}

/// The slot a token of `sym` arriving in a city takes (`City#get_slot`): its home's reserved
/// slot while the reservation holds (the home token of a corporation being started), else the
/// first slot neither holding a token nor reserved, else a new one. A started corporation's
/// reservation went with its home token (`City#place_token`, `remove_reservation!`), so a
/// later token of its own in its home city takes the first open slot like any other (lite
/// heuristic 3 players seed 3120, Torino H4: SFTN's second token there is in slot 0, which
/// CTDA's `remove_token` after two mergers names at 18xx id 450; before: slot 1, where
/// SFTN's old reservation was, and 18xx found it empty).
pub fn free_slot(slots: &[Option<String>], reserved: &[(String, bool)], sym: &str) -> usize {
    if let Some(i) = reserved.iter().position(|(r, held)| r == sym && *held)
        && slots.get(i).is_none_or(Option::is_none)
    {
        return i;
    }
    let open = |i: usize| {
        slots.get(i).is_none_or(Option::is_none) && !reserved.get(i).is_some_and(|(_, held)| *held)
    };
    (0..=slots.len().max(reserved.len()))
        .find(|&i| open(i))
        .unwrap_or(slots.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(tokens: &[(&str, u32, &str)]) -> Located {
        tokens
            .iter()
            .map(|(h, c, s)| (h.to_string(), *c, s.to_string()))
            .collect()
    }

    fn unreserved(_: &str, _: u32) -> ReservedSlots {
        Vec::new()
    }

    fn removed(corporation: &str, hex: &str) -> Event {
        Event::TokenRemoved {
            corporation: corporation.into(),
            hex: hex.into(),
            city: 0,
        }
    }

    /// 18xx.games `Hex#lay`: an upgrade re-places the old tile's tokens in slot order, each
    /// in the first free slot, so a slot a merger's duplicate emptied closes up. Version 2
    /// heuristic 4 players seed 4001, Reggio (L12): RSFS in slot 1 of the green tile after
    /// its merger removed the token in slot 0; on the brown tile 63 RSFS (then IFAI) is in
    /// slot 0 and RSFS's removal of IFAI's token names slot 0 (18xx id 962; before: slot 1,
    /// which 18xx found empty). A later token takes slot 1.
    #[test]
    fn an_upgrade_closes_up_the_emptied_slots() {
        let mut slots = TokenSlots::default();
        let a = at(&[("L12", 0, "ILTF")]);
        slots.follow(&Located::new(), &a, &[], false, &[], &unreserved);
        let b = at(&[("L12", 0, "ILTF"), ("L12", 0, "SFLi")]);
        slots.follow(&a, &b, &[], false, &[], &unreserved);
        let c = at(&[("L12", 0, "RSFS")]);
        slots.follow(&b, &c, &[], false, &[removed("ILTF", "L12")], &unreserved);
        assert_eq!(slots.slot_of("L12", 0, "RSFS"), Some(1));
        assert_eq!(slots.holder("L12", 0, 0), None);
        slots.follow(&c, &c, &["L12".to_string()], false, &[], &unreserved);
        assert_eq!(slots.slot_of("L12", 0, "RSFS"), Some(0));
        assert_eq!(slots.holder("L12", 0, 1), None);
        let d = at(&[("L12", 0, "RSFS"), ("L12", 0, "CTDA")]);
        slots.follow(&c, &d, &[], false, &[], &unreserved);
        assert_eq!(slots.slot_of("L12", 0, "CTDA"), Some(1));
    }

    /// Without an upgrade the emptied slot stays and the next token takes it (`City#get_slot`).
    #[test]
    fn without_an_upgrade_the_emptied_slot_is_taken_next() {
        let mut slots = TokenSlots::default();
        let b = at(&[("L12", 0, "ILTF"), ("L12", 0, "SFLi")]);
        slots.follow(
            &Located::new(),
            &at(&[("L12", 0, "ILTF")]),
            &[],
            false,
            &[],
            &unreserved,
        );
        slots.follow(&at(&[("L12", 0, "ILTF")]), &b, &[], false, &[], &unreserved);
        let c = at(&[("L12", 0, "SFLi")]);
        slots.follow(&b, &c, &[], false, &[removed("ILTF", "L12")], &unreserved);
        let d = at(&[("L12", 0, "SFLi"), ("L12", 0, "CTDA")]);
        slots.follow(&c, &d, &[], false, &[], &unreserved);
        assert_eq!(slots.slot_of("L12", 0, "CTDA"), Some(0));
        assert_eq!(slots.slot_of("L12", 0, "SFLi"), Some(1));
    }

    /// A reservation still held keeps its slot through the upgrade (`Hex#lay` moves the
    /// reservations first): the other token stays behind it. Two cities of one yellow tile
    /// becoming one (Torino H4, 1841 §9.1) put the first city's tokens first.
    #[test]
    fn an_upgrade_keeps_held_reservations_and_joins_two_cities() {
        let held = |_: &str, _: u32| vec![("SFTN".to_string(), true)];
        let mut slots = TokenSlots::default();
        let a = at(&[("H4", 0, "CTDA")]);
        slots.follow(&Located::new(), &a, &[], false, &[], &held);
        assert_eq!(slots.slot_of("H4", 0, "CTDA"), Some(1));
        slots.follow(&a, &a, &["H4".to_string()], false, &[], &held);
        assert_eq!(slots.slot_of("H4", 0, "CTDA"), Some(1));

        let mut slots = TokenSlots::default();
        let two = at(&[("H4", 1, "SFTG"), ("H4", 0, "SFTN")]);
        slots.follow(&Located::new(), &two, &[], false, &[], &unreserved);
        let one = at(&[("H4", 0, "SFTG"), ("H4", 0, "SFTN")]);
        slots.follow(&two, &one, &["H4".to_string()], false, &[], &unreserved);
        assert_eq!(slots.slot_of("H4", 0, "SFTN"), Some(0));
        assert_eq!(slots.slot_of("H4", 0, "SFTG"), Some(1));
        assert_eq!(slots.holder("H4", 1, 0), None);
    }

    /// 18xx `City#place_token` empties a corporation's reservation as its home token goes in,
    /// so an upgrade (`Hex#lay`, `exchange_token`) re-places that token in the first open
    /// slot, not in its old reserved one. 4 players random seed 10, Torino (H4): SFTN's home
    /// token behind SFTG's held reservation is in slot 1; once SFTG has closed without
    /// starting, the upgrade to 607 puts SFTN in slot 0 (before: slot 1, its reservation's).
    #[test]
    fn an_upgrade_puts_a_placed_home_token_in_the_first_open_slot() {
        let held = |_: &str, _: u32| vec![("SFTG".to_string(), true), ("SFTN".to_string(), true)];
        let gone = |_: &str, _: u32| vec![("SFTG".to_string(), false), ("SFTN".to_string(), false)];
        let mut slots = TokenSlots::default();
        let a = at(&[("H4", 0, "SFTN")]);
        slots.follow(&Located::new(), &a, &[], false, &[], &held);
        assert_eq!(slots.slot_of("H4", 0, "SFTN"), Some(1));
        slots.follow(&a, &a, &["H4".to_string()], false, &[], &held);
        assert_eq!(slots.slot_of("H4", 0, "SFTN"), Some(1));
        slots.follow(&a, &a, &["H4".to_string()], false, &[], &gone);
        assert_eq!(slots.slot_of("H4", 0, "SFTN"), Some(0));
    }

    /// `City#get_slot` takes a corporation's reserved slot only while the reservation is
    /// there; a started corporation's went with its home token. Lite heuristic 3 players
    /// seed 3120, Torino (H4, green 606): both tokens gone after a merger, SFTN (started,
    /// reservation in slot 1 behind SFTG's) tokens its home city again and takes slot 0, the
    /// slot the new corporation CTDA's token is in when 18xx id 450 removes it.
    #[test]
    fn a_started_corporation_tokening_its_home_takes_the_first_open_slot() {
        let spent =
            |_: &str, _: u32| vec![("SFTG".to_string(), false), ("SFTN".to_string(), false)];
        let mut slots = TokenSlots::default();
        let a = at(&[("H4", 0, "SFTN")]);
        slots.follow(&Located::new(), &a, &[], false, &[], &spent);
        assert_eq!(slots.slot_of("H4", 0, "SFTN"), Some(0));
        let b = at(&[("H4", 0, "CTDA")]);
        slots.follow(&a, &b, &[], false, &[], &spent);
        assert_eq!(slots.slot_of("H4", 0, "CTDA"), Some(0));
        assert_eq!(slots.holder("H4", 0, 1), None);
        // While SFTN has not started its reservation holds and its home token goes there.
        let held = |_: &str, _: u32| vec![("SFTG".to_string(), false), ("SFTN".to_string(), true)];
        let mut slots = TokenSlots::default();
        slots.follow(&Located::new(), &a, &[], false, &[], &held);
        assert_eq!(slots.slot_of("H4", 0, "SFTN"), Some(1));
    }
}
