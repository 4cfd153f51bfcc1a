//! Every generic body of `spike::suite`, on every arm and catalog. Failpoint bodies live in
//! `crash.rs`: failpoints are process-global and must not fire in these parallel tests.

mod common;

targets!(();
    replay_writes_nothing,
    distinct_epochs_accumulate,
    writer_behind_commits_once,
    concurrent_writers_commit_once,
    contention_probe,
    held_window,
    held_at_swap,
    missing_table,
    schema_mismatch,
    catalog_unavailable,
    epochs_survive_expiry,
    lost_response,
);
