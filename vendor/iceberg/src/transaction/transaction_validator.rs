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
use crate::{Error, ErrorKind, Result};

/// A boxed, thread-safe reference to a `TransactionValidator`.
pub(crate) type BoxedTransactionValidator = Arc<dyn TransactionValidator>;

/// What a [`TransactionValidator`] concludes about the table a commit is about to be built on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// The attempt goes on.
    Accept,
    /// The commit must not happen: it ends with [`ErrorKind::CommitConditionFailed`], carrying
    /// this reason, and is not retried.
    Reject(String),
}

/// A caller's check of the table a transaction is about to commit on, attached with
/// [`Transaction::validate_with`](crate::transaction::Transaction::validate_with). The
/// counterpart of Java's `SnapshotUpdate::validateWith`.
///
/// [`Transaction::commit`](crate::transaction::Transaction::commit) reloads the table before
/// every attempt and rebases the transaction onto it. On each attempt, in this order:
///
/// 1. the refs asserted with [`Transaction::assert_ref_snapshot_id`] are checked;
/// 2. the validators are called with the reloaded table, in the order they were added, until
///    one does not accept;
/// 3. the actions run and the commit is sent.
///
/// The answer of [`TransactionValidator::validate`] is one of three:
///
/// * `Ok(Verdict::Accept)` lets the attempt go on.
/// * `Ok(Verdict::Reject(reason))` ends the commit with [`ErrorKind::CommitConditionFailed`],
///   never retried: the verdict judged the table as the catalog holds it. That attempt writes no
///   file.
/// * `Err(error)` is a failure to judge, not a rejection, and ends the attempt with that error
///   as built, kind and retryability included: a retryable one (a transient read failure) makes
///   the transaction reload and call the validators again, within the table's `commit.retry.*`
///   limits. An error of any kind, `PreconditionFailed` included, is never turned into a
///   rejection.
///
/// # What a verdict guarantees at the swap
///
/// Only what the commit's requirements assert. A fast append asserts the head of `main` it was
/// built on, which is the table the validators judged, so a verdict on `main`'s ancestry holds
/// at the swap: if `main` moves first, the catalog rejects the commit and the next attempt
/// judges the newer table. No requirement asserts a table property: a verdict on a property
/// (a watermark, say) is **not** atomic with the commit, and a concurrent commit that changes
/// only properties is never seen by it.
///
/// Earlier attempts of the same commit that lost the race at the catalog have written their
/// manifests and manifest list, which nothing deletes yet.
///
/// [`Transaction::assert_ref_snapshot_id`]: crate::transaction::Transaction::assert_ref_snapshot_id
#[async_trait]
pub trait TransactionValidator: Send + Sync {
    /// Judges the reloaded `table`.
    async fn validate(&self, table: &Table) -> Result<Verdict>;
}

/// Calls `validators` in order on `table`; the first rejection or error ends the attempt.
pub(crate) async fn validate_all(
    validators: &[BoxedTransactionValidator],
    table: &Table,
) -> Result<()> {
    for validator in validators {
        if let Verdict::Reject(reason) = validator.validate(table).await? {
            return Err(Error::new(
                ErrorKind::CommitConditionFailed,
                format!("A validator rejected the commit: {reason}"),
            ));
        }
    }
    Ok(())
}
