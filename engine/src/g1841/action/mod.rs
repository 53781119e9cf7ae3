//! Actions, events and legal-action ranges of 1841. Mirror `referee.g1841.v1.Action`,
//! `Event` and `LegalActions`.
//!
//! This module holds the actions ([`Action`], [`OddShareChoice`]) and the legal-action
//! ranges ([`LegalActions`] and its parts); the events are in [`event`].

use serde::{Deserialize, Serialize};

use super::concession::Concession;
use super::state::{PurchaseItem, PurchaseOffer, SealedBid, ShareOwner};
use crate::Seat;

mod event;

pub use event::Event;

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
    /// Lay or upgrade a tile (operating round, 1841 §9.1): tile number on a hex with a
    /// rotation 0–5.
    LayTile {
        /// Hex, e.g. `E9`.
        hex: String,
        /// Tile number, e.g. `202`.
        tile: String,
        /// Rotation 0–5 (1841 §0.3).
        rotation: u32,
    },
    /// Buy a train (operating round, 1841 §9.6): `train` is the train id (`2-0`), `from` is
    /// `depot`, `pool` or the selling corporation's symbol.
    BuyTrain {
        /// Train id `<type>-<n>` (18xx ids).
        train: String,
        /// `depot`, `pool` or a corporation symbol.
        from: String,
        /// Price in L. (fixed for depot/pool, any amount in range from a corporation).
        price: i64,
    },
    /// Run trains (operating round, 1841 §9.3): the submitted routes, at most one per train;
    /// an empty list runs nothing.
    RunRoutes {
        /// The routes.
        routes: Vec<Route>,
    },
    /// Pay the revenue out or withhold it (operating round, 1841 §9.4).
    Dividend {
        /// Pay out (else withhold).
        payout: bool,
    },
    /// Buy another corporation's token (operating round, 1841 §9.5): the operating
    /// corporation's unplaced token takes the slot of `seller`'s token in city `city` of
    /// `hex`; `price` (at least L.1) goes to the seller, whose token returns to its charter.
    BuyToken {
        /// Hex.
        hex: String,
        /// City index on the tile.
        city: u32,
        /// The corporation whose token is bought.
        seller: String,
        /// Price in L.
        price: i64,
    },
    /// Ferdinandea split: IRSFF's president, holding less than 40%, takes the presidency of
    /// `corporation` (SB or SFL; Version 1: SFV or SFL); the other goes to the next holder
    /// with 20% (1841 §12.4).
    ChooseSplitPresidency {
        /// Successor symbol.
        corporation: String,
    },
    /// Ferdinandea split: exchange an odd 10% IRSFF share for one share of `corporation`
    /// (1841 §12.4).
    ExchangeSplitShare {
        /// Successor symbol.
        corporation: String,
    },
    /// Ferdinandea split: the successor's president calls (or declines) another round of
    /// optional share purchases (1841 §12.4).
    RepeatPurchaseRound {
        /// Another round.
        repeat: bool,
    },
    /// Merge step: propose a merger of the operating corporation with `partner`
    /// (1841 §12.1).
    ProposeMerger {
        /// The other corporation.
        partner: String,
    },
    /// Merger of two majors both above L.250: the new price is one of their prices, chosen
    /// by the initiator's president (1841 §12.1).
    ChooseMergerPrice {
        /// Price in L.
        price: i64,
    },
    /// Merger: the unstarted non-historical major to form (1841 §12.1).
    FormCorporation {
        /// Corporation symbol.
        corporation: String,
    },
    /// Merger: claim the new president's certificate for the whole old holding, paying
    /// price × (40 − held%) ÷ 20 rounded down to the new corporation, or decline
    /// (1841 §12.1, FAQ-R6).
    ClaimPresidency {
        /// Claim (else decline).
        claim: bool,
    },
    /// Merger: an odd old share is sold to the bank for half the new price, or completed to a
    /// full new share for half the new price paid to the new corporation (1841 §12.1).
    ExchangeOddShare {
        /// Cash or a full share.
        choice: OddShareChoice,
    },
    /// Merger: the new president removes one of the new corporation's tokens from the map
    /// (1841 §12.1 tokens, §12.3).
    RemoveToken {
        /// Hex.
        hex: String,
        /// City index.
        city: u32,
    },
    /// Transform step: the operating minor becomes the unstarted non-historical major
    /// `corporation` (1841 §12.2).
    Transform {
        /// Major symbol.
        corporation: String,
    },
    /// Emergency sale (operating round, 1841 §14): `percent` of `corporation` sold to the pool
    /// at half price by `seller` (a corporation in the needy corporation's chain of control,
    /// its own IPO shares when it names itself) or, when `None`, by the controlling player.
    EmergencySell {
        /// The selling corporation; `None` for the controlling player.
        seller: Option<String>,
        /// The corporation whose certificates are sold.
        corporation: String,
        /// Percent sold.
        percent: u32,
    },
    /// Declare bankruptcy (operating round, 1841 §14), when even selling everything cannot pay
    /// the train: resign (`loan == false`) or take a L.500 bank loan and go on.
    DeclareBankruptcy {
        /// Take the L.500 loan instead of resigning.
        loan: bool,
    },
    /// Discard a train of a corporation over its train limit to the bank pool (operating round
    /// after a phase change, 1841 §9.6, §10); taken by that corporation's controlling seat.
    DiscardTrain {
        /// The corporation over its limit.
        corporation: String,
        /// Train id.
        train: String,
    },
    /// Offer to buy `item` from the player in seat `seller` for `price` L. (`p2p_purchases`,
    /// 1841 §3.2, §5.2, §15.3): the stock-round seat on turn, as his one purchase of the turn
    /// (after any sales). The seller then answers with [`Action::AnswerOffer`]. Price: at
    /// least L.1 (more than any price the seller declined for the same thing this turn), at
    /// most the buyer's cash. Only players buy from players (FAQ-C18).
    OfferPurchase {
        /// The seat selling.
        seller: Seat,
        /// Shares of one corporation or a concession.
        item: PurchaseItem,
        /// Price in L., paid to the seller.
        price: i64,
    },
    /// The seller's answer to the waiting purchase offer (1841 §15.3): accept (the item and
    /// the money change hands and the buyer's turn ends) or decline (nothing changes; the
    /// buyer's turn goes on).
    AnswerOffer {
        /// Accept (else decline).
        accept: bool,
    },
}

