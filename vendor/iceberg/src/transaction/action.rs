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

use std::mem::take;
use std::sync::Arc;

use as_any::AsAny;
use async_trait::async_trait;

use crate::table::Table;
use crate::transaction::Transaction;
use crate::{Result, TableRequirement, TableUpdate};

/// A boxed, thread-safe reference to a `TransactionAction`.
pub(crate) type BoxedTransactionAction = Arc<dyn TransactionAction>;

/// A trait representing an atomic action that can be part of a transaction.
///
/// Implementors of this trait define how a specific action is committed to a table.
/// Each action is responsible for generating the updates and requirements needed
/// to modify the table metadata.
///
/// The built-in actions (for example the [`FastAppendAction`] returned by
/// [`Transaction::fast_append`]) implement this trait, and so may actions defined
/// outside this crate. An action can wrap a built-in one and delegate to it, which is
/// how a caller validates the table a commit is really based on (the Rust counterpart
/// of Java's `SnapshotProducer::validate`):
///
/// ```
/// use std::sync::Arc;
///
/// use async_trait::async_trait;
/// use iceberg::table::Table;
/// use iceberg::transaction::{ActionCommit, TransactionAction};
/// use iceberg::{Error, ErrorKind, Result};
///
/// /// Refuses to commit once `marker` is in the current snapshot's summary.
/// struct UnlessMarked<A> {
///     marker: String,
///     inner: Arc<A>,
/// }
///
/// #[async_trait]
/// impl<A: TransactionAction + 'static> TransactionAction for UnlessMarked<A> {
///     async fn commit(self: Arc<Self>, table: &Table) -> Result<ActionCommit> {
///         let marked = table
///             .metadata()
///             .current_snapshot()
///             .is_some_and(|s| s.summary().additional_properties.contains_key(&self.marker));
///         if marked {
///             // Not retryable: a refreshed table will not unmark itself.
///             return Err(Error::new(ErrorKind::DataInvalid, "already marked"));
///         }
///         Arc::clone(&self.inner).commit(table).await
///     }
/// }
/// ```
///
/// # Contract
///
/// * [`Transaction::commit`] calls [`TransactionAction::commit`] once per commit
///   attempt, including the first one, after it has reloaded the table from the
///   catalog. `table` is that refreshed table (with the updates of the actions applied
///   before this one in the same transaction), never the possibly stale table the
///   transaction was created from. An action must therefore derive everything it checks
///   or writes from `table`, and must expect to be called several times.
/// * Returning `Err` aborts the attempt before anything is sent to the catalog. If
///   [`Error::retryable`] is `true`, the transaction backs off, reloads the table and
///   calls every action again, within the table's `commit.retry.*` limits; otherwise
///   [`Transaction::commit`] returns the error at once. Return a non-retryable error
///   for a check that a fresher table cannot change.
/// * Files an action wrote during an attempt that did not commit (manifests, manifest
///   lists) are not deleted by the transaction.
///
/// [`FastAppendAction`]: crate::transaction::Transaction::fast_append
/// [`Error::retryable`]: crate::Error::retryable
#[async_trait]
pub trait TransactionAction: AsAny + Sync + Send {
    /// Commits this action against the provided table and returns the resulting updates.
    ///
    /// Called by [`Transaction::commit`] on every attempt; see the trait documentation
    /// for the contract. Calling it directly only computes (and may write the files of)
    /// an [`ActionCommit`]; it changes no table.
    ///
    /// # Arguments
    ///
    /// * `table` - The current state of the table this action should apply to.
    ///
    /// # Returns
    ///
    /// An `ActionCommit` containing table updates and table requirements,
    /// or an error if the commit fails.
    async fn commit(self: Arc<Self>, table: &Table) -> Result<ActionCommit>;
}

/// A helper trait for applying a `TransactionAction` to a `Transaction`.
///
/// This is implemented for all `TransactionAction` types
/// to allow easy chaining of actions into a transaction context.
pub trait ApplyTransactionAction {
    /// Adds this action to the given transaction.
    ///
    /// # Arguments
    ///
    /// * `tx` - The transaction to apply the action to.
    ///
    /// # Returns
    ///
    /// The modified transaction containing this action, or an error if the operation fails.
    fn apply(self, tx: Transaction) -> Result<Transaction>;
}

