//! Corporations, certificates and control (1841 §3.3–§3.5, §7.1–§7.3, §7.5).
//!
//! A corporation's president is whoever holds its president's certificate; holders are
//! players, other corporations, the IPO or the pool ([`ShareOwner`]). Control follows the
//! chain of presidents up to a player (1841 §7.2), so the 60% limit (§7.3) counts shares held
//! by every corporation a player controls.

use super::concession::Concession;
use super::data;
use super::market;
use super::options::Options;
use super::state::{Certificate, Corporation, CorporationKind, ShareOwner, State};
use crate::Seat;

fn kind_of(text: &str) -> CorporationKind {
    if text == "minor" {
        CorporationKind::Minor
    } else {
        CorporationKind::Major
    }
}

/// Certificates of a fresh corporation, all in its IPO: major 20 + 8×10, minor 40 + 3×20
/// (1841 §3.5).
pub fn fresh_certificates(kind: CorporationKind) -> Vec<Certificate> {
    let unit = kind.unit_percent();
    let count = 100 / unit - 2;
    std::iter::once(Certificate {
        percent: 2 * unit,
        president: true,
        owner: ShareOwner::Ipo,
    })
    .chain((0..count).map(|_| Certificate {
        percent: unit,
        president: false,
        owner: ShareOwner::Ipo,
    }))
    .collect()
}

fn fresh(sym: &str, kind: CorporationKind, historical: bool) -> Corporation {
    Corporation {
        sym: sym.to_string(),
        kind,
        historical,
        share_price: None,
        par_price: 0,
        cash: 0,
        certificates: fresh_certificates(kind),
        tokens_total: 0,
        tokens: Vec::new(),
        operated: false,
        closed: false,
        ipo_first_share_ordinary: false,
    }
}

/// Every corporation of the ruleset, unstarted: the historical corporations in data order
/// (1841 §3.3), then the non-historical majors and minors (§3.4).
pub fn initial_corporations(options: &Options) -> Vec<Corporation> {
    let rules = data::ruleset(options);
    let mut out: Vec<Corporation> = rules
        .historical_corporations
        .iter()
        .map(|h| fresh(&h.sym, kind_of(&h.kind), true))
        .collect();
    let nh = &rules.non_historical_corporations;
    out.extend(
        nh.majors
            .iter()
            .map(|s| fresh(s, CorporationKind::Major, false)),
    );
    out.extend(
        nh.minors
            .iter()
            .map(|s| fresh(s, CorporationKind::Minor, false)),
    );
    // 1841 §1, §12.3: the internal `Holding` (historical, never startable) of the Tuscan merge.
    out.extend(
        rules
            .internal_corporations
            .iter()
            .map(|h| fresh(&h.sym, kind_of(&h.kind), true)),
    );
    out
}

/// The corporations at setup ([`initial_corporations`]), built once per ruleset: the roster
/// depends only on `data::ruleset`. A valid state lists exactly these, in this order.
pub fn roster(options: &Options) -> &'static [Corporation] {
    &roster_data(options).0
}

/// The index of `sym` in the [`roster`] (where a valid state has it).
#[inline]
pub fn roster_index(options: &Options, sym: &str) -> Option<usize> {
    roster_data(options).1.get(sym).map(|(i, _)| i)
}

/// [`roster_index`] of `sym`, with `sym` packed ([`super::ids::pack`]; `None` when longer
/// than 7 bytes), to compare it with another symbol by [`super::ids::is_packed`].
#[inline]
pub fn roster_slot(options: &Options, sym: &str) -> Option<(usize, Option<u64>)> {
    roster_data(options).1.get(sym)
}

type Roster = (Vec<Corporation>, RosterIndex);

/// Roster symbols to roster indices. Every corporation access looks a symbol up, so the
/// symbols (all of them up to 7 bytes) are found by their [`super::ids::pack`] key in a small
/// open-addressing table (one multiplication, usually one probe) rather than a general hash
/// map; a longer symbol goes to an [`super::ids::IdIndex`].
#[derive(Debug)]
struct RosterIndex {
    /// (key, index + 1) at the slot of the key's hash or after it (wrapping); 0: empty.
    slots: Vec<(u64, u32)>,
    /// `slots.len()` is `1 << bits`.
    bits: u32,
    long: super::ids::IdIndex,
}

