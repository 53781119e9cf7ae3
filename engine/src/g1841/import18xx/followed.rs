//! What the record leaves unsaid, followed over the replay: the certificates that reach the
//! pool without a record naming them (a start's automatic sale, 1841 §5.4 step 4; a
//! bankruptcy, §14; the exchanges of §12), the seller of a purchase from a player by 18xx's
//! share ids (§15.3), and the seller a `buy_token` names by 18xx's token slot (§9.5).

use std::collections::{BTreeMap, BTreeSet};

use rustc_hash::FxHashMap;
use serde_json::Value;

use super::to_action::token_holders;
use super::{Entity, ImportedAction, as_whole_number, notation};
use crate::Seat;
use crate::g1841::action::Action;
use crate::g1841::share_ledger::{Ledger, TokenSlots};
use crate::g1841::state::{ShareOwner, State};

/// The 18xx share ids the automatic sale of a corporation's start put into the pool (1841
/// §5.4 step 4: a start whose treasury cannot pay its minimum tokens sells IPO shares to the
/// pool at half price at once), followed over the replay. 18xx.games records no `sell_shares`
/// for that sale (`G1841::Game#auto_emr` inside the token `choose`), so the ids never show
/// going into the pool in the record ([`super::marks::mark_pool_purchases`] cannot see them); a
/// later purchase of one of them comes from the pool. Which ids: 18xx takes the first of the
/// corporation's IPO shares (`corp.shares_of(corp).take(num_shares)`), i.e. the lowest ids
/// that have not left its IPO since its `par` by the record; how many: this engine's own
/// sale ([`crate::g1841::start::buy_tokens`], the same count, 18xx's
/// `ceil(2 × shortfall ÷ price)`).
///
/// Likewise a bankrupt player's certificates (1841 §14; 18xx `G1841::Step::Bankrupt` sells
/// them all to the pool without a record of their ids): the ids the record shows him holding
/// (`par`, `buy_shares`, not sold since; ids reassigned by exchanges are not known) go to the
/// pool.
#[derive(Default)]
pub(super) struct UnrecordedPool {
    /// Per corporation, the 18xx indices that left its IPO since its last `par`.
    left_ipo: FxHashMap<String, BTreeSet<usize>>,
    /// Ids such a sale put in the pool that no record has bought since.
    pooled: BTreeSet<String>,
    /// The ids each player holds by the record.
    held: BTreeMap<String, Seat>,
}

impl UnrecordedPool {
    /// Follows an applied record: a `par` renews the corporation (its president's
    /// certificate `<CORP>_0` leaves the IPO), a `buy_shares` takes its ids, a `sell_shares`
    /// puts them in the pool, a `merge` forgets the holders of the corporations it names.
    pub(super) fn applied(&mut self, a: &ImportedAction) {
        let player = match a.entity {
            Entity::Player(seat) => Some(seat),
            _ => None,
        };
        let corporation = a.field("corporation").and_then(Value::as_str);
        match a.kind.as_str() {
            "par" => {
                if let Some(sym) = corporation {
                    let prefix = format!("{sym}_");
                    self.pooled.retain(|id| !id.starts_with(&prefix));
                    self.held.retain(|id, _| !id.starts_with(&prefix));
                    self.left_ipo
                        .insert(sym.to_string(), BTreeSet::from([0usize]));
                    if let Some(seat) = player {
                        self.held.insert(format!("{sym}_0"), seat);
                    }
                }
            }
            "buy_shares" => {
                for id in a.fields.share_ids() {
                    self.pooled.remove(id);
                    match player {
                        Some(seat) => self.held.insert(id.to_string(), seat),
                        None => self.held.remove(id),
                    };
                    if let Some((sym, i)) = notation::parse_share_id(id) {
                        self.left_ipo.entry(sym.to_string()).or_default().insert(i);
                    }
                }
            }
            "sell_shares" => {
                for id in a.fields.share_ids() {
                    self.held.remove(id);
                }
            }
            "merge" => {
                let mut names: Vec<String> = corporation.map(str::to_string).into_iter().collect();
                if let Entity::Corporation(sym) = &a.entity {
                    names.push(sym.clone());
                }
                for sym in names {
                    let prefix = format!("{sym}_");
                    self.held.retain(|id, _| !id.starts_with(&prefix));
                }
            }
            _ => {}
        }
    }

