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

use crate::spec::SnapshotRef;
use crate::table::Table;
use crate::{Error, ErrorKind, Result};

/// A boxed, thread-safe reference to a `SnapshotAncestryValidator`.
pub(crate) type BoxedSnapshotAncestryValidator = Arc<dyn SnapshotAncestryValidator>;

/// What a [`SnapshotAncestryValidator`] concludes about the ancestry a new snapshot is about to
/// be added to.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Verdict {
    /// The attempt goes on.
    Accept,
    /// The commit must not happen: it ends with [`ErrorKind::CommitConditionFailed`], carrying
    /// this reason, and is not retried.
    Reject(String),
}

/// The snapshots of the branch a new snapshot is produced on, newest first: its parent (the
/// branch's head on the table the attempt is built on), then each parent in turn, as far back as
/// the table still holds them (snapshot expiry cuts it). Empty when the branch has no snapshot.
pub struct Ancestry(Box<dyn Iterator<Item = SnapshotRef> + Send>);

impl Ancestry {
    /// The ancestry of `main` in `table`, the branch a fast append commits to.
    pub(crate) fn of_main(table: &Table) -> Self {
        let metadata = table.metadata_ref();
        let mut next = metadata.current_snapshot_id();
        Self(Box::new(std::iter::from_fn(move || {
            let snapshot = metadata.snapshot_by_id(next?)?.clone();
            next = snapshot.parent_snapshot_id();
            Some(snapshot)
        })))
    }
}

impl Iterator for Ancestry {
    type Item = SnapshotRef;

    fn next(&mut self) -> Option<SnapshotRef> {
        self.0.next()
    }
}

/// A caller's check of the ancestry a snapshot-producing action commits on, attached to the
/// action (`FastAppendAction::validate_with`). The counterpart of Java's
/// `SnapshotAncestryValidator` (`SnapshotUpdate::validateWith`, apache/iceberg#14509), which
/// `SnapshotProducer` calls with the refreshed parent's ancestors.
///
/// [`Transaction::commit`](crate::transaction::Transaction::commit) refreshes the table before
/// every attempt and runs the actions on it. The action calls its validators, in the order they
/// were added, with the [`Ancestry`] of the branch it is about to add a snapshot to, before it
/// writes any file; the first answer that is not an acceptance ends the attempt:
///
/// * `Ok(Verdict::Accept)` lets the attempt go on.
/// * `Ok(Verdict::Reject(reason))` ends the commit with [`ErrorKind::CommitConditionFailed`],
///   never retried. The attempt writes no file.
/// * `Err(error)` is a failure to judge, not a rejection, and ends the attempt with that error
///   as built, kind and retryability included. A retryable one (a transient read failure) is
///   retried like any retryable error of an action, within the same `commit.retry.*` budget as
///   a catalog conflict: the loop has one budget, and the attempt is built again on a refreshed
///   table. An error of any kind, `PreconditionFailed` included, is never turned into a
///   rejection.
///
/// # What a verdict guarantees at the swap
///
/// The action asserts the branch's head as the parent it judged (`assert-ref-snapshot-id`), so
/// the verdict holds at the swap: if the branch moves first, the catalog refuses the commit and
/// the next attempt judges the newer ancestry. Nothing but the ancestry is handed to a
/// validator, so nothing it judges can change without the branch moving.
///
/// A validator is part of the action's definition: a clone of the transaction carries the same
/// validator, and the library keeps no state of a validator's between attempts or clones. A
/// validator should keep none either, since it may be called on any attempt of any clone.
///
/// Earlier attempts of the same commit that lost the race at the catalog have written their
/// manifests and manifest list, which nothing deletes yet.
#[async_trait]
pub trait SnapshotAncestryValidator: Send + Sync {
    /// Judges the `ancestry` the new snapshot would be added to.
    async fn validate(&self, ancestry: Ancestry) -> Result<Verdict>;
}

/// Calls `validators` in order on the ancestry of `main` in `table`; the first rejection or
/// error ends the attempt.
pub(crate) async fn validate_ancestry(
    validators: &[BoxedSnapshotAncestryValidator],
    table: &Table,
) -> Result<()> {
    for validator in validators {
        if let Verdict::Reject(reason) = validator.validate(Ancestry::of_main(table)).await? {
            return Err(Error::new(
                ErrorKind::CommitConditionFailed,
                format!("Snapshot ancestry validation failed: {reason}"),
            ));
        }
    }
    Ok(())
}
