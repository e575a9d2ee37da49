//! The solver on samples of the benchmark files in `../shared/data/puzzles` (every Nth line, so
//! a release build takes seconds): proper puzzles get their unique, valid solution; Serg's
//! benchmark puzzles are reported as having two or more solutions.

use sudoku_snap::puzzle::solve::{self, Verdict};

use super::util::{board, sample_lines, scaled_step, shared_puzzles};

/// Samples `name` every `step` lines and checks each puzzle has exactly one valid solution.
fn proper_puzzles_solve_uniquely(name: &str, step: usize) {
    let Some(path) = shared_puzzles(name) else {
        return;
    };
    let sample = sample_lines(&path, scaled_step(step));
    assert!(!sample.is_empty());
    for (line, text) in &sample {
        let puzzle = board(text);
        match solve::check(&puzzle) {
            Ok(Verdict::Unique(s)) => assert!(s.solves(&puzzle), "{name}:{line}: bad solution {s}"),
            other => panic!("{name}:{line}: expected a unique solution, got {other:?}"),
        }
        let first = solve::solve(&puzzle).unwrap().unwrap();
        assert!(first.solves(&puzzle), "{name}:{line}: solve() gave {first}");
    }
}

#[test]
fn clue_17_samples() {
    proper_puzzles_solve_uniquely("17_clue.txt", 10);
}

#[test]
fn magictour_top1465_samples() {
    proper_puzzles_solve_uniquely("magictour_top1465.txt", 1);
}

#[test]
fn forum_hardest_1106_all() {
    proper_puzzles_solve_uniquely("forum_hardest_1106.txt", 1);
}

#[test]
fn forum_hardest_1905_11plus_samples() {
    proper_puzzles_solve_uniquely("forum_hardest_1905_11plus.txt", 10);
}

#[test]
fn serg_benchmark_samples_have_two_or_more_solutions() {
    let Some(path) = shared_puzzles("serg_benchmark.txt") else {
        return;
    };
    for (line, text) in sample_lines(&path, scaled_step(5)) {
        let puzzle = board(&text);
        assert_eq!(
            solve::count_solutions(&puzzle, 2),
            Ok(2),
            "serg_benchmark.txt:{line}"
        );
        let two = solve::solutions(&puzzle, 2).unwrap();
        assert_eq!(two.len(), 2, "serg_benchmark.txt:{line}");
        assert_ne!(two[0], two[1], "serg_benchmark.txt:{line}");
        assert!(
            two.iter().all(|s| s.solves(&puzzle)),
            "serg_benchmark.txt:{line}"
        );
        assert!(
            matches!(solve::check(&puzzle), Ok(Verdict::Multiple(s)) if s.solves(&puzzle)),
            "serg_benchmark.txt:{line}"
        );
    }
}
