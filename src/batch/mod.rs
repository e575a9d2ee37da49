//! Batch: many inputs -> one [`Report`] each, in parallel. Discovery ([`discover`]) turns
//! paths into entries, the output plan ([`OutputPlan`]) gives each its output path, and
//! [`run`] processes them on a rayon pool, decoding each image only when its turn comes and
//! handing every report to the caller as it finishes. A bad file ends in its report and the
//! batch goes on; only an output folder that can take no more (full, read-only) stops it.
//!
//! ```no_run
//! use std::sync::atomic::AtomicBool;
//! use sudoku_snap::batch::{self, Origin, OutputPlan, Walk};
//! use sudoku_snap::{Options, Snap};
//! let snap = Snap::new(Options { overwrite: false, ..Options::default() })?;
//! let entries = batch::discover(&[("shots".into(), Origin::Argument)], &Walk::default());
//! let plan = OutputPlan::new("solved");
//! plan.prepare()?;
//! let stop = AtomicBool::new(false);
//! let summary = batch::run(&snap, entries, Some(&plan), None, &stop, |r| println!("{:?}", r.status))?;
//! println!("{} processed", summary.processed());
//! # Ok::<(), sudoku_snap::Error>(())
//! ```

mod discover;
mod paths;
mod shard;

use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Mutex};
use std::time::{Duration, Instant};

use rayon::prelude::*;

pub use discover::{discover, read_list, BadLine, Entry, List, Origin, Walk, MAX_LIST_LINE};
pub use paths::OutputPlan;
pub use shard::Shard;

use crate::error::{Error, Result};
use crate::pipeline::encode;
use crate::report::{Report, Status};
use crate::Snap;

/// How a batch went: outcomes counted by status, and why it stopped early if it did.
#[derive(Debug, Default)]
pub struct Summary {
    /// Reports per status.
    pub counts: HashMap<Status, usize>,
    /// Inputs never started because the batch stopped early.
    pub not_processed: usize,
    /// The write error that stopped the batch (output folder full or read-only).
    pub fatal: Option<Error>,
    /// Whether the caller's stop flag ended the batch (e.g. Ctrl-C).
    pub interrupted: bool,
    /// Wall-clock time of the whole batch.
    pub elapsed: Duration,
}

impl Summary {
    /// How many inputs ended with `status`.
    pub fn count(&self, status: Status) -> usize {
        self.counts.get(&status).copied().unwrap_or(0)
    }

    /// How many inputs were processed (every report).
    pub fn processed(&self) -> usize {
        self.counts.values().sum()
    }

    /// Whether every input was processed and solved or skipped.
    pub fn all_done(&self) -> bool {
        self.not_processed == 0
            && self.fatal.is_none()
            && self.counts.keys().all(|s| s.is_success())
    }
}

/// Processes `entries` with `snap` on `jobs` threads (all cores when `None`), writing outputs
/// by `plan`, and calls `on_report` on the calling thread with each report as it finishes
/// (completion order; input order with one job). Setting `stop` (from a signal handler, say)
/// lets running images finish and starts no more. Fails only when the thread pool cannot
/// be built.
pub fn run(
    snap: &Snap,
    entries: Vec<Entry>,
    plan: Option<&OutputPlan>,
    jobs: Option<usize>,
    stop: &AtomicBool,
    mut on_report: impl FnMut(&Report),
) -> Result<Summary> {
    let started = Instant::now();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.unwrap_or(0))
        .build()
        .map_err(|source| Error::Threads { jobs, source })?;
    let entries = with_outputs(entries, plan);
    let total = entries.len();
    let fatal = Mutex::new(None);
    let halt = AtomicBool::new(false);
    let mut summary = Summary::default();
    let (tx, rx) = mpsc::channel::<Report>();
    std::thread::scope(|scope| {
        let work = || {
            pool.install(|| {
                entries
                    .into_par_iter()
                    .for_each_with(tx, |tx, (entry, out)| {
                        if halt.load(Ordering::Relaxed) || stop.load(Ordering::Relaxed) {
                            return;
                        }
                        let report = process_one(snap, entry, out.as_deref());
                        if let Some(err) = report.error.as_ref().and_then(fatal_write) {
                            halt.store(true, Ordering::Relaxed);
                            fatal.lock().unwrap().get_or_insert(err);
                        }
                        let _ = tx.send(report);
                    });
            })
        };
        scope.spawn(work);
        for report in rx {
            *summary.counts.entry(report.status).or_default() += 1;
            on_report(&report);
        }
    });
    summary.not_processed = total - summary.processed();
    summary.fatal = fatal.into_inner().unwrap();
    summary.interrupted = stop.load(Ordering::Relaxed) && summary.not_processed > 0;
    summary.elapsed = started.elapsed();
    Ok(summary)
}

