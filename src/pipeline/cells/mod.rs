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
//! digit when it is sized like the others, however small they all are.
//! Digits in a clearly different colour from the majority are a player's entries.

use image::{GrayImage, RgbImage};
use rayon::prelude::*;

use crate::pipeline::gray::Histogram;

mod authors;
mod colour;
mod detail;
mod faint;
pub(crate) mod frame;
mod isolate;
mod stroke;
mod weight;
use crate::pipeline::rectify::{Rectified, CELL};
use isolate::{area_colour, isolate_glyph, CellInk, Ink, Join, JOIN};

/// A glyph shorter than this fraction of the cell is noise, whatever the population says.
const MIN_GLYPH_HEIGHT: f32 = 0.1;
/// A mark shorter than this fraction of the cell is a speck, not a pencil mark.
const MIN_MARK_HEIGHT: f32 = 0.07;
/// How many glyphs set the digit height: as many as a real puzzle has givens at least.
const DIGIT_POPULATION: usize = crate::puzzle::board::MIN_GIVENS;
/// Without pencil marks to compare with, a glyph this fraction of the digit height is a digit
/// (old-style 1 and 2 are x-height, about 0.65-0.75 of the others).
const DIGIT_FRACTION: f32 = 0.6;
/// A lone glyph at the very centre of its cell may be this small a fraction and still be a
/// digit.
const LONE_DIGIT_FRACTION: f32 = 0.42;
/// A lone glyph this close to its cell's centre (a fraction of the cell, on both axes; across
/// only, when it stands on the baseline) is placed as a digit is.
const LONE_OFFSET: f32 = 0.12;
/// How far (a fraction of the cell's height) a glyph's bottom may be from the digits'
/// baseline and still stand on it.
const BASELINE_TOLERANCE: f32 = 0.05;
/// The largest piece of a broken digit is at least this fraction of the digit height: a
/// digit joined from at most `MAX_PIECES` pieces (see [`Sizes::is_whole_digit`]) has one
/// that tall, gaps aside ...
const BROKEN_PART: f32 = 1.0 / 3.0;
/// ... or this fraction in a picture with pencil marks, whose columns of marks would pass
/// for a digit's pieces.
const BROKEN_PART_BESIDE_MARKS: f32 = 0.5;
/// ... and this many times the pencil marks' height, when the picture has pencil marks.
const MARK_MARGIN: f32 = 1.3;
/// A piece at least this many times wider than tall is a broken digit's bar (a `7`'s, a
/// `5`'s flag) whatever its size: no digit, so no pencil mark, is that wide.
const BAR_ASPECT: f32 = 1.5;
/// The gap up or down to the rest of a broken digit, as a fraction of the digit height.
const BROKEN_GAP: f32 = 0.25;
/// A digit joined from more pieces than this (specks aside) is pencil marks: a didone `5` on a
/// highlight, its joins under the cell's lowered threshold, comes apart into four (its bowl,
/// its flag's stem and bar, a sliver of the join).
const MAX_PIECES: usize = 4;
/// A digit joined from pieces is within these fractions of the digit height.
const WHOLE_LOW: f32 = 0.85;
const WHOLE_HIGH: f32 = 1.2;
/// A glyph stands on the digits' baseline when this many digit-sized glyphs end where it does.
const ON_BASELINE: usize = 3;
/// A glyph taller than this many digit heights is not one figure of the grid's font (3 of the
/// 26,771 digit glyphs of the first tuning rendering are; 19 of the photos' 4,893, glyphs
/// joined to the shadow at a grid's edge reaching 1.5-2).
const MAX_DIGIT_FRACTION: f32 = 1.45;
/// A glyph smaller than the digits (`SMALL_FRACTION`) with this many marks beside it in its
/// row, in a picture with pencil marks, is one of a row of pencil marks written across the
/// cell ("2568"), too far apart to join: an old-style face's tall marks (`6`, `8`), or any
/// mark beside marks broken into specks that pull the marks' typical height down, pass for
/// digits by their size alone.
const ROW_MATES: usize = 1;
/// A glyph below this fraction of the digit height is small enough to be pencil marks.
const SMALL_FRACTION: f32 = 0.8;
/// Pencil marks are at most this fraction of the cell (three rows of them fit in it).
const MAX_MARK_HEIGHT: f32 = 0.4;
/// Cut this fraction of the cell from each side to drop grid-line remnants.
const LINE_MARGIN: f32 = 0.09;
/// A pixel is ink when it is this fraction of the grid's text contrast away from its cell's
/// background (and at least `MIN_INK` grey levels).
const INK_FRACTION: f32 = 0.35;
/// Neighbourhood radius for finding grid lines, as a fraction of the grid's side: a quarter
/// cell, wider than any line.
const LINE_NEIGHBOURHOOD: f32 = 1.0 / 36.0;
/// The band along a cell's edges whose median grey is its background, as a fraction of the
/// cell's side.
const BACKGROUND_BAND: f32 = 0.12;
/// A cell's band (see [`cell_background`]) whose median grey lies more than this share of the
/// way from the grid's background to the far end of the scale (black on a light page, white on
/// a dark one) is mostly ink: no highlight is that far, since the givens must stand out from
/// it too. Nearer, the band's median stands (the corners of a photographed page's cells are
/// shaded otherwise than their edges: comparing the two in every cell moved 13 photos' readings,
/// 6 better and 7 worse; comparing them beyond this share but against the page only, a cell
/// in a photo's deep shadow took its lighter corners and lost its digits).
const INKED_BAND: f32 = 0.5;
/// A piece of ink at least this fraction of the digit height, shorter than a whole digit and
/// beside at most `FRAGMENT_COMPANIONS` other marks, may be what the threshold left of a
/// faint digit: a photo's red `7` washed out in a lit corner kept only its bar (7 of the
/// digits' 31 pixels), its thin diagonal under the threshold.
const FRAGMENT: f32 = 0.2;
/// See [`FRAGMENT`]: specks of paper noise beside it; pencil marks come in more.
const FRAGMENT_COMPANIONS: usize = 2;
/// Such a fragment is looked at again with the cell's ink threshold times this, and kept
/// whole only when that finds one glyph sized and shaped like the grid's digits. Measured on
/// the photos and tune seeds 1-5: 0.5 reads them as 0.6 does (photos 141 -> 144 exact, tune
/// unchanged); 0.7 one photo more and one tune picture fewer solved. `FRAGMENT` 0.15 reads
/// alike, 0.25 loses two of the photos (their bars are 0.23 of the digit height).
const FAINT_LOOK: f32 = 0.6;
/// A cell holding only specks is looked at again with the threshold times [`FAINT_LOOK`] when
/// at least this many times the digit height of its pixels reach that fainter threshold: a
/// digit's strokes cover at least its height (a `1`'s stem), a few specks of noise do not.
const FAINT_PIXELS: f32 = 1.0;
/// A digit-tall glyph narrower than this fraction of its height is a bare stem.
const BARE_STEM: f32 = 0.2;
/// A digit whose strokes stand out less than this fraction of the grid's text contrast is
/// looked at again with the ink threshold scaled to its own strength.
const OWN_STRENGTH: f32 = 0.8;
/// ... when it is narrower than this fraction of the grid's typical digit: a stem left of a
/// digit whose thinner strokes fell under the threshold. Wider, a lower threshold fills a
/// blurred `5`'s or `3`'s openings: looked at so, every faint digit mended seven tune
/// pictures' entries but misread seven others (a `5` read `6`, a `3` read `8` or `9`); the
/// narrow ones alone mended the seven and spoilt none.
const OWN_NARROW: f32 = 0.5;
/// The least contrast that counts as ink, in grey levels.
const MIN_INK: i32 = 24;

