//! Where the grid is: the placements a reading tries beyond the grid as located (turned
//! upright, re-placed by the digits' lattice, and as a hypothesis, moved a cell across or
//! down).

use image::{GrayImage, RgbImage};

use super::sliced;
use crate::budget::Budget;
use crate::pipeline::cells::Cells;
use crate::pipeline::quad::{Quad, Turn};
use crate::pipeline::recognize::Matched;
use crate::pipeline::rectify::{self, Rectified};
use crate::pipeline::{locate, Reading};
use crate::puzzle::board::MIN_GIVENS;
use crate::{Snap, Stage, Timings};

/// Glyphs whose median offset across from their cells' centres is beyond this fraction of a
/// cell sit on a grid located off (a column off, stretched: 0.07-0.13 on tune renderings),
/// where a grid located right holds them within 0.06 (tune seed 1 and the photos: at most
/// 0.054, mostly under 0.03).
pub(crate) const MISREGISTERED: f32 = 0.06;
/// ... and a grid located again is kept when it holds them at least this much nearer.
const REGISTERED_GAIN: f32 = 0.5;

impl Snap {
    /// The grid located again by its digits' lattice when its glyphs sit off their cells'
    /// centres across (lines or fills placed it a column off, and the cells stretched to
    /// match): of the placements the lattice offers, the one that holds the digits nearest
    /// their centres, when by `REGISTERED_GAIN` nearer than now; else as it was. When the
    /// cells hold fewer glyphs than a puzzle has givens (`MIN_GIVENS`: each digit cut by a
    /// cell's edge and dropped), a placement that holds enough,
    /// centred, is kept too: on a card with shading-only boxes and blurred edges, the outline
    /// was placed a third of a cell wide, every digit was cut by a cell's edge, and none read.
    /// `matched` (the glyphs of `cells` matched, when done) comes back with the cells kept.
    pub(crate) fn registered(
        &self,
        image: &RgbImage,
        rectified: Rectified,
        cells: Cells,
        matched: Option<Matched>,
        timings: &mut Timings,
    ) -> (Rectified, Cells, Option<Matched>) {
        let enough = |cells: &Cells| cells.glyphs.iter().flatten().count() >= MIN_GIVENS;
        // The offset a placement must beat to replace the grid as it is.
        let bound = match cells.offset_across() {
            Some(off) if enough(&cells) && off <= MISREGISTERED => {
                return (rectified, cells, matched)
            }
            Some(off) if enough(&cells) => off * REGISTERED_GAIN,
            _ => MISREGISTERED,
        };
        let placements = timings.time(Stage::Locate, || locate::locate_by_digits(image));
        // The grid as it is, with its matching, until a placement does better.
        let mut best = (rectified, cells, bound, matched);
        for again in placements {
            let Some(moved) = timings.time(Stage::Rectify, || rectify::rectify(image, &again.quad))
            else {
                continue;
            };
            let moved_cells = sliced(&moved, image, timings);
            match moved_cells.offset_across() {
                Some(o) if o < best.2 && enough(&moved_cells) => {
                    best = (moved, moved_cells, o, None)
                }
                _ => {}
            }
        }
        (best.0, best.1, best.3)
    }

    /// The grid turned upright: sliced again from the quadrilateral with its corners renamed
    /// when its glyphs stand the right way up only turned (a photo taken with the phone on its
    /// side), else as it was, with its glyphs matched against the templates (the reading
    /// needs that too).
    pub(crate) fn upright(
        &self,
        image: &RgbImage,
        quad: &Quad,
        rectified: Rectified,
        cells: Cells,
        timings: &mut Timings,
    ) -> (Rectified, Cells, Option<Matched>) {
        let inks: Vec<&GrayImage> = cells.glyphs.iter().flatten().map(|g| &g.ink).collect();
        let (turn, matched) = timings.time(Stage::Recognize, || {
            let matched = self.templates.match_glyphs(&inks);
            (self.templates.upright_turn(&inks, &matched), matched)
        });
        if turn == Turn::None {
            return (rectified, cells, Some(matched));
        }
        let turned = timings.time(Stage::Rectify, || {
            rectify::rectify(image, &quad.turned(turn))
        });
        match turned {
            Some(turned) => {
                let cells = sliced(&turned, image, timings);
                (turned, cells, None)
            }
            None => (rectified, cells, Some(matched)),
        }
    }

    /// The grid read with its outline moved `across` and `down` by whole cells; `None` when
    /// the moved outline leaves the picture or its corners are degenerate.
    pub(crate) fn moved(
        &self,
        image: &RgbImage,
        first: &Reading,
        across: i32,
        down: i32,
        timings: &mut Timings,
        budget: &Budget,
    ) -> Option<Reading> {
        let quad = first.rectified.shifted_quad(across, down);
        let (w, h) = (image.width() as f32, image.height() as f32);
        let inside =
            (quad.corners.iter()).all(|&(x, y)| (0.0..w).contains(&x) && (0.0..h).contains(&y));
        if !inside {
            return None;
        }
        let rectified = timings.time(Stage::Rectify, || rectify::rectify(image, &quad))?;
        let cells = sliced(&rectified, image, timings);
        Some(self.reading_of(rectified, cells, None, timings, budget))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::cells::tests::Sketch;
    use crate::puzzle::board::Board;
    use crate::puzzle::solve;
    use crate::Options;

    /// A puzzle with one solution whose last column holds no given.
    const LAST_COLUMN_EMPTY: &str =
        "98.7..6..7.69..5...4..8....6..5..9....3.9..7......2...1....7.....7.591.....1...6.";

    #[test]
    fn a_grid_placed_a_column_off_is_read_moved_back() {
        let puzzle: Board = LAST_COLUMN_EMPTY.parse().unwrap();
        let solution = solve::solve(&puzzle).unwrap().unwrap();
        let cell = 40.0;
        let mut sketch = Sketch::new((560, 440), (100.0, 40.0), cell, [250; 3], [60; 3]);
        sketch.board(&puzzle, 0.6, [20; 3]);
        let snap = Snap::new(Options::default()).unwrap();
        // The outline placed a column left: the page's margin read as the first column, the
        // last one, empty, left out; every given lands a column right.
        let off = sketch.rectified().shifted_quad(-1, 0);
        let rectified = rectify::rectify(&sketch.image, &off).unwrap();
        let cells = sliced(&rectified, &sketch.image, &mut Timings::default());
        let mut timings = Timings::default();
        let budget = Budget::unlimited();
        let misplaced = snap.reading_of(rectified, cells, None, &mut timings, &budget);
        assert_ne!(misplaced.givens, puzzle);
        let (moved, solved) = snap.decide(&sketch.image, misplaced, &mut timings, &budget);
        assert_eq!(moved.givens, puzzle);
        assert_eq!(solved.trusted(), Some(solution));
    }
}
