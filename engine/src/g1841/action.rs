//! Actions, events and legal-action ranges of 1841. Mirror `referee.g1841.v1.Action`,
//! `Event` and `LegalActions`.

use serde::{Deserialize, Serialize};

use super::concession::Concession;
use super::state::SealedBid;
use crate::Seat;

/// One action of one seat (`referee.g1841.v1.Action`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Action {
    /// Nominate a concession (open its auction) or raise in its auction (1841 §4.1, §4.2).
    /// `concession` is the symbol as sent (`SFTG`); an unknown symbol is rejected with
    /// `INVALID_ARGUMENT`. `price` in L.: at least L.20 to open, at least L.5 above the high
    /// bid to raise, at most the bidder's cash.
    Bid {
        /// Concession symbol, e.g. `SFTG`.
        concession: String,
        /// Amount in L.
        price: i64,
    },
    /// Pass a nomination turn, or drop out of the open auction (1841 §4.1 steps 1–2).
    Pass,
    /// Sealed bids for every concession of the ruleset (Version 1, 1841 §4.2 step 1): one
    /// amount per concession in concession number order (8 full, 5 lite), each 0 or at least
    /// L.20, total at most the bidder's cash.
    BlindBid {
        /// Amounts in L.
        amounts: Vec<i64>,
    },
    /// Start (par) a corporation: buy its president's certificate at 2× `price`, paid into
    /// its treasury (1841 §5.4 step 1). `price` is a par price (68, 100, 144; 216 and 340 for
    /// majors).
    Par {
        /// Corporation symbol, e.g. `SFTG`.
        corporation: String,
        /// Par price per unit certificate in L.
        price: i64,
    },
    /// Buy one certificate at the market price (1841 §5.2): from the IPO (paid into the
    /// treasury, incremental capitalisation) or from the pool (paid to the bank).
    BuyShares {
        /// Corporation symbol.
        corporation: String,
        /// `true` = from the bank pool, `false` = from the IPO.
        from_pool: bool,
        /// Size of the certificate in percent (10/20 major, 20/40 minor; the larger one is a
        /// president's certificate in the pool).
        percent: u32,
    },
    /// Sell `percent` of one corporation to the pool (1841 §5.3).
    SellShares {
        /// Corporation symbol.
        corporation: String,
        /// Percent sold (a multiple of the unit: 10 major, 20 minor).
        percent: u32,
    },
    /// Place a token: in a start, the home token whose city the president chooses (V2 SFMA,
    /// 1841 §5.4 step 3).
    PlaceToken {
        /// Hex, e.g. `R14`.
        hex: String,
        /// City index on the tile.
        city: u32,
    },
    /// Buy the token stock of a corporation being started: `count` tokens in all, placed home
    /// tokens included (1841 §5.4 step 4).
    BuyTokens {
        /// Total number of tokens.
        count: u32,
    },
    /// Buy a bank-held concession at its face value (1841 §3.2: from SR 2).
    BuyConcession {
        /// Concession symbol.
        concession: String,
    },
}

