//! Pencil marks: the small candidate digits a player writes into an empty cell, read where
//! they can be read surely, so a check of the game can point at a cell whose marks leave out
//! its answer.
//!
//! The cells stage knows which empty cells hold small marks ([`Cells::marked`]). Each is
//! sampled again from the original picture at up to its own resolution (in the straightened
//! grid a mark is only about 11 px tall), its grid lines found again, its ink split into
//! glyphs (`find`), and the glyphs read by the recognizer's templates, which scale them
//! into their frame like the digits, and by their likeness to the picture's own givens
//! (`reading`). Two layouts are known (`layout`):
//!
//! ```text
//!  3x3 layout        row layout
//! +-----------+    +-----------+
//! | 1   2   3 |    |           |
//! | 4   5   6 |    |  2 5 6 9  |
//! | 7   8   9 |    |           |
//! +-----------+    +-----------+
//! ```
//!
//! In the 3x3 layout digit d sits in sub-cell ((d-1)/3, (d-1)%3): the position alone tells
//! the digit, whatever the font, and the recognizer must agree with it. In the row layout only
//! the recognizer tells, so each glyph must be read with a clear margin, the givens' likeness
//! must not name another digit, and the row must be in ascending order, as apps write
//! candidates. A picture's app uses one layout: the one most of its marked cells fit.
//!
//! A cell counts only when every glyph in it is read surely, sized like the picture's other
//! marks, and nothing else is inked; otherwise it is [`PencilMarks::unreadable`] and never
//! checked. A mark missed would make a right cell look wrong, so doubt always skips.

use image::{GrayImage, RgbImage};
use rayon::prelude::*;

use crate::pipeline::cells::{Author, Cells, FONT_SPREAD};
use crate::pipeline::recognize::Templates;
use crate::pipeline::rectify::Rectified;
use crate::puzzle::board::{Board, Digit, Pos};

mod find;
mod layout;
mod reading;

use crate::pipeline::resample::Area;
use find::{find_marks, Mark};
use layout::{digits_of, picture_layout};

/// How a cell's marks are laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// Each digit in its own ninth of the cell: 1 top left, 9 bottom right.
    Grid,
    /// The digits written side by side in one row.
    Row,
}

/// The pencil marks of one cell, every one read surely.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellMarks {
    /// The cell.
    pub cell: Pos,
    /// The digits marked, ascending.
    pub digits: Vec<Digit>,
    /// How they are laid out.
    pub layout: Layout,
}

/// The pencil marks of one picture.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PencilMarks {
    /// Cells whose every mark was read surely, in reading order.
    pub read: Vec<CellMarks>,
    /// Cells holding small marks that could not all be read surely, in reading order: never
    /// checked.
    pub unreadable: Vec<Pos>,
}

/// Reads the pencil marks of the empty cells the cells stage found marked, from the original
/// `image` (sampled through `rect`'s projection), with `templates` and the picture's
/// `givens` (as read, each on its glyph in `cells`).
pub fn read(
    image: &RgbImage,
    rect: &Rectified,
    cells: &Cells,
    givens: &Board,
    templates: &Templates,
) -> PencilMarks {
    let found = like_each_other(find_all(image, rect, cells));
    let layout = picture_layout(found.iter().filter_map(|(_, m)| m.as_deref()));
    let inks: Vec<&GrayImage> = (found.iter())
        .flat_map(|(_, m)| m.iter().flatten().map(|mark| &mark.ink))
        .collect();
    let printed: Vec<(&GrayImage, Digit)> = Pos::all()
        .filter_map(|p| {
            let glyph = cells.glyphs[p.index()].as_ref()?;
            (glyph.author == Author::Given).then_some((&glyph.ink, givens.get(p)?))
        })
        .collect();
    let mut readings = reading::read_all(templates, &inks, &printed).into_iter();
    let mut out = PencilMarks::default();
    for (cell, marks) in found {
        let Some(marks) = marks else {
            out.unreadable.push(cell);
            continue;
        };
        let read: Vec<_> = readings.by_ref().take(marks.len()).collect();
        let digits = layout.and_then(|l| Some((l, digits_of(l, &marks, &read)?)));
        match digits {
            Some((layout, digits)) => out.read.push(CellMarks {
                cell,
                digits,
                layout,
            }),
            None => out.unreadable.push(cell),
        }
    }
    out
}

