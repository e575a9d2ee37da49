//! The solver: finds, counts and lists the solutions of a [`Board`].
//!
//! # Representation
//!
//! The grid is cut into three bands of three rows. For every digit and band one 27-bit mask holds
//! the cells of the band where the digit may still go; bit `row_in_band * 9 + col`, so band `b`'s
//! bit `k` is the row-major cell `27 * b + k`. The 27 masks live in `cand[digit * 3 + band]`.
//! This is the layout of the JCZSolve family of solvers, written here from the idea alone.
//!
//! ```text
//!   band 0: rows 0-2      bit  0 ..  8 = row 0 of the band, columns 0-8
//!   band 1: rows 3-5      bit  9 .. 17 = row 1 of the band
//!   band 2: rows 6-8      bit 18 .. 26 = row 2 of the band
//! ```
//!
//! # Propagation
//!
//! One digit in one band must take one cell in each of the band's three rows and three boxes, so
//! its "mini-rows" (a row's three cells inside one box) must be chosen as a one-to-one matching of
//! rows to boxes. A table keeps only the mini-rows that belong to some matching; that does row and
//! box eliminations, locked candidates inside the band and hidden singles in rows and boxes in one
//! lookup. A box whose candidates sit in one column locks that column in the other two bands.
//! A row left with one cell is solved; naked singles come from counting candidates per cell
//! across the nine digit masks.
//!
//! # Search
//!
//! Depth-first: guess the first digit of a cell with the fewest candidates on a copy of the state
//! (a fixed-size array, no heap per node); when that branch is exhausted, remove the digit from the
//! cell and propagate again. Recursion depth is bounded by the 81 cells.

use crate::board::{Board, Conflict, Digit};

/// All 27 cells of a band.
const BAND_FULL: u32 = (1 << 27) - 1;

/// Copies a 9-bit column mask into all three rows of a band.
const ROWS_OF_COLUMNS: u32 = 1 | 1 << 9 | 1 << 18;

/// The result of a uniqueness check.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Verdict {
    /// Exactly one solution, given here.
    Unique(Board),
    /// Two or more solutions; this is the first one found.
    Multiple(Board),
    /// No solution.
    Unsolvable,
}

/// The first solution found, `None` when there is none.
///
/// Givens that clash are reported as `Err` before any search.
pub fn solve(puzzle: &Board) -> Result<Option<Board>, Conflict> {
    let mut first = None;
    search_puzzle(puzzle, |state| {
        first = Some(state.to_board());
        true
    })?;
    Ok(first)
}

/// The number of solutions, counting stops at `limit` (so `limit = 2` answers "is it unique?").
pub fn count_solutions(puzzle: &Board, limit: usize) -> Result<usize, Conflict> {
    let mut count = 0;
    if limit == 0 {
        // still report clashing givens, but search for nothing
        return load_givens(puzzle).map(|_| 0);
    }
    search_puzzle(puzzle, |_| {
        count += 1;
        count >= limit
    })?;
    Ok(count)
}

/// Every solution up to `cap` of them, in the solver's deterministic search order.
pub fn solutions(puzzle: &Board, cap: usize) -> Result<Vec<Board>, Conflict> {
    let mut found = Vec::new();
    if cap == 0 {
        return load_givens(puzzle).map(|_| found);
    }
    search_puzzle(puzzle, |state| {
        found.push(state.to_board());
        found.len() >= cap
    })?;
    Ok(found)
}

/// Counts solutions up to two and keeps the first: unique, multiple or unsolvable.
pub fn check(puzzle: &Board) -> Result<Verdict, Conflict> {
    let mut first: Option<State> = None;
    let mut count = 0;
    search_puzzle(puzzle, |state| {
        count += 1;
        first.get_or_insert(*state);
        count >= 2
    })?;
    Ok(match (first, count) {
        (Some(state), 1) => Verdict::Unique(state.to_board()),
        (Some(state), _) => Verdict::Multiple(state.to_board()),
        (None, _) => Verdict::Unsolvable,
    })
}

/// Loads the givens and runs the search; `on_solution` returns `true` to stop.
fn search_puzzle(
    puzzle: &Board,
    mut on_solution: impl FnMut(&State) -> bool,
) -> Result<(), Conflict> {
    let state = load_givens(puzzle)?;
    search(state, &mut on_solution);
    Ok(())
}