type Planned = (Entry, Option<std::path::PathBuf>);

/// Pairs each entry with its output path; a second input mapping to the same output (say
/// `a.png` and `a.jpg` with `--output-format png`) gets an error instead of a race, and so
/// does an output that would be a folder or another input of the batch.
fn with_outputs(entries: Vec<Entry>, plan: Option<&OutputPlan>) -> Vec<Planned> {
    let Some(plan) = plan else {
        return entries.into_iter().map(|e| (e, None)).collect();
    };
    let mut claimed: HashMap<std::path::PathBuf, std::path::PathBuf> = HashMap::new();
    let mut planned = Vec::with_capacity(entries.len());
    let inputs = encode::Inputs::new(entries.iter().map(|e| e.input.as_path()));
    for mut e in entries {
        let out = plan.path_for(&e.rel);
        if e.problem.is_none() {
            if let Err(refused) = encode::check_output(&out, &inputs) {
                e.problem = Some(refused);
            } else if let Some(first) = claimed.get(&out) {
                e.problem = Some(Error::SharedOutput {
                    path: e.input.clone(),
                    output: out.clone(),
                    first: first.clone(),
                });
            } else {
                claimed.insert(out.clone(), e.input.clone());
            }
        }
        planned.push((e, Some(out)));
    }
    planned
}

fn process_one(snap: &Snap, entry: Entry, out: Option<&Path>) -> Report {
    if let Some(problem) = entry.problem {
        let mut report = Report::new(&entry.input);
        report.fail(problem);
        return report;
    }
    if let Some(parent) = out.and_then(Path::parent) {
        if let Err(source) = std::fs::create_dir_all(parent) {
            let mut report = Report::new(&entry.input);
            report.fail(Error::Write {
                path: parent.to_path_buf(),
                source,
            });
            return report;
        }
    }
    snap.process_as(&entry.input, out, &entry.rel)
}

/// A copy of `error` when it means no output can be written any more: the output file
/// system is full, read-only, or refuses us.
fn fatal_write(error: &Error) -> Option<Error> {
    let Error::Write { path, source } = error else {
        return None;
    };
    // `tempfile` wraps a failed creation in a new error that keeps the kind but not the OS
    // code, so the kind decides. `StorageFull`, `ReadOnlyFilesystem` and
    // `FilesystemQuotaExceeded` can be named only from Rust 1.83 (above our MSRV), hence
    // their Debug names; the OS codes (shared by Linux, macOS and the BSDs) are a fallback.
    const EACCES: i32 = 13;
    const ENOSPC: i32 = 28;
    const EROFS: i32 = 30;
    let kind = format!("{:?}", source.kind());
    let fatal = matches!(
        kind.as_str(),
        "PermissionDenied" | "StorageFull" | "ReadOnlyFilesystem" | "FilesystemQuotaExceeded"
    ) || matches!(source.raw_os_error(), Some(EACCES | ENOSPC | EROFS));
    fatal.then(|| Error::Write {
        path: path.clone(),
        source: std::io::Error::new(source.kind(), source.to_string()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write_error(source: std::io::Error) -> Error {
        Error::Write {
            path: "out/a.png".into(),
            source,
        }
    }

    #[test]
    fn full_read_only_and_refused_outputs_stop_the_batch_other_errors_do_not() {
        for errno in [13, 28, 30] {
            let e = write_error(std::io::Error::from_raw_os_error(errno));
            assert!(fatal_write(&e).is_some(), "errno {errno}");
        }
        // As `tempfile` reports a failed creation: the kind kept, the OS code dropped.
        let kind = std::io::Error::from_raw_os_error(30).kind();
        let wrapped = write_error(std::io::Error::new(kind, "at path out/.sudoku-snap-1.tmp"));
        assert!(fatal_write(&wrapped).is_some());
        let not_found = write_error(std::io::ErrorKind::NotFound.into());
        assert!(fatal_write(&not_found).is_none());
        let input = Error::Io {
            path: "in.png".into(),
            source: std::io::ErrorKind::PermissionDenied.into(),
        };
        assert!(
            fatal_write(&input).is_none(),
            "an unreadable input is no reason to stop"
        );
    }
}
