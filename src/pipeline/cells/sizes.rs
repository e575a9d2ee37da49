//! The sizes a digit of this grid has: the typical digit's height and width, measured over
//! the glyphs found, and what they say of one glyph (a digit, a fragment, a bare stem, one
//! broken apart, or one taller than any digit).

use super::isolate::CellInk;
use super::pieces::{Join, JOIN};
use super::{
    Glyph, FONT_SPREAD, FRAGMENT, FRAGMENT_COMPANIONS, LONE_OFFSET, MARK_HEIGHT, MIN_GLYPH_HEIGHT,
    MIN_POPULATION,
};
use crate::pipeline::rectify::CELL;
use crate::puzzle::board::MIN_GIVENS;

/// A digit joined from pieces is within these fractions of the digit height.
const WHOLE_LOW: f32 = 0.85;
const WHOLE_HIGH: f32 = 1.2;
/// A glyph below this fraction of the digit height is small enough to be pencil marks.
const SMALL_FRACTION: f32 = 0.8;
/// A glyph smaller than the digits (`SMALL_FRACTION`) with this many marks beside it in its
/// row, in a picture with pencil marks, is one of a row of pencil marks written across the
/// cell ("2568"), too far apart to join: an old-style face's tall marks (`6`, `8`), or any
/// mark beside marks broken into specks that pull the marks' typical height down, pass for
/// digits by their size alone.
const ROW_MATES: usize = 1;
/// A glyph stands on the digits' baseline when this many digit-sized glyphs end where it does.
const ON_BASELINE: usize = 3;
/// A digit joined from more pieces than this (specks aside) is pencil marks: a didone `5` on a
/// highlight, its joins under the cell's lowered threshold, comes apart into four (its bowl,
/// its flag's stem and bar, a sliver of the join).
const MAX_PIECES: usize = 4;
/// ... and this many times the pencil marks' height, when the picture has pencil marks.
const MARK_MARGIN: f32 = 1.3;
/// A lone glyph at the very centre of its cell may be this small a fraction and still be a
/// digit.
const LONE_DIGIT_FRACTION: f32 = 0.42;
/// A cell holding only specks is looked at again with the threshold times [`FAINT_LOOK`] when
/// at least this many times the digit height of its pixels reach that fainter threshold: a
/// digit's strokes cover at least its height (a `1`'s stem), a few specks of noise do not.
const FAINT_PIXELS: f32 = 1.0;
/// ... or this fraction in a picture with pencil marks, whose columns of marks would pass
/// for a digit's pieces.
const BROKEN_PART_BESIDE_MARKS: f32 = 0.5;
/// The largest piece of a broken digit is at least this fraction of the digit height: a
/// digit joined from at most `MAX_PIECES` pieces (see [`Sizes::is_whole_digit`]) has one
/// that tall, gaps aside ...
const BROKEN_PART: f32 = 1.0 / 3.0;
/// The gap up or down to the rest of a broken digit, as a fraction of the digit height.
const BROKEN_GAP: f32 = 0.25;
/// How far (a fraction of the cell's height) a glyph's bottom may be from the digits'
/// baseline and still stand on it.
const BASELINE_TOLERANCE: f32 = 0.05;
/// A piece at least this many times wider than tall is a broken digit's bar (a `7`'s, a
/// `5`'s flag) whatever its size: no digit, so no pencil mark, is that wide.
const BAR_ASPECT: f32 = 1.5;
/// A digit-tall glyph narrower than this fraction of its height is a bare stem.
const BARE_STEM: f32 = 0.2;
/// The sizes of the picture's glyphs: the digit height, and the pencil marks' when the
/// picture has cells full of them.
pub(super) struct Sizes {
    /// The typical height of the tallest glyphs (the givens and entries).
    pub(super) digit: f32,
    /// The typical height of pencil marks, from cells holding several of them.
    pub(super) mark: Option<f32>,
    /// The typical height of the tallest mark in such a cell: marks broken into pieces by the
    /// threshold (grey marks on a tinted cell) pull the typical height down to the pieces'.
    pub(super) whole_mark: Option<f32>,
    /// The typical height of a hand's digits written smaller than the print's: glyphs alone in
    /// their cells, too short for the print's font but not specks, when the picture has no
    /// pencil marks and at least `MIN_POPULATION` of them (one player's entries in pen).
    pub(super) hand: Option<f32>,
    /// Where the digit-sized glyphs' bottoms are, each as a fraction of its cell's height from
    /// the top: the baseline, and for old-style figures the descender line too.
    pub(super) bottoms: Vec<f32>,
}

