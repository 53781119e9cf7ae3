//! The complete state of a game of 1841. Mirrors `referee.g1841.v1.State` field by field.
//!
//! This module holds the state, its players, corporations, certificates, material and rounds;
//! the state of the corporate events (1841 §11, §12) is in [`events`].

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::concession::Concession;
use super::options::Options;
use crate::Seat;

mod events;

pub use events::{
    CorporateEvent, MarketCell, Merger, MergerStage, MovedAssets, MovedCertificate, QueuedEvent,
    Split, SplitStage, Transformation,
};

/// The complete state of a game of 1841 (`referee.g1841.v1.State`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// Variant switches chosen at setup.
    pub options: Options,
    /// Cash in the bank, in L. (1841 §1: the bank total minus the starting cash paid out).
    pub bank_cash: i64,
    /// Players, indexed by seat (seat 0 first).
    pub players: Vec<Player>,
    /// Current player order as seats; the first seat has priority (1841 §4.1 step 5).
    pub player_order: Vec<Seat>,
    /// Concessions owned by the bank (unsold in the concession round), in concession number
    /// order (1841 §4.1 step 4, §4.3).
    pub bank_concessions: Vec<Concession>,
    /// Current phase, named after the train that started it (`2` at the start, 1841 §10).
    pub phase: String,
    /// The round being played.
    pub round: Round,
    /// Every corporation of the ruleset (historical ones first, in data order, then the
    /// non-historical majors and minors), started or not (1841 §3.3, §3.4). Empty only in
    /// states written before corporations existed.
    #[serde(default)]
    pub corporations: Vec<Corporation>,
    /// Sequence number given to the next corporation that arrives on a market cell; orders
    /// corporations sharing a cell (1841 §6: earlier arrival operates first; FAQ-Q6).
    #[serde(default)]
    pub next_market_arrival: u64,
    /// Track, trains and other operating-round material (1841 §9, §10). Empty (the default)
    /// before the first operating round.
    #[serde(default)]
    pub operations: Operations,
    /// Game-end progress (1841 §13): off-board groups connected so far, the trigger, and
    /// whether the game is over.
    #[serde(default)]
    pub game_end: GameEnd,
}

/// Game-end progress (1841 §13).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameEnd {
    /// Off-board groups (`a4`, `A7`, `Trento`, `E1`, `East`, `O17`, `Marseille`, `Roma`)
    /// connected by track to some corporation so far, in the data's order.
    #[serde(default)]
    pub connected_offboards: Vec<String>,
    /// The first end trigger met (`bank`, `stock_market`, `offboards`, `bankrupt`); the game
    /// ends when its timing comes (§13).
    #[serde(default)]
    pub trigger: Option<String>,
    /// Whether the game is over.
    #[serde(default)]
    pub ended: bool,
}

/// Map and train material that persists across rounds (1841 §9, §10). The default is the
/// state at setup: no tile laid, every train in the depot.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Operations {
    /// Tiles laid on the map, by hex (1841 §9.1).
    #[serde(default)]
    pub tiles: BTreeMap<String, PlacedTile>,
    /// Trains sold from the depot so far, by train type (`2` … `8`); the next train of a type
    /// gets the id `<type>-<sold>` (18xx train ids) (1841 §9.6).
    #[serde(default)]
    pub depot_sold: BTreeMap<String, u32>,
    /// Trains in the bank pool (discarded), by id.
    #[serde(default)]
    pub pool_trains: Vec<String>,
    /// Trains owned by corporations, by corporation symbol, ids in purchase order.
    #[serde(default)]
    pub trains: BTreeMap<String, Vec<String>>,
    /// Trains that have rusted (removed from the game), by id (1841 §10).
    #[serde(default)]
    pub rusted: Vec<String>,
}

/// A tile on a hex (1841 §9.1).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlacedTile {
    /// Tile number, e.g. `202`.
    pub tile: String,
    /// Rotation 0–5 (printed edge e lies on hex edge (e + rotation) mod 6, 1841 §0.3).
    pub rotation: u8,
}

