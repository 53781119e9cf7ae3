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
    pub fn follow(
        &mut self,
        before: &Located,
        after: &Located,
        bought: bool,
        events: &[Event],
        reserved: &dyn Fn(&str, u32) -> ReservedSlots,
    ) {
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

/// 18xx.games' reserved slots of city `city` of `hex` in `state`: by slot, the historical
/// corporation whose home it is while that corporation has not started (1841 §5.4; 18xx
/// reserves a slot for each home given with its city, `City#add_reservation!`, in the order of
/// the corporations, keeps the reservation through upgrades, and frees it, keeping its
/// place, when the home token is placed; Version 2 SFMA, whose president chooses the city,
/// reserves none). Each with whether it still holds: the corporation has not started and is
/// not closed.
pub fn reserved_slots(state: &State, hex: &str, city: u32) -> ReservedSlots {
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
        .map(|h| {
            let active = !state
                .corporation(&h.sym)
                .is_some_and(|c| c.started() || c.closed);
            (h.sym.clone(), active)
        })
        .collect()
}

/// The slot a token of `sym` arriving in a city takes (`City#get_slot`): its home's reserved
/// slot (the home token of a corporation being started), else the first slot neither holding
/// a token nor reserved, else a new one.
pub fn free_slot(slots: &[Option<String>], reserved: &[(String, bool)], sym: &str) -> usize {
    if let Some(i) = reserved.iter().position(|(r, _)| r == sym)
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