/// An entry this far (RGB distance) from the median colour of the entries is drawn in a
/// colour of its own (the lone-glyph split distance of the authors' colour groups).
const ENTRY_COLOUR_APART: f32 = 60.0;
/// The fewest entries whose median colour is theirs.
const MIN_ENTRIES_FOR_COLOUR: usize = 3;

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
    /// Given or a player's entry.
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
    /// Whether ink is lighter than the background.
    pub dark: bool,
    /// The grid's typical background colour.
    pub background: [u8; 3],
}

impl Cells {
    /// Which cells (row-major) hold an entry drawn in a colour of its own, far from the
    /// median colour of the picture's entries: an app that paints a wrong entry red has
    /// judged it already. `false` everywhere with fewer than `MIN_ENTRIES_FOR_COLOUR` entries.
    pub fn entries_coloured_apart(&self) -> [bool; 81] {
        let mut apart = [false; 81];
        let entries: Vec<(usize, [f32; 3])> = (self.glyphs.iter().enumerate())
            .filter_map(|(i, g)| g.as_ref().map(|g| (i, g)))
            .filter(|(_, g)| g.author == Author::Entry)
            .map(|(i, g)| (i, g.colour.map(f32::from)))
            .collect();
        if entries.len() < MIN_ENTRIES_FOR_COLOUR {
            return apart;
        }
        let median = std::array::from_fn(|c| {
            let mut channel: Vec<f32> = entries.iter().map(|e| e.1[c]).collect();
            channel.sort_by(f32::total_cmp);
            channel[channel.len() / 2]
        });
        for (i, colour) in entries {
            apart[i] = colour::distance(colour, median) > ENTRY_COLOUR_APART;
        }
        apart
    }

