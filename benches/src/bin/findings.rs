//! `findings`: FINDINGS.md's generated tables (`barrier_benches::findings`), checked or rewritten.
//!
//! ```text
//! findings --check FINDINGS.md     exits non-zero, printing the first difference, where a block
//!                                  is not its regeneration from the saved results it names
//! findings --write FINDINGS.md     regenerates every block in place
//! ```
//!
//! Paths in a block are relative to the directory the file is in.

use std::path::PathBuf;
use std::process::ExitCode;

use barrier_benches::findings::regenerate;

#[derive(clap::Parser)]
#[command(name = "findings")]
struct Cli {
    /// Rewrite the blocks instead of checking them.
    #[arg(long, conflicts_with = "check")]
    write: bool,
    /// Check the blocks (the default).
    #[arg(long)]
    check: bool,
    file: PathBuf,
}

fn main() -> ExitCode {
    let cli: Cli = clap::Parser::parse();
    let text = match std::fs::read_to_string(&cli.file) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("findings: {}: {e}", cli.file.display());
            return ExitCode::from(2);
        }
    };
    let root = cli.file.parent().map(PathBuf::from).unwrap_or_default();
    let root = if root.as_os_str().is_empty() { PathBuf::from(".") } else { root };
    let fresh = match regenerate(&text, &root) {
        Ok(fresh) => fresh,
        Err(e) => {
            eprintln!("findings: {}: {e}", cli.file.display());
            return ExitCode::FAILURE;
        }
    };
    if cli.write {
        if let Err(e) = std::fs::write(&cli.file, &fresh) {
            eprintln!("findings: {}: {e}", cli.file.display());
            return ExitCode::FAILURE;
        }
        eprintln!("findings: {} regenerated", cli.file.display());
        return ExitCode::SUCCESS;
    }
    let blocks = text.matches(barrier_benches::findings::END).count();
    match text.lines().zip(fresh.lines()).enumerate().find(|(_, (was, now))| was != now) {
        None if text == fresh => {
            eprintln!("findings: the {blocks} generated tables of {} match their saved results", cli.file.display());
            ExitCode::SUCCESS
        }
        found => {
            let (n, (was, now)) = found.unwrap_or((text.lines().count(), ("(end)", "(more lines)")));
            eprintln!("findings: {} differs from its saved results at line {}:", cli.file.display(), n + 1);
            eprintln!("  the file:  {was}\n  the regeneration: {now}");
            eprintln!("(regenerate with `findings --write {}` if the change is intended)", cli.file.display());
            ExitCode::FAILURE
        }
    }
}
