//! Hints: the next logical step(s) of a puzzle, found by the grader's human techniques, as
//! a person would take them: one placement at a time, each with the technique and the house
//! that make it certain.
//!
//! Singles are looked for the way people scan: a digit with one place left in a box, then in
//! a row, then in a column, then a cell with one candidate left. When no single is there, the
//! grader's easiest eliminating technique is applied (it places nothing) and named in the
//! next hint's `after`, since that placement is only visible once those candidates are gone.

use std::fmt;

use serde::{Serialize, Serializer};

use crate::puzzle::board::{Board, Digit, Pos};
use crate::puzzle::grade::{Grid, Technique, HOUSES};

/// A row, column or box, numbered 1-9 (boxes left to right, top to bottom).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum House {
    /// A row, 1-9 from the top.
    Row(u8),
    /// A column, 1-9 from the left.
    Column(u8),
    /// A 3x3 box, 1-9 left to right, top to bottom.
    Box(u8),
}

impl House {
    /// The house of the grader's numbering: rows 0-8, columns 9-17, boxes 18-26.
    fn from_index(i: usize) -> House {
        let n = (i % 9) as u8 + 1;
        match i / 9 {
            0 => House::Row(n),
            1 => House::Column(n),
            _ => House::Box(n),
        }
    }
}

impl fmt::Display for House {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            House::Row(n) => write!(f, "row {n}"),
            House::Column(n) => write!(f, "column {n}"),
            House::Box(n) => write!(f, "box {n}"),
        }
    }
}

/// One placement a person can make next, and why it is certain.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Hint {
    /// The cell to fill, as `r3c5` in JSON.
    #[serde(serialize_with = "crate::puzzle::check::display")]
    pub cell: Pos,
    /// The digit that goes there.
    #[serde(serialize_with = "crate::puzzle::check::digit")]
    pub digit: Digit,
    /// The single that places it: [`Technique::HiddenSingle`] or [`Technique::NakedSingle`]
    /// (its key in JSON, e.g. `hidden_single`).
    #[serde(serialize_with = "technique")]
    pub technique: Technique,
    /// For a hidden single, the house where the digit has one place left; `None` for a
    /// naked single (the cell itself has one candidate left).
    #[serde(serialize_with = "house")]
    pub house: Option<House>,
    /// Eliminating techniques applied since the previous placement, without which this
    /// single is not visible (empty for most hints).
    #[serde(serialize_with = "techniques")]
    pub after: Vec<Technique>,
}

impl Hint {
    /// The reason in words, e.g. `hidden single in box 5` or `naked single, after pointing`.
    pub fn reason(&self) -> String {
        let mut s = match self.house {
            Some(h) => format!("{} in {h}", self.technique),
            None => self.technique.to_string(),
        };
        if !self.after.is_empty() {
            let after: Vec<String> = self.after.iter().map(Technique::to_string).collect();
            s.push_str(&format!(", after {}", after.join(" and ")));
        }
        s
    }
}

/// `r3c5 = 7: hidden single in box 5`.
impl fmt::Display for Hint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} = {}: {}", self.cell, self.digit, self.reason())
    }
}

/// The next `n` placements of `puzzle` (fewer when the techniques stall, the grid fills, or
/// the puzzle contradicts itself), each found after the previous ones are made.
///
/// # Examples
///
/// ```
/// use sudoku_snap::puzzle::hint::hints;
/// let puzzle = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
///     .parse()
///     .unwrap();
/// let next = hints(&puzzle, 2);
/// assert_eq!(next.len(), 2);
/// assert_eq!(next[0].to_string(), "r1c6 = 8: hidden single in box 2");
/// ```
pub fn hints(puzzle: &Board, n: usize) -> Vec<Hint> {
    let mut grid = Grid::new(puzzle);
    let mut found = Vec::new();
    let mut after = Vec::new();
    while found.len() < n && grid.ok && grid.open > 0 {
        if let Some((cell, digit, house)) = next_single(&grid) {
            grid.place(cell, digit);
            found.push(Hint {
                cell: Pos::from_index(cell).expect("a cell index is 0-80"),
                digit: Digit::new(digit).expect("a candidate is 1-9"),
                technique: match house {
                    Some(_) => Technique::HiddenSingle,
                    None => Technique::NakedSingle,
                },
                house,
                after: std::mem::take(&mut after),
            });
            continue;
        }
        // No single: the easiest elimination, then look again.
        match grid.step(Technique::ALL[Technique::ALL.len() - 1]) {
            Some((t, _)) if !after.contains(&t) => after.push(t),
            Some(_) => {}
            None => break,
        }
    }
    found
}