impl RosterIndex {
    fn new(roster: &[Corporation]) -> Self {
        // At most half full, so that a probe ends soon at an empty slot.
        let bits = (2 * roster.len())
            .next_power_of_two()
            .max(16)
            .trailing_zeros();
        let mut index = RosterIndex {
            slots: vec![(0, 0); 1 << bits],
            bits,
            long: super::ids::IdIndex::default(),
        };
        for (i, c) in roster.iter().enumerate() {
            let (Some(key), Ok(value)) = (super::ids::pack(c.sym.as_bytes()), u32::try_from(i + 1))
            else {
                index.long.insert(&c.sym, i);
                continue;
            };
            let mut at = index.slot(key);
            loop {
                match index.slots[at] {
                    (_, 0) => {
                        index.slots[at] = (key, value);
                        break;
                    }
                    // The first index stays (as in `IdIndex`).
                    (k, _) if k == key => break,
                    _ => at = (at + 1) & (index.slots.len() - 1),
                }
            }
        }
        index
    }

    #[inline]
    fn slot(&self, key: u64) -> usize {
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - self.bits)) as usize
    }

    #[inline]
    /// The index of `sym`, with `sym`'s packed key.
    fn get(&self, sym: &str) -> Option<(usize, Option<u64>)> {
        let Some(key) = super::ids::pack(sym.as_bytes()) else {
            return self.long.get(sym).map(|i| (i, None));
        };
        let mut at = self.slot(key);
        loop {
            match self.slots.get(at)? {
                (_, 0) => return None,
                (k, v) if *k == key => return Some((*v as usize - 1, Some(key))),
                _ => at = (at + 1) & (self.slots.len() - 1),
            }
        }
    }
}

#[inline]
fn roster_data(options: &Options) -> &'static Roster {
    static ROSTERS: [std::sync::OnceLock<Roster>; 3] = [const { std::sync::OnceLock::new() }; 3];
    // One slot per ruleset, chosen as `data::ruleset` chooses (test
    // `roster_is_the_initial_corporations_of_each_ruleset`): comparing the options' two flags
    // is cheaper than fetching the ruleset, and this runs in every corporation look-up.
    let slot = if options.lite {
        2
    } else if options.version_1 {
        1
    } else {
        0
    };
    ROSTERS[slot].get_or_init(|| {
        let corporations = initial_corporations(options);
        let index = RosterIndex::new(&corporations);
        (corporations, index)
    })
}

/// Whether `sym` is one of the non-historical corporations of these options (1841 §3.4):
/// found by its [`roster_index`], as the roster lists them after the historical ones (test
/// `non_historical_by_roster_index_is_the_listed_ones`).
pub fn is_non_historical(options: &Options, sym: &str) -> bool {
    let rules = data::ruleset(options);
    let first = rules.historical_corporations.len();
    let nh = &rules.non_historical_corporations;
    let listed = first..first + nh.majors.len() + nh.minors.len();
    roster_index(options, sym).is_some_and(|i| listed.contains(&i))
}

/// The data of the historical corporation `sym` for these options.
pub fn historical_data(
    options: &Options,
    sym: &str,
) -> Option<&'static data::HistoricalCorporationData> {
    data::ruleset(options)
        .historical_corporations
        .iter()
        .find(|h| h.sym == sym)
}

/// The historical corporation a concession allows to start (1841 §3.2); `None` for Bayard.
pub fn corporation_of_concession(options: &Options, c: Concession) -> Option<&'static str> {
    data::ruleset(options)
        .historical_corporations
        .iter()
        .find(|h| h.concession.as_deref() == Some(c.as_str()) && h.formed_by_event.is_none())
        .map(|h| h.sym.as_str())
}

/// The concession that allows starting historical corporation `sym`.
pub fn concession_of_corporation(options: &Options, sym: &str) -> Option<Concession> {
    historical_data(options, sym)
        .and_then(|h| h.concession.as_deref())
        .and_then(|c| c.parse().ok())
}

impl Corporation {
    /// Whether it has been started (has a market position; it floats at once, 1841 §3.5).
    pub fn started(&self) -> bool {
        self.share_price.is_some()
    }

    /// Current market price per unit certificate in L. (`None` while not started).
    pub fn price(&self) -> Option<i64> {
        self.share_price
            .and_then(|p| super::market::price_at(p.row, p.col))
    }

