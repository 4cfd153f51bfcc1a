//! The project's Python side, which the peers run in: `interop/peer.py`, and the venv
//! `scripts/interop-venv` builds for it from `interop/requirements.txt`.

use std::path::PathBuf;

/// The file the peers run from.
pub const SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../interop/peer.py");

/// The pinned versions the venv installs: the one place they are written.
pub const REQUIREMENTS: &str = include_str!("../../../interop/requirements.txt");

/// The Python that runs the peers: `$BARRIER_PEER_PYTHON` (scripts/test exports the one
/// `scripts/interop-venv` built), else this checkout's `target/interop-venv`. An error says why
/// there is none (`$BARRIER_PEER_PYTHON_UNAVAILABLE`, which scripts/test sets when the venv
/// could not be built, or how to build it).
pub fn python() -> Result<PathBuf, String> {
    if let Some(python) = std::env::var_os("BARRIER_PEER_PYTHON") {
        return Ok(python.into());
    }
    if let Ok(why) = std::env::var("BARRIER_PEER_PYTHON_UNAVAILABLE") {
        return Err(why);
    }
    let venv = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../target/interop-venv/bin/python"));
    if venv.exists() {
        Ok(venv)
    } else {
        Err("no Python for the peers: BARRIER_PEER_PYTHON is not set and target/interop-venv is missing (scripts/interop-venv builds it; scripts/test does)".into())
    }
}
