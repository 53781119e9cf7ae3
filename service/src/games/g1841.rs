//! 1841 on the wire: `referee.g1841.v1` ⇄ `referee_engine::g1841`.
//!
//! Decoding validates the structure a caller could break (seat numbers, player order,
//! concession symbols, auction participants, corporations, certificates, market cells, the
//! stock round) and names the field path of the first problem, so the engine only ever sees
//! well-formed states (`referee_engine::g1841::validate` runs last).

use std::collections::BTreeMap;

use referee_engine::g1841::{self as eng, Concession, G1841};
use referee_engine::{Rejection, RejectionCode, Seat};
use tonic::Status;

use super::{WireGame, parse_bool_option, wrong_game};
use crate::pb::{g1841 as pb, v1};

/// The 1841 wire mapping.
pub struct Wire1841;

fn bad(path: impl AsRef<str>, what: impl AsRef<str>) -> Status {
    Status::invalid_argument(format!("state.g1841.{}: {}", path.as_ref(), what.as_ref()))
}

fn concession(path: &str, s: &str) -> Result<Concession, Status> {
    s.parse::<Concession>()
        .map_err(|_| bad(path, format!("`{s}` is not a concession of 1841")))
}

fn concessions(path: &str, list: &[String]) -> Result<Vec<Concession>, Status> {
    list.iter()
        .enumerate()
        .map(|(i, s)| concession(&format!("{path}[{i}]"), s))
        .collect()
}

fn names(list: &[Concession]) -> Vec<String> {
    list.iter().map(|c| c.as_str().to_string()).collect()
}

fn seat(path: &str, s: u32, n: u32) -> Result<Seat, Status> {
    if s < n {
        Ok(s)
    } else {
        Err(bad(
            path,
            format!("seat {s} is not at this {n}-player table"),
        ))
    }
}

fn auction_from_pb(path: &str, a: &pb::Auction, n: u32) -> Result<eng::Auction, Status> {
    let bidders = a
        .bidders
        .iter()
        .enumerate()
        .map(|(i, &s)| seat(&format!("{path}.bidders[{i}]"), s, n))
        .collect::<Result<Vec<_>, _>>()?;
    if bidders.is_empty() {
        return Err(bad(
            format!("{path}.bidders"),
            "an open auction has at least one bidder",
        ));
    }
    let mut sorted = bidders.clone();
    sorted.sort_unstable();
    sorted.dedup();
    if sorted.len() != bidders.len() {
        return Err(bad(format!("{path}.bidders"), "a seat appears twice"));
    }
    let high_bidder = seat(&format!("{path}.high_bidder"), a.high_bidder, n)?;
    let to_act = seat(&format!("{path}.to_act"), a.to_act, n)?;
    if !bidders.contains(&to_act) {
        return Err(bad(format!("{path}.to_act"), "must be one of the bidders"));
    }
    if a.high_bid < 0 {
        return Err(bad(format!("{path}.high_bid"), "must not be negative"));
    }
    Ok(eng::Auction {
        concession: concession(&format!("{path}.concession"), &a.concession)?,
        nominator: seat(&format!("{path}.nominator"), a.nominator, n)?,
        high_bid: a.high_bid,
        high_bidder,
        bidders,
        to_act,
    })
}

fn auction_to_pb(a: &eng::Auction) -> pb::Auction {
    pb::Auction {
        concession: a.concession.as_str().to_string(),
        nominator: a.nominator,
        high_bid: a.high_bid,
        high_bidder: a.high_bidder,
        bidders: a.bidders.clone(),
        to_act: a.to_act,
    }
}

fn sealed_to_pb(b: &eng::SealedBid) -> pb::SealedBid {
    pb::SealedBid {
        seat: b.seat,
        submitted: b.submitted,
        amounts: b.amounts.clone(),
    }
}

fn options_to_pb(o: &eng::Options) -> pb::Options {
    pb::Options {
        version_1: o.version_1,
        lite: o.lite,
        p2p_purchases: o.p2p_purchases,
        sfli_run_variant: o.sfli_run_variant,
    }
}

