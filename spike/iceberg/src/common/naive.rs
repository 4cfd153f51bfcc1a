//! `iceberg-naive`, the original experiment's sink, and `iceberg-unguarded`, the benchmarks'
//! floor: both commit a stock fast append; only the first checks the epoch first.

use barrier_sink::{Footprint, SourceFile};

use super::strategy::{CheckSite, CommitStrategy};

const FOOTPRINT: Footprint =
    Footprint { extension_point: None, files: &[SourceFile { path: file!(), text: include_str!("naive.rs") }] };

/// Checks the epoch on the table it loaded, then commits a transaction built on that table.
///
/// Not a guarantee: `Transaction::commit` reloads the table and rebases the append onto whatever
/// it finds, so the check constrains nothing. A writer that checks while the epoch is free and
/// then loses the race commits a duplicate. Kept as the control that shows the gap. It loads the
/// table for every commit: its check is the only one, and on a held table it would duplicate
/// without any race (another writer's commit since its last one goes unseen).
pub struct Naive;

impl CommitStrategy for Naive {
    fn footprint(&self) -> Footprint {
        FOOTPRINT
    }

    fn check_site(&self) -> CheckSite {
        CheckSite::Sink
    }
}

/// No check at all: the cost floor the guarded arms are measured against, and the plain writer
/// that shows what the library alone does with a lost answer. Not an arm of the suite; it claims
/// nothing. It holds its table, as the arms whose check runs inside the commit do, so that the
/// floor is iceberg-rust's own minimum for an append: the library's refresh and one swap.
pub struct Unguarded {
    /// The fast append's duplicate-file check (on in the floor, as the library defaults it).
    pub check_duplicate: bool,
}

impl CommitStrategy for Unguarded {
    fn footprint(&self) -> Footprint {
        FOOTPRINT
    }

    fn check_site(&self) -> CheckSite {
        CheckSite::Nowhere
    }

    fn holds_table(&self) -> bool {
        true
    }

    fn check_duplicate(&self) -> bool {
        self.check_duplicate
    }
}
