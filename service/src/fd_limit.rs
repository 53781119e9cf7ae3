//! The process's file-descriptor limit (`RLIMIT_NOFILE`) and the connection limit it allows.
//!
//! Every connection holds a socket, so `--max-connections` only bounds what clients can make
//! the server hold if the descriptors for them exist: with a soft limit below what the
//! connection limit needs (1,024 connections, up to 128 more closing after making room, and
//! the server's own descriptors), `accept` failed with `EMFILE` before the connection limit
//! was reached, and since the connection limit is what makes room (closing the connection
//! idle longest), nothing made room: every new client was refused while idle connections
//! held the descriptors (review of issue #24, finding B: a limit below about 1,170).
//!
//! At start the server raises the soft limit to the hard limit (as far as the system lets a
//! process without privileges go), and if that is still below what `--max-connections`
//! needs, serves fewer connections, as many as the descriptors allow, and says so in a
//! warning naming both numbers.

/// Descriptors the server keeps for itself besides its connections: standard streams, the
/// listening socket, the runtime's epoll and wake-up descriptors, signal handling, a key
/// file or an OTLP exporter's connections. An idle server holds 12 (counted in
/// `/proc/PID/fd`, 2026-12-06); the rest is room.
pub const RESERVED_FDS: u64 = 64;

/// The descriptors a server with `max_connections` may need at once: its connections, the
/// connections closing after making room at the limit (at most an eighth of the limit: the
/// server's `closing` share), and [`RESERVED_FDS`].
pub fn fds_needed(max_connections: usize) -> u64 {
    let max = max_connections as u64;
    max.saturating_add(max / 8).saturating_add(RESERVED_FDS)
}

/// The largest connection limit whose [`fds_needed`] fit in `fd_limit` descriptors, at most
/// `wanted` and at least 1 (a server that can hold no connection at all serves one and fails
/// at `accept` beyond, logged).
pub fn connections_within(fd_limit: u64, wanted: usize) -> usize {
    if fds_needed(wanted) <= fd_limit {
        return wanted;
    }
    // max + max / 8 <= room  ⇐  max <= room * 8 / 9.
    let room = fd_limit.saturating_sub(RESERVED_FDS);
    let mut max = usize::try_from(room.saturating_mul(8) / 9)
        .unwrap_or(wanted)
        .clamp(1, wanted.max(1));
    // The eighth is rounded down: step to the largest that fits.
    while max < wanted && fds_needed(max + 1) <= fd_limit {
        max += 1;
    }
    while max > 1 && fds_needed(max) > fd_limit {
        max -= 1;
    }
    max
}

/// What [`fit`] found and did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fitted {
    /// The soft limit before, if it could be read.
    pub soft_before: Option<u64>,
    /// The soft limit now (after raising it to the hard limit, where allowed).
    pub soft: Option<u64>,
    /// The hard limit.
    pub hard: Option<u64>,
    /// The connection limit to serve with: `--max-connections`, or fewer when the
    /// descriptors do not allow it.
    pub max_connections: usize,
}

/// Raises the soft `RLIMIT_NOFILE` to the hard limit and returns the connection limit the
/// descriptors allow ([`connections_within`]), logging what it did: an `info` when the limit
/// was raised, a `warn` when `wanted` connections do not fit (then the returned limit is
/// lower). Where the limit cannot be read (not Unix, or the call fails), `wanted` as is.
pub fn fit(wanted: usize) -> Fitted {
    let (soft_before, soft, hard) = raise();
    let max_connections = match soft {
        Some(limit) => connections_within(limit, wanted),
        None => wanted,
    };
    if let (Some(before), Some(now)) = (soft_before, soft)
        && now > before
    {
        tracing::info!(
            from = before,
            to = now,
            "raised the file-descriptor limit (RLIMIT_NOFILE) to its hard limit"
        );
    }
    if let Some(limit) = soft
        && max_connections < wanted
    {
        tracing::warn!(
            fd_limit = limit,
            hard_limit = hard,
            max_connections_wanted = wanted,
            max_connections = max_connections,
            fds_needed = fds_needed(wanted),
            "the file-descriptor limit (RLIMIT_NOFILE) is too low for --max-connections: \
             serving at most max_connections connections instead (each takes a descriptor, an \
             eighth more may be closing after making room, and the server keeps 64 for \
             itself); raise the limit (ulimit -n, systemd LimitNOFILE=, the container's \
             nofile ulimit) to fds_needed to serve max_connections_wanted"
        );
    }
    Fitted {
        soft_before,
        soft,
        hard,
        max_connections,
    }
}

/// (soft before, soft now, hard) of `RLIMIT_NOFILE`, after trying to raise the soft limit to
/// the hard one; `None` where unknown.
#[cfg(unix)]
fn raise() -> (Option<u64>, Option<u64>, Option<u64>) {
    use rlimit::Resource;
    let Ok((soft, hard)) = Resource::NOFILE.get() else {
        return (None, None, None);
    };
    if soft >= hard {
        return (Some(soft), Some(soft), Some(hard));
    }
    // `increase_nofile_limit` stops at the hard limit (and at macOS's per-process maximum).
    let now = match rlimit::increase_nofile_limit(hard) {
        Ok(now) => now,
        Err(e) => {
            tracing::warn!(error = %e, soft, hard, "could not raise the file-descriptor limit");
            soft
        }
    };
    (Some(soft), Some(now), Some(hard))
}

#[cfg(not(unix))]
fn raise() -> (Option<u64>, Option<u64>, Option<u64>) {
    (None, None, None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_limit_needs_1216_descriptors() {
        // 1,024 connections + 128 closing + 64 reserved.
        assert_eq!(fds_needed(1024), 1216);
        assert_eq!(connections_within(1216, 1024), 1024);
        assert_eq!(connections_within(1_048_576, 1024), 1024);
    }

    #[test]
    fn a_low_limit_gives_the_largest_connection_limit_that_fits() {
        for limit in [65, 66, 100, 256, 1024, 1215] {
            let max = connections_within(limit, 1024);
            assert!(max < 1024, "{limit}");
            assert!(fds_needed(max) <= limit || max == 1, "{limit}: {max}");
            assert!(
                fds_needed(max + 1) > limit,
                "{limit}: {max} is not the largest"
            );
        }
        assert_eq!(connections_within(256, 1024), 171);
        assert_eq!(connections_within(1024, 1024), 854);
        // Nothing left after the reserve: one connection all the same.
        assert_eq!(connections_within(10, 1024), 1);
        assert_eq!(connections_within(0, 1024), 1);
    }
}
