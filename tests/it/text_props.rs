//! Property tests for the text formats and the solver on random puzzles: every layout we write
//! reads back as the same board (also as CSV with CRLF and a BOM, and many puzzles in one text),
//! and a puzzle cut from a valid grid always gets a solution that keeps its givens.

use proptest::prelude::*;
use sudoku_snap::puzzle::board::{Board, Digit, Pos};
use sudoku_snap::puzzle::solve::{self, Verdict};
use sudoku_snap::puzzle::text::{self, parse_all, parse_one};

/// A shuffled `0..n`.
fn permutation(n: usize) -> impl Strategy<Value = Vec<usize>> {
    Just((0..n).collect::<Vec<_>>()).prop_shuffle()
}

/// Where row (or column) `i` comes from: bands (stacks) permuted, then rows inside each band.
fn line_map(outer: &[usize], inner: &[Vec<usize>; 3], i: usize) -> usize {
    outer[i / 3] * 3 + inner[i / 3][i % 3]
}

prop_compose! {
    /// A valid full grid: a pattern grid under the validity-preserving symmetries (digit
    /// relabelling, band/stack and row/column-in-band permutations, transposition).
    fn permuted_grid()(
        digits in permutation(9),
        bands in permutation(3),
        rows in [permutation(3), permutation(3), permutation(3)],
        stacks in permutation(3),
        cols in [permutation(3), permutation(3), permutation(3)],
        transpose in any::<bool>(),
    ) -> Board {
        let mut b = Board::empty();
        for pos in Pos::all() {
            let (r, c) = if transpose { (pos.col(), pos.row()) } else { (pos.row(), pos.col()) };
            let (r, c) = (line_map(&bands, &rows, r), line_map(&stacks, &cols, c));
            let pattern = (r * 3 + r / 3 + c) % 9;
            b.set(pos, Digit::new(digits[pattern] as u8 + 1));
        }
        b
    }
}

/// A valid full grid found by solving a few random non-clashing givens.
fn solved_random_givens() -> impl Strategy<Value = Board> {
    prop::collection::vec((0..81usize, 1..=9u8), 0..12).prop_filter_map(
        "givens clash or have no solution",
        |givens| {
            let mut b = Board::empty();
            for (cell, digit) in givens {
                b.set(Pos::from_index(cell)?, Digit::new(digit));
            }
            solve::solve(&b).ok().flatten()
        },
    )
}

fn solved_grid() -> impl Strategy<Value = Board> {
    prop_oneof![permuted_grid(), solved_random_givens()]
}

/// A hole pattern: each cell is emptied with a random probability from 0 (full) to 1 (empty).
fn holes() -> impl Strategy<Value = Vec<bool>> {
    (0.0..=1.0f64).prop_flat_map(|p| prop::collection::vec(prop::bool::weighted(p), 81))
}

/// `grid` with the cells marked in `holes` emptied.
fn puzzle_from(grid: &Board, holes: &[bool]) -> Board {
    let mut b = *grid;
    for (pos, &hole) in Pos::all().zip(holes) {
        if hole {
            b.set(pos, None);
        }
    }
    b
}

fn puzzle() -> impl Strategy<Value = (Board, Board)> {
    (solved_grid(), holes()).prop_map(|(grid, h)| (grid, puzzle_from(&grid, &h)))
}

proptest! {
    #[test]
    fn generated_grids_are_valid(grid in solved_grid()) {
        prop_assert!(grid.solves(&Board::empty()), "{grid}");
    }

    #[test]
    fn line_round_trips((_, b) in puzzle()) {
        let line = text::to_line(&b);
        prop_assert_eq!(line.len(), 81);
        prop_assert_eq!(parse_one(&line), Ok(b));
    }

    #[test]
    fn pretty_round_trips((_, b) in puzzle()) {
        let pretty = text::to_pretty(&b);
        prop_assert_eq!(parse_one(&pretty), Ok(b));
        prop_assert_eq!(parse_one(&pretty.replace('\n', "\r\n")), Ok(b));
    }

    #[test]
    fn csv_round_trips_with_crlf_and_bom((_, b) in puzzle()) {
        let csv = text::to_csv(&b);
        let crlf = csv.replace('\n', "\r\n");
        for variant in [
            csv.clone(),
            crlf.clone(),
            format!("\u{feff}{csv}"),
            format!("\u{feff}{crlf}"),
            csv.replace(',', ";"),
        ] {
            prop_assert_eq!(parse_one(&variant), Ok(b), "{:?}", variant);
        }
    }

    #[test]
    fn many_puzzles_in_mixed_layouts_read_in_order(
        (_, a) in puzzle(), (_, b) in puzzle(), (_, c) in puzzle(),
    ) {
        let text = format!(
            "\u{feff}# three puzzles\r\n{}\n\n{}\n# csv next\n{}\n{}\n",
            text::to_line(&a),
            text::to_pretty(&b),
            text::to_csv(&c),
            text::to_line(&a),
        );
        let read: Vec<Board> = parse_all(&text).into_iter().map(|p| p.board.unwrap()).collect();
        prop_assert_eq!(read, vec![a, b, c, a]);
    }

    #[test]
    fn solver_keeps_the_givens((grid, b) in puzzle()) {
        let solution = solve::solve(&b).unwrap().expect("a grid with holes is solvable");
        prop_assert!(solution.solves(&b), "{} does not solve {}", solution, b);
        match solve::check(&b).unwrap() {
            Verdict::Unique(s) => prop_assert_eq!(s, grid, "the only solution is the grid"),
            Verdict::Multiple(s) => {
                prop_assert!(s.solves(&b));
                prop_assert_eq!(solve::count_solutions(&b, 2), Ok(2));
            }
            Verdict::Unsolvable => prop_assert!(false, "{} has a solution", b),
        }
    }
}

#[test]
fn long_dash_rule_between_bands_is_a_separator() {
    // Regression: a rule of 30+ dashes was read as a one-line puzzle of the wrong length.
    let b: Board =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
            .parse()
            .unwrap();
    let wide = text::to_pretty(&b).replace("------+-------+------", &"-".repeat(40));
    assert_eq!(parse_one(&wide), Ok(b));
    // 81 dashes are still the empty board.
    assert_eq!(parse_one(&"-".repeat(81)), Ok(Board::empty()));
}
