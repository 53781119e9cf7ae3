//! Attacks on sealed mode: predictable secrets, what a seat may see, tampered tokens.

use std::collections::BTreeMap;

use referee_service::pb::g1841 as g;
use referee_service::pb::v1 as pb;
use referee_service::pb::v1::referee_client::RefereeClient;
use tonic::transport::Channel;

use super::{Ctx, Outcome, channel};

/// The sealed server's client and the arbiter credential.
async fn sealed(ctx: &Ctx) -> anyhow::Result<(RefereeClient<Channel>, String)> {
    let (t, arbiter) = ctx
        .sealed
        .as_ref()
        .ok_or_else(|| anyhow::anyhow!("no sealed-mode server"))?;
    Ok((
        RefereeClient::new(channel(&t.addr).await?).max_decoding_message_size(64 << 20),
        arbiter.clone(),
    ))
}

/// `req` with the header `referee-credential`.
fn as_caller<T>(cred: Option<&str>, req: T) -> tonic::Request<T> {
    let mut r = tonic::Request::new(req);
    if let Some(c) = cred
        && let Ok(v) = c.parse()
    {
        r.metadata_mut().insert("referee-credential", v);
    }
    r
}

fn code<T>(r: &Result<T, tonic::Status>) -> String {
    match r {
        Ok(_) => "OK".into(),
        Err(s) => format!("{:?}", s.code()),
    }
}

/// The Autobahn deck of a sealed token, as the arbiter sees it.
async fn deck(
    c: &mut RefereeClient<Channel>,
    arbiter: &str,
    token: Vec<u8>,
) -> anyhow::Result<Vec<String>> {
    let v = c
        .view(as_caller(
            Some(arbiter),
            pb::ViewRequest {
                sealed_state: token,
                viewer: pb::ViewerRole::Arbiter as i32,
                ..Default::default()
            },
        ))
        .await?
        .into_inner();
    match v.view {
        Some(pb::view_response::View::Autobahn(v)) => {
            Ok(v.state.map(|s| s.card_deck).unwrap_or_default())
        }
        _ => anyhow::bail!("no Autobahn view"),
    }
}

/// #24.1: sealed Autobahn games created without a seed all had the deck of seed 0, readable
/// by replaying an open game. Bound: the server draws the seed from OS randomness.
pub async fn seed(ctx: &Ctx) -> anyhow::Result<Outcome> {
    let (mut c, arbiter) = sealed(ctx).await?;
    let new = pb::NewGameRequest {
        game: "autobahn".into(),
        seats: 2,
        ..Default::default()
    };
    let a = c.new_game(new.clone()).await?.into_inner().sealed_state;
    let b = c.new_game(new).await?.into_inner().sealed_state;
    let (da, db) = (
        deck(&mut c, &arbiter, a).await?,
        deck(&mut c, &arbiter, b).await?,
    );
    let mut open = RefereeClient::new(ctx.channel().await?);
    let open0 = match open
        .new_game(pb::NewGameRequest {
            game: "autobahn".into(),
            seats: 2,
            ..Default::default()
        })
        .await?
        .into_inner()
        .state
        .and_then(|s| s.state)
    {
        Some(pb::game_state::State::Autobahn(s)) => s.card_deck,
        _ => Vec::new(),
    };
    Ok(Outcome {
        sent:
            "two sealed Autobahn NewGame calls without a seed; the deck of an open game with seed 0"
                .into(),
        answer: format!(
            "decks (arbiter view) of {} cards: the two sealed games differ: {}; a sealed deck equals the seed-0 deck: {}",
            da.len(),
            da != db,
            da == open0 || db == open0
        ),
        pass: da.len() > 10 && da != db && da != open0 && db != open0,
    })
}

fn blind_bid(amounts: Vec<i64>) -> pb::Action {
    pb::Action {
        action: Some(pb::action::Action::G1841(g::Action {
            action: Some(g::action::Action::BlindBid(g::BlindBid { amounts })),
        })),
    }
}

fn bid(amount: i64) -> pb::Action {
    let mut amounts = vec![0; 8];
    amounts[0] = amount;
    blind_bid(amounts)
}