    /// The holder of the president's certificate.
    pub fn president(&self) -> Option<&ShareOwner> {
        self.certificates
            .iter()
            .find(|c| c.president)
            .map(|c| &c.owner)
    }

    /// The president if it is a player.
    pub fn president_seat(&self) -> Option<Seat> {
        match self.president() {
            Some(ShareOwner::Player(s)) => Some(*s),
            _ => None,
        }
    }

    /// Percent held by `owner`.
    pub fn percent_of(&self, owner: &ShareOwner) -> u32 {
        self.certificates
            .iter()
            .filter(|c| &c.owner == owner)
            .map(|c| c.percent)
            .sum()
    }

    /// Percent in its IPO.
    pub fn ipo_percent(&self) -> u32 {
        self.percent_of(&ShareOwner::Ipo)
    }

    /// Percent in the bank pool.
    pub fn pool_percent(&self) -> u32 {
        self.percent_of(&ShareOwner::Pool)
    }

    /// Sold out: every share with players or corporations, none in the IPO or pool (1841 §5.5).
    pub fn sold_out(&self) -> bool {
        self.certificates
            .iter()
            .all(|c| matches!(c.owner, ShareOwner::Player(_) | ShareOwner::Corporation(_)))
    }

    /// Percent of one unit certificate.
    pub fn unit_percent(&self) -> u32 {
        self.kind.unit_percent()
    }
}

/// One presidency changed, the rest as in the state: corporation `.0` with president `.1`
/// (what-if questions about control without copying the state).
pub type PresidentOverride<'a> = Option<(&'a str, &'a ShareOwner)>;

/// The president of `corp` (of `state`), with `over` applied.
fn president_of_with<'a>(
    corp: &'a Corporation,
    over: PresidentOverride<'a>,
) -> Option<&'a ShareOwner> {
    match over {
        Some((s, p)) if s == corp.sym => Some(p),
        _ => corp.president(),
    }
}

/// The player at the end of the chain of control of `sym` (1841 §7.2): the owner of its
/// president's certificate, that owner's president, … `None` if the chain ends in the IPO or
/// pool, or loops (frozen, §7.4).
pub fn controller(state: &State, sym: &str) -> Option<Seat> {
    controller_with(state, None, sym)
}

/// [`controller`] with one presidency changed.
pub fn controller_with(state: &State, over: PresidentOverride, sym: &str) -> Option<Seat> {
    controller_of_with(state, over, state.corporation(sym)?)
}

/// [`controller`] of the corporation `corp` (of `state`), without looking it up.
pub fn controller_of(state: &State, corp: &Corporation) -> Option<Seat> {
    controller_of_with(state, None, corp)
}

/// [`controller_of`] with one presidency changed.
fn controller_of_with(state: &State, over: PresidentOverride, corp: &Corporation) -> Option<Seat> {
    let mut current = corp;
    for _ in 0..=state.corporations.len() {
        match president_of_with(current, over)? {
            ShareOwner::Player(s) => return Some(*s),
            ShareOwner::Corporation(c) => current = state.corporation(c)?,
            ShareOwner::Ipo | ShareOwner::Pool => return None,
        }
    }
    None
}

/// Percent of `sym` that `seat` controls: his own certificates plus those held by every
/// corporation he controls (1841 §7.3, FAQ-Q11; 18xx `player_controlled_percentage`).
pub fn controlled_percent(state: &State, seat: Seat, sym: &str) -> u32 {
    match state.corporation(sym) {
        Some(corp) => controlled_percent_of(state, seat, corp),
        None => 0,
    }
}

/// [`controlled_percent`] of the corporation `corp` (of `state`).
pub fn controlled_percent_of(state: &State, seat: Seat, corp: &Corporation) -> u32 {
    corp.certificates
        .iter()
        .filter(|c| match &c.owner {
            ShareOwner::Player(s) => *s == seat,
            ShareOwner::Corporation(holder) => controller(state, holder) == Some(seat),
            ShareOwner::Ipo | ShareOwner::Pool => false,
        })
        .map(|c| c.percent)
        .sum()
}

/// Certificates `seat` holds, all corporations together (1841 §2: each certificate counts
/// one, whatever its size; concessions do not count, FAQ-Q7; corporations' holdings do not
/// count, FAQ-Q8).
pub fn certificate_count(state: &State, seat: Seat) -> u32 {
    let owner = ShareOwner::Player(seat);
    state
        .corporations
        .iter()
        .flat_map(|c| c.certificates.iter())
        .filter(|c| c.owner == owner)
        .count() as u32
}