/// The search state after loading givens, or the first clash among them.
///
/// Clashes are spotted with row/column/box masks while loading; only then is the slower
/// pairwise [`Board::first_conflict`] asked, so the reported pair is the board's canonical one.
fn load_givens(puzzle: &Board) -> Result<State, Conflict> {
    let mut state = State::unconstrained();
    let (mut rows, mut cols, mut boxes) = ([0u16; 9], [0u16; 9], [0u16; 9]);
    for (index, cell) in puzzle.cells().iter().enumerate() {
        let Some(digit) = cell else { continue };
        let (r, c) = (index / 9, index % 9);
        let b = r / 3 * 3 + c / 3;
        let bit = digit.bit();
        if (rows[r] | cols[c] | boxes[b]) & bit != 0 {
            return Err(puzzle
                .first_conflict()
                .expect("a digit seen twice in a house is a conflict"));
        }
        rows[r] |= bit;
        cols[c] |= bit;
        boxes[b] |= bit;
        state.place(usize::from(digit.get() - 1), index / 27, index % 27);
    }
    Ok(state)
}

/// Depth-first search from `state`; returns `true` once `on_solution` asked to stop.
fn search(mut state: State, on_solution: &mut impl FnMut(&State) -> bool) -> bool {
    loop {
        if !state.propagate() {
            return false;
        }
        if state.is_solved() {
            return on_solution(&state);
        }
        let (band, cell) = state.branch_cell();
        let digit = state.first_digit_at(band, cell);
        let mut guess = state;
        guess.place(digit, band, cell);
        if search(guess, on_solution) {
            return true;
        }
        // Every solution with `digit` there has been seen: rule it out and keep going here,
        // which lets propagation use the elimination instead of just trying the next digit.
        state.cand[digit * 3 + band] &= !(1 << cell);
    }
}

/// Candidate masks of the whole grid; see the module docs for the layout.
#[derive(Clone, Copy)]
struct State {
    /// `cand[digit * 3 + band]`: cells of the band where the digit may go.
    cand: [u32; 27],
    /// The value `cand[i]` had when it last went through `update`, so unchanged masks are skipped.
    seen: [u32; 27],
    /// Per band, the cells whose digit is decided (its only candidate).
    solved: [u32; 3],
}

impl State {
    /// Every digit possible everywhere; `seen` differs from `cand` so every mask gets updated.
    fn unconstrained() -> State {
        State {
            cand: [BAND_FULL; 27],
            seen: [0; 27],
            solved: [0; 3],
        }
    }

    /// Puts `digit` (0-8) at `cell` (0-26) of `band` and removes it from the cell's peers.
    fn place(&mut self, digit: usize, band: usize, cell: usize) {
        let bit = 1 << cell;
        for other_digit in 0..9 {
            self.cand[other_digit * 3 + band] &= !bit;
        }
        let own = digit * 3 + band;
        self.cand[own] = (self.cand[own] & !BAND_PEERS[cell]) | bit;
        let column = ROWS_OF_COLUMNS << (cell % 9);
        for other_band in [(band + 1) % 3, (band + 2) % 3] {
            self.cand[digit * 3 + other_band] &= !column;
        }
        self.solved[band] |= bit;
    }

    /// Whether every cell is decided.
    fn is_solved(&self) -> bool {
        self.solved[0] & self.solved[1] & self.solved[2] == BAND_FULL
    }

    /// Applies all eliminations until nothing changes; `false` on a contradiction.
    fn propagate(&mut self) -> bool {
        loop {
            if !self.update_changed_masks() {
                return false;
            }
            match self.apply_naked_singles() {
                None => return false,
                Some(false) => return true,
                Some(true) => continue,
            }
        }
    }

    /// Runs `update` on every mask that changed since its last update, until none has.
    fn update_changed_masks(&mut self) -> bool {
        loop {
            let mut changed = false;
            for i in 0..27 {
                if self.cand[i] != self.seen[i] {
                    if !self.update(i) {
                        return false;
                    }
                    changed = true;
                }
            }
            if !changed {
                return true;
            }
        }
    }

