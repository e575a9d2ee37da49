//! The solver's tests: answers on the shared puzzle sets, edge cases, random puzzles.

use super::*;
use crate::puzzle::board::{Digit, Pos};
use crate::test_data::shared_puzzles;
use proptest::prelude::*;

/// Every `step`-th puzzle of a file in the shared puzzle folder (`.` or `0` for empty cells);
/// `None` when the file is missing outside CI (see [`shared_puzzles`]).
fn sample(file: &str, step: usize) -> Option<Vec<Board>> {
    let text = shared_puzzles(file)?;
    let puzzles = text
        .lines()
        .filter(|line| line.len() >= 81 && !line.starts_with('#'))
        .step_by(step)
        .map(parse)
        .collect();
    Some(puzzles)
}

fn parse(line: &str) -> Board {
    let mut bytes = [0u8; 81];
    for (byte, c) in bytes.iter_mut().zip(line.bytes()) {
        *byte = if c.is_ascii_digit() { c - b'0' } else { 0 };
    }
    Board::from_bytes(bytes).expect("digits are 0-9")
}

const SOLVED: &str =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

#[test]
fn one_search_gives_what_solve_and_count_give() {
    let mut few = parse(SOLVED);
    // Emptied until it has many solutions; a unique puzzle, and an unsolvable one.
    for i in 0..40 {
        few.set(Pos::from_index(i * 2).unwrap(), None);
    }
    let unique: Board =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
            .parse()
            .unwrap();
    let mut none = unique;
    none.set(Pos::from_index(2).unwrap(), Digit::new(4));
    for board in [few, unique, none, Board::empty()] {
        for limit in [0, 1, 2, 7, 50] {
            assert_eq!(
                first_and_count(&board, limit),
                solve(&board).and_then(|f| Ok((f, count_solutions(&board, limit)?))),
                "{board} limit {limit}"
            );
        }
    }
}

#[test]
fn proper_puzzles_have_a_unique_valid_solution() {
    for (file, step) in [
        ("magictour_top1465.txt", 5),
        ("17_clue.txt", 160),
        ("forum_hardest_1905_11plus.txt", 160),
        ("forum_hardest_1106.txt", 1),
    ] {
        let Some(puzzles) = sample(file, step) else {
            return;
        };
        assert!(puzzles.len() >= 290, "{file}");
        for puzzle in puzzles {
            let solution = solve(&puzzle).unwrap().expect("solvable");
            assert!(solution.solves(&puzzle), "{file}: {puzzle}");
            assert_eq!(
                check(&puzzle).unwrap(),
                Verdict::Unique(solution),
                "{puzzle}"
            );
            assert_eq!(first_and_count(&puzzle, 2), Ok((Some(solution), 1)));
        }
    }
}

/// Counts solutions up to `limit` by plain backtracking on the cell with the fewest
/// candidates: slow, but too simple to share a mistake with the band solver.
fn reference_count(cells: &mut [u8; 81], limit: usize) -> usize {
    let mut best: Option<(usize, u16)> = None;
    for index in (0..81).filter(|&i| cells[i] == 0) {
        let (row, col) = (index / 9, index % 9);
        let mut used = 0u16;
        for (other, &digit) in cells.iter().enumerate() {
            let (r, c) = (other / 9, other % 9);
            let peer = r == row || c == col || (r / 3 == row / 3 && c / 3 == col / 3);
            if peer && digit != 0 {
                used |= 1 << digit;
            }
        }
        let free = !used & 0b11_1111_1110;
        if best.is_none_or(|(_, b)| free.count_ones() < b.count_ones()) {
            best = Some((index, free));
        }
    }
    let Some((index, free)) = best else {
        return 1; // no empty cell left: the givens were checked consistent on the way
    };
    let mut count = 0;
    for digit in (1..=9u8).filter(|d| free & 1 << d != 0) {
        cells[index] = digit;
        count += reference_count(cells, limit - count);
        if count >= limit {
            break;
        }
    }
    cells[index] = 0;
    count
}