impl<T: TransactionAction + 'static> ApplyTransactionAction for T {
    fn apply(self, mut tx: Transaction) -> Result<Transaction>
    where Self: Sized {
        tx.actions.push(Arc::new(self));
        Ok(tx)
    }
}

/// The result of committing a `TransactionAction`.
///
/// This struct contains the updates to apply to the table's metadata
/// and any preconditions that must be satisfied before the update can be committed.
pub struct ActionCommit {
    updates: Vec<TableUpdate>,
    requirements: Vec<TableRequirement>,
}

impl ActionCommit {
    /// Creates a new `ActionCommit` from the given updates and requirements.
    pub fn new(updates: Vec<TableUpdate>, requirements: Vec<TableRequirement>) -> Self {
        Self {
            updates,
            requirements,
        }
    }

    /// Consumes and returns the list of table updates.
    pub fn take_updates(&mut self) -> Vec<TableUpdate> {
        take(&mut self.updates)
    }

    /// Consumes and returns the list of table requirements.
    pub fn take_requirements(&mut self) -> Vec<TableRequirement> {
        take(&mut self.requirements)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;
    use std::str::FromStr;
    use std::sync::{Arc, Mutex};

    use as_any::Downcast;
    use async_trait::async_trait;
    use uuid::Uuid;

    use crate::memory::tests::new_memory_catalog;
    use crate::table::Table;
    use crate::transaction::Transaction;
    use crate::transaction::action::{ActionCommit, ApplyTransactionAction, TransactionAction};
    use crate::transaction::tests::{make_v2_table, make_v3_minimal_table_in_catalog};
    use crate::{Catalog, Error, ErrorKind, Result, TableRequirement, TableUpdate};

    struct TestAction;

    #[async_trait]
    impl TransactionAction for TestAction {
        async fn commit(self: Arc<Self>, _table: &Table) -> Result<ActionCommit> {
            Ok(ActionCommit::new(
                vec![TableUpdate::SetLocation {
                    location: String::from("s3://bucket/prefix/table/"),
                }],
                vec![TableRequirement::UuidMatch {
                    uuid: Uuid::from_str("9c12d441-03fe-4693-9a96-a0705ddf69c1")?,
                }],
            ))
        }
    }

    #[tokio::test]
    async fn test_commit_transaction_action() {
        let table = make_v2_table();
        let action = TestAction;

        let mut action_commit = Arc::new(action).commit(&table).await.unwrap();

        let updates = action_commit.take_updates();
        let requirements = action_commit.take_requirements();

        assert_eq!(updates[0], TableUpdate::SetLocation {
            location: String::from("s3://bucket/prefix/table/")
        });
        assert_eq!(requirements[0], TableRequirement::UuidMatch {
            uuid: Uuid::from_str("9c12d441-03fe-4693-9a96-a0705ddf69c1").unwrap()
        });
    }

    #[test]
    fn test_apply_transaction_action() {
        let table = make_v2_table();
        let action = TestAction;
        let tx = Transaction::new(&table);

        let updated_tx = action.apply(tx).unwrap();
        // There should be one action in the transaction now
        assert_eq!(updated_tx.actions.len(), 1);

        (*updated_tx.actions[0])
            .downcast_ref::<TestAction>()
            .expect("TestAction was not applied to Transaction!");
    }

    #[test]
    fn test_action_commit() {
        // Create dummy updates and requirements
        let location = String::from("s3://bucket/prefix/table/");
        let uuid = Uuid::new_v4();
        let updates = vec![TableUpdate::SetLocation { location }];
        let requirements = vec![TableRequirement::UuidMatch { uuid }];

        let mut action_commit = ActionCommit::new(updates.clone(), requirements.clone());

        let taken_updates = action_commit.take_updates();
        let taken_requirements = action_commit.take_requirements();

        // Check values are returned correctly
        assert_eq!(taken_updates, updates);
        assert_eq!(taken_requirements, requirements);

        assert!(action_commit.take_updates().is_empty());
        assert!(action_commit.take_requirements().is_empty());
    }

    /// Stands for an action defined outside the crate: it records the base it is handed,
    /// fails the first `failures` attempts with `failure`, then delegates to `inner`.
    struct Wrapping<A> {
        inner: Arc<A>,
        seen: Arc<Mutex<Vec<Option<i64>>>>,
        failures: usize,
        failure: fn() -> Error,
    }

    impl<A> Wrapping<A> {
        fn new(inner: A, failures: usize, failure: fn() -> Error) -> Self {
            Self {
                inner: Arc::new(inner),
                seen: Arc::default(),
                failures,
                failure,
            }
        }
    }

    #[async_trait]
    impl<A: TransactionAction + 'static> TransactionAction for Wrapping<A> {
        async fn commit(self: Arc<Self>, table: &Table) -> Result<ActionCommit> {
            let attempt = {
                let mut seen = self.seen.lock().unwrap();
                seen.push(table.metadata().current_snapshot_id());
                seen.len()
            };
            if attempt <= self.failures {
                return Err((self.failure)());
            }
            Arc::clone(&self.inner).commit(table).await
        }
    }

