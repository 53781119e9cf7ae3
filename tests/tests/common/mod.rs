//! Starts the real `referee` binary on a free loopback port for end-to-end tests.

#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};

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

impl Server {
    /// Starts `referee serve --addr 127.0.0.1:0 EXTRA...` and waits for its listening line.
    pub fn start(extra: &[&str]) -> Server {
        let bin = referee_bin();
        assert!(
            bin.exists(),
            "{} not found: build it first with `cargo build -p referee-service` (or set REFEREE_BIN)",
            bin.display()
        );
        let mut child = Command::new(&bin)
            .args(["serve", "--addr", "127.0.0.1:0"])
            .args(extra)
            .env("RUST_LOG", "warn")
            .env_remove("OTEL_EXPORTER_OTLP_ENDPOINT")
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("spawn referee");
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
        Server { child, addr }
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
