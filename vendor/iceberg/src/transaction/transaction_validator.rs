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

use std::sync::Arc;

use async_trait::async_trait;

use crate::table::Table;
use crate::{ErrorKind, Result};

/// A boxed, thread-safe reference to a `TransactionValidator`.
pub(crate) type BoxedTransactionValidator = Arc<dyn TransactionValidator>;

/// A caller's check of the table a transaction is about to commit on, attached with
/// [`Transaction::validate_with`](crate::transaction::Transaction::validate_with). The
/// counterpart of Java's `SnapshotUpdate::validateWith`.
///
/// [`Transaction::commit`](crate::transaction::Transaction::commit) reloads the table on
/// every attempt, the first included, and rebases the transaction onto it. Validators are
/// called with that refreshed table, in the order they were added, after the refs asserted
/// with [`Transaction::assert_ref_snapshot_id`] are checked and before any action runs: a
/// validator never sees a stale base.
///
/// * `Ok(())` lets the attempt go on.
/// * An error of kind [`ErrorKind::PreconditionFailed`] rejects the table: the commit ends
///   with that error, never retried (a rejection judges the freshest table there is, so the
///   transaction clears its retryable flag), and no later validator is called.
/// * Any other error ends the attempt as the validator built it, with its kind and its
///   retryability: a retryable one (a transient read failure, for example) makes the
///   transaction reload the table and call the validators again, within the table's
///   `commit.retry.*` limits.
///
/// A rejected attempt writes no manifest. Earlier attempts of the same commit that lost the
/// race at the catalog have written theirs (manifests, a manifest list), and nothing deletes
/// those files yet.
///
/// What a verdict guarantees at the swap is bounded by the commit's requirements: the
/// catalog rejects the commit if the table moved in a way they assert (a fast append asserts
/// the head of `main`), and the next attempt validates the newer table. A validator that
/// reads state which can change without moving an asserted ref (a table property, another
/// branch) needs that ref asserted too.
///
/// Any `Fn(&Table) -> Result<()> + Send + Sync` is a validator, so a synchronous check needs
/// no `async_trait`; implement the trait for a check that reads files through
/// [`Table::file_io`].
///
/// [`Transaction::assert_ref_snapshot_id`]: crate::transaction::Transaction::assert_ref_snapshot_id
#[async_trait]
pub trait TransactionValidator: Send + Sync {
    /// Accepts or rejects the refreshed `table`.
    async fn validate(&self, table: &Table) -> Result<()>;
}

#[async_trait]
impl<F> TransactionValidator for F
where F: Fn(&Table) -> Result<()> + Send + Sync
{
    async fn validate(&self, table: &Table) -> Result<()> {
        self(table)
    }
}

/// Runs `validators` in order against `table`; the first error ends the attempt.
pub(crate) async fn validate_all(
    validators: &[BoxedTransactionValidator],
    table: &Table,
) -> Result<()> {
    for validator in validators {
        validator.validate(table).await.map_err(|err| {
            // The rejection judged the freshest table: a refresh cannot change the verdict.
            if err.kind() == ErrorKind::PreconditionFailed {
                err.with_retryable(false)
            } else {
                err
            }
        })?;
    }
    Ok(())
}
