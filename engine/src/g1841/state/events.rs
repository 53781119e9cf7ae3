//! The state of the corporate events of an operating round (1841 §11, §12): the events of
//! the first 4-train still queued ([`QueuedEvent`]), the one in progress
//! ([`CorporateEvent`]): the Ferdinandea split (§12.4, [`Split`]), a merger or the Tuscan merge
//! (§12.1, §12.3, [`Merger`], with the assets it moved) or a transformation (§12.2).

use super::*;

/// An event of the first 4-train waiting for the one before it to finish (1841 §11).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum QueuedEvent {
    /// The Ferdinandea split (1841 §12.4).
    FerdinandeaSplit,
    /// The Tuscan merge (1841 §12.3).
    TuscanMerge,
}

/// A corporate event in progress (1841 §11, §12).
// Held boxed (`OperatingRound::event`), one at a time: the merger's size costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CorporateEvent {
    /// The Ferdinandea split of IRSFF into SB and SFL (1841 §12.4).
    Split(Split),
    /// A merger of two corporations into an unstarted non-historical major: voluntary
    /// (1841 §12.1) or the last step of the Tuscan merge into SFLi (§12.3).
    Merger(Merger),
    /// A minor becoming a major (1841 §12.2).
    Transformation(Transformation),
}

/// The Ferdinandea split in progress (1841 §12.4). Tokens, trains, cash, treasury
/// certificates, the presidencies and the pairs of IRSFF shares are handled at once; the
/// stages below wait for players.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Split {
    /// What the split waits for.
    pub stage: SplitStage,
    /// IRSFF's president at the split: he chooses his successor presidency and the pool's
    /// odd share (1841 §12.4).
    pub president: ShareOwner,
    /// The holders taking part in the current stage, in order (1841 §12.1 order: from the
    /// president, each player followed by the corporations he controls, then the pool, then
    /// frozen corporations).
    pub holders: Vec<ShareOwner>,
    /// IRSFF units (10%) each of `holders` still has to exchange (stages `Presidency` and
    /// `SingleShares`; empty otherwise).
    #[serde(default)]
    pub units: Vec<u32>,
    /// Index in `holders` of the holder to decide next.
    pub next: u32,
    /// The successor (SB/SFV or SFL) whose purchases, further round or tokens are decided;
    /// empty in the other stages.
    pub corporation: String,
    /// Whether the first round of purchases of both successors is over.
    pub first_rounds_done: bool,
    /// Successors whose president declined a further round of purchases (or whose further
    /// round sold nothing): no more rounds for them.
    pub purchases_closed: Vec<String>,
    /// Whether a share was bought in the current round of purchases.
    pub bought_this_round: bool,
    /// IRSFF's share price in L. at the split: what a holder whose IRSFF share cannot be
    /// exchanged is paid (FAQ-R3, option `ferdinandea_unexchanged_payout`).
    #[serde(default)]
    pub irsff_price: i64,
}

/// What the Ferdinandea split waits for (1841 §12.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SplitStage {
    /// IRSFF's president (holding less than 40%) chooses which successor's presidency he takes.
    Presidency,
    /// Holders of an odd 10% IRSFF share choose the successor whose share they take.
    SingleShares,
    /// A round of optional purchases of one IPO share of `corporation` per holder.
    Purchases,
    /// `corporation`'s president decides whether another round of purchases follows.
    RepeatRound,
    /// `corporation` may buy extra tokens (Version 2: L.50 each, up to 5).
    Tokens,
}

/// A merger in progress (1841 §12.1, §12.3).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Merger {
    /// The corporation that proposed it (Tuscan merge: the holding corporation).
    pub initiator: String,
    /// The other corporation (Tuscan merge: SSFL, or SFMA in a direct minor merger).
    pub partner: String,
    /// What the merger waits for.
    pub stage: MergerStage,
    /// The corporation being formed; empty until chosen.
    pub target: String,
    /// The new corporation's market cell, once known.
    pub cell: Option<MarketCell>,
    /// The prices the initiator's president chooses between (both majors above L.250).
    pub price_choices: Vec<MarketCell>,
    /// Holders of the old corporations in exchange order.
    pub holders: Vec<ShareOwner>,
    /// Old units (10% of a major) each of `holders` still has to exchange.
    #[serde(default)]
    pub units: Vec<u32>,
    /// Index of the holder to decide next: in stage `Presidency` first over the holders of
    /// a pair (0 … len − 1), then over those of an odd share, 10% or 30% (len … 2·len − 1).
    pub next: u32,
    /// The new president, once known.
    pub president: Option<ShareOwner>,
    /// Whether the president claimed the certificate (paying for it) rather than holding 40%.
    #[serde(default)]
    pub claimed: bool,
    /// Tokens the new corporation owns in all after the merger.
    #[serde(default)]
    pub token_count: u32,
    /// The last step of the Tuscan merge: it cannot fail and forms SFLi (1841 §12.3).
    pub tuscan: bool,
    /// The temporary holding of the Tuscan merge, reset to unstarted at the end: in the last
    /// step (`tuscan`) the corporation merging with SSFL; in the first step (SFLP + SFMA,
    /// `tuscan` false) the corporation being formed, `target` (1841 §12.3).
    pub holding: Option<String>,
    /// Whether the new corporation may still operate in this round (SFLi, 1841 §12.3); a
    /// voluntary merger's never does.
    #[serde(default)]
    pub joins_round: bool,
    /// Tokens the president must still remove from the map (surplus over the token count).
    pub tokens_min_removal: u32,
    /// Tokens the president may still remove from the map.
    pub tokens_max_removal: u32,
    /// The old corporations' assets already moved to the new corporation, with what a failed
    /// merger restores (1841 §12.1; 18xx.games moves them when the new corporation is named,
    /// before the presidency claims; the Tuscan merge's last step likewise). `None` in the
    /// price and corporation stages, once the presidency is settled, and in a merger saved
    /// by an older build (its assets move when the presidency is settled).
    #[serde(default)]
    pub moved: Option<MovedAssets>,
    /// The second corporation's token on each tile whose other city holds the first's
    /// (1841 §12.1), in the order asked in stage `TwoCityTile`: one token of that hex is still
    /// to be removed, this one or the other city's (both are the new corporation's by then).
    /// Empty in a merger saved by an older build (it removed this token itself).
    #[serde(default)]
    pub two_city: Vec<MapToken>,
    /// Who chooses in stage `TwoCityTile` when the new corporation has no president: the
    /// initiator's controller when the merger began (the Tuscan merge's decider; 18xx.games'
    /// `@merger_decider`); `None`: nobody (the second corporation's token goes).
    #[serde(default)]
    pub decider: Option<Seat>,
    /// Odd-share answers given in the sweep over odd shares by holders of three old units
    /// (1841 §12.1 pass 2; 18xx.games asks each holder there once, `cash`/`full`/`pres`):
    /// `Cash` — he declined the claim; `FullShare` — he pays for a full share and, with the
    /// new share of his pair, holds 20%: the first holder to reach 20% is president (R4).
    /// Played when his odd share comes up. Empty in a merger saved by an older build.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pass2: Vec<(ShareOwner, crate::g1841::action::OddShareChoice)>,
}