/// The certificate limit of every player (1841 §2: 21/16/13/11/10/9 for 3–8 players).
pub fn certificate_limit(state: &State) -> u32 {
    data::ruleset(&state.options)
        .cert_limit(state.players.len() as u32)
        .unwrap_or(0)
}

/// Whether the presidency of `corp` may change hands now: never for a historical corporation
/// before phase 4 (the concession lock, 1841 §3.2, §7.5; 18xx `pres_change_ok?`).
pub fn presidency_may_change(state: &State, corp: &Corporation) -> bool {
    !(corp.historical && phase_number(state) < 4)
}

/// The largest holding of `corp`, in percent, of any holder but `holder` (players and other
/// corporations; the IPO and the pool hold no presidency): what a president must keep to stay
/// president, since the presidency moves only to a holder with strictly more (1841 §7.5).
pub fn largest_other_holding(state: &State, corp: &Corporation, holder: &ShareOwner) -> u32 {
    ranked_holders(state, corp, 0)
        .into_iter()
        .filter(|(_, h, _)| *h != holder)
        .map(|(_, _, percent)| percent)
        .max()
        .unwrap_or(0)
}

/// What 18xx.games' `BuySellParShares#can_ipo_any?` asks a buyer to hold for a closed
/// historical corporation `x` (interpretation I35), `lowest` being the lowest par price; `None`
/// when its `can_par?` refuses `x`. A historical corporation that closes is closed for good
/// (1841 §3.4, §11 step 2, §12), so no start of it ever follows; but 18xx's `can_par?` does not
/// look at `closed?`: from phase 4 (`concession_ok?` then accepts anyone) it accepts a closed
/// historical corporation that was `startable` — one of the seven of the concessions, or one
/// formed by an event (SFLi, the split's two) that did form. Its `can_buy?` then prices the first
/// certificate of the closed corporation's IPO at the lowest par: an ordinary share (one unit,
/// `lowest`) when the corporation still had unsold IPO shares at its close
/// ([`Corporation::ipo_first_share_ordinary`]), else its president's certificate (two units).
/// A corporation formed by an event that closed without unsold IPO shares cannot be told from
/// one that never formed (18xx: not `startable`) and is taken as never formed.
pub(crate) fn closed_historical_listed_par_cost(
    state: &State,
    x: &Corporation,
    lowest: i64,
) -> Option<i64> {
    if !(x.closed && x.historical) || phase_number(state) < 4 {
        return None;
    }
    let formed_by_event = historical_data(&state.options, &x.sym)?
        .formed_by_event
        .is_some();
    if formed_by_event && !x.ipo_first_share_ordinary {
        return None;
    }
    Some(if x.ipo_first_share_ordinary {
        lowest
    } else {
        lowest.saturating_mul(2)
    })
}

/// The current phase as a number (`2` … `8`).
pub fn phase_number(state: &State) -> u32 {
    state.phase.parse().unwrap_or(2)
}

/// The chain of control of `sym` (1841 §7.2): `sym`, the corporation holding its president's
/// certificate, that one's president, … while presidents are corporations; stops before a
/// repetition.
pub fn chain(state: &State, sym: &str) -> Vec<String> {
    chain_with(state, None, sym)
}

/// [`chain`] with one presidency changed.
fn chain_with(state: &State, over: PresidentOverride, sym: &str) -> Vec<String> {
    let mut out = vec![sym.to_string()];
    let Some(mut current) = state.corporation(sym) else {
        return out;
    };
    for _ in 0..=state.corporations.len() {
        match president_of_with(current, over) {
            Some(ShareOwner::Corporation(c)) if !out.contains(c) => {
                out.push(c.clone());
                match state.corporation(c) {
                    Some(next) => current = next,
                    None => break,
                }
            }
            _ => break,
        }
    }
    out
}

/// Whether the chain of control of `sym` loops back on itself (circular control, 1841 §7.4):
/// it reaches a corporation already in the chain.
pub fn circular(state: &State, sym: &str) -> bool {
    circular_with(state, None, sym)
}

/// [`circular`] with one presidency changed.
fn circular_with(state: &State, over: PresidentOverride, sym: &str) -> bool {
    let c = chain_with(state, over, sym);
    let Some(last) = c.last().and_then(|last| state.corporation(last)) else {
        return false;
    };
    matches!(
        president_of_with(last, over),
        Some(ShareOwner::Corporation(p)) if c.contains(p)
    )
}

