//! Puzzles per second of `solve::first_and_count(.., 2)` over a puzzle file, timed the way
//! `shared/tools/solver-peers` times its solvers (whole passes for at least a second, three
//! runs, median), so the two rates can be set side by side.
//!
//! `cargo run --release --example solver_rate -- FILE [LIMIT]`
use std::hint::black_box;
use std::time::Instant;
use sudoku_snap::puzzle::board::Board;
use sudoku_snap::puzzle::solve;

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: solver_rate FILE [LIMIT]");
    let limit: usize = args
        .next()
        .map_or(usize::MAX, |l| l.parse().expect("a number"));
    let text = std::fs::read_to_string(&path).expect("readable file");
    let puzzles: Vec<Board> = text
        .lines()
        .filter(|l| l.len() >= 81 && !l.starts_with('#'))
        .take(limit)
        .map(|l| {
            let mut bytes = [0u8; 81];
            for (b, c) in bytes.iter_mut().zip(l.bytes()) {
                *b = if c.is_ascii_digit() { c - b'0' } else { 0 };
            }
            Board::from_bytes(bytes).expect("digits")
        })
        .collect();
    for p in &puzzles {
        assert_eq!(solve::count_solutions(p, 2), Ok(1), "{p}");
    }
    let mut rates = Vec::new();
    for _ in 0..3 {
        let start = Instant::now();
        let mut done = 0usize;
        while start.elapsed().as_secs_f64() < 1.0 {
            for p in &puzzles {
                black_box(solve::first_and_count(black_box(p), 2).ok());
            }
            done += puzzles.len();
        }
        rates.push(done as f64 / start.elapsed().as_secs_f64());
    }
    let mut sorted = rates.clone();
    sorted.sort_by(f64::total_cmp);
    println!(
        "{path}: {} puzzles, runs {:.0} / {:.0} / {:.0}, median {:.0} puzzles/s",
        puzzles.len(),
        rates[0],
        rates[1],
        rates[2],
        sorted[1]
    );
}