/// The pencil marks of the picture's cells told by their places alone, when the picture
/// writes its marks in the 3x3 layout: each cell whose marks all sit clearly in their ninths,
/// with the digits those places say, whatever the font (the recognizer is not asked). Empty
/// when the marks are written in rows, or not at all. What a player's candidates say of an
/// answer, for weighing two readings the templates cannot tell apart.
pub fn placed(image: &RgbImage, rect: &Rectified, cells: &Cells) -> Vec<CellMarks> {
    let found = like_each_other(find_all(image, rect, cells));
    let layout = picture_layout(found.iter().filter_map(|(_, m)| m.as_deref()));
    if layout != Some(Layout::Grid) {
        return Vec::new();
    }
    (found.into_iter())
        .filter_map(|(cell, marks)| {
            let mut digits = layout::placed_digits(&marks?)?;
            digits.sort_unstable();
            Some(CellMarks {
                cell,
                digits,
                layout: Layout::Grid,
            })
        })
        .collect()
}

/// The marks of every empty cell the cells stage found marked, in reading order; `None` for a
/// cell whose ink is not all marks alike in height.
fn find_all(image: &RgbImage, rect: &Rectified, cells: &Cells) -> Vec<(Pos, Option<Vec<Mark>>)> {
    let back = rect.projection.invert();
    let targets: Vec<(Pos, [u8; 3])> = Pos::all()
        .filter(|p| cells.glyphs[p.index()].is_none())
        .filter_map(|p| Some((p, cells.marked[p.index()]?)))
        .collect();
    // Cells are independent: found in parallel.
    targets
        .par_iter()
        .map(|&(pos, background)| {
            let cell: Area = (
                cells.lines_x[pos.col()],
                cells.lines_y[pos.row()],
                cells.lines_x[pos.col() + 1],
                cells.lines_y[pos.row() + 1],
            );
            let marks = find_marks(image, &back, cell, background, cells.dark)
                .filter(|m| !m.is_empty() && alike_heights(m));
            (pos, marks)
        })
        .collect()
}

/// Whether the marks are alike in height: none below the tallest by more than one font's
/// glyphs differ (see [`FONT_SPREAD`]).
fn alike_heights(marks: &[Mark]) -> bool {
    let tallest = marks.iter().map(Mark::height).fold(0.0, f32::max);
    marks
        .iter()
        .all(|m| m.height() >= FONT_SPREAD.start() * tallest)
}

/// `found` with the cells holding a glyph unlike the picture's typical mark (the median
/// width and height over all cells) made unreadable: one app draws all its marks alike. A
/// glyph sized beyond one font's spread of it (see [`FONT_SPREAD`]) is no mark: a line's
/// remnant, a digit the cells stage took for marks, or two marks run together.
fn like_each_other(found: Vec<(Pos, Option<Vec<Mark>>)>) -> Vec<(Pos, Option<Vec<Mark>>)> {
    let typical = |size: fn(&Mark) -> f32| {
        let mut sizes: Vec<f32> = (found.iter())
            .filter_map(|(_, m)| m.as_deref())
            .flatten()
            .map(size)
            .collect();
        sizes.sort_by(f32::total_cmp);
        sizes.get(sizes.len() / 2).copied().unwrap_or(0.0)
    };
    let (width, height) = (typical(Mark::width), typical(Mark::height));
    let alike = |m: &Mark| {
        m.width() <= FONT_SPREAD.end() * width
            && (FONT_SPREAD.start() * height..=FONT_SPREAD.end() * height).contains(&m.height())
    };
    (found.into_iter())
        .map(|(pos, marks)| (pos, marks.filter(|m| m.iter().all(alike))))
        .collect()
}
