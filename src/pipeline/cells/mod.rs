//! Cells: the straightened grid -> 81 cells, each empty or holding one isolated glyph.
//!
//! Grid lines are found again on the square picture (so a slightly curved or misplaced corner
//! does not shift the cells), their remnants are cut away, and ink is measured against each
//! cell's own background (so highlighted cells read like the others).
//!
//! Which glyphs are digits is judged against the picture's own population, not a fixed size:
//! the givens of one puzzle share a font and a size, so the typical height of the tallest
//! glyphs is the digit height, and pencil marks are known by their layout (several small
//! glyphs in one cell) and their own typical height. A lone glyph near a cell's centre is a
//! digit when it is sized like the others, however small they all are. Who wrote each digit
//! (givens, a player's entries) is the next step's, `authors`.

use image::{GrayImage, RgbImage};
use rayon::prelude::*;

use crate::pipeline::gray::Histogram;

mod contrast;
mod detail;
pub(crate) mod frame;
mod isolate;
mod lines;
mod pieces;
mod sizes;
mod stroke;
use crate::pipeline::rectify::Rectified;
use contrast::{
    background_colour, cell_background, cell_threshold, own_contrast, own_threshold, room_share,
    stand_out_histograms, stand_out_table, text_contrast,
};
use isolate::{area_colour, isolate_glyph, CellInk, Ink};
use lines::find_lines;
pub(crate) use lines::{cell_area, cell_inside};
use pieces::{Join, JOIN};
use sizes::{median_of, Sizes};
use std::ops::RangeInclusive;
pub(crate) use stroke::{core_ink, stroke_ink};

/// The fewest glyphs whose median says something about the picture's font (its stroke, its
/// orientation): with fewer there is no population to compare with (a real puzzle has at
/// least 17 givens).
pub(crate) const MIN_POPULATION: usize = 8;
/// A glyph shorter than this fraction of the cell is noise, whatever the population says.
pub(super) const MIN_GLYPH_HEIGHT: f32 = 0.1;
/// A pencil mark's height, as a fraction of the cell: shorter is a speck, taller a digit or
/// marks run together (three rows of marks fit in a cell).
pub(crate) const MARK_HEIGHT: RangeInclusive<f32> = 0.07..=0.4;
/// The sizes of one font's glyphs (a grid's digits, a player's pencil marks) as shares of its
/// typical glyph's: old-style figures' short 1 and 2 stand at 0.65-0.75 of the others, and a
/// glyph beyond 1.45 is not one figure of the font (3 of the 26,771 digit glyphs of the first
/// tuning rendering are; 19 of the photos' 4,893, glyphs joined to the shadow at a grid's edge
/// reaching 1.5-2; the widest digit of a font is rarely a third wider than its median one).
pub(crate) const FONT_SPREAD: RangeInclusive<f32> = 0.6..=1.45;
/// A lone glyph this close to its cell's centre (a fraction of the cell, on both axes; across
/// only, when it stands on the baseline) is placed as a digit is.
pub(super) const LONE_OFFSET: f32 = 0.12;
/// Cut this fraction of the cell from each side to drop grid-line remnants.
pub(super) const LINE_MARGIN: f32 = 0.09;
/// A pixel is ink when it is this fraction of the grid's text contrast away from its cell's
/// background (and at least `MIN_INK` grey levels).
const INK_FRACTION: f32 = 0.35;
/// Neighbourhood radius for finding grid lines, as a fraction of the grid's side: a quarter
/// cell, wider than any line.
const LINE_NEIGHBOURHOOD: f32 = 1.0 / 36.0;
/// A piece of ink at least this fraction of the digit height, shorter than a whole digit and
/// beside at most `FRAGMENT_COMPANIONS` other marks, may be what the threshold left of a
/// faint digit: a photo's red `7` washed out in a lit corner kept only its bar (7 of the
/// digits' 31 pixels), its thin diagonal under the threshold.
pub(super) const FRAGMENT: f32 = 0.2;
/// See [`FRAGMENT`]: specks of paper noise beside it; pencil marks come in more.
pub(super) const FRAGMENT_COMPANIONS: usize = 2;
/// Such a fragment is looked at again with the cell's ink threshold times this, and kept
/// whole only when that finds one glyph sized and shaped like the grid's digits. Measured on
/// the photos and tune seeds 1-5: 0.5 reads them as 0.6 does (photos 141 -> 144 exact, tune
/// unchanged); 0.7 one photo more and one tune picture fewer solved. `FRAGMENT` 0.15 reads
/// alike, 0.25 loses two of the photos (their bars are 0.23 of the digit height).
const FAINT_LOOK: f32 = 0.6;
/// A digit whose strokes stand out less than this fraction of the grid's text contrast is
/// looked at again with the ink threshold scaled to its own strength.
const OWN_STRENGTH: f32 = 0.8;
/// ... when it is narrower than this fraction of the grid's typical digit: a stem left of a
/// digit whose thinner strokes fell under the threshold. Wider, a lower threshold fills a
/// blurred `5`'s or `3`'s openings: looked at so, every faint digit mended seven tune
/// pictures' entries but misread seven others (a `5` read `6`, a `3` read `8` or `9`); the
/// narrow ones alone mended the seven and spoilt none.
const OWN_NARROW: f32 = 0.5;
/// The least contrast that counts as ink, in grey levels: less is compression noise on a plain
/// cell (grid lines fainter than this are not found either).
pub(crate) const MIN_INK: i32 = 24;