#[test]
fn counts_agree_with_plain_backtracking_on_changed_puzzles() {
    // Proper puzzles as they are (one solution), with givens taken away (several) and with a
    // wrong digit added in an empty cell that clashes with no given (none, found only by
    // searching).
    let mut checked = [0usize; 3];
    let Some(puzzles) = sample("magictour_top1465.txt", 12) else {
        return;
    };
    for (n, puzzle) in puzzles.into_iter().enumerate() {
        let solution = solve(&puzzle).unwrap().unwrap().to_bytes();
        let original = puzzle.to_bytes();
        let givens: Vec<usize> = (0..81).filter(|&i| original[i] != 0).collect();
        let mut fewer = original;
        for &index in givens.iter().skip(n % 5).step_by(4) {
            fewer[index] = 0;
        }
        let mut wrong = original;
        let empty = (0..81).filter(|&i| wrong[i] == 0).nth(n % 20).unwrap();
        wrong[empty] = solution[empty] % 9 + 1;
        for bytes in [original, fewer, wrong] {
            let board = Board::from_bytes(bytes).unwrap();
            if board.first_conflict().is_some() {
                continue;
            }
            let expected = reference_count(&mut bytes.clone(), 20);
            assert_eq!(count_solutions(&board, 20), Ok(expected), "{board}");
            let listed = solutions(&board, 20).unwrap();
            assert_eq!(listed.len(), expected, "{board}");
            assert!(listed.iter().all(|s| s.solves(&board)), "{board}");
            checked[expected.min(2)] += 1;
        }
    }
    // The changes must give every kind of answer, or the test proves little.
    assert!(checked.iter().all(|&n| n >= 10), "{checked:?}");
}

/// On a cpu with x86-64-v3 every other test runs the search's copy compiled for it; this one
/// keeps the portable copy checked as well: the same solutions, in the same order.
#[test]
fn the_portable_search_finds_what_the_dispatched_one_finds() {
    let Some(puzzles) = sample("magictour_top1465.txt", 12) else {
        return;
    };
    for (n, puzzle) in puzzles.into_iter().enumerate() {
        let original = puzzle.to_bytes();
        let mut fewer = original;
        for index in (0..81).filter(|&i| original[i] != 0).skip(n % 3).step_by(3) {
            fewer[index] = 0;
        }
        for board in [puzzle, Board::from_bytes(fewer).unwrap()] {
            let mut found = Vec::new();
            search_portable(load_givens(&board).unwrap(), &mut |state| {
                found.push(state.board());
                found.len() >= 20
            });
            assert_eq!(found, solutions(&board, 20).unwrap(), "{board}");
        }
    }
}

#[test]
fn serg_puzzles_have_several_solutions() {
    let Some(puzzles) = sample("serg_benchmark.txt", 500) else {
        return;
    };
    for puzzle in puzzles {
        assert_eq!(count_solutions(&puzzle, 2).unwrap(), 2, "{puzzle}");
        match check(&puzzle).unwrap() {
            Verdict::Multiple(first) => assert!(first.solves(&puzzle)),
            other => panic!("{puzzle}: {other:?}"),
        }
    }
}

#[test]
fn clashing_givens_report_the_first_pair() {
    let mut board = Board::empty();
    let put = |board: &mut Board, row, col, digit| {
        board.set(Pos::new(row, col).unwrap(), Digit::new(digit));
    };
    put(&mut board, 8, 0, 3);
    put(&mut board, 8, 8, 3); // row clash, found late by the masks
    put(&mut board, 0, 0, 5);
    put(&mut board, 1, 1, 5); // box clash with an earlier first cell
    let conflict = solve(&board).unwrap_err();
    assert_eq!(Some(conflict), board.first_conflict());
    assert_eq!((conflict.first.index(), conflict.second.index()), (0, 10));
    assert_eq!(count_solutions(&board, 0), Err(conflict));
    assert_eq!(solutions(&board, 3), Err(conflict));
    assert_eq!(check(&board), Err(conflict));
}

