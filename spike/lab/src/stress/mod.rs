//! Many writer processes, killed and crashed at random, replaying overlapping epochs of one app
//! against one table, while the catalog server, the network and the storage fail too; then an
//! audit of what the table holds and a check of every answer a writer was given against it.
//!
//! The parent ([`run`]) creates the table, starts `writers` OS processes of the `stress` binary
//! ([`worker`]), SIGKILLs some of them at random moments and restarts every writer that died,
//! until each has walked the epochs up to the last one. Each worker arms the failpoints of a
//! commit (`Target::failpoints`) to abort the process the first time it passes each step and
//! then with probability `fault_rate` at every pass, and restarts from the table's committed
//! epoch, replaying it: exactly what a crashed sink does. On request the parent also kills the
//! catalog server with SIGKILL and brings it back (`server_kills`), puts the fault proxy between
//! the writers and a REST server with faults at random (`proxy_fault_rate`), and the writers'
//! storage fails writes at random (`storage_fault_rate`). With `peers`, writers of other
//! implementations join the race on the same table ([`peers`]). [`soak`] repeats runs on fresh
//! tables until a number of attempts is reached. Bounded in processes, restarts and time; it
//! stops by itself.

mod audit;
mod faults;
pub mod history;
mod options;
mod pauses;
mod peers;
mod run;
mod soak;
mod supervise;
pub mod tally;
mod turns;
mod worker;

pub use self::audit::{Audit, Counted, Held};
pub use self::faults::PROXY_FAULTS;
pub use self::options::{StressOptions, parse_arm, parse_catalog};
pub use self::run::run;
pub use self::soak::soak;
pub use self::worker::{WorkerArgs, worker};
