//! Issue 57: one work budget per reading. A picture whose searches would run for minutes (a
//! blank lattice of thin lines: every cell a look-alike glyph) ends in an honest doubt that
//! names the file, nothing drawn or written; a raised cancel flag ends a reading as
//! interrupted. Speed itself is in BENCHMARKS.md ("Work budget"), never asserted here.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use sudoku_snap::{Error, Options, Snap, Status};

use super::util::cmd;

/// A white square `side` pixels wide crossed every `step` pixels by one-pixel black lines,
/// written into `dir`: the 900-pixel, 15-pixel-step one reads as a grid whose 81 cells all hold
/// the same cross, which took the searches minutes before the budget (issue 57, item 4).
fn lattice(dir: &Path, side: u32, step: u32) -> PathBuf {
    let picture = image::GrayImage::from_fn(side, side, |x, y| {
        image::Luma([if x % step == 0 || y % step == 0 {
            0
        } else {
            255
        }])
    });
    let path = dir.join(format!("lattice-{side}-{step}.png"));
    picture.save(&path).unwrap();
    path
}

#[test]
fn a_lattice_of_thin_lines_runs_out_of_its_budget_and_draws_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let input = lattice(dir.path(), 900, 15);
    let output = dir.path().join("solved.png");
    let report = Snap::new(Options::default())
        .unwrap()
        .process(&input, Some(&output));
    assert_eq!(report.status, Status::Doubtful, "{:?}", report.error);
    assert!(
        matches!(report.error, Some(Error::OutOfSteps { .. })),
        "{:?}",
        report.error
    );
    assert!(report.solution.is_none());
    assert!(!output.exists(), "nothing is drawn from a search cut short");
    // The same reading of the same picture runs out the same way: the budget counts steps,
    // not time.
    let again = Snap::new(Options::default()).unwrap().process(&input, None);
    assert_eq!(again.steps, report.steps);
}

#[test]
fn the_command_line_names_the_file_that_ran_out_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let input = lattice(dir.path(), 900, 15);
    let output = dir.path().join("solved.png");
    let run = cmd().arg(&input).arg("-o").arg(&output).output().unwrap();
    assert!(!run.status.success());
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        stderr.contains(&*input.to_string_lossy()) && stderr.contains("work budget"),
        "{stderr}"
    );
    assert!(!output.exists());
}

#[test]
fn a_raised_cancel_flag_ends_the_reading_as_interrupted() {
    let dir = tempfile::tempdir().unwrap();
    let input = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/classic-dejavu-light.png");
    let output = dir.path().join("solved.png");
    let options = Options {
        cancel: Some(Arc::new(AtomicBool::new(true))),
        ..Options::default()
    };
    let report = Snap::new(options).unwrap().process(&input, Some(&output));
    assert_eq!(report.status, Status::Error);
    assert!(
        matches!(report.error, Some(Error::Interrupted { .. })),
        "{:?}",
        report.error
    );
    assert!(!output.exists());
    // Left down, the flag changes nothing.
    let options = Options {
        cancel: Some(Arc::new(AtomicBool::new(false))),
        ..Options::default()
    };
    let report = Snap::new(options).unwrap().process(&input, Some(&output));
    assert_eq!(report.status, Status::Solved, "{:?}", report.error);
    assert!(output.exists());
}
