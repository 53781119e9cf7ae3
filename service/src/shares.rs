//! Limits of things held at once, all clients together and per client: the calls open at once
//! (`--max-open-calls`, `--max-open-calls-per-client`) and the server-streaming calls holding
//! a concurrency slot (half of `--max-concurrency`, `--max-streaming-calls-per-client`).
//!
//! A client is told apart by its address ([`ClientKey`]): one client holding all it may hold
//! leaves the rest of the limit to the others.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// Who a client is, for its shares: its IPv4 address, or the /64 network of its IPv6 address
/// (what one subscriber is usually given; an IPv4 address mapped into IPv6 is that IPv4
/// address). The server puts it on every request as an extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum ClientKey {
    V4(std::net::Ipv4Addr),
    V6Net(u64),
}

impl ClientKey {
    /// The client of a peer address.
    pub(crate) fn of(ip: std::net::IpAddr) -> Self {
        match ip {
            std::net::IpAddr::V4(v4) => Self::V4(v4),
            std::net::IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
                Some(v4) => Self::V4(v4),
                None => Self::V6Net((v6.to_bits() >> 64) as u64),
            },
        }
    }
}

/// Why something was not admitted ([`ClientShares::admit`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Over {
    /// The limit of all clients together.
    All,
    /// This client's share.
    Client,
}

/// A limit of things held at once (`max`), of which one client holds at most `per_client`.
#[derive(Debug)]
pub(crate) struct ClientShares {
    all: Arc<Semaphore>,
    per_client: usize,
    clients: Mutex<HashMap<ClientKey, usize>>,
}

impl ClientShares {
    /// `max` in all (at least 1), `per_client` per client (at least 1).
    pub(crate) fn new(max: usize, per_client: usize) -> Self {
        Self {
            all: Arc::new(Semaphore::new(max.clamp(1, Semaphore::MAX_PERMITS))),
            per_client: per_client.max(1),
            clients: Mutex::new(HashMap::new()),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<ClientKey, usize>> {
        self.clients.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// One more for `client` if it is under its share and all clients together under the
    /// limit; held until the [`Share`] is dropped. `None` (a request that did not come
    /// through the server's connections, e.g. the routes served in process) counts against
    /// the limit of all clients only.
    pub(crate) fn admit(self: &Arc<Self>, client: Option<ClientKey>) -> Result<Share, Over> {
        let Some(client) = client else {
            let permit = self
                .all
                .clone()
                .try_acquire_owned()
                .map_err(|_| Over::All)?;
            return Ok(Share {
                _permit: permit,
                shares: self.clone(),
                client: None,
            });
        };
        let mut clients = self.lock();
        let held = clients.get(&client).copied().unwrap_or(0);
        if held >= self.per_client {
            return Err(Over::Client);
        }
        let permit = self
            .all
            .clone()
            .try_acquire_owned()
            .map_err(|_| Over::All)?;
        clients.insert(client, held + 1);
        Ok(Share {
            _permit: permit,
            shares: self.clone(),
            client: Some(client),
        })
    }

    /// What `client` holds now.
    #[cfg(test)]
    fn held_by(&self, client: ClientKey) -> usize {
        self.lock().get(&client).copied().unwrap_or(0)
    }
}

/// One thing held in [`ClientShares`], counted until it is dropped.
#[derive(Debug)]
pub(crate) struct Share {
    _permit: OwnedSemaphorePermit,
    shares: Arc<ClientShares>,
    client: Option<ClientKey>,
}

impl Drop for Share {
    fn drop(&mut self) {
        let Some(client) = self.client else {
            return;
        };
        let mut clients = self.shares.lock();
        if let Some(n) = clients.get_mut(&client) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                clients.remove(&client);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v4(last: u8) -> ClientKey {
        ClientKey::of(std::net::IpAddr::from([127, 0, 0, last]))
    }

    #[test]
    fn a_client_holds_at_most_its_share_and_all_at_most_the_limit() {
        let shares = Arc::new(ClientShares::new(5, 2));
        let a1 = shares.admit(Some(v4(1))).unwrap();
        let _a2 = shares.admit(Some(v4(1))).unwrap();
        assert_eq!(shares.admit(Some(v4(1))).unwrap_err(), Over::Client);
        let _b1 = shares.admit(Some(v4(2))).unwrap();
        let _b2 = shares.admit(Some(v4(2))).unwrap();
        let _n = shares.admit(None).unwrap();
        // 5 held: the limit of all, though client 3 holds nothing.
        assert_eq!(shares.admit(Some(v4(3))).unwrap_err(), Over::All);
        assert_eq!(shares.admit(None).unwrap_err(), Over::All);
        assert_eq!(shares.held_by(v4(1)), 2);
        drop(a1);
        assert_eq!(shares.held_by(v4(1)), 1);
        // The place a1 left is free for anyone.
        let _c = shares.admit(Some(v4(3))).unwrap();
        assert_eq!(shares.admit(Some(v4(1))).unwrap_err(), Over::All);
    }

    #[test]
    fn ipv6_clients_are_their_64_networks_and_mapped_ipv4_is_ipv4() {
        let a: std::net::IpAddr = "2001:db8:1:2::1".parse().unwrap();
        let b: std::net::IpAddr = "2001:db8:1:2:ffff::9".parse().unwrap();
        let c: std::net::IpAddr = "2001:db8:1:3::1".parse().unwrap();
        assert_eq!(ClientKey::of(a), ClientKey::of(b));
        assert_ne!(ClientKey::of(a), ClientKey::of(c));
        let mapped: std::net::IpAddr = "::ffff:127.0.0.1".parse().unwrap();
        assert_eq!(ClientKey::of(mapped), v4(1));
    }
}
