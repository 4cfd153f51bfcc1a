//! The shared harness: what the lab, the tests and the benchmarks run the arms with.
//!
//! The arms ([`arms`]), peers ([`peer::Peer`]), catalogs ([`catalogs`]) and scenarios
//! ([`scenario`]) as types, each a registry of entries, with their names as the tests, `verdict`
//! and FINDINGS.md spell them derived in one place; a [`Target`] (an arm or a peer on the table
//! it writes); a [`Fixture`] (a fresh
//! table for a target, and everything done to it besides committing); the generic [`suite`]
//! bodies; the fault [`proxy`]; the [`peer`] processes; the outcome record both the peers and
//! the stress writers keep ([`outcome`]).
//!
//! Its own crate, above the formats and below the lab, as delta-rs's `deltalake-test` sits above
//! its backends: it is not the product, and nothing in it is API-stable.

pub mod arms;
pub mod batch;
pub mod catalogs;
mod error;
pub mod fixture;
pub mod interop;
pub mod leftovers;
pub mod location;
pub mod outcome;
pub mod peer;
pub mod proxy;
mod registry;
pub mod rng;
pub mod run;
pub mod scenario;
pub mod store;
pub mod suite;
mod target;

pub use arms::{Arm, Build, DeltaArm, IcebergArm};
pub use catalogs::CatalogKind;
pub use error::Error;
pub use fixture::{Fixture, WriterOptions};
pub use peer::{Peer, PeerSpec};
pub use scenario::Scenario;
pub use target::{Format, LOCAL_FS, Target};
