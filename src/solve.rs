//! The solver: finds, counts and lists the solutions of a [`Board`].
//!
//! # Representation
//!
//! The grid is cut into three bands of three rows. For every digit and band one 27-bit mask holds
//! the cells of the band where the digit may still go; bit `row_in_band * 9 + col`, so band `b`'s
//! bit `k` is the row-major cell `27 * b + k`. The 27 masks live in `cand[band * 9 + digit]`.
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
//! across the nine digit masks, and hidden singles in columns from counting a digit's cells per
//! column across the three bands. Masks that changed since their last update are found by
//! comparing all 27 with a saved copy, which is cheaper than tracking every write.
//!
//! # Search
//!
//! Depth-first: guess the first digit of a cell with the fewest candidates on a copy of the state
//! (a fixed-size array, no heap per node); when that branch is exhausted, remove the digit from the
//! cell and propagate again. Recursion depth is bounded by the 81 cells.

use std::ops::ControlFlow;

use crate::board::{Board, Conflict, Digit};

/// One bit for each of the 27 masks of a state.
const ALL_MASKS: u32 = (1 << 27) - 1;

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
        first = Some(state.board());
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

/// The first solution (as [`solve`] finds it) and the number of solutions up to `limit` (as
/// [`count_solutions`] counts them), from one search instead of two.
pub fn first_and_count(puzzle: &Board, limit: usize) -> Result<(Option<Board>, usize), Conflict> {
    if limit == 0 {
        return Ok((solve(puzzle)?, 0));
    }
    let mut first = None;
    let mut count = 0;
    search_puzzle(puzzle, |state| {
        count += 1;
        first.get_or_insert_with(|| state.board());
        count >= limit
    })?;
    Ok((first, count))
}