/// Something that happened while an action was applied (`referee.g1841.v1.Event`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    /// A concession was nominated with an opening bid (1841 §4.1 step 1).
    AuctionOpened {
        /// Nominating seat.
        seat: Seat,
        /// Concession.
        concession: Concession,
        /// Opening bid in L.
        price: i64,
    },
    /// A bid was raised (1841 §4.1 step 2, §4.2 step 2).
    BidPlaced {
        /// Bidding seat.
        seat: Seat,
        /// Concession.
        concession: Concession,
        /// New high bid in L.
        price: i64,
    },
    /// A seat passed its nomination turn (1841 §4.1 step 1).
    NominationPassed {
        /// Passing seat.
        seat: Seat,
    },
    /// A seat dropped out of an auction (1841 §4.1 step 2), or was left out of a Version 1
    /// tie auction because it cannot pay the tied bid (docs/games/1841.md, interpretation I4).
    DroppedOut {
        /// Seat that dropped out.
        seat: Seat,
        /// Concession.
        concession: Concession,
    },
    /// A concession was bought; `price` L. went from the seat to the bank.
    ConcessionBought {
        /// Buying seat.
        seat: Seat,
        /// Concession.
        concession: Concession,
        /// Price paid to the bank in L.
        price: i64,
    },
    /// A seat submitted its sealed bid; the amounts stay secret (1841 §4.2 step 1).
    SealedBidSubmitted {
        /// Bidding seat.
        seat: Seat,
    },
    /// Every seat has bid: the sealed bids are revealed (1841 §4.2 step 2).
    SealedBidsRevealed {
        /// All bids, in seat order.
        bids: Vec<SealedBid>,
    },
    /// A concession went to the bank unsold (1841 §4.1 step 4, §4.2 step 2, §4.3).
    ConcessionToBank {
        /// Concession.
        concession: Concession,
    },
    /// The player order changed (1841 §4.1 step 5, §4.2 step 3).
    PlayerOrderChanged {
        /// New order as seats; the first has priority.
        player_order: Vec<Seat>,
    },
    /// A new round started, e.g. `Stock Round 1` (1841 §4.3).
    RoundStarted {
        /// Round name.
        name: String,
    },
    /// A seat passed its stock-round turn (1841 §5.1); `automatic` when it had no legal
    /// action.
    Passed {
        /// Passing seat.
        seat: Seat,
        /// Whether the engine passed for the seat (no legal action).
        automatic: bool,
    },
    /// A corporation was started (1841 §5.4 step 1): the seat bought its president's
    /// certificate for 2× par.
    CorporationStarted {
        /// Starting seat.
        seat: Seat,
        /// Corporation.
        corporation: String,
        /// Par price in L.
        price: i64,
    },
    /// Certificates were bought (1841 §5.2).
    SharesBought {
        /// Buying seat.
        seat: Seat,
        /// Corporation.
        corporation: String,
        /// Percent bought.
        percent: u32,
        /// From the pool (else the IPO).
        from_pool: bool,
        /// L. paid.
        price: i64,
    },
    /// Certificates were sold to the pool (1841 §5.3).
    SharesSold {
        /// Selling seat.
        seat: Seat,
        /// Corporation.
        corporation: String,
        /// Percent sold.
        percent: u32,
        /// L. received from the bank.
        price: i64,
    },
    /// The presidency of a corporation changed (1841 §5.3, §7.5).
    PresidentChanged {
        /// Corporation.
        corporation: String,
        /// New president's seat.
        seat: Seat,
    },
    /// A share price moved (1841 §5.3, §5.5, §6).
    SharePriceChanged {
        /// Corporation.
        corporation: String,
        /// New price in L.
        price: i64,
        /// New row.
        row: u32,
        /// New column.
        col: u32,
    },
    /// A token was placed on the map (1841 §5.4 step 3).
    TokenPlaced {
        /// Corporation.
        corporation: String,
        /// Hex.
        hex: String,
        /// City index.
        city: u32,
    },
    /// A corporation bought its token stock (1841 §5.4 step 4).
    TokensBought {
        /// Corporation.
        corporation: String,
        /// Tokens in all.
        count: u32,
        /// L. paid to the bank.
        price: i64,
    },
    /// A concession paid its owner (Bayard, 1841 §5.5 step 3).
    ConcessionIncome {
        /// Owner.
        seat: Seat,
        /// Concession.
        concession: Concession,
        /// L. received from the bank.
        amount: i64,
    },
    /// An unused concession went back to the bank (1841 §3.2, §5.5 step 4).
    ConcessionReturned {
        /// Former owner.
        seat: Seat,
        /// Concession.
        concession: Concession,
    },
}

/// Every action a seat may take now, with ranges for amounts (`referee.g1841.v1.LegalActions`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LegalActions {
    /// Actions listed completely: pass, and in a stock round every par (one per price), buy
    /// (one per corporation, source and certificate size), sale (one per corporation and
    /// percent), home-token city, token count and concession purchase.
    pub actions: Vec<Action>,
    /// Bids the seat may make: one range per concession.
    pub bids: Vec<BidRange>,
    /// Set when the seat may submit a sealed bid (Version 1).
    pub blind_bid: Option<BlindBidRange>,
}

/// Bids allowed on one concession: any whole amount from `min_price` to `max_price` L.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BidRange {
    /// Concession.
    pub concession: Concession,
    /// Lowest allowed bid in L.
    pub min_price: i64,
    /// Highest allowed bid in L. (the bidder's cash).
    pub max_price: i64,
}

/// Allowed sealed bids: for each concession 0 or at least `min_price` L.; the total at most
/// `max_total` L. (`referee.g1841.v1.BlindBidRange`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BlindBidRange {
    /// Concessions in the order the amounts must be given.
    pub concessions: Vec<Concession>,
    /// Smallest non-zero amount per concession (L.20).
    pub min_price: i64,
    /// Largest total of all amounts (the bidder's cash).
    pub max_total: i64,
}

impl LegalActions {
    /// Whether the seat has nothing to do.
    pub fn is_empty(&self) -> bool {
        self.actions.is_empty() && self.bids.is_empty() && self.blind_bid.is_none()
    }

    /// One concrete, accepted action per entry: each listed action, a bid at `min_price` per
    /// range, and an all-zero sealed bid. This is what [`crate::Game::legal_actions`] returns.
    pub fn representatives(&self) -> Vec<Action> {
        let mut out = self.actions.clone();
        out.extend(self.bids.iter().map(|b| Action::Bid {
            concession: b.concession.as_str().to_string(),
            price: b.min_price,
        }));
        if let Some(bb) = &self.blind_bid {
            out.push(Action::BlindBid {
                amounts: vec![0; bb.concessions.len()],
            });
        }
        out
    }
}
