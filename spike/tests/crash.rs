//! Commits stopped by failpoints, on every arm and catalog. A binary of its own because failpoints
//! are process-global; each test holds `fail::FailScenario`, which runs them one at a time and
//! clears every failpoint after it.

mod common;

targets!(fail::FailScenario::setup(); aborted_commit_loses_nothing);