/// A corporation (`referee.g1841.v1.Corporation`): a share company, major or minor,
/// historical or not (1841 §3.3–§3.5). Its president is the owner of its president's
/// certificate.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Corporation {
    /// Symbol, e.g. `SFTG`.
    pub sym: String,
    /// Major (ten 10% units, president's certificate 20%) or minor (five 20% units,
    /// president's certificate 40%) (1841 §0.3, §3.5).
    pub kind: CorporationKind,
    /// Historical corporation (started only with its concession before phase 4, 1841 §5.4).
    pub historical: bool,
    /// Market position; `None` while the corporation has not been started (1841 §6).
    pub share_price: Option<SharePrice>,
    /// Par price in L. (0 while not started).
    pub par_price: i64,
    /// Treasury in L. (incremental capitalisation, 1841 §3.5).
    pub cash: i64,
    /// Its certificates, president's certificate first (18xx share ids `<SYM>_<index>`).
    pub certificates: Vec<Certificate>,
    /// Tokens owned in all, placed or not (bought at the start, 1841 §5.4).
    pub tokens_total: u32,
    /// Tokens on the map.
    pub tokens: Vec<MapToken>,
    /// Whether it has finished an operating turn (its shares may be sold, 1841 §5.3, FAQ-Q1).
    pub operated: bool,
    /// Closed for good (1841 §3.4, §11 step 2, §12): a historical corporation that was never
    /// started by the first 4-train, IRSFF after the Ferdinandea split, the Tuscan
    /// participants after the Tuscan merge, a historical corporation merged away, and SB/SFL/
    /// SFLi when their event does not happen. A closed corporation looks unstarted and can
    /// never be started again; its home reservations are gone.
    #[serde(default)]
    pub closed: bool,
    /// For a closed historical corporation: whether 18xx.games' list of its IPO certificates
    /// begins with an ordinary share, i.e. it still had unsold IPO shares when it closed, or
    /// a merger's exchange gave an ordinary share back first (18xx closes a historical
    /// corporation without re-sorting its IPO, the certificates that come back going behind
    /// the unsold ones in the order they come back). 18xx's corporate share step prices the
    /// corporation's `par` at that first certificate (L.68 for an ordinary share, L.136 for
    /// the president's certificate), so it decides whether the step opens (interpretation
    /// I35, `operating_round::steps::shares`). Always `false` for an open corporation.
    #[serde(default)]
    pub ipo_first_share_ordinary: bool,
}

/// Major or minor (1841 §0.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CorporationKind {
    /// Ten 10% units; president's certificate 20%.
    Major,
    /// Five 20% units; president's certificate 40%.
    Minor,
}

impl CorporationKind {
    /// Percent of one unit certificate: 10 for a major, 20 for a minor (1841 §0.3).
    pub fn unit_percent(self) -> u32 {
        match self {
            Self::Major => 10,
            Self::Minor => 20,
        }
    }
}

/// A market position (1841 §6): `row`/`col` 0-based as in 18xx (`"price,row,col"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SharePrice {
    /// Row, 0 = top.
    pub row: u32,
    /// Column, 0 = left.
    pub col: u32,
    /// When the corporation arrived on this cell ([`State::next_market_arrival`]); smaller
    /// arrived earlier.
    pub arrival: u64,
}

/// One certificate of a corporation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Certificate {
    /// Size in percent (20/10 for majors, 40/20 for minors).
    pub percent: u32,
    /// The president's certificate (index 0).
    pub president: bool,
    /// Who holds it.
    pub owner: ShareOwner,
}

/// Who holds a certificate (1841 §3.5, §7.1).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum ShareOwner {
    /// The corporation's own IPO (treasury shares, incremental capitalisation).
    Ipo,
    /// The bank pool (open market).
    Pool,
    /// A player, by seat.
    Player(Seat),
    /// Another corporation, by symbol (1841 §7.1, §9.7).
    Corporation(String),
}

/// A station token on the map.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MapToken {
    /// Hex, e.g. `H4`.
    pub hex: String,
    /// City index on the tile (Torino and yellow Firenze have two cities).
    pub city: u32,
}

/// One player's holdings (`referee.g1841.v1.Player`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    /// The player's seat (equal to the index in [`State::players`]).
    pub seat: Seat,
    /// Cash in L.
    pub cash: i64,
    /// Concessions held, in concession number order.
    pub concessions: Vec<Concession>,
    /// Resigned through bankruptcy (1841 §14): out of the game, value 0.
    #[serde(default)]
    pub bankrupt: bool,
    /// Bankruptcy loans taken, in L. (1841 §14: L.500 each), subtracted from the final value.
    #[serde(default)]
    pub loan: i64,
}

/// The round being played (`oneof round` of `referee.g1841.v1.State`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Round {
    /// Opening auction of the concessions (1841 §4).
    ConcessionRound(ConcessionRound),
    /// A stock round (1841 §5).
    StockRound(StockRound),
    /// An operating round (1841 §8); not playable in this build.
    OperatingRound(OperatingRound),
}