/// Started corporations under circular control (1841 §7.4).
pub fn circular_set(state: &State) -> Vec<String> {
    state
        .corporations
        .iter()
        .filter(|c| c.started() && circular(state, &c.sym))
        .map(|c| c.sym.clone())
        .collect()
}

/// Whether making `president` the president of `sym`, nothing else changed, would put a
/// started corporation under circular control that is not in `before` (the
/// [`circular_set`] of `state`) (1841 §7.4, FAQ-R1): [`creates_circular_control`] for a
/// change of one presidency, without copying the state.
pub fn presidency_creates_circular_control(
    state: &State,
    sym: &str,
    president: &ShareOwner,
    before: &[String],
) -> bool {
    state.corporations.iter().any(|c| {
        c.started()
            && !before.contains(&c.sym)
            && circular_with(state, Some((sym, president)), &c.sym)
    })
}

/// Whether a started corporation has no controlling player (1841 §7.4: its president's
/// certificate lies in the pool or its chain of control loops).
pub fn frozen(state: &State, sym: &str) -> bool {
    state.corporation(sym).is_some_and(|c| frozen_of(state, c))
}

/// [`frozen`] of the corporation `corp` (of `state`).
pub fn frozen_of(state: &State, corp: &Corporation) -> bool {
    corp.started() && controller_of(state, corp).is_none()
}

/// Started corporations that are frozen (1841 §7.4).
pub fn frozen_set(state: &State) -> Vec<String> {
    state
        .corporations
        .iter()
        .filter(|c| frozen_of(state, c))
        .map(|c| c.sym.clone())
        .collect()
}

/// Whether applying `change` to a copy of `state` would put a corporation under circular
/// control that is not so now (1841 §7.4, FAQ-R1: such sales, purchases and mergers are
/// refused).
pub fn creates_circular_control(state: &State, change: impl FnOnce(&mut State)) -> bool {
    let before = circular_set(state);
    let mut after = state.clone();
    change(&mut after);
    circular_set(&after).iter().any(|c| !before.contains(c))
}

