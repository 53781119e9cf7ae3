//! One recorded action as this engine's actions: [`ImportedAction::to_action`] reads every
//! 18xx action type from its fields (the concession round's bids, 1841 §4; shares, §5; tiles,
//! tokens, routes, trains and token purchases, §9; corporate events, §12), and
//! [`ImportedAction::to_actions`] plays a purchase from another player as the buyer's offer and
//! the seller's acceptance (§15.3). Also the helpers the mapping shares: a token city's hex,
//! a route's stops in route order, the holders of a city's tokens ([`token_holders`], §9.5).

use serde_json::Value;

use super::{Entity, ImportError, ImportedAction, as_whole_number, notation};
use crate::g1841::G1841;
use crate::g1841::action::{Action, Route, Stop};
use crate::g1841::corporation::controller;
use crate::g1841::map;
use crate::g1841::operating_round;
use crate::g1841::state::{CorporateEvent, OperatingStep, PurchaseItem, Round, ShareOwner, State};
use crate::{Game, Seat};

impl ImportedAction {
    /// The action as a concession-round action of this engine, with the acting seat:
    /// `bid` → [`Action::Bid`] (`company`, `price`), `pass` → [`Action::Pass`],
    /// `blind_bid` → [`Action::BlindBid`] (`bids`). `Ok(None)` for other types or
    /// non-player entities.
    ///
    /// Errors: [`ImportError::BadAction`] when a `bid`/`blind_bid` lacks its fields.
    pub fn concession_round_action(&self) -> Result<Option<(Seat, Action)>, ImportError> {
        let Entity::Player(seat) = self.entity else {
            return Ok(None);
        };
        let bad = |field: &str, reason: &str| ImportError::BadAction {
            id: self.id,
            field: field.to_string(),
            reason: reason.to_string(),
        };
        let action = match self.kind.as_str() {
            "pass" => Action::Pass,
            "bid" => Action::Bid {
                concession: self
                    .field("company")
                    .and_then(Value::as_str)
                    .ok_or_else(|| bad("company", "bid without `company`"))?
                    .to_string(),
                price: self.amount("price")?,
            },
            "blind_bid" => Action::BlindBid {
                amounts: self
                    .field("bids")
                    .and_then(Value::as_array)
                    .ok_or_else(|| bad("bids", "blind_bid without `bids`"))?
                    .iter()
                    .map(|v| {
                        as_whole_number(v)
                            .ok_or_else(|| bad("bids", "non-integer amount in `bids`"))
                    })
                    .collect::<Result<_, _>>()?,
            },
            _ => return Ok(None),
        };
        Ok(Some((seat, action)))
    }
}

