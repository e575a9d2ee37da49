//! Finding the marks of one cell: the cell and a band around it sampled again from the
//! original picture at up to its own resolution, the grid lines found again in it (a grid a
//! little off in the straightened picture is a third of a cell off at some cells, and marks
//! sit close to the lines), and the ink between them split into glyphs. Ink that is not a
//! glyph of a pencil mark's size (a digit, ink crossing the cell's border, a speck broken off
//! a mark) makes the cell unreadable.

use std::ops::Range;

use image::{GrayImage, Luma, RgbImage};
use imageproc::geometric_transformations::Projection;

use crate::pipeline::cells::{MARK_HEIGHT, MIN_INK};
use crate::pipeline::mask::components;
use crate::pipeline::resample::{source_scale, Area, Piece, Strengths};

/// The sample reaches this fraction of a cell beyond the cell's grid lines on each side, so
/// a line found a little off its place and ink crossing it are both in view.
const EXTEND: f32 = 0.35;
/// A grid line is looked for within this fraction of a cell of where the grid puts it.
const LINE_SEARCH: f32 = 0.3;
/// A column (or row) is a line's when its pixels stand out along this share of the cell's
/// length; no column of marks covers more than three marks' height.
const LINE_COVER: f32 = 0.85;
/// ... and the run of such columns is at most this wide (a fraction of the cell): wider is a
/// highlighted neighbour's fill, not a line.
const LINE_WIDTH: f32 = 0.12;
/// A glyph or speck within this fraction of a cell of its border lies where only lines and
/// their anti-aliased crossings are.
const LINE_BAND: f32 = 0.08;
/// The cell's strongest ink is measured this fraction of the cell inside its lines, clear of
/// them, so dark lines do not set the ink threshold of fainter marks.
const PEAK_MARGIN: f32 = 0.08;
/// The sample is at the cell's size in the original picture, but at least at the straightened
/// grid's scale and at most this many times it: beyond three times (168 px a cell) a mark is
/// already far larger than the recognizer's 24x32 frame.
const MAX_ZOOM: f32 = 3.0;
/// A pixel is ink when it stands out at least this fraction of the cell's strongest ink
/// (marks are drawn in one colour, so their strokes reach about the same strength), and at
/// least [`MIN_INK`].
const INK_SHARE: f32 = 0.4;
/// A piece this thin and long (fractions of the cell) is a grid line's remnant: no mark is
/// half as tall as the cell.
const SLIVER_THICKNESS: f32 = 0.1;
const SLIVER_LENGTH: f32 = 0.5;
/// A glyph smaller than this fraction of the cell both ways is a speck, no mark...
const SPECK: f32 = 0.035;
/// ... or smaller than this many pixels of the original picture (JPEG noise and
/// anti-aliasing are a pixel or two, however small the cell).
const SPECK_PIXELS: f32 = 2.5;
/// Two pieces are one glyph when they overlap across by this share of the narrower...
const JOIN_OVERLAP: f32 = 0.3;
/// ... and are at most this far apart up and down (a fraction of the cell): a glyph broken by
/// compression or a thin font, not two marks stacked in a 3x3 layout, a tenth of a cell apart
/// or more.
const JOIN_GAP: f32 = 0.04;
/// A cell whose sides, between the lines found, differ by more than this share, or differ
/// from the grid's cell by more, is misplaced: its marks may be cut or a neighbour's.
const MAX_SKEW: f32 = 0.12;
/// A pencil mark is at most this wide (a fraction of the cell; its height see [`MARK_HEIGHT`]):
/// wider is a digit or marks run together.
const MAX_MARK_WIDTH: f32 = 0.3;

/// One glyph found in a cell.
#[derive(Clone, Debug)]
pub(super) struct Mark {
    /// Its box's centre, as fractions of the cell (0-1 across, 0-1 down).
    pub(super) centre: (f32, f32),
    /// Its box's left, top, right and bottom edges, as fractions of the cell.
    pub(super) bounds: [f32; 4],
    /// Its ink as brightness (255 = full ink), cropped to it.
    pub(super) ink: GrayImage,
    /// Its height in the original picture's pixels.
    pub(super) pixels: f32,
}

