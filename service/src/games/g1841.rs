//! 1841 on the wire: `referee.g1841.v1` ⇄ `referee_engine::g1841`.
//!
//! Every part of the engine state is carried, operating rounds included (turn progress, tiles,
//! trains, depot sales, pool, rust): encode → decode is the identity.
//!
//! Decoding validates the structure a caller could break (seat numbers, player order,
//! concession symbols, auction participants, corporations, certificates, market cells, the
//! stock round, the operating step, tile rotations, entries listed twice) and names the wire
//! field path of the first problem, so the engine only ever sees well-formed states
//! (`referee_engine::g1841::validate` runs last; its paths are translated to wire paths:
//! wire corporation indices, wire field names, list indices instead of map keys).

use std::collections::BTreeMap;

use referee_engine::g1841::{self as eng, Concession, G1841};
use referee_engine::{Rejection, RejectionCode, Seat};
use tonic::Status;

use super::{WireGame, wrong_game};
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
        .map(|(i, s)| {
            // The path is built only for an error.
            s.parse::<Concession>().map_err(|_| {
                bad(
                    format!("{path}[{i}]"),
                    format!("`{s}` is not a concession of 1841"),
                )
            })
        })
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
        emergency_sales_unrestricted: o.emergency_sales_unrestricted,
        merger_presidency_for_companies: o.merger_presidency_for_companies,
        merger_price_cap: o.merger_price_cap,
        pass_token_not_a_route_base: o.pass_token_not_a_route_base,
        no_corporate_rebuy_after_sale: o.no_corporate_rebuy_after_sale,
        price_drops_lowest_first: o.price_drops_lowest_first,
        immediate_game_end: o.immediate_game_end,
        no_train_obligation_after_last_8_train: o.no_train_obligation_after_last_8_train,
        exchanges_by_share_value: o.exchanges_by_share_value,
        half_price_round_down: o.half_price_round_down,
        ferdinandea_unexchanged_payout: o.ferdinandea_unexchanged_payout,
        no_cross_border_corporate_shares: o.no_cross_border_corporate_shares,
    }
}

/// Engine options from the wire's (an unset FAQ option stays unset: the version default).
fn options_from_pb(o: &pb::Options) -> eng::Options {
    eng::Options {
        version_1: o.version_1,
        lite: o.lite,
        p2p_purchases: o.p2p_purchases,
        sfli_run_variant: o.sfli_run_variant,
        emergency_sales_unrestricted: o.emergency_sales_unrestricted,
        merger_presidency_for_companies: o.merger_presidency_for_companies,
        merger_price_cap: o.merger_price_cap,
        pass_token_not_a_route_base: o.pass_token_not_a_route_base,
        no_corporate_rebuy_after_sale: o.no_corporate_rebuy_after_sale,
        price_drops_lowest_first: o.price_drops_lowest_first,
        immediate_game_end: o.immediate_game_end,
        no_train_obligation_after_last_8_train: o.no_train_obligation_after_last_8_train,
        exchanges_by_share_value: o.exchanges_by_share_value,
        half_price_round_down: o.half_price_round_down,
        ferdinandea_unexchanged_payout: o.ferdinandea_unexchanged_payout,
        no_cross_border_corporate_shares: o.no_cross_border_corporate_shares,
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
        closed: c.closed,
        ipo_first_share_ordinary: c.ipo_first_share_ordinary,
    }
}

fn holder_to_pb(h: &eng::ShareOwner) -> pb::Holder {
    let (kind, seat, corporation) = match h {
        eng::ShareOwner::Ipo => (pb::ShareHolderKind::Ipo, 0, String::new()),
        eng::ShareOwner::Pool => (pb::ShareHolderKind::Pool, 0, String::new()),
        eng::ShareOwner::Player(s) => (pb::ShareHolderKind::Player, *s, String::new()),
        eng::ShareOwner::Corporation(o) => (pb::ShareHolderKind::Corporation, 0, o.clone()),
    };
    pb::Holder {
        kind: kind as i32,
        seat,
        corporation,
    }
}

fn holder_from_pb(path: &str, h: Option<&pb::Holder>, n: u32) -> Result<eng::ShareOwner, Status> {
    let Some(h) = h else {
        return Err(bad(path, "missing"));
    };
    Ok(match pb::ShareHolderKind::try_from(h.kind) {
        Ok(pb::ShareHolderKind::Ipo) => eng::ShareOwner::Ipo,
        Ok(pb::ShareHolderKind::Pool) => eng::ShareOwner::Pool,
        Ok(pb::ShareHolderKind::Player) => {
            eng::ShareOwner::Player(seat(&format!("{path}.seat"), h.seat, n)?)
        }
        Ok(pb::ShareHolderKind::Corporation) => eng::ShareOwner::Corporation(h.corporation.clone()),
        _ => {
            return Err(bad(
                format!("{path}.kind"),
                "must be IPO, POOL, PLAYER or CORPORATION",
            ));
        }
    })
}

fn holders_from_pb(path: &str, hs: &[pb::Holder], n: u32) -> Result<Vec<eng::ShareOwner>, Status> {
    hs.iter()
        .enumerate()
        .map(|(i, h)| holder_from_pb(&format!("{path}[{i}]"), Some(h), n))
        .collect()
}

fn cell_to_pb(c: &eng::MarketCell) -> pb::MarketCell {
    pb::MarketCell {
        row: c.row,
        col: c.col,
    }
}

fn cell_from_pb(c: &pb::MarketCell) -> eng::MarketCell {
    eng::MarketCell {
        row: c.row,
        col: c.col,
    }
}

fn corporate_event_to_pb(e: &eng::CorporateEvent) -> pb::CorporateEvent {
    use pb::corporate_event::Event as E;
    pb::CorporateEvent {
        event: Some(match e {
            eng::CorporateEvent::Split(x) => E::Split(pb::Split {
                stage: (match x.stage {
                    eng::SplitStage::Presidency => pb::SplitStage::Presidency,
                    eng::SplitStage::SingleShares => pb::SplitStage::SingleShares,
                    eng::SplitStage::Purchases => pb::SplitStage::Purchases,
                    eng::SplitStage::RepeatRound => pb::SplitStage::RepeatRound,
                    eng::SplitStage::Tokens => pb::SplitStage::Tokens,
                }) as i32,
                president: Some(holder_to_pb(&x.president)),
                holders: x.holders.iter().map(holder_to_pb).collect(),
                units: x.units.clone(),
                next: x.next,
                corporation: x.corporation.clone(),
                first_rounds_done: x.first_rounds_done,
                purchases_closed: x.purchases_closed.clone(),
                bought_this_round: x.bought_this_round,
                irsff_price: x.irsff_price,
            }),
            eng::CorporateEvent::Merger(x) => E::Merger(pb::Merger {
                initiator: x.initiator.clone(),
                partner: x.partner.clone(),
                stage: (match x.stage {
                    eng::MergerStage::Price => pb::MergerStage::Price,
                    eng::MergerStage::Corporation => pb::MergerStage::Corporation,
                    eng::MergerStage::Presidency => pb::MergerStage::Presidency,
                    eng::MergerStage::OddShares => pb::MergerStage::OddShares,
                    eng::MergerStage::Tokens => pb::MergerStage::Tokens,
                    eng::MergerStage::TwoCityTile => pb::MergerStage::TwoCityTile,
                }) as i32,
                target: x.target.clone(),
                cell: x.cell.as_ref().map(cell_to_pb),
                price_choices: x.price_choices.iter().map(cell_to_pb).collect(),
                holders: x.holders.iter().map(holder_to_pb).collect(),
                units: x.units.clone(),
                next: x.next,
                president: x.president.as_ref().map(holder_to_pb),
                claimed: x.claimed,
                token_count: x.token_count,
                tuscan: x.tuscan,
                holding: x.holding.clone(),
                joins_round: x.joins_round,
                tokens_min_removal: x.tokens_min_removal,
                tokens_max_removal: x.tokens_max_removal,
                moved: x.moved.as_ref().map(|m| pb::MergerAssets {
                    initiator_cash: m.initiator_cash,
                    partner_cash: m.partner_cash,
                    initiator_trains: m.initiator_trains.clone(),
                    partner_trains: m.partner_trains.clone(),
                    certificates: m
                        .certificates
                        .iter()
                        .map(|c| pb::MovedCertificate {
                            corporation: c.corporation.clone(),
                            index: c.index,
                            owner: Some(holder_to_pb(&c.owner)),
                        })
                        .collect(),
                    next_market_arrival: m.next_market_arrival,
                    decider: m.decider,
                }),
                two_city: x.two_city.iter().map(map_token_to_pb).collect(),
                decider: x.decider,
                pass2: x
                    .pass2
                    .iter()
                    .map(|(h, c)| pb::OddShareAnswer {
                        holder: Some(holder_to_pb(h)),
                        choice: (match c {
                            eng::OddShareChoice::Cash => pb::OddShareChoice::Cash,
                            eng::OddShareChoice::FullShare => pb::OddShareChoice::FullShare,
                        }) as i32,
                    })
                    .collect(),
            }),
            eng::CorporateEvent::Transformation(x) => E::Transformation(pb::Transformation {
                minor: x.minor.clone(),
                major: x.major.clone(),
                stage: x.stage,
                holders: x.holders.iter().map(holder_to_pb).collect(),
                next: x.next,
                decider: x.decider,
            }),
        }),
    }
}

fn corporate_event_from_pb(
    path: &str,
    e: &pb::CorporateEvent,
    n: u32,
) -> Result<eng::CorporateEvent, Status> {
    use pb::corporate_event::Event as E;
    Ok(match e.event.as_ref() {
        None => return Err(bad(path, "empty corporate event")),
        Some(E::Split(x)) => {
            let p = format!("{path}.split");
            eng::CorporateEvent::Split(eng::Split {
                stage: match pb::SplitStage::try_from(x.stage) {
                    Ok(pb::SplitStage::Presidency) => eng::SplitStage::Presidency,
                    Ok(pb::SplitStage::SingleShares) => eng::SplitStage::SingleShares,
                    Ok(pb::SplitStage::Purchases) => eng::SplitStage::Purchases,
                    Ok(pb::SplitStage::RepeatRound) => eng::SplitStage::RepeatRound,
                    Ok(pb::SplitStage::Tokens) => eng::SplitStage::Tokens,
                    _ => {
                        return Err(bad(
                            format!("{p}.stage"),
                            "must be PRESIDENCY, SINGLE_SHARES, PURCHASES, REPEAT_ROUND or TOKENS",
                        ));
                    }
                },
                president: holder_from_pb(&format!("{p}.president"), x.president.as_ref(), n)?,
                holders: holders_from_pb(&format!("{p}.holders"), &x.holders, n)?,
                units: x.units.clone(),
                next: x.next,
                corporation: x.corporation.clone(),
                first_rounds_done: x.first_rounds_done,
                purchases_closed: x.purchases_closed.clone(),
                bought_this_round: x.bought_this_round,
                irsff_price: x.irsff_price,
            })
        }
        Some(E::Merger(x)) => {
            let p = format!("{path}.merger");
            eng::CorporateEvent::Merger(eng::Merger {
                initiator: x.initiator.clone(),
                partner: x.partner.clone(),
                stage: match pb::MergerStage::try_from(x.stage) {
                    Ok(pb::MergerStage::Price) => eng::MergerStage::Price,
                    Ok(pb::MergerStage::Corporation) => eng::MergerStage::Corporation,
                    Ok(pb::MergerStage::Presidency) => eng::MergerStage::Presidency,
                    Ok(pb::MergerStage::OddShares) => eng::MergerStage::OddShares,
                    Ok(pb::MergerStage::Tokens) => eng::MergerStage::Tokens,
                    Ok(pb::MergerStage::TwoCityTile) => eng::MergerStage::TwoCityTile,
                    _ => {
                        return Err(bad(
                            format!("{p}.stage"),
                            "must be PRICE, CORPORATION, PRESIDENCY, ODD_SHARES, TWO_CITY_TILE or TOKENS",
                        ));
                    }
                },
                target: x.target.clone(),
                cell: x.cell.as_ref().map(cell_from_pb),
                price_choices: x.price_choices.iter().map(cell_from_pb).collect(),
                holders: holders_from_pb(&format!("{p}.holders"), &x.holders, n)?,
                units: x.units.clone(),
                next: x.next,
                president: match x.president.as_ref() {
                    None => None,
                    Some(h) => Some(holder_from_pb(&format!("{p}.president"), Some(h), n)?),
                },
                claimed: x.claimed,
                token_count: x.token_count,
                tuscan: x.tuscan,
                holding: x.holding.clone(),
                joins_round: x.joins_round,
                tokens_min_removal: x.tokens_min_removal,
                tokens_max_removal: x.tokens_max_removal,
                // Unset in a state saved by an older build: the assets move with the exchange.
                moved: match x.moved.as_ref() {
                    None => None,
                    Some(m) => Some(eng::MovedAssets {
                        initiator_cash: m.initiator_cash,
                        partner_cash: m.partner_cash,
                        initiator_trains: m.initiator_trains.clone(),
                        partner_trains: m.partner_trains.clone(),
                        certificates: m
                            .certificates
                            .iter()
                            .enumerate()
                            .map(|(i, c)| {
                                Ok(eng::MovedCertificate {
                                    corporation: c.corporation.clone(),
                                    index: c.index,
                                    owner: holder_from_pb(
                                        &format!("{p}.moved.certificates[{i}].owner"),
                                        c.owner.as_ref(),
                                        n,
                                    )?,
                                })
                            })
                            .collect::<Result<Vec<_>, Status>>()?,
                        next_market_arrival: m.next_market_arrival,
                        decider: match m.decider {
                            None => None,
                            Some(s) => Some(seat(&format!("{p}.moved.decider"), s, n)?),
                        },
                    }),
                },
                // Empty and unset in a state saved by an older build.
                two_city: x.two_city.iter().map(map_token_from_pb).collect(),
                decider: match x.decider {
                    None => None,
                    Some(s) => Some(seat(&format!("{p}.decider"), s, n)?),
                },
                // Empty in a state saved by an older build.
                pass2: x
                    .pass2
                    .iter()
                    .enumerate()
                    .map(|(i, a)| {
                        let holder = holder_from_pb(
                            &format!("{p}.pass2[{i}].holder"),
                            a.holder.as_ref(),
                            n,
                        )?;
                        let choice = match pb::OddShareChoice::try_from(a.choice) {
                            Ok(pb::OddShareChoice::Cash) => eng::OddShareChoice::Cash,
                            Ok(pb::OddShareChoice::FullShare) => eng::OddShareChoice::FullShare,
                            _ => {
                                return Err(bad(
                                    format!("{p}.pass2[{i}].choice"),
                                    "must be CASH or FULL_SHARE",
                                ));
                            }
                        };
                        Ok((holder, choice))
                    })
                    .collect::<Result<Vec<_>, Status>>()?,
            })
        }
        Some(E::Transformation(x)) => {
            let p = format!("{path}.transformation");
            eng::CorporateEvent::Transformation(eng::Transformation {
                minor: x.minor.clone(),
                major: x.major.clone(),
                stage: x.stage,
                holders: holders_from_pb(&format!("{p}.holders"), &x.holders, n)?,
                next: x.next,
                decider: match x.decider {
                    None => None,
                    Some(s) => Some(seat(&format!("{p}.decider"), s, n)?),
                },
            })
        }
    })
}

