//! The 9x9 board model: digits, cell positions, houses and the check for clashing givens.
//! It depends on nothing else in the crate.
//!
//! Cells are numbered row-major; boxes left to right, top to bottom:
//!
//! ```text
//!  0  1  2 |  3  4  5 |  6  7  8      box 0 | box 1 | box 2
//!  9 10 11 | 12 13 14 | 15 16 17      ------+-------+------
//! 18 19 20 | 21 22 23 | 24 25 26      box 3 | box 4 | box 5
//! ---------+----------+---------      ------+-------+------
//! 27 ...                              box 6 | box 7 | box 8
//! ```

use std::fmt;
use std::num::NonZeroU8;

/// A digit 1-9.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Digit(NonZeroU8);

impl Digit {
    /// The digit `n`, or `None` unless `1 <= n <= 9`.
    pub const fn new(n: u8) -> Option<Digit> {
        match NonZeroU8::new(n) {
            Some(d) if n <= 9 => Some(Digit(d)),
            _ => None,
        }
    }

    /// The digit's value, 1-9.
    pub const fn get(self) -> u8 {
        self.0.get()
    }

    /// The digit as an ASCII character `'1'..='9'`.
    pub const fn to_char(self) -> char {
        (b'0' + self.get()) as char
    }

    /// The digit's bit in a 9-bit candidate mask (bit 0 is digit 1).
    pub const fn bit(self) -> u16 {
        1 << (self.get() - 1)
    }

    /// All nine digits in increasing order.
    pub fn all() -> impl Iterator<Item = Digit> {
        (1..=9).filter_map(Digit::new)
    }
}

impl fmt::Display for Digit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.get())
    }
}

/// Debugged as displayed (`3`), so a report's or a board's debug output reads like the tool's.
impl fmt::Debug for Digit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A cell's position, row and column 0-8. Displayed 1-based as `r3c5`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pos(u8);

impl Pos {
    /// The cell at `index` (0-80, row-major), or `None` when out of range.
    pub const fn from_index(index: usize) -> Option<Pos> {
        if index < 81 {
            Some(Pos(index as u8))
        } else {
            None
        }
    }

    /// The cell at `row`, `col` (both 0-8), or `None` when out of range.
    pub const fn new(row: usize, col: usize) -> Option<Pos> {
        if row < 9 && col < 9 {
            Some(Pos((row * 9 + col) as u8))
        } else {
            None
        }
    }

    /// Row-major index 0-80.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Row 0-8.
    pub const fn row(self) -> usize {
        self.index() / 9
    }

    /// Column 0-8.
    pub const fn col(self) -> usize {
        self.index() % 9
    }

    /// Box 0-8, numbered left to right, top to bottom.
    pub const fn box_index(self) -> usize {
        (self.row() / 3) * 3 + self.col() / 3
    }

    /// All 81 positions in row-major order.
    pub fn all() -> impl Iterator<Item = Pos> {
        (0..81u8).map(Pos)
    }

    /// Whether two different cells share a row, column or box.
    pub const fn sees(self, other: Pos) -> bool {
        self.0 != other.0
            && (self.row() == other.row()
                || self.col() == other.col()
                || self.box_index() == other.box_index())
    }
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "r{}c{}", self.row() + 1, self.col() + 1)
    }
}

/// Debugged as displayed (`r3c5`), not as its index.
impl fmt::Debug for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Two givens with the same digit in one row, column or box.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Conflict {
    /// The earlier cell (row-major).
    pub first: Pos,
    /// The later cell.
    pub second: Pos,
    /// The digit both hold.
    pub digit: Digit,
}

impl fmt::Display for Conflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let house = if self.first.row() == self.second.row() {
            "row"
        } else if self.first.col() == self.second.col() {
            "column"
        } else {
            "box"
        };
        write!(
            f,
            "{} and {} both hold {} in the same {house}",
            self.first, self.second, self.digit
        )
    }
}

impl std::error::Error for Conflict {}

/// The fewest givens a sudoku with one solution has (McGuire, Tugemann and Civario, 2012: no
/// 16-clue sudoku exists), so fewer digits than this are no puzzle.
pub const MIN_GIVENS: usize = 17;