/// The holders of `corp` that could take its presidency, with their holdings: each player
/// or other corporation (not the IPO, the pool or `corp` itself) holding some of it, once,
/// as (rank, holder, percent). The rank orders them as the presidency rules do: the players
/// from `first` round the table (player order), then the corporations in operating order
/// (1841 §6; 18xx `player_distance_for_president` sorts them so). A
/// holder the state does not know (no such seat in the player order, no such corporation)
/// is left out.
pub fn ranked_holders<'a>(
    state: &State,
    corp: &'a Corporation,
    first: Seat,
) -> smallvec::SmallVec<[(usize, &'a ShareOwner, u32); 9]> {
    let order = &state.player_order;
    let start = order.iter().position(|s| *s == first).unwrap_or(0);
    let mut out: smallvec::SmallVec<[(usize, &ShareOwner, u32); 9]> = smallvec::SmallVec::new();
    for c in &corp.certificates {
        let rank = match &c.owner {
            ShareOwner::Player(s) => order
                .iter()
                .position(|x| x == s)
                .map(|at| (at + order.len() - start) % order.len()),
            // 18xx `player_distance_for_president`: corporations in operating order
            // (`corporations.sort`); one not started after them, in list order.
            ShareOwner::Corporation(sym) if *sym != corp.sym => {
                super::market::operating_rank(state, sym)
                    .or_else(|| {
                        state
                            .corporation_index(sym)
                            .map(|i| state.corporations.len() + i)
                    })
                    .map(|i| order.len() + i)
            }
            _ => None,
        };
        let Some(rank) = rank else { continue };
        match out.iter_mut().find(|(r, _, _)| *r == rank) {
            Some(entry) => entry.2 += c.percent,
            None => out.push((rank, &c.owner, c.percent)),
        }
    }
    out
}

/// Players in player order starting with `first` (1841 §12.1: "starting with the
/// initiator's president and going round the table").
pub fn players_from(state: &State, first: Seat) -> Vec<Seat> {
    let order = &state.player_order;
    let start = order.iter().position(|s| *s == first).unwrap_or(0);
    (0..order.len())
        .filter_map(|k| order.get((start + k) % order.len()).copied())
        .collect()
}

/// The order in which holders act in exchanges and share offers (1841 §12.1, FAQ-C16): the
/// players from `first` round the table, each followed by the started corporations he
/// controls, then the pool (if `with_pool`), then frozen corporations. Corporations come in
/// the corporation list order (18xx), or, with `exchanges_by_share_value` (FAQ-C16: "then for
/// the companies he runs, in descending share price order"; FAQ-Q25: several frozen companies
/// "go in share-value order"; FAQ-Q12: share-value order is operating order), in operating
/// order. `only` keeps the holders it accepts.
pub fn holder_order(
    state: &State,
    first: Seat,
    with_pool: bool,
    only: impl Fn(&ShareOwner) -> bool,
) -> Vec<ShareOwner> {
    let corporations: Vec<&str> = if state.options.exchanges_by_share_value() {
        let mut order = market::operating_order_of(state);
        let rest: Vec<&str> = state
            .corporations
            .iter()
            .filter(|c| !order.contains(&c.sym.as_str()))
            .map(|c| c.sym.as_str())
            .collect();
        order.extend(rest);
        order
    } else {
        state.corporations.iter().map(|c| c.sym.as_str()).collect()
    };
    // Each corporation with, if started, its controlling player: worked out once, not once
    // per player.
    let corporations: Vec<(&Corporation, Option<Option<Seat>>)> = corporations
        .iter()
        .filter_map(|s| state.corporation(s))
        .map(|c| (c, c.started().then(|| controller_of(state, c))))
        .collect();
    let mut out = Vec::new();
    for seat in players_from(state, first) {
        out.push(ShareOwner::Player(seat));
        for (c, controller) in &corporations {
            if !c.closed && *controller == Some(Some(seat)) {
                out.push(ShareOwner::Corporation(c.sym.clone()));
            }
        }
    }
    if with_pool {
        out.push(ShareOwner::Pool);
    }
    for (c, controller) in &corporations {
        // Frozen (`frozen_of`): started, without a controlling player.
        if *controller == Some(None) {
            out.push(ShareOwner::Corporation(c.sym.clone()));
        }
    }
    out.retain(|h| only(h));
    out
}

/// The seat acting for a holder: the player, or a corporation's controller (1841 §7.2).
pub fn acting_seat(state: &State, holder: &ShareOwner) -> Option<Seat> {
    match holder {
        ShareOwner::Player(s) => Some(*s),
        ShareOwner::Corporation(c) => controller(state, c),
        ShareOwner::Ipo | ShareOwner::Pool => None,
    }
}

/// Cash of a player or corporation holder.
pub fn holder_cash(state: &State, holder: &ShareOwner) -> i64 {
    match holder {
        ShareOwner::Player(s) => state.player(*s).map_or(0, |p| p.cash),
        ShareOwner::Corporation(c) => state.corporation(c).map_or(0, |c| c.cash),
        ShareOwner::Ipo | ShareOwner::Pool => 0,
    }
}

/// Adds `amount` (may be negative) to a player's or corporation's cash; the bank's when
/// `holder` is the pool or the IPO.
pub fn add_cash(state: &mut State, holder: &ShareOwner, amount: i64) {
    match holder {
        ShareOwner::Player(s) => {
            if let Some(p) = state.players.get_mut(*s as usize) {
                p.cash = p.cash.saturating_add(amount);
            }
        }
        ShareOwner::Corporation(c) => {
            if let Some(c) = state.corporations.iter_mut().find(|x| x.sym == *c) {
                c.cash = c.cash.saturating_add(amount);
            }
        }
        ShareOwner::Ipo | ShareOwner::Pool => {
            state.bank_cash = state.bank_cash.saturating_add(amount);
        }
    }
}

/// Whether `holder` may take one more certificate of `sym` of `percent` by the limits: a
/// player within his certificate limit and the 60% limit (1841 §2, §7.3); a corporation
/// within its 5 certificates of others, never of itself or a corporation of its own chain,
/// and within its controller's 60% (§9.7).
pub fn may_hold_more(state: &State, holder: &ShareOwner, sym: &str, percent: u32) -> bool {
    let rules = data::ruleset(&state.options);
    let max = rules.max_percent_controlled_by_one_player;
    match holder {
        ShareOwner::Player(seat) => {
            certificate_count(state, *seat) < certificate_limit(state)
                && controlled_percent(state, *seat, sym).saturating_add(percent) <= max
        }
        ShareOwner::Corporation(buyer) => {
            if buyer == sym || chain(state, buyer).iter().any(|c| c == sym) {
                return false;
            }
            let held = state
                .corporations
                .iter()
                .flat_map(|c| c.certificates.iter())
                .filter(|c| c.owner == *holder)
                .count() as u32;
            held < rules.corporation_max_certificates_of_other_corporations
                && controller(state, buyer).is_some_and(|seat| {
                    controlled_percent(state, seat, sym).saturating_add(percent) <= max
                })
        }
        ShareOwner::Ipo | ShareOwner::Pool => false,
    }
}

/// Hands the president's certificate of `sym` from `old` to `new`; `new` gives `old`
/// ordinary certificates worth as much (1841 §5.3, §7.5). With `old` = the pool this is the
/// unfreezing swap of §7.4.
pub fn swap_presidency(state: &mut State, sym: &str, old: &ShareOwner, new: &ShareOwner) {
    if let Some(corp) = state.corporation_mut(sym) {
        swap_presidency_of(corp, old, new);
    }
}

/// [`swap_presidency`] on the corporation itself.
pub fn swap_presidency_of(corp: &mut Corporation, old: &ShareOwner, new: &ShareOwner) {
    let pres_percent = 2 * corp.unit_percent();
    let mut given = 0;
    for c in corp.certificates.iter_mut() {
        if given >= pres_percent {
            break;
        }
        if !c.president && c.owner == *new {
            c.owner = old.clone();
            given += c.percent;
        }
    }
    for c in corp.certificates.iter_mut().filter(|c| c.president) {
        c.owner = new.clone();
    }
}

/// The presidency rule after shares of `sym` moved (1841 §5.3, §7.4, §7.5): if the
/// president's certificate lies in the pool, the first holder (in order from `acting`) with
/// at least the president's certificate's percent takes it for two units (unfreezing);
/// otherwise a holder (player or corporation) with strictly more than the president takes
/// over, the largest first, ties to the nearest in order after the president (players round
/// the table, then corporations). Never for a historical corporation before phase 4.
pub fn update_presidency(
    state: &mut State,
    sym: &str,
    acting: Option<Seat>,
    events: &mut Vec<super::action::Event>,
) {
    let Some(corp) = state.corporation(sym) else {
        return;
    };
    let Some(current) = corp.president().cloned() else {
        return;
    };
    let Some(new) = presidency_taker(state, corp, acting) else {
        return;
    };
    let was_frozen = frozen(state, sym);
    swap_presidency(state, sym, &current, &new);
    if let ShareOwner::Player(seat) = new {
        events.push(super::action::Event::PresidentChanged {
            corporation: sym.to_string(),
            seat,
        });
    } else {
        events.push(super::action::Event::PresidencyMoved {
            corporation: sym.to_string(),
            president: new.clone(),
        });
    }
    let now_frozen = frozen(state, sym);
    if was_frozen != now_frozen {
        events.push(super::action::Event::FrozenChanged {
            corporation: sym.to_string(),
            frozen: now_frozen,
        });
    }
}

/// Who takes the presidency of `corp` under the presidency rule of [`update_presidency`]
/// (`None`: it stays). `corp` may differ from the state's corporation of that symbol (a
/// what-if): its certificates and president are read from `corp`, everything else from
/// `state`.
pub fn presidency_taker(
    state: &State,
    corp: &Corporation,
    acting: Option<Seat>,
) -> Option<ShareOwner> {
    if !corp.started() || !presidency_may_change(state, corp) {
        return None;
    }
    let current = corp.president()?;
    let pres_percent = 2 * corp.unit_percent();
    // Ties go to the nearest in 18xx's `player_distance_for_president`: after a player
    // president, the players round the table from him; after a corporation president, the
    // players in the current order from its first (the priority holder); then corporations.
    let start = match current {
        ShareOwner::Player(s) => Some(*s),
        ShareOwner::Corporation(_) => state.player_order.first().copied(),
        _ => None,
    }
    .or(acting)
    .or_else(|| state.player_order.first().copied())
    .unwrap_or(0);
    let current_percent = if *current == ShareOwner::Pool {
        pres_percent - 1
    } else {
        corp.percent_of(current)
    };
    // The largest holding above the president's, ties to the first in rank (players from
    // `start` round the table, then corporations); the president is no candidate.
    let mut best: Option<(usize, &ShareOwner, u32)> = None;
    for (rank, holder, p) in ranked_holders(state, corp, start) {
        if holder != current
            && p > current_percent
            && best.is_none_or(|(r, _, b)| p > b || (p == b && rank < r))
        {
            best = Some((rank, holder, p));
        }
    }
    best.map(|(_, holder, _)| holder.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn s3_5_certificates_major_20_plus_8x10_minor_40_plus_3x20() {
        let major = fresh_certificates(CorporationKind::Major);
        assert_eq!(major.len(), 9);
        assert_eq!(major[0].percent, 20);
        assert!(major[0].president);
        assert_eq!(major.iter().map(|c| c.percent).sum::<u32>(), 100);
        let minor = fresh_certificates(CorporationKind::Minor);
        assert_eq!(
            minor.iter().map(|c| c.percent).collect::<Vec<_>>(),
            [40, 20, 20, 20]
        );
    }

    #[test]
    fn roster_is_the_initial_corporations_of_each_ruleset() {
        for (lite, version_1) in [(false, false), (false, true), (true, false), (true, true)] {
            let options = Options {
                lite,
                version_1,
                ..Options::default()
            };
            let fresh = initial_corporations(&options);
            assert_eq!(
                roster(&options),
                &fresh[..],
                "lite {lite}, version_1 {version_1}"
            );
        }
    }

    #[test]
    fn non_historical_by_roster_index_is_the_listed_ones() {
        for (lite, version_1) in [(false, false), (false, true), (true, false), (true, true)] {
            let options = Options {
                lite,
                version_1,
                ..Options::default()
            };
            let nh = &data::ruleset(&options).non_historical_corporations;
            let listed = |sym: &str| nh.majors.iter().chain(&nh.minors).any(|s| s == sym);
            let roster = roster(&options);
            for (i, c) in roster.iter().enumerate() {
                // Symbols are unique, so the index of each is its own.
                assert_eq!(roster_index(&options, &c.sym), Some(i));
                assert_eq!(
                    is_non_historical(&options, &c.sym),
                    listed(&c.sym),
                    "{}",
                    c.sym
                );
            }
            assert!(!is_non_historical(&options, "XYZ"));
        }
    }

    #[test]
    fn roster_index_finds_every_roster_symbol_and_nothing_else() {
        for options in crate::g1841::options::each_ruleset() {
            for (i, c) in roster(&options).iter().enumerate() {
                assert_eq!(roster_index(&options, &c.sym), Some(i), "{}", c.sym);
            }
            for absent in [
                "", "S", "SFT", "SFTGX", "sftg", "Holdings", "F8", "HoldingX",
            ] {
                assert_eq!(roster_index(&options, absent), None, "{absent}");
            }
        }
        let long = [
            fresh("Marseille", CorporationKind::Major, false),
            fresh("SB", CorporationKind::Minor, false),
        ];
        let index = RosterIndex::new(&long);
        assert_eq!(index.get("Marseille"), Some((0, None)));
        assert_eq!(index.get("SB"), Some((1, super::super::ids::pack(b"SB"))));
        assert_eq!(index.get("Marseilles"), None);
    }

    #[test]
    fn s3_3_roster_v2_v1_lite() {
        let v2 = initial_corporations(&Options::default());
        let syms: Vec<_> = v2.iter().map(|c| c.sym.as_str()).collect();
        assert_eq!(
            &syms[..7],
            ["SFMA", "SFLP", "SSFL", "IRSFF", "SFTG", "SFTN", "SFTC"]
        );
        assert_eq!(v2.len(), 10 + 14 + 1);
        let sftc = |o: &Options| {
            initial_corporations(o)
                .into_iter()
                .find(|c| c.sym == "SFTC")
                .unwrap()
                .kind
        };
        assert_eq!(sftc(&Options::default()), CorporationKind::Major);
        let v1 = Options {
            version_1: true,
            ..Options::default()
        };
        assert_eq!(sftc(&v1), CorporationKind::Minor);
        let lite = Options {
            lite: true,
            ..Options::default()
        };
        assert_eq!(initial_corporations(&lite).len(), 6 + 14);
        assert_eq!(
            corporation_of_concession(&lite, Concession::Sftg),
            Some("SFTG")
        );
        assert_eq!(corporation_of_concession(&lite, Concession::Bayard), None);
    }
}
