// Licensed to the Apache Software Foundation (ASF) under one
// or more contributor license agreements.  See the NOTICE file
// distributed with this work for additional information
// regarding copyright ownership.  The ASF licenses this file
// to you under the Apache License, Version 2.0 (the
// "License"); you may not use this file except in compliance
// with the License.  You may obtain a copy of the License at
//
//   http://www.apache.org/licenses/LICENSE-2.0
//
// Unless required by applicable law or agreed to in writing,
// software distributed under the License is distributed on an
// "AS IS" BASIS, WITHOUT WARRANTIES OR CONDITIONS OF ANY
// KIND, either express or implied.  See the License for the
// specific language governing permissions and limitations
// under the License.

//! This module contains transaction api.
//!
//! The transaction API enables changes to be made to an existing table.
//!
//! Note that this may also have side effects, such as producing new manifest
//! files.
//!
//! Below is a basic example using the "fast-append" action:
//!
//! ```ignore
//! use iceberg::transaction::{ApplyTransactionAction, Transaction};
//! use iceberg::Catalog;
//!
//! // Create a transaction.
//! let tx = Transaction::new(my_table);
//!
//! // Create a `FastAppendAction` which will not rewrite or append
//! // to existing metadata. This will create a new manifest.
//! let action = tx.fast_append().add_data_files(my_data_files);
//!
//! // Apply the fast-append action to the given transaction, returning
//! // the newly updated `Transaction`.
//! let tx = action.apply(tx).unwrap();
//!
//!
//! // End the transaction by committing to an `iceberg::Catalog`
//! // implementation. This will cause a table update to occur.
//! let table = tx
//!     .commit(&some_catalog_impl)
//!     .await
//!     .unwrap();
//! ```

/// The `ApplyTransactionAction` trait provides an `apply` method
/// that allows users to apply a transaction action to a `Transaction`.
mod action;

pub use action::*;
mod append;
mod expire_snapshots;
mod snapshot;
mod snapshot_validator;
mod sort_order;
mod update_location;
mod update_properties;
mod update_schema;
mod update_statistics;
mod upgrade_format_version;

use std::sync::Arc;
use std::time::Duration;

use backon::{BackoffBuilder, ExponentialBackoff, ExponentialBuilder, RetryableWithContext};
pub use snapshot_validator::{Ancestry, SnapshotAncestryValidator, Verdict};
pub use update_schema::AddColumn;

use crate::error::Result;
use crate::spec::TableProperties;
use crate::table::Table;
use crate::transaction::action::BoxedTransactionAction;
use crate::transaction::append::FastAppendAction;
use crate::transaction::expire_snapshots::ExpireSnapshotsAction;
use crate::transaction::sort_order::ReplaceSortOrderAction;
use crate::transaction::update_location::UpdateLocationAction;
use crate::transaction::update_properties::UpdatePropertiesAction;
use crate::transaction::update_schema::UpdateSchemaAction;
use crate::transaction::update_statistics::UpdateStatisticsAction;
use crate::transaction::upgrade_format_version::UpgradeFormatVersionAction;
use crate::{Catalog, Error, ErrorKind, TableCommit, TableRequirement, TableUpdate};

/// Table transaction.
#[derive(Clone)]
pub struct Transaction {
    table: Table,
    actions: Vec<BoxedTransactionAction>,
    /// Refs asserted with [`Transaction::assert_ref_snapshot_id`], in the order asserted, each
    /// with the snapshot it must point to (`None`: it must not exist).
    asserted_refs: Vec<(String, Option<i64>)>,
    rebase: Rebase,
    /// Whether an attempt was made.
    attempted: bool,
}

/// When [`Transaction::commit`] refreshes the table it commits on and rebases the actions onto
/// the refreshed table ([`Transaction::with_rebase`]).
///
/// Whatever runs on a base that was not refreshed (the actions and the validators they carry)
/// judges the caller's table, and the commit is pinned to it only by the requirements the
/// actions emit (a fast append's `assert-ref-snapshot-id` on its branch, which also pins the
/// ancestry its validators judged) and the refs asserted with
/// [`Transaction::assert_ref_snapshot_id`]. A change those leave intact, such as a property set
/// by another writer, is not seen.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Rebase {
    /// Before every attempt, the first included (the behaviour of every release so far).
    #[default]
    EveryAttempt,
    /// Only after the catalog refused an attempt: the first attempt runs on the transaction's
    /// own base, and a retry refreshes and rebases as [`Rebase::EveryAttempt`] does. A caller
    /// that holds the table its last commit returned saves the load; a stale base costs one
    /// refused update.
    AfterConflict,
    /// Never: every attempt runs on the transaction's own base, and a commit the catalog refuses
    /// because a requirement no longer holds ends with [`ErrorKind::CatalogCommitConflicts`],
    /// not retryable, for the caller to reload, re-check and build a new transaction (as
    /// Lance's `with_auto_rebase(false)` leaves to its caller).
    ///
    /// A catalog also answers `CatalogCommitConflicts` when it lost a race for its own
    /// compare-and-swap while the requirements still held (the SQL catalog when its `UPDATE`
    /// matched no row; Glue), a race the same commit, sent again, can win. To tell the two
    /// apart, a refused attempt is followed by one load of the table, on which the requirements
    /// that were sent are checked: if they hold, the refusal stays retryable and the commit is
    /// sent again on the same base; if an asserted ref moved, the commit ends with
    /// [`ErrorKind::CommitConditionFailed`]. A failed load leaves the refusal final.
    Never,
}

impl Transaction {
    /// Creates a new transaction.
    pub fn new(table: &Table) -> Self {
        Self {
            table: table.clone(),
            actions: vec![],
            asserted_refs: vec![],
            rebase: Rebase::default(),
            attempted: false,
        }
    }

    /// Sets when [`Transaction::commit`] refreshes the table and rebases the actions onto it;
    /// [`Rebase::EveryAttempt`] by default.
    ///
    /// With [`Rebase::AfterConflict`] or [`Rebase::Never`], a caller that holds the table its
    /// last commit returned commits with one round trip to the catalog, the update, instead of a
    /// load and an update.
    ///
    /// ```
    /// use iceberg::table::Table;
    /// use iceberg::transaction::{ApplyTransactionAction, Rebase, Transaction};
    ///
    /// /// Appends on `base` as it is, or not at all.
    /// fn append_on(base: &Table) -> iceberg::Result<Transaction> {
    ///     let tx = Transaction::new(base).with_rebase(Rebase::Never);
    ///     let append = tx.fast_append();
    ///     append.apply(tx)
    /// }
    /// ```
    pub fn with_rebase(mut self, rebase: Rebase) -> Self {
        self.rebase = rebase;
        self
    }

    /// Makes the commit conditional on `ref_name` pointing to `snapshot_id`, or, if
    /// `snapshot_id` is `None`, on no ref named `ref_name` existing.
    ///
    /// [`Transaction::commit`] reloads the table before every attempt and rebases the actions
    /// onto it, so the requirements the actions emit describe the reloaded table, never the
    /// table the caller read. An asserted ref is the caller's premise and is kept as given:
    ///
    /// * On every attempt it is checked against the reloaded table before any action runs. If
    ///   it does not hold, the commit ends with [`ErrorKind::CommitConditionFailed`], never
    ///   retried (no reload can move the ref back), and the attempt writes no file.
    /// * It is sent with the commit as an `assert-ref-snapshot-id` requirement, ahead of the
    ///   actions' requirements, so that the catalog checks it atomically with the swap. If the
    ///   ref moves between the reload and the swap, the catalog rejects the commit as a
    ///   retryable conflict and the next attempt ends with `CommitConditionFailed`.
    ///
    /// `None` is an explicit assertion of absence, as in `TableRequirement::RefSnapshotIdMatch`:
    /// with `None`, a misspelled name asserts that a ref of that name does not exist, which
    /// holds. Asserting a ref again with the same snapshot changes nothing.
    ///
    /// Assertions are checked by a commit that has actions only: a transaction without actions
    /// returns from [`Transaction::commit`] without contacting the catalog.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::DataInvalid`] if `ref_name` is already asserted with another snapshot: no
    /// table satisfies both.
    ///
    /// ```
    /// use iceberg::spec::MAIN_BRANCH;
    /// use iceberg::table::Table;
    /// use iceberg::transaction::{ApplyTransactionAction, Transaction};
    ///
    /// /// Appends only if `main` is still where `base` saw it (or still absent).
    /// fn append_unless_moved(base: &Table) -> iceberg::Result<Transaction> {
    ///     let head = base.metadata().current_snapshot_id();
    ///     let tx = Transaction::new(base).assert_ref_snapshot_id(MAIN_BRANCH, head)?;
    ///     let append = tx.fast_append();
    ///     append.apply(tx)
    /// }
    /// ```
    pub fn assert_ref_snapshot_id(
        mut self,
        ref_name: impl Into<String>,
        snapshot_id: Option<i64>,
    ) -> Result<Self> {
        let ref_name = ref_name.into();
        match self
            .asserted_refs
            .iter()
            .find(|(name, _)| *name == ref_name)
        {
            None => self.asserted_refs.push((ref_name, snapshot_id)),
            Some((_, asserted)) if *asserted == snapshot_id => {}
            Some((_, asserted)) => {
                return Err(Error::new(
                    ErrorKind::DataInvalid,
                    format!("Conflicting assertions for ref {ref_name}"),
                )
                .with_context("asserted", snapshot_label(*asserted))
                .with_context("asserting", snapshot_label(snapshot_id)));
            }
        }
        Ok(self)
    }