fn kind_to_pb(k: eng::CorporationKind) -> i32 {
    match k {
        eng::CorporationKind::Major => pb::CorporationKind::Major as i32,
        eng::CorporationKind::Minor => pb::CorporationKind::Minor as i32,
    }
}

fn corporation_to_pb(c: &eng::Corporation) -> pb::Corporation {
    pb::Corporation {
        sym: c.sym.clone(),
        kind: kind_to_pb(c.kind),
        historical: c.historical,
        started: c.started(),
        share_price: c.share_price.map(|p| pb::SharePrice {
            price: c.price().unwrap_or(0),
            row: p.row,
            col: p.col,
            arrival: p.arrival,
        }),
        par_price: c.par_price,
        cash: c.cash,
        certificates: c
            .certificates
            .iter()
            .map(|x| {
                let (holder, seat, corporation) = match &x.owner {
                    eng::ShareOwner::Ipo => (pb::ShareHolderKind::Ipo, 0, String::new()),
                    eng::ShareOwner::Pool => (pb::ShareHolderKind::Pool, 0, String::new()),
                    eng::ShareOwner::Player(s) => (pb::ShareHolderKind::Player, *s, String::new()),
                    eng::ShareOwner::Corporation(o) => {
                        (pb::ShareHolderKind::Corporation, 0, o.clone())
                    }
                };
                pb::Certificate {
                    percent: x.percent,
                    president: x.president,
                    holder: holder as i32,
                    seat,
                    corporation,
                }
            })
            .collect(),
        tokens_total: c.tokens_total,
        tokens: c
            .tokens
            .iter()
            .map(|t| pb::MapToken {
                hex: t.hex.clone(),
                city: t.city,
            })
            .collect(),
        operated: c.operated,
    }
}

fn corporation_from_pb(
    path: &str,
    c: &pb::Corporation,
    n: u32,
) -> Result<eng::Corporation, Status> {
    let kind = match pb::CorporationKind::try_from(c.kind) {
        Ok(pb::CorporationKind::Major) => eng::CorporationKind::Major,
        Ok(pb::CorporationKind::Minor) => eng::CorporationKind::Minor,
        _ => return Err(bad(format!("{path}.kind"), "must be MAJOR or MINOR")),
    };
    let share_price = match (&c.share_price, c.started) {
        (None, false) => None,
        (Some(p), true) => {
            let price = eng::market::price_at(p.row, p.col).ok_or_else(|| {
                bad(
                    format!("{path}.share_price"),
                    format!("({}, {}) is not a cell of the stock market", p.row, p.col),
                )
            })?;
            if price != p.price {
                return Err(bad(
                    format!("{path}.share_price.price"),
                    format!("the cell ({}, {}) has price {price}", p.row, p.col),
                ));
            }
            Some(eng::SharePrice {
                row: p.row,
                col: p.col,
                arrival: p.arrival,
            })
        }
        _ => {
            return Err(bad(
                format!("{path}.share_price"),
                "set exactly when `started` is true",
            ));
        }
    };
    let certificates = c
        .certificates
        .iter()
        .enumerate()
        .map(|(j, x)| {
            let cpath = format!("{path}.certificates[{j}]");
            let owner = match pb::ShareHolderKind::try_from(x.holder) {
                Ok(pb::ShareHolderKind::Ipo) => eng::ShareOwner::Ipo,
                Ok(pb::ShareHolderKind::Pool) => eng::ShareOwner::Pool,
                Ok(pb::ShareHolderKind::Player) => {
                    eng::ShareOwner::Player(seat(&format!("{cpath}.seat"), x.seat, n)?)
                }
                Ok(pb::ShareHolderKind::Corporation) => {
                    eng::ShareOwner::Corporation(x.corporation.clone())
                }
                _ => {
                    return Err(bad(
                        format!("{cpath}.holder"),
                        "must be IPO, POOL, PLAYER or CORPORATION",
                    ));
                }
            };
            Ok(eng::Certificate {
                percent: x.percent,
                president: x.president,
                owner,
            })
        })
        .collect::<Result<Vec<_>, Status>>()?;
    Ok(eng::Corporation {
        sym: c.sym.clone(),
        kind,
        historical: c.historical,
        share_price,
        par_price: c.par_price,
        cash: c.cash,
        certificates,
        tokens_total: c.tokens_total,
        tokens: c
            .tokens
            .iter()
            .map(|t| eng::MapToken {
                hex: t.hex.clone(),
                city: t.city,
            })
            .collect(),
        operated: c.operated,
    })
}