/// What a holder does with an odd old share in a merger (1841 §12.1 pass 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum OddShareChoice {
    /// Sell it to the bank for half the new price (rounded down).
    Cash,
    /// Pay half the new price (rounded down) to the new corporation for a full share.
    FullShare,
}

impl Action {
    /// The action's kind in plain words, for messages ("lay a tile", "par").
    pub fn kind_name(&self) -> &'static str {
        match self {
            Action::Bid { .. } => "bid",
            Action::Pass => "pass",
            Action::BlindBid { .. } => "sealed bid",
            Action::Par { .. } => "par",
            Action::BuyShares { .. } => "buy shares",
            Action::SellShares { .. } => "sell shares",
            Action::PlaceToken { .. } => "place a token",
            Action::BuyTokens { .. } => "buy tokens",
            Action::BuyConcession { .. } => "buy a concession",
            Action::LayTile { .. } => "lay a tile",
            Action::BuyTrain { .. } => "buy a train",
            Action::RunRoutes { .. } => "run routes",
            Action::Dividend { .. } => "dividend",
            Action::BuyToken { .. } => "buy a token",
            Action::ChooseSplitPresidency { .. } => "choose a split presidency",
            Action::ExchangeSplitShare { .. } => "exchange a split share",
            Action::RepeatPurchaseRound { .. } => "repeat the purchase round",
            Action::ProposeMerger { .. } => "propose a merger",
            Action::ChooseMergerPrice { .. } => "choose the merger price",
            Action::FormCorporation { .. } => "form a corporation",
            Action::ClaimPresidency { .. } => "claim the presidency",
            Action::ExchangeOddShare { .. } => "exchange an odd share",
            Action::RemoveToken { .. } => "remove a token",
            Action::Transform { .. } => "transform",
            Action::DiscardTrain { .. } => "discard a train",
            Action::EmergencySell { .. } => "emergency sale",
            Action::DeclareBankruptcy { .. } => "declare bankruptcy",
            Action::OfferPurchase { .. } => "offer a purchase",
            Action::AnswerOffer { .. } => "answer an offer",
        }
    }
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
    /// Trains that may be bought from other corporations at any price in a range
    /// (1841 §9.6).
    #[serde(default)]
    pub train_purchases: Vec<TrainPurchaseRange>,
    /// Set when the seat must submit routes ([`Action::RunRoutes`]) for these trains
    /// (1841 §9.3); any valid route set is accepted.
    #[serde(default)]
    pub run_routes: Option<Vec<String>>,
    /// Tokens of other corporations that may be bought at any price in the range
    /// (1841 §9.5).
    #[serde(default)]
    pub token_purchases: Vec<TokenPurchaseRange>,
    /// Purchases from other players that may be offered at any price in the range
    /// (`p2p_purchases`, 1841 §5.2, §15.3).
    #[serde(default)]
    pub offers: Vec<OfferRange>,
}

