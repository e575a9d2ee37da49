//! The readings the decision weighs beyond the one first made, as tiers of equal cost,
//! cheapest first: the glyphs matched against blurred templates, the unsure authors taken
//! back to what clear shades tell (each with sharp templates, then blurred), a given missed
//! where the solutions part (print too faint for the grid's cut), and the grid's outline moved
//! a cell each way. Before all of them, where the player's entries complete the houses
//! around givens, the givens those entries imply (see [`implied`](super::implied)).

use image::RgbImage;

use super::implied::implied_givens;
use crate::budget::Budget;
use crate::pipeline::cells::{Author, Cells};
use crate::pipeline::{correct, Reading};
use crate::puzzle::board::Pos;
use crate::puzzle::solve::Verdict;
use crate::{Snap, Stage, Timings};

/// One reading the decision may take instead of the one first made: what it changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Hypothesis {
    /// How many of the unsure authors are taken back (see [`sure_authors`]); 0 keeps them.
    pub(crate) authors: usize,
    /// Whether the glyphs are matched against templates blurred as much as they are.
    pub(crate) blurred: bool,
    /// The outline moved by whole cells (across, down); (0, 0) keeps it where located.
    pub(crate) shift: (i32, i32),
    /// A cell whose faint glyph (see [`Cells::faint`]) is taken for a given.
    pub(crate) given_at: Option<Pos>,
    /// Whether the givens are taken as the player's entries imply them (see
    /// [`implied_givens`]).
    pub(crate) implied: bool,
}

impl Hypothesis {
    /// The reading as first made.
    pub(crate) const AS_READ: Hypothesis = Hypothesis {
        authors: 0,
        blurred: false,
        shift: (0, 0),
        given_at: None,
        implied: false,
    };

    /// The givens as the player's entries imply them.
    pub(crate) const IMPLIED: Hypothesis = Hypothesis {
        implied: true,
        ..Hypothesis::AS_READ
    };

    /// Whether `decision` is good enough for this hypothesis to be taken: one solution, and
    /// for a moved outline no doubt either, since a moved outline overrules where the grid's
    /// own lines placed it (a grid placed right and moved a cell reads its givens in the
    /// wrong rows or columns, which mostly clash, but not always). A given found under the
    /// grid's cut overrules the cut, so it must also stand as read: no correction.
    pub(crate) fn accepts(&self, decision: &correct::Decision) -> bool {
        if self.implied {
            decision.trusted().is_some()
        } else if self.given_at.is_some() {
            decision.trusted().is_some() && decision.corrections.is_empty()
        } else if self.shift == (0, 0) {
            decision.is_unique()
        } else {
            decision.trusted().is_some()
        }
    }
}

/// The tiers of hypotheses to weigh after the reading as first made, cheapest first; within a
/// tier each costs the same, so two taken from one tier are a tie (see [`Snap::decide`]).
/// Soft print (a photo's lens and focus) can make sharp templates misread it, so blurred
/// templates come first; then the authors; then a grid placed a cell off: one whose boxes are
/// told apart by their fills alone, its corner box filled like the card around it and its far
/// column empty of givens, was placed a column off by the fills and by the digits' lattice too
/// (digits sit centred in the cells either way), and read with no solution. Givens missed in
/// faint print come before the moves: the givens as read then have several solutions, which a
/// grid placed a cell off seldom gives.
pub(crate) fn tiers(cells: &Cells, decision: &correct::Decision) -> Vec<Vec<Hypothesis>> {
    let one = |authors, blurred| {
        vec![Hypothesis {
            authors,
            blurred,
            ..Hypothesis::AS_READ
        }]
    };
    let mut tiers = vec![one(0, true)];
    for authors in author_steps(cells) {
        tiers.push(one(authors, false));
        tiers.push(one(authors, true));
    }
    let missed: Vec<Hypothesis> = (missed_given_cells(cells, decision).into_iter())
        .map(|cell| Hypothesis {
            given_at: Some(cell),
            ..Hypothesis::AS_READ
        })
        .collect();
    if !missed.is_empty() {
        tiers.push(missed);
    }
    let shifts = [(1, 0), (-1, 0), (0, 1), (0, -1)].map(|shift| Hypothesis {
        shift,
        ..Hypothesis::AS_READ
    });
    tiers.push(shifts.to_vec());
    tiers
}

/// Whether a given may have been missed in faint print: the givens as read (uncorrected)
/// have several solutions, which one given more than read would make one.
pub(crate) fn may_miss_a_given(decision: &correct::Decision) -> bool {
    matches!(decision.verdict, Ok(Verdict::Multiple(_))) && decision.corrections.is_empty()
}

