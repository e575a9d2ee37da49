//! The one rule the correction follows: the repairs of a reading without one solution tried
//! cheapest first until one gives it one, then the rivals that would make the answer a doubt
//! looked for in turn until one is found.

use super::doubt::{doubts, rival_answers};
use super::loops::{correct_by_loops, decided_by_loops};
use super::{
    correct, correct_groups, correct_second_opinion, corrections_as_doubts, weak_fit, Candidates,
    Decision, Doubt,
};
use crate::budget::Budget;
use crate::pipeline::recognize::{Recognized, Rival};
use crate::puzzle::board::Board;
use crate::puzzle::solve::Verdict;

/// What one reading offers the correction: its givens, the evidence of each cell (indexed like
/// the board), its rivals (other readings of whole groups), the player's pencil marks, how many
/// single cells may change, and the work budget.
pub(super) struct Read<'a> {
    pub(super) givens: &'a Board,
    pub(super) evidence: &'a [Option<Recognized>],
    pub(super) rivals: &'a [Rival],
    pub(super) marks: Candidates<'a>,
    pub(super) max_changes: usize,
    pub(super) budget: &'a Budget,
}

/// A repair of a reading whose givens have no one solution: `Some` decision it leads to.
type Repair = fn(&Read<'_>) -> Option<Decision>;

/// The repairs beyond single cells (which [`correct`] tries with the reading itself), cheapest
/// first: whole groups renamed as the picture's rivals offer, a second opinion as good as the
/// reading mended cell by cell, and exchanges the glyphs' loops favour.
const REPAIRS: [Repair; 3] = [
    |r| correct_groups(r.givens, r.rivals, r.marks, r.budget),
    correct_second_opinion,
    |r| correct_by_loops(r.givens, r.evidence, r.budget),
];

/// A search for what makes `solved` doubtful: the cells another reading within the margins
/// could take, each with the digits it could be; empty when none is found.
type DoubtFinder = fn(&Read<'_>, &Decision) -> Vec<Doubt>;

/// Where doubts are looked for, in turn, until one finds some: runner-ups close enough to
/// answer otherwise (see [`doubts`]); the corrections themselves, on a font the templates fit
/// poorly (see [`weak_fit`]); and rival readings of whole groups that answer otherwise, applied
/// to the givens as corrected (a correction is then one guess among two).
const DOUBT_FINDERS: [DoubtFinder; 3] = [
    |r, solved| doubts(solved, r.evidence, r.marks, r.budget),
    |r, solved| {
        if !solved.corrections.is_empty() && weak_fit(r.givens, r.evidence) {
            corrections_as_doubts(&solved.corrections)
        } else {
            Vec::new()
        }
    },
    |r, solved| match solved.verdict {
        Ok(Verdict::Unique(solution)) => {
            let as_read = solved.corrections.is_empty();
            let (givens, marks) = (&solved.givens, r.marks);
            rival_answers(
                givens, r.evidence, r.rivals, &solution, as_read, marks, r.budget,
            )
        }
        _ => Vec::new(),
    },
];

/// [`super::solve_reading`], with the player's pencil `marks` refuting rival readings whose
/// answers they leave out (see [`Candidates::refute`]).
pub fn solve_reading_marked(
    givens: &Board,
    evidence: &[Option<Recognized>],
    rivals: &[Rival],
    marks: Candidates<'_>,
    max_changes: usize,
    budget: &Budget,
) -> Decision {
    let read = Read {
        givens,
        evidence,
        rivals,
        marks,
        max_changes,
        budget,
    };
    let mut solved = correct(givens, evidence, marks, max_changes, budget);
    if max_changes > 0 {
        for repair in REPAIRS {
            if solved.is_unique() {
                break;
            }
            if let Some(repaired) = repair(&read) {
                solved = repaired;
            }
        }
        if let Some(decided) = decided_by_loops(&solved, evidence, rivals, marks, budget) {
            solved = decided;
        }
    }
    for find in DOUBT_FINDERS {
        if !solved.doubts.is_empty() {
            break;
        }
        solved.doubts = find(&read, &solved);
    }
    solved
}