impl ImportedAction {
    /// The action as an action of this engine with the acting seat, in the context of
    /// `state` (the state before the action). Mapping (one place for all of it):
    /// * `bid`, `blind_bid`, player `pass` — as [`ImportedAction::concession_round_action`];
    /// * `par` (`corporation`, `share_price` `"price,row,col"`) → [`Action::Par`];
    /// * `buy_shares` (`shares` `["SFTG_3"]`, `percent`) → [`Action::BuyShares`], from the
    ///   pool when the record put share `SFTG_3` there ([`ImportedAction::from_pool`]; for a
    ///   hand-made action without it, when certificate 3 of SFTG lies in the pool in `state`);
    /// * `sell_shares` (`shares`, `percent`) → [`Action::SellShares`];
    /// * `choose` by a corporation (`choice` = total token count) → [`Action::BuyTokens`];
    /// * `place_token` by a corporation (`city` `"R14-0-0"` = hex R14, city 0) →
    ///   [`Action::PlaceToken`];
    /// * `buy_company` (`company`) → [`Action::BuyConcession`];
    /// * with `p2p_purchases`, a purchase from another player → the buyer's
    ///   [`Action::OfferPurchase`] only; [`ImportedAction::to_actions`] adds the seller's
    ///   acceptance;
    /// * a corporation's `pass` → [`Action::Pass`].
    ///
    /// A corporation acts through the player at the end of its chain of control (1841 §7.2).
    /// * `lay_tile` (`hex`, `tile` `<number>-<copy>`, `rotation`) → [`Action::LayTile`];
    /// * `buy_train` (`train` id, `price`) → [`Action::BuyTrain`], the seller found from the
    ///   state (a corporation owning that id, the pool, else the depot);
    /// * a corporation's `buy_shares` → [`Action::BuyShares`] (corporate purchase, 1841 §9.7).
    ///
    /// `Ok(None)` for action types not mapped yet (`run_routes`, `dividend`, …).
    ///
    /// Errors: [`ImportError::BadAction`] for missing or ill-formed fields, or a corporation
    /// entity without a controlling player.
    pub fn to_action(&self, state: &State) -> Result<Option<(Seat, Action)>, ImportError> {
        if self.player_purchase(state)?.is_some() {
            return Ok(self.to_actions(state)?.into_iter().next());
        }
        let bad = |field: &str, reason: String| ImportError::BadAction {
            id: self.id,
            field: field.to_string(),
            reason,
        };
        let str_field = |name: &str| {
            self.field(name)
                .and_then(Value::as_str)
                .ok_or_else(|| bad(name, format!("{} without `{name}`", self.kind)))
        };
        let seat = match &self.entity {
            Entity::Player(s) => *s,
            // A discard is decided by `discard_seat`: the controller, or for a merger's new
            // corporation without a president yet the initiator's controller (1841 §12.1).
            Entity::Corporation(sym) if self.kind == "discard_train" => {
                operating_round::discard_seat(state, sym).ok_or_else(|| {
                    bad(
                        "entity",
                        format!("corporation {sym} has no controlling player"),
                    )
                })?
            }
            Entity::Corporation(sym) => controller(state, sym).ok_or_else(|| {
                bad(
                    "entity",
                    format!("corporation {sym} has no controlling player"),
                )
            })?,
            Entity::Other(e) => return Err(bad("entity", format!("unknown entity `{e}`"))),
        };
        let first_share = || -> Result<(String, usize), ImportError> {
            let id = self
                .fields
                .first_share()
                .ok_or_else(|| bad("shares", format!("{} without `shares`", self.kind)))?;
            let (sym, index) = notation::parse_share_id(id)
                .ok_or_else(|| bad("shares", format!("share id `{id}` is not `<CORP>_<n>`")))?;
            Ok((sym.to_string(), index))
        };
        let percent = || {
            self.field("percent")
                .and_then(Value::as_u64)
                .and_then(|p| u32::try_from(p).ok())
                .ok_or_else(|| bad("percent", format!("{} without `percent`", self.kind)))
        };
        let action = match self.kind.as_str() {
            "bid" | "blind_bid" => return self.concession_round_action(),
            "pass" => Action::Pass,
            "par" => {
                let price_text = str_field("share_price")?;
                let price = notation::parse_share_price(price_text).ok_or_else(|| {
                    bad(
                        "share_price",
                        format!("share_price `{price_text}` is not `price,row,col`"),
                    )
                })?;
                Action::Par {
                    corporation: str_field("corporation")?.to_string(),
                    price,
                }
            }
            "buy_shares" => {
                let (sym, index) = first_share()?;
                let from_pool = self.from_pool.unwrap_or_else(|| {
                    state
                        .corporation(&sym)
                        .and_then(|c| c.certificates.get(index))
                        .is_some_and(|c| c.owner == ShareOwner::Pool)
                }) || only_the_pool_has(state, &sym, index);
                Action::BuyShares {
                    corporation: sym,
                    from_pool,
                    percent: percent()?,
                }
            }
            // 1841 §14: sales during emergency money raising, by a corporation of the chain or
            // by the controlling player.
            // 18xx.games' train step records every corporate sale with the operating
            // corporation as entity, the seller being the owner of the bundle
            // (`G1841::Step::BuyTrain#process_sell_shares`: `action.bundle.owner`); a sale
            // recorded by the seller itself reads the same.
            //
            // The seller: the corporation that held the first share by the record
            // ([`ImportedAction::sold_by`]), else the holder of this engine's certificate
            // with that index (a corporation's own treasury shares: the corporation itself;
            // this engine's indices are 18xx's ids in its own exports), else the only
            // corporation that may sell that much of it now — whichever the rules list as a
            // sale of the seat now.
            "sell_shares"
                if operating_round::in_emergency(state)
                    || operating_round::events::transform::in_token_emergency(state) =>
            {
                let (sym, index) = first_share()?;
                let percent = percent()?;
                let seller = match &self.entity {
                    Entity::Corporation(entity) => {
                        let by_index = match state
                            .corporation(&sym)
                            .and_then(|c| c.certificates.get(index))
                            .map(|c| &c.owner)
                        {
                            Some(ShareOwner::Corporation(owner)) => owner.clone(),
                            // A corporation's own treasury (IPO) shares, sold by it.
                            Some(ShareOwner::Ipo) => sym.clone(),
                            _ => entity.clone(),
                        };
                        let sellers: Vec<String> = G1841::legal_actions(state, seat)
                            .into_iter()
                            .filter_map(|a| match a {
                                Action::EmergencySell {
                                    seller: Some(s),
                                    corporation,
                                    percent: p,
                                } if corporation == sym && p == percent => Some(s),
                                _ => None,
                            })
                            .collect();
                        let listed = |s: &String| sellers.contains(s);
                        Some(match &self.sold_by {
                            Some(owner) if listed(owner) => owner.clone(),
                            _ if listed(&by_index) => by_index,
                            _ if sellers.len() == 1 => sellers[0].clone(),
                            _ => by_index,
                        })
                    }
                    _ => None,
                };
                Action::EmergencySell {
                    seller,
                    corporation: sym,
                    percent,
                }
            }
            "sell_shares" => Action::SellShares {
                corporation: first_share()?.0,
                percent: percent()?,
            },
            "bankrupt" => Action::DeclareBankruptcy {
                loan: self.field("option").and_then(as_whole_number) == Some(1),
            },
            "choose" => self.choose_action(state)?,
            "merge" => {
                let corporation = str_field("corporation")?.to_string();
                match state.round {
                    Round::OperatingRound(ref r) => match (r.event.as_deref(), r.step) {
                        (Some(CorporateEvent::Merger(_)), _) => {
                            Action::FormCorporation { corporation }
                        }
                        (None, OperatingStep::Transform) => Action::Transform { corporation },
                        _ => Action::ProposeMerger {
                            partner: corporation,
                        },
                    },
                    _ => return Err(bad("type", "merge outside an operating round".into())),
                }
            }
            "remove_token" => {
                let city = str_field("city")?;
                let (hex, index) = self.city_of(state, city)?;
                Action::RemoveToken { hex, city: index }
            }
            "place_token" => {
                let city = str_field("city")?;
                let (first, _, index) = notation::parse_city_id(city).ok_or_else(|| {
                    bad(
                        "city",
                        format!("city `{city}` is not `<tile>-<copy>-<city>`"),
                    )
                })?;
                // 18xx names cities `<hex>-0-<i>` on printed tiles and `<tile>-<copy>-<i>` on
                // laid tiles: find the hex carrying that tile among the legal placements.
                let hex = if map::map(&state.options).hexes.contains_key(first) {
                    first.to_string()
                } else if let Some(h) = &self.tile_hex {
                    h.clone()
                } else {
                    operating_round::legal_tokens(state)
                        .into_iter()
                        .find(|t| {
                            state
                                .operations
                                .tiles
                                .get(&t.hex)
                                .is_some_and(|p| p.tile == first)
                        })
                        .map(|t| t.hex)
                        .ok_or_else(|| {
                            bad("city", format!("no placement on tile of city `{city}`"))
                        })?
                };
                Action::PlaceToken { hex, city: index }
            }
            "discard_train" => Action::DiscardTrain {
                corporation: match &self.entity {
                    Entity::Corporation(sym) => sym.clone(),
                    _ => return Err(bad("entity", "discard_train by a non-corporation".into())),
                },
                train: str_field("train")?.to_string(),
            },
            "buy_company" => Action::BuyConcession {
                concession: str_field("company")?.to_string(),
            },
            "lay_tile" => {
                let tile = str_field("tile")?;
                Action::LayTile {
                    hex: str_field("hex")?.to_string(),
                    tile: notation::tile_number(tile).to_string(),
                    rotation: self
                        .field("rotation")
                        .and_then(as_whole_number)
                        .and_then(|r| u32::try_from(r).ok())
                        .ok_or_else(|| bad("rotation", "lay_tile without `rotation`".into()))?,
                }
            }
            "buy_train" => {
                let train = str_field("train")?.to_string();
                let ops = &state.operations;
                let from = if ops.pool_trains.contains(&train) {
                    "pool".to_string()
                } else if let Some((owner, _)) =
                    ops.trains.iter().find(|(_, list)| list.contains(&train))
                {
                    owner.clone()
                } else {
                    "depot".to_string()
                };
                Action::BuyTrain {
                    train,
                    from,
                    price: self.amount("price")?,
                }
            }
            "run_routes" => {
                let routes = self
                    .fields
                    .routes()
                    .ok_or_else(|| bad("routes", "run_routes without `routes`".into()))?;
                let mut out = Vec::new();
                for r in routes {
                    let train = r
                        .train
                        .0
                        .as_ref()
                        .ok_or_else(|| bad("routes[].train", "route without `train`".into()))?
                        .as_str()
                        .to_owned();
                    let stops: Vec<Stop> = r
                        .nodes
                        .0
                        .as_ref()
                        .ok_or_else(|| bad("routes[].nodes", "route without `nodes`".into()))?
                        .iter()
                        .map(|n| {
                            let t = n.0.as_deref().unwrap_or_default();
                            let (hex, node) = notation::parse_node_id(t).ok_or_else(|| {
                                bad("routes[].nodes", format!("node `{t}` is not `<hex>-<n>`"))
                            })?;
                            Ok(Stop {
                                hex: hex.to_string(),
                                node,
                            })
                        })
                        .collect::<Result<Vec<_>, ImportError>>()?;
                    let mut connections: Vec<Vec<String>> = r
                        .connections
                        .0
                        .as_ref()
                        .ok_or_else(|| {
                            bad("routes[].connections", "route without `connections`".into())
                        })?
                        .iter()
                        .map(|c| {
                            c.iter()
                                // `as_str` first: `CompactString::to_string` goes through
                                // `Display` (a formatter per hex).
                                .map(|h| h.as_str().to_owned())
                                .collect()
                        })
                        .collect();
                    let stops = in_route_order(stops, &connections);
                    // Orient every chain from its stop to the next one.
                    for (i, chain) in connections.iter_mut().enumerate() {
                        if let (Some(a), Some(b)) = (stops.get(i), stops.get(i + 1))
                            && chain.first() != Some(&a.hex)
                            && chain.first() == Some(&b.hex)
                        {
                            chain.reverse();
                        }
                    }
                    out.push(Route {
                        train,
                        stops,
                        connections,
                    });
                }
                Action::RunRoutes { routes: out }
            }
            "dividend" => Action::Dividend {
                payout: str_field("kind")? == "payout",
            },
            // 1841 §9.5 token acquisition: the token in `city` of another corporation; with
            // several, `slot` counts them in the ruleset's corporation order
            // ([`token_holders`]; 18xx's own slot numbers are not modelled).
            "buy_token" => {
                let city = str_field("city")?;
                let (hex, index) = self.city_of(state, city)?;
                let buyer = operating_round::current(state);
                let holders: Vec<String> = token_holders(state, &hex, index)
                    .into_iter()
                    .filter(|c| Some(c) != buyer.as_ref())
                    .collect();
                let slot = self
                    .field("slot")
                    .and_then(as_whole_number)
                    .and_then(|s| usize::try_from(s).ok())
                    .unwrap_or(0);
                // A Referee export names the seller beside 18xx's slot
                // ([`crate::g1841::export18xx::REFEREE_SELLER`]).
                let named = self
                    .field(crate::g1841::export18xx::REFEREE_SELLER)
                    .and_then(Value::as_str)
                    .filter(|s| holders.iter().any(|h| h == s));
                let seller = match (named, holders.as_slice()) {
                    (Some(n), _) => n.to_string(),
                    (None, [only]) => only.clone(),
                    (None, _) => holders.get(slot).cloned().ok_or_else(|| {
                        bad(
                            "slot",
                            format!("no other corporation's token {slot} in city `{city}`"),
                        )
                    })?,
                };
                Action::BuyToken {
                    hex,
                    city: index,
                    seller,
                    price: self.amount("price")?,
                }
            }
            _ => return Ok(None),
        };
        Ok(Some((seat, action)))
    }
}