    fn ref_assertions(&self) -> impl Iterator<Item = TableRequirement> + '_ {
        self.asserted_refs.iter().map(|(ref_name, snapshot_id)| {
            TableRequirement::RefSnapshotIdMatch {
                r#ref: ref_name.clone(),
                snapshot_id: *snapshot_id,
            }
        })
    }

    fn check_ref_assertions(&self, table: &Table) -> Result<()> {
        for (requirement, (ref_name, asserted)) in self.ref_assertions().zip(&self.asserted_refs) {
            if let Err(failed) = requirement.check(Some(table.metadata())) {
                let found = table
                    .metadata()
                    .snapshot_for_ref(ref_name)
                    .map(|snapshot| snapshot.snapshot_id());
                return Err(Error::new(
                    ErrorKind::CommitConditionFailed,
                    format!("Ref {ref_name} does not point where it was asserted to"),
                )
                .with_context("asserted", snapshot_label(*asserted))
                .with_context("found", snapshot_label(found))
                .with_source(failed));
            }
        }
        Ok(())
    }

    fn update_table_metadata(table: Table, updates: &[TableUpdate]) -> Result<Table> {
        let mut metadata_builder = table.metadata().clone().into_builder(None);
        for update in updates {
            metadata_builder = update.clone().apply(metadata_builder)?;
        }

        Ok(table.with_metadata(Arc::new(metadata_builder.build()?.metadata)))
    }

    /// Applies an [`ActionCommit`] to the given [`Table`], returning a new [`Table`] with updated metadata.
    /// Also appends any derived [`TableUpdate`]s and [`TableRequirement`]s to the provided vectors.
    fn apply(
        table: Table,
        mut action_commit: ActionCommit,
        existing_updates: &mut Vec<TableUpdate>,
        existing_requirements: &mut Vec<TableRequirement>,
    ) -> Result<Table> {
        let updates = action_commit.take_updates();
        let requirements = action_commit.take_requirements();

        for requirement in &requirements {
            requirement.check(Some(table.metadata()))?;
        }

        let updated_table = Self::update_table_metadata(table, &updates)?;

        existing_updates.extend(updates);
        existing_requirements.extend(requirements);

        Ok(updated_table)
    }

    /// Sets table to a new version.
    pub fn upgrade_table_version(&self) -> UpgradeFormatVersionAction {
        UpgradeFormatVersionAction::new()
    }

    /// Update table's property.
    pub fn update_table_properties(&self) -> UpdatePropertiesAction {
        UpdatePropertiesAction::new()
    }

    /// Creates an update schema action.
    pub fn update_schema(&self) -> UpdateSchemaAction {
        UpdateSchemaAction::new()
    }

    /// Creates a fast append action.
    pub fn fast_append(&self) -> FastAppendAction {
        FastAppendAction::new()
    }

    /// Creates replace sort order action.
    pub fn replace_sort_order(&self) -> ReplaceSortOrderAction {
        ReplaceSortOrderAction::new()
    }

    /// Set the location of table
    pub fn update_location(&self) -> UpdateLocationAction {
        UpdateLocationAction::new()
    }

    /// Update the statistics of table
    pub fn update_statistics(&self) -> UpdateStatisticsAction {
        UpdateStatisticsAction::new()
    }

    /// Expire snapshots from the table metadata.
    pub fn expire_snapshots(&self) -> ExpireSnapshotsAction {
        ExpireSnapshotsAction::new()
    }

    /// Commits the transaction's actions to `catalog` as one table update.
    ///
    /// Every attempt reloads the table, checks the refs asserted with
    /// [`Transaction::assert_ref_snapshot_id`] against it, rebases the actions onto it and sends
    /// their updates with the asserted refs and the actions' requirements. An attempt the
    /// catalog rejects with a retryable error is retried within the table's `commit.retry.*`
    /// properties. A transaction without actions returns the table it was created from without
    /// contacting the catalog, so its asserted refs are not checked.
    ///
    /// # Errors
    ///
    /// * [`ErrorKind::CommitConditionFailed`] if an asserted ref does not point where it was
    ///   asserted to in the reloaded table, or a validator of an action
    ///   ([`SnapshotAncestryValidator`]) rejects the ancestry it would commit on. It is never
    ///   retryable. When the retries run out on
    ///   a conflict, the table is reloaded once more so that a moved asserted ref is reported
    ///   this way too.
    /// * [`ErrorKind::CatalogCommitConflicts`] if the catalog still rejected the last attempt
    ///   when the retries ran out, and every asserted ref held in that last reload (or it
    ///   failed).
    /// * Any error of an action, such as [`ErrorKind::PreconditionFailed`] when a schema change
    ///   no longer applies to the reloaded table, or of the catalog's load or update.
    pub async fn commit(self, catalog: &dyn Catalog) -> Result<Table> {
        if self.actions.is_empty() {
            // nothing to commit
            return Ok(self.table);
        }

        let table_props = self.table.metadata().table_properties()?;

        // TODO(https://github.com/apache/iceberg-rust/issues/2034): remove once encrypted writes are supported
        if table_props.encryption_key_id.is_some() {
            return Err(Error::new(
                ErrorKind::FeatureUnsupported,
                "Cannot commit to an encrypted table: encrypted writes are not yet supported",
            ));
        }

        let backoff = Self::build_backoff(table_props)?;
        let tx = self;

        let (tx, result) = (|mut tx: Transaction| async {
            let result = tx.do_commit(catalog).await;
            (tx, result)
        })
        .retry(backoff)
        .sleep(tokio::time::sleep)
        .context(tx)
        .when(|e| e.retryable())
        .await;
        match result {
            // A moved asserted ref also surfaces as a conflict at the swap; with no retry left,
            // one reload tells the two apart.
            Err(conflict)
                if conflict.kind() == ErrorKind::CatalogCommitConflicts
                    && !tx.asserted_refs.is_empty() =>
            {
                if let Ok(reloaded) = catalog.load_table(tx.table.identifier()).await {
                    tx.check_ref_assertions(&reloaded)?;
                }
                Err(conflict)
            }
            result => result,
        }
    }

    fn build_backoff(props: TableProperties) -> Result<ExponentialBackoff> {
        Ok(ExponentialBuilder::new()
            .with_min_delay(Duration::from_millis(props.commit_min_retry_wait_ms))
            .with_max_delay(Duration::from_millis(props.commit_max_retry_wait_ms))
            .with_total_delay(Some(Duration::from_millis(
                props.commit_total_retry_timeout_ms,
            )))
            .with_max_times(props.commit_num_retries)
            .with_factor(2.0)
            .build())
    }

    async fn do_commit(&mut self, catalog: &dyn Catalog) -> Result<Table> {
        let first_attempt = !std::mem::replace(&mut self.attempted, true);
        let refresh = match self.rebase {
            Rebase::EveryAttempt => true,
            Rebase::AfterConflict => !first_attempt,
            Rebase::Never => false,
        };
        if refresh {
            let refreshed = catalog.load_table(self.table.identifier()).await?;

            if self.table.metadata() != refreshed.metadata()
                || self.table.metadata_location() != refreshed.metadata_location()
            {
                // current base is stale, use refreshed as base and re-apply transaction actions
                self.table = refreshed.clone();
            }
        }

        self.check_ref_assertions(&self.table)?;

        let mut current_table = self.table.clone();
        let mut existing_updates: Vec<TableUpdate> = vec![];
        let mut existing_requirements: Vec<TableRequirement> = vec![];

        for action in &self.actions {
            let action_commit = Arc::clone(action).commit(&current_table).await?;
            // apply action commit to current_table
            current_table = Self::apply(
                current_table,
                action_commit,
                &mut existing_updates,
                &mut existing_requirements,
            )?;
        }

        let requirements: Vec<TableRequirement> =
            self.ref_assertions().chain(existing_requirements).collect();

        let table_commit = TableCommit::builder()
            .ident(self.table.identifier().to_owned())
            .updates(existing_updates)
            .requirements(requirements.clone())
            .build();

        match catalog.update_table(table_commit).await {
            Err(refused)
                if self.rebase == Rebase::Never
                    && refused.kind() == ErrorKind::CatalogCommitConflicts =>
            {
                Err(self.unless_lost_swap(catalog, &requirements, refused).await)
            }
            result => result,
        }
    }

    /// Under [`Rebase::Never`], keeps a refusal retryable only when the requirements that were
    /// sent still hold on the table as it is now: the catalog lost a race for its own swap, which
    /// the same commit can win.
    async fn unless_lost_swap(
        &self,
        catalog: &dyn Catalog,
        sent: &[TableRequirement],
        refused: Error,
    ) -> Error {
        let Ok(current) = catalog.load_table(self.table.identifier()).await else {
            return refused.with_retryable(false);
        };
        if let Err(moved) = self.check_ref_assertions(&current) {
            return moved;
        }
        let lost_swap = sent
            .iter()
            .all(|requirement| requirement.check(Some(current.metadata())).is_ok());
        if lost_swap {
            refused
        } else {
            refused.with_retryable(false)
        }
    }
}

