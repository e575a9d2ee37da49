//! The binary's commands: each turns parsed arguments into library calls and prints the
//! results. Outcomes fold into the process exit code.

pub mod batch;
pub mod console;
pub mod generate;
pub mod grade;
pub mod image;
pub mod input;
pub mod output;
pub mod solve;

use std::process::ExitCode;

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

/// A rayon pool with `jobs` threads (all cores when `None`).
pub fn thread_pool(jobs: Option<u64>) -> anyhow::Result<rayon::ThreadPool> {
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(n) = jobs {
        builder = builder.num_threads(n as usize);
    }
    Ok(builder.build()?)
}