impl ImportedAction {
    /// The action as the engine actions that replay it, each with its seat, in the context of
    /// `state` (the state before them): one action as [`ImportedAction::to_action`], except a
    /// purchase from another player (`p2p_purchases`, 1841 §15.3), which 18xx records as one
    /// direct purchase and this engine plays as the buyer's offer immediately accepted by the
    /// seller: a player's `buy_shares` whose first share another player held
    /// ([`ImportedAction::from_player`]; price `total_price`, else `price`) and a player's
    /// `buy_company` of a concession another player holds (`company`, `price`) become
    /// [`Action::OfferPurchase`] then [`Action::AnswerOffer`] `{accept: true}`. Empty for
    /// types not mapped yet.
    ///
    /// Errors: as [`ImportedAction::to_action`]; a purchase from a player without a
    /// whole-number price.
    pub fn to_actions(&self, state: &State) -> Result<Vec<(Seat, Action)>, ImportError> {
        if let Some((buyer, seller, item)) = self.player_purchase(state)? {
            let price = ["total_price", "price"]
                .iter()
                .find_map(|k| self.field(k).and_then(as_whole_number))
                .ok_or_else(|| ImportError::BadAction {
                    id: self.id,
                    field: "total_price".into(),
                    reason: format!("{} from a player without a price", self.kind),
                })?;
            return Ok(vec![
                (
                    buyer,
                    Action::OfferPurchase {
                        seller,
                        item,
                        price,
                    },
                ),
                (seller, Action::AnswerOffer { accept: true }),
            ]);
        }
        Ok(self.to_action(state)?.into_iter().collect())
    }