    /// The in-band eliminations for one digit and band (see the module docs); `false` when the
    /// digit no longer fits in the band.
    fn update(&mut self, i: usize) -> bool {
        let band = i % 3;
        let mut mask = self.cand[i];
        let minirows = ROW_BOXES[(mask & 0x1ff) as usize]
            | ROW_BOXES[(mask >> 9 & 0x1ff) as usize] << 3
            | ROW_BOXES[(mask >> 18) as usize] << 6;
        mask &= MINIROW_CELLS[MATCHABLE[minirows as usize] as usize];
        if mask == 0 {
            return false;
        }
        let columns = (mask | mask >> 9 | mask >> 18) & 0x1ff;
        let locked = u32::from(LOCKED_COLUMNS[columns as usize]) * ROWS_OF_COLUMNS;
        let first_of_digit = i - band;
        self.cand[first_of_digit + (band + 1) % 3] &= !locked;
        self.cand[first_of_digit + (band + 2) % 3] &= !locked;

        let newly_solved = row_singles(mask) & !self.solved[band];
        if newly_solved != 0 {
            self.solved[band] |= newly_solved;
            for other in (band..27).step_by(3) {
                self.cand[other] &= !newly_solved;
            }
        }
        self.cand[i] = mask;
        self.seen[i] = mask;
        true
    }

    /// Decides cells left with one candidate. `None` on a cell with no candidate or two
    /// singles that clash; otherwise whether anything was decided.
    fn apply_naked_singles(&mut self) -> Option<bool> {
        let mut found = false;
        for band in 0..3 {
            let (once, twice, _) = self.candidate_counts(band);
            if once != BAND_FULL {
                return None;
            }
            let singles = once & !twice & !self.solved[band];
            if singles == 0 {
                continue;
            }
            found = true;
            self.solved[band] |= singles;
            for i in (band..27).step_by(3) {
                let mut todo = self.cand[i] & singles;
                while todo != 0 {
                    let cell = todo.trailing_zeros() as usize;
                    if self.cand[i] & 1 << cell == 0 {
                        return None; // a single placed just before sees this one
                    }
                    self.cand[i] &= !BAND_PEERS[cell];
                    todo &= todo - 1;
                }
            }
        }
        Some(found)
    }

    /// Cells of `band` with at least one, two and three candidate digits.
    fn candidate_counts(&self, band: usize) -> (u32, u32, u32) {
        let (mut once, mut twice, mut thrice) = (0, 0, 0);
        for i in (band..27).step_by(3) {
            let mask = self.cand[i];
            thrice |= twice & mask;
            twice |= once & mask;
            once |= mask;
        }
        (once, twice, thrice)
    }

    /// An undecided cell with the fewest candidates, as (band, cell); bivalue cells first.
    fn branch_cell(&self) -> (usize, usize) {
        for band in 0..3 {
            let (_, twice, thrice) = self.candidate_counts(band);
            let bivalue = twice & !thrice & !self.solved[band];
            if bivalue != 0 {
                return (band, bivalue.trailing_zeros() as usize);
            }
        }
        self.fewest_candidates_cell()
    }

    /// The slow path of `branch_cell`: count candidates cell by cell, stop at three (the least
    /// possible once there is no single or bivalue cell).
    fn fewest_candidates_cell(&self) -> (usize, usize) {
        let mut best = (0, 0, u32::MAX);
        for band in 0..3 {
            let mut open = !self.solved[band] & BAND_FULL;
            while open != 0 {
                let cell = open.trailing_zeros() as usize;
                let count = (band..27)
                    .step_by(3)
                    .filter(|&i| self.cand[i] & 1 << cell != 0)
                    .count() as u32;
                if count < best.2 {
                    best = (band, cell, count);
                    if count <= 3 {
                        return (band, cell);
                    }
                }
                open &= open - 1;
            }
        }
        (best.0, best.1)
    }

    /// The lowest digit (0-8) still possible at `cell` of `band`.
    fn first_digit_at(&self, band: usize, cell: usize) -> usize {
        (0..9)
            .find(|&digit| self.cand[digit * 3 + band] & 1 << cell != 0)
            .expect("an undecided cell keeps a candidate after propagation")
    }