fn step_to_pb(s: eng::StartStep) -> i32 {
    match s {
        eng::StartStep::BuyShares => pb::StartStep::BuyShares as i32,
        eng::StartStep::HomeToken => pb::StartStep::HomeToken as i32,
        eng::StartStep::BuyTokens => pb::StartStep::BuyTokens as i32,
    }
}

fn stock_round_to_pb(r: &eng::StockRound) -> pb::StockRound {
    pb::StockRound {
        number: r.number,
        priority_seat: r.priority_seat,
        current_seat: r.current_seat,
        consecutive_passes: r.consecutive_passes,
        last_to_act: r.last_to_act,
        acted_this_turn: r.acted_this_turn,
        sold: r
            .sold
            .iter()
            .map(|x| pb::SoldShares {
                seat: x.seat,
                corporation: x.corporation.clone(),
            })
            .collect(),
        start: r.start.as_ref().map(|x| pb::CorporationStart {
            corporation: x.corporation.clone(),
            step: step_to_pb(x.step),
        }),
    }
}

fn stock_round_from_pb(r: &pb::StockRound, n: u32) -> Result<eng::StockRound, Status> {
    let start = match &r.start {
        None => None,
        Some(x) => Some(eng::CorporationStart {
            corporation: x.corporation.clone(),
            step: match pb::StartStep::try_from(x.step) {
                Ok(pb::StartStep::BuyShares) => eng::StartStep::BuyShares,
                Ok(pb::StartStep::HomeToken) => eng::StartStep::HomeToken,
                Ok(pb::StartStep::BuyTokens) => eng::StartStep::BuyTokens,
                _ => {
                    return Err(bad(
                        "stock_round.start.step",
                        "must be BUY_SHARES, HOME_TOKEN or BUY_TOKENS",
                    ));
                }
            },
        }),
    };
    Ok(eng::StockRound {
        number: r.number,
        priority_seat: seat("stock_round.priority_seat", r.priority_seat, n)?,
        current_seat: seat("stock_round.current_seat", r.current_seat, n)?,
        consecutive_passes: r.consecutive_passes,
        last_to_act: r
            .last_to_act
            .map(|s| seat("stock_round.last_to_act", s, n))
            .transpose()?,
        acted_this_turn: r.acted_this_turn,
        sold: r
            .sold
            .iter()
            .enumerate()
            .map(|(i, x)| {
                Ok(eng::SoldShares {
                    seat: seat(&format!("stock_round.sold[{i}].seat"), x.seat, n)?,
                    corporation: x.corporation.clone(),
                })
            })
            .collect::<Result<Vec<_>, Status>>()?,
        start,
    })
}

/// Encodes an engine state.
pub fn state_to_pb(s: &eng::State) -> pb::State {
    pb::State {
        options: Some(options_to_pb(&s.options)),
        bank_cash: s.bank_cash,
        players: s
            .players
            .iter()
            .map(|p| pb::Player {
                seat: p.seat,
                cash: p.cash,
                concessions: names(&p.concessions),
            })
            .collect(),
        player_order: s.player_order.clone(),
        bank_concessions: names(&s.bank_concessions),
        phase: s.phase.clone(),
        round: Some(match &s.round {
            eng::Round::ConcessionRound(r) => {
                pb::state::Round::ConcessionRound(pb::ConcessionRound {
                    remaining: names(&r.remaining),
                    nominating_seat: r.nominating_seat,
                    consecutive_passes: r.consecutive_passes,
                    auction: r.auction.as_ref().map(auction_to_pb),
                    sealed_bids: r.sealed_bids.iter().map(sealed_to_pb).collect(),
                    pending_tie_auctions: r
                        .pending_tie_auctions
                        .iter()
                        .map(auction_to_pb)
                        .collect(),
                })
            }
            eng::Round::StockRound(r) => pb::state::Round::StockRound(stock_round_to_pb(r)),
            eng::Round::OperatingRound(r) => pb::state::Round::OperatingRound(pb::OperatingRound {
                stock_round: r.stock_round,
                number: r.number,
                total: r.total,
            }),
        }),
        corporations: {
            // Unstarted corporations equal to their fresh roster entry are left out; the
            // decoder fills them in (keeps concession-round states as small as before).
            let roster = eng::corporation::initial_corporations(&s.options);
            s.corporations
                .iter()
                .filter(|c| !roster.contains(c))
                .map(corporation_to_pb)
                .collect()
        },
        next_market_arrival: s.next_market_arrival,
    }
}

