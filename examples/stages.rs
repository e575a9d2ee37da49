//! Runs one stage of the image pipeline N times on the phone sample, for profilers that count
//! instructions (valgrind's callgrind), whose counts do not drift with the machine's load:
//!
//! ```text
//! cargo build --release --example stages
//! RAYON_NUM_THREADS=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null \
//!     target/release/examples/stages STAGE N
//! ```
//!
//! A stage's instructions per call are (count for N = 3 - count for N = 1) / 2, which cancels
//! the set-up. STAGE is one of locate, rectify, cells, recognize, render, or all (read, solve
//! and render, as the pipeline bench's "beyond decode + encode"). Prints the mean wall time.
//! A third argument names another picture than the phone sample (one with a grid that solves).

use std::path::{Path, PathBuf};
use std::time::Instant;

use image::{GrayImage, RgbImage};
use sudoku_snap::budget::Budget;
use sudoku_snap::puzzle::solve::Verdict;
use sudoku_snap::stages;
use sudoku_snap::stages::Templates;
use sudoku_snap::{Board, Options, Snap};

const PHONE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/samples/phone-1170x2532.png");

/// Everything the stages take, made once.
struct Inputs {
    image: RgbImage,
    quad: stages::Quad,
    rectified: stages::Rectified,
    cells: stages::Cells,
    templates: Templates,
    snap: Snap,
    solution: Board,
    path: PathBuf,
}

fn solve(snap: &Snap, image: &RgbImage, path: &Path) -> (sudoku_snap::Reading, Board) {
    let reading = snap.read(image, path).expect("the picture has a grid");
    let solved = stages::solve_reading(
        &reading.givens,
        &reading.evidence,
        &reading.rivals,
        2,
        &Budget::unlimited(),
    );
    let Ok(Verdict::Unique(solution)) = solved.verdict else {
        panic!("the picture must solve");
    };
    (reading, solution)
}

fn run(stage: &str, inputs: &Inputs, canvas: &mut RgbImage) {
    use std::hint::black_box;
    match stage {
        "locate" => drop(black_box(stages::locate(&inputs.image).ok())),
        "rectify" => drop(black_box(stages::rectify(&inputs.image, &inputs.quad))),
        "cells" => {
            let mut cells = stages::slice(&inputs.rectified, &inputs.image);
            stages::tell_authors(&mut cells);
            drop(black_box(cells))
        }
        "recognize" => {
            let inks: Vec<&GrayImage> = inputs
                .cells
                .glyphs
                .iter()
                .flatten()
                .map(|g| &g.ink)
                .collect();
            drop(black_box(inputs.templates.recognize_all(&inks)));
        }
        "render" => {
            let (rect, cells) = (&inputs.rectified, &inputs.cells);
            black_box(stages::draw_answer(
                canvas,
                rect,
                cells,
                &inputs.solution,
                None,
            ));
        }
        "all" => {
            let (reading, solution) = solve(&inputs.snap, &inputs.image, &inputs.path);
            let (rect, cells) = (&reading.rectified, &reading.cells);
            black_box(stages::draw_answer(canvas, rect, cells, &solution, None));
        }
        other => panic!("unknown stage {other}"),
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let stage = args.next().unwrap_or_else(|| "all".into());
    let n: usize = args
        .next()
        .map_or(100, |s| s.parse().expect("N is a number"));
    let path = PathBuf::from(args.next().unwrap_or_else(|| PHONE.into()));
    let bytes = std::fs::read(&path).expect("the picture reads");
    let image = stages::decode_bytes(&bytes, &path, u64::MAX)
        .expect("the sample decodes")
        .into_rgb();
    let snap = Snap::new(Options::default()).expect("the bundled templates load");
    let (reading, solution) = solve(&snap, &image, &path);
    let quad = reading.rectified.quad;
    let inputs = Inputs {
        cells: reading.cells,
        rectified: reading.rectified,
        templates: Templates::load(None).expect("the bundled templates load"),
        quad,
        snap,
        solution,
        image,
        path,
    };
    let mut canvas = inputs.image.clone();
    let started = Instant::now();
    for _ in 0..n {
        run(&stage, &inputs, &mut canvas);
    }
    let ms = started.elapsed().as_secs_f64() * 1000.0 / n.max(1) as f64;
    eprintln!("{stage}: {ms:.3} ms per call over {n}");
}