fn snapshot_label(snapshot_id: Option<i64>) -> String {
    snapshot_id.map_or_else(|| "absent".to_string(), |id| id.to_string())
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;
    use std::fs::File;
    use std::io::BufReader;
    use std::path::Path;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicU32, Ordering};

    use crate::catalog::MockCatalog;
    use crate::encryption::SensitiveBytes;
    use crate::encryption::kms::{KeyManagementClient, MemoryKeyManagementClient};
    use crate::io::{FileIO, LocalFsStorageFactory};
    use crate::memory::tests::new_memory_catalog;
    use crate::memory::{MEMORY_CATALOG_WAREHOUSE, MemoryCatalogBuilder};
    use crate::spec::{
        DataContentType, DataFileBuilder, DataFileFormat, Literal, Struct, TableMetadata,
    };
    use crate::table::Table;
    use crate::test_utils::test_runtime;
    use crate::transaction::{ApplyTransactionAction, Transaction};
    use crate::{Catalog, CatalogBuilder, Error, ErrorKind, TableCreation, TableIdent};

    pub fn make_v1_table() -> Table {
        let file = File::open(format!(
            "{}/testdata/table_metadata/{}",
            env!("CARGO_MANIFEST_DIR"),
            "TableMetadataV1Valid.json"
        ))
        .unwrap();
        let reader = BufReader::new(file);
        let resp = serde_json::from_reader::<_, TableMetadata>(reader).unwrap();

        Table::builder()
            .metadata(resp)
            .metadata_location("s3://bucket/test/location/metadata/v1.json")
            .identifier(TableIdent::from_strs(["ns1", "test1"]).unwrap())
            .file_io(FileIO::new_with_memory())
            .runtime(test_runtime())
            .build()
            .unwrap()
    }

    pub fn make_v2_table() -> Table {
        let file = File::open(format!(
            "{}/testdata/table_metadata/{}",
            env!("CARGO_MANIFEST_DIR"),
            "TableMetadataV2Valid.json"
        ))
        .unwrap();
        let reader = BufReader::new(file);
        let resp = serde_json::from_reader::<_, TableMetadata>(reader).unwrap();

        Table::builder()
            .metadata(resp)
            .metadata_location("s3://bucket/test/location/metadata/v1.json")
            .identifier(TableIdent::from_strs(["ns1", "test1"]).unwrap())
            .file_io(FileIO::new_with_memory())
            .runtime(test_runtime())
            .build()
            .unwrap()
    }

    pub fn make_v2_minimal_table() -> Table {
        let file = File::open(format!(
            "{}/testdata/table_metadata/{}",
            env!("CARGO_MANIFEST_DIR"),
            "TableMetadataV2ValidMinimal.json"
        ))
        .unwrap();
        let reader = BufReader::new(file);
        let resp = serde_json::from_reader::<_, TableMetadata>(reader).unwrap();

        Table::builder()
            .metadata(resp)
            .metadata_location("s3://bucket/test/location/metadata/v1.json")
            .identifier(TableIdent::from_strs(["ns1", "test1"]).unwrap())
            .file_io(FileIO::new_with_memory())
            .runtime(test_runtime())
            .build()
            .unwrap()
    }

    pub(crate) async fn make_v3_minimal_table_in_catalog(catalog: &impl Catalog) -> Table {
        let table_ident =
            TableIdent::from_strs([format!("ns1-{}", uuid::Uuid::new_v4()), "test1".to_string()])
                .unwrap();

        catalog
            .create_namespace(table_ident.namespace(), HashMap::new())
            .await
            .unwrap();

        let file = File::open(format!(
            "{}/testdata/table_metadata/{}",
            env!("CARGO_MANIFEST_DIR"),
            "TableMetadataV3ValidMinimal.json"
        ))
        .unwrap();
        let reader = BufReader::new(file);
        let base_metadata = serde_json::from_reader::<_, TableMetadata>(reader).unwrap();

        let table_creation = TableCreation::builder()
            .schema((**base_metadata.current_schema()).clone())
            .partition_spec((**base_metadata.default_partition_spec()).clone())
            .sort_order((**base_metadata.default_sort_order()).clone())
            .name(table_ident.name().to_string())
            .format_version(crate::spec::FormatVersion::V3)
            .build();

        catalog
            .create_table(table_ident.namespace(), table_creation)
            .await
            .unwrap()
    }

    /// A memory catalog whose files go to `warehouse` on the local filesystem, so that a test
    /// can count the files a commit writes.
    pub(crate) async fn memory_catalog_on_disk(warehouse: &Path) -> impl Catalog {
        MemoryCatalogBuilder::default()
            .with_storage_factory(Arc::new(LocalFsStorageFactory))
            .load(
                "memory",
                HashMap::from([(
                    MEMORY_CATALOG_WAREHOUSE.to_string(),
                    warehouse.to_str().unwrap().to_string(),
                )]),
            )
            .await
            .unwrap()
    }

    pub(crate) fn files_under(dir: &Path) -> usize {
        std::fs::read_dir(dir).map_or(0, |entries| {
            entries
                .map(|entry| entry.unwrap().path())
                .map(|path| if path.is_dir() { files_under(&path) } else { 1 })
                .sum()
        })
    }

    /// Helper function to create a test table with retry properties
    pub(super) fn setup_test_table(num_retries: &str) -> Table {
        let table = make_v2_table();

        // Set retry properties
        let mut props = HashMap::new();
        props.insert("commit.retry.min-wait-ms".to_string(), "10".to_string());
        props.insert("commit.retry.max-wait-ms".to_string(), "100".to_string());
        props.insert(
            "commit.retry.total-timeout-ms".to_string(),
            "1000".to_string(),
        );
        props.insert(
            "commit.retry.num-retries".to_string(),
            num_retries.to_string(),
        );

        // Update table properties
        let metadata = table
            .metadata()
            .clone()
            .into_builder(None)
            .set_properties(props)
            .unwrap()
            .build()
            .unwrap()
            .metadata;

        table.with_metadata(Arc::new(metadata))
    }

    /// Helper function to create a transaction with a simple update action
    fn create_test_transaction(table: &Table) -> Transaction {
        let tx = Transaction::new(table);
        tx.update_table_properties()
            .set("test.key".to_string(), "test.value".to_string())
            .apply(tx)
            .unwrap()
    }

    /// Helper function to set up a mock catalog with retryable errors
    fn setup_mock_catalog_with_retryable_errors(
        success_after_attempts: Option<u32>,
        expected_calls: usize,
    ) -> MockCatalog {
        let mut mock_catalog = MockCatalog::new();

        mock_catalog
            .expect_load_table()
            .returning_st(|_| Box::pin(async move { Ok(make_v2_table()) }));

        let attempts = AtomicU32::new(0);
        mock_catalog
            .expect_update_table()
            .times(expected_calls)
            .returning_st(move |_| {
                if let Some(success_after_attempts) = success_after_attempts {
                    attempts.fetch_add(1, Ordering::SeqCst);
                    if attempts.load(Ordering::SeqCst) <= success_after_attempts {
                        Box::pin(async move {
                            Err(
                                Error::new(ErrorKind::CatalogCommitConflicts, "Commit conflict")
                                    .with_retryable(true),
                            )
                        })
                    } else {
                        Box::pin(async move { Ok(make_v2_table()) })
                    }
                } else {
                    // Always fail with retryable error
                    Box::pin(async move {
                        Err(
                            Error::new(ErrorKind::CatalogCommitConflicts, "Commit conflict")
                                .with_retryable(true),
                        )
                    })
                }
            });

        mock_catalog
    }

    /// Helper function to set up a mock catalog with non-retryable error
    fn setup_mock_catalog_with_non_retryable_error() -> MockCatalog {
        let mut mock_catalog = MockCatalog::new();

        mock_catalog
            .expect_load_table()
            .returning_st(|_| Box::pin(async move { Ok(make_v2_table()) }));

        mock_catalog
            .expect_update_table()
            .times(1) // Should only be called once since error is not retryable
            .returning_st(move |_| {
                Box::pin(async move {
                    Err(Error::new(ErrorKind::Unexpected, "Non-retryable error")
                        .with_retryable(false))
                })
            });

        mock_catalog
    }

    #[tokio::test]
    async fn test_commit_retryable_error() {
        // Create a test table with retry properties
        let table = setup_test_table("3");

        // Create a transaction with a simple update action
        let tx = create_test_transaction(&table);

        // Create a mock catalog that fails twice then succeeds
        let mock_catalog = setup_mock_catalog_with_retryable_errors(Some(2), 3);

        // Commit the transaction
        let result = tx.commit(&mock_catalog).await;

        // Verify the result
        assert!(result.is_ok(), "Transaction should eventually succeed");
    }

    #[tokio::test]
    async fn test_commit_non_retryable_error() {
        // Create a test table with retry properties
        let table = setup_test_table("3");

        // Create a transaction with a simple update action
        let tx = create_test_transaction(&table);

        // Create a mock catalog that fails with non-retryable error
        let mock_catalog = setup_mock_catalog_with_non_retryable_error();

        // Commit the transaction
        let result = tx.commit(&mock_catalog).await;

        // Verify the result
        assert!(result.is_err(), "Transaction should fail immediately");
        if let Err(err) = result {
            assert_eq!(err.kind(), ErrorKind::Unexpected);
            assert_eq!(err.message(), "Non-retryable error");
            assert!(!err.retryable(), "Error should not be retryable");
        }
    }

    #[tokio::test]
    async fn test_commit_max_retries_exceeded() {
        // Create a test table with retry properties (only allow 2 retries)
        let table = setup_test_table("2");

        // Create a transaction with a simple update action
        let tx = create_test_transaction(&table);

        // Create a mock catalog that always fails with retryable error
        let mock_catalog = setup_mock_catalog_with_retryable_errors(None, 3); // Initial attempt + 2 retries = 3 total attempts

        // Commit the transaction
        let result = tx.commit(&mock_catalog).await;

        // Verify the result
        assert!(result.is_err(), "Transaction should fail after max retries");
        if let Err(err) = result {
            assert_eq!(err.kind(), ErrorKind::CatalogCommitConflicts);
            assert_eq!(err.message(), "Commit conflict");
            assert!(err.retryable(), "Error should be retryable");
        }
    }

    #[tokio::test]
    async fn test_transaction_snapshot_summary() {
        let catalog = new_memory_catalog().await;
        let table = make_v3_minimal_table_in_catalog(&catalog).await;

        let mut file_seq = 0u32;
        let mut append_file = |table: &crate::table::Table, record_count: u64, file_size: u64| {
            file_seq += 1;
            let file = DataFileBuilder::default()
                .content(DataContentType::Data)
                .file_path(format!("test/{file_seq}.parquet"))
                .file_format(DataFileFormat::Parquet)
                .file_size_in_bytes(file_size)
                .record_count(record_count)
                .partition(Struct::from_iter([Some(Literal::long(1))]))
                .partition_spec_id(0)
                .build()
                .unwrap();
            let tx = Transaction::new(table);
            tx.fast_append()
                .add_data_files(vec![file])
                .apply(tx)
                .unwrap()
        };

        let table = append_file(&table, /*record_count=*/ 10, /*file_size=*/ 100)
            .commit(&catalog)
            .await
            .unwrap();
        let table = append_file(&table, /*record_count=*/ 20, /*file_size=*/ 200)
            .commit(&catalog)
            .await
            .unwrap();

        let summary = &table
            .metadata()
            .current_snapshot()
            .unwrap()
            .summary()
            .additional_properties;

        assert_eq!(summary.get("total-records").unwrap(), "30");
        assert_eq!(summary.get("total-data-files").unwrap(), "2");
        assert_eq!(summary.get("total-files-size").unwrap(), "300");
    }

    #[tokio::test]
    async fn test_commit_rejects_encrypted_table() {
        let file = File::open(format!(
            "{}/testdata/table_metadata/{}",
            env!("CARGO_MANIFEST_DIR"),
            "TableMetadataV3ValidEncryption.json"
        ))
        .unwrap();
        let reader = BufReader::new(file);
        let resp = serde_json::from_reader::<_, TableMetadata>(reader).unwrap();

        let kms: Arc<dyn KeyManagementClient> = {
            let k = MemoryKeyManagementClient::new();
            k.add_master_key_bytes(
                "master-1",
                SensitiveBytes::new([
                    0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c,
                    0x0d, 0x0e, 0x0f,
                ]),
            )
            .unwrap();
            Arc::new(k)
        };

        let table = Table::builder()
            .metadata(resp)
            .metadata_location("s3://bucket/test/location/metadata/v1.json")
            .identifier(TableIdent::from_strs(["ns1", "test1"]).unwrap())
            .file_io(FileIO::new_with_memory())
            .kms_client(kms)
            .runtime(crate::test_utils::test_runtime())
            .build()
            .unwrap();

        let tx = Transaction::new(&table);
        let tx = tx
            .update_table_properties()
            .set("test.key".to_string(), "test.value".to_string())
            .apply(tx)
            .unwrap();

        let mock_catalog = MockCatalog::new();
        let result = tx.commit(&mock_catalog).await;

        assert!(result.is_err());
        let err = result.unwrap_err();
        assert_eq!(err.kind(), ErrorKind::FeatureUnsupported);
        assert!(
            err.message()
                .contains("encrypted writes are not yet supported"),
            "unexpected error message: {}",
            err.message()
        );
    }
}