/// Every solution up to `cap` of them, in the solver's deterministic search order.
///
/// The list is held in memory (81 bytes a solution); to go through many solutions without
/// keeping them, use [`for_each_solution`].
pub fn solutions(puzzle: &Board, cap: usize) -> Result<Vec<Board>, Conflict> {
    let mut found = Vec::new();
    if cap == 0 {
        return load_givens(puzzle).map(|_| found);
    }
    for_each_solution(puzzle, |solution| {
        found.push(*solution);
        if found.len() >= cap {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    })?;
    Ok(found)
}

/// Hands every solution to `on_solution` as it is found, in the order of [`solutions`],
/// until `on_solution` breaks or the solutions run out. Nothing is kept between calls, so
/// memory stays flat however many solutions there are (an empty grid has about 6.7e21).
///
/// Givens that clash are reported as `Err` before any search.
///
/// # Examples
///
/// ```
/// use std::ops::ControlFlow;
/// use sudoku_snap::{solve, Board};
///
/// let empty = Board::empty();
/// let mut first_three = Vec::new();
/// solve::for_each_solution(&empty, |s| {
///     first_three.push(*s);
///     if first_three.len() == 3 { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
/// })?;
/// assert_eq!(first_three, solve::solutions(&empty, 3)?);
/// # Ok::<(), sudoku_snap::board::Conflict>(())
/// ```
pub fn for_each_solution(
    puzzle: &Board,
    mut on_solution: impl FnMut(&Board) -> ControlFlow<()>,
) -> Result<(), Conflict> {
    search_puzzle(puzzle, |state| on_solution(&state.board()).is_break())
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
        (Some(state), 1) => Verdict::Unique(state.board()),
        (Some(state), _) => Verdict::Multiple(state.board()),
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
/// The givens are gathered per digit and band first, and each mask is then written once: placing
/// them one by one cost as much as solving an easy puzzle. A clash is a given that a given of the
/// same digit sees; only then is the slower pairwise [`Board::first_conflict`] asked, so the
/// reported pair is the board's canonical one.
fn load_givens(puzzle: &Board) -> Result<State, Conflict> {
    let mut given = [0u32; 3];
    let mut of_digit = [0u32; 27];
    let mut seen_by = [0u32; 27];
    for (index, cell) in puzzle.cells().iter().enumerate() {
        let Some(digit) = cell else { continue };
        let (band, cell) = (index / 27, index % 27);
        let i = at(usize::from(digit.get() - 1), band);
        given[band] |= 1 << cell;
        of_digit[i] |= 1 << cell;
        seen_by[i] |= BAND_PEERS[cell];
    }
    let mut state = State::unconstrained();
    for digit in 0..9 {
        let columns = [0, 1, 2].map(|band| columns_of(of_digit[at(digit, band)]) * ROWS_OF_COLUMNS);
        for band in 0..3 {
            let i = at(digit, band);
            let other_columns = columns[(band + 1) % 3] | columns[(band + 2) % 3];
            let seen = seen_by[i] | other_columns;
            if of_digit[i] & seen != 0 {
                return Err(puzzle
                    .first_conflict()
                    .expect("a digit seen twice in a house is a conflict"));
            }
            state.cand[i] = BAND_FULL & !given[band] & !seen | of_digit[i];
        }
    }
    state.solved = given;
    Ok(state)
}

/// Depth-first search from `state`; returns `true` once `on_solution` asked to stop.
fn search(mut state: State, on_solution: &mut impl FnMut(&State) -> bool) -> bool {
    loop {
        let Some(bivalue) = state.propagate() else {
            return false;
        };
        if state.is_solved() {
            return on_solution(&state);
        }
        let (band, cell) = state.branch_cell(&bivalue);
        let digit = state.first_digit_at(band, cell);
        let mut guess = state;
        guess.place(digit, band, cell);
        if search(guess, on_solution) {
            return true;
        }
        // Every solution with `digit` there has been seen: rule it out and keep going here,
        // which lets propagation use the elimination instead of just trying the next digit.
        state.remove(at(digit, band), 1 << cell);
        if bivalue[band] & 1 << cell != 0 {
            // One digit is left there: place it now rather than have a propagation round
            // find the naked single.
            let other = state.first_digit_at(band, cell);
            state.place(other, band, cell);
        }
    }
}

/// Index of the mask of `digit` (0-8) in `band` (0-2): band-major, so a band's nine digits are
/// neighbours in memory and clearing a cell from all of them is one short straight loop.
const fn at(digit: usize, band: usize) -> usize {
    band * 9 + digit
}

/// Candidate masks of the whole grid; see the module docs for the layout.
#[derive(Clone, Copy)]
struct State {
    /// `cand[at(digit, band)]`: cells of the band where the digit may go.
    cand: [u32; 27],
    /// Bit `i` set when `cand[i]` lost cells since its last `update` (an update of an unchanged
    /// mask would do nothing). Set by the changes made outside the updates; the updates hand
    /// theirs back instead, so the hot loop keeps them in a register.
    pending: u32,
    /// Per band, the cells whose digit is decided (its only candidate).
    solved: [u32; 3],
}

impl State {
    /// Every digit possible everywhere, every mask due for an update.
    fn unconstrained() -> State {
        State {
            cand: [BAND_FULL; 27],
            pending: ALL_MASKS,
            solved: [0; 3],
        }
    }

    /// Removes `cells` from `cand[i]`, marking it for an update if that changed it.
    fn remove(&mut self, i: usize, cells: u32) {
        self.pending |= u32::from(self.cand[i] & cells != 0) << i;
        self.cand[i] &= !cells;
    }

    /// Removes `cells` from every digit of `band`; returns the masks that changed (bit per mask).
    fn clear_from_band(&mut self, band: usize, cells: u32) -> u32 {
        let mut changed = 0;
        for (digit, mask) in self.cand[band * 9..band * 9 + 9].iter_mut().enumerate() {
            changed |= u32::from(*mask & cells != 0) << digit;
            *mask &= !cells;
        }
        changed << (band * 9)
    }

    /// Puts `digit` (0-8) at `cell` (0-26) of `band` and removes it from the cell's peers.
    fn place(&mut self, digit: usize, band: usize, cell: usize) {
        let bit = 1 << cell;
        let own = at(digit, band);
        self.pending |= self.clear_from_band(band, bit) | 1 << own;
        self.cand[own] = (self.cand[own] & !BAND_PEERS[cell]) | bit;
        let column = ROWS_OF_COLUMNS << (cell % 9);
        self.remove(at(digit, (band + 1) % 3), column);
        self.remove(at(digit, (band + 2) % 3), column);
        self.solved[band] |= bit;
    }

    /// Whether every cell is decided.
    fn is_solved(&self) -> bool {
        self.solved[0] & self.solved[1] & self.solved[2] == BAND_FULL
    }

    /// Applies all eliminations until nothing changes; `None` on a contradiction, else each
    /// band's undecided cells with two candidates (found on the way, for the next guess).
    fn propagate(&mut self) -> Option<[u32; 3]> {
        let mut bivalue = [0; 3];
        loop {
            if !self.update_changed_masks() {
                return None;
            }
            if self.apply_naked_singles(&mut bivalue)? {
                continue;
            }
            if !self.apply_column_hidden_singles()? {
                return Some(bivalue);
            }
        }
    }

    /// Runs `update` on every changed mask, until none has changed.
    fn update_changed_masks(&mut self) -> bool {
        let mut batch = std::mem::take(&mut self.pending);
        while batch != 0 {
            let mut next = 0;
            while batch != 0 {
                let i = batch.trailing_zeros() as usize;
                batch &= batch - 1;
                next &= !(1 << i);
                let Some(touched) = self.update(i) else {
                    return false;
                };
                // A mask still waiting in this pass gets its update then.
                next |= touched & !batch;
            }
            batch = next;
        }
        true
    }

    /// The in-band eliminations for one digit and band (see the module docs); `None` when the
    /// digit no longer fits in the band, else the other masks it changed (bit per mask).
    fn update(&mut self, i: usize) -> Option<u32> {
        let band = i / 9;
        let mut mask = self.cand[i];
        let minirows = ROW_BOXES[(mask & 0x1ff) as usize]
            | ROW_BOXES[(mask >> 9 & 0x1ff) as usize] << 3
            | ROW_BOXES[(mask >> 18) as usize] << 6;
        mask &= MATCHABLE_CELLS[minirows as usize];
        if mask == 0 {
            return None;
        }
        let columns = (mask | mask >> 9 | mask >> 18) & 0x1ff;
        let locked = u32::from(LOCKED_COLUMNS[columns as usize]) * ROWS_OF_COLUMNS;
        // The same digit in the next two bands: `i + 9` and `i + 18`, wrapped around 27.
        let next = if i >= 18 { i - 18 } else { i + 9 };
        let after = if next >= 18 { next - 18 } else { next + 9 };
        let mut touched = u32::from(self.cand[next] & locked != 0) << next
            | u32::from(self.cand[after] & locked != 0) << after;
        self.cand[next] &= !locked;
        self.cand[after] &= !locked;

        let newly_solved = row_singles(mask) & !self.solved[band];
        if newly_solved != 0 {
            self.solved[band] |= newly_solved;
            touched |= self.clear_from_band(band, newly_solved);
        }
        // The table step is idempotent, so this mask needs no second update.
        self.cand[i] = mask;
        Some(touched & !(1 << i))
    }

    /// Decides cells left with one candidate. `None` on a cell with no candidate or two
    /// singles that clash; otherwise whether anything was decided. When nothing was, `bivalue`
    /// holds each band's undecided cells with two candidates.
    fn apply_naked_singles(&mut self, bivalue: &mut [u32; 3]) -> Option<bool> {
        let mut found = false;
        for (band, pairs) in bivalue.iter_mut().enumerate() {
            let (once, twice, thrice) = self.candidate_counts(band);
            if once != BAND_FULL {
                return None;
            }
            *pairs = twice & !thrice & !self.solved[band];
            let singles = once & !twice & !self.solved[band];
            if singles == 0 {
                continue;
            }
            found = true;
            self.solved[band] |= singles;
            for digit in 0..9 {
                let i = at(digit, band);
                let mut todo = self.cand[i] & singles;
                while todo != 0 {
                    let cell = todo.trailing_zeros() as usize;
                    if self.cand[i] & 1 << cell == 0 {
                        return None; // a single placed just before sees this one
                    }
                    self.remove(i, BAND_PEERS[cell]);
                    todo &= todo - 1;
                }
            }
        }
        Some(found)
    }

    /// Places each digit whose column has one cell left for it: the in-band tables see rows and
    /// boxes but not whole columns. `None` when a digit has no cell left in some column, or two
    /// such singles clash.
    fn apply_column_hidden_singles(&mut self) -> Option<bool> {
        let mut found = false;
        for digit in 0..9 {
            let masks = [
                self.cand[digit],
                self.cand[9 + digit],
                self.cand[18 + digit],
            ];
            if columns_of(masks[0] | masks[1] | masks[2]) != 0x1ff {
                return None;
            }
            let open = [0, 1, 2].map(|band| masks[band] & !self.solved[band]);
            // Count per column: first the three bands cell by cell, then the three rows.
            let [x, y, z] = open;
            let (any, several) = (x | y | z, x & y | x & z | y & z);
            let (r0, r1, r2) = (any & 0x1ff, any >> 9 & 0x1ff, any >> 18);
            let twice = columns_of(several) | r0 & r1 | r0 & r2 | r1 & r2;
            let lone_columns = ((r0 | r1 | r2) & !twice) * ROWS_OF_COLUMNS;
            if lone_columns == 0 {
                continue;
            }
            for (band, cells) in open.iter().enumerate() {
                let mut singles = cells & lone_columns;
                while singles != 0 {
                    let cell = singles.trailing_zeros() as usize;
                    if self.cand[at(digit, band)] & 1 << cell == 0 {
                        return None; // an earlier single of this loop sees this one
                    }
                    self.place(digit, band, cell);
                    found = true;
                    singles &= singles - 1;
                }
            }
        }
        Some(found)
    }

    /// Cells of `band` with at least one, two and three candidate digits.
    fn candidate_counts(&self, band: usize) -> (u32, u32, u32) {
        let (mut once, mut twice, mut thrice) = (0, 0, 0);
        for &mask in &self.cand[band * 9..band * 9 + 9] {
            thrice |= twice & mask;
            twice |= once & mask;
            once |= mask;
        }
        (once, twice, thrice)
    }

    /// An undecided cell with the fewest candidates, as (band, cell): among the bivalue cells,
    /// the one that sees the most undecided cells. Either of its digits then removes candidates
    /// from many cells, so each branch propagates further; on the hard sets this halves the
    /// number of guesses against taking the first bivalue cell.
    /// `bivalue` holds each band's undecided cells with two candidates.
    fn branch_cell(&self, bivalue: &[u32; 3]) -> (usize, usize) {
        let open = self.solved.map(|solved| !solved & BAND_FULL);
        let mut best = None;
        let mut best_score = 0;
        for (band, &cells) in bivalue.iter().enumerate() {
            let mut cells = cells;
            while cells != 0 {
                let cell = cells.trailing_zeros() as usize;
                cells &= cells - 1;
                let score = open_peers(&open, band, cell);
                if score > best_score {
                    best_score = score;
                    best = Some((band, cell));
                }
            }
        }
        best.unwrap_or_else(|| self.fewest_candidates_cell())
    }

    /// The slow path of `branch_cell`: count candidates cell by cell, stop at three (the least
    /// possible once there is no single or bivalue cell).
    fn fewest_candidates_cell(&self) -> (usize, usize) {
        let mut best = (0, 0, u32::MAX);
        for band in 0..3 {
            let mut open = !self.solved[band] & BAND_FULL;
            while open != 0 {
                let cell = open.trailing_zeros() as usize;
                let count = (0..9)
                    .filter(|&digit| self.cand[at(digit, band)] & 1 << cell != 0)
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
            .find(|&digit| self.cand[at(digit, band)] & 1 << cell != 0)
            .expect("an undecided cell keeps a candidate after propagation")
    }

    /// The grid of a solved state.
    fn board(&self) -> Board {
        let mut bytes = [0u8; 81];
        for (i, &mask) in self.cand.iter().enumerate() {
            let (band, digit) = (i / 9, i % 9);
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

/// How many undecided cells `cell` of `band` sees (its row, box and column), plus one so that
/// a cell seeing none still scores above nothing. `open` holds each band's undecided cells.
fn open_peers(open: &[u32; 3], band: usize, cell: usize) -> u32 {
    let column = ROWS_OF_COLUMNS << (cell % 9);
    let in_band = open[band] & BAND_PEERS[cell];
    // The column's cells in the two other bands, the second set shifted one bit so the two
    // never overlap and one popcount takes both.
    let other_bands = open[(band + 1) % 3] & column | (open[(band + 2) % 3] & column) << 1;
    (u64::from(in_band) | u64::from(other_bands) << 32).count_ones() + 1
}

/// Cells that are alone in their row of the band.
fn row_singles(mask: u32) -> u32 {
    u32::from(LONE_CELL[(mask & 0x1ff) as usize])
        | u32::from(LONE_CELL[(mask >> 9 & 0x1ff) as usize]) << 9
        | u32::from(LONE_CELL[(mask >> 18) as usize]) << 18
}

/// For a row's 9 bits, which of its three boxes hold a bit (3 bits).
static ROW_BOXES: [u16; 512] = row_boxes_table();

/// The columns (9 bits) in which a band mask has a cell.
fn columns_of(mask: u32) -> u32 {
    (mask | mask >> 9 | mask >> 18) & 0x1ff
}

/// For a row's 9 bits, the row itself when it has exactly one bit, else 0.
static LONE_CELL: [u16; 512] = lone_cell_table();

/// For a 9-bit mini-row set (bit `row * 3 + box`), the cells (27-bit band mask) of the
/// mini-rows that lie on a one-to-one matching of the three rows to the three boxes; 0 when
/// there is no matching.
static MATCHABLE_CELLS: [u32; 512] = matchable_cells_table();

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

const fn lone_cell_table() -> [u16; 512] {
    let mut table = [0u16; 512];
    let mut row = 0;
    while row < 512 {
        if (row as u32).count_ones() == 1 {
            table[row] = row as u16;
        }
        row += 1;
    }
    table
}

const fn matchable_cells_table() -> [u32; 512] {
    let matchable = matchable_table();
    let cells = minirow_cells_table();
    let mut table = [0u32; 512];
    let mut set = 0;
    while set < 512 {
        table[set] = cells[matchable[set] as usize];
        set += 1;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Pos;
    use proptest::prelude::*;

    /// Every `step`-th puzzle of a file in the shared puzzle folder (`.` or `0` for empty cells).
    fn sample(file: &str, step: usize) -> Vec<Board> {
        let path = format!(
            "{}/../shared/data/puzzles/{file}",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        text.lines()
            .filter(|line| line.len() >= 81 && !line.starts_with('#'))
            .step_by(step)
            .map(parse)
            .collect()
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
            ("magictour_top1465.txt", 97),
            ("17_clue.txt", 2500),
            ("forum_hardest_1905_11plus.txt", 2500),
            ("forum_hardest_1106.txt", 25),
        ] {
            let puzzles = sample(file, step);
            assert!(puzzles.len() >= 10, "{file}");
            for puzzle in puzzles {
                let solution = solve(&puzzle).unwrap().expect("solvable");
                assert!(solution.solves(&puzzle), "{file}: {puzzle}");
                assert_eq!(
                    check(&puzzle).unwrap(),
                    Verdict::Unique(solution),
                    "{puzzle}"
                );
            }
        }
    }

    #[test]
    fn serg_puzzles_have_several_solutions() {
        for puzzle in sample("serg_benchmark.txt", 500) {
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
}
