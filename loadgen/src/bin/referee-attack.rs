//! `referee-attack`: the attack suite (docs/SECURITY.md). Starts two `referee serve` processes
//! on loopback — open mode and sealed mode — with the defaults for every memory bound, the
//! concurrency limit of the overload attack (32) and short timeouts, replays every
//! attack of issue #24 and the earlier ones against them, and prints per attack what was
//! sent, the answer, the server's peak resident memory and CPU time. Exits 1 when an attack
//! did not meet its bound or the server stopped answering.

use std::io::{BufRead, BufReader, Read};
use std::path::PathBuf;
use std::process::{Child, Command, ExitCode, Stdio};

use clap::Parser;
use referee_loadgen::attack::{self, Ctx, Limits, Scale, Target};

/// Attack suite against local `referee serve` processes.
#[derive(Parser, Debug)]
#[command(name = "referee-attack", version)]
struct Args {
    /// The `referee` binary (default: $REFEREE_BIN, else `referee` next to this program).
    #[arg(long)]
    referee_bin: Option<PathBuf>,
    /// The counts of issue #24 (minutes); default: the short run of CI (about a minute).
    #[arg(long)]
    full: bool,
    /// Only these attacks (comma-separated names; `--list` shows them).
    #[arg(long, value_delimiter = ',')]
    only: Vec<String>,
    /// List the attacks and exit.
    #[arg(long)]
    list: bool,
    /// Write the JSON report here.
    #[arg(long)]
    json: Option<PathBuf>,
    /// Print the Markdown table at the end (docs/SECURITY.md).
    #[arg(long)]
    markdown: bool,
    /// Start the servers with every default of `referee serve` (concurrency 256, timeouts
    /// of 10–30 s) instead of the suite's short timeouts and concurrency 32.
    #[arg(long)]
    server_defaults: bool,
    /// Run the `--only` attacks at the same time against the open server (one record: the
    /// peak RSS while they all ran).
    #[arg(long)]
    together: bool,
}

struct Spawned {
    child: Child,
    addr: String,
}

impl Drop for Spawned {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn spawn(bin: &PathBuf, extra: &[String]) -> anyhow::Result<Spawned> {
    let mut child = Command::new(bin)
        .args(["serve", "--addr", "127.0.0.1:0"])
        .args(extra)
        // The servers' log (stderr): errors only, unless `REFEREE_ATTACK_LOG` names a level
        // or filter (`debug` shows why each connection was closed).
        .env(
            "RUST_LOG",
            std::env::var("REFEREE_ATTACK_LOG").unwrap_or_else(|_| "error".to_string()),
        )
        .env_remove("OTEL_EXPORTER_OTLP_ENDPOINT")
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| anyhow::anyhow!("{}: {e}", bin.display()))?;
    let mut line = String::new();
    let mut out = BufReader::new(child.stdout.take().expect("stdout"));
    out.read_line(&mut line)?;
    // Keep draining stdout so the server never blocks on it.
    std::thread::spawn(move || {
        let mut sink = Vec::new();
        let _ = out.read_to_end(&mut sink);
    });
    let addr = line
        .trim()
        .strip_prefix("referee listening on ")
        .ok_or_else(|| anyhow::anyhow!("unexpected first line from referee: {line:?}"))?
        .to_string();
    Ok(Spawned { child, addr })
}

fn random_key() -> anyhow::Result<String> {
    let mut b = [0u8; 32];
    std::fs::File::open("/dev/urandom")?.read_exact(&mut b)?;
    Ok(format!(
        "attack:{}",
        b.iter().map(|x| format!("{x:02x}")).collect::<String>()
    ))
}

#[tokio::main]
async fn main() -> ExitCode {
    let a = Args::parse();
    if a.list {
        for x in attack::ATTACKS {
            println!("{:<22} {}", x.name, x.finding);
        }
        return ExitCode::SUCCESS;
    }
    match run(&a).await {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("referee-attack: {e:#}");
            ExitCode::from(2)
        }
    }
}

async fn run(a: &Args) -> anyhow::Result<bool> {
    for name in &a.only {
        anyhow::ensure!(
            attack::ATTACKS.iter().any(|x| x.name == name),
            "unknown attack `{name}` (--list)"
        );
    }
    let bin = match &a.referee_bin {
        Some(p) => p.clone(),
        None => match std::env::var_os("REFEREE_BIN") {
            Some(p) => PathBuf::from(p),
            None => std::env::current_exe()?
                .parent()
                .map(|d| d.join("referee"))
                .ok_or_else(|| anyhow::anyhow!("no directory of this program"))?,
        },
    };
    let limits = if a.server_defaults {
        Limits::server_defaults()
    } else {
        Limits::suite()
    };
    let open = spawn(&bin, &limits.flags())?;
    let key = random_key()?;
    let key_file = std::env::temp_dir().join(format!("referee-attack-{}.keys", std::process::id()));
    std::fs::write(&key_file, format!("{key}\n"))?;
    let mut sealed_flags = limits.flags();
    sealed_flags.extend([
        "--seal-key-file".to_string(),
        key_file.display().to_string(),
    ]);
    let sealed = spawn(&bin, &sealed_flags);
    let _ = std::fs::remove_file(&key_file);
    let sealed = sealed?;
    let arbiter = referee_service::seal::Sealer::parse(&key)?.arbiter_credential();
    let ctx = Ctx {
        open: Target {
            addr: open.addr.clone(),
            pid: open.child.id(),
        },
        sealed: Some((
            Target {
                addr: sealed.addr.clone(),
                pid: sealed.child.id(),
            },
            arbiter,
        )),
        limits: limits.clone(),
        scale: if a.full { Scale::Full } else { Scale::Short },
    };
    println!(
        "referee-attack: {} run; open server pid {} on {}, sealed server pid {} on {}; limits {}",
        if a.full { "full" } else { "short" },
        ctx.open.pid,
        ctx.open.addr,
        sealed.child.id(),
        sealed.addr,
        limits.flags().join(" ")
    );
    let records = if a.together {
        vec![attack::run_together(&ctx, &a.only).await]
    } else {
        attack::run_all(&ctx, &a.only, true).await
    };
    let failed: Vec<&str> = records
        .iter()
        .filter(|r| !r.passed())
        .map(|r| r.name.as_str())
        .collect();
    if a.markdown {
        println!("\n{}", attack::markdown(&records));
    }
    if let Some(path) = &a.json {
        let report = serde_json::json!({
            "scale": if a.full { "full" } else { "short" },
            "limits": limits.flags(),
            "attacks": records.iter().map(attack::Record::to_json).collect::<Vec<_>>(),
            "passed": failed.is_empty(),
        });
        std::fs::write(path, format!("{report:#}\n"))?;
    }
    if failed.is_empty() {
        println!(
            "referee-attack: all {} attacks met their bounds",
            records.len()
        );
        Ok(true)
    } else {
        println!("referee-attack: FAILED: {}", failed.join(", "));
        Ok(false)
    }
}