/// Who wrote a digit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Author {
    /// Printed by the puzzle: a given.
    Given,
    /// Entered by a player in another colour.
    Entry,
}

/// One digit's picture, isolated from its cell.
#[derive(Clone, Debug)]
pub struct Glyph {
    /// The glyph's bounding box, ink as brightness (255 = full ink, 0 = background). A small
    /// glyph is read again from the original picture, larger than its box in the square.
    pub ink: GrayImage,
    /// The typical colour of its strokes.
    pub colour: [u8; 3],
    /// Given or a player's entry (a given until the authors are told).
    pub author: Author,
    /// Width of the glyph in square-picture pixels.
    pub width: u32,
    /// Height of the glyph in square-picture pixels.
    pub height: u32,
    /// Top-left corner of the glyph's box in the square picture.
    pub origin: (u32, u32),
    /// The box of its largest piece (left, top, right, bottom, inclusive, square-picture
    /// pixels), where its colour is read: pieces joined to it may be a neighbour's descender
    /// reaching into the cell, in the neighbour's colour.
    pub core: (u32, u32, u32, u32),
    /// Much taller than the grid's digits: joined to a line's remnant, a shadow or a
    /// neighbour's ink, so its shape proves little about its digit.
    pub outsized: bool,
    /// Its author when only clear differences of shade count: where a weak difference made
    /// it an entry (blur parts a page's thin digits from its bold ones nearly as far as a
    /// player's near shade), this says given, and the reading is tried so when the givens
    /// without it have no unique solution.
    pub sure_author: Author,
    /// Its cell's background colour (a highlight's, on a highlighted cell), against which its
    /// ink's hue is told.
    pub cell_background: [u8; 3],
    /// How much of the grid's contrast its cell's background leaves ink to stand out (1 on the
    /// grid's own background, less on a highlight), so its strokes are judged by what they could
    /// reach.
    pub room: f32,
}

impl Glyph {
    /// A given `width` x `height` pixels in `colour` at the square's corner, blank ink, its
    /// core the whole box: the glyph the cells' tests build theirs from.
    #[cfg(test)]
    pub(crate) fn sketch(width: u32, height: u32, colour: [u8; 3]) -> Glyph {
        Glyph {
            ink: GrayImage::new(width, height),
            colour,
            author: Author::Given,
            width,
            height,
            origin: (0, 0),
            core: (0, 0, width - 1, height - 1),
            outsized: false,
            sure_author: Author::Given,
            cell_background: [255; 3],
            room: 1.0,
        }
    }

    /// The glyph's box in the square picture, `margin` pixels wider on every side: left, top,
    /// right, bottom.
    pub(crate) fn bounds(&self, margin: f32) -> (f32, f32, f32, f32) {
        let (x0, y0) = (self.origin.0 as f32 - margin, self.origin.1 as f32 - margin);
        (
            x0,
            y0,
            x0 + self.width as f32 + 2.0 * margin,
            y0 + self.height as f32 + 2.0 * margin,
        )
    }
}

