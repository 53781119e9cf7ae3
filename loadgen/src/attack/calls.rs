//! Attacks through well-formed calls: the ImportGame bomb, the crafted route search,
//! overload, and states the validators must refuse.

use std::time::{Duration, Instant};

use hdrhistogram::Histogram;
use referee_service::games::MAX_ACTION_COUNT;
use referee_service::pb::v1 as pb;
use referee_service::pb::v1::referee_client::RefereeClient;
use tonic::Code;
use tonic::transport::Channel;

use super::{Ctx, Outcome, cpu_seconds, states};
use crate::{position_1841, position_autobahn, prepare};

fn client(ch: Channel) -> RefereeClient<Channel> {
    RefereeClient::new(ch)
        .max_decoding_message_size(64 << 20)
        .max_encoding_message_size(64 << 20)
}

fn code_of<T>(r: &Result<T, tonic::Status>) -> String {
    match r {
        Ok(_) => "OK".into(),
        Err(s) => format!("{:?}", s.code()),
    }
}

/// #24.3: one ImportGame request of almost 4 MiB alternating `undo` to the first action and
/// `redo` (it cost minutes of CPU, and went on after DEADLINE_EXCEEDED and past the
/// shutdown grace). Bound: the undo/redo filter is linear; a call whose caller goes away
/// stops before its next action.
pub async fn import_bomb(ctx: &Ctx) -> anyhow::Result<Outcome> {
    let json = states::undo_redo_bomb(ctx.limits.max_request_bytes - (64 << 10))?;
    let records = json.matches("\"type\"").count();
    let mut c = client(ctx.channel().await?);
    let req = |timeout: Duration| {
        let mut r = tonic::Request::new(pb::ImportGameRequest {
            export_json: json.clone(),
            format: pb::GameRecordFormat::EighteenXxGamesExport as i32,
            ..Default::default()
        });
        r.set_timeout(timeout);
        r
    };
    let cpu0 = cpu_seconds(ctx.open.pid).unwrap_or(0.0);
    let t0 = Instant::now();
    let first = c.import_game(req(Duration::from_secs(5))).await;
    let took = t0.elapsed();
    let cpu1 = cpu_seconds(ctx.open.pid).unwrap_or(0.0);
    let first_answer = match &first {
        Ok(r) => {
            let r = r.get_ref();
            format!(
                "OK ({} actions applied{})",
                r.actions_applied,
                if r.failure.is_some() {
                    ", with a failure report"
                } else {
                    ""
                }
            )
        }
        Err(s) => format!("{:?}: {}", s.code(), s.message()),
    };
    // The same request given up by its caller after 100 ms: the work stops.
    let cancelled = c.import_game(req(Duration::from_millis(100))).await;
    let cpu2 = cpu_seconds(ctx.open.pid).unwrap_or(0.0);
    tokio::time::sleep(Duration::from_secs(2)).await;
    let cpu3 = cpu_seconds(ctx.open.pid).unwrap_or(0.0);
    let typed = |r: &Result<_, tonic::Status>| !matches!(r, Err(s) if matches!(s.code(), Code::Internal | Code::Unknown));
    Ok(Outcome {
        sent: format!(
            "ImportGame, {:.2} MiB export: 200 recorded actions then {records} undo/redo records (grpc-timeout 5 s; then again with 100 ms)",
            json.len() as f64 / 1048576.0
        ),
        answer: format!(
            "{first_answer} after {:.2} s using {:.2} s of server CPU; the 100 ms call: {}, server CPU in the 2 s after it {:.2} s",
            took.as_secs_f64(),
            cpu1 - cpu0,
            code_of(&cancelled),
            cpu3 - cpu2
        ),
        // The server's CPU says whether the abandoned import went on only when nothing else
        // runs (not under the soak's honest load).
        pass: typed(&first)
            && typed(&cancelled)
            && (ctx.scale == super::Scale::Soak || cpu3 - cpu2 < 1.0),
    })
}

