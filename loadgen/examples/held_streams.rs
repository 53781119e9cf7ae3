//! Measures what server-streaming calls cost the server while their readers take nothing
//! (docs/SECURITY.md, "Memory budget"): opens `N` StreamReplay calls of a real game (its
//! first 40 actions, so every stream fills its buffer of messages) on HTTP/2 connections whose
//! window is 0, 32 per connection, each connection from its own loopback address, and keeps
//! them for `SECONDS` while the server's memory is read from outside (`/proc/PID/status`).
//!
//! ```sh
//! cargo run --release -p referee-loadgen --example held_streams -- 127.0.0.1:50051 128 1841 20
//! cargo run --release -p referee-loadgen --example held_streams -- 127.0.0.1:50051 8 autobahn 20 board.json
//! ```

use std::time::{Duration, Instant};

use referee_loadgen::attack::streams::{start_call, zero_window_answer, zero_window_client};
use referee_loadgen::attack::transport::many_clients_address;
use referee_service::pb::v1 as pb;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let addr = args
        .first()
        .cloned()
        .unwrap_or_else(|| "127.0.0.1:50051".into());
    let n: usize = args.get(1).map_or(Ok(128), |a| a.parse())?;
    let game = args.get(2).cloned().unwrap_or_else(|| "1841".into());
    let secs: u64 = args.get(3).map_or(Ok(20), |a| a.parse())?;
    let mut options = std::collections::BTreeMap::new();
    if let Some(path) = args.get(4) {
        options.insert("board".to_string(), std::fs::read_to_string(path)?);
    }
    let seats = if game == "1841" { 4 } else { 2 };
    let ch = referee_loadgen::attack::channel(&addr).await?;
    let mut c = pb::referee_client::RefereeClient::new(ch)
        .max_decoding_message_size(64 << 20)
        .max_encoding_message_size(64 << 20);
    let seed = 7;
    let state = c
        .new_game(pb::NewGameRequest {
            game: game.clone(),
            seats,
            options: options.clone(),
            seed,
            ..Default::default()
        })
        .await?
        .into_inner()
        .state;
    let played = c
        .playout(pb::PlayoutRequest {
            state,
            games: 1,
            max_actions: 200,
            include_actions: true,
            seed,
            ..Default::default()
        })
        .await?
        .into_inner();
    let mut actions = played
        .played
        .first()
        .map(|p| p.actions.clone())
        .unwrap_or_default();
    actions.truncate(40);
    let request = pb::StreamReplayRequest {
        game: Some(pb::ReplayRequest {
            game,
            seats,
            options,
            seed,
            actions,
        }),
        ..Default::default()
    };
    let message = prost::Message::encode_to_vec(&request);
    let t0 = Instant::now();
    let mut answers = Vec::new();
    let mut conns = Vec::new();
    for i in 0..n.div_ceil(32) {
        let (client, conn) =
            zero_window_client(&addr, many_clients_address(&addr, 30_000 + i)).await?;
        for _ in 0..32.min(n - i * 32) {
            let resp =
                start_call(&client, &addr, "/referee.v1.Referee/StreamReplay", &message).await?;
            answers.push(tokio::spawn(zero_window_answer(
                resp,
                Duration::from_secs(secs),
            )));
        }
        conns.push((client, conn));
    }
    println!(
        "{n} StreamReplay calls of {} actions ({} bytes each) opened in {:.1} s; holding for {secs} s",
        request.game.as_ref().map_or(0, |g| g.actions.len()),
        message.len(),
        t0.elapsed().as_secs_f64()
    );
    let mut by = std::collections::BTreeMap::<&str, usize>::new();
    let mut open = Vec::new();
    for a in answers {
        let (how, stream) = a.await.unwrap_or(("task failed", None));
        *by.entry(how).or_default() += 1;
        open.extend(stream);
    }
    println!("after {:.1} s: {by:?}", t0.elapsed().as_secs_f64());
    Ok(())
}