/// Decodes and validates a state. Errors: `INVALID_ARGUMENT` naming the first bad field.
pub fn state_from_pb(s: &pb::State) -> Result<eng::State, Status> {
    let o = s.options.unwrap_or_default();
    let options = eng::Options {
        version_1: o.version_1,
        lite: o.lite,
        p2p_purchases: o.p2p_purchases,
        sfli_run_variant: o.sfli_run_variant,
    };
    let n = u32::try_from(s.players.len()).map_err(|_| bad("players", "too many players"))?;
    let range = &eng::data::ruleset(&options).players;
    if n < range.min || n > range.max {
        return Err(bad(
            "players",
            format!(
                "{n} players; these options allow {} to {}",
                range.min, range.max
            ),
        ));
    }
    let mut players = Vec::with_capacity(s.players.len());
    for (i, p) in s.players.iter().enumerate() {
        if p.seat as usize != i {
            return Err(bad(
                format!("players[{i}].seat"),
                format!("must be {i}, got {}", p.seat),
            ));
        }
        if p.cash < 0 {
            return Err(bad(format!("players[{i}].cash"), "must not be negative"));
        }
        players.push(eng::Player {
            seat: p.seat,
            cash: p.cash,
            concessions: concessions(&format!("players[{i}].concessions"), &p.concessions)?,
        });
    }
    let mut order = s.player_order.clone();
    order.sort_unstable();
    if order != (0..n).collect::<Vec<_>>() {
        return Err(bad("player_order", "must list every seat exactly once"));
    }
    if s.bank_cash < 0 {
        return Err(bad("bank_cash", "must not be negative"));
    }
    let round = match s.round.as_ref() {
        None => return Err(bad("round", "missing")),
        Some(pb::state::Round::StockRound(r)) => eng::Round::StockRound(stock_round_from_pb(r, n)?),
        Some(pb::state::Round::OperatingRound(r)) => {
            // Operating-round progress and the map/train material are not on the wire yet
            // (engine-only fields, filled with their defaults).
            eng::Round::OperatingRound(eng::OperatingRound {
                stock_round: r.stock_round,
                number: r.number,
                total: r.total,
                ..Default::default()
            })
        }
        Some(pb::state::Round::ConcessionRound(r)) => {
            let sealed_bids = r
                .sealed_bids
                .iter()
                .enumerate()
                .map(|(i, b)| {
                    Ok(eng::SealedBid {
                        seat: seat(
                            &format!("concession_round.sealed_bids[{i}].seat"),
                            b.seat,
                            n,
                        )?,
                        submitted: b.submitted,
                        amounts: b.amounts.clone(),
                    })
                })
                .collect::<Result<Vec<_>, Status>>()?;
            eng::Round::ConcessionRound(eng::ConcessionRound {
                remaining: concessions("concession_round.remaining", &r.remaining)?,
                nominating_seat: seat("concession_round.nominating_seat", r.nominating_seat, n)?,
                consecutive_passes: r.consecutive_passes,
                auction: r
                    .auction
                    .as_ref()
                    .map(|a| auction_from_pb("concession_round.auction", a, n))
                    .transpose()?,
                sealed_bids,
                pending_tie_auctions: r
                    .pending_tie_auctions
                    .iter()
                    .enumerate()
                    .map(|(i, a)| {
                        auction_from_pb(
                            &format!("concession_round.pending_tie_auctions[{i}]"),
                            a,
                            n,
                        )
                    })
                    .collect::<Result<Vec<_>, _>>()?,
            })
        }
    };
    // The wire lists only corporations that differ from their fresh roster entry (started
    // ones, in roster order); every other corporation of the ruleset is unstarted.
    let mut corporations = eng::corporation::initial_corporations(&options);
    let mut last = None;
    for (i, c) in s.corporations.iter().enumerate() {
        let path = format!("corporations[{i}]");
        let decoded = corporation_from_pb(&path, c, n)?;
        let Some(at) = corporations.iter().position(|r| r.sym == decoded.sym) else {
            return Err(bad(
                format!("{path}.sym"),
                format!("`{}` is not a corporation of these rules", decoded.sym),
            ));
        };
        if last.is_some_and(|l| at <= l) {
            return Err(bad(
                format!("{path}.sym"),
                "corporations must be listed once each, in roster order",
            ));
        }
        last = Some(at);
        corporations[at] = decoded;
    }
    let state = eng::State {
        options,
        bank_cash: s.bank_cash,
        players,
        player_order: s.player_order.clone(),
        bank_concessions: concessions("bank_concessions", &s.bank_concessions)?,
        phase: s.phase.clone(),
        round,
        corporations,
        next_market_arrival: s.next_market_arrival,
        operations: Default::default(),
    };
    eng::validate::validate(&state).map_err(|e| bad(&e.path, &e.message))?;
    Ok(state)
}

