//! The locate stage alone against hand-marked grid corners: for every row of an
//! `outlines.csv` (the photo data set's format: `filepath,p1_x,p1_y,...,p4_x,p4_y`, the four
//! corners of the grid as its authors marked them), locates the grid in the photo beside it
//! and reports how far the corners found lie from the marked ones.
//!
//! ```text
//! cargo run --release --example outlines -- ../shared/data/photos/train
//! ```
//!
//! The error of one photo is the mean distance of its four corners from the marked ones (the
//! marks' order matched to ours by trying the four rotations and both directions), in pixels
//! and as a fraction of the grid's side. Prints the median and 90th percentile and how many
//! photos are within 2 % and 5 % of the side; `-v` lists every photo.

use std::path::{Path, PathBuf};

use rayon::prelude::*;
use sudoku_snap::stages;

/// One photo's result: its file and, when a grid was found, the mean corner error in pixels
/// and as a fraction of the marked grid's side.
struct Outcome {
    file: PathBuf,
    error: Option<(f32, f32)>,
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let verbose = args.iter().any(|a| a == "-v");
    let Some(dir) = args.iter().find(|a| *a != "-v") else {
        eprintln!("usage: outlines [-v] DIR  (DIR holds outlines.csv and the photos)");
        std::process::exit(2);
    };
    let dir = Path::new(dir);
    let csv = std::fs::read_to_string(dir.join("outlines.csv")).unwrap_or_else(|e| {
        eprintln!("error: {}: {e}", dir.join("outlines.csv").display());
        std::process::exit(1);
    });
    let rows: Vec<(PathBuf, [(f32, f32); 4])> = csv.lines().skip(1).filter_map(parse).collect();
    let mut outcomes: Vec<Outcome> = rows
        .par_iter()
        .map(|(name, marked)| {
            let file = dir.join(name.file_name().unwrap_or_default());
            let error = stages::decode_file(&file, 100_000_000)
                .ok()
                .and_then(|picture| stages::locate(picture.rgb()).ok())
                .map(|found| corner_error(&found.quad.corners, marked));
            Outcome { file, error }
        })
        .collect();
    outcomes.sort_by(|a, b| a.file.cmp(&b.file));
    if verbose {
        for o in &outcomes {
            match o.error {
                Some((px, frac)) => {
                    println!("{}\t{px:.1} px\t{:.2} %", o.file.display(), 100.0 * frac)
                }
                None => println!("{}\tno grid", o.file.display()),
            }
        }
    }
    let mut px: Vec<f32> = outcomes.iter().filter_map(|o| Some(o.error?.0)).collect();
    let mut frac: Vec<f32> = outcomes.iter().filter_map(|o| Some(o.error?.1)).collect();
    px.sort_by(f32::total_cmp);
    frac.sort_by(f32::total_cmp);
    let within = |limit: f32| frac.iter().filter(|&&f| f <= limit).count();
    println!(
        "photos {}  grid found {}  corner error: median {:.1} px ({:.2} % of the side), \
         90th percentile {:.1} px ({:.2} %)  within 2 %: {}  within 5 %: {}",
        outcomes.len(),
        px.len(),
        percentile(&px, 0.5),
        100.0 * percentile(&frac, 0.5),
        percentile(&px, 0.9),
        100.0 * percentile(&frac, 0.9),
        within(0.02),
        within(0.05),
    );
}

/// A CSV row: the photo's path and its four marked corners.
fn parse(line: &str) -> Option<(PathBuf, [(f32, f32); 4])> {
    let fields: Vec<&str> = line
        .split(',')
        .map(|f| f.trim().trim_matches('"'))
        .collect();
    if fields.len() != 9 {
        return None;
    }
    let v: Vec<f32> = fields[1..].iter().filter_map(|f| f.parse().ok()).collect();
    (v.len() == 8).then(|| {
        let corners = std::array::from_fn(|i| (v[2 * i], v[2 * i + 1]));
        (PathBuf::from(fields[0]), corners)
    })
}

/// The mean distance between `found` and `marked` corners under the best matching of their
/// orders (any starting corner, either direction), in pixels and as a fraction of the marked
/// grid's mean side.
fn corner_error(found: &[(f32, f32); 4], marked: &[(f32, f32); 4]) -> (f32, f32) {
    let dist = |a: (f32, f32), b: (f32, f32)| ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt();
    let best = (0..4)
        .flat_map(|start| [(start, 1), (start, 3)])
        .map(|(start, step)| {
            (0..4)
                .map(|i| dist(found[i], marked[(start + step * i) % 4]))
                .sum::<f32>()
                / 4.0
        })
        .fold(f32::MAX, f32::min);
    let side = (0..4)
        .map(|i| dist(marked[i], marked[(i + 1) % 4]))
        .sum::<f32>()
        / 4.0;
    (best, best / side.max(1.0))
}

/// The value at fraction `q` of sorted `values` (nearest rank); 0 for none.
fn percentile(values: &[f32], q: f32) -> f32 {
    if values.is_empty() {
        return 0.0;
    }
    let i = ((values.len() as f32 * q).ceil() as usize).clamp(1, values.len()) - 1;
    values[i]
}
