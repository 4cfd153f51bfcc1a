//! What `strace -f -y` saw a process do between two marker paths it opened: the file-system
//! work of exactly one commit, below every library (`fsync`s, files created, bytes written,
//! SQLite's own database writes included), which no decorator inside the process can see.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

/// The syscalls `instructions` asks strace to trace.
pub const TRACED: &str = "trace=openat,write,pwrite64,writev,pwritev,pwritev2,fsync,fdatasync";

/// Counts of one traced window.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Syscalls {
    /// `fsync` and `fdatasync` calls.
    pub fsyncs: u64,
    /// Every `openat`, reads included.
    pub opens: u64,
    /// Successful `openat`s with `O_CREAT`.
    pub files_created: u64,
    /// Bytes written to paths on the file system (not to pipes, sockets, eventfds or `/dev`).
    pub bytes_written: u64,
}

/// The marker path a process opens (and fails to: it does not exist) to open or close a window.
pub fn marker(name: &str) -> String {
    format!("/nonexistent/barrier-window-{name}")
}

/// Counts the calls in `trace` (strace's output with `-f -y`) between the line that opens
/// [`marker`]`(begin)` and the one that opens `marker(end)`, across every thread.
pub fn between(trace: &str, begin: &str, end: &str) -> Option<Syscalls> {
    let (begin, end) = (marker(begin), marker(end));
    let mut lines = trace.lines().skip_while(|line| !line.contains(&begin));
    lines.next()?;
    let mut counts = Syscalls::default();
    // A call strace split around another thread's: its name and first argument, by thread.
    let mut pending: HashMap<&str, (&str, &str)> = HashMap::new();
    for line in lines {
        if line.contains(&end) {
            return Some(counts);
        }
        // strace pads the thread id to five columns: `9380  openat(...)`, `12345 openat(...)`.
        let Some((tid, rest)) = line.split_once(' ').map(|(tid, rest)| (tid, rest.trim_start())) else { continue };
        let (name, args, result) = if rest.starts_with("<... ") {
            let Some((name, args)) = pending.remove(tid) else { continue };
            (name, args, result_of(rest))
        } else {
            let Some((name, args)) = rest.split_once('(') else { continue };
            if rest.ends_with("<unfinished ...>") {
                pending.insert(tid, (name, args));
                continue;
            }
            (name, args, result_of(rest))
        };
        count(&mut counts, name, args, result);
    }
    None
}

fn count(counts: &mut Syscalls, name: &str, args: &str, result: Option<i64>) {
    match name {
        "fsync" | "fdatasync" => counts.fsyncs += 1,
        "openat" => {
            counts.opens += 1;
            if args.contains("O_CREAT") && result.is_some_and(|fd| fd >= 0) {
                counts.files_created += 1;
            }
        }
        "write" | "pwrite64" | "writev" | "pwritev" | "pwritev2" if on_file_system(args) => {
            counts.bytes_written += result.filter(|n| *n > 0).unwrap_or(0) as u64;
        }
        _ => {}
    }
}

/// Whether the call's first argument, a descriptor as `-y` prints it (`7</path>`), is a path.
fn on_file_system(args: &str) -> bool {
    let fd = args.split(',').next().unwrap_or_default();
    fd.split_once('<').is_some_and(|(_, path)| path.starts_with('/') && !path.starts_with("/dev/"))
}

/// The number after the last ` = `, if the call returned one (`-y` may append `<path>`).
fn result_of(line: &str) -> Option<i64> {
    let (_, result) = line.rsplit_once(" = ")?;
    let digits: String = result.chars().take_while(|c| *c == '-' || c.is_ascii_digit()).collect();
    digits.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_only_the_window_and_joins_split_calls() {
        let trace = format!(
            "1 openat(AT_FDCWD, \"/x\", O_RDONLY) = 3</x>\n\
             1 openat(AT_FDCWD, \"{begin}\", O_RDONLY) = -1 ENOENT (No such file or directory)\n\
             1 openat(AT_FDCWD, \"/t/a\", O_WRONLY|O_CREAT|O_TRUNC|O_CLOEXEC, 0666) = 7</t/a>\n\
             2 write(9</t/db>, \"ab\"..., 4096 <unfinished ...>\n\
             1 write(7</t/a>, \"abc\", 3) = 3\n\
             2 <... write resumed>) = 4096\n\
             1 write(5<anon_inode:[eventfd]>, \"\\1\", 8) = 8\n\
             2 fdatasync(9</t/db>) = 0\n\
             1 fsync(7</t/a>) = 0\n\
             1 openat(AT_FDCWD, \"{end}\", O_RDONLY) = -1 ENOENT (No such file or directory)\n\
             1 fsync(7</t/a>) = 0\n",
            begin = marker("begin"),
            end = marker("end"),
        );
        let counts = between(&trace, "begin", "end").expect("both markers");
        assert_eq!(counts, Syscalls { fsyncs: 2, opens: 1, files_created: 1, bytes_written: 4099 });
    }

    #[test]
    fn reads_thread_ids_of_any_width() {
        // Below 10000, strace pads the id with a second space; every call was once lost there.
        let trace = format!(
            "9380  openat(AT_FDCWD, \"{begin}\", O_RDONLY) = -1 ENOENT (No such file or directory)\n\
             9380  openat(AT_FDCWD, \"/t/a\", O_WRONLY|O_CREAT|O_TRUNC|O_CLOEXEC, 0666 <unfinished ...>\n\
             12345 write(9</t/db>, \"ab\", 2) = 2\n\
             9380  <... openat resumed>) = 7</t/a>\n\
             9380  fsync(7</t/a>) = 0\n\
             9380  openat(AT_FDCWD, \"{end}\", O_RDONLY) = -1 ENOENT (No such file or directory)\n",
            begin = marker("begin"),
            end = marker("end"),
        );
        let counts = between(&trace, "begin", "end").expect("both markers");
        assert_eq!(counts, Syscalls { fsyncs: 1, opens: 1, files_created: 1, bytes_written: 2 });
    }

    #[test]
    fn a_window_that_never_closes_is_no_count() {
        assert_eq!(between(&format!("1 openat(AT_FDCWD, \"{}\", O_RDONLY) = -1\n", marker("b")), "b", "e"), None);
    }
}
