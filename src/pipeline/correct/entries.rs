//! The player's entries against a corrected answer: an entry read as the solution's digit
//! when that is a close call, and corrections the entries refute.

use super::{corrections_as_doubts, loops, Correction, Decision};
use crate::pipeline::recognize::Recognized;
use crate::pipeline::tuning;
use crate::puzzle::board::{Board, Digit, Pos};
use crate::puzzle::check;

/// The fewest of the player's entries a corrected answer must call wrong for the entries to
/// refute the corrections (see [`weigh_corrections_by_entries`]) ...
const REFUTING_ENTRIES: usize = 4;

/// ... and the share of the entries that is, one in this many: at least a third. On the tune
/// renderings an answer drawn right after corrections called at most 4 of 16 entries wrong;
/// the one drawn wrong (a handwriting face's `4`s read as `7`s, one given `1` corrected to
/// `7` to make that solvable) called 12 of 26 wrong.
const REFUTING_SHARE: usize = 3;

/// A player's entry whose reading is a close call between the digit read and the solution's
/// digit there is read as the solution's: a player mostly enters the right digit, and a
/// glyph the templates barely tell apart (Jura's entered `6` scoring 0.03 under `5`) is no
/// evidence of a mistake. So is an entry read as a digit that the `corrections` found the
/// picture's givens misread as a group (see [`exchanged`]): entries are read like the givens
/// they look like, and Schoolbell's `4`s and `9`s were read the other way round, givens and
/// entries alike, until the solver's correction swapped the givens back. So is an entry
/// shaped like the picture's givens of the solution's digit where those differ from the
/// givens of the digit read (see [`Recognized::shaped_like`]: Albert Sans' and Lexend
/// Zetta's entered `6`s read as `5`, Short Stack's `4`s as `9`). An entry read
/// clearly as another digit stays a wrong entry, and so does one the app drew `apart`
/// (row-major), in a colour of its own: a red wrong entry.
pub fn settle_entries(
    entries: &mut Board,
    evidence: &[Option<Recognized>],
    corrections: &[Correction],
    solution: &Board,
    apart: &[bool; 81],
) {
    for cell in Pos::all().filter(|c| !apart[c.index()]) {
        let (Some(read), Some(right)) = (entries.get(cell), solution.get(cell)) else {
            continue;
        };
        let Some(Some(r)) = evidence.get(cell.index()) else {
            continue;
        };
        let close = r
            .score(right)
            .is_some_and(|score| r.ranked[0].1 - score <= tuning::CLOSE);
        let misread_alike = exchanged(corrections, read, right);
        let shaped_right = r.shaped_like.contains(&right);
        // The loops are the glyph's own evidence against a reading, except where the
        // picture's givens saw the other digit's strokes: a faint entry's bowl left open.
        let loops_against = loops::loops_rule_out(r, read, right) && !shaped_right;
        if read != right && (close || misread_alike || shaped_right) && !loops_against {
            entries.set(cell, Some(right));
        }
    }
}

/// Casts doubt on the corrections `solved` made when the player's `entries` (settled, see
/// [`settle_entries`]) refute them: its answer calls at least `REFUTING_ENTRIES` of them wrong,
/// and at least one in `REFUTING_SHARE`; or `REFUTING_ENTRIES` of them are read clearly as
/// other digits (the templates put the digit read `tuning::FAR` ahead of the answer's, by the
/// `evidence`), however many the others are. Misread handwriting hides a wrong answer's
/// contradictions among the misreadings: in the games photos (239, every entry right) the
/// three wrong answers corrections made called 9, 11 and 21 entries wrong clearly, the right
/// answers at most 3 (a photo's answer, two givens corrected wrongly, called 15 of 51 entries
/// wrong, 9 of them clearly). A player mostly enters the right digit (apps count
/// the mistakes and end the game after a few), while a misreading that a correction made
/// solvable answers another puzzle, whose digits the entries keep contradicting. Entries the
/// app drew `apart` (row-major), in a colour of its own, are its own marked mistakes and count
/// for neither side. An answer reached without corrections is left alone: checking a game full
/// of mistakes is what the check mode is for.
///
/// Returns how many entries refuted them, when they did.
pub fn weigh_corrections_by_entries(
    solved: &mut Decision,
    entries: &Board,
    evidence: &[Option<Recognized>],
    apart: &[bool; 81],
) -> Option<RefutingEntries> {
    let solution = solved.trusted()?;
    if solved.corrections.is_empty() {
        return None;
    }
    let weighed = |cell: Pos| !apart[cell.index()];
    let entered = Pos::all()
        .filter(|&c| weighed(c) && entries.get(c).is_some())
        .count();
    let wrong = (check::wrong_entries(entries, &solution).iter())
        .filter(|w| weighed(w.cell))
        .count();
    let by_share = wrong >= REFUTING_ENTRIES && wrong * REFUTING_SHARE >= entered;
    let clearly = (check::wrong_entries(entries, &solution).iter())
        .filter(|w| weighed(w.cell))
        .filter(|w| read_clearly(evidence, w.cell, w.entered, w.should_be))
        .count();
    if !by_share && clearly < REFUTING_ENTRIES {
        return None;
    }
    solved.doubts = corrections_as_doubts(&solved.corrections);
    Some(RefutingEntries { wrong, entered })
}

/// Whether the templates read the glyph at `cell` as `read` `tuning::FAR` ahead of `other`.
fn read_clearly(evidence: &[Option<Recognized>], cell: Pos, read: Digit, other: Digit) -> bool {
    let Some(Some(r)) = evidence.get(cell.index()) else {
        return false;
    };
    r.lead(read, other).is_some_and(|lead| lead >= tuning::FAR)
}

/// The player's entries that refuted a corrected answer (see
/// [`weigh_corrections_by_entries`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RefutingEntries {
    /// The entries the corrected answer calls wrong.
    pub wrong: usize,
    /// The entries weighed (those the app did not mark as mistakes itself).
    pub entered: usize,
}

/// Whether the `corrections` changed the givens read as `read` to `used` as a group: at
/// least twice, or once with the reverse change too (two digits read the other way round). A
/// single given corrected is one glyph's misreading, which says nothing of the entries.
fn exchanged(corrections: &[Correction], read: Digit, used: Digit) -> bool {
    let count = |from: Digit, to: Digit| {
        (corrections.iter())
            .filter(|c| c.read == from && c.used == to)
            .count()
    };
    let (forward, back) = (count(read, used), count(used, read));
    forward >= 2 || (forward >= 1 && back >= 1)
}
