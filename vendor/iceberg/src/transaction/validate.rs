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

/// A caller's check of the table a transaction is about to commit on, attached with
/// [`Transaction::validate_with`](crate::transaction::Transaction::validate_with).
///
/// [`Transaction::commit`](crate::transaction::Transaction::commit) reloads the table on
/// every attempt, the first included, and rebases the transaction onto it. The validator
/// is called with that refreshed table, after the caller's requirements are checked and
/// before any action runs, so it never sees a stale base and a rejected attempt writes no
/// manifest. This is the counterpart of Java's `SnapshotUpdate::validateWith`.
///
/// `Ok(())` lets the attempt go on. An `Err` rejects the commit: it ends with an error of
/// kind [`ErrorKind::ValidationFailed`], never retried, whose source is the returned
/// error. A validator that cannot decide (for example because a read failed) should
/// return an error too: a commit must not go on unvalidated, and the caller can start a
/// new one.
///
/// The validator sees the whole [`Table`], not only the ancestry of `main`: the state an
/// idempotent writer keys on may be a snapshot summary along the ancestry of any branch,
/// a table property that outlives snapshot expiry, or manifests read through
/// [`Table::file_io`].
///
/// What the verdict guarantees at the swap is bounded by the commit's requirements: the
/// catalog rejects the commit if the table moved in a way they assert (a snapshot
/// producer such as a fast append pins the head of its branch), and the next attempt
/// validates the newer table. A validator that reads state which can change without
/// moving a pinned ref needs a requirement of its own (see
/// [`Transaction::with_requirement`](crate::transaction::Transaction::with_requirement)).
#[async_trait]
pub trait TransactionValidator: Sync + Send {
    /// Accepts or rejects the refreshed `table`.
    async fn validate(&self, table: &Table) -> Result<()>;
}

/// Runs `validators` in order against `table`; the first rejection ends the commit.
pub(crate) async fn validate_all(
    validators: &[BoxedTransactionValidator],
    table: &Table,
) -> Result<()> {
    for validator in validators {
        validator.validate(table).await.map_err(|rejection| {
            Error::new(
                ErrorKind::ValidationFailed,
                "transaction validator rejected the refreshed table",
            )
            .with_retryable(false)
            .with_source(rejection)
        })?;
    }
    Ok(())
}
