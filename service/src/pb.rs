//! Code generated from `proto/` (prost messages, tonic service, pbjson serde impls).

#![allow(missing_docs, clippy::all)]

/// Packages under `referee.`.
pub mod referee {
    /// `referee.v1`: the service and the envelopes.
    pub mod v1 {
        include!(concat!(env!("OUT_DIR"), "/referee.v1.rs"));
        include!(concat!(env!("OUT_DIR"), "/referee.v1.serde.rs"));
    }
    /// `referee.g1841.v1`: 1841 state, actions, events, views.
    pub mod g1841 {
        /// Version 1 of the 1841 package.
        pub mod v1 {
            include!(concat!(env!("OUT_DIR"), "/referee.g1841.v1.rs"));
            include!(concat!(env!("OUT_DIR"), "/referee.g1841.v1.serde.rs"));
        }
    }
    /// `referee.autobahn.v1`: Autobahn state, actions, events, views.
    pub mod autobahn {
        /// Version 1 of the Autobahn package.
        pub mod v1 {
            include!(concat!(env!("OUT_DIR"), "/referee.autobahn.v1.rs"));
            include!(concat!(env!("OUT_DIR"), "/referee.autobahn.v1.serde.rs"));
        }
    }
}

pub use referee::autobahn::v1 as autobahn;
pub use referee::g1841::v1 as g1841;
pub use referee::v1;

/// Encoded file descriptor set of the whole API, served by gRPC reflection.
pub const FILE_DESCRIPTOR_SET: &[u8] =
    include_bytes!(concat!(env!("OUT_DIR"), "/referee_descriptor.bin"));