/// The 81 cells of a straightened grid.
#[derive(Clone)]
pub struct Cells {
    /// Row-major; `None` for an empty cell.
    pub glyphs: Vec<Option<Glyph>>,
    /// Row-major: for an empty cell with small marks in it (pencil marks), the cell's
    /// background colour, so the answer can be drawn on a clean cell.
    pub marked: Vec<Option<[u8; 3]>>,
    /// The 10 vertical line positions (x) in the square picture.
    pub lines_x: [f32; 10],
    /// The 10 horizontal line positions (y) in the square picture.
    pub lines_y: [f32; 10],
    /// The first and last column of each vertical line's ink, where it was found.
    pub line_spans_x: [Option<(u32, u32)>; 10],
    /// The first and last row of each horizontal line's ink, where it was found.
    pub line_spans_y: [Option<(u32, u32)>; 10],
    /// Whether ink is lighter than the background.
    pub dark: bool,
    /// The grid's typical background colour.
    pub background: [u8; 3],
    /// Each cell's own background colour (a highlight's or a fill's where it has one),
    /// row-major.
    pub cell_backgrounds: Vec<[u8; 3]>,
    /// Row-major: for a cell where the cut found no digit, the digit a cut at the cell's own
    /// contrast finds, if any; empty unless the cells were sliced looking for them, which the
    /// reading does when the givens as read have several solutions. Too faint to be read as a
    /// given on its own, it may be a given missed in print fainter than a player's pen.
    pub faint: Vec<Option<Glyph>>,
}

impl Cells {
    /// How far the glyphs sit from their cells' centres across: the median offset, as a
    /// fraction of the cell; `None` without glyphs. Digits are centred across their cells in
    /// every layout, where up and down old-style figures and some fonts' baselines move them.
    pub fn offset_across(&self) -> Option<f32> {
        let mut offsets: Vec<f32> = (self.glyphs.iter().enumerate())
            .filter_map(|(i, g)| {
                let g = g.as_ref()?;
                let (x0, x1) = (self.lines_x[i % 9], self.lines_x[i % 9 + 1]);
                let (left, _, right, _) = g.bounds(0.0);
                let centre = (left + right) / 2.0;
                Some((centre - (x0 + x1) / 2.0).abs() / (x1 - x0))
            })
            .collect();
        offsets.sort_by(f32::total_cmp);
        offsets.get(offsets.len() / 2).copied()
    }
}

/// Slices the straightened grid into cells and isolates each digit; `image` is the original
/// picture `rect` was straightened from, where the digits' colours are read at full size.
/// Every glyph comes out a given: who wrote it is the next step's to tell
/// ([`tell_authors`](crate::stages::tell_authors)).
pub fn slice(rect: &Rectified, image: &RgbImage) -> Cells {
    slice_as(rect, image, false)
}

/// [`slice`], also looking for each cell's faint glyph (see [`Cells::faint`]): only where the
/// givens as read leave the puzzle open, since it costs a look at every empty cell.
pub(crate) fn looking_fainter(rect: &Rectified, image: &RgbImage) -> Cells {
    slice_as(rect, image, true)
}