fn action_to_pb_inner(a: &eng::Action) -> pb::Action {
    pb::Action {
        action: Some(match a {
            eng::Action::Bid { concession, price } => pb::action::Action::Bid(pb::Bid {
                concession: concession.clone(),
                price: *price,
            }),
            eng::Action::Pass => pb::action::Action::Pass(pb::Pass {}),
            // Operating-round actions have no wire message yet.
            eng::Action::LayTile { .. }
            | eng::Action::BuyTrain { .. }
            | eng::Action::RunRoutes { .. }
            | eng::Action::Dividend { .. }
            | eng::Action::BuyToken { .. } => {
                return pb::Action { action: None };
            }
            eng::Action::BlindBid { amounts } => pb::action::Action::BlindBid(pb::BlindBid {
                amounts: amounts.clone(),
            }),
            eng::Action::Par { corporation, price } => pb::action::Action::Par(pb::Par {
                corporation: corporation.clone(),
                price: *price,
            }),
            eng::Action::BuyShares {
                corporation,
                from_pool,
                percent,
            } => pb::action::Action::BuyShares(pb::BuyShares {
                corporation: corporation.clone(),
                from_pool: *from_pool,
                percent: *percent,
            }),
            eng::Action::SellShares {
                corporation,
                percent,
            } => pb::action::Action::SellShares(pb::SellShares {
                corporation: corporation.clone(),
                percent: *percent,
            }),
            eng::Action::PlaceToken { hex, city } => {
                pb::action::Action::PlaceToken(pb::PlaceToken {
                    hex: hex.clone(),
                    city: *city,
                })
            }
            eng::Action::BuyTokens { count } => {
                pb::action::Action::BuyTokens(pb::BuyTokens { count: *count })
            }
            eng::Action::BuyConcession { concession } => {
                pb::action::Action::BuyConcession(pb::BuyConcession {
                    concession: concession.clone(),
                })
            }
        }),
    }
}

impl WireGame for Wire1841 {
    type G = G1841;
    const ID: &'static str = "1841";
    const FIELD: &'static str = "g1841";

    fn options_from_pb(options: &BTreeMap<String, String>) -> Result<eng::Options, Status> {
        let mut o = eng::Options::default();
        for (name, value) in options {
            let flag = parse_bool_option(name, value)?;
            o.set(name, if flag { "true" } else { "false" })
                .map_err(|e| Status::invalid_argument(format!("options[{name}]: {e}")))?;
        }
        Ok(o)
    }

    fn state_to_pb(state: &eng::State) -> v1::game_state::State {
        v1::game_state::State::G1841(state_to_pb(state))
    }

    fn state_from_pb(state: &v1::game_state::State) -> Result<eng::State, Status> {
        match state {
            v1::game_state::State::G1841(s) => state_from_pb(s),
            v1::game_state::State::Autobahn(_) => Err(Status::invalid_argument(
                "state.autobahn: the state says game `1841` but carries an Autobahn state",
            )),
        }
    }