    fn marker(value: &str) -> HashMap<String, String> {
        HashMap::from([("test.marker".to_string(), value.to_string())])
    }

    async fn append_marker(table: &Table, catalog: &impl Catalog, value: &str) -> Table {
        let tx = Transaction::new(table);
        let action = tx.fast_append().set_snapshot_properties(marker(value));
        action.apply(tx).unwrap().commit(catalog).await.unwrap()
    }

    #[tokio::test]
    async fn test_wrapping_action_commits_against_refreshed_base() {
        let catalog = new_memory_catalog().await;
        let stale = make_v3_minimal_table_in_catalog(&catalog).await;
        let winner = append_marker(&stale, &catalog, "winner").await;
        let head = winner.metadata().current_snapshot_id();
        assert!(head.is_some());

        let tx = Transaction::new(&stale);
        let action = Wrapping::new(
            tx.fast_append().set_snapshot_properties(marker("late")),
            0,
            || unreachable!(),
        );
        let seen = Arc::clone(&action.seen);
        let table = action.apply(tx).unwrap().commit(&catalog).await.unwrap();

        assert_eq!(*seen.lock().unwrap(), vec![head]);
        let current = table.metadata().current_snapshot().unwrap();
        assert_eq!(current.parent_snapshot_id(), head);
        assert_eq!(
            current.summary().additional_properties.get("test.marker"),
            Some(&"late".to_string())
        );
    }

    #[tokio::test]
    async fn test_non_retryable_error_from_action_ends_commit() {
        let catalog = new_memory_catalog().await;
        let table = make_v3_minimal_table_in_catalog(&catalog).await;

        let tx = Transaction::new(&table);
        let action = Wrapping::new(
            tx.fast_append().set_snapshot_properties(marker("x")),
            usize::MAX,
            || Error::new(ErrorKind::DataInvalid, "rejected by action"),
        );
        let seen = Arc::clone(&action.seen);
        let err = action
            .apply(tx)
            .unwrap()
            .commit(&catalog)
            .await
            .unwrap_err();

        assert_eq!(err.kind(), ErrorKind::DataInvalid);
        assert_eq!(seen.lock().unwrap().len(), 1);
        let reloaded = catalog.load_table(table.identifier()).await.unwrap();
        assert_eq!(reloaded.metadata().current_snapshot_id(), None);
    }

    #[tokio::test]
    async fn test_retryable_error_from_action_is_retried() {
        let catalog = new_memory_catalog().await;
        let table = make_v3_minimal_table_in_catalog(&catalog).await;

        let tx = Transaction::new(&table);
        let action = Wrapping::new(
            tx.fast_append().set_snapshot_properties(marker("x")),
            2,
            || Error::new(ErrorKind::CatalogCommitConflicts, "try again").with_retryable(true),
        );
        let seen = Arc::clone(&action.seen);
        let committed = action.apply(tx).unwrap().commit(&catalog).await.unwrap();

        assert_eq!(seen.lock().unwrap().len(), 3);
        assert!(committed.metadata().current_snapshot_id().is_some());
    }
}