/// The cells where a given may have been missed in faint print (see [`may_miss_a_given`]):
/// those holding a faint glyph (see [`Cells::faint`]) and no digit.
fn missed_given_cells(cells: &Cells, decision: &correct::Decision) -> Vec<Pos> {
    if !may_miss_a_given(decision) {
        return Vec::new();
    }
    Pos::all()
        .filter(|p| cells.glyphs[p.index()].is_none() && cells.faint[p.index()].is_some())
        .collect()
}

/// `cells` with the faint glyph at `cell` taken for a given.
fn with_faint_given(cells: &Cells, cell: Pos) -> Cells {
    let mut cells = cells.clone();
    if let Some(mut glyph) = cells.faint[cell.index()].take() {
        glyph.author = Author::Given;
        glyph.sure_author = Author::Given;
        cells.glyphs[cell.index()] = Some(glyph);
    }
    cells
}

/// How many unsure authors each author hypothesis takes back: the glyph whose colour is
/// nearest the givens' alone, then the two nearest (up to `MAX_TAKEN_BACK`), then all. Empty
/// when no author is unsure.
fn author_steps(cells: &Cells) -> Vec<usize> {
    let unsure = cells.unsure_nearest_givens_first().len();
    let steps = (1..=MAX_TAKEN_BACK.min(unsure.saturating_sub(1))).chain([unsure]);
    steps.filter(|&n| n > 0).collect()
}

/// The most unsure glyphs taken back one by one before all are.
const MAX_TAKEN_BACK: usize = 2;

/// `cells` with the `n` unsure glyphs nearest the givens' colour given the author clear
/// shades alone tell (see [`crate::pipeline::cells::Glyph::sure_author`]). Entries told from
/// the givens by a weak shade may be thin givens that blur lightened: a thin given whose
/// curved strokes never reach its colour on any whole pixel falls among a player's entries
/// drawn a shade lighter.
pub(crate) fn sure_authors(cells: &Cells, n: usize) -> Cells {
    let mut cells = cells.clone();
    let unsure = cells.unsure_nearest_givens_first();
    for &i in unsure.iter().take(n) {
        if let Some(glyph) = &mut cells.glyphs[i] {
            glyph.author = glyph.sure_author;
        }
    }
    cells
}

impl Snap {
    /// The reading `hypothesis` makes of the grid first read as `first`, with its decision;
    /// `None` when it makes none (a moved outline off the picture, or blurred templates that
    /// fit no better than sharp ones, whose reading would be the first one's).
    pub(crate) fn weigh(
        &self,
        hypothesis: Hypothesis,
        image: &RgbImage,
        first: &Reading,
        timings: &mut Timings,
        budget: &Budget,
    ) -> Option<(Reading, correct::Decision)> {
        if hypothesis.implied {
            return self.implied_reading(first, timings, budget);
        }
        let (across, down) = hypothesis.shift;
        let reading = if (across, down) != (0, 0) {
            self.moved(image, first, across, down, timings, budget)?
        } else {
            let cells = match hypothesis.given_at {
                Some(cell) => with_faint_given(&first.cells, cell),
                None => sure_authors(&first.cells, hypothesis.authors),
            };
            let recognition = timings.time(Stage::Recognize, || {
                if hypothesis.blurred {
                    self.recognize_blurred(&cells, budget)
                } else {
                    Some(self.recognize(&cells, None, budget))
                }
            })?;
            Reading::recognized(first.rectified.clone(), cells, recognition)
        };
        let decision = timings.time(Stage::Solve, || self.solve_as_read(&reading, budget));
        Some((reading, decision))
    }

