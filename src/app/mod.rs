//! The binary's commands: each turns parsed arguments into library calls and prints the
//! results. Outcomes fold into the process exit code.

use crate::cli;

pub mod batch;
pub mod console;
pub mod generate;
pub mod grade;
pub mod huge_pages;
pub mod image;
pub mod input;
pub mod meta;
pub mod output;
pub mod pipe;
pub mod pool;
pub mod report_file;
pub mod show;
pub mod solve;
pub mod stdin;

use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// How a run ended, ordered so the worst outcome wins when folding many.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Outcome {
    /// Everything succeeded.
    Success,
    /// At least one input failed or was not uniquely solvable.
    SomeFailed,
    /// The command line was wrong, or a fatal error stopped the run before any work.
    Usage,
}

impl From<Outcome> for ExitCode {
    fn from(o: Outcome) -> ExitCode {
        match o {
            Outcome::Success => ExitCode::SUCCESS,
            Outcome::SomeFailed => ExitCode::from(1),
            Outcome::Usage => ExitCode::from(2),
        }
    }
}

/// A flag set by the first Ctrl-C (or SIGTERM): running images finish, no more start, and
/// no temporary file is left. A second signal exits at once.
pub fn stop_on_signals() -> anyhow::Result<Arc<AtomicBool>> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let stop = Arc::new(AtomicBool::new(false));
    for signal in [SIGINT, SIGTERM] {
        signal_hook::flag::register_conditional_shutdown(signal, 130, Arc::clone(&stop))?;
        signal_hook::flag::register(signal, Arc::clone(&stop))?;
    }
    Ok(stop)
}

/// Creates the `--debug` folder before any work and keeps it out of the inputs' folders, so
/// the intermediate pictures can neither fail silently nor land on an input.
pub fn check_debug_dir(
    args: &cli::ImageArgs,
    inputs: &sudoku_snap::pipeline::encode::Inputs,
) -> anyhow::Result<()> {
    use anyhow::Context;
    let Some(dir) = &args.debug else {
        return Ok(());
    };
    if inputs.contains(dir) {
        anyhow::bail!("--debug {}: is an input, not a folder", dir.display());
    }
    std::fs::create_dir_all(dir)
        .with_context(|| format!("cannot create the debug folder {}", dir.display()))?;
    Ok(())
}
