//! Actions, events and legal-action ranges of 1841. Mirror `referee.g1841.v1.Action`,
//! `Event` and `LegalActions`.

use serde::{Deserialize, Serialize};

use super::concession::Concession;
use super::state::{PurchaseItem, PurchaseOffer, SealedBid, ShareOwner};
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
        /// Starting seat (the controlling seat when a corporation starts it).
        seat: Seat,
        /// Corporation.
        corporation: String,
        /// Par price in L.
        price: i64,
        /// The corporation that started it in its corporate share step and holds its
        /// president's certificate (1841 §3.4, §9.7); `None` when a player started it.
        #[serde(default)]
        by_corporation: Option<String>,
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
    /// A corporation begins its operating turn (1841 §8).
    OperatingTurn {
        /// The corporation.
        corporation: String,
    },
    /// A tile was laid or upgraded (1841 §9.1).
    TileLaid {
        /// The corporation.
        corporation: String,
        /// Hex.
        hex: String,
        /// Tile number.
        tile: String,
        /// Rotation.
        rotation: u32,
        /// Terrain/upgrade cost paid to the bank.
        cost: i64,
    },
    /// A corporation ran no train: it withholds nothing (1841 §9.4).
    DidNotRun {
        /// The corporation.
        corporation: String,
    },
    /// A train was bought (1841 §9.6).
    TrainBought {
        /// Buyer.
        corporation: String,
        /// Train id.
        train: String,
        /// `depot`, `pool` or the seller.
        from: String,
        /// Price paid.
        price: i64,
    },
    /// A new phase began (1841 §10).
    PhaseChanged {
        /// Phase name.
        phase: String,
    },
    /// Trains rusted (1841 §10).
    TrainsRusted {
        /// Train ids.
        trains: Vec<String>,
    },
    /// A corporation bought a certificate (1841 §9.7).
    CorporationBoughtShares {
        /// Buyer.
        buyer: String,
        /// The corporation whose certificate it is.
        corporation: String,
        /// Percent.
        percent: u32,
        /// From the pool (else the IPO).
        from_pool: bool,
        /// Price paid.
        price: i64,
    },
    /// Trains ran (1841 §9.3).
    RoutesRun {
        /// The corporation.
        corporation: String,
        /// Revenue per route, in route order.
        revenues: Vec<i64>,
        /// Total revenue.
        revenue: i64,
    },
    /// Revenue paid out (1841 §9.4).
    DividendPaid {
        /// The corporation.
        corporation: String,
        /// Total revenue.
        revenue: i64,
        /// Paid to the corporation itself for its IPO shares.
        to_treasury: i64,
    },
    /// Revenue withheld into the treasury (1841 §9.4).
    Withheld {
        /// The corporation.
        corporation: String,
        /// Revenue.
        revenue: i64,
    },
    /// A corporation sold certificates to the pool (1841 §9.7; its own IPO shares: issuing).
    CorporationSoldShares {
        /// Seller.
        seller: String,
        /// The corporation whose certificates they are.
        corporation: String,
        /// Percent sold.
        percent: u32,
        /// Proceeds.
        price: i64,
    },
    /// A token was bought from another corporation (1841 §9.5).
    TokenBought {
        /// Buyer.
        corporation: String,
        /// Seller.
        seller: String,
        /// Hex.
        hex: String,
        /// City.
        city: u32,
        /// Price paid to the seller.
        price: i64,
    },
    /// A concession was removed from the game (1841 §11 step 2).
    ConcessionClosed {
        /// Its owner, `None` when the bank held it.
        seat: Option<Seat>,
        /// Concession.
        concession: Concession,
    },
    /// A corporation closed for good (1841 §11 step 2, §12).
    CorporationClosed {
        /// The corporation.
        corporation: String,
    },
    /// A non-historical corporation that merged or transformed is unstarted again and may be
    /// started anew (1841 §3.4).
    CorporationAvailable {
        /// The corporation.
        corporation: String,
    },
    /// A corporation was formed by an event (1841 §12): the split successors, a merger's or a
    /// transformation's new corporation, SFLi.
    CorporationFormed {
        /// The new corporation.
        corporation: String,
        /// The corporations it comes from.
        from: Vec<String>,
        /// Its price in L.
        price: i64,
        /// Market row.
        row: u32,
        /// Market column.
        col: u32,
    },
    /// A holder received certificates of a new corporation for old ones (1841 §12).
    SharesExchanged {
        /// The holder.
        holder: ShareOwner,
        /// The new corporation.
        corporation: String,
        /// Percent received (net: a holder who gives one of his new shares back with a pair
        /// for the president's certificate, once the new shares ran out, receives 10% with
        /// `president`; 1841 §12.1).
        percent: u32,
        /// Whether that includes the president's certificate.
        president: bool,
    },
    /// Money paid in an exchange (1841 §12.1): a holder paid the new corporation for the
    /// presidency or a full share (`to_corporation`), or the bank paid a holder for an odd or
    /// surplus share.
    ExchangePayment {
        /// The holder.
        holder: ShareOwner,
        /// The new corporation.
        corporation: String,
        /// Amount in L.
        amount: i64,
        /// Paid by the holder to the corporation (else by the bank to the holder).
        to_corporation: bool,
    },
    /// The presidency of a corporation went to another holder (1841 §7.5, §11, §12): a
    /// corporation or the pool as well as a player.
    PresidencyMoved {
        /// The corporation.
        corporation: String,
        /// The new holder of the president's certificate.
        president: ShareOwner,
    },
    /// A corporation became frozen (no controlling player, 1841 §7.4) or was unfrozen.
    FrozenChanged {
        /// The corporation.
        corporation: String,
        /// Frozen now.
        frozen: bool,
    },
    /// A token left the map in a merger (1841 §12.1, §12.3).
    TokenRemoved {
        /// The corporation.
        corporation: String,
        /// Hex.
        hex: String,
        /// City index.
        city: u32,
    },
    /// A proposed merger could not happen: nobody takes the presidency, or it would create
    /// mutual control (1841 §12.1, FAQ-R1, FAQ-R6); nothing changed.
    MergerFailed {
        /// The proposing corporation.
        initiator: String,
        /// The partner.
        partner: String,
    },
    /// An emergency sale at half price (1841 §14).
    EmergencySold {
        /// The selling corporation; `None` for the controlling player `seat`.
        seller: Option<String>,
        /// The controlling seat.
        seat: Seat,
        /// The corporation whose certificates were sold.
        corporation: String,
        /// Percent sold.
        percent: u32,
        /// Proceeds in L.
        proceeds: i64,
    },
    /// Cash given to the needy corporation in an emergency (1841 §14), by a corporation of its
    /// chain (`from`) or by the controlling player (`None`).
    EmergencyFunds {
        /// The needy corporation.
        corporation: String,
        /// The giving corporation; `None` for the controlling player.
        from: Option<String>,
        /// Amount in L.
        amount: i64,
    },
    /// A player went bankrupt (1841 §14).
    Bankrupt {
        /// The player.
        seat: Seat,
        /// The corporation that could not buy its train.
        corporation: String,
        /// Took the L.500 loan (else resigned).
        loan: bool,
    },
    /// The game ended (1841 §13).
    GameEnded {
        /// The trigger: `bank`, `stock_market`, `offboards` or `bankrupt`.
        reason: String,
        /// Final value of each player in L., by seat.
        scores: Vec<i64>,
    },
    /// A corporation over its train limit discarded a train to the bank pool (1841 §9.6).
    TrainDiscarded {
        /// The corporation.
        corporation: String,
        /// Train id.
        train: String,
    },
    /// A player offered to buy something from another player (1841 §15.3); the seller must
    /// answer.
    OfferMade {
        /// The offer.
        offer: PurchaseOffer,
    },
    /// The seller accepted: the item went to the buyer, the price to the seller (1841 §3.2,
    /// §5.2). Presidency changes follow as `PresidentChanged` / `PresidencyMoved`.
    OfferAccepted {
        /// The offer.
        offer: PurchaseOffer,
    },
    /// The seller declined; nothing changed hands (1841 §15.3).
    OfferDeclined {
        /// The offer.
        offer: PurchaseOffer,
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