fn queued_to_pb(q: eng::QueuedEvent) -> i32 {
    (match q {
        eng::QueuedEvent::FerdinandeaSplit => pb::QueuedEvent::FerdinandeaSplit,
        eng::QueuedEvent::TuscanMerge => pb::QueuedEvent::TuscanMerge,
    }) as i32
}

fn queued_from_pb(path: &str, v: i32) -> Result<eng::QueuedEvent, Status> {
    match pb::QueuedEvent::try_from(v) {
        Ok(pb::QueuedEvent::FerdinandeaSplit) => Ok(eng::QueuedEvent::FerdinandeaSplit),
        Ok(pb::QueuedEvent::TuscanMerge) => Ok(eng::QueuedEvent::TuscanMerge),
        _ => Err(bad(path, "must be FERDINANDEA_SPLIT or TUSCAN_MERGE")),
    }
}

fn corporation_from_pb(
    path: &dyn Fn() -> String,
    c: &pb::Corporation,
    n: u32,
) -> Result<eng::Corporation, Status> {
    let kind = match pb::CorporationKind::try_from(c.kind) {
        Ok(pb::CorporationKind::Major) => eng::CorporationKind::Major,
        Ok(pb::CorporationKind::Minor) => eng::CorporationKind::Minor,
        _ => return Err(bad(format!("{}.kind", path()), "must be MAJOR or MINOR")),
    };
    let share_price = match (&c.share_price, c.started) {
        (None, false) => None,
        (Some(p), true) => {
            let price = eng::market::price_at(p.row, p.col).ok_or_else(|| {
                bad(
                    format!("{}.share_price", path()),
                    format!("({}, {}) is not a cell of the stock market", p.row, p.col),
                )
            })?;
            if price != p.price {
                return Err(bad(
                    format!("{}.share_price.price", path()),
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
                format!("{}.share_price", path()),
                "set exactly when `started` is true",
            ));
        }
    };
    let certificates = c
        .certificates
        .iter()
        .enumerate()
        .map(|(j, x)| {
            // The path is built only for an error.
            let cpath = || format!("{}.certificates[{j}]", path());
            let owner = match pb::ShareHolderKind::try_from(x.holder) {
                Ok(pb::ShareHolderKind::Ipo) => eng::ShareOwner::Ipo,
                Ok(pb::ShareHolderKind::Pool) => eng::ShareOwner::Pool,
                Ok(pb::ShareHolderKind::Player) => eng::ShareOwner::Player(if x.seat < n {
                    x.seat
                } else {
                    seat(&format!("{}.seat", cpath()), x.seat, n)?
                }),
                Ok(pb::ShareHolderKind::Corporation) => {
                    eng::ShareOwner::Corporation(x.corporation.clone())
                }
                _ => {
                    return Err(bad(
                        format!("{}.holder", cpath()),
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
        closed: c.closed,
        ipo_first_share_ordinary: c.ipo_first_share_ordinary,
    })
}

fn step_to_pb(s: eng::StartStep) -> i32 {
    match s {
        eng::StartStep::BuyShares => pb::StartStep::BuyShares as i32,
        eng::StartStep::HomeToken => pb::StartStep::HomeToken as i32,
        eng::StartStep::BuyTokens => pb::StartStep::BuyTokens as i32,
    }
}

fn start_to_pb(x: &eng::CorporationStart) -> pb::CorporationStart {
    pb::CorporationStart {
        corporation: x.corporation.clone(),
        step: step_to_pb(x.step),
    }
}

/// A start in progress (1841 §5.4) at `path` (`stock_round.start`, `operating_round.start`).
fn start_from_pb(
    path: &str,
    x: Option<&pb::CorporationStart>,
) -> Result<Option<eng::CorporationStart>, Status> {
    let Some(x) = x else { return Ok(None) };
    let step = match pb::StartStep::try_from(x.step) {
        Ok(pb::StartStep::BuyShares) => eng::StartStep::BuyShares,
        Ok(pb::StartStep::HomeToken) => eng::StartStep::HomeToken,
        Ok(pb::StartStep::BuyTokens) => eng::StartStep::BuyTokens,
        _ => {
            return Err(bad(
                format!("{path}.step"),
                "must be BUY_SHARES, HOME_TOKEN or BUY_TOKENS",
            ));
        }
    };
    Ok(Some(eng::CorporationStart {
        corporation: x.corporation.clone(),
        step,
    }))
}

fn item_to_pb(i: &eng::PurchaseItem) -> pb::PurchaseItem {
    pb::PurchaseItem {
        item: Some(match i {
            eng::PurchaseItem::Shares {
                corporation,
                percent,
            } => pb::purchase_item::Item::Shares(pb::OfferedShares {
                corporation: corporation.clone(),
                percent: *percent,
            }),
            eng::PurchaseItem::Concession { concession } => {
                pb::purchase_item::Item::Concession(concession.clone())
            }
        }),
    }
}

/// `None` when the item is missing (the caller names the path or refuses the action).
fn item_from_pb(i: Option<&pb::PurchaseItem>) -> Option<eng::PurchaseItem> {
    Some(match i?.item.as_ref()? {
        pb::purchase_item::Item::Shares(x) => eng::PurchaseItem::Shares {
            corporation: x.corporation.clone(),
            percent: x.percent,
        },
        pb::purchase_item::Item::Concession(c) => eng::PurchaseItem::Concession {
            concession: c.clone(),
        },
    })
}

fn offer_to_pb(o: &eng::PurchaseOffer) -> pb::PurchaseOffer {
    pb::PurchaseOffer {
        buyer: o.buyer,
        seller: o.seller,
        item: Some(item_to_pb(&o.item)),
        price: o.price,
    }
}

fn offer_from_pb(path: &str, o: &pb::PurchaseOffer, n: u32) -> Result<eng::PurchaseOffer, Status> {
    Ok(eng::PurchaseOffer {
        buyer: seat(&format!("{path}.buyer"), o.buyer, n)?,
        seller: seat(&format!("{path}.seller"), o.seller, n)?,
        item: item_from_pb(o.item.as_ref())
            .ok_or_else(|| bad(format!("{path}.item"), "must name shares or a concession"))?,
        price: o.price,
    })
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
        start: r.start.as_ref().map(start_to_pb),
        offer: r.offer.as_ref().map(offer_to_pb),
        declined_offers: r.declined_offers.iter().map(offer_to_pb).collect(),
        pending_drops: r.pending_drops.iter().map(drop_to_pb).collect(),
    }
}

fn drop_to_pb(d: &eng::PriceDrop) -> pb::PriceDrop {
    pb::PriceDrop {
        corporation: d.corporation.clone(),
        rows: d.rows,
    }
}

fn drop_from_pb(d: &pb::PriceDrop) -> eng::PriceDrop {
    eng::PriceDrop {
        corporation: d.corporation.clone(),
        rows: d.rows,
    }
}

fn stock_round_from_pb(r: &pb::StockRound, n: u32) -> Result<eng::StockRound, Status> {
    let start = start_from_pb("stock_round.start", r.start.as_ref())?;
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
        offer: r
            .offer
            .as_ref()
            .map(|o| offer_from_pb("stock_round.offer", o, n))
            .transpose()?,
        declined_offers: r
            .declined_offers
            .iter()
            .enumerate()
            .map(|(i, o)| offer_from_pb(&format!("stock_round.declined_offers[{i}]"), o, n))
            .collect::<Result<Vec<_>, Status>>()?,
        pending_drops: r.pending_drops.iter().map(drop_from_pb).collect(),
    })
}

fn operating_step_to_pb(s: eng::OperatingStep) -> i32 {
    use pb::OperatingStep as P;
    (match s {
        eng::OperatingStep::Track => P::Track,
        eng::OperatingStep::Token => P::Token,
        eng::OperatingStep::Routes => P::Routes,
        eng::OperatingStep::Dividend => P::Dividend,
        eng::OperatingStep::BuyToken => P::BuyToken,
        eng::OperatingStep::Trains => P::Trains,
        eng::OperatingStep::Shares => P::Shares,
        eng::OperatingStep::Merge => P::Merge,
        eng::OperatingStep::Transform => P::Transform,
    }) as i32
}

fn operating_step_from_pb(path: &str, v: i32) -> Result<eng::OperatingStep, Status> {
    use pb::OperatingStep as P;
    Ok(match P::try_from(v) {
        Ok(P::Track) => eng::OperatingStep::Track,
        Ok(P::Token) => eng::OperatingStep::Token,
        Ok(P::Routes) => eng::OperatingStep::Routes,
        Ok(P::Dividend) => eng::OperatingStep::Dividend,
        Ok(P::BuyToken) => eng::OperatingStep::BuyToken,
        Ok(P::Trains) => eng::OperatingStep::Trains,
        Ok(P::Shares) => eng::OperatingStep::Shares,
        Ok(P::Merge) => eng::OperatingStep::Merge,
        Ok(P::Transform) => eng::OperatingStep::Transform,
        _ => {
            return Err(bad(
                path,
                "must be TRACK, TOKEN, ROUTES, DIVIDEND, BUY_TOKEN, TRAINS, SHARES, MERGE or TRANSFORM",
            ));
        }
    })
}

fn map_token_to_pb(t: &eng::MapToken) -> pb::MapToken {
    pb::MapToken {
        hex: t.hex.clone(),
        city: t.city,
    }
}

fn map_token_from_pb(t: &pb::MapToken) -> eng::MapToken {
    eng::MapToken {
        hex: t.hex.clone(),
        city: t.city,
    }
}

fn operating_round_to_pb(r: &eng::OperatingRound) -> pb::OperatingRound {
    pb::OperatingRound {
        stock_round: r.stock_round,
        number: r.number,
        total: r.total,
        current: r.current.clone(),
        done: r.done.clone(),
        step: operating_step_to_pb(r.step),
        laid_hexes: r.laid_hexes.clone(),
        used_bases: r.used_bases.iter().map(map_token_to_pb).collect(),
        bought_train: r.bought_train,
        revenue: r.revenue,
        sold: r.sold.clone(),
        start: r.start.as_ref().map(start_to_pb),
        crowded: r.crowded.clone(),
        event: r.event.as_deref().map(corporate_event_to_pb),
        queued_events: r.queued_events.iter().map(|q| queued_to_pb(*q)).collect(),
        emergency: r.emergency,
        train_obligation_released: r.train_obligation_released,
        pending_drops: r.pending_drops.iter().map(drop_to_pb).collect(),
        corporate_sales: r
            .corporate_sales
            .iter()
            .map(|x| pb::CorporateSale {
                seller: x.seller.clone(),
                corporation: x.corporation.clone(),
            })
            .collect(),
        split_slot: r.split_slot.map(|p| pb::SharePrice {
            price: eng::market::price_at(p.row, p.col).unwrap_or(0),
            row: p.row,
            col: p.col,
            arrival: p.arrival,
        }),
    }
}

fn operating_round_from_pb(r: &pb::OperatingRound, n: u32) -> Result<eng::OperatingRound, Status> {
    Ok(eng::OperatingRound {
        stock_round: r.stock_round,
        number: r.number,
        total: r.total,
        current: r.current.clone(),
        done: r.done.clone(),
        step: operating_step_from_pb("operating_round.step", r.step)?,
        laid_hexes: r.laid_hexes.clone(),
        used_bases: r.used_bases.iter().map(map_token_from_pb).collect(),
        bought_train: r.bought_train,
        revenue: r.revenue,
        sold: r.sold.clone(),
        start: start_from_pb("operating_round.start", r.start.as_ref())?,
        crowded: r.crowded.clone(),
        event: match r.event.as_ref() {
            None => None,
            Some(e) => Some(Box::new(corporate_event_from_pb(
                "operating_round.event",
                e,
                n,
            )?)),
        },
        queued_events: r
            .queued_events
            .iter()
            .enumerate()
            .map(|(i, q)| queued_from_pb(&format!("operating_round.queued_events[{i}]"), *q))
            .collect::<Result<_, _>>()?,
        emergency: r.emergency,
        train_obligation_released: r.train_obligation_released,
        pending_drops: r.pending_drops.iter().map(drop_from_pb).collect(),
        corporate_sales: r
            .corporate_sales
            .iter()
            .map(|x| eng::CorporateSale {
                seller: x.seller.clone(),
                corporation: x.corporation.clone(),
            })
            .collect(),
        split_slot: match r.split_slot.as_ref() {
            None => None,
            Some(p) => {
                if eng::market::price_at(p.row, p.col) != Some(p.price) {
                    return Err(bad(
                        "operating_round.split_slot",
                        format!(
                            "({}, {}) with price {} is not a cell of the stock market",
                            p.row, p.col, p.price
                        ),
                    ));
                }
                Some(eng::SharePrice {
                    row: p.row,
                    col: p.col,
                    arrival: p.arrival,
                })
            }
        },
    })
}

fn operations_to_pb(o: &eng::Operations) -> pb::Operations {
    pb::Operations {
        tiles: o
            .tiles
            .iter()
            .map(|(hex, t)| pb::PlacedTile {
                hex: hex.clone(),
                tile: t.tile.clone(),
                rotation: u32::from(t.rotation),
            })
            .collect(),
        depot_sold: o
            .depot_sold
            .iter()
            .map(|(t, n)| pb::DepotSale {
                train_type: t.clone(),
                sold: *n,
            })
            .collect(),
        pool_trains: o.pool_trains.clone(),
        trains: o
            .trains
            .iter()
            .map(|(c, list)| pb::CorporationTrains {
                corporation: c.clone(),
                trains: list.clone(),
            })
            .collect(),
        rusted: o.rusted.clone(),
    }
}

/// [`operations_to_pb`] of operations it consumes: the strings and lists are moved.
fn operations_into_pb(o: eng::Operations) -> pb::Operations {
    pb::Operations {
        tiles: o
            .tiles
            .into_iter()
            .map(|(hex, t)| pb::PlacedTile {
                hex,
                tile: t.tile,
                rotation: u32::from(t.rotation),
            })
            .collect(),
        depot_sold: o
            .depot_sold
            .into_iter()
            .map(|(train_type, sold)| pb::DepotSale { train_type, sold })
            .collect(),
        pool_trains: o.pool_trains,
        trains: o
            .trains
            .into_iter()
            .map(|(corporation, trains)| pb::CorporationTrains {
                corporation,
                trains,
            })
            .collect(),
        rusted: o.rusted,
    }
}

/// [`corporation_to_pb`] of a corporation it consumes: its symbol, tokens and holders' symbols
/// are moved.
fn corporation_into_pb(c: eng::Corporation) -> pb::Corporation {
    let share_price = c.share_price.map(|p| pb::SharePrice {
        price: c.price().unwrap_or(0),
        row: p.row,
        col: p.col,
        arrival: p.arrival,
    });
    let started = c.started();
    pb::Corporation {
        sym: c.sym,
        kind: kind_to_pb(c.kind),
        historical: c.historical,
        started,
        share_price,
        par_price: c.par_price,
        cash: c.cash,
        certificates: c
            .certificates
            .into_iter()
            .map(|x| {
                let (holder, seat, corporation) = match x.owner {
                    eng::ShareOwner::Ipo => (pb::ShareHolderKind::Ipo, 0, String::new()),
                    eng::ShareOwner::Pool => (pb::ShareHolderKind::Pool, 0, String::new()),
                    eng::ShareOwner::Player(s) => (pb::ShareHolderKind::Player, s, String::new()),
                    eng::ShareOwner::Corporation(o) => (pb::ShareHolderKind::Corporation, 0, o),
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
            .into_iter()
            .map(|t| pb::MapToken {
                hex: t.hex,
                city: t.city,
            })
            .collect(),
        operated: c.operated,
        closed: c.closed,
        ipo_first_share_ordinary: c.ipo_first_share_ordinary,
    }
}

/// Where the wire listed the keyed entries of `operations`, to name wire paths in the
/// validator's errors (the engine keys them by hex, train type and symbol). Built only for an
/// error, from a decoded `operations` (no key is listed twice there).
#[derive(Default)]
struct OperationsIndex {
    tiles: BTreeMap<String, usize>,
    depot_sold: BTreeMap<String, usize>,
    trains: BTreeMap<String, usize>,
}

impl OperationsIndex {
    fn of(o: Option<&pb::Operations>) -> Self {
        let Some(o) = o else {
            return Self::default();
        };
        let index = |keys: &mut dyn Iterator<Item = &String>| {
            keys.enumerate().map(|(i, k)| (k.clone(), i)).collect()
        };
        Self {
            tiles: index(&mut o.tiles.iter().map(|t| &t.hex)),
            depot_sold: index(&mut o.depot_sold.iter().map(|d| &d.train_type)),
            trains: index(&mut o.trains.iter().map(|c| &c.corporation)),
        }
    }
}

/// Finds the keys listed twice in a wire list whose entries are read in order. Lists this
/// server writes come from maps, in key order: a key greater than the one before cannot be a
/// repeat, so no set of keys is built until a key comes out of order.
#[derive(Default)]
struct Repeats<'a> {
    last: Option<&'a str>,
    seen: Option<std::collections::BTreeSet<&'a str>>,
}

impl<'a> Repeats<'a> {
    /// Whether `key` was listed before; `before` lists the keys read so far.
    fn repeated(&mut self, key: &'a str, before: impl Iterator<Item = &'a str>) -> bool {
        let seen = match &mut self.seen {
            Some(seen) => seen,
            None if self.last.is_none_or(|l| l < key) => {
                self.last = Some(key);
                return false;
            }
            None => self.seen.insert(before.collect()),
        };
        !seen.insert(key)
    }
}

fn operations_from_pb(o: &pb::Operations) -> Result<eng::Operations, Status> {
    // Entries are collected in wire order and the maps built at once (no key twice).
    let mut tiles = Vec::with_capacity(o.tiles.len());
    let mut repeats = Repeats::default();
    for (i, t) in o.tiles.iter().enumerate() {
        // The path is built only for an error.
        let path = || format!("operations.tiles[{i}]");
        if t.hex.is_empty() {
            return Err(bad(format!("{}.hex", path()), "missing"));
        }
        if t.tile.is_empty() {
            return Err(bad(format!("{}.tile", path()), "missing"));
        }
        let rotation = u8::try_from(t.rotation)
            .ok()
            .filter(|r| *r <= 5)
            .ok_or_else(|| bad(format!("{}.rotation", path()), "must be 0–5"))?;
        if repeats.repeated(&t.hex, o.tiles[..i].iter().map(|t| t.hex.as_str())) {
            return Err(bad(
                format!("{}.hex", path()),
                format!("{} has a tile listed already", t.hex),
            ));
        }
        let placed = eng::PlacedTile {
            tile: t.tile.clone(),
            rotation,
        };
        tiles.push((t.hex.clone(), placed));
    }
    let mut repeats = Repeats::default();
    for (i, d) in o.depot_sold.iter().enumerate() {
        let before = o.depot_sold[..i].iter().map(|d| d.train_type.as_str());
        if repeats.repeated(&d.train_type, before) {
            return Err(bad(
                format!("operations.depot_sold[{i}].train_type"),
                format!("train type `{}` listed twice", d.train_type),
            ));
        }
    }
    let mut repeats = Repeats::default();
    for (i, c) in o.trains.iter().enumerate() {
        let before = o.trains[..i].iter().map(|c| c.corporation.as_str());
        if repeats.repeated(&c.corporation, before) {
            return Err(bad(
                format!("operations.trains[{i}].corporation"),
                format!("`{}` listed twice", c.corporation),
            ));
        }
    }
    Ok(eng::Operations {
        tiles: tiles.into_iter().collect(),
        depot_sold: o
            .depot_sold
            .iter()
            .map(|d| (d.train_type.clone(), d.sold))
            .collect(),
        trains: o
            .trains
            .iter()
            .map(|c| (c.corporation.clone(), c.trains.clone()))
            .collect(),
        pool_trains: o.pool_trains.clone(),
        rusted: o.rusted.clone(),
    })
}

/// Splits `name[12]rest` into (12, rest).
fn split_index<'a>(path: &'a str, name: &str) -> Option<(usize, &'a str)> {
    let rest = path.strip_prefix(name)?.strip_prefix('[')?;
    let (n, rest) = rest.split_once(']')?;
    Some((n.parse().ok()?, rest))
}

/// Splits `name.KEY` or `name.KEY[..]…` into (KEY, rest).
fn split_key<'a>(path: &'a str, name: &str) -> Option<(&'a str, &'a str)> {
    let rest = path.strip_prefix(name)?.strip_prefix('.')?;
    let end = rest.find(['[', '.']).unwrap_or(rest.len());
    Some((&rest[..end], &rest[end..]))
}

/// Translates a path of the engine validator (engine field names, full-roster corporation
/// indices, map keys) into the wire path of the same field. Paths it does not know are
/// returned unchanged.
fn wire_path(
    path: &str,
    state: &eng::State,
    wire_corporations: &[Option<usize>],
    ops: &OperationsIndex,
) -> String {
    if let Some((ei, rest)) = split_index(path, "corporations") {
        let Some(c) = state.corporations.get(ei) else {
            return path.to_string();
        };
        let Some(Some(wi)) = wire_corporations.get(ei) else {
            // Not listed on the wire: an unstarted corporation the decoder filled in.
            return format!("corporations(unlisted {}){rest}", c.sym);
        };
        let mut rest = rest.to_string();
        if let Some((j, tail)) = split_index(&rest, ".certificates")
            && let Some(field) = tail.strip_prefix(".owner")
        {
            let wire = match c.certificates.get(j).map(|x| &x.owner) {
                Some(eng::ShareOwner::Player(_)) => "seat",
                Some(eng::ShareOwner::Corporation(_)) => "corporation",
                _ => "holder",
            };
            rest = format!(".certificates[{j}].{wire}{field}");
        }
        return format!("corporations[{wi}]{rest}");
    }
    for (name, map) in [
        ("operations.tiles", &ops.tiles),
        ("operations.depot_sold", &ops.depot_sold),
    ] {
        if let Some((key, rest)) = split_key(path, name)
            && let Some(i) = map.get(key)
        {
            return format!("{name}[{i}]{rest}");
        }
    }
    if let Some((key, rest)) = split_key(path, "operations.trains")
        && let Some(i) = ops.trains.get(key)
    {
        return match split_index(&format!("x{rest}"), "x") {
            Some((j, tail)) => format!("operations.trains[{i}].trains[{j}]{tail}"),
            None => format!("operations.trains[{i}]{rest}"),
        };
    }
    path.to_string()
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
                bankrupt: p.bankrupt,
                loan: p.loan,
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
            eng::Round::OperatingRound(r) => {
                pb::state::Round::OperatingRound(operating_round_to_pb(r))
            }
        }),
        corporations: {
            // Unstarted corporations equal to their fresh roster entry are left out; the
            // decoder fills them in (keeps concession-round states as small as before).
            s.corporations
                .iter()
                .enumerate()
                .filter(|&(i, c)| !fresh(&s.options, i, c))
                .map(|(_, c)| corporation_to_pb(c))
                .collect()
        },
        next_market_arrival: s.next_market_arrival,
        // Left out while empty (before the first operating round); decodes to empty.
        operations: (s.operations != eng::Operations::default())
            .then(|| operations_to_pb(&s.operations)),
        game_end: (s.game_end != eng::GameEnd::default()).then(|| pb::GameEnd {
            connected_offboards: s.game_end.connected_offboards.clone(),
            trigger: s.game_end.trigger.clone(),
            ended: s.game_end.ended,
        }),
    }
}

