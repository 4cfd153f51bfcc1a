//! The few callgrind client requests the instruction counts need, as valgrind's `callgrind.h`
//! expands them on x86_64: a sequence of rotations that leaves every register as it was, which
//! valgrind recognises and answers. Run natively they do nothing (on other architectures they
//! compile to nothing, and `instructions` refuses to run).
//!
//! Written out here rather than taken from a crate: a crate that wraps `callgrind.h` compiles C
//! against valgrind's headers at build time, and the harnesses built on callgrind (iai-callgrind,
//! gungraun) need their own runner binary installed at the library's exact version and measure
//! one function on one thread, where a commit also runs on tokio's blocking threads and
//! SQLite's worker thread. These requests act on every thread.

/// Dumps the counts collected since the last dump (or the start) as a profile part named
/// `label`, and zeroes them, for every thread.
pub fn dump(label: &std::ffi::CStr) {
    request(DUMP_STATS_AT, label.as_ptr() as u64);
}

/// Starts instrumenting: nothing before it is counted (with `--instr-atstart=no`), and it runs
/// several times faster under valgrind.
pub fn start_instrumentation() {
    request(START_INSTRUMENTATION, 0);
}

pub fn stop_instrumentation() {
    request(STOP_INSTRUMENTATION, 0);
}

/// Whether this process runs under valgrind.
pub fn running_on_valgrind() -> bool {
    request(RUNNING_ON_VALGRIND, 0) != 0
}

// valgrind.h: `VG_USERREQ_TOOL_BASE('C','T')` and the order of `Vg_CallgrindClientRequest`.
const CALLGRIND_BASE: u64 = ((b'C' as u64) << 24) | ((b'T' as u64) << 16);
const DUMP_STATS_AT: u64 = CALLGRIND_BASE + 3;
const START_INSTRUMENTATION: u64 = CALLGRIND_BASE + 4;
const STOP_INSTRUMENTATION: u64 = CALLGRIND_BASE + 5;
const RUNNING_ON_VALGRIND: u64 = 0x1001;

/// `VALGRIND_DO_CLIENT_REQUEST_EXPR` with a default of 0: the request and its argument in a
/// block whose address goes in `rax`, the answer in `rdx`.
#[cfg(target_arch = "x86_64")]
fn request(code: u64, arg: u64) -> u64 {
    let block: [u64; 6] = [code, arg, 0, 0, 0, 0];
    let mut answer: u64 = 0;
    // SAFETY: four rotations of `rdi` by 128 bits in all and an exchange of `rbx` with itself
    // change no register (only flags, which `asm!` assumes clobbered); valgrind reads `block`
    // and writes only `rdx`.
    unsafe {
        std::arch::asm!(
            "rol rdi, 3",
            "rol rdi, 13",
            "rol rdi, 61",
            "rol rdi, 51",
            "xchg rbx, rbx",
            in("rax") block.as_ptr(),
            inout("rdx") answer,
            options(nostack),
        );
    }
    answer
}

#[cfg(not(target_arch = "x86_64"))]
fn request(_code: u64, _arg: u64) -> u64 {
    0
}

/// One part of a callgrind profile, as `--compress-strings=no --compress-pos=no` writes it.
pub struct Part {
    /// Instructions (`Ir`) of every thread while the part was collected.
    pub total: u64,
    text: String,
}

impl Part {
    /// The part that [`dump`] wrote as `label`, among the profile files in `dir`.
    pub fn find(dir: &std::path::Path, label: &std::ffi::CStr) -> std::io::Result<Part> {
        let trigger = format!("Client Request: {}", label.to_string_lossy());
        for entry in std::fs::read_dir(dir)? {
            let path = entry?.path();
            if !path.file_name().is_some_and(|n| n.to_string_lossy().starts_with("callgrind.out")) {
                continue;
            }
            let text = std::fs::read_to_string(&path)?;
            if !text.lines().any(|l| l.starts_with("desc: Trigger:") && l.ends_with(&trigger)) {
                continue;
            }
            let total = text
                .lines()
                .find_map(|l| l.strip_prefix("summary:").or_else(|| l.strip_prefix("totals:")))
                .and_then(|v| v.split_whitespace().next())
                .and_then(|v| v.parse().ok())
                .ok_or_else(|| std::io::Error::other(format!("{}: no total", path.display())))?;
            return Ok(Part { total, text });
        }
        Err(std::io::Error::other(format!("no part {trigger} in {}", dir.display())))
    }

    /// Calls to functions whose name ends with `suffix` (a hash suffix aside), and the
    /// instructions they cost, inclusive: each `calls=` line names the callee's calls from one
    /// place, and the line after it holds their inclusive cost.
    pub fn calls_to(&self, suffix: &str) -> (u64, u64) {
        let (mut calls, mut cost) = (0, 0);
        let mut callee_matches = false;
        let mut lines = self.text.lines();
        while let Some(line) = lines.next() {
            if let Some(name) = line.strip_prefix("cfn=") {
                callee_matches = without_hash(name).ends_with(suffix);
            } else if let Some(n) = line.strip_prefix("calls=")
                && callee_matches
            {
                calls += n.split_whitespace().next().and_then(|v| v.parse::<u64>().ok()).unwrap_or(0);
                cost += lines
                    .next()
                    .and_then(|l| l.split_whitespace().nth(1))
                    .and_then(|v| v.parse::<u64>().ok())
                    .unwrap_or(0);
            }
        }
        (calls, cost)
    }
}

/// A demangled Rust name without its `::h0123456789abcdef` suffix, if valgrind kept one.
fn without_hash(name: &str) -> &str {
    match name.rsplit_once("::h") {
        Some((head, hash)) if hash.len() == 16 && hash.chars().all(|c| c.is_ascii_hexdigit()) => head,
        _ => name,
    }
}