#[cfg(test)]
mod test_ref_assertions {
    use std::collections::HashMap;
    use std::sync::atomic::{AtomicU32, Ordering};
    use std::sync::{Arc, Mutex};

    use async_trait::async_trait;

    use crate::catalog::MockCatalog;
    use crate::memory::tests::new_memory_catalog;
    use crate::spec::{MAIN_BRANCH, SnapshotReference, SnapshotRetention};
    use crate::table::Table;
    use crate::transaction::tests::{
        files_under, make_v2_minimal_table, make_v2_table, make_v3_minimal_table_in_catalog,
        memory_catalog_on_disk,
    };
    use crate::transaction::{
        ActionCommit, ApplyTransactionAction, Transaction, TransactionAction,
    };
    use crate::{Catalog, Error, ErrorKind, Result, TableCommit, TableRequirement, TableUpdate};

    /// The parent and the head of `main` in `make_v2_table()`.
    const PARENT: i64 = 3051729675574597004;
    const HEAD: i64 = 3055729675574597004;

    fn ref_at(name: &str, snapshot_id: Option<i64>) -> TableRequirement {
        TableRequirement::RefSnapshotIdMatch {
            r#ref: name.to_string(),
            snapshot_id,
        }
    }

    fn main_at(snapshot_id: Option<i64>) -> TableRequirement {
        ref_at(MAIN_BRANCH, snapshot_id)
    }

    fn properties(value: &str) -> HashMap<String, String> {
        HashMap::from([("k".to_string(), value.to_string())])
    }

    fn branch(snapshot_id: i64) -> SnapshotReference {
        SnapshotReference::new(snapshot_id, SnapshotRetention::branch(None, None, None))
    }

    fn tag(snapshot_id: i64) -> SnapshotReference {
        SnapshotReference::new(snapshot_id, SnapshotRetention::Tag {
            max_ref_age_ms: None,
        })
    }

    /// `make_v2_table()` with `refs` set besides `main`.
    fn v2_table_with(refs: &[(&str, SnapshotReference)]) -> Table {
        let table = make_v2_table();
        let mut builder = table.metadata().clone().into_builder(None);
        for (name, reference) in refs {
            builder = builder.set_ref(name, reference.clone()).unwrap();
        }
        table.with_metadata(Arc::new(builder.build().unwrap().metadata))
    }

    /// Emits the requirements a snapshot producer emits for the table it is handed.
    struct AssertsItsBase;

    #[async_trait]
    impl TransactionAction for AssertsItsBase {
        async fn commit(self: Arc<Self>, table: &Table) -> Result<ActionCommit> {
            Ok(ActionCommit::new(
                vec![TableUpdate::SetProperties {
                    updates: properties("v"),
                }],
                vec![
                    TableRequirement::UuidMatch {
                        uuid: table.metadata().uuid(),
                    },
                    main_at(table.metadata().current_snapshot_id()),
                ],
            ))
        }
    }

    /// A catalog whose loads all return `loaded` and whose updates (`updates` of them) record
    /// the requirements they were sent.
    fn recording_catalog(
        loaded: Table,
        updates: impl Into<mockall::TimesRange>,
        sent: Arc<Mutex<Vec<TableRequirement>>>,
    ) -> MockCatalog {
        let mut catalog = MockCatalog::new();
        let table = loaded.clone();
        catalog
            .expect_load_table()
            .returning_st(move |_| Box::pin(futures::future::ready(Ok(table.clone()))));
        catalog.expect_update_table().times(updates).returning_st(
            move |mut commit: TableCommit| {
                *sent.lock().unwrap() = commit.take_requirements();
                Box::pin(futures::future::ready(Ok(loaded.clone())))
            },
        );
        catalog
    }

    /// Commits `tx` with `AssertsItsBase` to a catalog whose table is `loaded`; returns the
    /// outcome and the requirements sent, if an update was sent.
    async fn commit_on(tx: Transaction, loaded: Table) -> (Result<Table>, Vec<TableRequirement>) {
        let sent = Arc::new(Mutex::new(vec![]));
        let catalog = recording_catalog(loaded, 0..=1, Arc::clone(&sent));
        let result = AssertsItsBase.apply(tx).unwrap().commit(&catalog).await;
        let sent = sent.lock().unwrap().clone();
        (result, sent)
    }

    #[tokio::test]
    async fn test_moved_ref_fails_the_commit_condition_writes_nothing_and_is_not_retried() {
        let warehouse = tempfile::tempdir().unwrap();
        let catalog = memory_catalog_on_disk(warehouse.path()).await;
        let stale = make_v3_minimal_table_in_catalog(&catalog).await;
        let files_at_creation = files_under(warehouse.path());
        let tx = Transaction::new(&stale);
        let append = tx
            .fast_append()
            .set_snapshot_properties(properties("winner"));
        append.apply(tx).unwrap().commit(&catalog).await.unwrap();
        let files_before = files_under(warehouse.path());
        // A commit that goes through writes files the count sees.
        assert!(files_before > files_at_creation);

        let tx = Transaction::new(&stale)
            .assert_ref_snapshot_id(MAIN_BRANCH, None)
            .unwrap();
        let err = tx
            .fast_append()
            .set_snapshot_properties(properties("late"))
            .apply(tx)
            .unwrap()
            .commit(&catalog)
            .await
            .unwrap_err();

        assert_eq!(err.kind(), ErrorKind::CommitConditionFailed);
        assert!(!err.retryable());
        assert_eq!(files_under(warehouse.path()), files_before);
        let reloaded = catalog.load_table(stale.identifier()).await.unwrap();
        assert_eq!(reloaded.metadata().snapshots().count(), 1);
    }

