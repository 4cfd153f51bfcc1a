//! What the peers run in: Python (`interop/peer.py`, in the venv `scripts/interop-venv` builds
//! from `interop/requirements.txt`), the JVM (`interop/java`, which `scripts/java-peer` builds)
//! and Go (`interop/go`, which `scripts/go-peer` builds), each found the same way ([`program`]);
//! or a user's command.

use std::path::{Path, PathBuf};

/// The file the peers run from.
pub const SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../interop/peer.py");

/// The pinned versions the venv installs: the one place they are written.
pub const REQUIREMENTS: &str = include_str!("../../../interop/requirements.txt");

/// The Python that runs the peers: `$BARRIER_PEER_PYTHON` (scripts/test exports the one
/// `scripts/interop-venv` built), else this checkout's `target/interop-venv`.
pub fn python() -> Result<PathBuf, String> {
    program("BARRIER_PEER_PYTHON", Otherwise::Built("target/interop-venv/bin/python", "scripts/interop-venv"))
}

/// Where a peer's program is when no variable names it.
enum Otherwise {
    /// This checkout's own build, at a path under it, by the script named.
    Built(&'static str, &'static str),
    /// The program of this name on the PATH.
    OnPath(&'static str),
}

/// The program `$<var>` names (scripts/test exports what the build script printed), else where
/// `otherwise` says. An error says why there is none: `$<var>_UNAVAILABLE`, which scripts/test
/// sets when the build failed, or which script builds it.
fn program(var: &str, otherwise: Otherwise) -> Result<PathBuf, String> {
    if let Some(program) = std::env::var_os(var) {
        return Ok(program.into());
    }
    if let Ok(why) = std::env::var(format!("{var}_UNAVAILABLE")) {
        return Err(why);
    }
    match otherwise {
        Otherwise::OnPath(name) => Ok(PathBuf::from(name)),
        Otherwise::Built(built, script) => {
            let path = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join(built);
            if path.exists() {
                Ok(path)
            } else {
                Err(format!("{var} is not set and {built} is missing ({script} builds it; scripts/test does)"))
            }
        }
    }
}

/// The JVM peers' Maven project: the one place Iceberg Java's version is written.
pub const JAVA_POM: &str = include_str!("../../../interop/java/pom.xml");

/// The classpath `scripts/java-peer` writes for the JVM peers: their classes and dependencies.
const JAVA_CLASSPATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../target/java-peer/classpath");

/// The Go peers' module: the one place iceberg-go's version is written.
pub const GO_MOD: &str = include_str!("../../../interop/go/go.mod");

/// What a peer process runs in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Runtime {
    /// `interop/peer.py`, in the venv `scripts/interop-venv` builds.
    Python,
    /// `interop/java` (`barrier.peer.Peer`), which `scripts/java-peer` builds with Maven.
    Jvm,
    /// `interop/go`, which `scripts/go-peer` builds into `target/go-peer/peer`.
    Go,
    /// A user's shell command (`verdict --peer NAME=COMMAND`), run by `sh -c` with the mode and
    /// its arguments after it.
    Command(&'static str),
}

impl Runtime {
    /// The program and the arguments before the peer's mode (`serve`) that start a peer, or why
    /// this machine cannot. `scratch`: a directory of the process's own for its runtime's temporary
    /// files, which the caller removes once the process is gone (a JVM extracts its native
    /// libraries into one and deletes them at exit, which a killed JVM never reaches).
    pub fn command(self, scratch: &Path) -> Result<(PathBuf, Vec<String>), String> {
        match self {
            Runtime::Python => Ok((python()?, vec![SCRIPT.to_string()])),
            Runtime::Jvm => {
                let java = java()?;
                let classpath = std::fs::read_to_string(JAVA_CLASSPATH).map_err(|e| {
                    format!("no JVM peers: {JAVA_CLASSPATH}: {e} (scripts/java-peer builds them; scripts/test does)")
                })?;
                let classpath = classpath.trim();
                let tmpdir = format!("-Djava.io.tmpdir={}", scratch.display());
                // Arrow's memory needs java.nio opened to it on Java 17.
                let args =
                    [&tmpdir, "--add-opens=java.base/java.nio=ALL-UNNAMED", "-cp", classpath, "barrier.peer.Peer"];
                Ok((java, args.map(String::from).to_vec()))
            }
            Runtime::Go => Ok((go_peer()?, vec![])),
            Runtime::Command(command) => {
                Ok((PathBuf::from("sh"), vec!["-c".into(), format!("{command} \"$@\""), "sh".into()]))
            }
        }
    }

    /// Why a peer of this runtime cannot start here, if it cannot.
    pub fn unavailable(self) -> Option<String> {
        self.command(&std::env::temp_dir()).err()
    }
}

/// The java that runs the JVM peers: `$BARRIER_PEER_JAVA` (scripts/test exports what
/// `scripts/java-peer` printed), else `java` on the PATH.
fn java() -> Result<PathBuf, String> {
    program("BARRIER_PEER_JAVA", Otherwise::OnPath("java"))
}

/// The Go peers' binary: `$BARRIER_PEER_GO` (scripts/test exports what `scripts/go-peer`
/// printed), else this checkout's `target/go-peer/peer`.
fn go_peer() -> Result<PathBuf, String> {
    program("BARRIER_PEER_GO", Otherwise::Built("target/go-peer/peer", "scripts/go-peer"))
}