/// #24.2: a player holding the token saw every seat. Bound: a seat credential gets only its
/// own view; other seats' views, actions and trial batches are PERMISSION_DENIED; the token's
/// length does not depend on a bid.
pub async fn leaks(ctx: &Ctx) -> anyhow::Result<Outcome> {
    let (mut c, _) = sealed(ctx).await?;
    let created = c
        .new_game(pb::NewGameRequest {
            game: "1841".into(),
            seats: 4,
            options: [("version_1".to_string(), "true".to_string())].into(),
            ..Default::default()
        })
        .await?
        .into_inner();
    let creds = created.seat_credentials.clone();
    anyhow::ensure!(
        creds.len() == 4,
        "the creator got {} credentials",
        creds.len()
    );
    let token = created.sealed_state.clone();
    let mut got: BTreeMap<&str, String> = BTreeMap::new();
    let mut lens = Vec::new();
    let mut after_bid = Vec::new();
    for amount in [30, 127, 128] {
        let r = c
            .apply(as_caller(
                Some(&creds[0]),
                pb::ApplyRequest {
                    sealed_state: token.clone(),
                    seat: 0,
                    action: Some(bid(amount)),
                    ..Default::default()
                },
            ))
            .await?
            .into_inner();
        let Some(pb::apply_response::Result::Accepted(acc)) = r.result else {
            anyhow::bail!("seat 0's bid of {amount} was not accepted")
        };
        lens.push(acc.sealed_state.len());
        if amount == 30 {
            got.insert(
                "seat 0's Apply answer",
                format!(
                    "{} seat views, caller view {}, {} credentials",
                    acc.seat_views.len(),
                    acc.caller_view.is_some(),
                    acc.seat_credentials.len()
                ),
            );
            after_bid = acc.sealed_state;
        }
    }
    let peek = c
        .view(as_caller(
            Some(&creds[1]),
            pb::ViewRequest {
                sealed_state: after_bid.clone(),
                seat: Some(0),
                ..Default::default()
            },
        ))
        .await;
    got.insert("seat 1 Views seat 0", code(&peek));
    let arb = c
        .view(as_caller(
            Some(&creds[1]),
            pb::ViewRequest {
                sealed_state: after_bid.clone(),
                viewer: pb::ViewerRole::Arbiter as i32,
                ..Default::default()
            },
        ))
        .await;
    got.insert("seat 1 Views as arbiter", code(&arb));
    let trial = c
        .apply_batch(as_caller(
            Some(&creds[1]),
            pb::ApplyBatchRequest {
                sealed_state: after_bid.clone(),
                actions: (1..4)
                    .map(|seat| pb::SeatAction {
                        seat,
                        action: Some(blind_bid(vec![0; 8])),
                    })
                    .collect(),
                ..Default::default()
            },
        ))
        .await;
    got.insert("seat 1's trial ApplyBatch of seats 1–3", code(&trial));
    let nobody = c
        .apply(as_caller(
            None,
            pb::ApplyRequest {
                sealed_state: after_bid.clone(),
                seat: 2,
                action: Some(bid(10)),
                ..Default::default()
            },
        ))
        .await;
    got.insert("no credential Applies for seat 2", code(&nobody));
    let forged = c
        .legal_actions(as_caller(
            Some(&format!("{}0", creds[1])),
            pb::LegalActionsRequest {
                sealed_state: after_bid,
                seat: 1,
                ..Default::default()
            },
        ))
        .await;
    got.insert("an altered credential", code(&forged));
    let pass = got["seat 0's Apply answer"] == "0 seat views, caller view true, 0 credentials"
        && got["seat 1 Views seat 0"] == "PermissionDenied"
        && got["seat 1 Views as arbiter"] == "PermissionDenied"
        && got["seat 1's trial ApplyBatch of seats 1–3"] == "PermissionDenied"
        && got["no credential Applies for seat 2"] == "PermissionDenied"
        && got["an altered credential"] == "Unauthenticated"
        && lens.windows(2).all(|w| w[0] == w[1]);
    Ok(Outcome {
        sent: "sealed 4-seat Version 1 game: seat 0 bids 30, 127, 128 with its credential; seat 1 peeks, plays a trial batch; calls without or with an altered credential".into(),
        answer: format!(
            "{}; token lengths after bids 30/127/128: {lens:?}",
            got.iter().map(|(k, v)| format!("{k}: {v}")).collect::<Vec<_>>().join("; ")
        ),
        pass,
    })
}

/// Earlier attack: bit flips and truncations of a sealed token. Bound: each is refused with
/// INVALID_ARGUMENT.
pub async fn tamper(ctx: &Ctx) -> anyhow::Result<Outcome> {
    let (mut c, _) = sealed(ctx).await?;
    let token = c
        .new_game(pb::NewGameRequest {
            game: "1841".into(),
            seats: 4,
            ..Default::default()
        })
        .await?
        .into_inner()
        .sealed_state;
    let (flips, cuts) = (ctx.pick(64, 146, 16), ctx.pick(32, 85, 8));
    let mut variants = Vec::new();
    let bits = token.len() * 8;
    for k in 0..flips {
        let bit = (k * 7919 + 13) % bits;
        let mut t = token.clone();
        t[bit / 8] ^= 1 << (bit % 8);
        variants.push(t);
    }
    for k in 0..cuts {
        variants.push(token[..token.len() * k / cuts.max(1)].to_vec());
    }
    let mut by: BTreeMap<String, usize> = BTreeMap::new();
    for t in variants {
        let r = c
            .view(pb::ViewRequest {
                sealed_state: t,
                ..Default::default()
            })
            .await;
        *by.entry(code(&r)).or_default() += 1;
    }
    let refused = by.get("InvalidArgument").copied().unwrap_or(0);
    Ok(Outcome {
        sent: format!(
            "View with a {}-byte sealed token: {flips} single-bit flips, {cuts} truncations",
            token.len()
        ),
        answer: format!("gRPC codes {by:?}"),
        pass: refused == flips + cuts,
    })
}