/// The concession round (`referee.g1841.v1.ConcessionRound`): nomination auction (Version 2,
/// 1841 §4.1) or sealed bids plus tie auctions (Version 1, 1841 §4.2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConcessionRound {
    /// Concessions still for sale, in concession number order. In Version 1, after the sealed
    /// bids are revealed, only the concessions whose tie auction is still to be fought.
    pub remaining: Vec<Concession>,
    /// Seat whose turn it is to nominate (Version 2, when no auction is open).
    pub nominating_seat: Seat,
    /// Nomination turns passed in a row (Version 2); the round ends when it reaches the number
    /// of players (1841 §4.1 step 4, §17.13).
    pub consecutive_passes: u32,
    /// The auction being fought, if any (Version 2 nomination, or a Version 1 tie auction).
    pub auction: Option<Auction>,
    /// Version 1 sealed bids, one per seat in seat order (empty in Version 2).
    pub sealed_bids: Vec<SealedBid>,
    /// Version 1 tie auctions still to be fought after the current one, in concession order.
    pub pending_tie_auctions: Vec<Auction>,
}

/// An open auction of one concession (`referee.g1841.v1.Auction`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Auction {
    /// Concession being auctioned.
    pub concession: Concession,
    /// Seat that nominated it (Version 2); in a Version 1 tie auction, the first tied seat.
    pub nominator: Seat,
    /// Highest bid so far, in L.
    pub high_bid: i64,
    /// Seat holding the highest bid. In a Version 1 tie auction before any raise: the tied seat
    /// furthest from priority, who buys if every other tied seat drops out (FAQ-C1).
    pub high_bidder: Seat,
    /// Seats still in the auction (including the high bidder), in bidding order.
    pub bidders: Vec<Seat>,
    /// Seat that must raise or drop out now: the bidder after the high bidder.
    pub to_act: Seat,
}

/// One seat's sealed bid (Version 1, 1841 §4.2; `referee.g1841.v1.SealedBid`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SealedBid {
    /// The bidding seat.
    pub seat: Seat,
    /// Whether the seat has submitted its bid.
    pub submitted: bool,
    /// Bid per concession in L., in concession number order of all the ruleset's concessions
    /// (8 full, 5 lite); 0 = no bid, otherwise at least L.20. Empty when not yet submitted or
    /// hidden from the viewer.
    pub amounts: Vec<i64>,
}

/// A stock round (`referee.g1841.v1.StockRound`, 1841 §5).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StockRound {
    /// Stock round number, from 1.
    pub number: u32,
    /// Seat holding priority: the first to act (1841 §4.1 step 5, §4.2 step 3).
    pub priority_seat: Seat,
    /// Seat whose turn it is (1841 §5.1).
    #[serde(default)]
    pub current_seat: Seat,
    /// Turns passed in a row (explicit or automatic); the round ends when it reaches the
    /// number of players (1841 §5.1).
    #[serde(default)]
    pub consecutive_passes: u32,
    /// The last seat that bought, sold or started something; the next stock round's priority
    /// goes to the seat after it (1841 §5.1, 18xx `:after_last_to_act`).
    #[serde(default)]
    pub last_to_act: Option<Seat>,
    /// Whether the current seat has sold this turn (its pass then ends the turn without
    /// counting as a pass, 1841 §5.1).
    #[serde(default)]
    pub acted_this_turn: bool,
    /// Corporations each seat has sold this round (it may not buy them again, 1841 §5.1).
    #[serde(default)]
    pub sold: Vec<SoldShares>,
    /// A corporation being started in the current turn (1841 §5.4 steps 2–4).
    #[serde(default)]
    pub start: Option<CorporationStart>,
    /// Price drops of the current turn's sales, waiting for the end of the selling (FAQ-Q2,
    /// option `price_drops_lowest_first`); always empty without the option.
    #[serde(default)]
    pub pending_drops: Vec<PriceDrop>,
    /// A purchase offer of the current seat waiting for the seller's answer (`p2p_purchases`,
    /// 1841 §5.2, §15.3); while it waits only the seller acts.
    #[serde(default)]
    pub offer: Option<PurchaseOffer>,
    /// Offers the current seat made this turn that their sellers declined; the same thing
    /// may be offered to the same seller again only at a higher price (docs/games/1841.md,
    /// interpretation I47). Emptied when the turn ends.
    #[serde(default)]
    pub declined_offers: Vec<PurchaseOffer>,
}

