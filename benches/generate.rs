//! Generator timing per difficulty: median and p99 of the time per puzzle over 1000 puzzles,
//! single-threaded. Criterion reports means and confidence intervals, not tail latency, so this
//! bench measures directly with `Instant` (criterion's harness is not used: `harness = false`).
//!
//! Run: `cargo bench --bench generate` (optionally `-- N` for another puzzle count).

use std::time::{Duration, Instant};

use sudoku_snap::puzzle::generate::{generate, GenerateOptions};
use sudoku_snap::puzzle::grade::Difficulty;

fn main() {
    let count: u64 = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(1000);
    println!("{count} puzzles per row, one thread, seed 2024, indices 0..{count}");
    println!("| request | median | p99 | max | mean attempts | mean givens |");
    println!("|---|---:|---:|---:|---:|---:|");
    let rows = [None]
        .into_iter()
        .chain(Difficulty::ALL.into_iter().map(Some));
    for difficulty in rows {
        let options = GenerateOptions {
            seed: 2024,
            difficulty,
            ..GenerateOptions::default()
        };
        let mut times = Vec::with_capacity(count as usize);
        let (mut attempts, mut givens) = (0u64, 0usize);
        for index in 0..count {
            let start = Instant::now();
            let g = generate(&options, index).expect("the default budget suffices");
            times.push(start.elapsed());
            attempts += u64::from(g.attempts);
            givens += g.puzzle.filled_count();
        }
        times.sort();
        let name = difficulty.map_or("any (dig to minimal)", |d| d.name());
        println!(
            "| {name} | {} | {} | {} | {:.1} | {:.1} |",
            ms(times[times.len() / 2]),
            ms(times[(times.len() * 99).div_ceil(100) - 1]),
            ms(times[times.len() - 1]),
            attempts as f64 / count as f64,
            givens as f64 / count as f64,
        );
    }
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1000.0)
}
