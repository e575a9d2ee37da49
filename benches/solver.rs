//! Puzzles per second of the uniqueness check (`count_solutions(.., 2)`), single-threaded,
//! one criterion group per puzzle file of `../shared/data/puzzles` (relative to the crate root).
//!
//! Compare the figures with the `sudoku` crate measured in the same session by
//! `shared/tools/solver-peers` (mode `count2`), as ratios: absolute numbers move with the machine.
//! `benches/solver.sh` does that comparison in one run, for the whole `solve` command too.

use criterion::{criterion_group, criterion_main, Criterion, SamplingMode, Throughput};
use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;
use sudoku_snap::puzzle::board::Board;
use sudoku_snap::puzzle::solve;

/// File stem and how many puzzles from its start are timed. The two large files (about 49,000
/// puzzles each) are cut to their first 5,000 so that one pass stays under a second and the whole
/// bench takes about a minute; top1465 is timed whole.
const FILES: [(&str, usize); 3] = [
    ("magictour_top1465", usize::MAX),
    ("17_clue", 5000),
    ("forum_hardest_1905_11plus", 5000),
];

/// The first `limit` puzzles of `stem`, one 81-character line each, `.` or `0` for an empty cell.
fn load(stem: &str, limit: usize) -> Vec<Board> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/data/puzzles")
        .join(format!("{stem}.txt"));
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.lines()
        .map(str::trim_end)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .take(limit)
        .map(|line| {
            Board::from_bytes(line_to_bytes(line))
                .unwrap_or_else(|| panic!("{}: bad line {line:?}", path.display()))
        })
        .collect()
}

/// An 81-character puzzle line as board bytes: digits 1-9 stay, anything else is empty (0).
fn line_to_bytes(line: &str) -> [u8; 81] {
    assert_eq!(line.len(), 81, "a puzzle line has 81 characters: {line:?}");
    let mut bytes = [0u8; 81];
    for (byte, c) in bytes.iter_mut().zip(line.bytes()) {
        if let b'1'..=b'9' = c {
            *byte = c - b'0';
        }
    }
    bytes
}

fn count_to_two(c: &mut Criterion) {
    for (stem, limit) in FILES {
        let puzzles = load(stem, limit);
        // A speed figure means nothing if the answers are wrong: every puzzle here is proper.
        for puzzle in &puzzles {
            assert_eq!(solve::count_solutions(puzzle, 2), Ok(1), "{stem}: {puzzle}");
        }
        let mut group = c.benchmark_group(stem);
        group.throughput(Throughput::Elements(puzzles.len() as u64));
        // One iteration is a whole pass (up to a few hundred ms): flat sampling, few samples.
        group
            .sampling_mode(SamplingMode::Flat)
            .sample_size(10)
            .measurement_time(Duration::from_secs(10));
        group.bench_function("count2", |b| {
            b.iter(|| {
                for puzzle in &puzzles {
                    black_box(solve::count_solutions(black_box(puzzle), 2).ok());
                }
            })
        });
        group.finish();
    }
}

criterion_group!(benches, count_to_two);
criterion_main!(benches);