    fn action_from_pb(action: &v1::Action) -> Result<eng::Action, Rejection> {
        let Some(v1::action::Action::G1841(a)) = action.action.as_ref() else {
            return Err(wrong_game("1841"));
        };
        match a.action.as_ref() {
            None => Err(Rejection::new(
                RejectionCode::InvalidArgument,
                "",
                "The 1841 action is empty.",
            )),
            Some(pb::action::Action::Bid(b)) => Ok(eng::Action::Bid {
                concession: b.concession.clone(),
                price: b.price,
            }),
            Some(pb::action::Action::Pass(_)) => Ok(eng::Action::Pass),
            Some(pb::action::Action::BlindBid(b)) => Ok(eng::Action::BlindBid {
                amounts: b.amounts.clone(),
            }),
            Some(pb::action::Action::Par(b)) => Ok(eng::Action::Par {
                corporation: b.corporation.clone(),
                price: b.price,
            }),
            Some(pb::action::Action::BuyShares(b)) => Ok(eng::Action::BuyShares {
                corporation: b.corporation.clone(),
                from_pool: b.from_pool,
                percent: b.percent,
            }),
            Some(pb::action::Action::SellShares(b)) => Ok(eng::Action::SellShares {
                corporation: b.corporation.clone(),
                percent: b.percent,
            }),
            Some(pb::action::Action::PlaceToken(b)) => Ok(eng::Action::PlaceToken {
                hex: b.hex.clone(),
                city: b.city,
            }),
            Some(pb::action::Action::BuyTokens(b)) => Ok(eng::Action::BuyTokens { count: b.count }),
            Some(pb::action::Action::BuyConcession(b)) => Ok(eng::Action::BuyConcession {
                concession: b.concession.clone(),
            }),
        }
    }

    fn action_to_pb(action: &eng::Action) -> v1::Action {
        v1::Action {
            action: Some(v1::action::Action::G1841(action_to_pb_inner(action))),
        }
    }