    #[tokio::test]
    async fn test_unrelated_precondition_failure_is_not_a_failed_condition() {
        let catalog = new_memory_catalog().await;
        let table = make_v3_minimal_table_in_catalog(&catalog).await;
        // A fast append with nothing to add fails with `PreconditionFailed` in the action,
        // after the asserted ref was checked and held.
        let empty_append = |tx: Transaction| {
            let append = tx.fast_append();
            append.apply(tx).unwrap()
        };

        let holds = Transaction::new(&table)
            .assert_ref_snapshot_id(MAIN_BRANCH, None)
            .unwrap();
        let err = empty_append(holds).commit(&catalog).await.unwrap_err();
        assert_eq!(err.kind(), ErrorKind::PreconditionFailed);

        let tx = Transaction::new(&table);
        let append = tx.fast_append().set_snapshot_properties(properties("v"));
        append.apply(tx).unwrap().commit(&catalog).await.unwrap();
        let moved = Transaction::new(&table)
            .assert_ref_snapshot_id(MAIN_BRANCH, None)
            .unwrap();
        let err = empty_append(moved).commit(&catalog).await.unwrap_err();
        assert_eq!(err.kind(), ErrorKind::CommitConditionFailed);
    }

    #[tokio::test]
    async fn test_asserted_refs_are_sent_first_and_the_actions_requirements_unchanged() {
        let base = make_v2_table();
        let tx = Transaction::new(&base)
            .assert_ref_snapshot_id(MAIN_BRANCH, Some(HEAD))
            .unwrap();
        let (result, sent) = commit_on(tx, make_v2_table()).await;
        result.unwrap();

        let uuid = TableRequirement::UuidMatch {
            uuid: base.metadata().uuid(),
        };
        // The action's own assertion of `main` agrees with the caller's and is sent too.
        assert_eq!(sent, vec![
            main_at(Some(HEAD)),
            uuid.clone(),
            main_at(Some(HEAD))
        ]);

        let (result, sent) = commit_on(Transaction::new(&base), make_v2_table()).await;
        result.unwrap();
        assert_eq!(sent, vec![uuid, main_at(Some(HEAD))]);
    }

    #[tokio::test]
    async fn test_branch_and_tag_are_asserted_like_main() {
        let base = v2_table_with(&[("audit", branch(PARENT)), ("v1", tag(PARENT))]);
        let asserting = || {
            Transaction::new(&base)
                .assert_ref_snapshot_id("audit", Some(PARENT))
                .unwrap()
                .assert_ref_snapshot_id("v1", Some(PARENT))
                .unwrap()
        };

        let (result, sent) = commit_on(asserting(), base.clone()).await;
        result.unwrap();
        assert_eq!(sent[..2], [
            ref_at("audit", Some(PARENT)),
            ref_at("v1", Some(PARENT))
        ]);

        for moved in [
            v2_table_with(&[("audit", branch(HEAD)), ("v1", tag(PARENT))]),
            v2_table_with(&[("audit", branch(PARENT)), ("v1", tag(HEAD))]),
            v2_table_with(&[("audit", branch(PARENT))]),
        ] {
            let (result, sent) = commit_on(asserting(), moved).await;
            assert_eq!(result.unwrap_err().kind(), ErrorKind::CommitConditionFailed);
            assert!(sent.is_empty());
        }
    }

    #[tokio::test]
    async fn test_absent_ref_is_asserted_on_a_table_with_main() {
        let absent = || {
            Transaction::new(&make_v2_table())
                .assert_ref_snapshot_id("audit", None)
                .unwrap()
        };

        let (result, sent) = commit_on(absent(), make_v2_table()).await;
        result.unwrap();
        assert_eq!(sent[0], ref_at("audit", None));

        let (result, _) = commit_on(absent(), v2_table_with(&[("audit", branch(HEAD))])).await;
        assert_eq!(result.unwrap_err().kind(), ErrorKind::CommitConditionFailed);

        // A misspelled ref asserted at a snapshot fails; asserted absent, it holds (documented).
        let misspelled = Transaction::new(&make_v2_table())
            .assert_ref_snapshot_id("Main", Some(HEAD))
            .unwrap();
        let (result, _) = commit_on(misspelled, make_v2_table()).await;
        assert_eq!(result.unwrap_err().kind(), ErrorKind::CommitConditionFailed);
    }

    #[tokio::test]
    async fn test_same_ref_twice_is_one_assertion_or_a_conflict() {
        let tx = Transaction::new(&make_v2_table())
            .assert_ref_snapshot_id(MAIN_BRANCH, Some(HEAD))
            .unwrap()
            .assert_ref_snapshot_id(MAIN_BRANCH, Some(HEAD))
            .unwrap();
        let (result, sent) = commit_on(tx, make_v2_table()).await;
        result.unwrap();
        assert_eq!(sent, vec![
            main_at(Some(HEAD)),
            TableRequirement::UuidMatch {
                uuid: make_v2_table().metadata().uuid()
            },
            main_at(Some(HEAD))
        ]);

        let err = Transaction::new(&make_v2_table())
            .assert_ref_snapshot_id(MAIN_BRANCH, Some(HEAD))
            .unwrap()
            .assert_ref_snapshot_id(MAIN_BRANCH, Some(PARENT))
            .err()
            .unwrap();
        assert_eq!(err.kind(), ErrorKind::DataInvalid);
    }

    #[tokio::test]
    async fn test_expire_snapshots_on_an_asserted_main() {
        let asserting = || {
            let tx = Transaction::new(&make_v2_table())
                .assert_ref_snapshot_id(MAIN_BRANCH, Some(HEAD))
                .unwrap();
            let expire = tx.expire_snapshots().expire_snapshot_ids([PARENT]);
            expire.apply(tx).unwrap()
        };

        // Expiration asserts `main` at the head it planned on, which agrees with the caller.
        let sent = Arc::new(Mutex::new(vec![]));
        let catalog = recording_catalog(make_v2_table(), 1, Arc::clone(&sent));
        asserting().commit(&catalog).await.unwrap();
        let sent = sent.lock().unwrap().clone();
        assert_eq!(sent[0], main_at(Some(HEAD)));
        assert!(sent[1..].contains(&main_at(Some(HEAD))));

        // `main` moved: nothing is planned or sent.
        let catalog = recording_catalog(make_v2_minimal_table(), 0, Arc::default());
        let err = asserting().commit(&catalog).await.unwrap_err();
        assert_eq!(err.kind(), ErrorKind::CommitConditionFailed);
    }

    #[tokio::test]
    async fn test_ref_moved_between_refresh_and_swap_fails_on_next_refresh() {
        // The first refresh still shows `main` absent; a writer then creates it before the
        // swap, so the catalog rejects the commit and the next refresh shows it.
        let loads = Arc::new(AtomicU32::new(0));
        let mut catalog = MockCatalog::new();
        let counted = Arc::clone(&loads);
        catalog.expect_load_table().returning_st(move |_| {
            let table = match counted.fetch_add(1, Ordering::SeqCst) {
                0 => make_v2_minimal_table(),
                _ => make_v2_table(),
            };
            Box::pin(async move { Ok(table) })
        });
        let sent = Arc::new(Mutex::new(vec![]));
        let captured = Arc::clone(&sent);
        catalog
            .expect_update_table()
            .times(1)
            .returning_st(move |mut commit| {
                *captured.lock().unwrap() = commit.take_requirements();
                Box::pin(async {
                    Err(
                        Error::new(ErrorKind::CatalogCommitConflicts, "Commit conflict")
                            .with_retryable(true),
                    )
                })
            });

        let base = make_v2_minimal_table();
        let tx = Transaction::new(&base)
            .assert_ref_snapshot_id(MAIN_BRANCH, None)
            .unwrap();
        let tx = tx
            .update_table_properties()
            .set("k".to_string(), "v".to_string())
            .apply(tx)
            .unwrap();
        let err = tx.commit(&catalog).await.unwrap_err();

        assert_eq!(sent.lock().unwrap().first(), Some(&main_at(None)));
        assert_eq!(err.kind(), ErrorKind::CommitConditionFailed);
        assert!(!err.retryable());
        assert_eq!(loads.load(Ordering::SeqCst), 2);
    }

    /// `table` with `commit.retry.num-retries` set to 0.
    fn without_retries(table: Table) -> Table {
        let metadata = table
            .metadata()
            .clone()
            .into_builder(None)
            .set_properties(HashMap::from([(
                "commit.retry.num-retries".to_string(),
                "0".to_string(),
            )]))
            .unwrap()
            .build()
            .unwrap()
            .metadata;
        table.with_metadata(Arc::new(metadata))
    }

