//! How a cell's marks are laid out, and the digits they say: in the 3x3 layout by their
//! places (confirmed by the recognizer), in a row by the recognizer alone.

use super::find::Mark;
use super::reading::Reading;
use super::Layout;
use crate::puzzle::board::Digit;

/// A 3x3 mark's centre must lie this close to the middle of its third of the cell (a fraction
/// of the cell): nearer a third's edge, the place no longer says the digit surely. Apps put
/// the outer marks at a sixth of the cell from its edge or a little further in.
const GRID_SLACK: f32 = 0.12;
/// Marks in one row (or column) of the 3x3 layout have centres this close (a fraction of the
/// cell) up and down (or across).
const GRID_ALIGN: f32 = 0.07;
/// Neighbours in a row are at most this many mark heights apart: a row is written as one
/// word.
const ROW_GAP: f32 = 0.8;
/// A mark less tall than this in the original picture (pixels) has too few pixels to be read
/// surely: in the 3x3 layout, where the recognizer only confirms the place...
const GRID_PIXELS: f32 = 8.0;
/// ... and in a row, where it alone reads the digit.
const ROW_PIXELS: f32 = 10.0;
/// A glyph of a row is read surely when the templates' best digit scores at least this...
const ROW_SCORE: f32 = 0.6;
/// ... and this much above their runner-up, and the givens it is most alike are of that
/// digit...
const ROW_MARGIN: f32 = 0.1;
/// ... or, when the givens do not hold every digit and so cannot tell, by this much. Givens
/// alike another digit always veto: two readers that disagree leave the glyph unread (on
/// eleven renderings of the benchmark, every misreading of a 6 as a 5 at 11-13 px).
const ROW_SURE: f32 = 0.2;
/// A glyph of a row wider than this share of its height is two marks touching: digits are
/// taller than wide (a wide font's marks go unread).
const ROW_ASPECT: f32 = 0.9;

/// The layout most cells of two or more marks fit and the other does not; `None` when no cell
/// tells, or as many tell one as the other.
pub(super) fn picture_layout<'a>(cells: impl Iterator<Item = &'a [Mark]>) -> Option<Layout> {
    let (mut grid, mut row) = (0usize, 0usize);
    for marks in cells.filter(|m| m.len() >= 2) {
        match (grid_places(marks).is_some(), is_row(marks)) {
            (true, false) => grid += 1,
            (false, true) => row += 1,
            _ => {}
        }
    }
    match grid.cmp(&row) {
        std::cmp::Ordering::Greater => Some(Layout::Grid),
        std::cmp::Ordering::Less => Some(Layout::Row),
        std::cmp::Ordering::Equal => None,
    }
}

/// The cell's digits in `layout`, ascending, when every glyph (`marks`, read as `read`) is
/// read surely: in the 3x3 layout the digit its place says, which the recognizer must agree
/// with; in a row each glyph's best by a clear margin and not contradicted by the givens,
/// ascending left to right, none two marks run together.
pub(super) fn digits_of(layout: Layout, marks: &[Mark], read: &[Reading]) -> Option<Vec<Digit>> {
    match layout {
        Layout::Grid => {
            let mut places = placed_digits(marks)?;
            if !places.iter().zip(read).all(|(&d, r)| r.agrees(d)) {
                return None;
            }
            places.sort_unstable();
            Some(places)
        }
        Layout::Row => {
            let readable = (marks.iter())
                .all(|m| m.pixels >= ROW_PIXELS && m.width() <= ROW_ASPECT * m.height());
            let sure = read.iter().all(|r| {
                let (digit, score) = r.templates.ranked[0];
                let margin = r.templates.confidence();
                score >= ROW_SCORE
                    && match r.like_givens {
                        Some(like) => like == digit && margin >= ROW_MARGIN,
                        None => margin >= ROW_SURE,
                    }
            });
            if !(readable && sure && is_row(marks)) {
                return None;
            }
            let mut order: Vec<usize> = (0..marks.len()).collect();
            order.sort_by(|&a, &b| marks[a].centre.0.total_cmp(&marks[b].centre.0));
            let digits: Vec<Digit> = order.iter().map(|&i| read[i].templates.digit()).collect();
            digits.windows(2).all(|w| w[0] < w[1]).then_some(digits)
        }
    }
}

/// The digits the marks' places say in the 3x3 layout, when every mark is large enough to
/// be placed surely (`GRID_PIXELS`); the recognizer is not asked.
pub(super) fn placed_digits(marks: &[Mark]) -> Option<Vec<Digit>> {
    if marks.iter().any(|m| m.pixels < GRID_PIXELS) {
        return None;
    }
    grid_places(marks)
}

/// The digits the marks' places say in the 3x3 layout (one per mark, in the marks' order):
/// each centre near the middle of its third across and down, one mark per ninth, and marks
/// of one row or column of ninths lined up. `None` when the marks are not so placed.
pub(super) fn grid_places(marks: &[Mark]) -> Option<Vec<Digit>> {
    let third = |v: f32| -> Option<usize> {
        let k = (v * 3.0).floor().clamp(0.0, 2.0);
        ((v - (k + 0.5) / 3.0).abs() <= GRID_SLACK).then_some(k as usize)
    };
    let mut places = Vec::with_capacity(marks.len());
    for m in marks {
        places.push((third(m.centre.1)?, third(m.centre.0)?));
    }
    for (i, a) in places.iter().enumerate() {
        for (j, b) in places.iter().enumerate().skip(i + 1) {
            let (ma, mb) = (marks[i].centre, marks[j].centre);
            let misaligned = (a.0 == b.0 && (ma.1 - mb.1).abs() > GRID_ALIGN)
                || (a.1 == b.1 && (ma.0 - mb.0).abs() > GRID_ALIGN);
            if a == b || misaligned {
                return None;
            }
        }
    }
    (places.iter())
        .map(|&(row, col)| Digit::new((row * 3 + col + 1) as u8))
        .collect()
}

/// Whether the marks stand side by side in one row: each pair overlapping in height by half
/// the shorter, none overlapping across, neighbours close.
pub(super) fn is_row(marks: &[Mark]) -> bool {
    let mut order: Vec<&Mark> = marks.iter().collect();
    order.sort_by(|a, b| a.centre.0.total_cmp(&b.centre.0));
    let level = order.iter().all(|a| {
        order.iter().all(|b| {
            let overlap = a.bounds[3].min(b.bounds[3]) - a.bounds[1].max(b.bounds[1]);
            overlap >= 0.5 * a.height().min(b.height())
        })
    });
    let tallest = marks.iter().map(Mark::height).fold(0.0, f32::max);
    let spaced = order.windows(2).all(|w| {
        let gap = w[1].bounds[0] - w[0].bounds[2];
        gap > 0.0 && gap <= ROW_GAP * tallest
    });
    level && spaced
}

#[cfg(test)]
mod tests;
