//! The binary's commands: each turns parsed arguments into library calls and prints the
//! results. Outcomes fold into the process exit code.

use crate::cli;
use sudoku_snap::error::shown;

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

/// A flag set by the first Ctrl-C, SIGTERM or SIGHUP (the terminal closed): running images
/// finish, no more start, and no temporary file is left. A second signal exits at once; the
/// temporary files it leaves are removed by the next run writing beside them.
pub fn stop_on_signals() -> anyhow::Result<Arc<AtomicBool>> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let stop = Arc::new(AtomicBool::new(false));
    for signal in [SIGINT, SIGTERM, SIGHUP] {
        signal_hook::flag::register_conditional_shutdown(signal, 130, Arc::clone(&stop))?;
        signal_hook::flag::register(signal, Arc::clone(&stop))?;
    }
    Ok(stop)
}

/// Creates the `--debug` folder before any work and keeps it apart from the inputs: it is
/// never an input, and never a folder that holds one (its pictures are named after the
/// inputs, `a.png` -> `a.cells.png`, so they could land on another input of the run).
pub fn check_debug_dir(
    args: &cli::ImageArgs,
    inputs: &sudoku_snap::output::Inputs,
) -> anyhow::Result<()> {
    use anyhow::Context;
    let Some(dir) = &args.debug else {
        return Ok(());
    };
    if inputs.contains(dir) {
        anyhow::bail!("--debug {}: is an input, not a folder", shown(dir));
    }
    if inputs.any_in(dir) {
        anyhow::bail!(
            "--debug {}: holds inputs of this run; give the debug pictures a folder of their own",
            shown(dir)
        );
    }
    std::fs::create_dir_all(dir)
        .with_context(|| format!("cannot create the debug folder {}", shown(dir)))?;
    let taken = std::fs::read_dir(dir).is_ok_and(|mut d| d.next().is_some());
    if taken && !args.overwrite {
        crate::err!(
            "note: --debug {}: debug pictures are new files only; names already taken there are kept (--overwrite replaces them)",
            shown(dir)
        );
    }
    Ok(())
}