    /// Buyer, seller and item of a purchase from another player (1841 §15.3), if this is one.
    /// The seller of a `buy_shares` is [`ImportedAction::from_player`]; without the record's
    /// id tracking (an export written by this engine, or an action made by hand:
    /// [`ImportedAction::from_pool`] unset) the holder of the named certificate in `state`,
    /// whose indices are this engine's.
    fn player_purchase(
        &self,
        state: &State,
    ) -> Result<Option<(Seat, Seat, PurchaseItem)>, ImportError> {
        let Entity::Player(buyer) = self.entity else {
            return Ok(None);
        };
        if !state.options.p2p_purchases {
            return Ok(None);
        }
        let bad = |field: &str, reason: String| ImportError::BadAction {
            id: self.id,
            field: field.to_string(),
            reason,
        };
        match self.kind.as_str() {
            "buy_shares" => {
                let id = self
                    .fields
                    .first_share()
                    .ok_or_else(|| bad("shares", "buy_shares without `shares`".into()))?;
                let (sym, index) = notation::parse_share_id(id)
                    .map(|(sym, i)| (sym.to_string(), i))
                    .ok_or_else(|| bad("shares", format!("share id `{id}` is not `<CORP>_<n>`")))?;
                let seller = self.from_player.or_else(|| {
                    if self.from_pool.is_some() {
                        return None;
                    }
                    match state
                        .corporation(&sym)
                        .and_then(|c| c.certificates.get(index))
                        .map(|c| &c.owner)
                    {
                        Some(ShareOwner::Player(s)) if *s != buyer => Some(*s),
                        _ => None,
                    }
                });
                let Some(seller) = seller else {
                    return Ok(None);
                };
                let percent = self
                    .field("percent")
                    .and_then(Value::as_u64)
                    .and_then(|p| u32::try_from(p).ok())
                    .ok_or_else(|| bad("percent", "buy_shares without `percent`".into()))?;
                Ok(Some((
                    buyer,
                    seller,
                    PurchaseItem::Shares {
                        corporation: sym,
                        percent,
                    },
                )))
            }
            "buy_company" => {
                let company = self
                    .field("company")
                    .and_then(Value::as_str)
                    .ok_or_else(|| bad("company", "buy_company without `company`".into()))?;
                let Ok(c) = company.parse::<crate::g1841::concession::Concession>() else {
                    return Ok(None);
                };
                Ok(state
                    .players
                    .iter()
                    .find(|p| p.seat != buyer && p.concessions.contains(&c))
                    .map(|p| {
                        (
                            buyer,
                            p.seat,
                            PurchaseItem::Concession {
                                concession: company.to_string(),
                            },
                        )
                    }))
            }
            _ => Ok(None),
        }
    }