    /// The cells (row-major) whose glyph's author a weak shade alone decided (its `author`
    /// differs from its `sure_author`), the one whose colour is nearest the givens' mean
    /// colour first.
    pub fn unsure_nearest_givens_first(&self) -> Vec<usize> {
        let givens = colour::mean(
            (self.glyphs.iter().flatten())
                .filter(|g| g.author == Author::Given)
                .map(|g| g.colour.map(f32::from)),
        );
        let mut unsure: Vec<(usize, f32)> = (self.glyphs.iter().enumerate())
            .filter_map(|(i, g)| g.as_ref().map(|g| (i, g)))
            .filter(|(_, g)| g.author != g.sure_author)
            .map(|(i, g)| (i, colour::distance(g.colour.map(f32::from), givens)))
            .collect();
        unsure.sort_by(|a, b| a.1.total_cmp(&b.1));
        unsure.into_iter().map(|(i, _)| i).collect()
    }

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
pub fn slice(rect: &Rectified, image: &RgbImage) -> Cells {
    let gray = &rect.gray;
    let mut levels = Histogram::new();
    levels.add(gray.as_raw(), |v| v);
    let bg = levels.median().unwrap_or(255);
    // By the grid's own polarity, not its brightness: dim paper is darker than the middle.
    let dark = levels.light_on_dark();
    let line_ink = crate::pipeline::locate::ink_map(gray, dark, LINE_NEIGHBOURHOOD);
    let (lines_x, lines_y) = find_lines(&line_ink);
    let areas: [(u32, u32, u32, u32); 81] =
        std::array::from_fn(|i| cell_area(&lines_x, &lines_y, i / 9, i % 9));
    // Cells are independent: their backgrounds are found in parallel.
    let mut backgrounds = [0u8; 81];
    areas
        .par_iter()
        .zip(backgrounds.par_iter_mut())
        .for_each(|(&area, cell_bg)| *cell_bg = cell_background(gray, area, bg, dark));
    let stand_outs = backgrounds.map(|bg| stand_out_table(bg, dark));
    let contrast = text_contrast(gray, &areas, &stand_outs);
    let threshold = MIN_INK.max((contrast as f32 * INK_FRACTION) as i32);
    // Cells are independent: split over the thread pool. Each cell's background colour
    // serves its ink (hue against it) and, for a cell of pencil marks, the clean-up.
    let colours: Vec<[u8; 3]> = (areas.par_iter().zip(backgrounds.par_iter()))
        .map(|(&area, &cell_bg)| area_colour(rect, gray, area, cell_bg))
        .collect();
    let inks: Vec<Ink> = (0..81)
        .map(|i| Ink {
            stand_out: &stand_outs[i],
            threshold: cell_threshold(threshold, bg, backgrounds[i], dark),
            contrast,
            background: colours[i],
        })
        .collect();
    let found: Vec<CellInk> = (areas.par_iter().zip(inks.par_iter()))
        .map(|(&area, ink)| isolate_glyph(rect, gray, area, ink, JOIN))
        .collect();
    let sizes = Sizes::of(&found);
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
                let strength = faint::stroke_ink(glyph)? / 255.0;
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
    let (mut glyphs, mut marked): (Vec<_>, Vec<_>) =
        (found.into_iter().zip(colours.iter().copied()))
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
    detail::read_small_glyphs_again(
        &mut glyphs,
        &inks,
        sizes.digit,
        dark,
        image,
        &rect.projection,
    );
    let background = background_colour(&rect.image, gray, bg);
    authors::mark_entries(&mut glyphs, background, &colours);
    let room: Vec<f32> = (backgrounds.iter())
        .map(|&cell_bg| room_share(bg, cell_bg, dark))
        .collect();
    // A cell emptied of a smudge is cleaned like a cell of pencil marks before drawing.
    for i in faint::drop_faint_givens(&mut glyphs, &room) {
        marked[i] = Some(colours[i]);
    }
    Cells {
        glyphs,
        marked,
        lines_x,
        lines_y,
        dark,
        background,
    }
}

/// The ink threshold in a cell whose background is `cell_bg`: a highlighted cell (a darker
/// fill on a light theme) leaves ink less room to stand out, so the grid's threshold shrinks
/// in proportion to the room left between the cell's background and the ink's extreme
/// (a player's blue digit on a cell highlighted blue for holding the selected digit).
fn cell_threshold(threshold: i32, grid_bg: u8, cell_bg: u8, dark: bool) -> i32 {
    let share = room_share(grid_bg, cell_bg, dark);
    MIN_INK.max((threshold as f32 * share) as i32)
}

/// How much room a cell whose background is `cell_bg` leaves ink to stand out, as a share of
/// the room the grid's background `grid_bg` leaves (at most 1).
fn room_share(grid_bg: u8, cell_bg: u8, dark: bool) -> f32 {
    let room = |bg: u8| f32::from(if dark { 255 - bg } else { bg }).max(1.0);
    (room(cell_bg) / room(grid_bg)).min(1.0)
}

/// Each grid line's position, vertical lines (x) then horizontal (y): the column (or row)
/// within a quarter cell of where it should be that is most covered by ink standing out from
/// its neighbourhood. Coverage, not summed darkness, so a row of bold digits cannot outweigh a
/// faint line: a line crosses the whole grid, digits at most half of it. Highlighted cells are
/// uniform inside and do not count.
///
/// Only a row covering three quarters of a cell somewhere is a line: a full row of wide bold
/// digits with flat tops covers more than half the grid too, in pieces (Sigmar One's digits,
/// 0.65 of the cell wide, beside faint lines: the tops were taken for the line above them,
/// and the digits cut in half). A cell is covered by what the row and its two neighbours
/// hold, so a line tilted or bent in a photo still covers it: a photo's patchy line covers
/// 0.6-0.8 of each cell (asking that of two cells or more lost one photo of the 160).
fn find_lines(ink: &GrayImage) -> ([f32; 10], [f32; 10]) {
    let (w, h) = (ink.width() as usize, ink.height() as usize);
    let cell = CELL as usize;
    let inked: Vec<u8> = ink.as_raw().iter().map(|&v| u8::from(v > 0)).collect();
    let row_at = |y: usize| &inked[y * w..(y + 1) * w];
    let mut by_row = vec![Crossing::default(); h];
    // The columns' counts, one row of them per cell down (plain slices, so the additions
    // vectorise).
    let mut column_totals = vec![0u32; w];
    let mut column_cells = vec![vec![0u32; w]; 9];
    let mut across_rows = vec![0u8; w];
    let mut across_columns = vec![0u8; w];
    for (y, row) in by_row.iter_mut().enumerate() {
        let (above, here, below) = (
            row_at(y.saturating_sub(1)),
            row_at(y),
            row_at((y + 1).min(h - 1)),
        );
        // Each pixel's own ink or a neighbour's across the line: the row's above and below,
        // the column's left and right.
        for (((out, a), b), c) in across_rows.iter_mut().zip(above).zip(here).zip(below) {
            *out = a | b | c;
        }
        across_columns.copy_from_slice(here);
        for ((out, l), r) in across_columns[1..].iter_mut().zip(here).zip(&here[2..]) {
            *out |= l | r;
        }
        if let (Some(first), Some(&next)) = (across_columns.first_mut(), here.get(1)) {
            *first |= next;
        }
        if let (Some(last), Some(&before)) =
            (across_columns.last_mut(), here.get(w.wrapping_sub(2)))
        {
            *last |= before;
        }
        row.total = here.iter().map(|&v| u32::from(v)).sum();
        for (slot, chunk) in row.per_cell.iter_mut().zip(across_rows.chunks(cell)) {
            *slot = chunk.iter().map(|&v| u32::from(v)).sum();
        }
        for (total, &v) in column_totals.iter_mut().zip(here) {
            *total += u32::from(v);
        }
        let cells = &mut column_cells[(y / cell).min(8)];
        for (count, &v) in cells.iter_mut().zip(&across_columns) {
            *count += u32::from(v);
        }
    }
    let by_column: Vec<Crossing> = (0..w)
        .map(|x| Crossing {
            total: column_totals[x],
            per_cell: std::array::from_fn(|k| column_cells[k][x]),
        })
        .collect();
    (line_peaks(&by_column), line_peaks(&by_row))
}

/// The fewest cells a row (or column) must cover three quarters of to be a grid line (see
/// [`find_lines`]).
const MIN_CROSSED: usize = 1;

/// The ink of one row (or column) of the straightened grid: how much of it, and how much of
/// each cell it crosses, with its neighbours' ink, is covered.
#[derive(Clone, Copy, Default)]
struct Crossing {
    total: u32,
    per_cell: [u32; 9],
}

impl Crossing {
    /// Whether it runs like a grid line: across more than half the grid, and over at least
    /// three quarters of `MIN_CROSSED` cells, which digits never cover.
    fn is_line_like(&self, len: usize) -> bool {
        let crossed = (self.per_cell.iter())
            .filter(|&&c| c * 4 >= CELL * 3)
            .count();
        self.total as usize * 2 > len && crossed >= MIN_CROSSED
    }
}

/// The ten line positions along one axis from its rows' (or columns') ink.
fn line_peaks(profile: &[Crossing]) -> [f32; 10] {
    let n = profile.len();
    let mut out = [0.0; 10];
    for (k, slot) in out.iter_mut().enumerate() {
        let expected = k as u32 * CELL;
        let window = CELL / 4;
        let lo = expected.saturating_sub(window) as usize;
        let hi = ((expected + window) as usize).min(n - 1);
        // Only trust a peak that runs like a line; otherwise keep the even spacing.
        let best = (lo..=hi)
            .max_by_key(|&i| profile[i].total)
            .filter(|&i| profile[i].is_line_like(n));
        *slot = best.map_or(expected as f32, |i| i as f32);
    }
    out
}

/// The contrast of the grid's text: a high percentile of how far cell pixels stand out from
/// the background, so the ink threshold follows faint photos and crisp screenshots alike.
fn text_contrast(
    gray: &GrayImage,
    areas: &[(u32, u32, u32, u32); 81],
    stand_outs: &[[u8; 256]; 81],
) -> i32 {
    // Each cell's histogram in parallel, then summed.
    let cell_hist = |(&area, stand_out): (&(u32, u32, u32, u32), &[u8; 256])| {
        let mut hist = Histogram::new();
        area_rows(gray, area).for_each(|row| hist.add(row, |v| stand_out[v as usize]));
        hist.counts()
    };
    let add = |mut a: [u32; 256], b: [u32; 256]| {
        a.iter_mut().zip(b).for_each(|(a, b)| *a += b);
        a
    };
    let hist = (areas.par_iter().zip(stand_outs.par_iter()))
        .map(cell_hist)
        .reduce(|| [0u32; 256], add);
    let total: u32 = hist.iter().sum();
    // Digits cover a few percent of the cells; the 99.5th percentile sits inside strokes.
    let target = total - total / 200;
    let mut seen = 0;
    hist.iter()
        .position(|&n| {
            seen += n;
            seen >= target
        })
        .unwrap_or(255) as i32
}

/// For each grey level, how far it stands out from `background` in the ink direction,
/// clamped to 0-255.
fn stand_out_table(background: u8, dark: bool) -> [u8; 256] {
    std::array::from_fn(|v| {
        let d = v as i32 - i32::from(background);
        (if dark { d } else { -d }).clamp(0, 255) as u8
    })
}

/// The rows of `gray` within `area` (x0, y0, x1, y1).
fn area_rows(
    gray: &GrayImage,
    (x0, y0, x1, y1): (u32, u32, u32, u32),
) -> impl Iterator<Item = &[u8]> {
    let w = gray.width() as usize;
    (y0 as usize..y1 as usize)
        .map(move |y| &gray.as_raw()[y * w + x0 as usize..y * w + x1 as usize])
}

/// The cell's interior (x0, y0, x1, y1), line remnants cut away.
pub(crate) fn cell_area(
    xs: &[f32; 10],
    ys: &[f32; 10],
    row: usize,
    col: usize,
) -> (u32, u32, u32, u32) {
    let mx = (xs[col + 1] - xs[col]) * LINE_MARGIN;
    let my = (ys[row + 1] - ys[row]) * LINE_MARGIN;
    (
        (xs[col] + mx).round() as u32,
        (ys[row] + my).round() as u32,
        (xs[col + 1] - mx).round() as u32,
        (ys[row + 1] - my).round() as u32,
    )
}

/// The cell's background grey: the median of a band along the inside of its edges. Not the
/// whole cell's: a large bold digit can cover more than half of it. A heavy display face's
/// digit drawn at four fifths of the cell covers more than half the band too, and its median
/// is the ink (the digit's colour was then read against its own ink, came out as the page's,
/// and the given was taken for a player's entry). Digits never reach the band's corners, so
/// when the band's median is that far from the grid's background `grid_bg` (see
/// [`INKED_BAND`]; `dark`: light ink on a dark page), the corners' median is the cell's if it
/// is nearer `grid_bg` than the band's median: pencil marks, which do reach the corners, cover
/// less than half the band, and a highlight fills both alike.
fn cell_background(gray: &GrayImage, area: (u32, u32, u32, u32), grid_bg: u8, dark: bool) -> u8 {
    let (x0, y0, x1, y1) = area;
    let band = ((x1 - x0).min(y1 - y0) as f32 * BACKGROUND_BAND)
        .ceil()
        .max(1.0) as u32;
    let mut hist = Histogram::new();
    let mut corners = Histogram::new();
    for (dy, row) in area_rows(gray, area).enumerate() {
        let y = y0 + dy as u32;
        let w = row.len();
        let b = (band as usize).min(w / 2);
        if y < y0 + band || y + band >= y1 {
            hist.add(row, |v| v);
            corners.add(&row[..b], |v| v);
            corners.add(&row[w - b..], |v| v);
        } else {
            hist.add(&row[..b], |v| v);
            hist.add(&row[w - b..], |v| v);
        }
    }
    let along = hist.median().unwrap_or(0);
    let room = if dark { 255 - grid_bg } else { grid_bg };
    if f32::from(along.abs_diff(grid_bg)) <= INKED_BAND * f32::from(room) {
        return along;
    }
    // Corners like the page, not like the band: a photo's shadow darkens both alike.
    match corners.median() {
        Some(c) if c.abs_diff(grid_bg) < c.abs_diff(along) => c,
        _ => along,
    }
}

/// The sizes of the picture's glyphs: the digit height, and the pencil marks' when the
/// picture has cells full of them.
struct Sizes {
    /// The typical height of the tallest glyphs (the givens and entries).
    digit: f32,
    /// The typical height of pencil marks, from cells holding several of them.
    mark: Option<f32>,
    /// The typical height of the tallest mark in such a cell: marks broken into pieces by the
    /// threshold (grey marks on a tinted cell) pull the typical height down to the pieces'.
    whole_mark: Option<f32>,
    /// Where the digit-sized glyphs' bottoms are, each as a fraction of its cell's height from
    /// the top: the baseline, and for old-style figures the descender line too.
    bottoms: Vec<f32>,
}

impl Sizes {
    fn of(cells: &[CellInk]) -> Sizes {
        let mut heights: Vec<u32> = cells
            .iter()
            .filter_map(|c| c.glyph.as_ref().map(|g| g.height))
            .collect();
        heights.sort_unstable_by(|a, b| b.cmp(a));
        heights.truncate(DIGIT_POPULATION);
        let digit = median_of(&mut heights).unwrap_or(CELL as f32);
        let max_mark = MAX_MARK_HEIGHT * CELL as f32;
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
                    .is_some_and(|g| g.height as f32 >= DIGIT_FRACTION * digit)
            })
            .map(|c| c.bottom)
            .collect();
        Sizes {
            digit,
            mark,
            whole_mark,
            bottoms,
        }
    }

    /// Whether a cell's central glyph is a digit: sized like the digits rather than like the
    /// pencil marks, or, with no pencil marks to compare with, close to the digit height (or
    /// alone in its cell, centred or standing on the digits' baseline, and not much smaller:
    /// an old-style `1` is x-height, and sits low).
    fn is_digit(&self, glyph: &Glyph, cell: &CellInk) -> bool {
        let (marks, off_centre) = (&cell.marks, cell.off_centre);
        let h = glyph.height as f32;
        if h < MIN_GLYPH_HEIGHT * CELL as f32 || h < LONE_DIGIT_FRACTION * self.digit {
            return false;
        }
        // Small and a third wider than tall: pencil marks touching each other in a row. No
        // digit is that wide (the widest display faces are about as wide as tall).
        if glyph.width as f32 >= 4.0 / 3.0 * h && h < SMALL_FRACTION * self.digit {
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
                && h >= DIGIT_FRACTION * self.digit;
            return h * h >= self.digit * mark || lone_at_centre;
        }
        let standing = |b: &&f32| (cell.bottom - **b).abs() < BASELINE_TOLERANCE;
        let on_baseline = cell.off_across < LONE_OFFSET
            && self.bottoms.iter().filter(standing).count() >= ON_BASELINE;
        h >= DIGIT_FRACTION * self.digit
            || (marks.is_empty() && (off_centre < LONE_OFFSET || on_baseline))
    }

    /// Whether a cell's glyph, beside other marks, was joined from tiers of pieces one above
    /// another, each no taller than a pencil mark (the picture's, or the tallest beside it in
    /// the cell) and shorter than any broken digit's largest piece, and the whole narrower
    /// than that too: a column of pencil marks, as tall as a digit and as thin as a `1`
    /// (old-style marks descend into the mark below). A didone `7` whose hairline stem broke
    /// apart is as wide as a digit.
    fn is_column_of_marks(&self, glyph: &Glyph, cell: &CellInk, mark: f32) -> bool {
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
    fn broken_digit_join(&self, cell: &CellInk) -> Option<Join> {
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
    fn is_fragment(&self, cell: &CellInk) -> bool {
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
    fn may_hide_a_faint_digit(&self, cell: &CellInk) -> bool {
        let specks_only = (cell.marks.iter()).all(|&m| (m as f32) < MIN_GLYPH_HEIGHT * CELL as f32);
        cell.glyph.is_none() && specks_only && cell.faint_pixels as f32 >= FAINT_PIXELS * self.digit
    }

    /// Whether the cell's glyph is a digit-tall stroke no wider than a stem: a `1`, or what is
    /// left of a hairline digit's other strokes under the threshold.
    fn is_bare_stem(&self, cell: &CellInk) -> bool {
        cell.glyph.as_ref().is_some_and(|g| {
            self.is_digit(g, cell) && (g.width as f32) < BARE_STEM * g.height as f32
        })
    }

    /// Whether a glyph joined from pieces is one digit: a few pieces, sized and shaped like
    /// the grid's digits.
    fn is_whole_digit(&self, cell: &CellInk) -> bool {
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
    /// figures reach above and below the others, but by less than `MAX_DIGIT_FRACTION`.
    fn is_outsized(&self, glyph: &Glyph) -> bool {
        glyph.height as f32 > MAX_DIGIT_FRACTION * self.digit
    }
}

/// The median of `values` (sorted in place), `None` when empty.
fn median_of(values: &mut [u32]) -> Option<f32> {
    values.sort_unstable();
    let n = values.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(values[n / 2] as f32),
        _ => Some((values[n / 2 - 1] + values[n / 2]) as f32 / 2.0),
    }
}

/// The grid's typical background colour: the mean of pixels whose grey is the median grey.
/// Every other row and column is plenty for a mean over most of the square.
fn background_colour(image: &RgbImage, gray: &GrayImage, bg: u8) -> [u8; 3] {
    let rows = (image.as_raw().par_chunks_exact(image.width() as usize * 3))
        .zip(gray.as_raw().par_chunks_exact(gray.width() as usize))
        .step_by(2);
    // Rows at a time into u32 sums: one row of 504 pixels cannot overflow them.
    let row_sums = |(rgb, grey): (&[u8], &[u8])| {
        let mut row = [0u32; 4];
        for (p, &g) in rgb.chunks_exact(6).zip(grey.iter().step_by(2)) {
            let take = u32::from(g.abs_diff(bg) <= 2);
            row[0] += u32::from(p[0]) * take;
            row[1] += u32::from(p[1]) * take;
            row[2] += u32::from(p[2]) * take;
            row[3] += take;
        }
        row.map(u64::from)
    };
    let [r, g, b, n] = rows
        .map(row_sums)
        .reduce(|| [0u64; 4], |a, b| std::array::from_fn(|i| a[i] + b[i]));
    let n = n.max(1);
    [(r / n) as u8, (g / n) as u8, (b / n) as u8]
}

#[cfg(test)]
pub(crate) mod tests;