/// What a major merger moved to its new corporation when the corporation was named
/// (1841 §12.1: cash, trains and certificates of other corporations; the Tuscan merge's last
/// step too, §12.3), kept so that a voluntary merger ending without a president is taken back
/// whole, discards included.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MovedAssets {
    /// The initiator's cash before the move, in L.
    pub initiator_cash: i64,
    /// The partner's cash before the move, in L.
    pub partner_cash: i64,
    /// The initiator's trains before the move (ids, in order).
    pub initiator_trains: Vec<String>,
    /// The partner's trains before the move (ids, in order).
    pub partner_trains: Vec<String>,
    /// The old corporations' certificates of other corporations, moved to the new
    /// corporation's treasury, with their owner before (shares of each old corporation held
    /// by the other stay until the exchange eliminates them).
    pub certificates: Vec<MovedCertificate>,
    /// `State::next_market_arrival` before the new corporation was placed on its cell.
    pub next_market_arrival: u64,
    /// The seat that decides the new corporation's discards while it has no president: the
    /// initiator's controller when the corporation was named (the Tuscan merge's decider;
    /// 18xx.games' `@merger_decider`); `None`: nobody (automatic, I26).
    #[serde(default)]
    pub decider: Option<Seat>,
}

/// One certificate a merger moved: `corporation`'s certificate number `index` (0-based, as in
/// `Corporation::certificates`) and its owner before the move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MovedCertificate {
    /// The corporation whose certificate it is.
    pub corporation: String,
    /// Its index in that corporation's certificates.
    pub index: u32,
    /// Its owner before the move (the initiator or the partner).
    pub owner: ShareOwner,
}

/// What a merger waits for (1841 §12.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum MergerStage {
    /// The initiator's president chooses one of two prices above L.250.
    Price,
    /// The initiator's president chooses the unstarted non-historical major to form.
    Corporation,
    /// Holders in order may claim the new president's certificate.
    Presidency,
    /// Holders of an odd old share take cash or pay for a full new share.
    OddShares,
    /// The two old corporations held the two different cities of one tile (yellow Torino,
    /// yellow Firenze): the new president, or the initiator's president when there is none,
    /// chooses which of the two tokens is removed (1841 §12.1; 18xx.games asks here, after the
    /// exchange and the same-city duplicates, before the removals above the token count:
    /// `merger_tokens_start`).
    TwoCityTile,
    /// The new president removes tokens from the map.
    Tokens,
}

/// A market cell (1841 §6), 0-based.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MarketCell {
    /// Row.
    pub row: u32,
    /// Column.
    pub col: u32,
}

/// A transformation in progress (1841 §12.2): the shares are already converted.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Transformation {
    /// The minor that transformed (reset or closed).
    pub minor: String,
    /// The major it became.
    pub major: String,
    /// 1 = purchase round of the shareholders, 2 = of all players, 3 = tokens, 4 = over,
    /// 5 = the compulsory second token raised by emergency money raising (1841 §12.2, §14;
    /// `operating_round::events::transform::TOKEN_EMERGENCY`).
    pub stage: u32,
    /// Holders of the current purchase round, in order.
    pub holders: Vec<ShareOwner>,
    /// Index in `holders` of the holder to decide next.
    pub next: u32,
    /// The Tuscan merge's decider (1841 §12.3: the president of the participant with the best
    /// stock value when the merge began, else the first 4-train's buyer), fixed for the whole
    /// merge as 18xx.games' `@tuscan_merge_decider`: he chooses for a holding nobody controls
    /// and leads its merger with SSFL, even if another player has become the holding's
    /// president in the purchase rounds. `None` for a voluntary transformation, and in a
    /// Tuscan transformation saved by an older build (the decider is then found again at the
    /// end, as those builds did).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decider: Option<crate::Seat>,
}