/// Whether corporation `c`, at index `i` of a state's corporations, equals its fresh roster
/// entry (the encoder leaves those out). A valid state has the roster's corporations in
/// roster order, so `c` is compared with the roster entry at its own index; only when that
/// entry has another symbol is the whole roster searched (symbols are distinct, so no other
/// entry can equal it otherwise).
fn fresh(options: &eng::Options, i: usize, c: &eng::Corporation) -> bool {
    let roster = eng::corporation::roster(options);
    match roster.get(i) {
        Some(r) if r.sym == c.sym => r == c,
        _ => roster.contains(c),
    }
}

/// [`state_to_pb`] of a state it consumes (Apply encodes the new state once and drops it):
/// the strings and lists of corporations, operations, phase and game end are moved into the
/// wire state instead of copied. Gives exactly `state_to_pb(&s)`.
pub fn state_into_pb(mut s: eng::State) -> pb::State {
    let corporations = std::mem::take(&mut s.corporations);
    let operations = std::mem::take(&mut s.operations);
    let game_end = std::mem::take(&mut s.game_end);
    let phase = std::mem::take(&mut s.phase);
    // The rest as `state_to_pb` writes it (the parts taken are empty there now).
    let mut out = state_to_pb(&s);
    out.phase = phase;
    out.corporations = corporations
        .into_iter()
        .enumerate()
        .filter(|(i, c)| !fresh(&s.options, *i, c))
        .map(|(_, c)| corporation_into_pb(c))
        .collect();
    out.operations =
        (operations != eng::Operations::default()).then(|| operations_into_pb(operations));
    out.game_end = (game_end != eng::GameEnd::default()).then_some(pb::GameEnd {
        connected_offboards: game_end.connected_offboards,
        trigger: game_end.trigger,
        ended: game_end.ended,
    });
    out
}

