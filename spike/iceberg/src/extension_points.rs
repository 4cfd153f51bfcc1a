//! The hooks of iceberg-rust an arm can carry its check in (one is "a trait's worth", kill
//! condition 4), and what producing a commit consists of below them. This file defines their
//! markers; the arms that use them declare it beside their code (`Footprint`).

use barrier_sink::ExtensionPoint;

pub const CATALOG_DECORATOR: ExtensionPoint =
    ExtensionPoint { name: "`Catalog` decorator", markers: &["impl Catalog for"] };
/// Patch 1 (an experiment, not proposed upstream).
pub const TRANSACTION_ACTION: ExtensionPoint =
    ExtensionPoint { name: "`TransactionAction`", markers: &["TransactionAction for"] };
/// Patch 2.
pub const ASSERT_REF_SNAPSHOT_ID: ExtensionPoint =
    ExtensionPoint { name: "`Transaction::assert_ref_snapshot_id`", markers: &[".assert_ref_snapshot_id("] };
/// Patch 3.
pub const TRANSACTION_VALIDATOR: ExtensionPoint = ExtensionPoint {
    name: "`SnapshotAncestryValidator`",
    markers: &["SnapshotAncestryValidator for", ".validate_with("],
};

/// Patch 4 (an experiment): the commit on the transaction's own base, no rebase.
pub const WITH_REBASE: ExtensionPoint =
    ExtensionPoint { name: "`Transaction::with_rebase(Rebase::Never)`", markers: &[".with_rebase(Rebase::Never)"] };

/// Stock: the fast append's duplicate-file check (`with_check_duplicate`, on by default), run on
/// the refreshed base, refusing data files named from the epoch.
pub const DUPLICATE_FILE_CHECK: ExtensionPoint = ExtensionPoint {
    name: "the fast append's duplicate-file check, on data files named from the epoch",
    markers: &["FileNames::Keyed { create_only:"],
};

/// Patch 5 (an experiment): a caller-set snapshot id on the fast append, refused when the
/// refreshed base already has it.
pub const SET_SNAPSHOT_ID: ExtensionPoint =
    ExtensionPoint { name: "`FastAppendAction::set_snapshot_id`", markers: &[".set_snapshot_id("] };

pub const EXTENSION_POINTS: [&ExtensionPoint; 7] = [
    &CATALOG_DECORATOR,
    &TRANSACTION_ACTION,
    &ASSERT_REF_SNAPSHOT_ID,
    &TRANSACTION_VALIDATOR,
    &WITH_REBASE,
    &DUPLICATE_FILE_CHECK,
    &SET_SNAPSHOT_ID,
];

/// An arm whose own files name one of these builds part of the write path itself.
pub const WRITE_PATH_INTERNALS: [&str; 6] = [
    "TableCommit::builder",
    "ManifestWriter",
    "ManifestListWriter",
    "SnapshotProducer",
    "TableMetadataBuilder",
    "Snapshot::builder",
];
