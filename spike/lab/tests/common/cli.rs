//! The command line and the runtime every `libtest-mimic` test binary here shares.

use libtest_mimic::Arguments;

/// The test binary's arguments. `--show-output`, which `scripts/test` passes to every test
/// binary, is what libtest-mimic always does (it captures nothing), and it does not know the flag.
/// The trials wait on catalogs, servers and peer processes more than they compute: unless
/// `--test-threads` says otherwise, four run at a time (libtest's default is one per core).
pub fn arguments() -> Arguments {
    let mut arguments = Arguments::from_iter(std::env::args().filter(|arg| arg != "--show-output"));
    arguments.test_threads.get_or_insert(4);
    arguments
}

/// The runtime every trial of the binary runs on, each from its own test thread: one runtime, so
/// that what outlives a trial (the idle peer processes, `barrier_harness::peer`) keeps a live I/O
/// driver. As many workers as four trials of `#[tokio::test(flavor = "multi_thread",
/// worker_threads = 2)]` would have.
pub fn runtime() -> &'static tokio::runtime::Runtime {
    static RUNTIME: std::sync::OnceLock<tokio::runtime::Runtime> = std::sync::OnceLock::new();
    RUNTIME.get_or_init(|| {
        tokio::runtime::Builder::new_multi_thread().worker_threads(8).enable_all().build().expect("tokio runtime")
    })
}