/// The median height of the glyphs alone in their cells that are shorter than the print's
/// digits of height `digit` allow but no specks, when there are at least `MIN_POPULATION`.
fn hand_height(cells: &[CellInk], digit: f32) -> Option<f32> {
    let small = LONE_DIGIT_FRACTION * digit..FONT_SPREAD.start() * digit;
    let mut heights: Vec<u32> = (cells.iter())
        .filter(|c| c.marks.is_empty())
        .filter_map(|c| c.glyph.as_ref().map(|g| g.height))
        .filter(|&h| small.contains(&(h as f32)))
        .collect();
    (heights.len() >= MIN_POPULATION)
        .then(|| median_of(&mut heights))
        .flatten()
}

impl Sizes {
    pub(super) fn of(cells: &[CellInk]) -> Sizes {
        let mut heights: Vec<u32> = cells
            .iter()
            .filter_map(|c| c.glyph.as_ref().map(|g| g.height))
            .collect();
        heights.sort_unstable_by(|a, b| b.cmp(a));
        // As many glyphs set the digit height as a real puzzle has givens at least.
        heights.truncate(MIN_GIVENS);
        let digit = median_of(&mut heights).unwrap_or(CELL as f32);
        let max_mark = MARK_HEIGHT.end() * CELL as f32;
        // Each cell holding several marks: the heights of its marks (and its glyph, if as
        // small).
        let marked: Vec<Vec<u32>> = (cells.iter().filter(|c| c.marks.len() >= 2))
            .map(|c| {
                (c.marks.iter().chain(c.glyph.as_ref().map(|g| &g.height)))
                    .copied()
                    .filter(|&h| (h as f32) <= max_mark && (h as f32) < digit)
                    .collect()
            })
            .collect();
        let mut marks: Vec<u32> = marked.concat();
        let mark = (marks.len() >= 4).then(|| median_of(&mut marks)).flatten();
        let mut tallest: Vec<u32> = marked
            .iter()
            .filter_map(|m| m.iter().max().copied())
            .collect();
        let whole_mark = mark.and(median_of(&mut tallest));
        let bottoms = cells
            .iter()
            .filter(|c| {
                c.glyph
                    .as_ref()
                    .is_some_and(|g| g.height as f32 >= FONT_SPREAD.start() * digit)
            })
            .map(|c| c.bottom)
            .collect();
        let hand = mark.is_none().then(|| hand_height(cells, digit)).flatten();
        Sizes {
            digit,
            mark,
            whole_mark,
            hand,
            bottoms,
        }
    }

