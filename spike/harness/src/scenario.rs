//! The scenarios of the generic suite, as identities: their names, whether their interleaving is
//! forced, and whether they must run alone. The bodies are in [`crate::suite`].

use crate::registry::registry;

pub struct ScenarioSpec {
    /// As tests, `verdict` and FINDINGS.md spell it.
    pub name: &'static str,
    /// Whether its interleaving is forced (a held window, failpoints), so that the same code
    /// decides it the same way in every run. The kill list cites only these.
    pub forced: bool,
    /// Whether it configures process-global failpoints, so that nothing else may run in its
    /// process at the same time (and the build needs the `failpoints` feature).
    pub exclusive: bool,
}

const fn body(name: &'static str) -> ScenarioSpec {
    ScenarioSpec { name, forced: false, exclusive: false }
}

const fn forced(name: &'static str) -> ScenarioSpec {
    ScenarioSpec { name, forced: true, exclusive: false }
}

registry! {
    /// The scenarios, in the order the matrix prints them.
    pub enum Scenario: ScenarioSpec {
        ReplayWritesNothing => body("replay_writes_nothing"),
        DistinctEpochsAccumulate => body("distinct_epochs_accumulate"),
        WriterBehindCommitsOnce => body("writer_behind_commits_once"),
        ConcurrentWritersCommitOnce => body("concurrent_writers_commit_once"),
        ContentionProbe => body("contention_probe"),
        HeldWindow => forced("held_window"),
        HeldAtSwap => forced("held_at_swap"),
        MissingTable => body("missing_table"),
        SchemaMismatch => body("schema_mismatch"),
        CatalogUnavailable => body("catalog_unavailable"),
        AbortedCommitLosesNothing =>
            ScenarioSpec { name: "aborted_commit_loses_nothing", forced: true, exclusive: true },
        EpochsSurviveExpiry => body("epochs_survive_expiry"),
        EpochsSurviveRewrite => forced("epochs_survive_rewrite"),
        ZombieOtherBatch => forced("zombie_other_batch"),
        LostResponse => body("lost_response"),
    }
}