/// [`slice`], with the faint glyphs looked for when `faint`.
fn slice_as(rect: &Rectified, image: &RgbImage, faint: bool) -> Cells {
    let gray = &rect.gray;
    let mut levels = Histogram::new();
    levels.add(gray.as_raw(), |v| v);
    let bg = levels.median().unwrap_or(255);
    // By the grid's own polarity, not its brightness: dim paper is darker than the middle.
    let dark = levels.light_on_dark();
    let line_ink = crate::pipeline::locate::ink_map(gray, dark, LINE_NEIGHBOURHOOD);
    let ((lines_x, line_spans_x), (lines_y, line_spans_y)) = find_lines(&line_ink);
    let areas: [(u32, u32, u32, u32); 81] =
        std::array::from_fn(|i| cell_area(&lines_x, &lines_y, i / 9, i % 9));
    // Cells are independent: their backgrounds are found in parallel.
    let mut backgrounds = [0u8; 81];
    areas
        .par_iter()
        .zip(backgrounds.par_iter_mut())
        .for_each(|(&area, cell_bg)| *cell_bg = cell_background(gray, area, bg, dark));
    let stand_outs = backgrounds.map(|bg| stand_out_table(bg, dark));
    let histograms = stand_out_histograms(gray, &areas, &stand_outs);
    let contrast = text_contrast(&histograms);
    let threshold = MIN_INK.max((contrast as f32 * INK_FRACTION) as i32);
    // Cells are independent: split over the thread pool. Each cell's background colour
    // serves its ink (hue against it) and, for a cell of pencil marks, the clean-up.
    let colours: Vec<[u8; 3]> = (areas.par_iter().zip(backgrounds.par_iter()))
        .map(|(&area, &cell_bg)| area_colour(rect, gray, area, cell_bg))
        .collect();
    let grid_inks: Vec<Ink> = (0..81)
        .map(|i| {
            let threshold = cell_threshold(threshold, bg, backgrounds[i], dark);
            Ink {
                stand_out: &stand_outs[i],
                threshold,
                shown_from: threshold,
                contrast,
                background: colours[i],
            }
        })
        .collect();
    // A cell whose ink is much fainter than the grid's strongest is cut at its own contrast
    // (see `own_contrast`); its cut stands when it finds one whole digit sized like the
    // grid's, and where the picture holds pencil marks only where the grid's cut found that
    // digit too (a fainter cut joins marks into a digit's size). Elsewhere the grid's cut.
    let mut inks: Vec<Ink> = (grid_inks.iter().zip(&histograms))
        .map(|(ink, hist)| {
            let (own, peak) = own_contrast(hist);
            let threshold = own_threshold(ink.threshold, own, peak, INK_FRACTION, FAINT_LOOK);
            Ink { threshold, ..*ink }
        })
        .collect();
    let mut found: Vec<CellInk> = (areas.par_iter().zip(inks.par_iter()))
        .map(|(&area, ink)| isolate_glyph(rect, gray, area, ink, JOIN))
        .collect();
    let at_grid_cut: Vec<Option<CellInk>> = (areas.par_iter().enumerate())
        .map(|(i, &area)| {
            (inks[i].threshold < grid_inks[i].threshold)
                .then(|| isolate_glyph(rect, gray, area, &grid_inks[i], JOIN))
        })
        .collect();
    let sizes = Sizes::of(&found);
    let digit = |c: &CellInk| {
        (c.glyph.as_ref()).is_some_and(|g| sizes.is_digit(g, c) && !sizes.is_outsized(g))
    };
    for (i, grid_cut) in at_grid_cut.into_iter().enumerate() {
        let Some(grid_cut) = grid_cut else { continue };
        let own_cut_stands = digit(&found[i])
            && sizes.is_whole_digit(&found[i])
            && (digit(&grid_cut) || sizes.mark.is_none());
        if !own_cut_stands {
            found[i] = grid_cut;
            inks[i] = grid_inks[i];
        }
    }
    let mut widths: Vec<u32> = (found.iter())
        .filter_map(|c| c.glyph.as_ref().filter(|g| sizes.is_digit(g, c)))
        .map(|g| g.width)
        .collect();
    let typical_width = median_of(&mut widths).unwrap_or(0.0);
    // A digit that came apart, or of which only a fragment passed the threshold, is looked
    // at again, and kept only when that finds it whole. A fragment whose other pieces lie
    // too far to be joined (a blurred didone `7`'s bar, and the foot of its stem) may still
    // be a faint digit's: it is looked at fainter too, and so is a bare stem (a hairline
    // `4` on a highlight kept only its stem, and read `1`).
    let found: Vec<CellInk> = (found.into_par_iter().enumerate())
        .map(|(i, cell)| {
            let whole = |ink: &Ink, join: Join| {
                Some(isolate_glyph(rect, gray, areas[i], ink, join))
                    .filter(|again| sizes.is_whole_digit(again))
            };
            // Looked at again, joined as usual, with the threshold `threshold`.
            let at_threshold = |threshold: i32| {
                whole(
                    &Ink {
                        threshold,
                        shown_from: threshold.min(inks[i].shown_from),
                        ..inks[i]
                    },
                    JOIN,
                )
            };
            let fainter = || at_threshold((inks[i].threshold as f32 * FAINT_LOOK) as i32);
            // A digit drawn fainter than the picture's strongest text (a player's light blue
            // entries beside black givens) is cut by the threshold higher up its own strokes:
            // looked at with the threshold scaled to its own strength, its thin strokes join.
            let own = || {
                let glyph = cell.glyph.as_ref().filter(|g| sizes.is_digit(g, &cell))?;
                if glyph.width as f32 >= OWN_NARROW * typical_width {
                    return None;
                }
                let strength = stroke_ink(glyph)? / 255.0;
                if strength >= OWN_STRENGTH {
                    return None;
                }
                at_threshold(MIN_INK.max((inks[i].threshold as f32 * strength) as i32))
            };
            let again = match sizes.broken_digit_join(&cell) {
                Some(join) => whole(&inks[i], join)
                    .or_else(|| sizes.is_fragment(&cell).then(fainter).flatten()),
                None if sizes.is_fragment(&cell) || sizes.is_bare_stem(&cell) => fainter(),
                None if sizes.may_hide_a_faint_digit(&cell) => {
                    fainter().filter(|again| again.off_centre < LONE_OFFSET)
                }
                None => own(),
            };
            again.unwrap_or(cell)
        })
        .collect();
    // A glyph taller than any digit of the grid's font holds a grid line's remnant or a
    // shadow along the grid's edge, and maybe a digit: look again without what spans the
    // cell (photos: 12 of 19 such glyphs were nothing but that).
    let found: Vec<CellInk> = (found.into_par_iter().enumerate())
        .map(|(i, cell)| match cell.glyph.as_ref() {
            Some(g) if sizes.is_digit(g, &cell) && sizes.is_outsized(g) => {
                let clear = Join {
                    without_spans: true,
                    ..JOIN
                };
                isolate_glyph(rect, gray, areas[i], &inks[i], clear)
            }
            _ => cell,
        })
        .collect();
    let mut faint = if faint {
        faint_glyphs(rect, &areas, (&inks, &histograms), &found, &sizes)
    } else {
        vec![None; 81]
    };
    let (mut glyphs, marked): (Vec<_>, Vec<_>) = (found.into_iter().zip(colours.iter().copied()))
        .map(|(cell, colour)| {
            let has_marks = cell.has_marks();
            match cell.glyph {
                Some(mut glyph) if sizes.is_digit(&glyph, &cell) => {
                    glyph.outsized = sizes.is_outsized(&glyph);
                    (Some(glyph), None)
                }
                glyph => {
                    let marked = has_marks || glyph.is_some();
                    (None, marked.then_some(colour))
                }
            }
        })
        .unzip();
    stroke::colours_from_source(&mut glyphs, &colours, image, &rect.projection);
    stroke::colours_from_source(&mut faint, &colours, image, &rect.projection);
    detail::read_small_glyphs_again(
        &mut glyphs,
        &inks,
        sizes.digit,
        dark,
        image,
        &rect.projection,
    );
    let background = background_colour(&rect.image, gray, bg);
    for found in [&mut glyphs, &mut faint] {
        for (i, glyph) in found.iter_mut().enumerate() {
            if let Some(glyph) = glyph {
                glyph.cell_background = colours[i];
                glyph.room = room_share(bg, backgrounds[i], dark);
            }
        }
    }
    Cells {
        glyphs,
        marked,
        lines_x,
        lines_y,
        line_spans_x,
        line_spans_y,
        dark,
        background,
        cell_backgrounds: colours,
        faint,
    }
}