    /// A bankrupt player's certificates go to the pool (1841 §14): those the record shows
    /// him holding, and `ledger_ids`, those 18xx's ids as followed over the replay
    /// ([`Ledger`]) gave him before the bankruptcy, exchanges included (`lite-5p-s40003` as
    /// regenerated: Player 1 received CTS_3 in the merger at id 301 and went bankrupt at id
    /// 416; IFAI's purchase of CTS_3 at id 485 came from the pool in 18xx and from the IPO
    /// here, L.35 to CTS).
    pub(super) fn bankrupt(&mut self, seat: Seat, ledger_ids: Vec<String>) {
        let mut ids: Vec<String> = self
            .held
            .iter()
            .filter(|(_, s)| **s == seat)
            .map(|(id, _)| id.clone())
            .collect();
        ids.extend(ledger_ids);
        for id in ids {
            self.held.remove(&id);
            self.pooled.insert(id);
        }
    }

    /// Takes the events of a start's token purchase: a sale of a corporation's own shares
    /// there is the automatic one; its lowest IPO ids go to the pool.
    pub(super) fn tokens_bought(&mut self, state: &State, events: &[crate::g1841::action::Event]) {
        for e in events {
            let crate::g1841::action::Event::CorporationSoldShares {
                seller,
                corporation,
                percent,
                ..
            } = e
            else {
                continue;
            };
            let Some(c) = state
                .corporation(corporation)
                .filter(|_| seller == corporation)
            else {
                continue;
            };
            let units = (percent / c.unit_percent().max(1)) as usize;
            let left = self.left_ipo.entry(corporation.clone()).or_default();
            let ids: Vec<usize> = (1..c.certificates.len())
                .filter(|i| !left.contains(i))
                .take(units)
                .collect();
            for i in ids {
                left.insert(i);
                self.pooled.insert(format!("{corporation}_{i}"));
            }
        }
    }

    /// Follows an applied record in 18xx's ids (`ledger`, brought to `state`): the
    /// certificates a `buy_shares` or `sell_shares` names move as named, then the
    /// exchanges of a merger, the split or a transformation (1841 §12) and the presidency
    /// swaps (§5.3) as 18xx makes them ([`Ledger::exchanged`], [`Ledger::settle`]). The
    /// certificates that enter the pool there without a record naming them go to the pool
    /// here: the new corporation's certificates the pool receives for its old ones (e.g.
    /// SB's after the split, §12.4, 18xx `secession_exchange_pairs`/`_singles`), and the
    /// new president's first certificates that a sale of the president's certificate sends
    /// to the pool (18xx `change_president`, `swap_to` the pool).
    pub(super) fn followed(
        &mut self,
        ledger: &mut Ledger,
        state: &State,
        record: &ImportedAction,
        action: &Action,
        events: &[crate::g1841::action::Event],
    ) {
        let (corporation, to) = match action {
            Action::BuyShares { corporation, .. } => (
                Some(corporation.as_str()),
                match &record.entity {
                    Entity::Player(seat) => Some(ShareOwner::Player(*seat)),
                    Entity::Corporation(sym) => Some(ShareOwner::Corporation(sym.clone())),
                    Entity::Other(_) => None,
                },
            ),
            Action::SellShares { corporation, .. } | Action::EmergencySell { corporation, .. } => {
                (Some(corporation.as_str()), Some(ShareOwner::Pool))
            }
            _ => (None, None),
        };
        let mut named: Vec<&str> = Vec::new();
        if let (Some(c), Some(to)) = (corporation, &to) {
            named = record.fields.share_ids().collect();
            ledger.move_named(c, named.iter().copied(), to);
        }
        // Trusted for the pool: the new corporation's certificates the pool receives in an
        // exchange, and a sale of the president's certificate (18xx's `<CORP>_0`); other
        // differences in the pool are the ledger settling to this engine's holdings.
        let mut watched: Vec<&str> = corporation
            .filter(|c| {
                matches!(to, Some(ShareOwner::Pool))
                    && named.iter().any(|id| *id == format!("{c}_0"))
            })
            .into_iter()
            .collect();
        for e in events {
            if let crate::g1841::action::Event::SharesExchanged {
                holder: ShareOwner::Pool,
                corporation,
                ..
            } = e
                && !watched.contains(&corporation.as_str())
            {
                watched.push(corporation);
            }
        }
        let before: Vec<Vec<String>> = watched
            .iter()
            .map(|c| ledger.held(c, &ShareOwner::Pool))
            .collect();
        ledger.exchanged(events, state);
        ledger.settle(state);
        for (c, before) in watched.iter().zip(before) {
            for id in ledger.held(c, &ShareOwner::Pool) {
                if !before.contains(&id) && !named.contains(&id.as_str()) {
                    self.pooled.insert(id);
                }
            }
        }
    }

