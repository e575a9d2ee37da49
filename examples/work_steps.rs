//! The work steps each reading spends of its budget (see `sudoku_snap::budget`), to size
//! `READING_STEPS` from what real pictures need, as BENCHMARKS.md ("Work budget") records.
//!
//! `cargo run --release --example work_steps -- [--each] DIR...`
//!
//! Per folder (its pictures directly in it, and in its sub-folders): the pictures read, the
//! most steps one spent with its name, the median, and how many ran out of the budget.
//! `--each` also prints every picture's steps and status.

use std::path::{Path, PathBuf};

use rayon::prelude::*;
use sudoku_snap::{Error, Options, Snap};

fn is_image(p: &Path) -> bool {
    p.extension().and_then(|e| e.to_str()).is_some_and(|e| {
        matches!(
            e.to_ascii_lowercase().as_str(),
            "png" | "jpg" | "jpeg" | "webp" | "bmp" | "gif"
        )
    })
}

/// The pictures in `dir` and its sub-folders, sorted by path.
fn pictures(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(pictures(&path));
        } else if is_image(&path) {
            out.push(path);
        }
    }
    out.sort();
    out
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let each = args.iter().any(|a| a == "--each");
    args.retain(|a| a != "--each");
    let snap = Snap::new(Options::default()).expect("templates load");
    println!(
        "{:<44} {:>6} {:>10} {:>8} {:>6}  most steps in",
        "set", "images", "most", "median", "out"
    );
    for dir in &args {
        let files = pictures(Path::new(dir));
        let mut spent: Vec<(u64, PathBuf, bool)> = files
            .par_iter()
            .map(|f| {
                let report = snap.process(f, None);
                let out = matches!(report.error, Some(Error::OutOfSteps { .. }));
                if each {
                    println!("{} {} {:?}", f.display(), report.steps, report.status);
                }
                (report.steps, f.clone(), out)
            })
            .collect();
        spent.sort();
        let out = spent.iter().filter(|s| s.2).count();
        let median = spent.get(spent.len() / 2).map_or(0, |s| s.0);
        let (most, name) = spent
            .last()
            .map_or((0, PathBuf::new()), |s| (s.0, s.1.clone()));
        println!(
            "{:<44} {:>6} {:>10} {:>8} {:>6}  {}",
            dir,
            spent.len(),
            most,
            median,
            out,
            name.display()
        );
    }
}