    /// The reading `first` with its givens as the player's entries imply them (entries drawn
    /// in a colour of their own, an app's marked mistakes, left out), each given changed
    /// listed as a correction before those the solver then makes; `None` when the entries
    /// imply no change.
    fn implied_reading(
        &self,
        first: &Reading,
        timings: &mut Timings,
        budget: &Budget,
    ) -> Option<(Reading, correct::Decision)> {
        let apart = first.cells.entries_coloured_apart();
        let mut entries = first.entries;
        Pos::all()
            .filter(|p| apart[p.index()])
            .for_each(|p| entries.set(p, None));
        let (givens, changed) = implied_givens(&first.givens, &entries);
        if changed.is_empty() {
            return None;
        }
        let reading = Reading {
            givens,
            ..first.clone()
        };
        let mut decision = timings.time(Stage::Solve, || self.solve_as_read(&reading, budget));
        let implied = (changed.iter()).filter_map(|&cell| {
            Some(correct::Correction {
                cell,
                read: first.givens.get(cell)?,
                used: givens.get(cell)?,
            })
        });
        let solver: Vec<_> = std::mem::take(&mut decision.corrections);
        decision.corrections = implied.chain(solver).collect();
        Some((reading, decision))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::cells;
    use crate::puzzle::board::Board;

    /// Cells holding `glyphs` (cell index, colour, author, sure author) and nothing else.
    fn cells_of(glyphs: &[(usize, [u8; 3], Author, Author)]) -> Cells {
        let mut all = vec![None; 81];
        for &(i, colour, author, sure_author) in glyphs {
            let mut glyph = cells::Glyph::sketch(4, 8, colour);
            glyph.author = author;
            glyph.sure_author = sure_author;
            all[i] = Some(glyph);
        }
        Cells {
            glyphs: all,
            marked: vec![None; 81],
            lines_x: std::array::from_fn(|i| i as f32 * 10.0),
            lines_y: std::array::from_fn(|i| i as f32 * 10.0),
            line_spans_x: [None; 10],
            line_spans_y: [None; 10],
            dark: false,
            background: [255; 3],
            cell_backgrounds: vec![[255; 3]; 81],
            faint: vec![None; 81],
        }
    }

    #[test]
    fn unsure_entries_nearest_the_givens_colour_go_back_first() {
        use Author::{Entry, Given};
        let cells = cells_of(&[
            (0, [10; 3], Given, Given),
            (1, [30; 3], Given, Given),
            (2, [110; 3], Entry, Given),
            (3, [70; 3], Entry, Given),
            (4, [90; 3], Entry, Given),
            (5, [200, 40, 40], Entry, Entry),
        ]);
        let entries_of = |c: &Cells| -> Vec<usize> {
            (0..81)
                .filter(|&i| c.glyphs[i].as_ref().is_some_and(|g| g.author == Entry))
                .collect()
        };
        let tried: Vec<Vec<usize>> = author_steps(&cells)
            .into_iter()
            .map(|n| entries_of(&sure_authors(&cells, n)))
            .collect();
        // The lightest given-like shade (70) first, then the next (90), then every unsure
        // glyph; the red entry was never unsure.
        assert_eq!(tried, [vec![2, 4, 5], vec![2, 5], vec![5]]);
        let sure = cells_of(&[(0, [10; 3], Given, Given), (5, [200, 40, 40], Entry, Entry)]);
        assert!(author_steps(&sure).is_empty());
    }

    /// A decision on `givens` with the verdict `verdict`, nothing corrected.
    fn decided(verdict: Verdict) -> correct::Decision {
        correct::Decision {
            givens: Board::empty(),
            verdict: Ok(verdict),
            corrections: Vec::new(),
            doubts: Vec::new(),
        }
    }

    #[test]
    fn hypotheses_come_cheapest_first_with_the_moves_one_tier() {
        let cells = cells_of(&[]);
        let tiers = tiers(&cells, &decided(Verdict::Unique(Board::empty())));
        // No unsure author: blurred templates, then the four moves as one tier.
        assert_eq!(tiers.len(), 2);
        assert!(tiers[0][0].blurred && tiers[0][0].shift == (0, 0));
        assert_eq!(tiers[1].len(), 4);
        assert!(tiers[1].iter().all(|h| h.shift != (0, 0) && !h.blurred));
    }

    #[test]
    fn a_faint_glyph_may_be_a_missed_given_only_when_the_givens_have_several_solutions() {
        let mut cells = cells_of(&[(0, [10; 3], Author::Given, Author::Given)]);
        cells.faint[40] = Some(cells::Glyph::sketch(4, 8, [200; 3]));
        // A faint glyph where a digit was found too is no missed given.
        cells.faint[0] = Some(cells::Glyph::sketch(4, 8, [200; 3]));
        let several = tiers(&cells, &decided(Verdict::Multiple(Board::empty())));
        let missed: Vec<Pos> = several
            .iter()
            .flatten()
            .filter_map(|h| h.given_at)
            .collect();
        assert_eq!(missed, [Pos::new(4, 4).unwrap()]);
        // The missed given comes before the moves, after the blurred templates.
        assert_eq!(several.len(), 3);
        assert_eq!(several[1][0].given_at, Pos::new(4, 4));
        let one = tiers(&cells, &decided(Verdict::Unique(Board::empty())));
        assert!(one.iter().flatten().all(|h| h.given_at.is_none()));
        // Taken for a given, the faint glyph is the cell's glyph.
        let taken = with_faint_given(&cells, Pos::new(4, 4).unwrap());
        let glyph = taken.glyphs[40].as_ref().unwrap();
        assert_eq!(
            (glyph.author, glyph.sure_author),
            (Author::Given, Author::Given)
        );
        assert!(taken.faint[40].is_none());
    }
}