impl Mark {
    /// Height as a fraction of the cell.
    pub(super) fn height(&self) -> f32 {
        self.bounds[3] - self.bounds[1]
    }

    /// Width as a fraction of the cell.
    pub(super) fn width(&self) -> f32 {
        self.bounds[2] - self.bounds[0]
    }
}

/// The marks in `cell` (square-picture coordinates, between its grid lines' centres),
/// sampled from `image` through `back` (square -> original); `background` is the cell's
/// background colour and `dark` says whether ink is lighter than it. `None` when the cell
/// holds ink that is not pencil marks, or its lines are not where a cell's are.
pub(super) fn find_marks(
    image: &RgbImage,
    back: &Projection,
    cell: Area,
    background: [u8; 3],
    dark: bool,
) -> Option<Vec<Mark>> {
    let side = ((cell.2 - cell.0) + (cell.3 - cell.1)) / 2.0;
    let scale = source_scale(back, cell);
    let zoom = scale.clamp(1.0, MAX_ZOOM);
    let e = EXTEND * side;
    let area = (cell.0 - e, cell.1 - e, cell.2 + e, cell.3 + e);
    let size = (
        ((area.2 - area.0) * zoom).round().max(1.0) as u32,
        ((area.3 - area.1) * zoom).round().max(1.0) as u32,
    );
    let s = Strengths::of(image, back, area, size, (background, dark));
    // One cell in sample pixels.
    let px = side * zoom;
    let nominal = (
        e * zoom,
        e * zoom,
        (cell.2 - cell.0 + e) * zoom,
        (cell.3 - cell.1 + e) * zoom,
    );
    let frame = Frame::find(&s, nominal, px);
    let (l, t, r, b) = frame.cell;
    let (cw, ch) = (r - l, b - t);
    if (cw / ch - 1.0).abs() > MAX_SKEW || (cw.max(ch) / px - 1.0).abs() > MAX_SKEW {
        return None;
    }
    let m = PEAK_MARGIN * px;
    let inner = |a: f32, b: f32| ((a + m).max(0.0) as u32, (b - m).max(0.0) as u32);
    let ((x0, x1), (y0, y1)) = (inner(l, r), inner(t, b));
    let peak = s.peak((x0, y0, x1, y1));
    let threshold = MIN_INK.max((peak as f32 * INK_SHARE) as i32);
    if peak <= threshold {
        return None;
    }
    let mask = frame.ink_mask(&s, threshold);
    let band = LINE_BAND * px;
    let interior = (
        (l + band).max(0.0) as u32,
        (t + band).max(0.0) as u32,
        (r - band).max(0.0).ceil() as u32,
        (b - band).max(0.0).ceil() as u32,
    );
    let pieces = components(&mask, s.w, s.h, interior);
    let speck = (SPECK * px).max(SPECK_PIXELS * zoom / scale);
    let glyphs = glyph_boxes(&pieces, frame.cell, px, speck)?;
    let ink = Ink {
        strengths: &s,
        threshold,
        peak,
    };
    (glyphs.into_iter())
        .map(|g| mark(g, frame.cell, &ink, side * scale))
        .collect()
}

/// The ink of a cell's sample: its strengths, the threshold of ink and the strongest.
struct Ink<'a> {
    strengths: &'a Strengths,
    threshold: i32,
    peak: i32,
}

