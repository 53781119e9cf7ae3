//! Starts the real `referee` binary on a free loopback port for end-to-end tests.

#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Path of the `referee` binary: `$REFEREE_BIN`, else `<target dir>/debug/referee`.
pub fn referee_bin() -> PathBuf {
    if let Ok(p) = std::env::var("REFEREE_BIN") {
        return PathBuf::from(p);
    }
    let target = std::env::var("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|_| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target"));
    target.join("debug/referee")
}

/// A running server, killed when dropped.
pub struct Server {
    /// The child process.
    pub child: Child,
    /// `127.0.0.1:PORT`.
    pub addr: String,
}

/// The log lines a [`Server::start_logged`] server wrote on stderr so far.
#[derive(Clone, Default)]
pub struct Logs(Arc<Mutex<Vec<String>>>);

impl Logs {
    /// Every line so far.
    pub fn lines(&self) -> Vec<String> {
        self.0.lock().unwrap().clone()
    }

    /// Number of lines so far.
    pub fn count(&self) -> usize {
        self.0.lock().unwrap().len()
    }

    /// Waits (polling, at most `within`) until a line contains every one of `parts`, and
    /// returns it; `None` when none did in time.
    pub fn wait_for(&self, parts: &[&str], within: Duration) -> Option<String> {
        self.wait_for_from(0, parts, within)
    }

    /// As [`Logs::wait_for`], among the lines from the `from`-th on (0-based; see
    /// [`Logs::count`]).
    pub fn wait_for_from(&self, from: usize, parts: &[&str], within: Duration) -> Option<String> {
        let until = Instant::now() + within;
        loop {
            if let Some(line) = self
                .lines()
                .into_iter()
                .skip(from)
                .find(|l| parts.iter().all(|p| l.contains(p)))
            {
                return Some(line);
            }
            if Instant::now() >= until {
                return None;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Server {
    /// Starts `referee serve --addr 127.0.0.1:0 EXTRA...` and waits for its listening line.
    pub fn start(extra: &[&str]) -> Server {
        Self::spawn(extra, None).0
    }

    /// As [`Server::start`], with JSON logs filtered by `filter` (`RUST_LOG`, e.g.
    /// `warn,referee_service=info`) collected line by line (and echoed on stderr).
    pub fn start_logged(extra: &[&str], filter: &str) -> (Server, Logs) {
        let (server, logs) = Self::spawn(extra, Some(filter));
        (server, logs.expect("logs"))
    }

    /// As [`Server::start_logged`], with the default text logs (`--log-format text`).
    pub fn start_logged_text(extra: &[&str], filter: &str) -> (Server, Logs) {
        let mut args = vec!["--log-format", "text"];
        args.extend_from_slice(extra);
        let (server, logs) = Self::spawn_as(&args, Some(filter), false);
        (server, logs.expect("logs"))
    }

    /// As [`Server::start_logged`], the binary started by the shell command `shell` (`sh -c`;
    /// the binary is `$0` and its arguments `"$@"`), e.g. `ulimit -n 256 && exec "$0" "$@"`.
    pub fn start_logged_in_shell(shell: &str, extra: &[&str], filter: &str) -> (Server, Logs) {
        let (server, logs) = Self::spawn_in(Some(shell), extra, Some(filter), true);
        (server, logs.expect("logs"))
    }

    fn spawn(extra: &[&str], log: Option<&str>) -> (Server, Option<Logs>) {
        Self::spawn_as(extra, log, true)
    }

    fn spawn_as(extra: &[&str], log: Option<&str>, json: bool) -> (Server, Option<Logs>) {
        Self::spawn_in(None, extra, log, json)
    }

    fn spawn_in(
        shell: Option<&str>,
        extra: &[&str],
        log: Option<&str>,
        json: bool,
    ) -> (Server, Option<Logs>) {
        let bin = referee_bin();
        assert!(
            bin.exists(),
            "{} not found: build it first with `cargo build -p referee-service` (or set REFEREE_BIN)",
            bin.display()
        );
        let mut command = match shell {
            Some(script) => {
                let mut c = Command::new("sh");
                c.args(["-c", script]).arg(&bin);
                c
            }
            None => Command::new(&bin),
        };
        command
            .args(["serve", "--addr", "127.0.0.1:0"])
            .args(extra)
            .env("RUST_LOG", log.unwrap_or("warn"))
            .env_remove("OTEL_EXPORTER_OTLP_ENDPOINT")
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        if log.is_some() {
            if json {
                command.args(["--log-format", "json"]);
            }
            command.stderr(Stdio::piped());
        }
        let mut child = command.spawn().expect("spawn referee");
        let logs = child.stderr.take().map(|stderr| {
            let logs = Logs::default();
            let sink = logs.clone();
            std::thread::spawn(move || {
                for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                    eprintln!("{line}");
                    sink.0.lock().unwrap().push(line);
                }
            });
            logs
        });
        let stdout = child.stdout.take().expect("stdout");
        let mut line = String::new();
        BufReader::new(stdout)
            .read_line(&mut line)
            .expect("read listening line");
        let addr = line
            .trim()
            .strip_prefix("referee listening on ")
            .unwrap_or_else(|| panic!("unexpected first line from referee: {line:?}"))
            .to_string();
        (Server { child, addr }, logs)
    }

    /// `http://127.0.0.1:PORT`.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
