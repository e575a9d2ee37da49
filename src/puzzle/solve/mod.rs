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
//! column across the three bands. Each update hands back the masks it changed, and the few
//! changes made elsewhere (placing a digit, a single) mark theirs, so nothing has to compare
//! masks to find what is left to update. The work that runs over a band's nine digits at once
//! (clearing solved cells, the column counts) goes four digits to a `wide` vector, and the hot
//! paths avoid branches the data decides (a row single, a given), which mispredicted often.
//!
//! # Search
//!
//! Depth-first on a copy of the state (a fixed-size array, no heap per node). The guess is a
//! cell with two candidates, the one that sees the most undecided cells: either digit there
//! removes candidates from many cells, which halves the guesses on hard puzzles against taking
//! the first such cell. When the first digit's branch is exhausted, the other digit is placed
//! (in the rare cell of three or more, the digit is removed) and propagation goes on. Recursion depth is bounded by the 81 cells.
//!
//! The search and the state's methods (all inlined into it) are compiled twice: once for any
//! x86-64 cpu, once for x86-64-v3 (Haswell, Zen and later), picked at run time after asking
//! the cpu. Bit scans, shifts and counts without flag dependencies and AVX's three-operand
//! vectors run the same search ~10 % faster (BENCHMARKS.md). This is the crate's one `unsafe`:
//! calling the copy compiled for features the cpu was just checked to have.
//!
//! The module: this file holds the public functions, the loading of givens and the search;
//! `state` the masks and their propagation; `tables` the lookup tables, built at compile time.

use std::ops::ControlFlow;

use crate::puzzle::board::{Board, Conflict};

use state::{at, State};
use tables::{columns_of, BAND_FULL, BAND_PEERS, ROWS_OF_COLUMNS};

mod state;
mod tables;
#[cfg(test)]
mod tests;

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
/// use sudoku_snap::{puzzle::solve, Board};
///
/// let empty = Board::empty();
/// let mut first_three = Vec::new();
/// solve::for_each_solution(&empty, |s| {
///     first_three.push(*s);
///     if first_three.len() == 3 { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
/// })?;
/// assert_eq!(first_three, solve::solutions(&empty, 3)?);
/// # Ok::<(), sudoku_snap::puzzle::board::Conflict>(())
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
    let bytes = puzzle.to_bytes();
    // Which cells hold a given, without a branch per cell (one for each of the ~60 empty
    // cells of a hard puzzle went mispredicted often enough to cost ~5 % on 17_clue); then
    // only the givens are visited.
    let given = [0, 1, 2].map(|band| {
        let cells = &bytes[band * 27..band * 27 + 27];
        (0..27).fold(0u32, |mask, cell| {
            mask | u32::from(cells[cell] != 0) << cell
        })
    });
    let mut of_digit = [0u32; 27];
    let mut seen_by = [0u32; 27];
    for (band, &cells) in given.iter().enumerate() {
        let mut cells = cells;
        while cells != 0 {
            let cell = cells.trailing_zeros() as usize;
            cells &= cells - 1;
            let i = at(usize::from(bytes[band * 27 + cell] - 1), band);
            of_digit[i] |= 1 << cell;
            seen_by[i] |= BAND_PEERS[cell];
        }
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

/// Writes the depth-first search as a function of the given name and attributes, so that one
/// body serves both the portable build and the copy compiled for newer x86-64 cpus
/// ([`search_x86_64_v3`]). The search recurses into the function it defines.
macro_rules! depth_first_search {
    (fn $name:ident) => {
        depth_first_search!(@define [] [] $name);
    };
    ($(#[$attr:meta])* unsafe fn $name:ident) => {
        depth_first_search!(@define [$(#[$attr])*] [unsafe] $name);
    };
    (@define [$($attrs:tt)*] [$($unsafety:tt)*] $name:ident) => {
        /// Depth-first search from `state`; returns `true` once `on_solution` asked to stop.
        $($attrs)*
        $($unsafety)* fn $name(mut state: State, on_solution: &mut impl FnMut(&State) -> bool) -> bool {
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
                if $name(guess, on_solution) {
                    return true;
                }
                // Every solution with `digit` there has been seen: rule it out and keep going
                // here, which lets propagation use the elimination instead of just trying the
                // next digit.
                state.remove(at(digit, band), 1 << cell);
                if bivalue[band] & 1 << cell != 0 {
                    // One digit is left there: place it now rather than have a propagation
                    // round find the naked single.
                    let other = state.first_digit_at(band, cell);
                    state.place(other, band, cell);
                }
            }
        }
    };
}

depth_first_search!(fn search_portable);

// The x86-64-v3 instructions (BMI1/2's shifts, bit scans and resets without flag dependencies,
// a hardware popcount for the guess choice, AVX's three-operand vector forms for the `wide`
// steps) make the same search faster: `benches/solver.sh`, whole `solve` processes against the
// `sudoku` crate's loop, went from 1.40x to 1.54-1.57x on top1465 and from 1.41x to 1.61-1.64x
// on 11plus (BENCHMARKS.md), which is what the `unsafe` call below buys.
// The state's methods are `#[inline(always)]` so that they are compiled into this copy.
#[cfg(target_arch = "x86_64")]
depth_first_search!(
    #[allow(unsafe_code)]
    #[target_feature(enable = "avx2,bmi1,bmi2,fma,lzcnt,movbe,popcnt")]
    unsafe fn search_x86_64_v3
);

/// Depth-first search from `state` with the fastest copy this cpu runs; `true` once
/// `on_solution` asked to stop.
fn search(state: State, on_solution: &mut impl FnMut(&State) -> bool) -> bool {
    #[cfg(target_arch = "x86_64")]
    if has_x86_64_v3() {
        // SAFETY: the cpu has every feature the function is compiled for (checked just now).
        #[allow(unsafe_code)]
        return unsafe { search_x86_64_v3(state, on_solution) };
    }
    search_portable(state, on_solution)
}

/// Whether this cpu has the x86-64-v3 features `search_x86_64_v3` is compiled for; the
/// standard library caches the answer after the first call.
#[cfg(target_arch = "x86_64")]
fn has_x86_64_v3() -> bool {
    std::arch::is_x86_feature_detected!("avx2")
        && std::arch::is_x86_feature_detected!("bmi1")
        && std::arch::is_x86_feature_detected!("bmi2")
        && std::arch::is_x86_feature_detected!("fma")
        && std::arch::is_x86_feature_detected!("lzcnt")
        && std::arch::is_x86_feature_detected!("movbe")
        && std::arch::is_x86_feature_detected!("popcnt")
}