/// #24.5: DefaultAction and SuggestRoutes (largest work budget) on a crafted valid
/// position, many at once, and an honest View meanwhile. Bound: the search keeps at most
/// 100,000 routes, is cancellable, and runs off the async workers, at most as many at once
/// as the machine has cores.
pub async fn route_search(ctx: &Ctx) -> anyhow::Result<Outcome> {
    let (state, seat, corp, what) =
        tokio::task::spawn_blocking(states::crafted_routes_1841).await??;
    let ch = ctx.channel().await?;
    let size = prost::Message::encoded_len(&state);
    let mut tasks = Vec::new();
    let (nd, ns) = (ctx.pick(3, 3, 1), ctx.pick(8, 16, 1));
    for i in 0..nd + ns {
        let mut c = client(ch.clone());
        let state = state.clone();
        let corp = corp.clone();
        tasks.push(tokio::spawn(async move {
            if i < nd {
                let r = c
                    .default_action(pb::DefaultActionRequest {
                        state: Some(state),
                        seat,
                        ..Default::default()
                    })
                    .await;
                match r {
                    Ok(r) => format!("DefaultAction OK: {}", r.into_inner().description),
                    Err(s) => format!("DefaultAction {:?}", s.code()),
                }
            } else {
                let r = c
                    .suggest_routes(pb::SuggestRoutesRequest {
                        state: Some(state),
                        corporation: corp,
                        work_budget: 20_000_000,
                        ..Default::default()
                    })
                    .await;
                match r {
                    Ok(r) => {
                        let r = r.into_inner();
                        format!(
                            "SuggestRoutes OK: L.{} proven_optimal {} work {}",
                            r.revenue, r.proven_optimal, r.work
                        )
                    }
                    Err(s) => format!("SuggestRoutes {:?}", s.code()),
                }
            }
        }));
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    let p1841 = position_1841()?;
    let honest = client(ch.clone())
        .view(pb::ViewRequest {
            state: Some(p1841.state.clone()),
            ..Default::default()
        })
        .await;
    let mut answers = Vec::new();
    for t in tasks {
        answers.push(t.await.unwrap_or_else(|_| "panicked".into()));
    }
    answers.sort();
    let mut counted: Vec<(String, usize)> = Vec::new();
    for a in answers {
        match counted.last_mut() {
            Some((last, n)) if *last == a => *n += 1,
            _ => counted.push((a, 1)),
        }
    }
    let answers: Vec<String> = counted
        .into_iter()
        .map(|(a, n)| if n > 1 { format!("{n} × {a}") } else { a })
        .collect();
    let bounded = answers
        .iter()
        .all(|a| a.contains(" OK: ") || a.ends_with("DeadlineExceeded"));
    Ok(Outcome {
        sent: format!(
            "{nd} DefaultAction + {ns} SuggestRoutes (work_budget 20,000,000) at once on a crafted valid {size}-byte state: {what}"
        ),
        answer: format!(
            "{}; honest View meanwhile: {}",
            answers.join("; "),
            code_of(&honest)
        ),
        pass: bounded && honest.is_ok(),
    })
}

/// #24.6: 512 calls in flight against the server's concurrency limit (32 in the suite) for
/// each of Apply, View, LegalActions, Describe and DefaultAction. Bound: calls over the
/// limit are refused at once with RESOURCE_EXHAUSTED; nothing else fails.
pub async fn overload(ctx: &Ctx) -> anyhow::Result<Outcome> {
    let secs = ctx.pick(1, 10, 2) as f64;
    let cfg = crate::Config {
        addr: ctx.open.addr.clone(),
        connections: 8,
        concurrency: 512,
        duration: Duration::from_secs_f64(secs),
        warmup: Duration::from_millis(250),
        scenarios: Vec::new(),
        max_requests: None,
        server_pid: Some(ctx.open.pid),
    };
    let (p1841, pab) = (position_1841()?, position_autobahn()?);
    let channels = crate::connect(&cfg).await?;
    let mut parts = Vec::new();
    let mut pass = true;
    for name in [
        "apply-1841",
        "view-1841",
        "legal-1841",
        "describe-1841",
        "default-1841",
    ] {
        let p = prepare(name, &p1841, &pab)?;
        let o = crate::run_scenario(&cfg, &channels, &p).await?;
        let other: u64 = o.errors.values().sum();
        pass &= o.shed > 0 && other == 0;
        parts.push(format!(
            "{name}: {} answered (p99 {:.0} ms), {} shed (p99 {:.1} ms){}",
            o.ok,
            o.latency.value_at_quantile(0.99) as f64 / 1000.0,
            o.shed,
            o.shed_latency.value_at_quantile(0.99) as f64 / 1000.0,
            if other > 0 {
                format!(", other {:?}", o.errors)
            } else {
                String::new()
            }
        ));
    }
    Ok(Outcome {
        sent: format!(
            "512 calls in flight over 8 connections for {secs} s per call kind, limit {}",
            ctx.limits.max_concurrency
        ),
        answer: parts.join("; "),
        pass,
    })
}

/// #24.8: an Autobahn department without floors (it panicked in LegalActions, DefaultAction,
/// Playout and Apply), a 1841 auction whose high bidder is to act, `action_count` at 2^53 − 1.
/// Bound: each is a typed answer (INVALID_ARGUMENT, FAILED_PRECONDITION), never INTERNAL.
pub async fn bad_states(ctx: &Ctx) -> anyhow::Result<Outcome> {
    let mut c = client(ctx.channel().await?);
    let good = c
        .new_game(pb::NewGameRequest {
            game: "autobahn".into(),
            seats: 2,
            seed: 3,
            ..Default::default()
        })
        .await?
        .into_inner()
        .state
        .ok_or_else(|| anyhow::anyhow!("no state"))?;
    let seat = c
        .legal_actions(pb::LegalActionsRequest {
            state: Some(good.clone()),
            ..Default::default()
        })
        .await?
        .into_inner()
        .to_act
        .first()
        .copied()
        .unwrap_or(0);
    let action = c
        .default_action(pb::DefaultActionRequest {
            state: Some(good.clone()),
            seat,
            ..Default::default()
        })
        .await?
        .into_inner()
        .action;
    let mut bad = good.clone();
    if let Some(pb::game_state::State::Autobahn(s)) = bad.state.as_mut() {
        s.players[0].departments[1].floors.clear();
    }
    let mut got = Vec::new();
    got.push((
        "floors: LegalActions",
        code_of(
            &c.legal_actions(pb::LegalActionsRequest {
                state: Some(bad.clone()),
                seat,
                ..Default::default()
            })
            .await,
        ),
        "InvalidArgument",
    ));
    got.push((
        "floors: DefaultAction",
        code_of(
            &c.default_action(pb::DefaultActionRequest {
                state: Some(bad.clone()),
                seat,
                ..Default::default()
            })
            .await,
        ),
        "InvalidArgument",
    ));
    got.push((
        "floors: Playout",
        code_of(
            &c.playout(pb::PlayoutRequest {
                state: Some(bad.clone()),
                games: 1,
                ..Default::default()
            })
            .await,
        ),
        "InvalidArgument",
    ));
    got.push((
        "floors: Apply",
        code_of(
            &c.apply(pb::ApplyRequest {
                state: Some(bad.clone()),
                seat,
                action: action.clone(),
                ..Default::default()
            })
            .await,
        ),
        "InvalidArgument",
    ));
    let (auction, high) = states::auction_high_bidder_to_act()?;
    got.push((
        "1841 auction, high bidder to act: LegalActions",
        code_of(
            &c.legal_actions(pb::LegalActionsRequest {
                state: Some(auction),
                seat: high,
                ..Default::default()
            })
            .await,
        ),
        "InvalidArgument",
    ));
    for (label, count, want) in [
        (
            "action_count 2^53−1: Apply",
            MAX_ACTION_COUNT,
            "FailedPrecondition",
        ),
        (
            "action_count 2^53: Apply",
            MAX_ACTION_COUNT + 1,
            "InvalidArgument",
        ),
    ] {
        let mut gs = good.clone();
        gs.action_count = count;
        got.push((
            label,
            code_of(
                &c.apply(pb::ApplyRequest {
                    state: Some(gs),
                    seat,
                    action: action.clone(),
                    ..Default::default()
                })
                .await,
            ),
            want,
        ));
    }
    let pass = got.iter().all(|(_, code, want)| code == want);
    Ok(Outcome {
        sent: "an Autobahn department with no floors to LegalActions, DefaultAction, Playout, Apply; a 1841 open auction with the high bidder to act; Apply at action_count 2^53−1 and 2^53".into(),
        answer: got
            .iter()
            .map(|(l, c, _)| format!("{l}: {c}"))
            .collect::<Vec<_>>()
            .join("; "),
        pass,
    })
}

/// Latency histogram in microseconds (1 µs – 60 s).
pub fn histogram() -> Histogram<u64> {
    Histogram::new_with_bounds(1, 60_000_000, 3).expect("histogram bounds")
}