/// The mark of glyph box `g` in `cell` (sample pixels; `source` is the cell's side in the
/// original picture); `None` when it is not sized like a pencil mark.
fn mark(g: Piece, cell: (f32, f32, f32, f32), ink: &Ink<'_>, source: f32) -> Option<Mark> {
    let (l, t, r, b) = cell;
    let (cw, ch) = (r - l, b - t);
    let bounds = [
        (g.0 as f32 - l) / cw,
        (g.1 as f32 - t) / ch,
        ((g.2 + 1) as f32 - l) / cw,
        ((g.3 + 1) as f32 - t) / ch,
    ];
    let (bw, bh) = (bounds[2] - bounds[0], bounds[3] - bounds[1]);
    if !MARK_HEIGHT.contains(&bh) || bw > MAX_MARK_WIDTH {
        return None;
    }
    // As the cells stage crops a digit: faint fringes dropped, full ink at the cell's peak.
    let glyph = GrayImage::from_fn(g.2 - g.0 + 1, g.3 - g.1 + 1, |x, y| {
        let v = ink.strengths.at(g.0 + x, g.1 + y);
        let v = if v * 2 < ink.threshold {
            0
        } else {
            v * 255 / ink.peak
        };
        Luma([v.clamp(0, 255) as u8])
    });
    Some(Mark {
        centre: ((bounds[0] + bounds[2]) / 2.0, (bounds[1] + bounds[3]) / 2.0),
        bounds,
        ink: glyph,
        pixels: bh * source,
    })
}

/// The grid lines around a cell, found again in its sample.
struct Frame {
    /// The cell between its lines' centres (left, top, right, bottom), in sample pixels.
    cell: (f32, f32, f32, f32),
    /// The sample's columns and rows that are lines.
    columns: Vec<Range<u32>>,
    rows: Vec<Range<u32>>,
}

impl Frame {
    /// The lines near `nominal` (where the grid puts the cell's, sample pixels; `px` is a
    /// cell): each side's line is the run of line columns (rows) nearest its place; a side
    /// without one keeps its place (faint lines, boxes told apart by shading).
    fn find(s: &Strengths, nominal: (f32, f32, f32, f32), px: f32) -> Frame {
        let span = |a: f32, b: f32, n: u32| (a.max(0.0) as u32)..(b.max(0.0) as u32).min(n);
        let (along_y, along_x) = (
            span(nominal.1, nominal.3, s.h),
            span(nominal.0, nominal.2, s.w),
        );
        let cover = |hits: usize, of: &Range<u32>| hits as f32 / of.len().max(1) as f32;
        let columns: Vec<f32> = (0..s.w)
            .map(|x| {
                let hits = along_y.clone().filter(|&y| s.at(x, y) >= MIN_INK).count();
                cover(hits, &along_y)
            })
            .collect();
        let rows: Vec<f32> = (0..s.h)
            .map(|y| {
                let hits = along_x.clone().filter(|&x| s.at(x, y) >= MIN_INK).count();
                cover(hits, &along_x)
            })
            .collect();
        let (left, mut column_runs) = line_near(&columns, nominal.0, px);
        let (right, more) = line_near(&columns, nominal.2, px);
        column_runs.extend(more);
        let (top, mut row_runs) = line_near(&rows, nominal.1, px);
        let (bottom, more) = line_near(&rows, nominal.3, px);
        row_runs.extend(more);
        Frame {
            cell: (left, top, right, bottom),
            columns: column_runs,
            rows: row_runs,
        }
    }

    /// The pixels at least `threshold` strong, the lines' columns and rows (and a pixel
    /// beside them, their anti-aliasing) left out.
    fn ink_mask(&self, s: &Strengths, threshold: i32) -> Vec<bool> {
        let widen = |r: &Range<u32>, n: u32| r.start.saturating_sub(1)..(r.end + 1).min(n);
        let mut line_x = vec![false; s.w as usize];
        let mut line_y = vec![false; s.h as usize];
        for r in &self.columns {
            widen(r, s.w).for_each(|x| line_x[x as usize] = true);
        }
        for r in &self.rows {
            widen(r, s.h).for_each(|y| line_y[y as usize] = true);
        }
        (0..s.h)
            .flat_map(|y| (0..s.w).map(move |x| (x, y)))
            .map(|(x, y)| !line_x[x as usize] && !line_y[y as usize] && s.at(x, y) >= threshold)
            .collect()
    }
}

