//! The events of 1841 ([`Event`], `referee.g1841.v1.Event`): what happened while an action
//! was applied — auctions and bids (1841 §4), purchases and sales (§5, §15.3), starts (§5.4),
//! tile lays, tokens, routes, dividends and trains (§9), presidency changes (§7.5), corporate
//! events (§11, §12), emergencies and bankruptcy (§14) and the game end (§13).

use super::*;

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