    /// Whether a cell's central glyph is a digit: sized like the digits rather than like the
    /// pencil marks, or, with no pencil marks to compare with, close to the digit height (or
    /// alone in its cell, centred or standing on the digits' baseline, and not much smaller:
    /// an old-style `1` is x-height, and sits low).
    pub(super) fn is_digit(&self, glyph: &Glyph, cell: &CellInk) -> bool {
        let (marks, off_centre) = (&cell.marks, cell.off_centre);
        let h = glyph.height as f32;
        if h < MIN_GLYPH_HEIGHT * CELL as f32 || h < LONE_DIGIT_FRACTION * self.digit {
            return false;
        }
        // Small and a third wider than tall: pencil marks touching each other in a row. No
        // font's digit is that wide (the widest display faces are about as wide as tall), but
        // a hand's may be (a `2` written flat): alone at the centre of its cell, in a picture
        // without pencil marks, there is no row of marks it could be.
        let lone_in_unmarked = self.mark.is_none() && marks.is_empty() && off_centre < LONE_OFFSET;
        if glyph.width as f32 >= 4.0 / 3.0 * h
            && h < SMALL_FRACTION * self.digit
            && !lone_in_unmarked
        {
            return false;
        }
        if let Some(mark) = self.mark {
            // Beside other marks in its cell, a glyph is weighed against whole marks; alone, an
            // old-style `1` or `2` is x-height, and weighed against whole marks it was taken
            // for one (tune: 12 pictures lost their givens so, 16 gained their entries).
            let mark = match self.whole_mark {
                Some(whole) if !marks.is_empty() => whole,
                _ => mark,
            };
            let in_row_of_marks = cell.row_mates >= ROW_MATES && h < SMALL_FRACTION * self.digit;
            if self.is_column_of_marks(glyph, cell, mark) || in_row_of_marks {
                return false;
            }
            // Nearer the digits than the marks on a log scale; or alone at the centre of its
            // cell and clearly taller than the marks, where pencil marks sit in a 3x3 layout
            // (old-style 1s and 2s are x-height: 13 px beside 19 px digits and 9 px marks).
            let lone_at_centre = marks.is_empty()
                && off_centre < LONE_OFFSET
                && h >= MARK_MARGIN * mark
                && h >= FONT_SPREAD.start() * self.digit;
            return h * h >= self.digit * mark || lone_at_centre;
        }
        let standing = |b: &&f32| (cell.bottom - **b).abs() < BASELINE_TOLERANCE;
        let on_baseline = cell.off_across < LONE_OFFSET
            && self.bottoms.iter().filter(standing).count() >= ON_BASELINE;
        let sized_like_hand = self
            .hand
            .is_some_and(|hand| FONT_SPREAD.contains(&(h / hand)));
        h >= FONT_SPREAD.start() * self.digit
            || (marks.is_empty() && (off_centre < LONE_OFFSET || on_baseline || sized_like_hand))
    }

    /// Whether a cell's glyph, beside other marks, was joined from tiers of pieces one above
    /// another, each no taller than a pencil mark (the picture's, or the tallest beside it in
    /// the cell) and shorter than any broken digit's largest piece, and the whole narrower
    /// than that too: a column of pencil marks, as tall as a digit and as thin as a `1`
    /// (old-style marks descend into the mark below). A didone `7` whose hairline stem broke
    /// apart is as wide as a digit.
    pub(super) fn is_column_of_marks(&self, glyph: &Glyph, cell: &CellInk, mark: f32) -> bool {
        let beside = cell.marks.iter().max().map_or(0.0, |&m| m as f32);
        let part = BROKEN_PART_BESIDE_MARKS * self.digit;
        !cell.marks.is_empty()
            && (glyph.width as f32) < part
            && cell.stacked.is_some_and(|tallest| {
                let tallest = tallest as f32;
                (tallest < MARK_MARGIN * mark || tallest <= beside) && tallest < part
            })
    }

    /// For a glyph too small to be a digit but too large to be a pencil mark, beside other
    /// ink in its cell: how far to reach up and down for the rest of it. A hairline joining a
    /// didone `5`'s flag to its bowl vanishes at screen sizes, leaving two pieces; a didone
    /// `7`'s hairline diagonal leaves a chain of specks between its bar and its foot. A bowl
    /// without its flag may pass for a digit by its size alone, so a digit shorter than the
    /// grid's whole digits reaches for the rest of itself too, from inside its own cell; and
    /// so does a bar however short, no pencil mark being that wide (a blurred `7` in two).
    pub(super) fn broken_digit_join(&self, cell: &CellInk) -> Option<Join> {
        let glyph = cell.glyph.as_ref()?;
        let h = glyph.height as f32;
        let mark_sized = self.mark.is_some_and(|m| h < MARK_MARGIN * m);
        let part = match self.mark {
            Some(_) => BROKEN_PART_BESIDE_MARKS,
            None => BROKEN_PART,
        };
        let short_digit = self.is_digit(glyph, cell) && h < WHOLE_LOW * self.digit;
        // A piece this much wider than tall is no pencil mark, however small: a digit's bar.
        let bar = glyph.width as f32 >= BAR_ASPECT * h;
        let candidate = !cell.marks.is_empty()
            && (bar || (h >= part * self.digit && !mark_sized))
            && (short_digit || !self.is_digit(glyph, cell));
        candidate.then_some(Join {
            up_down: (BROKEN_GAP * self.digit) as u32,
            through_specks: true,
            inside_only: short_digit,
            ..JOIN
        })
    }