/// A price drop waiting for the end of a turn's selling (FAQ-Q2, option
/// `price_drops_lowest_first`): `corporation` moves `rows` rows down.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PriceDrop {
    /// The corporation whose shares were sold.
    pub corporation: String,
    /// Rows down: one per unit sold (1841 §5.3).
    pub rows: u32,
}

/// Certificates of `corporation` that corporation `seller` sold in the current operating
/// round, emergency sales included (FAQ-R5, option `no_corporate_rebuy_after_sale`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CorporateSale {
    /// The selling corporation.
    pub seller: String,
    /// The corporation whose certificates it sold (its own symbol for its IPO shares).
    pub corporation: String,
}

/// What a player offers to buy from another player (`p2p_purchases`, 1841 §3.2, §5.2, §15.3).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PurchaseItem {
    /// `percent` of `corporation` held by the seller: his ordinary certificates first; when
    /// `percent` is more than those, his president's certificate goes too, whole or in part
    /// (the presidency then passes to the largest other holder with at least the president's
    /// certificate's percent, FAQ-Q3).
    Shares {
        /// Corporation symbol, e.g. `SFTG`.
        corporation: String,
        /// Percent bought (a multiple of the unit: 10 for a major, 20 for a minor).
        percent: u32,
    },
    /// A concession held by the seller (symbol as text, e.g. `SFTG`); the locked concession of
    /// a started historical corporation brings its president's certificate along (1841 §3.2).
    Concession {
        /// Concession symbol.
        concession: String,
    },
}

/// A purchase from another player at a negotiated price (`p2p_purchases`, 1841 §5.2, §15.3).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PurchaseOffer {
    /// The seat buying (the stock-round seat on turn).
    pub buyer: Seat,
    /// The seat selling.
    pub seller: Seat,
    /// What is bought.
    pub item: PurchaseItem,
    /// Price in L., paid by the buyer to the seller (at least L.1).
    pub price: i64,
}

/// A seat sold shares of a corporation this stock round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SoldShares {
    /// The seller.
    pub seat: Seat,
    /// The corporation.
    pub corporation: String,
}

/// A corporation start in progress (1841 §5.4).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CorporationStart {
    /// The corporation.
    pub corporation: String,
    /// What happens next.
    pub step: StartStep,
}

/// The steps of a start after the par (1841 §5.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum StartStep {
    /// The starter may buy more IPO shares of it until he holds 40%, or pass (step 2).
    BuyShares,
    /// The president chooses the city of the home token (V2 SFMA, step 3).
    HomeToken,
    /// The president chooses how many tokens it buys (step 4).
    BuyTokens,
}

/// An operating round (`referee.g1841.v1.OperatingRound`, 1841 §8).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OperatingRound {
    /// Number of the stock round it follows (the `1` of `1.1`).
    pub stock_round: u32,
    /// Number within the set, from 1 (the second `1` of `1.1`).
    pub number: u32,
    /// Operating rounds in this set (1841 §8: 1 in phase 2).
    pub total: u32,
    /// The corporation operating now (`None` only when no corporation can operate).
    #[serde(default)]
    pub current: Option<String>,
    /// Corporations that have finished their turn in this operating round.
    #[serde(default)]
    pub done: Vec<String>,
    /// The step of the current corporation's turn (1841 §8).
    #[serde(default)]
    pub step: OperatingStep,
    /// Hexes built on this turn (1841 §9.1: no hex twice per turn).
    #[serde(default)]
    pub laid_hexes: Vec<String>,
    /// Bases (token cities `hex`/`city`) used for a tile action this turn (1841 §9.1).
    #[serde(default)]
    pub used_bases: Vec<MapToken>,
    /// Whether a train has been bought this turn.
    #[serde(default)]
    pub bought_train: bool,
    /// Revenue of the routes run this turn, awaiting the dividend decision (1841 §9.4).
    #[serde(default)]
    pub revenue: i64,
    /// Corporations whose certificates the operating corporation sold this turn (it may not
    /// buy them again in the same turn, 1841 §9.7).
    #[serde(default)]
    pub sold: Vec<String>,
    /// A corporation being started by the operating corporation in its corporate share step
    /// (1841 §3.4, §5.4, §9.7).
    #[serde(default)]
    pub start: Option<CorporationStart>,
    /// A corporate event in progress (1841 §11, §12): the Ferdinandea split, a merger (also the
    /// steps of the Tuscan merge) or a transformation, waiting for a player's decision.
    #[serde(default)]
    pub event: Option<Box<CorporateEvent>>,
    /// Events of the first 4-train still to run after the current one (1841 §11 steps 4–5).
    #[serde(default)]
    pub queued_events: Vec<QueuedEvent>,
    /// Corporations over their train limit after a phase change, in operating order; each
    /// must discard trains to the pool before play goes on (1841 §9.6, §10).
    #[serde(default)]
    pub crowded: Vec<String>,
    /// Whether the operating corporation has made an emergency sale this turn (1841 §14);
    /// from then on it buys only the cheapest depot or pool train.
    #[serde(default)]
    pub emergency: bool,
    /// Whether the operating corporation is released from its train obligation this turn
    /// (its controlling player went bankrupt, 1841 §14).
    #[serde(default)]
    pub train_obligation_released: bool,
    /// Price drops of the operating corporation's sales in its share step, waiting for the
    /// end of its selling (FAQ-Q2, option `price_drops_lowest_first`); empty without it.
    #[serde(default)]
    pub pending_drops: Vec<PriceDrop>,
    /// Every corporation's sales in this operating round (FAQ-R5, option
    /// `no_corporate_rebuy_after_sale`); empty without it.
    #[serde(default)]
    pub corporate_sales: Vec<CorporateSale>,
    /// IRSFF's market place when the Ferdinandea split dissolved it before it had operated in
    /// this round: its successors operate in IRSFF's slot of the operating order (1841 §12.4,
    /// FAQ-Q24), wherever their own markers went (Version 1: column 10, behind the markers
    /// already there). `None` otherwise, and once a share sale re-reads the order (FAQ-Q13;
    /// 18xx `recalculate_order`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub split_slot: Option<SharePrice>,
}

