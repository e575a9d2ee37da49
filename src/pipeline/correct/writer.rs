//! The writer cue: what the player's own handwriting says about an entry the solution
//! disagrees with. One picture's entries are one hand, so an entry the templates read as
//! another digit than the solution's is compared with that hand's other glyphs too: the
//! entries read as the solution's digit show how this writer draws each digit.

use super::loops;
use crate::pipeline::cells::{frame, Author, Cells};
use crate::pipeline::recognize::Recognized;
use crate::pipeline::tuning;
use crate::puzzle::board::{Board, Digit, Pos};

/// How much more like the writer's glyphs of the digit read than like those of the solution's
/// digit an entry must be (cosines of glyphs, see [`frame::likeness`]) to be surely the digit
/// read. A writer's right entry leads their glyphs of any one other digit by 0.25 in half of
/// such comparisons (18,088 in the games-pen tune part), so that is no proof; by this much, 30 %
/// of those comparisons and 9 % of the tune part's misread right entries (5 of 53).
const WRITER_SURE: f32 = 0.35;

/// The writer's glyphs: every entry (not drawn `apart`) whose reading agrees with the
/// solution, as features with their digit.
struct Hand {
    glyphs: Vec<(Pos, Digit, Vec<f32>)>,
}

impl Hand {
    fn new(cells: &Cells, entries: &Board, solution: &Board, apart: &[bool; 81]) -> Hand {
        let glyphs = (Pos::all())
            .filter(|c| !apart[c.index()])
            .filter_map(|cell| {
                let digit = entries.get(cell)?;
                (solution.get(cell) == Some(digit)).then_some(())?;
                Some((cell, digit, feature(cells, cell)?))
            })
            .collect();
        Hand { glyphs }
    }

    /// The app's own glyphs, when the app is the writer: the givens, each with the solution's
    /// digit (which the givens agree with).
    fn printed(cells: &Cells, solution: &Board) -> Hand {
        let glyphs = (Pos::all())
            .filter(|c| {
                let glyph = cells.glyphs[c.index()].as_ref();
                glyph.is_some_and(|g| g.author == Author::Given)
            })
            .filter_map(|cell| Some((cell, solution.get(cell)?, feature(cells, cell)?)))
            .collect();
        Hand { glyphs }
    }

    /// How like `glyph` the writer's nearest glyph of `digit` elsewhere is (cosine); `None`
    /// when the writer wrote `digit` nowhere else.
    fn likeness(&self, glyph: &[f32], digit: Digit, at: Pos) -> Option<f32> {
        (self.glyphs.iter())
            .filter(|(cell, d, _)| *d == digit && *cell != at)
            .map(|(_, _, f)| frame::likeness(glyph, f))
            .max_by(f32::total_cmp)
    }
}

/// The entries of `entries` (row-major) that differ from `solution` but are not surely the
/// digit read: an entry is a mistake only when the templates put the digit read `tuning::FAR`
/// ahead of the solution's digit and the writer's own glyphs [`WRITER_SURE`] ahead; for one
/// the app drew `apart` (its own marked mistake) the writer is the app, whose glyphs are the
/// givens'.
/// Players mostly enter the right digit, and a handwritten glyph the templates misread
/// usually looks like the writer's glyphs of the digit misread too (a `9` whose bowl is
/// faint and open passes for their `7`), so one cue alone is no proof; a writer who wrote
/// either digit nowhere else gives no proof either, nor does a glyph whose loops fit the
/// solution's digit rather than the digit read, nor a reading that does not clearly lead its
/// runner-up.
pub fn unsure_entries(
    cells: &Cells,
    evidence: &[Option<Recognized>],
    entries: &Board,
    solution: &Board,
    apart: &[bool; 81],
) -> Vec<Pos> {
    let (hand, printed) = (
        Hand::new(cells, entries, solution, apart),
        Hand::printed(cells, solution),
    );
    (Pos::all())
        .filter(|&cell| {
            let (Some(read), Some(right)) = (entries.get(cell), solution.get(cell)) else {
                return false;
            };
            if read == right {
                return false;
            }
            let Some(Some(r)) = evidence.get(cell.index()) else {
                return true;
            };
            // An entry the templates do not read clearly (`tuning::FAR`) as the digit read
            // ahead of every other, not only the solution's, is no sure mistake (an app's `8`
            // on a selection disc read `9` by 0.03 over `6`; a blurred photo's pen `3` read
            // `7` by 0.10): not sure what it is, it is not surely wrong. Nor is a player's
            // glyph whose loops fit the solution's digit and not the digit read (a `9` whose
            // small bowl is closed, read as a `7`); an app's own glyph is print, read by the
            // templates (a thin red `9`'s loop did not close in its ink).
            let loops_against = !apart[cell.index()] && loops::loops_rule_out(r, right, read);
            if loops_against || r.confidence() < tuning::FAR {
                return true;
            }
            let by_templates = r.lead(read, right);
            // An entry the app drew apart, in a colour of its own, is its marked mistake only
            // when the app wrote it: its glyph the app's own digit read, as the givens show it
            // (a player's faint pencil among pen entries is coloured apart too).
            let hand = if apart[cell.index()] { &printed } else { &hand };
            let by_writer = feature(cells, cell).and_then(|glyph| {
                Some(hand.likeness(&glyph, read, cell)? - hand.likeness(&glyph, right, cell)?)
            });
            !is_sure(by_templates, by_writer)
        })
        .collect()
}

/// Whether the leads of the digit read over the solution's, by the templates and by the
/// writer's glyphs, make the entry surely the digit read.
fn is_sure(by_templates: Option<f32>, by_writer: Option<f32>) -> bool {
    let clear = |lead: Option<f32>, bar: f32| lead.is_some_and(|lead| lead >= bar);
    clear(by_templates, tuning::FAR) && clear(by_writer, WRITER_SURE)
}

fn feature(cells: &Cells, cell: Pos) -> Option<Vec<f32>> {
    let ink = &cells.glyphs[cell.index()].as_ref()?.ink;
    Some(frame::fit(ink.as_raw(), ink.width(), ink.height()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_both_cues_clearly_for_the_digit_read_make_a_mistake_sure() {
        assert!(is_sure(Some(0.4), Some(0.4)));
        assert!(
            !is_sure(Some(0.4), Some(0.1)),
            "the writer's glyphs disagree"
        );
        assert!(
            !is_sure(Some(0.4), Some(0.3)),
            "a lead the writer's right glyphs often have over another digit"
        );
        assert!(!is_sure(Some(0.1), Some(0.4)), "the templates barely lead");
        assert!(
            !is_sure(Some(0.4), None),
            "the writer wrote neither digit elsewhere"
        );
        assert!(!is_sure(None, Some(0.4)));
    }
}