    /// Whether `a` buys a certificate such a sale put in the pool.
    pub(super) fn buys_from_it(&self, a: &ImportedAction) -> bool {
        a.kind == "buy_shares"
            && a.from_pool == Some(false)
            && a.fields
                .first_share()
                .is_some_and(|id| self.pooled.contains(id))
    }
}

/// The seller of a player's `buy_shares` in a game with `p2p_purchases` (1841 §15.3) whose
/// first share the record's own tracking ([`super::marks::mark_player_purchases`]) cannot place:
/// 18xx's certificate as followed over the replay ([`Ledger`]), when another player holds it. The
/// record's tracking forgets the ids of a corporation a merger re-issued (its exchanges are
/// not recorded); the ledger follows them (`p2p_purchases-3p-s80005` id 218: Player 3 buys
/// ATFA_4, which the merger of FTP into ATFA at id 182 gave Player 2, for L.45 from him; read
/// as an IPO purchase it cost L.52, more than his L.48). Only a record with a `total_price`,
/// which 18xx writes on a purchase from a player alone.
pub(super) fn ledger_player_seller(
    ledger: &Ledger,
    state: &State,
    a: &ImportedAction,
) -> Option<Seat> {
    let Entity::Player(buyer) = a.entity else {
        return None;
    };
    // 18xx records a price only on a purchase from a player (`total_price`).
    if a.kind != "buy_shares"
        || a.from_player.is_some()
        || a.field("total_price").is_none()
        || !state.options.p2p_purchases
    {
        return None;
    }
    let (sym, index) = notation::parse_share_id(a.fields.first_share()?)?;
    match ledger.holder(sym, index)? {
        ShareOwner::Player(seller) if *seller != buyer => Some(*seller),
        _ => None,
    }
}

/// The seller a genuine 18xx `buy_token` names by its slot (`city.tokens[slot]`, 1841 §9.5):
/// the corporation in that slot as followed over the replay ([`TokenSlots`]), when it has a
/// token in that city; `None` for other records, for a Referee export (which names the seller
/// itself, [`crate::g1841::export18xx::REFEREE_SELLER`]) and when the slots do not say.
pub(super) fn slot_seller(slots: &TokenSlots, state: &State, a: &ImportedAction) -> Option<String> {
    if a.kind != "buy_token" || a.field(crate::g1841::export18xx::REFEREE_SELLER).is_some() {
        return None;
    }
    let city = a.field("city").and_then(Value::as_str)?;
    let (hex, index) = a.city_of(state, city).ok()?;
    let slot = a
        .field("slot")
        .and_then(as_whole_number)
        .and_then(|s| usize::try_from(s).ok())?;
    let seller = slots.holder(&hex, index, slot)?;
    token_holders(state, &hex, index)
        .iter()
        .any(|h| h == seller)
        .then(|| seller.to_string())
}