/// Decodes and validates a state. Errors: `INVALID_ARGUMENT` naming the first bad field.
pub fn state_from_pb(s: &pb::State) -> Result<eng::State, Status> {
    let options = options_from_pb(&s.options.unwrap_or_default());
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
        if p.loan < 0 {
            return Err(bad(format!("players[{i}].loan"), "must not be negative"));
        }
        players.push(eng::Player {
            seat: p.seat,
            cash: p.cash,
            concessions: concessions(&format!("players[{i}].concessions"), &p.concessions)?,
            bankrupt: p.bankrupt,
            loan: p.loan,
        });
    }
    let mut order = s.player_order.clone();
    order.sort_unstable();
    if order != (0..n).collect::<Vec<_>>() {
        return Err(bad("player_order", "must list every seat exactly once"));
    }
    // 1841 §13: a broken bank goes below 0 (the engine's validator checks the trigger).
    if s.bank_cash < 0 && s.game_end.as_ref().is_none_or(|g| g.trigger.is_none()) {
        return Err(bad("bank_cash", "must not be negative"));
    }
    let round = match s.round.as_ref() {
        None => return Err(bad("round", "missing")),
        Some(pb::state::Round::StockRound(r)) => eng::Round::StockRound(stock_round_from_pb(r, n)?),
        Some(pb::state::Round::OperatingRound(r)) => {
            eng::Round::OperatingRound(operating_round_from_pb(r, n)?)
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
    // ones, in roster order); every other corporation of the ruleset is unstarted (a copy of
    // its roster entry).
    let roster = eng::corporation::roster(&options);
    let mut corporations: Vec<eng::Corporation> = Vec::with_capacity(roster.len());
    // Wire index of each roster entry (`None`: not listed, unstarted).
    let mut wire_corporations = vec![None; roster.len()];
    let mut last = None;
    for (i, c) in s.corporations.iter().enumerate() {
        // The path is built only for an error.
        let path = || format!("corporations[{i}]");
        let decoded = corporation_from_pb(&path, c, n)?;
        let Some(at) = eng::corporation::roster_index(&options, &decoded.sym) else {
            return Err(bad(
                format!("{}.sym", path()),
                format!("`{}` is not a corporation of these rules", decoded.sym),
            ));
        };
        if last.is_some_and(|l| at <= l) {
            return Err(bad(
                format!("{}.sym", path()),
                "corporations must be listed once each, in roster order",
            ));
        }
        last = Some(at);
        corporations.extend_from_slice(&roster[corporations.len()..at]);
        corporations.push(decoded);
        wire_corporations[at] = Some(i);
    }
    corporations.extend_from_slice(&roster[corporations.len()..]);
    // Turn progress the engine validator leaves alone: names must exist.
    if let eng::Round::OperatingRound(r) = &round {
        for (i, c) in r.sold.iter().enumerate() {
            if !corporations.iter().any(|x| &x.sym == c) {
                return Err(bad(
                    format!("operating_round.sold[{i}]"),
                    format!("`{c}` is not a corporation of these rules"),
                ));
            }
        }
        let m = eng::map::map(&options);
        for (i, b) in r.used_bases.iter().enumerate() {
            if !m.hexes.contains_key(&b.hex) {
                return Err(bad(
                    format!("operating_round.used_bases[{i}].hex"),
                    format!("`{}` is not a hex of this map", b.hex),
                ));
            }
        }
    }
    let operations = match &s.operations {
        Some(o) => operations_from_pb(o)?,
        None => Default::default(),
    };
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
        operations,
        game_end: s
            .game_end
            .as_ref()
            .map(|g| eng::GameEnd {
                connected_offboards: g.connected_offboards.clone(),
                trigger: g.trigger.clone(),
                ended: g.ended,
            })
            .unwrap_or_default(),
    };
    // The engine's invariant checker (conservation, indices); its paths become wire paths.
    eng::check_invariants(&state).map_err(|e| {
        bad(
            wire_path(
                &e.path,
                &state,
                &wire_corporations,
                &OperationsIndex::of(s.operations.as_ref()),
            ),
            &e.message,
        )
    })?;
    Ok(state)
}

fn route_to_pb(r: &eng::Route) -> pb::Route {
    pb::Route {
        train: r.train.clone(),
        stops: r
            .stops
            .iter()
            .map(|x| pb::Stop {
                hex: x.hex.clone(),
                node: x.node,
            })
            .collect(),
        connections: r
            .connections
            .iter()
            .map(|c| pb::HexChain { hexes: c.clone() })
            .collect(),
    }
}

fn route_from_pb(r: &pb::Route) -> eng::Route {
    eng::Route {
        train: r.train.clone(),
        stops: r
            .stops
            .iter()
            .map(|x| eng::Stop {
                hex: x.hex.clone(),
                node: x.node,
            })
            .collect(),
        connections: r.connections.iter().map(|c| c.hexes.clone()).collect(),
    }
}