    #[tokio::test]
    async fn test_conflict_when_the_retries_run_out_is_told_apart_by_one_reload() {
        // `main` is absent at the first load and at the swap it was asserted absent, but the
        // catalog refuses the swap; with no retry left, one more load tells whether it moved.
        for (moved, kind) in [
            (true, ErrorKind::CommitConditionFailed),
            (false, ErrorKind::CatalogCommitConflicts),
        ] {
            let loads = Arc::new(AtomicU32::new(0));
            let mut catalog = MockCatalog::new();
            let counted = Arc::clone(&loads);
            catalog.expect_load_table().returning_st(move |_| {
                let table = match (counted.fetch_add(1, Ordering::SeqCst), moved) {
                    (0, _) | (_, false) => without_retries(make_v2_minimal_table()),
                    _ => make_v2_table(),
                };
                Box::pin(async move { Ok(table) })
            });
            catalog.expect_update_table().times(1).returning_st(|_| {
                Box::pin(async {
                    Err(
                        Error::new(ErrorKind::CatalogCommitConflicts, "Commit conflict")
                            .with_retryable(true),
                    )
                })
            });

            let base = without_retries(make_v2_minimal_table());
            let tx = Transaction::new(&base)
                .assert_ref_snapshot_id(MAIN_BRANCH, None)
                .unwrap();
            let tx = tx
                .update_table_properties()
                .set("k".to_string(), "v".to_string())
                .apply(tx)
                .unwrap();
            let err = tx.commit(&catalog).await.unwrap_err();

            assert_eq!(err.kind(), kind);
            assert_eq!(loads.load(Ordering::SeqCst), 2);
        }
    }

    #[tokio::test]
    async fn test_assertions_without_actions_contact_no_catalog() {
        let mut catalog = MockCatalog::new();
        catalog.expect_load_table().never();
        catalog.expect_update_table().never();

        // Not checked: `main` is absent from the base, whatever the catalog holds.
        let base = make_v2_minimal_table();
        let tx = Transaction::new(&base)
            .assert_ref_snapshot_id(MAIN_BRANCH, Some(HEAD))
            .unwrap();
        let returned = tx.commit(&catalog).await.unwrap();
        assert_eq!(returned.metadata(), base.metadata());
    }
}

#[cfg(test)]
mod test_validators {
    use std::collections::HashMap;
    use std::sync::atomic::{AtomicU32, Ordering};
    use std::sync::{Arc, Mutex};

    use async_trait::async_trait;

    use crate::catalog::MockCatalog;
    use crate::memory::tests::new_memory_catalog;
    use crate::spec::MAIN_BRANCH;
    use crate::table::Table;
    use crate::transaction::tests::{
        files_under, make_v2_minimal_table, make_v3_minimal_table_in_catalog,
        memory_catalog_on_disk, setup_test_table,
    };
    use crate::transaction::{
        Ancestry, ApplyTransactionAction, SnapshotAncestryValidator, Transaction, Verdict,
    };
    use crate::{Catalog, Error, ErrorKind, Result, TableCommit};

    /// Records the snapshot ids of every ancestry it is handed, and answers `verdict` (or
    /// accepts if `None`).
    #[derive(Clone, Default)]
    struct Recorder {
        seen: Arc<Mutex<Vec<Vec<i64>>>>,
        verdict: Option<fn() -> Result<Verdict>>,
    }

    impl Recorder {
        fn answering(verdict: fn() -> Result<Verdict>) -> Self {
            Self {
                verdict: Some(verdict),
                ..Self::default()
            }
        }

        fn calls(&self) -> usize {
            self.seen.lock().unwrap().len()
        }
    }

    #[async_trait]
    impl SnapshotAncestryValidator for Recorder {
        async fn validate(&self, ancestry: Ancestry) -> Result<Verdict> {
            let ids = ancestry.map(|snapshot| snapshot.snapshot_id()).collect();
            self.seen.lock().unwrap().push(ids);
            self.verdict
                .map_or(Ok(Verdict::Accept), |verdict| verdict())
        }
    }

    fn rejects() -> Result<Verdict> {
        Ok(Verdict::Reject("epoch 7 is taken".to_string()))
    }

    /// Fails its first call with `error`, then accepts.
    struct FailsOnce {
        calls: Arc<AtomicU32>,
        error: fn() -> Error,
    }

    #[async_trait]
    impl SnapshotAncestryValidator for FailsOnce {
        async fn validate(&self, _ancestry: Ancestry) -> Result<Verdict> {
            match self.calls.fetch_add(1, Ordering::SeqCst) {
                0 => Err((self.error)()),
                _ => Ok(Verdict::Accept),
            }
        }
    }

    /// A fast append of one snapshot whose summary carries `k = value`, judged by `validator`.
    fn append(
        tx: Transaction,
        value: &str,
        validator: impl SnapshotAncestryValidator + 'static,
    ) -> Transaction {
        let append = tx
            .fast_append()
            .set_snapshot_properties(HashMap::from([("k".to_string(), value.to_string())]))
            .validate_with(validator);
        append.apply(tx).unwrap()
    }

    /// Loads return `loaded()`; `updates` updates succeed.
    fn steady_catalog(loaded: fn() -> Table, updates: usize) -> MockCatalog {
        let mut catalog = MockCatalog::new();
        catalog
            .expect_load_table()
            .returning_st(move |_| Box::pin(futures::future::ready(Ok(loaded()))));
        catalog
            .expect_update_table()
            .times(updates)
            .returning_st(move |_| Box::pin(futures::future::ready(Ok(loaded()))));
        catalog
    }

    /// Forwards to `inner`, but before the first update goes through, another writer appends
    /// to `main`: between the verdict of the first attempt and its swap.
    fn racing(inner: Arc<dyn Catalog>) -> MockCatalog {
        let mut catalog = MockCatalog::new();
        let loading = Arc::clone(&inner);
        catalog.expect_load_table().returning_st(move |ident| {
            let (inner, ident) = (Arc::clone(&loading), ident.clone());
            Box::pin(async move { inner.load_table(&ident).await })
        });
        let updates = Arc::new(AtomicU32::new(0));
        catalog
            .expect_update_table()
            .returning_st(move |commit: TableCommit| {
                let first = updates.fetch_add(1, Ordering::SeqCst) == 0;
                let inner = Arc::clone(&inner);
                Box::pin(async move {
                    if first {
                        let table = inner.load_table(commit.identifier()).await?;
                        let other = append(Transaction::new(&table), "other", Recorder::default());
                        other.commit(inner.as_ref()).await?;
                    }
                    inner.update_table(commit).await
                })
            });
        catalog
    }

    #[tokio::test]
    async fn test_a_branch_moved_after_the_verdict_is_judged_again() {
        let memory = new_memory_catalog().await;
        let table = make_v3_minimal_table_in_catalog(&memory).await;
        let catalog: Arc<dyn Catalog> = Arc::new(memory);
        let first = append(Transaction::new(&table), "first", Recorder::default())
            .commit(catalog.as_ref())
            .await
            .unwrap();
        let s1 = first.metadata().current_snapshot_id().unwrap();

        let validator = Recorder::default();
        let after = append(Transaction::new(&first), "mine", validator.clone())
            .commit(&racing(catalog))
            .await
            .unwrap();

        // The first verdict judged `main` at s1; the other writer's s2 landed before the swap,
        // so the append's own assertion of `main` at s1 made the catalog refuse it, and the
        // retry judged the ancestry with s2 before committing on it.
        let mine = after.metadata().current_snapshot().unwrap();
        let s2 = mine.parent_snapshot_id().unwrap();
        assert_ne!(s2, s1);
        assert_eq!(*validator.seen.lock().unwrap(), vec![vec![s1], vec![
            s2, s1
        ]]);
    }

    #[tokio::test]
    async fn test_rejection_is_final_and_writes_nothing() {
        let warehouse = tempfile::tempdir().unwrap();
        let catalog = memory_catalog_on_disk(warehouse.path()).await;
        let table = make_v3_minimal_table_in_catalog(&catalog).await;
        let files_before = files_under(warehouse.path());

        let rejecting = Recorder::answering(rejects);
        let err = append(Transaction::new(&table), "v", rejecting.clone())
            .commit(&catalog)
            .await
            .unwrap_err();

        assert_eq!(err.kind(), ErrorKind::CommitConditionFailed);
        assert!(!err.retryable());
        assert!(err.message().contains("epoch 7 is taken"));
        assert_eq!(rejecting.calls(), 1);
        assert_eq!(files_under(warehouse.path()), files_before);
        let reloaded = catalog.load_table(table.identifier()).await.unwrap();
        assert_eq!(reloaded.metadata().snapshots().count(), 0);

        // The same append, accepted, writes its manifests and commits.
        append(Transaction::new(&table), "v", Recorder::default())
            .commit(&catalog)
            .await
            .unwrap();
        assert!(files_under(warehouse.path()) > files_before);
        let reloaded = catalog.load_table(table.identifier()).await.unwrap();
        assert_eq!(reloaded.metadata().snapshots().count(), 1);
    }