    /// Whether the cell's glyph may be what is left of a faint digit whose thin strokes fell
    /// under the ink threshold (see [`FRAGMENT`]).
    pub(super) fn is_fragment(&self, cell: &CellInk) -> bool {
        let Some(glyph) = cell.glyph.as_ref() else {
            return false;
        };
        let h = glyph.height as f32;
        // Beside other marks in a picture with pencil marks, a mark-sized piece is one of
        // them (unless it is a bar, which no mark is): looked at fainter, marks one above
        // another touch and pass for a digit.
        let bar = glyph.width as f32 >= BAR_ASPECT * h;
        let among_marks =
            !bar && !cell.marks.is_empty() && self.mark.is_some_and(|m| h < MARK_MARGIN * m);
        cell.marks.len() <= FRAGMENT_COMPANIONS
            && !among_marks
            && h >= FRAGMENT * self.digit
            && h < WHOLE_LOW * self.digit
    }

    /// Whether a cell where nothing passed the threshold but specks may hold a digit drawn
    /// much fainter than the picture's strongest text: hairline givens beside a player's
    /// entries in a regular weight, whose contrast sets the threshold, leave only specks of
    /// their strokes (see [`FAINT_PIXELS`]). Pencil marks are pieces taller than specks.
    pub(super) fn may_hide_a_faint_digit(&self, cell: &CellInk) -> bool {
        cell.glyph.is_none()
            && !cell.has_marks_beside()
            && cell.faint_pixels as f32 >= FAINT_PIXELS * self.digit
    }

    /// Whether the cell's glyph is a digit-tall stroke no wider than a stem: a `1`, or what is
    /// left of a hairline digit's other strokes under the threshold.
    pub(super) fn is_bare_stem(&self, cell: &CellInk) -> bool {
        cell.glyph.as_ref().is_some_and(|g| {
            self.is_digit(g, cell) && (g.width as f32) < BARE_STEM * g.height as f32
        })
    }

    /// Whether a glyph joined from pieces is one digit: a few pieces, sized and shaped like
    /// the grid's digits.
    pub(super) fn is_whole_digit(&self, cell: &CellInk) -> bool {
        let Some(glyph) = cell.glyph.as_ref() else {
            return false;
        };
        let h = glyph.height as f32;
        cell.pieces <= MAX_PIECES
            && (WHOLE_LOW * self.digit..=WHOLE_HIGH * self.digit).contains(&h)
            && glyph.width <= glyph.height
            && self.is_digit(glyph, cell)
    }

    /// Whether a digit's glyph is taller than any figure of the grid's font can be: old-style
    /// figures reach above and below the others, but by less than `FONT_SPREAD`.
    pub(super) fn is_outsized(&self, glyph: &Glyph) -> bool {
        glyph.height as f32 > FONT_SPREAD.end() * self.digit
    }
}

/// The median of `values` (sorted in place), `None` when empty.
pub(super) fn median_of(values: &mut [u32]) -> Option<f32> {
    values.sort_unstable();
    let n = values.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(values[n / 2] as f32),
        _ => Some((values[n / 2 - 1] + values[n / 2]) as f32 / 2.0),
    }
}