/// Steps of a corporation's operating turn, in order (1841 §8).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum OperatingStep {
    /// Lay or upgrade track (1841 §9.1).
    #[default]
    Track,
    /// Place one token (1841 §9.2).
    Token,
    /// Run trains (1841 §9.3).
    Routes,
    /// Pay out or withhold (1841 §9.4).
    Dividend,
    /// Buy a token of another corporation (1841 §9.5); offered whenever the corporation has
    /// an unplaced token (as 18xx does); only `Pass` is implemented.
    BuyToken,
    /// Buy trains (1841 §9.6).
    Trains,
    /// Corporate share actions (1841 §9.7).
    Shares,
    /// Propose a merger (1841 §12.1).
    Merge,
    /// Transform a minor into a major (1841 §12.2).
    Transform,
}

impl State {
    /// Total money in the game in L.: bank plus every player's and every corporation's cash.
    /// Constant: money only moves between players, corporations and the bank (1841 §1).
    pub fn total_money(&self) -> i64 {
        let players = self
            .players
            .iter()
            .fold(self.bank_cash, |t, p| t.saturating_add(p.cash));
        self.corporations
            .iter()
            .fold(players, |t, c| t.saturating_add(c.cash))
    }

    /// The concession round, if it is being played.
    pub fn concession_round(&self) -> Option<&ConcessionRound> {
        match &self.round {
            Round::ConcessionRound(r) => Some(r),
            _ => None,
        }
    }

    /// The stock round, if it is being played.
    pub fn stock_round(&self) -> Option<&StockRound> {
        match &self.round {
            Round::StockRound(r) => Some(r),
            _ => None,
        }
    }

    /// The corporation `sym`, `None` if the ruleset has none of that name. Found at its
    /// roster position (where a valid state has it) by a hash look-up, else by a search.
    pub fn corporation(&self, sym: &str) -> Option<&Corporation> {
        match self.corporation_index(sym) {
            Some(i) => self.corporations.get(i),
            None => None,
        }
    }

    /// The corporation `sym`, to change it ([`State::corporation`]).
    pub fn corporation_mut(&mut self, sym: &str) -> Option<&mut Corporation> {
        let i = self.corporation_index(sym)?;
        self.corporations.get_mut(i)
    }

    /// The index of corporation `sym` in [`State::corporations`].
    pub fn corporation_index(&self, sym: &str) -> Option<usize> {
        if let Some((i, key)) = super::corporation::roster_slot(&self.options, sym)
            && self
                .corporations
                .get(i)
                .is_some_and(|c| super::ids::is_packed(&c.sym, sym, key))
        {
            return Some(i);
        }
        self.corporations.iter().position(|c| c.sym == sym)
    }

    /// The player in `seat`, `None` for a seat out of range.
    pub fn player(&self, seat: Seat) -> Option<&Player> {
        self.players.get(seat as usize)
    }
}
