//! The catalog contract: what every arm relies on from a catalog, as properties, probed on every
//! catalog kind (`library.rs`, through the library's own commit), and what the REST servers do
//! with a request no client library would send (`http.rs`, plain HTTP). One trial per catalog and
//! property, `<catalog>::<property>`; each prints what the catalog answered and fails where the
//! catalog breaks the property, except a break this project found and records (`library::KNOWN`),
//! which the trial asserts instead. A property that cannot be asked of a catalog is no trial: the
//! reason is `library::not_applicable`'s, and the contract's table in FINDINGS.md prints it.

#[path = "../common/cli.rs"]
mod cli;
mod http;
mod library;

use std::process::ExitCode;

use barrier_harness::CatalogKind;
use futures::future::BoxFuture;
use libtest_mimic::{Failed, Trial};
use serde_json::json;

fn main() -> ExitCode {
    let trials = library::trials().into_iter().chain(http::trials()).collect();
    libtest_mimic::run(&cli::arguments(), trials).exit_code()
}

/// What a probe found: whether the catalog kept the property (a known break is `false`, and
/// passes), and what it answered.
type Found = Result<(bool, String), String>;

/// The trial `<kind>::<name>`: runs `probe` unless the catalog's server is unavailable (SKIPPED,
/// with the reason), prints what it observed and saves it (`barrier_lab::record`, `contract`).
fn trial(
    kind: CatalogKind,
    name: &'static str,
    probe: impl FnOnce() -> BoxFuture<'static, Found> + Send + 'static,
) -> Trial {
    Trial::test(format!("{kind}::{name}"), move || {
        if let Some(why) = kind.unavailable() {
            println!("SKIPPED {kind}::{name}: {why}");
            return Ok(());
        }
        let outcome = cli::runtime().block_on(probe());
        let (passed, held, observed) = match &outcome {
            Ok((held, observed)) => (true, *held, observed.clone()),
            Err(why) => (false, false, why.clone()),
        };
        let line = json!({ "catalog": kind, "property": name, "passed": passed, "held": held, "observed": observed });
        barrier_lab::record::save("contract", &line).map_err(Failed::from)?;
        println!("{kind}::{name}: {observed}");
        outcome.map(drop).map_err(|why| Failed::from(format!("{kind}::{name}: {why}")))
    })
}