    /// A token city as hex and city index: `R14-0-0` (printed hex R14, city 0) or
    /// `<tile>-<copy>-<i>` (the hex carrying that tile).
    pub(super) fn city_of(&self, state: &State, city: &str) -> Result<(String, u32), ImportError> {
        let bad = |field: &str, reason: String| ImportError::BadAction {
            id: self.id,
            field: field.to_string(),
            reason,
        };
        let (first, _, index) = notation::parse_city_id(city).ok_or_else(|| {
            bad(
                "city",
                format!("city `{city}` is not `<tile>-<copy>-<city>`"),
            )
        })?;
        if map::map(&state.options).hexes.contains_key(first) {
            return Ok((first.to_string(), index));
        }
        if let Some(h) = &self.tile_hex {
            return Ok((h.clone(), index));
        }
        state
            .operations
            .tiles
            .iter()
            .filter(|(_, p)| p.tile == first)
            .map(|(h, _)| h.clone())
            .find(|h| {
                state
                    .corporations
                    .iter()
                    .any(|c| c.tokens.iter().any(|t| t.hex == *h && t.city == index))
            })
            .map(|h| (h, index))
            .ok_or_else(|| bad("city", format!("no token on tile of city `{city}`")))
    }
}

/// The stops of an 18xx route in route order. 18xx lists a route's `nodes` in no guaranteed
/// order (132002 action 440: `H4, I5, M3, O5, Q5` for the chains `H4–I5`, `M3…H4`, `O5…M3`,
/// `Q5…O5`), while its `connections` follow the route: walk the chains and take, for each hex
/// reached, the next unused node of that hex. The recorded order is kept when it already fits.
/// The hexes are compared in place (borrowed from `connections` and `stops`), never copied.
fn in_route_order(stops: Vec<Stop>, connections: &[Vec<String>]) -> Vec<Stop> {
    fn ends(c: &[String]) -> (Option<&str>, Option<&str>) {
        (c.first().map(String::as_str), c.last().map(String::as_str))
    }
    let fits = stops.len() == connections.len() + 1
        && connections.iter().enumerate().all(|(i, c)| {
            let (a, b) = ends(c);
            let (x, y) = (Some(stops[i].hex.as_str()), Some(stops[i + 1].hex.as_str()));
            (a == x && b == y) || (a == y && b == x)
        });
    if fits || connections.is_empty() || stops.len() != connections.len() + 1 {
        return stops;
    }
    // The first hex: the end of the first chain not shared with the second.
    let (a0, b0) = ends(&connections[0]);
    let mut hex = match connections.get(1).map(|c| ends(c)) {
        Some((a1, b1)) if a0 == a1 || a0 == b1 => b0,
        _ => a0,
    };
    let mut hexes: Vec<&str> = Vec::with_capacity(connections.len() + 1);
    hexes.extend(hex);
    for c in connections {
        let (a, b) = ends(c);
        hex = if hex == a { b } else { a };
        hexes.extend(hex);
    }
    let mut left = stops.clone();
    let mut out = Vec::with_capacity(hexes.len());
    for h in hexes {
        match left.iter().position(|s| s.hex == h) {
            Some(i) => out.push(left.remove(i)),
            None => return stops,
        }
    }
    out
}