    fn action_kind(action: &eng::Action) -> &'static str {
        match action {
            eng::Action::Bid { .. } => "bid",
            eng::Action::Pass => "pass",
            eng::Action::BlindBid { .. } => "blind_bid",
            eng::Action::Par { .. } => "par",
            eng::Action::BuyShares { .. } => "buy_shares",
            eng::Action::SellShares { .. } => "sell_shares",
            eng::Action::PlaceToken { .. } => "place_token",
            eng::Action::BuyTokens { .. } => "buy_tokens",
            eng::Action::BuyConcession { .. } => "buy_concession",
            eng::Action::LayTile { .. } => "lay_tile",
            eng::Action::BuyTrain { .. } => "buy_train",
            eng::Action::RunRoutes { .. } => "run_routes",
            eng::Action::Dividend { .. } => "dividend",
            eng::Action::BuyToken { .. } => "buy_token",
        }
    }

    fn event_to_pb(event: &eng::Event) -> v1::Event {
        use pb::event::Event as E;
        let e = match event {
            eng::Event::AuctionOpened {
                seat,
                concession,
                price,
            } => E::AuctionOpened(pb::AuctionOpened {
                seat: *seat,
                concession: concession.as_str().to_string(),
                price: *price,
            }),
            eng::Event::BidPlaced {
                seat,
                concession,
                price,
            } => E::BidPlaced(pb::BidPlaced {
                seat: *seat,
                concession: concession.as_str().to_string(),
                price: *price,
            }),
            eng::Event::NominationPassed { seat } => {
                E::NominationPassed(pb::NominationPassed { seat: *seat })
            }
            eng::Event::DroppedOut { seat, concession } => E::DroppedOut(pb::DroppedOut {
                seat: *seat,
                concession: concession.as_str().to_string(),
            }),
            eng::Event::ConcessionBought {
                seat,
                concession,
                price,
            } => E::ConcessionBought(pb::ConcessionBought {
                seat: *seat,
                concession: concession.as_str().to_string(),
                price: *price,
            }),
            eng::Event::SealedBidSubmitted { seat } => {
                E::SealedBidSubmitted(pb::SealedBidSubmitted { seat: *seat })
            }
            eng::Event::SealedBidsRevealed { bids } => {
                E::SealedBidsRevealed(pb::SealedBidsRevealed {
                    bids: bids.iter().map(sealed_to_pb).collect(),
                })
            }
            eng::Event::ConcessionToBank { concession } => {
                E::ConcessionToBank(pb::ConcessionToBank {
                    concession: concession.as_str().to_string(),
                })
            }
            eng::Event::PlayerOrderChanged { player_order } => {
                E::PlayerOrderChanged(pb::PlayerOrderChanged {
                    player_order: player_order.clone(),
                })
            }
            eng::Event::RoundStarted { name } => {
                E::RoundStarted(pb::RoundStarted { name: name.clone() })
            }
            eng::Event::Passed { seat, automatic } => E::Passed(pb::Passed {
                seat: *seat,
                automatic: *automatic,
            }),
            eng::Event::CorporationStarted {
                seat,
                corporation,
                price,
            } => E::CorporationStarted(pb::CorporationStarted {
                seat: *seat,
                corporation: corporation.clone(),
                price: *price,
            }),
            eng::Event::SharesBought {
                seat,
                corporation,
                percent,
                from_pool,
                price,
            } => E::SharesBought(pb::SharesBought {
                seat: *seat,
                corporation: corporation.clone(),
                percent: *percent,
                from_pool: *from_pool,
                price: *price,
            }),
            eng::Event::SharesSold {
                seat,
                corporation,
                percent,
                price,
            } => E::SharesSold(pb::SharesSold {
                seat: *seat,
                corporation: corporation.clone(),
                percent: *percent,
                price: *price,
            }),
            eng::Event::PresidentChanged { corporation, seat } => {
                E::PresidentChanged(pb::PresidentChanged {
                    corporation: corporation.clone(),
                    seat: *seat,
                })
            }
            eng::Event::SharePriceChanged {
                corporation,
                price,
                row,
                col,
            } => E::SharePriceChanged(pb::SharePriceChanged {
                corporation: corporation.clone(),
                price: *price,
                row: *row,
                col: *col,
            }),
            eng::Event::TokenPlaced {
                corporation,
                hex,
                city,
            } => E::TokenPlaced(pb::TokenPlaced {
                corporation: corporation.clone(),
                hex: hex.clone(),
                city: *city,
            }),
            eng::Event::TokensBought {
                corporation,
                count,
                price,
            } => E::TokensBought(pb::TokensBought {
                corporation: corporation.clone(),
                count: *count,
                price: *price,
            }),
            eng::Event::ConcessionIncome {
                seat,
                concession,
                amount,
            } => E::ConcessionIncome(pb::ConcessionIncome {
                seat: *seat,
                concession: concession.as_str().to_string(),
                amount: *amount,
            }),
            eng::Event::ConcessionReturned { seat, concession } => {
                E::ConcessionReturned(pb::ConcessionReturned {
                    seat: *seat,
                    concession: concession.as_str().to_string(),
                })
            }
            // Operating-round events have no wire message yet.
            _ => return v1::Event { event: None },
        };
        v1::Event {
            event: Some(v1::event::Event::G1841(pb::Event { event: Some(e) })),
        }
    }

    fn legal_actions_pb(
        state: &eng::State,
        seat: Seat,
    ) -> v1::legal_actions_response::LegalActions {
        let legal = G1841::legal(state, seat);
        v1::legal_actions_response::LegalActions::G1841(pb::LegalActions {
            actions: legal.actions.iter().map(action_to_pb_inner).collect(),
            bids: legal
                .bids
                .iter()
                .map(|b| pb::BidRange {
                    concession: b.concession.as_str().to_string(),
                    min_price: b.min_price,
                    max_price: b.max_price,
                })
                .collect(),
            blind_bid: legal.blind_bid.as_ref().map(|b| pb::BlindBidRange {
                concessions: names(&b.concessions),
                min_price: b.min_price,
                max_total: b.max_total,
            }),
        })
    }

    fn view_to_pb(view: &eng::View) -> v1::view_response::View {
        v1::view_response::View::G1841(pb::View {
            state: Some(state_to_pb(&view.state)),
        })
    }

    /// Operating rounds are played by the engine but not yet carried by `referee.g1841.v1`
    /// (tiles, trains and turn progress have no wire form yet): the action that would enter one
    /// is refused with `UNSUPPORTED`, so no caller ever holds a state that lost its operating
    /// round data.
    fn check_encodable(state: &eng::State) -> Result<(), Rejection> {
        if matches!(state.round, eng::Round::OperatingRound(_)) {
            return Err(Rejection::new(
                RejectionCode::Unsupported,
                "1841 §8",
                "Operating rounds are not served over the wire in this build; the stock round cannot end here yet.",
            ));
        }
        Ok(())
    }

    fn seat_count(state: &eng::State) -> u32 {
        u32::try_from(state.players.len()).unwrap_or(u32::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use referee_engine::Game;

    /// Plays a game through the concession round and Stock Round 1 (first non-pass legal
    /// action each time) and checks that every state survives encode → decode unchanged, and
    /// every action too.
    #[test]
    fn stock_round_states_and_actions_round_trip() {
        for lite in [false, true] {
            let options = eng::Options {
                lite,
                ..eng::Options::default()
            };
            let mut state = G1841::setup(&options, 4, 0).unwrap();
            let mut saw_stock_round = false;
            for _ in 0..2000 {
                // Operating-round progress and material are not on the wire yet: stop there.
                if matches!(state.round, eng::Round::OperatingRound(_)) {
                    break;
                }
                assert_eq!(state_from_pb(&state_to_pb(&state)).unwrap(), state);
                saw_stock_round |= matches!(state.round, eng::Round::StockRound(_));
                let seat = G1841::to_act(&state)[0];
                let legal = G1841::legal_actions(&state, seat);
                // Nominate at L.20 but never raise; in the stock round take the first non-pass.
                let action = legal
                    .iter()
                    .find(|a| match a {
                        eng::Action::Pass => false,
                        eng::Action::Bid { price, .. } => *price == 20,
                        _ => true,
                    })
                    .unwrap_or(&eng::Action::Pass)
                    .clone();
                let wire = Wire1841::action_to_pb(&action);
                assert_eq!(Wire1841::action_from_pb(&wire).unwrap(), action);
                let events = G1841::apply(&mut state, seat, &action).unwrap();
                // Operating-round events have no wire message yet.
                if !matches!(state.round, eng::Round::OperatingRound(_)) {
                    for e in events {
                        assert!(Wire1841::event_to_pb(&e).event.is_some());
                    }
                }
            }
            assert!(saw_stock_round);
            assert!(matches!(state.round, eng::Round::OperatingRound(_)));
            assert!(state.corporations.iter().any(|c| c.started()));
        }
    }

    #[test]
    fn bad_corporation_fields_name_their_path() {
        let state = G1841::setup(&eng::Options::default(), 4, 0).unwrap();
        // Unstarted corporations are left out on the wire and filled in on decode.
        assert!(state_to_pb(&state).corporations.is_empty());
        assert_eq!(state_from_pb(&state_to_pb(&state)).unwrap(), state);
        let sftg = corporation_to_pb(&state.corporations[4]);
        let mut pb = state_to_pb(&state);
        pb.corporations.push(sftg.clone());
        pb.corporations[0].certificates[2].holder = pb::ShareHolderKind::Player as i32;
        pb.corporations[0].certificates[2].seat = 9;
        let e = state_from_pb(&pb).unwrap_err();
        assert!(
            e.message()
                .contains("state.g1841.corporations[0].certificates[2].seat"),
            "{}",
            e.message()
        );
        let mut pb = state_to_pb(&state);
        pb.corporations.push(sftg.clone());
        pb.corporations[0].cash = 100;
        let e = state_from_pb(&pb).unwrap_err();
        assert!(
            e.message().contains("state.g1841.corporations[4]"),
            "{}",
            e.message()
        );
        let mut pb = state_to_pb(&state);
        pb.corporations.push(pb::Corporation {
            sym: "XYZ".into(),
            ..sftg
        });
        let e = state_from_pb(&pb).unwrap_err();
        assert!(
            e.message().contains("state.g1841.corporations[0].sym"),
            "{}",
            e.message()
        );
    }
}