/// Along one axis, with `cover` the share of each column (row) that is line ink: the runs
/// of covered columns narrow enough to be a line within `LINE_SEARCH` cells (`px` each) of
/// `at`, and the centre of the one nearest `at` (`at` itself when there is none).
fn line_near(cover: &[f32], at: f32, px: f32) -> (f32, Vec<Range<u32>>) {
    let reach = LINE_SEARCH * px;
    let lo = (at - reach).max(0.0) as usize;
    let hi = ((at + reach).max(0.0) as usize).min(cover.len());
    let mut runs = Vec::new();
    let mut x = lo;
    while x < hi {
        if cover[x] < LINE_COVER {
            x += 1;
            continue;
        }
        // The whole run, even where it reaches outside the window.
        let (mut a, mut b) = (x, x);
        while a > 0 && cover[a - 1] >= LINE_COVER {
            a -= 1;
        }
        while b + 1 < cover.len() && cover[b + 1] >= LINE_COVER {
            b += 1;
        }
        if ((b - a + 1) as f32) <= LINE_WIDTH * px {
            runs.push(a as u32..b as u32 + 1);
        }
        x = b + 1;
    }
    let centre = |r: &Range<u32>| (r.start + r.end) as f32 / 2.0;
    let nearest = (runs.iter())
        .map(centre)
        .min_by(|a, b| (a - at).abs().total_cmp(&(b - at).abs()));
    (nearest.unwrap_or(at), runs)
}

/// The glyphs' boxes inside `cell` (left, top, right, bottom; `px` sample pixels a cell),
/// from the ink's `pieces` with their pixel counts in the cell's interior (beyond
/// `LINE_BAND` of its border): pieces joined into glyphs; pieces outside the cell or reaching
/// only into the band along its border (lines not found, a highlighted neighbour's fill, the
/// crossings' anti-aliasing), line remnants and specks in the band dropped. `None` when ink
/// is left that is neither a glyph nor dropped: a piece crossing the border into the
/// interior (a mark cut off by a misplaced line, a neighbour's glyph reaching in) or a speck
/// in the interior joined to no glyph (a stroke broken off a mark, which left out would
/// change the mark).
fn glyph_boxes(
    pieces: &[(Piece, usize)],
    cell: (f32, f32, f32, f32),
    px: f32,
    speck: f32,
) -> Option<Vec<Piece>> {
    let (l, t, r, b) = cell;
    let band = LINE_BAND * px;
    let near_border = |p: &Piece| {
        (p.0 as f32) < l + band
            || (p.2 as f32) > r - band
            || (p.1 as f32) < t + band
            || (p.3 as f32) > b - band
    };
    let small = |p: &Piece| ((p.2 - p.0 + 1).max(p.3 - p.1 + 1) as f32) < speck;
    let mut inside: Vec<Piece> = Vec::with_capacity(pieces.len());
    for (p, within) in pieces {
        let (x0, y0, x1, y1) = (p.0 as f32, p.1 as f32, p.2 as f32, p.3 as f32);
        if x1 < l || x0 > r || y1 < t || y0 > b {
            continue;
        }
        let (pw, ph) = (x1 - x0 + 1.0, y1 - y0 + 1.0);
        let sliver = pw.min(ph) <= SLIVER_THICKNESS * px && pw.max(ph) >= SLIVER_LENGTH * px;
        let crosses = x0 <= l || x1 >= r || y0 <= t || y1 >= b;
        match (
            sliver || small(p) && near_border(p) || *within == 0,
            crosses,
        ) {
            (true, _) => continue,
            (false, true) => {
                return None;
            }
            (false, false) => inside.push(*p),
        }
    }
    let glyphs = join(inside, px);
    if glyphs.iter().any(small) {
        return None;
    }
    Some(glyphs)
}

