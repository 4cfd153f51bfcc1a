//! barrier: can an application make a lakehouse commit conditional on its own progress
//! ("commit this batch unless epoch N of app A is already in the table") from outside the table
//! library, the same way on Delta and on Iceberg?
//!
//! One seam, [`CommitSink`]; one implementation per arm:
//!
//! | arm | build | where the epoch check runs |
//! |---|---|---|
//! | `delta` | deltalake-core 0.32.4 | in the sink, enforced by the `txn` conflict check |
//! | `iceberg-naive` | stock and patched | in the sink, before `Transaction::commit` (not enforced) |
//! | `iceberg-catalog-guard` | stock | in the `load_table` of the catalog the commit goes through |
//! | `iceberg-action` | patched (patch 1, not proposed upstream) | in a `TransactionAction`, against the refreshed table |
//! | `iceberg-requirement` | patched (patch 2) | in the sink, `main` asserted with `Transaction::assert_ref_snapshot_id` |
//! | `iceberg-validator` | patched (patch 3) | in a `TransactionValidator`, against the refreshed table |
//!
//! [`suite`] holds the generic test bodies every arm runs; [`verdict`] runs the matrix;
//! [`killlist`] decides the kill list from it. [`peer`] runs other implementations (pyiceberg,
//! the `deltalake` Python package) through the same trait, beside the arms.

pub mod arms;
pub mod batch;
pub mod catalogs;
pub mod delta;
pub mod error;
pub mod fixture;
pub mod hooks;
pub mod killlist;
pub mod leftovers;
pub mod patched;
pub mod peer;
pub mod progress;
pub mod proxy;
pub mod retry;
pub mod rng;
pub mod run;
pub mod sink;
pub mod stock;
pub mod storage_io;
pub mod store;
pub mod stress;
pub mod suite;
pub mod verdict;

pub use arms::{Arm, Build, Target};
pub use catalogs::CatalogKind;
pub use fixture::{Fixture, WriterOptions};
pub use error::SinkError;
pub use sink::{AppId, CommitOutcome, CommitSink, Epoch};
