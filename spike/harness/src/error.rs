//! The harness's own failures, apart from what a sink reports.

use barrier_sink::SinkError;

/// Why a harness run (a body, a stress run) could not say what a sink did.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A sink or a fixture's table reported it.
    #[error(transparent)]
    Sink(#[from] SinkError),
    /// A file, process or socket of the harness's own.
    #[error("{what}")]
    Io {
        what: String,
        #[source]
        source: std::io::Error,
    },
    /// The harness did not reach the state it set up (a writer never reached its window, a
    /// fault was never applied, a writer process never started).
    #[error("{0}")]
    Broken(String),
}

impl Error {
    /// Wraps an I/O error with what the harness was doing.
    pub fn io(what: impl Into<String>) -> impl FnOnce(std::io::Error) -> Error {
        let what = what.into();
        move |source| Error::Io { what, source }
    }

    /// The error and every source under it, on one line.
    pub fn report(&self) -> barrier_sink::Report<'_> {
        barrier_sink::Report(self)
    }
}