/// Something the seat may offer to buy from another player at any price in the range
/// (`p2p_purchases`, 1841 §3.2, §5.2, §15.3).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OfferRange {
    /// The seat selling.
    pub seller: Seat,
    /// Shares of one corporation or a concession.
    pub item: PurchaseItem,
    /// Smallest price in L. (L.1, or L.1 more than a price the seller declined this turn).
    pub min_price: i64,
    /// Largest price in L. (the buyer's cash).
    pub max_price: i64,
    /// What the item is worth at market in L.: the certificates at the current share price;
    /// a concession at its face value, plus the president's certificate (2× the share
    /// price) that comes with a locked one. Only a guide: any price in range is accepted.
    pub market_value: i64,
}

/// A token of another corporation that may be bought (1841 §9.5).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TokenPurchaseRange {
    /// Hex.
    pub hex: String,
    /// City index.
    pub city: u32,
    /// Seller.
    pub seller: String,
    /// Smallest price (L.1).
    pub min_price: i64,
    /// Largest price (the buyer's treasury).
    pub max_price: i64,
}

/// One train's route (1841 §9.3): the stops in order and, between consecutive stops, the
/// hexes the track passes (18xx `connections`: the chain from the stop's hex to the next
/// stop's hex; a single hex when both stops lie on one tile).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Route {
    /// Train id.
    pub train: String,
    /// Stops in order.
    pub stops: Vec<Stop>,
    /// `stops.len() - 1` hex chains.
    pub connections: Vec<Vec<String>>,
}

/// A revenue location on the map: node `node` (index among the tile's nodes) of `hex`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Stop {
    /// Hex.
    pub hex: String,
    /// Node index on the hex's current tile.
    pub node: u32,
}

/// A train of another corporation that may be bought at any price in the range (1841 §9.6).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TrainPurchaseRange {
    /// Train id.
    pub train: String,
    /// Selling corporation.
    pub from: String,
    /// Smallest price (L.1).
    pub min_price: i64,
    /// Largest price (the buyer's treasury).
    pub max_price: i64,
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
        self.actions.is_empty()
            && self.bids.is_empty()
            && self.blind_bid.is_none()
            && self.train_purchases.is_empty()
            && self.run_routes.is_none()
            && self.token_purchases.is_empty()
            && self.offers.is_empty()
    }

    /// One concrete, accepted action per entry: each listed action, a bid at `min_price` per
    /// range, trains and tokens at `min_price`, an offer per [`OfferRange`] at its
    /// `market_value` (kept within the range), and an all-zero sealed bid. This is what
    /// [`crate::Game::legal_actions`] returns.
    pub fn representatives(&self) -> Vec<Action> {
        let mut out = self.actions.clone();
        out.extend(self.bids.iter().map(|b| Action::Bid {
            concession: b.concession.as_str().to_string(),
            price: b.min_price,
        }));
        out.extend(self.train_purchases.iter().map(|t| Action::BuyTrain {
            train: t.train.clone(),
            from: t.from.clone(),
            price: t.min_price,
        }));
        out.extend(self.token_purchases.iter().map(|t| Action::BuyToken {
            hex: t.hex.clone(),
            city: t.city,
            seller: t.seller.clone(),
            price: t.min_price,
        }));
        out.extend(self.offers.iter().map(|o| {
            Action::OfferPurchase {
                seller: o.seller,
                item: o.item.clone(),
                price: o
                    .market_value
                    .clamp(o.min_price, o.max_price.max(o.min_price)),
            }
        }));
        if self.run_routes.is_some() {
            out.push(Action::RunRoutes { routes: Vec::new() });
        }
        if let Some(bb) = &self.blind_bid {
            out.push(Action::BlindBid {
                amounts: vec![0; bb.concessions.len()],
            });
        }
        out
    }
}