    #[tokio::test]
    async fn test_validator_errors_keep_their_kind_and_retryability() {
        let transient = FailsOnce {
            calls: Arc::default(),
            error: || Error::new(ErrorKind::Unexpected, "read timed out").with_retryable(true),
        };
        let calls = Arc::clone(&transient.calls);
        append(Transaction::new(&make_v2_minimal_table()), "v", transient)
            .commit(&steady_catalog(make_v2_minimal_table, 1))
            .await
            .unwrap();
        assert_eq!(calls.load(Ordering::SeqCst), 2);

        // A `PreconditionFailed` a validator meets (a manifest list it cannot read, say) is a
        // failure, not a rejection.
        for (error, kind) in [
            (
                (|| Error::new(ErrorKind::DataInvalid, "unreadable manifest")) as fn() -> Error,
                ErrorKind::DataInvalid,
            ),
            (
                || Error::new(ErrorKind::PreconditionFailed, "no manifest list"),
                ErrorKind::PreconditionFailed,
            ),
        ] {
            let broken = FailsOnce {
                calls: Arc::default(),
                error,
            };
            let calls = Arc::clone(&broken.calls);
            let err = append(Transaction::new(&make_v2_minimal_table()), "v", broken)
                .commit(&steady_catalog(make_v2_minimal_table, 0))
                .await
                .unwrap_err();
            assert_eq!(err.kind(), kind);
            assert!(!err.retryable());
            assert_eq!(calls.load(Ordering::SeqCst), 1);
        }
    }

    #[tokio::test]
    async fn test_retryable_validator_error_spends_the_commit_retries() {
        let validator = Recorder::answering(|| {
            Err(Error::new(ErrorKind::Unexpected, "read timed out").with_retryable(true))
        });
        // Two retries: three attempts, each reloading and validating, none updating.
        let base = setup_test_table("2");
        let mut catalog = MockCatalog::new();
        catalog
            .expect_load_table()
            .times(3)
            .returning_st(|_| Box::pin(futures::future::ready(Ok(setup_test_table("2")))));
        catalog.expect_update_table().never();

        let err = append(Transaction::new(&base), "v", validator.clone())
            .commit(&catalog)
            .await
            .unwrap_err();

        assert_eq!(err.kind(), ErrorKind::Unexpected);
        assert_eq!(validator.calls(), 3);
    }

    #[tokio::test]
    async fn test_validators_run_in_order_and_the_first_rejection_wins() {
        let accepts = Recorder::default();
        let rejecting = Recorder::answering(rejects);
        let never_asked =
            Recorder::answering(|| Err(Error::new(ErrorKind::DataInvalid, "never asked")));

        let tx = Transaction::new(&make_v2_minimal_table());
        let action = tx
            .fast_append()
            .validate_with(accepts.clone())
            .validate_with(rejecting.clone())
            .validate_with(never_asked.clone());
        let err = action
            .apply(tx)
            .unwrap()
            .commit(&steady_catalog(make_v2_minimal_table, 0))
            .await
            .unwrap_err();

        assert_eq!(err.kind(), ErrorKind::CommitConditionFailed);
        assert_eq!([accepts.calls(), rejecting.calls(), never_asked.calls()], [
            1, 1, 0
        ]);
    }

    #[tokio::test]
    async fn test_validators_run_after_ref_assertions() {
        let validator = Recorder::default();
        let tx = Transaction::new(&make_v2_minimal_table())
            .assert_ref_snapshot_id(MAIN_BRANCH, Some(1))
            .unwrap();
        let err = append(tx, "v", validator.clone())
            .commit(&steady_catalog(make_v2_minimal_table, 0))
            .await
            .unwrap_err();
        assert_eq!(err.kind(), ErrorKind::CommitConditionFailed);
        assert_eq!(validator.calls(), 0);
    }

    #[tokio::test]
    async fn test_clones_of_a_transaction_carry_the_action_s_validators() {
        let validator = Recorder::default();
        let tx = append(
            Transaction::new(&make_v2_minimal_table()),
            "v",
            validator.clone(),
        );
        let clone = tx.clone();
        tx.commit(&steady_catalog(make_v2_minimal_table, 1))
            .await
            .unwrap();
        clone
            .commit(&steady_catalog(make_v2_minimal_table, 1))
            .await
            .unwrap();
        assert_eq!(*validator.seen.lock().unwrap(), vec![Vec::<i64>::new(); 2]);
    }
}

#[cfg(test)]
mod test_row_lineage {
    use crate::memory::tests::new_memory_catalog;
    use crate::spec::{
        DataContentType, DataFile, DataFileBuilder, DataFileFormat, Literal, Struct,
    };
    use crate::transaction::tests::make_v3_minimal_table_in_catalog;
    use crate::transaction::{ApplyTransactionAction, Transaction};

    #[tokio::test]
    async fn test_fast_append_with_row_lineage() {
        // Helper function to create a data file with specified number of rows
        fn file_with_rows(record_count: u64) -> DataFile {
            DataFileBuilder::default()
                .content(DataContentType::Data)
                .file_path(format!("test/{record_count}.parquet"))
                .file_format(DataFileFormat::Parquet)
                .file_size_in_bytes(100)
                .record_count(record_count)
                .partition(Struct::from_iter([Some(Literal::long(0))]))
                .partition_spec_id(0)
                .build()
                .unwrap()
        }
        let catalog = new_memory_catalog().await;

        let table = make_v3_minimal_table_in_catalog(&catalog).await;

        // Check initial state - next_row_id should be 0
        assert_eq!(table.metadata().next_row_id(), 0);

        // First fast append with 30 rows
        let tx = Transaction::new(&table);
        let data_file_30 = file_with_rows(30);
        let action = tx.fast_append().add_data_files(vec![data_file_30]);
        let tx = action.apply(tx).unwrap();
        let table = tx.commit(&catalog).await.unwrap();

        // Check snapshot and table state after first append
        let snapshot = table.metadata().current_snapshot().unwrap();
        assert_eq!(snapshot.first_row_id(), Some(0));
        assert_eq!(table.metadata().next_row_id(), 30);

        // Check written manifest for first_row_id
        let snapshot = table.metadata().current_snapshot().unwrap();
        let manifest_list = table.manifest_list_reader(snapshot).load().await.unwrap();

        assert_eq!(manifest_list.entries().len(), 1);
        let manifest_file = &manifest_list.entries()[0];
        assert_eq!(manifest_file.first_row_id, Some(0));

        // Second fast append with 17 and 11 rows
        let tx = Transaction::new(&table);
        let data_file_17 = file_with_rows(17);
        let data_file_11 = file_with_rows(11);
        let action = tx
            .fast_append()
            .add_data_files(vec![data_file_17, data_file_11]);
        let tx = action.apply(tx).unwrap();
        let table = tx.commit(&catalog).await.unwrap();

        // Check snapshot and table state after second append
        let snapshot = table.metadata().current_snapshot().unwrap();
        assert_eq!(snapshot.first_row_id(), Some(30));
        assert_eq!(table.metadata().next_row_id(), 30 + 17 + 11);

        // Check written manifest for first_row_id
        let manifest_list = table.manifest_list_reader(snapshot).load().await.unwrap();
        assert_eq!(manifest_list.entries().len(), 2);
        let manifest_file = &manifest_list.entries()[1];
        assert_eq!(manifest_file.first_row_id, Some(30));
    }
}