fn action_to_pb_inner(a: &eng::Action) -> pb::Action {
    pb::Action {
        action: Some(match a {
            eng::Action::Bid { concession, price } => pb::action::Action::Bid(pb::Bid {
                concession: concession.clone(),
                price: *price,
            }),
            eng::Action::Pass => pb::action::Action::Pass(pb::Pass {}),
            eng::Action::LayTile {
                hex,
                tile,
                rotation,
            } => pb::action::Action::LayTile(pb::LayTile {
                hex: hex.clone(),
                tile: tile.clone(),
                rotation: *rotation,
            }),
            eng::Action::BuyTrain { train, from, price } => {
                pb::action::Action::BuyTrain(pb::BuyTrain {
                    train: train.clone(),
                    from: from.clone(),
                    price: *price,
                })
            }
            eng::Action::RunRoutes { routes } => pb::action::Action::RunRoutes(pb::RunRoutes {
                routes: routes.iter().map(route_to_pb).collect(),
            }),
            eng::Action::Dividend { payout } => {
                pb::action::Action::Dividend(pb::Dividend { payout: *payout })
            }
            eng::Action::BuyToken {
                hex,
                city,
                seller,
                price,
            } => pb::action::Action::BuyToken(pb::BuyToken {
                hex: hex.clone(),
                city: *city,
                seller: seller.clone(),
                price: *price,
            }),
            eng::Action::EmergencySell {
                seller,
                corporation,
                percent,
            } => pb::action::Action::EmergencySell(pb::EmergencySell {
                seller: seller.clone(),
                corporation: corporation.clone(),
                percent: *percent,
            }),
            eng::Action::DeclareBankruptcy { loan } => {
                pb::action::Action::DeclareBankruptcy(pb::DeclareBankruptcy { loan: *loan })
            }
            eng::Action::DiscardTrain { corporation, train } => {
                pb::action::Action::DiscardTrain(pb::DiscardTrain {
                    corporation: corporation.clone(),
                    train: train.clone(),
                })
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
            eng::Action::ChooseSplitPresidency { corporation } => {
                pb::action::Action::ChooseSplitPresidency(pb::ChooseSplitPresidency {
                    corporation: corporation.clone(),
                })
            }
            eng::Action::ExchangeSplitShare { corporation } => {
                pb::action::Action::ExchangeSplitShare(pb::ExchangeSplitShare {
                    corporation: corporation.clone(),
                })
            }
            eng::Action::RepeatPurchaseRound { repeat } => {
                pb::action::Action::RepeatPurchaseRound(pb::RepeatPurchaseRound { repeat: *repeat })
            }
            eng::Action::ProposeMerger { partner } => {
                pb::action::Action::ProposeMerger(pb::ProposeMerger {
                    partner: partner.clone(),
                })
            }
            eng::Action::ChooseMergerPrice { price } => {
                pb::action::Action::ChooseMergerPrice(pb::ChooseMergerPrice { price: *price })
            }
            eng::Action::FormCorporation { corporation } => {
                pb::action::Action::FormCorporation(pb::FormCorporation {
                    corporation: corporation.clone(),
                })
            }
            eng::Action::ClaimPresidency { claim } => {
                pb::action::Action::ClaimPresidency(pb::ClaimPresidency { claim: *claim })
            }
            eng::Action::ExchangeOddShare { choice } => {
                pb::action::Action::ExchangeOddShare(pb::ExchangeOddShare {
                    choice: (match choice {
                        eng::OddShareChoice::Cash => pb::OddShareChoice::Cash,
                        eng::OddShareChoice::FullShare => pb::OddShareChoice::FullShare,
                    }) as i32,
                })
            }
            eng::Action::RemoveToken { hex, city } => {
                pb::action::Action::RemoveToken(pb::RemoveToken {
                    hex: hex.clone(),
                    city: *city,
                })
            }
            eng::Action::Transform { corporation } => {
                pb::action::Action::Transform(pb::Transform {
                    corporation: corporation.clone(),
                })
            }
            eng::Action::OfferPurchase {
                seller,
                item,
                price,
            } => pb::action::Action::OfferPurchase(pb::OfferPurchase {
                seller: *seller,
                item: Some(item_to_pb(item)),
                price: *price,
            }),
            eng::Action::AnswerOffer { accept } => {
                pb::action::Action::AnswerOffer(pb::AnswerOffer { accept: *accept })
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
            // Every value is read by `referee_engine::catalog::parse_switch`: true/false,
            // 1/0, yes/no, on/off, or `default`/empty for the version default.
            o.set(name, value)
                .map_err(|e| Status::invalid_argument(format!("options[{name}]: {e}")))?;
        }
        Ok(o)
    }

    fn state_to_pb(state: &eng::State) -> v1::game_state::State {
        v1::game_state::State::G1841(state_to_pb(state))
    }

    fn state_into_pb(state: eng::State) -> v1::game_state::State {
        v1::game_state::State::G1841(state_into_pb(state))
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
            Some(pb::action::Action::LayTile(b)) => Ok(eng::Action::LayTile {
                hex: b.hex.clone(),
                tile: b.tile.clone(),
                rotation: b.rotation,
            }),
            Some(pb::action::Action::BuyTrain(b)) => Ok(eng::Action::BuyTrain {
                train: b.train.clone(),
                from: b.from.clone(),
                price: b.price,
            }),
            Some(pb::action::Action::RunRoutes(b)) => Ok(eng::Action::RunRoutes {
                routes: b.routes.iter().map(route_from_pb).collect(),
            }),
            Some(pb::action::Action::Dividend(b)) => Ok(eng::Action::Dividend { payout: b.payout }),
            Some(pb::action::Action::BuyToken(b)) => Ok(eng::Action::BuyToken {
                hex: b.hex.clone(),
                city: b.city,
                seller: b.seller.clone(),
                price: b.price,
            }),
            Some(pb::action::Action::EmergencySell(b)) => Ok(eng::Action::EmergencySell {
                seller: b.seller.clone(),
                corporation: b.corporation.clone(),
                percent: b.percent,
            }),
            Some(pb::action::Action::DeclareBankruptcy(b)) => {
                Ok(eng::Action::DeclareBankruptcy { loan: b.loan })
            }
            Some(pb::action::Action::DiscardTrain(b)) => Ok(eng::Action::DiscardTrain {
                corporation: b.corporation.clone(),
                train: b.train.clone(),
            }),
            Some(pb::action::Action::ChooseSplitPresidency(b)) => {
                Ok(eng::Action::ChooseSplitPresidency {
                    corporation: b.corporation.clone(),
                })
            }
            Some(pb::action::Action::ExchangeSplitShare(b)) => {
                Ok(eng::Action::ExchangeSplitShare {
                    corporation: b.corporation.clone(),
                })
            }
            Some(pb::action::Action::RepeatPurchaseRound(b)) => {
                Ok(eng::Action::RepeatPurchaseRound { repeat: b.repeat })
            }
            Some(pb::action::Action::ProposeMerger(b)) => Ok(eng::Action::ProposeMerger {
                partner: b.partner.clone(),
            }),
            Some(pb::action::Action::ChooseMergerPrice(b)) => {
                Ok(eng::Action::ChooseMergerPrice { price: b.price })
            }
            Some(pb::action::Action::FormCorporation(b)) => Ok(eng::Action::FormCorporation {
                corporation: b.corporation.clone(),
            }),
            Some(pb::action::Action::ClaimPresidency(b)) => {
                Ok(eng::Action::ClaimPresidency { claim: b.claim })
            }
            Some(pb::action::Action::ExchangeOddShare(b)) => {
                let choice = match pb::OddShareChoice::try_from(b.choice) {
                    Ok(pb::OddShareChoice::Cash) => eng::OddShareChoice::Cash,
                    Ok(pb::OddShareChoice::FullShare) => eng::OddShareChoice::FullShare,
                    _ => {
                        return Err(Rejection::new(
                            RejectionCode::InvalidArgument,
                            "1841 §12.1",
                            "exchange_odd_share.choice must be CASH or FULL_SHARE.",
                        ));
                    }
                };
                Ok(eng::Action::ExchangeOddShare { choice })
            }
            Some(pb::action::Action::RemoveToken(b)) => Ok(eng::Action::RemoveToken {
                hex: b.hex.clone(),
                city: b.city,
            }),
            Some(pb::action::Action::Transform(b)) => Ok(eng::Action::Transform {
                corporation: b.corporation.clone(),
            }),
            Some(pb::action::Action::OfferPurchase(b)) => Ok(eng::Action::OfferPurchase {
                seller: b.seller,
                item: item_from_pb(b.item.as_ref()).ok_or_else(|| {
                    Rejection::new(
                        RejectionCode::InvalidArgument,
                        "1841 §15.3",
                        "An offer must name shares or a concession.",
                    )
                })?,
                price: b.price,
            }),
            Some(pb::action::Action::AnswerOffer(b)) => {
                Ok(eng::Action::AnswerOffer { accept: b.accept })
            }
        }
    }

    fn action_to_pb(action: &eng::Action) -> v1::Action {
        v1::Action {
            action: Some(v1::action::Action::G1841(action_to_pb_inner(action))),
        }
    }

    fn describe(
        state: &eng::State,
        seat: referee_engine::Seat,
        action: &eng::Action,
    ) -> (String, Result<(), referee_engine::Rejection>) {
        referee_engine::g1841::assist::describe(state, seat, action)
    }

    fn default_action(state: &eng::State, seat: referee_engine::Seat) -> Option<eng::Action> {
        referee_engine::g1841::assist::default_action(state, seat)
    }

    fn is_pass(action: &eng::Action) -> bool {
        referee_engine::g1841::assist::is_pass(action)
    }

    fn rare(action: &eng::Action) -> bool {
        crate::playout::g1841_rare(action)
    }

    fn policy_names() -> &'static [&'static str] {
        &referee_engine::g1841::heuristic::POLICY_NAMES
    }

    fn without_secrets(state: &eng::State, seat: referee_engine::Seat, _seed: u64) -> eng::State {
        referee_engine::g1841::view::without_others_secrets(state, seat)
    }

    fn bot(name: &str) -> Option<crate::playout::BotFn<referee_engine::g1841::G1841>> {
        match name {
            "heuristic" => Some(referee_engine::g1841::heuristic::choose),
            _ => None,
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
            eng::Action::DiscardTrain { .. } => "discard_train",
            eng::Action::ChooseSplitPresidency { .. } => "choose_split_presidency",
            eng::Action::ExchangeSplitShare { .. } => "exchange_split_share",
            eng::Action::RepeatPurchaseRound { .. } => "repeat_purchase_round",
            eng::Action::ProposeMerger { .. } => "propose_merger",
            eng::Action::ChooseMergerPrice { .. } => "choose_merger_price",
            eng::Action::FormCorporation { .. } => "form_corporation",
            eng::Action::ClaimPresidency { .. } => "claim_presidency",
            eng::Action::ExchangeOddShare { .. } => "exchange_odd_share",
            eng::Action::RemoveToken { .. } => "remove_token",
            eng::Action::Transform { .. } => "transform",
            eng::Action::EmergencySell { .. } => "emergency_sell",
            eng::Action::DeclareBankruptcy { .. } => "declare_bankruptcy",
            eng::Action::OfferPurchase { .. } => "offer_purchase",
            eng::Action::AnswerOffer { .. } => "answer_offer",
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
                by_corporation,
            } => E::CorporationStarted(pb::CorporationStarted {
                seat: *seat,
                corporation: corporation.clone(),
                price: *price,
                by_corporation: by_corporation.clone(),
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
            eng::Event::OperatingTurn { corporation } => E::OperatingTurn(pb::OperatingTurn {
                corporation: corporation.clone(),
            }),
            eng::Event::TileLaid {
                corporation,
                hex,
                tile,
                rotation,
                cost,
            } => E::TileLaid(pb::TileLaid {
                corporation: corporation.clone(),
                hex: hex.clone(),
                tile: tile.clone(),
                rotation: *rotation,
                cost: *cost,
            }),
            eng::Event::DidNotRun { corporation } => E::DidNotRun(pb::DidNotRun {
                corporation: corporation.clone(),
            }),
            eng::Event::TrainBought {
                corporation,
                train,
                from,
                price,
            } => E::TrainBought(pb::TrainBought {
                corporation: corporation.clone(),
                train: train.clone(),
                from: from.clone(),
                price: *price,
            }),
            eng::Event::PhaseChanged { phase } => E::PhaseChanged(pb::PhaseChanged {
                phase: phase.clone(),
            }),
            eng::Event::TrainsRusted { trains } => E::TrainsRusted(pb::TrainsRusted {
                trains: trains.clone(),
            }),
            eng::Event::CorporationBoughtShares {
                buyer,
                corporation,
                percent,
                from_pool,
                price,
            } => E::CorporationBoughtShares(pb::CorporationBoughtShares {
                buyer: buyer.clone(),
                corporation: corporation.clone(),
                percent: *percent,
                from_pool: *from_pool,
                price: *price,
            }),
            eng::Event::RoutesRun {
                corporation,
                revenues,
                revenue,
            } => E::RoutesRun(pb::RoutesRun {
                corporation: corporation.clone(),
                revenues: revenues.clone(),
                revenue: *revenue,
            }),
            eng::Event::DividendPaid {
                corporation,
                revenue,
                to_treasury,
            } => E::DividendPaid(pb::DividendPaid {
                corporation: corporation.clone(),
                revenue: *revenue,
                to_treasury: *to_treasury,
            }),
            eng::Event::Withheld {
                corporation,
                revenue,
            } => E::Withheld(pb::Withheld {
                corporation: corporation.clone(),
                revenue: *revenue,
            }),
            eng::Event::CorporationSoldShares {
                seller,
                corporation,
                percent,
                price,
            } => E::CorporationSoldShares(pb::CorporationSoldShares {
                seller: seller.clone(),
                corporation: corporation.clone(),
                percent: *percent,
                price: *price,
            }),
            eng::Event::TokenBought {
                corporation,
                seller,
                hex,
                city,
                price,
            } => E::TokenBought(pb::TokenBought {
                corporation: corporation.clone(),
                seller: seller.clone(),
                hex: hex.clone(),
                city: *city,
                price: *price,
            }),
            eng::Event::EmergencySold {
                seller,
                seat,
                corporation,
                percent,
                proceeds,
            } => E::EmergencySold(pb::EmergencySold {
                seller: seller.clone(),
                seat: *seat,
                corporation: corporation.clone(),
                percent: *percent,
                proceeds: *proceeds,
            }),
            eng::Event::EmergencyFunds {
                corporation,
                from,
                amount,
            } => E::EmergencyFunds(pb::EmergencyFunds {
                corporation: corporation.clone(),
                from: from.clone(),
                amount: *amount,
            }),
            eng::Event::Bankrupt {
                seat,
                corporation,
                loan,
            } => E::Bankrupt(pb::Bankrupt {
                seat: *seat,
                corporation: corporation.clone(),
                loan: *loan,
            }),
            eng::Event::GameEnded { reason, scores } => E::GameEnded(pb::GameEnded {
                reason: reason.clone(),
                scores: scores.clone(),
            }),
            eng::Event::TrainDiscarded { corporation, train } => {
                E::TrainDiscarded(pb::TrainDiscarded {
                    corporation: corporation.clone(),
                    train: train.clone(),
                })
            }
            eng::Event::ConcessionClosed { seat, concession } => {
                E::ConcessionClosed(pb::ConcessionClosed {
                    seat: *seat,
                    concession: concession.as_str().to_string(),
                })
            }
            eng::Event::CorporationClosed { corporation } => {
                E::CorporationClosed(pb::CorporationClosed {
                    corporation: corporation.clone(),
                })
            }
            eng::Event::CorporationAvailable { corporation } => {
                E::CorporationAvailable(pb::CorporationAvailable {
                    corporation: corporation.clone(),
                })
            }
            eng::Event::CorporationFormed {
                corporation,
                from,
                price,
                row,
                col,
            } => E::CorporationFormed(pb::CorporationFormed {
                corporation: corporation.clone(),
                from: from.clone(),
                price: *price,
                row: *row,
                col: *col,
            }),
            eng::Event::SharesExchanged {
                holder,
                corporation,
                percent,
                president,
            } => E::SharesExchanged(pb::SharesExchanged {
                holder: Some(holder_to_pb(holder)),
                corporation: corporation.clone(),
                percent: *percent,
                president: *president,
            }),
            eng::Event::ExchangePayment {
                holder,
                corporation,
                amount,
                to_corporation,
            } => E::ExchangePayment(pb::ExchangePayment {
                holder: Some(holder_to_pb(holder)),
                corporation: corporation.clone(),
                amount: *amount,
                to_corporation: *to_corporation,
            }),
            eng::Event::PresidencyMoved {
                corporation,
                president,
            } => E::PresidencyMoved(pb::PresidencyMoved {
                corporation: corporation.clone(),
                president: Some(holder_to_pb(president)),
            }),
            eng::Event::FrozenChanged {
                corporation,
                frozen,
            } => E::FrozenChanged(pb::FrozenChanged {
                corporation: corporation.clone(),
                frozen: *frozen,
            }),
            eng::Event::TokenRemoved {
                corporation,
                hex,
                city,
            } => E::TokenRemoved(pb::TokenRemoved {
                corporation: corporation.clone(),
                hex: hex.clone(),
                city: *city,
            }),
            eng::Event::MergerFailed { initiator, partner } => E::MergerFailed(pb::MergerFailed {
                initiator: initiator.clone(),
                partner: partner.clone(),
            }),
            eng::Event::OfferMade { offer } => E::OfferMade(pb::OfferMade {
                offer: Some(offer_to_pb(offer)),
            }),
            eng::Event::OfferAccepted { offer } => E::OfferAccepted(pb::OfferAccepted {
                offer: Some(offer_to_pb(offer)),
            }),
            eng::Event::OfferDeclined { offer } => E::OfferDeclined(pb::OfferDeclined {
                offer: Some(offer_to_pb(offer)),
            }),
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
            train_purchases: legal
                .train_purchases
                .iter()
                .map(|t| pb::TrainPurchaseRange {
                    train: t.train.clone(),
                    from: t.from.clone(),
                    min_price: t.min_price,
                    max_price: t.max_price,
                })
                .collect(),
            run_routes: legal.run_routes.as_ref().map(|trains| pb::RunRoutesRange {
                trains: trains.clone(),
            }),
            token_purchases: legal
                .token_purchases
                .iter()
                .map(|t| pb::TokenPurchaseRange {
                    hex: t.hex.clone(),
                    city: t.city,
                    seller: t.seller.clone(),
                    min_price: t.min_price,
                    max_price: t.max_price,
                })
                .collect(),
            offers: legal
                .offers
                .iter()
                .map(|o| pb::OfferRange {
                    seller: o.seller,
                    item: Some(item_to_pb(&o.item)),
                    min_price: o.min_price,
                    max_price: o.max_price,
                    market_value: o.market_value,
                })
                .collect(),
        })
    }

    fn view_to_pb(view: &eng::View) -> v1::view_response::View {
        v1::view_response::View::G1841(pb::View {
            state: Some(state_to_pb(&view.state)),
        })
    }

    fn seat_count(state: &eng::State) -> u32 {
        u32::try_from(state.players.len()).unwrap_or(u32::MAX)
    }
}

/// Largest work budget SuggestRoutes accepts (4 × the optimizer's default).
pub const SUGGEST_ROUTES_MAX_BUDGET: u64 = 20_000_000;

/// SuggestRoutes (1841 §9.3): the route optimizer's best route set
/// ([`referee_engine::g1841::operating_round::best_routes`]) for `corporation` (empty: the
/// one operating now) within `work_budget` units (0: the default 5,000,000). Errors:
/// INVALID_ARGUMENT (not an 1841 state, unknown corporation, budget above
/// [`SUGGEST_ROUTES_MAX_BUDGET`]), FAILED_PRECONDITION (no corporation named and none is
/// operating).
pub fn suggest_routes(
    gs: &v1::GameState,
    req: &v1::SuggestRoutesRequest,
) -> Result<v1::SuggestRoutesResponse, Status> {
    use referee_engine::g1841::operating_round::{DEFAULT_BUDGET, best_routes, current};
    if gs.game != Wire1841::ID {
        return Err(Status::invalid_argument(format!(
            "state.game: SuggestRoutes is for 1841 states, got `{}`",
            gs.game
        )));
    }
    let state = crate::games::decode_state::<Wire1841>(gs)?;
    let sym = if req.corporation.is_empty() {
        current(&state).ok_or_else(|| {
            Status::failed_precondition(
                "corporation: no corporation is operating now; name one in `corporation`",
            )
        })?
    } else {
        if !state.corporations.iter().any(|c| c.sym == req.corporation) {
            return Err(Status::invalid_argument(format!(
                "corporation: `{}` is not a corporation of this game",
                req.corporation
            )));
        }
        req.corporation.clone()
    };
    let budget = match req.work_budget {
        0 => DEFAULT_BUDGET,
        b if b > SUGGEST_ROUTES_MAX_BUDGET => {
            return Err(Status::invalid_argument(format!(
                "work_budget: at most {SUGGEST_ROUTES_MAX_BUDGET} units, got {b}"
            )));
        }
        b => b,
    };
    let best = best_routes(&state, &sym, budget);
    Ok(v1::SuggestRoutesResponse {
        corporation: sym,
        routes: best.routes.iter().map(route_to_pb).collect(),
        revenues: best.revenues,
        revenue: best.revenue,
        proven_optimal: best.proven_optimal,
        work: best.work,
    })
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
                // The recorded-game test covers operating rounds; this one stops there.
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
                for e in events {
                    assert!(Wire1841::event_to_pb(&e).event.is_some());
                }
            }
            assert!(saw_stock_round);
            assert!(matches!(state.round, eng::Round::OperatingRound(_)));
            assert!(state.corporations.iter().any(|c| c.started()));
        }
    }

    /// Decodes an event (test only: the service never reads events back).
    fn event_from_pb(e: &v1::Event) -> eng::Event {
        use pb::event::Event as E;
        let Some(v1::event::Event::G1841(pb::Event { event: Some(e) })) = &e.event else {
            panic!("not a 1841 event: {e:?}")
        };
        let c = |s: &str| s.parse::<Concession>().unwrap();
        match e.clone() {
            E::AuctionOpened(x) => eng::Event::AuctionOpened {
                seat: x.seat,
                concession: c(&x.concession),
                price: x.price,
            },
            E::BidPlaced(x) => eng::Event::BidPlaced {
                seat: x.seat,
                concession: c(&x.concession),
                price: x.price,
            },
            E::NominationPassed(x) => eng::Event::NominationPassed { seat: x.seat },
            E::DroppedOut(x) => eng::Event::DroppedOut {
                seat: x.seat,
                concession: c(&x.concession),
            },
            E::ConcessionBought(x) => eng::Event::ConcessionBought {
                seat: x.seat,
                concession: c(&x.concession),
                price: x.price,
            },
            E::SealedBidSubmitted(x) => eng::Event::SealedBidSubmitted { seat: x.seat },
            E::SealedBidsRevealed(x) => eng::Event::SealedBidsRevealed {
                bids: x
                    .bids
                    .iter()
                    .map(|b| eng::SealedBid {
                        seat: b.seat,
                        submitted: b.submitted,
                        amounts: b.amounts.clone(),
                    })
                    .collect(),
            },
            E::ConcessionToBank(x) => eng::Event::ConcessionToBank {
                concession: c(&x.concession),
            },
            E::PlayerOrderChanged(x) => eng::Event::PlayerOrderChanged {
                player_order: x.player_order,
            },
            E::RoundStarted(x) => eng::Event::RoundStarted { name: x.name },
            E::Passed(x) => eng::Event::Passed {
                seat: x.seat,
                automatic: x.automatic,
            },
            E::CorporationStarted(x) => eng::Event::CorporationStarted {
                seat: x.seat,
                corporation: x.corporation,
                price: x.price,
                by_corporation: x.by_corporation,
            },
            E::SharesBought(x) => eng::Event::SharesBought {
                seat: x.seat,
                corporation: x.corporation,
                percent: x.percent,
                from_pool: x.from_pool,
                price: x.price,
            },
            E::SharesSold(x) => eng::Event::SharesSold {
                seat: x.seat,
                corporation: x.corporation,
                percent: x.percent,
                price: x.price,
            },
            E::PresidentChanged(x) => eng::Event::PresidentChanged {
                corporation: x.corporation,
                seat: x.seat,
            },
            E::SharePriceChanged(x) => eng::Event::SharePriceChanged {
                corporation: x.corporation,
                price: x.price,
                row: x.row,
                col: x.col,
            },
            E::TokenPlaced(x) => eng::Event::TokenPlaced {
                corporation: x.corporation,
                hex: x.hex,
                city: x.city,
            },
            E::TokensBought(x) => eng::Event::TokensBought {
                corporation: x.corporation,
                count: x.count,
                price: x.price,
            },
            E::ConcessionIncome(x) => eng::Event::ConcessionIncome {
                seat: x.seat,
                concession: c(&x.concession),
                amount: x.amount,
            },
            E::ConcessionReturned(x) => eng::Event::ConcessionReturned {
                seat: x.seat,
                concession: c(&x.concession),
            },
            E::OperatingTurn(x) => eng::Event::OperatingTurn {
                corporation: x.corporation,
            },
            E::TileLaid(x) => eng::Event::TileLaid {
                corporation: x.corporation,
                hex: x.hex,
                tile: x.tile,
                rotation: x.rotation,
                cost: x.cost,
            },
            E::DidNotRun(x) => eng::Event::DidNotRun {
                corporation: x.corporation,
            },
            E::TrainBought(x) => eng::Event::TrainBought {
                corporation: x.corporation,
                train: x.train,
                from: x.from,
                price: x.price,
            },
            E::PhaseChanged(x) => eng::Event::PhaseChanged { phase: x.phase },
            E::TrainsRusted(x) => eng::Event::TrainsRusted { trains: x.trains },
            E::CorporationBoughtShares(x) => eng::Event::CorporationBoughtShares {
                buyer: x.buyer,
                corporation: x.corporation,
                percent: x.percent,
                from_pool: x.from_pool,
                price: x.price,
            },
            E::RoutesRun(x) => eng::Event::RoutesRun {
                corporation: x.corporation,
                revenues: x.revenues,
                revenue: x.revenue,
            },
            E::DividendPaid(x) => eng::Event::DividendPaid {
                corporation: x.corporation,
                revenue: x.revenue,
                to_treasury: x.to_treasury,
            },
            E::Withheld(x) => eng::Event::Withheld {
                corporation: x.corporation,
                revenue: x.revenue,
            },
            E::CorporationSoldShares(x) => eng::Event::CorporationSoldShares {
                seller: x.seller,
                corporation: x.corporation,
                percent: x.percent,
                price: x.price,
            },
            E::TokenBought(x) => eng::Event::TokenBought {
                corporation: x.corporation,
                seller: x.seller,
                hex: x.hex,
                city: x.city,
                price: x.price,
            },
            E::EmergencySold(x) => eng::Event::EmergencySold {
                seller: x.seller,
                seat: x.seat,
                corporation: x.corporation,
                percent: x.percent,
                proceeds: x.proceeds,
            },
            E::EmergencyFunds(x) => eng::Event::EmergencyFunds {
                corporation: x.corporation,
                from: x.from,
                amount: x.amount,
            },
            E::Bankrupt(x) => eng::Event::Bankrupt {
                seat: x.seat,
                corporation: x.corporation,
                loan: x.loan,
            },
            E::GameEnded(x) => eng::Event::GameEnded {
                reason: x.reason,
                scores: x.scores,
            },
            E::TrainDiscarded(x) => eng::Event::TrainDiscarded {
                corporation: x.corporation,
                train: x.train,
            },
            E::ConcessionClosed(x) => eng::Event::ConcessionClosed {
                seat: x.seat,
                concession: c(&x.concession),
            },
            E::CorporationClosed(x) => eng::Event::CorporationClosed {
                corporation: x.corporation,
            },
            E::CorporationAvailable(x) => eng::Event::CorporationAvailable {
                corporation: x.corporation,
            },
            E::CorporationFormed(x) => eng::Event::CorporationFormed {
                corporation: x.corporation,
                from: x.from,
                price: x.price,
                row: x.row,
                col: x.col,
            },
            E::SharesExchanged(x) => eng::Event::SharesExchanged {
                holder: holder_from_pb("h", x.holder.as_ref(), 8).unwrap(),
                corporation: x.corporation,
                percent: x.percent,
                president: x.president,
            },
            E::ExchangePayment(x) => eng::Event::ExchangePayment {
                holder: holder_from_pb("h", x.holder.as_ref(), 8).unwrap(),
                corporation: x.corporation,
                amount: x.amount,
                to_corporation: x.to_corporation,
            },
            E::PresidencyMoved(x) => eng::Event::PresidencyMoved {
                corporation: x.corporation,
                president: holder_from_pb("h", x.president.as_ref(), 8).unwrap(),
            },
            E::FrozenChanged(x) => eng::Event::FrozenChanged {
                corporation: x.corporation,
                frozen: x.frozen,
            },
            E::TokenRemoved(x) => eng::Event::TokenRemoved {
                corporation: x.corporation,
                hex: x.hex,
                city: x.city,
            },
            E::MergerFailed(x) => eng::Event::MergerFailed {
                initiator: x.initiator,
                partner: x.partner,
            },
            E::OfferMade(x) => eng::Event::OfferMade {
                offer: offer_from_pb("offer", &x.offer.unwrap(), 8).unwrap(),
            },
            E::OfferAccepted(x) => eng::Event::OfferAccepted {
                offer: offer_from_pb("offer", &x.offer.unwrap(), 8).unwrap(),
            },
            E::OfferDeclined(x) => eng::Event::OfferDeclined {
                offer: offer_from_pb("offer", &x.offer.unwrap(), 8).unwrap(),
            },
        }
    }

    /// Checks one state (and the legal actions of every seat to act) on the wire.
    fn check_on_the_wire(state: &eng::State) {
        let pb = state_to_pb(state);
        assert_eq!(
            state_into_pb(state.clone()),
            pb,
            "encoding a consumed state"
        );
        assert_eq!(state_from_pb(&pb).unwrap(), *state, "state round trip");
        // Through the binary encoding too.
        let bytes = prost::Message::encode_to_vec(&pb);
        let back = <pb::State as prost::Message>::decode(bytes.as_slice()).unwrap();
        assert_eq!(state_from_pb(&back).unwrap(), *state, "binary round trip");
        for seat in G1841::to_act(state) {
            let legal = G1841::legal(state, seat);
            let v1::legal_actions_response::LegalActions::G1841(wire) =
                Wire1841::legal_actions_pb(state, seat)
            else {
                panic!("not 1841")
            };
            assert_eq!(wire.actions.len(), legal.actions.len());
            for (w, a) in wire.actions.iter().zip(&legal.actions) {
                let w = v1::Action {
                    action: Some(v1::action::Action::G1841(w.clone())),
                };
                assert_eq!(Wire1841::action_from_pb(&w).unwrap(), *a);
            }
            assert_eq!(wire.bids.len(), legal.bids.len());
            assert_eq!(wire.blind_bid.is_some(), legal.blind_bid.is_some());
            assert_eq!(wire.train_purchases.len(), legal.train_purchases.len());
            for (w, t) in wire.train_purchases.iter().zip(&legal.train_purchases) {
                assert_eq!(
                    (&w.train, &w.from, w.min_price, w.max_price),
                    (&t.train, &t.from, t.min_price, t.max_price)
                );
            }
            assert_eq!(
                wire.run_routes.as_ref().map(|r| r.trains.clone()),
                legal.run_routes
            );
            assert_eq!(wire.token_purchases.len(), legal.token_purchases.len());
            for (w, t) in wire.token_purchases.iter().zip(&legal.token_purchases) {
                assert_eq!(
                    (&w.hex, w.city, &w.seller, w.min_price, w.max_price),
                    (&t.hex, t.city, &t.seller, t.min_price, t.max_price)
                );
            }
            assert_eq!(wire.offers.len(), legal.offers.len());
            for (w, o) in wire.offers.iter().zip(&legal.offers) {
                assert_eq!(
                    (
                        w.seller,
                        item_from_pb(w.item.as_ref()).as_ref(),
                        w.min_price,
                        w.max_price,
                        w.market_value
                    ),
                    (
                        o.seller,
                        Some(&o.item),
                        o.min_price,
                        o.max_price,
                        o.market_value
                    )
                );
            }
        }
    }

    /// 1841 §15.3 on the wire: random stock rounds with `p2p_purchases` in which offers are
    /// made often; every state (waiting offers, declined offers), action, event and legal
    /// range survives the wire. A state whose offer names no item is refused with its path.
    #[test]
    fn p2p_offers_round_trip() {
        let options = eng::Options {
            p2p_purchases: true,
            ..eng::Options::default()
        };
        let mut state = G1841::setup(&options, 4, 0).unwrap();
        let (mut made, mut accepted, mut declined, mut waiting) = (0, 0, 0, None);
        let mut rng = 7u64;
        for _ in 0..3000 {
            if matches!(state.round, eng::Round::OperatingRound(_)) {
                break;
            }
            check_on_the_wire(&state);
            let seat = G1841::to_act(&state)[0];
            let legal = G1841::legal(&state, seat);
            rng = rng
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let roll = (rng >> 33) as usize;
            let action = if !legal.offers.is_empty() && roll.is_multiple_of(3) {
                let o = &legal.offers[roll % legal.offers.len()];
                eng::Action::OfferPurchase {
                    seller: o.seller,
                    item: o.item.clone(),
                    price: o.min_price + (roll as i64 % 7),
                }
            } else {
                let reps = legal.representatives();
                let non_pass: Vec<_> = reps
                    .iter()
                    .filter(|a| match a {
                        eng::Action::Pass => false,
                        eng::Action::Bid { price, .. } => *price == 20,
                        _ => true,
                    })
                    .collect();
                if non_pass.is_empty() || roll.is_multiple_of(5) {
                    reps.first().cloned().unwrap()
                } else {
                    non_pass[roll % non_pass.len()].clone()
                }
            };
            let action = match action {
                eng::Action::OfferPurchase { price, .. }
                    if !legal
                        .offers
                        .iter()
                        .any(|o| (o.min_price..=o.max_price).contains(&price)) =>
                {
                    legal.representatives().remove(0)
                }
                a => a,
            };
            let wire = Wire1841::action_to_pb(&action);
            assert_eq!(Wire1841::action_from_pb(&wire).unwrap(), action);
            let events = G1841::apply(&mut state, seat, &action).unwrap();
            for e in &events {
                assert_eq!(event_from_pb(&Wire1841::event_to_pb(e)), *e);
                match e {
                    eng::Event::OfferMade { .. } => made += 1,
                    eng::Event::OfferAccepted { .. } => accepted += 1,
                    eng::Event::OfferDeclined { .. } => declined += 1,
                    _ => {}
                }
            }
            if state.stock_round().is_some_and(|r| r.offer.is_some()) && waiting.is_none() {
                waiting = Some(state.clone());
            }
        }
        assert!(
            made > 5 && accepted > 0 && declined > 0,
            "{made} {accepted} {declined}"
        );
        let waiting = waiting.unwrap();
        let mut pb = state_to_pb(&waiting);
        if let Some(pb::state::Round::StockRound(r)) = &mut pb.round {
            r.offer.as_mut().unwrap().item = None;
        }
        assert_eq!(
            decode_error(&pb),
            "state.g1841.stock_round.offer.item: must name shares or a concession"
        );
        let empty = v1::Action {
            action: Some(v1::action::Action::G1841(pb::Action {
                action: Some(pb::action::Action::OfferPurchase(pb::OfferPurchase {
                    seller: 1,
                    item: None,
                    price: 5,
                })),
            })),
        };
        let r = Wire1841::action_from_pb(&empty).unwrap_err();
        assert_eq!(r.code, RejectionCode::InvalidArgument);
    }

    /// Replays a recorded game (18xx.games export) as far as the engine goes; after every
    /// action the state, the action, every event and the legal actions survive the wire.
    /// Returns the number of actions applied and the final state.
    fn replay_fixture_on_the_wire(name: &str) -> (usize, eng::State) {
        use referee_engine::g1841::import18xx::parse_export;
        let path = format!(
            "{}/../tests/fixtures/1841/{name}.json",
            env!("CARGO_MANIFEST_DIR")
        );
        let export = parse_export(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let options = export.options().unwrap();
        let mut state = G1841::setup(&options, export.players.len() as u32, 0).unwrap();
        check_on_the_wire(&state);
        let mut applied = 0;
        for recorded in &export.actions {
            if recorded.kind == "destination_connection" {
                continue;
            }
            let (seat, action) = match recorded.to_action(&state) {
                Ok(Some(x)) => x,
                // Entries the engine does not replay (undone bids, programmed passes).
                Ok(None) => continue,
                // Beyond what the engine plays.
                Err(_) => break,
            };
            let wire = Wire1841::action_to_pb(&action);
            assert_eq!(Wire1841::action_from_pb(&wire).unwrap(), action);
            let Ok(events) = G1841::apply(&mut state, seat, &action) else {
                break;
            };
            applied += 1;
            for e in &events {
                assert_eq!(event_from_pb(&Wire1841::event_to_pb(e)), *e);
            }
            check_on_the_wire(&state);
        }
        (applied, state)
    }

    /// 1841 §12.1: a merger waiting for its presidency claims with its assets moved to the new
    /// corporation (`Merger.moved`, with what a failed merger restores) and the new
    /// corporation's pending discard round-trip. 132002 before action 529 with SFTC held by P2
    /// (20%) and P3 (10%), SFTG by P4 (20%) and P1 (10%), the rest in the pool, and SFTG given
    /// CTDA's trains: nobody holds 40%, so AFI waits for the claims holding the old cash and
    /// trains, over its limit.
    #[test]
    fn a_merger_with_moved_assets_round_trips() {
        use referee_engine::g1841::import18xx::parse_export;
        let path = format!(
            "{}/../tests/fixtures/1841/132002.json",
            env!("CARGO_MANIFEST_DIR")
        );
        let export = parse_export(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let options = export.options().unwrap();
        let mut state = G1841::setup(&options, export.players.len() as u32, 0).unwrap();
        for recorded in &export.actions {
            if recorded.id.is_some_and(|id| id >= 529) {
                break;
            }
            if recorded.kind == "destination_connection" {
                continue;
            }
            if let Ok(Some((seat, action))) = recorded.to_action(&state) {
                G1841::apply(&mut state, seat, &action).unwrap();
            }
        }
        let owners = |sym: &str, list: &[eng::ShareOwner], state: &mut eng::State| {
            let c = state
                .corporations
                .iter_mut()
                .find(|c| c.sym == sym)
                .unwrap();
            for (i, cert) in c.certificates.iter_mut().enumerate() {
                cert.owner = list.get(i).cloned().unwrap_or(eng::ShareOwner::Ipo);
            }
        };
        let p = eng::ShareOwner::Player;
        let pool = eng::ShareOwner::Pool;
        owners("SFTC", &[p(1), p(2), pool.clone(), pool], &mut state);
        owners("SFTG", &[p(3), p(0)], &mut state);
        for seat in 0..4 {
            state.bank_cash -= 400;
            state.players[seat].cash += 400;
        }
        let ctda = state.operations.trains.remove("CTDA").unwrap();
        state
            .operations
            .trains
            .get_mut("SFTG")
            .unwrap()
            .extend(ctda);
        for action in [
            eng::Action::ProposeMerger {
                partner: "SFTG".into(),
            },
            eng::Action::FormCorporation {
                corporation: "AFI".into(),
            },
        ] {
            G1841::apply(&mut state, 1, &action).unwrap();
        }
        let eng::Round::OperatingRound(r) = &state.round else {
            panic!("not an operating round")
        };
        let Some(eng::CorporateEvent::Merger(m)) = r.event.as_deref() else {
            panic!("no merger")
        };
        assert_eq!(r.crowded, ["AFI"]);
        let moved = m.moved.as_ref().unwrap();
        assert_eq!((moved.initiator_cash, moved.partner_cash), (657, 266));
        assert_eq!(moved.initiator_trains, ["3-3"]);
        assert_eq!(moved.partner_trains, ["3-2", "3-5", "4-0"]);
        check_on_the_wire(&state);
    }

    /// A merger waiting for the two-city tile's choice (1841 §12.1: stage TWO_CITY_TILE,
    /// `two_city`, `decider`) round-trips: v2 3 players heuristic seed 3091, SFTN and SFTG
    /// into CTS, Torino H4, decided by seat 0 (seed 3001's SFTN and SFTG into CTDA, decided by
    /// seat 2, until the heuristic's presidents planned for their trains, 2026-12-07).
    #[test]
    fn a_merger_choosing_on_a_two_city_tile_round_trips() {
        use rand_chacha::ChaCha8Rng;
        use rand_core::SeedableRng;
        let options = eng::Options::default();
        let mut state = G1841::setup(&options, 3, 3091).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(3091);
        let choosing = |s: &eng::State| {
            matches!(&s.round, eng::Round::OperatingRound(r)
                if matches!(r.event.as_deref(), Some(eng::CorporateEvent::Merger(m))
                    if m.stage == eng::MergerStage::TwoCityTile))
        };
        while !choosing(&state) {
            let seat = G1841::to_act(&state)[0];
            let legal = G1841::legal_actions(&state, seat);
            let pick = referee_engine::g1841::heuristic::choose(&state, seat, legal, &mut rng);
            G1841::apply(&mut state, seat, &pick).unwrap();
        }
        let back = state_from_pb(&state_to_pb(&state)).unwrap();
        assert!(choosing(&back));
        let eng::Round::OperatingRound(r) = &back.round else {
            panic!("not an operating round")
        };
        let Some(eng::CorporateEvent::Merger(m)) = r.event.as_deref() else {
            panic!("no merger")
        };
        assert_eq!(
            m.two_city,
            [eng::MapToken {
                hex: "H4".into(),
                city: 0
            }]
        );
        assert_eq!(m.decider, Some(0));
        check_on_the_wire(&state);
    }

    /// The FAQ options are tri-state on the wire (unset, true, false survive encode → decode,
    /// also through the binary encoding); `NewGame` takes `true`/`false` and, for a FAQ
    /// option, `default` or an empty value for unset (the version default); the state added
    /// for them (pending price drops, corporate sales) round-trips too.
    #[test]
    fn faq_options_are_tri_state_on_the_wire() {
        let o = eng::Options {
            version_1: true,
            half_price_round_down: Some(false),
            merger_price_cap: Some(true),
            ..eng::Options::default()
        };
        let state = G1841::setup(&o, 4, 0).unwrap();
        check_on_the_wire(&state);
        let back = state_from_pb(&state_to_pb(&state)).unwrap();
        assert_eq!(back.options, o);
        assert_eq!(back.options.immediate_game_end, None);
        assert!(
            back.options.immediate_game_end(),
            "unset: on with version_1"
        );
        assert!(!back.options.half_price_round_down(), "set off");
        let wire = state_to_pb(&state).options.unwrap();
        assert_eq!(wire.half_price_round_down, Some(false));
        assert_eq!(wire.immediate_game_end, None);

        let map = |pairs: &[(&str, &str)]| -> BTreeMap<String, String> {
            pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect()
        };
        let parsed = Wire1841::options_from_pb(&map(&[
            ("version_1", "true"),
            ("half_price_round_down", "false"),
            ("merger_price_cap", ""),
            ("immediate_game_end", "default"),
            ("no_cross_border_corporate_shares", "on"),
        ]))
        .unwrap();
        assert_eq!(parsed.half_price_round_down, Some(false));
        assert_eq!(parsed.merger_price_cap, None);
        assert_eq!(parsed.immediate_game_end, None);
        assert_eq!(parsed.no_cross_border_corporate_shares, Some(true));
        assert!(parsed.merger_price_cap() && parsed.immediate_game_end());
        let err =
            Wire1841::options_from_pb(&map(&[("half_price_round_down", "maybe")])).unwrap_err();
        assert_eq!(err.code(), tonic::Code::InvalidArgument);
        assert!(err.message().contains("half_price_round_down"), "{err:?}");
        // `default` on a plain switch is its default, off (catalog::parse_switch).
        let plain =
            Wire1841::options_from_pb(&map(&[("lite", "default"), ("version_1", "YES")])).unwrap();
        assert!(!plain.lite && plain.version_1);

        let (_, mut played) = replay_fixture_on_the_wire("132002");
        played.options.price_drops_lowest_first = Some(true);
        played.options.no_corporate_rebuy_after_sale = Some(true);
        if let eng::Round::OperatingRound(r) = &mut played.round {
            r.pending_drops = vec![eng::PriceDrop {
                corporation: "SB".into(),
                rows: 2,
            }];
            r.corporate_sales = vec![eng::CorporateSale {
                seller: "SB".into(),
                corporation: "AFI".into(),
            }];
            // IRSFF's slot of the split (1841 §12.4, FAQ-Q24).
            r.split_slot = Some(eng::SharePrice {
                row: 1,
                col: 13,
                arrival: 7,
            });
        }
        check_on_the_wire(&played);
        // Without their options the validator refuses them, naming the wire path.
        played.options.price_drops_lowest_first = None;
        let msg = decode_error(&state_to_pb(&played));
        assert!(msg.contains("pending_drops"), "{msg}");
    }

    #[test]
    fn recorded_games_round_trip_after_every_action() {
        for name in ["132002", "1841_game_end_bank"] {
            let (applied, state) = replay_fixture_on_the_wire(name);
            // Both games reach their operating rounds with tiles and trains.
            assert!(applied > 100, "{name}: only {applied} actions");
            assert!(!state.operations.tiles.is_empty(), "{name}: no tile");
            assert!(!state.operations.trains.is_empty(), "{name}: no train");
            eprintln!("{name}: {applied} actions, round {:?}", state.round);
        }
    }

    fn decode_error(pb: &pb::State) -> String {
        state_from_pb(pb).unwrap_err().message().to_string()
    }

    #[test]
    fn bad_operating_round_fields_name_their_wire_path() {
        let (_, state) = replay_fixture_on_the_wire("132002");
        let good = state_to_pb(&state);
        let ops = good.operations.clone().unwrap();
        assert!(ops.tiles.len() > 3 && !ops.trains.is_empty());

        let mut pb = good.clone();
        pb.operations.as_mut().unwrap().tiles[3].rotation = 6;
        let e = decode_error(&pb);
        assert!(
            e.starts_with("state.g1841.operations.tiles[3].rotation: "),
            "{e}"
        );

        let mut pb = good.clone();
        pb.operations.as_mut().unwrap().tiles[3].rotation = 300;
        let e = decode_error(&pb);
        assert!(
            e.starts_with("state.g1841.operations.tiles[3].rotation: "),
            "{e}"
        );

        // The validator's `operations.tiles.<hex>` becomes the wire index.
        let mut pb = good.clone();
        pb.operations.as_mut().unwrap().tiles[2].tile = "99999".into();
        let e = decode_error(&pb);
        assert!(e.starts_with("state.g1841.operations.tiles[2]: "), "{e}");

        let mut pb = good.clone();
        let t = pb.operations.as_ref().unwrap().tiles[0].clone();
        pb.operations.as_mut().unwrap().tiles.push(t);
        let e = decode_error(&pb);
        let last = ops.tiles.len();
        assert!(
            e.starts_with(&format!("state.g1841.operations.tiles[{last}].hex: ")),
            "{e}"
        );

        // `operations.trains.<SYM>[j]` becomes `operations.trains[k].trains[j]`.
        let mut pb = good.clone();
        let k = ops
            .trains
            .iter()
            .position(|c| !c.trains.is_empty())
            .unwrap();
        pb.operations.as_mut().unwrap().trains[k].trains[0] = "2-99".into();
        let e = decode_error(&pb);
        assert!(
            e.starts_with(&format!("state.g1841.operations.trains[{k}].trains[0]: ")),
            "{e}"
        );

        let mut pb = good.clone();
        let d = pb.operations.as_ref().unwrap().depot_sold[0].clone();
        pb.operations.as_mut().unwrap().depot_sold.push(d);
        let e = decode_error(&pb);
        assert!(e.contains("operations.depot_sold["), "{e}");

        // Operating round progress.
        let (_, state) = replay_fixture_on_the_wire("1841_game_end_bank");
        assert!(matches!(state.round, eng::Round::OperatingRound(_)));
        let good = state_to_pb(&state);
        let mut pb = good.clone();
        let Some(pb::state::Round::OperatingRound(r)) = pb.round.as_mut() else {
            panic!()
        };
        r.step = pb::OperatingStep::Unspecified as i32;
        let e = decode_error(&pb);
        assert!(e.starts_with("state.g1841.operating_round.step: "), "{e}");
        let mut pb = good.clone();
        let Some(pb::state::Round::OperatingRound(r)) = pb.round.as_mut() else {
            panic!()
        };
        r.current = Some("XYZ".into());
        let e = decode_error(&pb);
        assert!(
            e.starts_with("state.g1841.operating_round.current: "),
            "{e}"
        );
    }

    #[test]
    fn validator_paths_use_wire_corporation_indices_and_field_names() {
        let (_, state) = replay_fixture_on_the_wire("132002");
        let good = state_to_pb(&state);
        // A listed corporation whose wire index differs from its roster index.
        let roster = eng::corporation::initial_corporations(&state.options);
        let w = (0..good.corporations.len())
            .find(|&w| {
                roster
                    .iter()
                    .position(|c| c.sym == good.corporations[w].sym)
                    != Some(w)
            })
            .unwrap();
        // A corporation holder that is not a corporation: engine `owner`, wire `corporation`.
        let mut pb = good.clone();
        let c = &mut pb.corporations[w].certificates[1];
        c.holder = pb::ShareHolderKind::Corporation as i32;
        c.corporation = "XYZ".into();
        c.seat = 0;
        let e = decode_error(&pb);
        assert!(
            e.starts_with(&format!("state.g1841.corporations[{w}].certificates[1].")),
            "{e}"
        );
        assert!(!e.contains(".owner"), "{e}");
        let mut pb = good.clone();
        pb.corporations[w].cash = -1;
        let e = decode_error(&pb);
        assert!(
            e.starts_with(&format!("state.g1841.corporations[{w}].cash: ")),
            "{e}"
        );
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
            e.message().contains("state.g1841.corporations[0]"),
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

    /// The options of the three rulesets (Version 2, Version 1, lite).
    fn rulesets() -> [eng::Options; 3] {
        [
            eng::Options::default(),
            eng::Options {
                version_1: true,
                ..Default::default()
            },
            eng::Options {
                lite: true,
                ..Default::default()
            },
        ]
    }

    #[test]
    fn the_shared_roster_is_the_fresh_roster_with_distinct_symbols() {
        for o in rulesets() {
            let roster = eng::corporation::roster(&o);
            assert_eq!(roster, eng::corporation::initial_corporations(&o));
            for (i, c) in roster.iter().enumerate() {
                assert_eq!(eng::corporation::roster_index(&o, &c.sym), Some(i));
                assert!(!roster[..i].iter().any(|x| x.sym == c.sym), "{}", c.sym);
            }
        }
    }

    #[test]
    fn encoding_leaves_out_exactly_the_fresh_corporations_in_any_order() {
        let (_, mut state) = replay_fixture_on_the_wire("132002");
        // Out of roster order (not a valid state, but the encoder must not care): the same
        // corporations are left out as by a search of the whole roster.
        state.corporations.swap(0, 5);
        state.corporations.rotate_left(3);
        let roster = eng::corporation::initial_corporations(&state.options);
        let expected: Vec<pb::Corporation> = state
            .corporations
            .iter()
            .filter(|c| !roster.contains(c))
            .map(corporation_to_pb)
            .collect();
        assert!(!expected.is_empty());
        assert!(expected.len() < state.corporations.len());
        assert_eq!(state_to_pb(&state).corporations, expected);
        // A state with fewer corporations than the roster (written before they existed).
        state.corporations.truncate(4);
        let expected: Vec<pb::Corporation> = state
            .corporations
            .iter()
            .filter(|c| !roster.contains(c))
            .map(corporation_to_pb)
            .collect();
        assert_eq!(state_to_pb(&state).corporations, expected);
    }

    #[test]
    fn decoding_fills_in_unlisted_corporations_from_the_roster() {
        for o in rulesets() {
            let fresh = G1841::setup(&o, 3, 0).unwrap();
            let wire = state_to_pb(&fresh);
            assert!(wire.corporations.is_empty());
            assert_eq!(state_from_pb(&wire).unwrap(), fresh);
        }
        let (_, state) = replay_fixture_on_the_wire("132002");
        let wire = state_to_pb(&state);
        assert!(!wire.corporations.is_empty());
        assert_eq!(state_from_pb(&wire).unwrap(), state);
        // The last roster entry listed, and an unknown symbol after it.
        let mut pb = wire.clone();
        let roster = eng::corporation::roster(&state.options);
        let mut last = corporation_to_pb(&roster[roster.len() - 1]);
        last.cash = 1;
        pb.corporations.push(last.clone());
        let e = decode_error(&pb);
        assert!(!e.contains("in roster order"), "{e}");
        last.sym = "XYZ".into();
        pb.corporations.push(last);
        let e = decode_error(&pb);
        let w = pb.corporations.len() - 1;
        assert!(
            e.starts_with(&format!("state.g1841.corporations[{w}].sym: `XYZ` is not")),
            "{e}"
        );
    }

    #[test]
    fn repeats_are_found_in_any_order() {
        let check = |keys: &[&str]| -> Option<usize> {
            let mut r = Repeats::default();
            (0..keys.len()).find(|&i| r.repeated(keys[i], keys[..i].iter().copied()))
        };
        assert_eq!(check(&[]), None);
        assert_eq!(check(&["A1", "B2", "C3"]), None);
        assert_eq!(check(&["A1", "A1"]), Some(1));
        assert_eq!(check(&["C3", "B2", "A1"]), None);
        assert_eq!(check(&["B2", "C3", "A1", "D4", "C3"]), Some(4));
        assert_eq!(check(&["B2", "A1", "B2"]), Some(2));
        assert_eq!(check(&["A1", "B2", "C3", "B2", "A1"]), Some(3));
    }

    #[test]
    fn operations_listed_out_of_order_decode_to_the_same_state() {
        let (_, state) = replay_fixture_on_the_wire("132002");
        let good = state_to_pb(&state);
        let mut pb = good.clone();
        let o = pb.operations.as_mut().unwrap();
        assert!(o.tiles.len() > 3 && o.trains.len() > 1 && o.depot_sold.len() > 1);
        o.tiles.reverse();
        o.tiles.swap(0, 2);
        o.trains.reverse();
        o.depot_sold.reverse();
        assert_eq!(state_from_pb(&pb).unwrap(), state);
        // A repeat after the order broke is still found, at its own index.
        let mut twice = pb.clone();
        let o = twice.operations.as_mut().unwrap();
        let first = o.tiles[1].clone();
        o.tiles.push(first.clone());
        let last = o.tiles.len() - 1;
        let e = decode_error(&twice);
        assert_eq!(
            e,
            format!(
                "state.g1841.operations.tiles[{last}].hex: {} has a tile listed already",
                first.hex
            )
        );
        let mut twice = pb.clone();
        let o = twice.operations.as_mut().unwrap();
        let t = o.trains[0].clone();
        o.trains.insert(1, t.clone());
        assert_eq!(
            decode_error(&twice),
            format!(
                "state.g1841.operations.trains[1].corporation: `{}` listed twice",
                t.corporation
            )
        );
    }

    #[test]
    fn tokens_are_counted_per_corporation_against_the_slots_of_their_city() {
        use eng::track;
        let (_, state) = replay_fixture_on_the_wire("132002");
        assert_eq!(eng::check_invariants(&state), Ok(()));
        // A city with a token and a free slot, and a started corporation without a token there.
        let slots = |s: &eng::State, t: &eng::MapToken| {
            let v = track::hex_view(s, &t.hex).unwrap();
            v.nodes[track::city_node(v.nodes, t.city).unwrap()].slots as usize
        };
        let (t, other) = state
            .corporations
            .iter()
            .flat_map(|c| c.tokens.iter())
            .find_map(|t| {
                let here = track::token_count_at(&state, &t.hex, t.city);
                let other = state.corporations.iter().position(|c| {
                    c.started() && c.tokens.len() < c.tokens_total as usize && !c.tokens.contains(t)
                })?;
                (here < slots(&state, t)).then(|| (t.clone(), other))
            })
            .expect("a city with a free slot");
        let free = slots(&state, &t) - track::token_count_at(&state, &t.hex, t.city);
        // A second token of a corporation already there counts once.
        let mut again = state.clone();
        let holder = again
            .corporations
            .iter_mut()
            .find(|c| c.tokens.contains(&t))
            .unwrap();
        holder.tokens.push(t.clone());
        holder.tokens_total = holder.tokens_total.max(holder.tokens.len() as u32);
        if holder.tokens_total <= 5 {
            assert_eq!(eng::check_invariants(&again), Ok(()));
        }
        // Filling the free slots passes; one corporation more does not.
        let mut full = state.clone();
        let mut added = 0;
        for c in full.corporations.iter_mut() {
            if added == free + 1 {
                break;
            }
            if c.started() && !c.tokens.contains(&t) && c.tokens.len() < 5 {
                c.tokens.push(t.clone());
                c.tokens_total = c.tokens_total.max(c.tokens.len() as u32);
                added += 1;
            }
        }
        assert!(
            added == free + 1,
            "{added} corporations for {free} free slots (other {other})"
        );
        let e = eng::check_invariants(&full).unwrap_err();
        assert_eq!(e.message, "more tokens than slots");
        // The first token in that city, in corporation order.
        let (ci, ti) = full
            .corporations
            .iter()
            .enumerate()
            .find_map(|(ci, c)| c.tokens.iter().position(|u| *u == t).map(|ti| (ci, ti)))
            .unwrap();
        assert_eq!(e.path, format!("corporations[{ci}].tokens[{ti}]"));
    }
}
