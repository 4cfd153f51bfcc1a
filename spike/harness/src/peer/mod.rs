//! The peers: other implementations of the same conditional commit, measured in the same
//! scenarios, on the same tables and catalogs, as this project's arms.
//!
//! Each peer is a process speaking `docs/peer-protocol.md`, started as its runtime says
//! ([`crate::interop::Runtime`]): Python (`interop/peer.py`, in the venv `scripts/interop-venv`
//! builds: `pyiceberg-naive` and `pyiceberg-owned-loop` on pyiceberg, `deltalake-python` on the
//! `deltalake` package) or the JVM (`interop/java`, which `scripts/java-peer` builds:
//! `java-iceberg-validator` and `java-iceberg-naive` on Iceberg Java), Go (`interop/go`, which
//! `scripts/go-peer` builds: `go-iceberg-assert-ref` and `go-iceberg-naive` on iceberg-go), or a
//! user's command (`verdict --peer NAME=COMMAND`). Each is an entry of the peers' registry
//! ([`Peer`]), apart from the arms: a target is a peer only on a catalog it reaches
//! ([`crate::Target::peer`]). They read and write the same
//! summary keys and watermark property as the Iceberg arms, on tables the Rust fixtures create.
//! In the suite a peer is a [`CommitSink`](barrier_sink::CommitSink) like any arm ([`PeerSink`]);
//! in `stress` peer processes race Rust writers on one table.
//!
//! Peers are measured beside the arms, not in `verdict` or the kill list: the question is what
//! iceberg-rust lets a caller build, `verdict` must run with nothing but a Rust toolchain, and a
//! peer's result is a comparison, not a kill condition.
//!
//! Limits: a peer's check runs in its own process and is observed through the protocol (its
//! `check-passed` and `swap-reached` events), so the held windows hold it exactly where the
//! Rust arms are held; its failpoints do not exist (a peer dies by SIGKILL in the mixed race
//! instead), and it reaches a catalog directly, never through the fault proxy.

mod process;
mod registry;
mod sink;

pub use registry::{Peer, PeerSpec};
pub use sink::{PeerSink, Pool, stop_idle};