/// A 9x9 sudoku board: each cell holds a digit or is empty.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    cells: [Option<Digit>; 81],
}

impl Default for Board {
    fn default() -> Self {
        Board::empty()
    }
}

impl Board {
    /// A board with every cell empty.
    pub const fn empty() -> Board {
        Board { cells: [None; 81] }
    }

    /// A board from 81 bytes, 0 for an empty cell and 1-9 for a digit;
    /// `None` when a byte is above 9.
    pub fn from_bytes(bytes: [u8; 81]) -> Option<Board> {
        let mut board = Board::empty();
        for (i, &b) in bytes.iter().enumerate() {
            if b > 9 {
                return None;
            }
            board.cells[i] = Digit::new(b);
        }
        Some(board)
    }

    /// The board as 81 bytes, 0 for an empty cell.
    pub fn to_bytes(&self) -> [u8; 81] {
        let mut out = [0u8; 81];
        for (o, c) in out.iter_mut().zip(self.cells.iter()) {
            *o = c.map_or(0, Digit::get);
        }
        out
    }

    /// The digit at `pos`, if any.
    pub fn get(&self, pos: Pos) -> Option<Digit> {
        self.cells[pos.index()]
    }

    /// Puts `digit` (or nothing) at `pos`.
    pub fn set(&mut self, pos: Pos, digit: Option<Digit>) {
        self.cells[pos.index()] = digit;
    }

    /// The 81 cells in row-major order.
    pub fn cells(&self) -> &[Option<Digit>; 81] {
        &self.cells
    }

    /// How many cells hold a digit.
    pub fn filled_count(&self) -> usize {
        self.cells.iter().filter(|c| c.is_some()).count()
    }

    /// Whether every cell holds a digit.
    pub fn is_full(&self) -> bool {
        self.cells.iter().all(Option::is_some)
    }

    /// The first pair of cells (row-major) that hold the same digit in one house.
    pub fn first_conflict(&self) -> Option<Conflict> {
        for a in Pos::all() {
            let Some(digit) = self.get(a) else { continue };
            for b in Pos::all().skip(a.index() + 1) {
                if self.get(b) == Some(digit) && a.sees(b) {
                    return Some(Conflict {
                        first: a,
                        second: b,
                        digit,
                    });
                }
            }
        }
        None
    }

    /// Whether `self` is a complete, valid grid that keeps every digit of `puzzle`.
    pub fn solves(&self, puzzle: &Board) -> bool {
        self.is_full()
            && self.first_conflict().is_none()
            && Pos::all().all(|p| puzzle.get(p).is_none() || puzzle.get(p) == self.get(p))
    }
}

/// The 81-character line: digits and `.` for empty cells.
impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let line: String = self
            .cells
            .iter()
            .map(|c| c.map_or('.', Digit::to_char))
            .collect();
        f.write_str(&line)
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_know_their_houses() {
        let p = Pos::new(4, 7).unwrap();
        assert_eq!((p.index(), p.row(), p.col(), p.box_index()), (43, 4, 7, 5));
        assert_eq!(p.to_string(), "r5c8");
        assert_eq!(format!("{p:?} {:?}", Digit::new(3).unwrap()), "r5c8 3");
        assert!(p.sees(Pos::new(3, 6).unwrap()));
        assert!(!p.sees(Pos::new(0, 0).unwrap()));
        assert!(!p.sees(p));
    }

    #[test]
    fn finds_the_first_clash() {
        let mut b = Board::empty();
        b.set(Pos::new(0, 0).unwrap(), Digit::new(5));
        b.set(Pos::new(1, 1).unwrap(), Digit::new(5));
        let c = b.first_conflict().unwrap();
        assert_eq!(
            (c.first.index(), c.second.index(), c.digit.get()),
            (0, 10, 5)
        );
        assert!(c.to_string().contains("same box"));
    }

    #[test]
    fn digit_range_is_checked() {
        assert!(Digit::new(0).is_none());
        assert!(Digit::new(10).is_none());
        assert_eq!(Digit::new(9).unwrap().bit(), 1 << 8);
    }
}