#[test]
fn empty_board_has_many_distinct_solutions() {
    let empty = Board::empty();
    assert_eq!(count_solutions(&empty, 50).unwrap(), 50);
    let found = solutions(&empty, 20).unwrap();
    assert_eq!(found.len(), 20);
    for (i, grid) in found.iter().enumerate() {
        assert!(grid.solves(&empty));
        assert!(!found[..i].contains(grid), "duplicate solution {grid}");
    }
    assert_eq!(
        solutions(&empty, 20).unwrap(),
        found,
        "order is deterministic"
    );
    assert!(matches!(check(&empty).unwrap(), Verdict::Multiple(g) if g == found[0]));
}

#[test]
fn a_full_valid_grid_is_its_own_unique_solution() {
    let grid = parse(SOLVED);
    assert_eq!(check(&grid).unwrap(), Verdict::Unique(grid));
    assert_eq!(solve(&grid).unwrap(), Some(grid));
    assert_eq!(solutions(&grid, 5).unwrap(), vec![grid]);
}

#[test]
fn a_dead_cell_without_clashing_givens_is_unsolvable() {
    // r1c9 sees 1-8 in its row and 9 in its column.
    let puzzle = parse(&format!("12345678.{}9{}", ".".repeat(17), ".".repeat(54)));
    assert!(puzzle.first_conflict().is_none());
    assert_eq!(check(&puzzle).unwrap(), Verdict::Unsolvable);
    assert_eq!(solve(&puzzle).unwrap(), None);
    assert_eq!(count_solutions(&puzzle, 2).unwrap(), 0);
    assert!(solutions(&puzzle, 2).unwrap().is_empty());
}

#[test]
fn zero_limits_find_nothing() {
    let empty = Board::empty();
    assert_eq!(count_solutions(&empty, 0).unwrap(), 0);
    assert!(solutions(&empty, 0).unwrap().is_empty());
}

/// A valid grid from `SOLVED` by relabelling digits and shuffling rows inside bands and
/// columns inside stacks (each keeps a grid valid).
fn shuffled_grid(digits: &[u8], rows: &[usize], cols: &[usize]) -> [u8; 81] {
    let base = parse(SOLVED).to_bytes();
    let mut out = [0u8; 81];
    for (index, cell) in out.iter_mut().enumerate() {
        let (row, col) = (index / 9, index % 9);
        let from_row = row / 3 * 3 + rows[row / 3 * 3 + row % 3] % 3;
        let from_col = col / 3 * 3 + cols[col / 3 * 3 + col % 3] % 3;
        *cell = digits[usize::from(base[from_row * 9 + from_col] - 1)];
    }
    out
}

fn permutation(n: usize) -> impl Strategy<Value = Vec<usize>> {
    Just((0..n).collect::<Vec<_>>()).prop_shuffle()
}

proptest! {
    #[test]
    fn solutions_keep_the_givens_of_random_puzzles(
        digits in Just((1..=9u8).collect::<Vec<_>>()).prop_shuffle(),
        band_rows in [permutation(3), permutation(3), permutation(3)],
        stack_cols in [permutation(3), permutation(3), permutation(3)],
        keep in prop::collection::vec(any::<bool>(), 81),
    ) {
        let rows: Vec<usize> = band_rows.concat();
        let cols: Vec<usize> = stack_cols.concat();
        let grid = shuffled_grid(&digits, &rows, &cols);
        prop_assert!(Board::from_bytes(grid).unwrap().first_conflict().is_none());
        let mut bytes = grid;
        for (byte, keep) in bytes.iter_mut().zip(&keep) {
            if !keep {
                *byte = 0;
            }
        }
        let puzzle = Board::from_bytes(bytes).unwrap();
        let solution = solve(&puzzle).unwrap().expect("the grid itself solves it");
        prop_assert!(solution.solves(&puzzle));
        let listed = solutions(&puzzle, 3).unwrap();
        prop_assert_eq!(listed[0], solution);
        prop_assert!(listed.iter().all(|s| s.solves(&puzzle)));
        prop_assert_eq!(count_solutions(&puzzle, 3).unwrap(), listed.len());
    }
}