/// Joins pieces that belong to one glyph (see `JOIN_OVERLAP`, `JOIN_GAP`; `px` sample pixels
/// a cell) until no two join; the glyphs top to bottom, then left to right.
fn join(mut boxes: Vec<Piece>, px: f32) -> Vec<Piece> {
    let gap = (JOIN_GAP * px).round() as i64;
    let belong = |a: &Piece, b: &Piece| {
        let overlap = i64::from(a.2.min(b.2)) - i64::from(a.0.max(b.0)) + 1;
        let narrower = i64::from((a.2 - a.0).min(b.2 - b.0) + 1);
        let apart = i64::from(a.1.max(b.1)) - i64::from(a.3.min(b.3)) - 1;
        overlap as f32 >= JOIN_OVERLAP * narrower as f32 && apart <= gap
    };
    let mut changed = true;
    while changed {
        changed = false;
        'outer: for i in 0..boxes.len() {
            for j in i + 1..boxes.len() {
                if belong(&boxes[i], &boxes[j]) {
                    let b = boxes.swap_remove(j);
                    let a = &mut boxes[i];
                    *a = (a.0.min(b.0), a.1.min(b.1), a.2.max(b.2), a.3.max(b.3));
                    changed = true;
                    break 'outer;
                }
            }
        }
    }
    boxes.sort_unstable_by_key(|b| (b.1, b.0));
    boxes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_glyph_broken_in_two_is_one_glyph_and_neighbours_stay_apart() {
        // In a 100-px cell: a 5 whose bar came loose (two pieces stacked 2 px apart), and a 6
        // beside it, 4 px to the right.
        let pieces = vec![(10, 10, 20, 12), (9, 15, 20, 30), (25, 10, 35, 30)];
        assert_eq!(join(pieces, 100.0), [(9, 10, 20, 30), (25, 10, 35, 30)]);
        // Two marks of a 3x3 column, a tenth of a cell apart, stay two.
        let column = vec![(10, 10, 18, 28), (10, 40, 18, 58)];
        assert_eq!(join(column, 100.0).len(), 2);
    }

    #[test]
    fn ink_outside_the_cell_and_line_remnants_are_dropped_but_other_ink_is_not() {
        // A 100-px cell from 50 to 150 in a sample that reaches 50 px beyond it.
        let cell = (50.0, 50.0, 150.0, 150.0);
        let mark = (90, 90, 100, 110);
        // `within`: the piece's pixels more than 8 px inside the border.
        let keep = |extra: Piece, within: usize| {
            glyph_boxes(&[(extra, within), (mark, 150)], cell, 100.0, 3.5)
        };
        // A neighbour's mark, and a line's remnant along the border.
        assert_eq!(keep((10, 90, 20, 110), 0), Some(vec![mark]));
        assert_eq!(keep((48, 55, 51, 140), 0), Some(vec![mark]));
        // A speck where two lines cross.
        assert_eq!(keep((150, 149, 151, 150), 0), Some(vec![mark]));
        // A highlighted neighbour's fill joined to the line between: it reaches only the
        // band along the border.
        assert_eq!(keep((145, 0, 200, 200), 0), Some(vec![mark]));
        // A mark cut by the border (the rest of it beyond a misplaced line).
        assert_eq!(keep((140, 90, 155, 110), 40), None);
        // A speck broken off a mark and joined to none.
        assert_eq!(keep((105, 95, 107, 97), 9), None);
    }

    #[test]
    fn a_line_is_a_narrow_run_of_covered_columns_near_its_place() {
        // A line 3 columns wide at 47-49 where the grid put it at 40, and a highlighted
        // neighbour's fill from 0 to 30: too wide to be a line.
        let mut cover = vec![0.1; 200];
        cover[47..50].iter_mut().for_each(|c| *c = 1.0);
        cover[0..30].iter_mut().for_each(|c| *c = 1.0);
        let (at, runs) = line_near(&cover, 40.0, 100.0);
        assert_eq!(at, 48.5);
        assert_eq!(runs.len(), 1);
        assert_eq!(runs[0], 47..50);
    }
}