/// The first single in a person's scanning order: hidden singles by box, row, column, then
/// naked singles. Returns (cell, digit, house of a hidden single).
fn next_single(grid: &Grid) -> Option<(usize, u8, Option<House>)> {
    let scan = (18..27).chain(0..18);
    for h in scan {
        for digit in 1..=9u8 {
            let bit = 1u16 << (digit - 1);
            let mut places = HOUSES[h]
                .iter()
                .filter(|&&c| grid.cand[c as usize] & bit != 0);
            if let (Some(&cell), None) = (places.next(), places.next()) {
                return Some((cell as usize, digit, Some(House::from_index(h))));
            }
        }
    }
    (0..81)
        .find(|&c| grid.value[c] == 0 && grid.cand[c].is_power_of_two())
        .map(|c| (c, grid.cand[c].trailing_zeros() as u8 + 1, None))
}

fn technique<S: Serializer>(t: &Technique, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(t.key())
}

fn house<S: Serializer>(h: &Option<House>, s: S) -> Result<S::Ok, S::Error> {
    match h {
        Some(h) => s.collect_str(h),
        None => s.serialize_none(),
    }
}

fn techniques<S: Serializer>(ts: &[Technique], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(ts.iter().map(|t| t.key()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::solve;

    const PUZZLE: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

    #[test]
    fn every_hint_agrees_with_the_unique_solution() {
        let puzzle: Board = PUZZLE.parse().unwrap();
        let solution = solve::solve(&puzzle).unwrap().unwrap();
        let all = hints(&puzzle, 81);
        assert_eq!(all.len(), 81 - puzzle.filled_count());
        for h in &all {
            assert_eq!(solution.get(h.cell), Some(h.digit), "{h}");
        }
    }

    #[test]
    fn a_hidden_single_names_a_house_that_has_one_place() {
        let puzzle: Board = PUZZLE.parse().unwrap();
        let first = &hints(&puzzle, 1)[0];
        assert_eq!(first.technique, Technique::HiddenSingle);
        assert_eq!(first.house, Some(House::Box(2)));
        let json = serde_json::to_string(first).unwrap();
        assert_eq!(
            json,
            r#"{"cell":"r1c6","digit":8,"technique":"hidden_single","house":"box 2","after":[]}"#
        );
    }

    #[test]
    fn a_full_grid_has_no_hint() {
        let solved: Board =
            "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
                .parse()
                .unwrap();
        assert!(hints(&solved, 3).is_empty());
    }

    #[test]
    fn hints_past_singles_name_the_elimination_they_needed() {
        // `generate -d hard --seed 1`: singles alone stall on it.
        let puzzle: Board =
            "....7..6...849...39.4......6.....3.......59.....1.2.7..81........56...81...7....."
                .parse()
                .unwrap();
        let solution = solve::solve(&puzzle).unwrap().unwrap();
        let all = hints(&puzzle, 81);
        assert!(all.iter().all(|h| solution.get(h.cell) == Some(h.digit)));
        let after = all
            .iter()
            .find(|h| !h.after.is_empty())
            .expect("a step needs more");
        assert!(after.after.iter().all(|&t| t > Technique::HiddenSingle));
        assert!(after.reason().contains(", after "), "{after}");
    }
}
