//! The lab: the runs that decide the question, over the harness.
//!
//! [`verdict`] runs every scenario on every arm and catalog on fresh tables and prints the
//! matrix; [`killlist`] decides the kill list from it (FINDINGS.md carries the table, and
//! `verdict --check` fails when the two differ); [`stress`] runs many writer processes killed,
//! crashed and faulted at random on one table, and audits every answer against the table, once
//! or as a soak. [`names`] names the tests that back each cell.
//!
//! Its own crate, the top layer: it depends on the harness (and through it on everything below)
//! and nothing depends on it. It turns the failpoints on.

pub mod killlist;
pub mod names;
pub mod progress;
pub mod record;
pub mod stress;
pub mod tier;
pub mod verdict;