/// The corporations with a token in city `city` of `hex`, in the ruleset's corporation order:
/// the `slot` numbering of `buy_token` in this engine's exports and imports.
pub fn token_holders(state: &State, hex: &str, city: u32) -> Vec<String> {
    state
        .corporations
        .iter()
        .filter(|c| c.tokens.iter().any(|t| t.hex == hex && t.city == city))
        .map(|c| c.sym.clone())
        .collect()
}

/// Whether a purchase of share `index` of `sym` can only come from the pool: the IPO holds no
/// ordinary certificate and the pool holds one of that share's size. 18xx.games' record then
/// names a share it had in its pool (the purchase is refused from the IPO), which the
/// importer's share ids did not follow there (1841 §5.2; oracle-played `v2-4p-s60002` id
/// 291: CTS_4, CTS's IPO empty and 30% in the pool in both engines).
fn only_the_pool_has(state: &State, sym: &str, index: usize) -> bool {
    let Some(c) = state.corporation(sym) else {
        return false;
    };
    let Some(size) = c.certificates.get(index).map(|x| x.percent) else {
        return false;
    };
    let held_by = |owner: ShareOwner| {
        c.certificates
            .iter()
            .any(|x| !x.president && x.owner == owner && x.percent == size)
    };
    !c.certificates
        .iter()
        .any(|x| !x.president && x.owner == ShareOwner::Ipo)
        && held_by(ShareOwner::Pool)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 1841 §5.2: a recorded purchase the IPO cannot serve comes from the pool when the pool
    /// holds a share of that size (oracle-played `v2-4p-s60002` id 291); while the IPO holds
    /// one, the share ids decide.
    #[test]
    fn s5_2_a_purchase_the_ipo_cannot_serve_comes_from_the_pool() {
        use super::{ShareOwner, only_the_pool_has};
        use crate::Game;
        use crate::g1841::{G1841, Options};
        let mut state = G1841::setup(&Options::default(), 4, 0).unwrap();
        let i = state.corporation_index("CTS").unwrap();
        let certs = &mut state.corporations[i].certificates;
        for (k, c) in certs.iter_mut().enumerate() {
            c.owner = match k {
                0 => ShareOwner::Player(1),
                1..=3 => ShareOwner::Pool,
                _ => ShareOwner::Player(2),
            };
        }
        assert!(only_the_pool_has(&state, "CTS", 4));
        state.corporations[i].certificates[8].owner = ShareOwner::Ipo;
        assert!(!only_the_pool_has(&state, "CTS", 4));
        assert!(!only_the_pool_has(&state, "CTS", 99));
        assert!(!only_the_pool_has(&state, "XYZ", 4));
    }

    #[test]
    fn s18_route_nodes_are_put_in_route_order() {
        let stop = |h: &str, n: u32| Stop {
            hex: h.into(),
            node: n,
        };
        let chains = |c: &[&[&str]]| -> Vec<Vec<String>> {
            c.iter()
                .map(|x| x.iter().map(|h| h.to_string()).collect())
                .collect()
        };
        // 132002 action 440: nodes H4, I5, M3, O5, Q5; chains H4–I5, M3…H4, O5…M3, Q5…O5.
        let got = super::in_route_order(
            vec![
                stop("H4", 0),
                stop("I5", 0),
                stop("M3", 0),
                stop("O5", 0),
                stop("Q5", 0),
            ],
            &chains(&[
                &["H4", "I5"],
                &["M3", "K3", "I3", "H4"],
                &["O5", "N4", "M3"],
                &["Q5", "O5"],
            ]),
        );
        let hexes: Vec<&str> = got.iter().map(|s| s.hex.as_str()).collect();
        assert_eq!(hexes, ["I5", "H4", "M3", "O5", "Q5"]);
        // 132002 action 523: M3, O5, H4, F6-1, F8 with chains M3…O5, H4…M3, F6…H4, F8…F6.
        let got = super::in_route_order(
            vec![
                stop("M3", 0),
                stop("O5", 0),
                stop("H4", 0),
                stop("F6", 1),
                stop("F8", 0),
            ],
            &chains(&[
                &["M3", "N4", "O5"],
                &["H4", "I3", "K3", "M3"],
                &["F6", "G5", "H4"],
                &["F8", "G7", "F6"],
            ]),
        );
        assert_eq!(
            got,
            [
                stop("O5", 0),
                stop("M3", 0),
                stop("H4", 0),
                stop("F6", 1),
                stop("F8", 0)
            ]
        );
        // A recorded order that fits is kept.
        let kept = vec![stop("F16", 0), stop("G15", 0)];
        assert_eq!(
            super::in_route_order(kept.clone(), &chains(&[&["F16", "G15"]])),
            kept
        );
    }
}
