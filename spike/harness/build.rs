//! Records the commit the binaries are built from, so that what they measure can name its run
//! (`barrier_harness::run::RunInfo`).

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn main() {
    let commit = git(&["rev-parse", "--short", "HEAD"]).unwrap_or_else(|| "unknown".into());
    let changed = git(&["status", "--porcelain", "--untracked-files=no"]).is_some_and(|s| !s.is_empty());
    let commit = if changed { format!("{commit}+changes") } else { commit };
    println!("cargo:rustc-env=BARRIER_COMMIT={commit}");
    for path in ["../../.git/HEAD", "../../.git/index", ".."] {
        println!("cargo:rerun-if-changed={path}");
    }
}