    /// The grid of a solved state.
    fn to_board(&self) -> Board {
        let mut bytes = [0u8; 81];
        for (i, &mask) in self.cand.iter().enumerate() {
            let (digit, band) = (i / 3, i % 3);
            let mut cells = mask;
            while cells != 0 {
                bytes[band * 27 + cells.trailing_zeros() as usize] = digit as u8 + 1;
                cells &= cells - 1;
            }
        }
        let board = Board::from_bytes(bytes).expect("digits are 1-9");
        debug_assert!(board.cells().iter().all(Option::<Digit>::is_some));
        board
    }
}

/// Cells that are alone in their row of the band (a mask with no empty row).
fn row_singles(mask: u32) -> u32 {
    let mut singles = 0;
    for shift in [0, 9, 18] {
        let row = mask >> shift & 0x1ff;
        if row & row.wrapping_sub(1) == 0 {
            singles |= row << shift;
        }
    }
    singles
}

/// For a row's 9 bits, which of its three boxes hold a bit (3 bits).
static ROW_BOXES: [u16; 512] = row_boxes_table();

/// For a 9-bit mini-row set (bit `row * 3 + box`), the mini-rows that lie on a one-to-one
/// matching of the three rows to the three boxes; 0 when there is no matching.
static MATCHABLE: [u16; 512] = matchable_table();

/// For a 9-bit mini-row set, its cells as a 27-bit band mask.
static MINIROW_CELLS: [u32; 512] = minirow_cells_table();

/// For a band's 9-bit column set of one digit, the columns that are the only one of their box:
/// the digit's place in that box is in that column, so the other bands lose the column.
static LOCKED_COLUMNS: [u16; 512] = locked_columns_table();

/// For each of a band's 27 cells, its other cells in the same row, box or column of the band.
static BAND_PEERS: [u32; 27] = band_peers_table();

const fn row_boxes_table() -> [u16; 512] {
    let mut table = [0u16; 512];
    let mut row = 0;
    while row < 512 {
        let mut bx = 0;
        while bx < 3 {
            if row >> (3 * bx) & 7 != 0 {
                table[row] |= 1 << bx;
            }
            bx += 1;
        }
        row += 1;
    }
    table
}

const fn matchable_table() -> [u16; 512] {
    // The six ways to give rows 0, 1, 2 distinct boxes.
    const MATCHINGS: [[usize; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut table = [0u16; 512];
    let mut set = 0;
    while set < 512 {
        let mut m = 0;
        while m < 6 {
            let boxes = MATCHINGS[m];
            let used = 1 << boxes[0] | 1 << (3 + boxes[1]) | 1 << (6 + boxes[2]);
            if set & used == used {
                table[set] |= used as u16;
            }
            m += 1;
        }
        set += 1;
    }
    table
}

const fn minirow_cells_table() -> [u32; 512] {
    let mut table = [0u32; 512];
    let mut set = 0;
    while set < 512 {
        let mut minirow = 0;
        while minirow < 9 {
            if set >> minirow & 1 != 0 {
                let (row, bx) = (minirow / 3, minirow % 3);
                table[set] |= 7 << (row * 9 + bx * 3);
            }
            minirow += 1;
        }
        set += 1;
    }
    table
}

const fn locked_columns_table() -> [u16; 512] {
    let mut table = [0u16; 512];
    let mut columns: usize = 0;
    while columns < 512 {
        let mut bx = 0;
        while bx < 3 {
            let in_box = (columns >> (3 * bx)) & 7;
            if in_box.count_ones() == 1 {
                table[columns] |= (in_box << (3 * bx)) as u16;
            }
            bx += 1;
        }
        columns += 1;
    }
    table
}

const fn band_peers_table() -> [u32; 27] {
    let mut table = [0u32; 27];
    let mut cell = 0;
    while cell < 27 {
        let mut other = 0;
        while other < 27 {
            let same_row = cell / 9 == other / 9;
            let same_col = cell % 9 == other % 9;
            let same_box = cell % 9 / 3 == other % 9 / 3;
            if other != cell && (same_row || same_col || same_box) {
                table[cell] |= 1 << other;
            }
            other += 1;
        }
        cell += 1;
    }
    table
}