/// Each cell's faint glyph (see [`Cells::faint`]): where the cut left no digit, the cell cut
/// at its own contrast (as a faint cell's own cut is, but wherever its strongest pixel lies,
/// down to the noise floor), kept when it finds a digit sized like the grid's with no marks
/// beside it. `inks` and `histograms` are the cells' cuts and stand-out histograms.
fn faint_glyphs(
    rect: &Rectified,
    areas: &[(u32, u32, u32, u32); 81],
    (inks, histograms): (&[Ink<'_>], &[Histogram]),
    found: &[CellInk],
    sizes: &Sizes,
) -> Vec<Option<Glyph>> {
    (found.par_iter().enumerate())
        .map(|(i, cell)| {
            if cell.glyph.as_ref().is_some_and(|g| sizes.is_digit(g, cell)) {
                return None;
            }
            let (own, _) = own_contrast(&histograms[i]);
            let threshold = MIN_INK.max((own as f32 * INK_FRACTION) as i32);
            if threshold >= inks[i].threshold {
                return None;
            }
            let ink = Ink {
                threshold,
                shown_from: threshold.min(inks[i].shown_from),
                ..inks[i]
            };
            let again = isolate_glyph(rect, &rect.gray, areas[i], &ink, JOIN);
            let digit = again
                .glyph
                .as_ref()
                .is_some_and(|g| sizes.is_digit(g, &again));
            (digit && !again.has_marks_beside()).then_some(again.glyph)?
        })
        .collect()
}

#[cfg(test)]
pub(crate) mod tests;
