//! The player's pencil marks and entries as evidence: a rival answer whose digits the marks
//! leave out, or the entries contradict, is refuted, and the reading is solved again with the
//! candidates the marks allow.

use super::{check, solve_reading_marked, with_changes, Correction, Decision};
use crate::budget::Budget;
use crate::pipeline::pencil::CellMarks;
use crate::pipeline::recognize::{Recognized, Rival};
use crate::puzzle::board::{Board, Digit, Pos};
use crate::puzzle::solve::Verdict;

/// The fewest cells of pencil marks told by their places (or entries read clearly) for them to
/// weigh two answers (see [`Candidates::refute`]).
pub(super) const MIN_MARKED: usize = 4;

/// How many more marked cells a rival answer must leave out of their marks than the answer
/// read for the marks to refute it ...
const MARKS_MARGIN: usize = 2;

/// ... and how many times as many: a player's marks may leave out an answer here and there (a
/// mistake, or a digit not yet ruled in), never systematically the answer's digits.
const MARKS_RATIO: usize = 3;

/// A player's pencil marks told by their places in the 3x3 layout (see
/// [`crate::pipeline::pencil::placed`]): the candidates they left in each marked cell, known
/// whatever the font; and their entries read clearly, each the one candidate of its cell. The
/// rules accept any renaming of the digits and the templates may barely tell a font's digits
/// apart, but a player's candidates hold the answer's digits, and a player's entries mostly
/// are the answer's.
#[derive(Clone, Copy, Debug, Default)]
pub struct Candidates<'a> {
    marks: &'a [CellMarks],
    entries: &'a [(Pos, Digit)],
}

impl<'a> Candidates<'a> {
    /// The candidates of `marks`; they weigh answers only in at least `MIN_MARKED` cells.
    pub fn new(marks: &'a [CellMarks]) -> Candidates<'a> {
        Candidates {
            marks: if marks.len() >= MIN_MARKED {
                marks
            } else {
                &[]
            },
            entries: &[],
        }
    }

    /// The candidates of `marks` and of the player's `entries` (each cell's digit entered);
    /// the entries weigh answers only in at least `MIN_MARKED` cells too.
    pub fn with_entries(marks: &'a [CellMarks], entries: &'a [(Pos, Digit)]) -> Candidates<'a> {
        Candidates {
            entries: if entries.len() >= MIN_MARKED {
                entries
            } else {
                &[]
            },
            ..Candidates::new(marks)
        }
    }

    /// The marked cells whose marks leave out `answer`'s digit, and the entries it
    /// contradicts.
    fn left_out(&self, answer: &Board) -> usize {
        let marks = (self.marks.iter())
            .filter(|m| answer.get(m.cell).is_some_and(|d| !m.digits.contains(&d)))
            .count();
        let entries = (self.entries.iter())
            .filter(|&&(cell, d)| answer.get(cell).is_some_and(|a| a != d))
            .count();
        marks + entries
    }

    /// Whether the marks and entries refute `theirs` beside `ours`: it leaves at least
    /// `MARKS_MARGIN` more cells out of their candidates, and `MARKS_RATIO` times as many.
    /// Then `theirs` is no rival to `ours`, however alike the templates find the two readings.
    pub(super) fn refute(&self, ours: &Board, theirs: &Board) -> bool {
        if self.marks.is_empty() && self.entries.is_empty() {
            return false;
        }
        let (ours, theirs) = (self.left_out(ours), self.left_out(theirs));
        theirs >= ours + MARKS_MARGIN && theirs >= MARKS_RATIO * ours
    }
}

/// When the pencil `marks` refute the answer of `solved` (read from `read`) beside the answer
/// of the reading its doubts offer instead (each doubtful cell taking its first alternative):
/// that reading, solved again, when it has one solution and no doubt the marks leave standing.
/// The templates may name a font's digits wrongly (a handwriting face's open `4`s read as
/// `9`s and its `9`s as `4`s) and the rules cannot tell; a player's candidates can.
pub fn decided_by_marks(
    read: &Board,
    solved: &Decision,
    evidence: &[Option<Recognized>],
    rivals: &[Rival],
    marks: Candidates<'_>,
    budget: &Budget,
) -> Option<Decision> {
    let Ok(Verdict::Unique(ours)) = solved.verdict else {
        return None;
    };
    let changes: Vec<(Pos, Digit)> = (solved.doubts.iter())
        .filter_map(|d| Some((d.cell, *d.could_be.first()?)))
        .collect();
    let board = with_changes(&solved.givens, &changes);
    let Ok(Verdict::Unique(theirs)) = check(&board, budget) else {
        return None;
    };
    if theirs == ours || !marks.refute(&theirs, &ours) {
        return None;
    }
    let again = solve_reading_marked(&board, evidence, rivals, marks, 0, budget);
    if again.trusted() != Some(theirs) {
        return None;
    }
    let corrections = Pos::all()
        .filter_map(|cell| {
            let (read, used) = (read.get(cell)?, board.get(cell)?);
            (read != used).then_some(Correction { cell, read, used })
        })
        .collect();
    Some(Decision {
        corrections,
        ..again
    })
}