#[cfg(test)]
mod test_rebase {
    use std::collections::HashMap;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicU32, Ordering};

    use crate::catalog::MockCatalog;
    use crate::io::LocalFsStorageFactory;
    use crate::memory::{MEMORY_CATALOG_WAREHOUSE, MemoryCatalogBuilder};
    use crate::spec::MAIN_BRANCH;
    use crate::table::Table;
    use crate::transaction::tests::make_v3_minimal_table_in_catalog;
    use crate::transaction::{
        Ancestry, ApplyTransactionAction, Rebase, SnapshotAncestryValidator, Transaction, Verdict,
    };
    use crate::{Catalog, CatalogBuilder, Error, ErrorKind, Result, TableCommit};

    /// A catalog that forwards to `inner` and counts its loads and updates.
    fn counting(
        inner: Arc<dyn Catalog>,
        loads: Arc<AtomicU32>,
        updates: Arc<AtomicU32>,
    ) -> MockCatalog {
        let mut catalog = MockCatalog::new();
        let loading = Arc::clone(&inner);
        catalog.expect_load_table().returning_st(move |ident| {
            loads.fetch_add(1, Ordering::SeqCst);
            let (inner, ident) = (Arc::clone(&loading), ident.clone());
            Box::pin(async move { inner.load_table(&ident).await })
        });
        catalog
            .expect_update_table()
            .returning_st(move |commit: TableCommit| {
                updates.fetch_add(1, Ordering::SeqCst);
                let inner = Arc::clone(&inner);
                Box::pin(async move { inner.update_table(commit).await })
            });
        catalog
    }

    fn properties(value: &str) -> HashMap<String, String> {
        HashMap::from([("k".to_string(), value.to_string())])
    }

    /// A fast append of one snapshot on `base` through `catalog`.
    async fn append(tx: Transaction, catalog: &dyn Catalog, value: &str) -> Result<Table> {
        let append = tx.fast_append().set_snapshot_properties(properties(value));
        append.apply(tx).unwrap().commit(catalog).await
    }

    /// A table with one snapshot, its handle before that snapshot, and the catalog.
    async fn moved_on(warehouse: &std::path::Path) -> (Arc<dyn Catalog>, Table, Table) {
        let memory = MemoryCatalogBuilder::default()
            .with_storage_factory(Arc::new(LocalFsStorageFactory))
            .load(
                "memory",
                HashMap::from([(
                    MEMORY_CATALOG_WAREHOUSE.to_string(),
                    warehouse.to_str().unwrap().to_string(),
                )]),
            )
            .await
            .unwrap();
        let stale = make_v3_minimal_table_in_catalog(&memory).await;
        let catalog: Arc<dyn Catalog> = Arc::new(memory);
        let now = append(Transaction::new(&stale), catalog.as_ref(), "winner")
            .await
            .unwrap();
        (catalog, stale, now)
    }

    #[tokio::test]
    async fn test_first_attempt_on_a_current_base_loads_nothing() {
        let warehouse = tempfile::tempdir().unwrap();
        let (catalog, _, now) = moved_on(warehouse.path()).await;
        let (loads, updates) = (Arc::new(AtomicU32::new(0)), Arc::new(AtomicU32::new(0)));
        let counted = counting(catalog, Arc::clone(&loads), Arc::clone(&updates));
        let tx = Transaction::new(&now).with_rebase(Rebase::AfterConflict);
        let after = append(tx, &counted, "next").await.unwrap();
        assert_eq!(after.metadata().snapshots().count(), 2);
        assert_eq!(
            (loads.load(Ordering::SeqCst), updates.load(Ordering::SeqCst)),
            (0, 1)
        );
    }

    #[tokio::test]
    async fn test_first_attempt_on_a_moved_base_is_refused_then_rebased() {
        let warehouse = tempfile::tempdir().unwrap();
        let (catalog, stale, now) = moved_on(warehouse.path()).await;
        let (loads, updates) = (Arc::new(AtomicU32::new(0)), Arc::new(AtomicU32::new(0)));
        let counted = counting(catalog, Arc::clone(&loads), Arc::clone(&updates));
        let tx = Transaction::new(&stale).with_rebase(Rebase::AfterConflict);
        let after = append(tx, &counted, "late").await.unwrap();
        // The first attempt, on the stale base, is refused; the retry refreshes and rebases.
        assert_eq!(
            (loads.load(Ordering::SeqCst), updates.load(Ordering::SeqCst)),
            (1, 2)
        );
        let head = after.metadata().current_snapshot().unwrap();
        assert_eq!(
            head.parent_snapshot_id(),
            now.metadata().current_snapshot_id()
        );
    }

    #[tokio::test]
    async fn test_never_rebased_a_current_base_commits_with_no_load() {
        let warehouse = tempfile::tempdir().unwrap();
        let (catalog, _, now) = moved_on(warehouse.path()).await;
        let (loads, updates) = (Arc::new(AtomicU32::new(0)), Arc::new(AtomicU32::new(0)));
        let counted = counting(catalog, Arc::clone(&loads), Arc::clone(&updates));
        let tx = Transaction::new(&now).with_rebase(Rebase::Never);
        let after = append(tx, &counted, "next").await.unwrap();
        assert_eq!(after.metadata().snapshots().count(), 2);
        assert_eq!(
            (loads.load(Ordering::SeqCst), updates.load(Ordering::SeqCst)),
            (0, 1)
        );
    }

    #[tokio::test]
    async fn test_never_rebased_a_moved_asserted_ref_is_a_failed_condition() {
        let warehouse = tempfile::tempdir().unwrap();
        let (catalog, stale, _) = moved_on(warehouse.path()).await;
        let (loads, updates) = (Arc::new(AtomicU32::new(0)), Arc::new(AtomicU32::new(0)));
        let counted = counting(catalog, Arc::clone(&loads), Arc::clone(&updates));
        let tx = Transaction::new(&stale)
            .with_rebase(Rebase::Never)
            .assert_ref_snapshot_id(MAIN_BRANCH, stale.metadata().current_snapshot_id())
            .unwrap();
        let err = append(tx, &counted, "late").await.unwrap_err();
        assert_eq!(err.kind(), ErrorKind::CommitConditionFailed);
        // The refused swap, then the one reload that tells a moved asserted ref from contention.
        assert_eq!(
            (loads.load(Ordering::SeqCst), updates.load(Ordering::SeqCst)),
            (1, 1)
        );
    }

    #[tokio::test]
    async fn test_never_rebased_a_moved_base_is_a_final_conflict() {
        let warehouse = tempfile::tempdir().unwrap();
        let (catalog, stale, now) = moved_on(warehouse.path()).await;
        let (loads, updates) = (Arc::new(AtomicU32::new(0)), Arc::new(AtomicU32::new(0)));
        let counted = counting(
            Arc::clone(&catalog),
            Arc::clone(&loads),
            Arc::clone(&updates),
        );
        let tx = Transaction::new(&stale).with_rebase(Rebase::Never);
        let err = append(tx, &counted, "late").await.unwrap_err();
        assert_eq!(err.kind(), ErrorKind::CatalogCommitConflicts);
        assert!(!err.retryable(), "a refused base is not retried");
        // The refused swap, then the one load that shows `main` moved.
        assert_eq!(
            (loads.load(Ordering::SeqCst), updates.load(Ordering::SeqCst)),
            (1, 1)
        );
        let table = catalog.load_table(now.identifier()).await.unwrap();
        assert_eq!(table.metadata(), now.metadata(), "nothing was committed");
        assert_eq!(
            table
                .metadata()
                .snapshot_for_ref(MAIN_BRANCH)
                .map(|s| s.snapshot_id()),
            now.metadata().current_snapshot_id()
        );
    }

    /// Like `counting`, but the first update is refused as the SQL catalog refuses an `UPDATE`
    /// that matched no row: another writer swapped first, here by setting a property, which
    /// leaves the requirements of the refused commit intact.
    fn losing_first_swap(
        inner: Arc<dyn Catalog>,
        loads: Arc<AtomicU32>,
        updates: Arc<AtomicU32>,
    ) -> MockCatalog {
        let mut catalog = MockCatalog::new();
        let loading = Arc::clone(&inner);
        catalog.expect_load_table().returning_st(move |ident| {
            loads.fetch_add(1, Ordering::SeqCst);
            let (inner, ident) = (Arc::clone(&loading), ident.clone());
            Box::pin(async move { inner.load_table(&ident).await })
        });
        catalog
            .expect_update_table()
            .returning_st(move |commit: TableCommit| {
                let first = updates.fetch_add(1, Ordering::SeqCst) == 0;
                let inner = Arc::clone(&inner);
                Box::pin(async move {
                    if !first {
                        return inner.update_table(commit).await;
                    }
                    let table = inner.load_table(commit.identifier()).await?;
                    let tx = Transaction::new(&table);
                    let other = tx
                        .update_table_properties()
                        .set("other".to_string(), "writer".to_string());
                    other.apply(tx)?.commit(inner.as_ref()).await?;
                    Err(Error::new(
                        ErrorKind::CatalogCommitConflicts,
                        "Commit conflicted for table",
                    )
                    .with_retryable(true))
                })
            });
        catalog
    }

    #[tokio::test]
    async fn test_never_rebased_a_lost_swap_is_sent_again() {
        let warehouse = tempfile::tempdir().unwrap();
        let (catalog, _, now) = moved_on(warehouse.path()).await;
        let (loads, updates) = (Arc::new(AtomicU32::new(0)), Arc::new(AtomicU32::new(0)));
        let racing = losing_first_swap(catalog, Arc::clone(&loads), Arc::clone(&updates));
        let tx = Transaction::new(&now).with_rebase(Rebase::Never);
        let after = append(tx, &racing, "next").await.unwrap();
        // The lost swap, the load that shows the requirements still hold, the same commit again.
        assert_eq!(
            (loads.load(Ordering::SeqCst), updates.load(Ordering::SeqCst)),
            (1, 2)
        );
        assert_eq!(after.metadata().snapshots().count(), 2);
        assert!(after.metadata().properties().contains_key("other"));
    }

    /// Rejects an ancestry holding a snapshot whose summary has `k = winner`.
    struct NoWinner;

    #[async_trait::async_trait]
    impl SnapshotAncestryValidator for NoWinner {
        async fn validate(&self, mut ancestry: Ancestry) -> Result<Verdict> {
            let key = "k".to_string();
            if ancestry.any(|s| {
                s.summary()
                    .additional_properties
                    .get(&key)
                    .is_some_and(|v| v == "winner")
            }) {
                return Ok(Verdict::Reject("the winner is in".to_string()));
            }
            Ok(Verdict::Accept)
        }
    }

    /// On the first attempt on a stale base, a validator judges the base and may accept what
    /// the refreshed table would refuse; the append's own requirement pins `main` at the base,
    /// so the catalog refuses that attempt, and the retry judges the refreshed ancestry.
    #[tokio::test]
    async fn test_first_attempt_on_base_is_judged_again_once_refused() {
        let warehouse = tempfile::tempdir().unwrap();
        let (catalog, stale, _) = moved_on(warehouse.path()).await;
        let (loads, updates) = (Arc::new(AtomicU32::new(0)), Arc::new(AtomicU32::new(0)));
        let counted = counting(catalog, Arc::clone(&loads), Arc::clone(&updates));
        let tx = Transaction::new(&stale).with_rebase(Rebase::AfterConflict);
        let append = tx
            .fast_append()
            .set_snapshot_properties(properties("late"))
            .validate_with(NoWinner);
        let err = append
            .apply(tx)
            .unwrap()
            .commit(&counted)
            .await
            .unwrap_err();
        assert_eq!(err.kind(), ErrorKind::CommitConditionFailed);
        assert_eq!(
            (loads.load(Ordering::SeqCst), updates.load(Ordering::SeqCst)),
            (1, 1)
        );
    }
}
