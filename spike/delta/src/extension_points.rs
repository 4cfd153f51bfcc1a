//! Delta's hook for the check (kill condition 4), and what producing a commit consists of below
//! it. This file defines their markers; the arm that uses the hook declares it beside its code.

use barrier_sink::ExtensionPoint;

/// Delta's extension point for the check: the application transaction a commit carries.
pub const TXN: ExtensionPoint = ExtensionPoint { name: "Delta `txn`", markers: &[".with_application_transaction("] };

/// Delta's extension points, for the kill list.
pub const EXTENSION_POINTS: [&ExtensionPoint; 1] = [&TXN];

/// What producing a Delta commit consists of below `CommitBuilder`: a sink that names one builds
/// part of the write path itself.
pub const WRITE_PATH_INTERNALS: [&str; 1] = ["write_commit_entry"];
