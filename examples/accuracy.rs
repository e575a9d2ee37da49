//! Recognition accuracy on folders of screenshots with ground truth (`NAME.txt` beside each
//! image: line 1 the givens, 81 chars with `.`), cells and whole grids, as written in
//! BENCHMARKS.md.
//!
//! `cargo run --release --example accuracy -- samples ../shared/corpus ../shared/data/photos/train`

use std::path::{Path, PathBuf};

use rayon::prelude::*;
use sudoku_snap::{Board, Options, Pos, Snap, Status};

/// (image, givens) pairs of a folder.
fn truth(dir: &Path) -> Vec<(PathBuf, Board)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
        .map(|e| e.path())
        .collect();
    files.sort();
    files
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .filter_map(|txt| {
            let image = files.iter().find(|p| {
                p.file_stem() == txt.file_stem() && p.extension().is_some_and(|e| e != "txt")
            })?;
            let text = std::fs::read_to_string(txt).ok()?;
            let givens: Board = text.lines().next()?.parse().ok()?;
            Some((image.clone(), givens))
        })
        .collect()
}

fn main() {
    let snap = Snap::new(Options::default()).expect("templates load");
    for dir in std::env::args().skip(1) {
        let set = truth(Path::new(&dir));
        let results: Vec<(usize, bool, bool)> = set
            .par_iter()
            .map(|(image, givens)| {
                let report = snap.process(image, None);
                let read = report.givens.unwrap_or_default();
                let right = Pos::all().filter(|&p| read.get(p) == givens.get(p)).count();
                (right, right == 81, report.status == Status::Solved)
            })
            .collect();
        let cells: usize = results.iter().map(|r| r.0).sum();
        let grids = results.iter().filter(|r| r.1).count();
        let solved = results.iter().filter(|r| r.2).count();
        let n = results.len();
        println!(
            "{dir}: {n} images; cells {cells}/{} = {:.2}%; grids read exactly {grids}/{n} = {:.1}%; solved {solved}/{n}",
            n * 81,
            100.0 * cells as f64 / (n * 81).max(1) as f64,
            100.0 * grids as f64 / n.max(1) as f64,
        );
    }
}
