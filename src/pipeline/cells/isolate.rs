//! Isolating the glyph of one cell: which pixels are ink (by grey or by hue, against the
//! cell's own background), the connected pieces they form, which piece is the cell's glyph
//! (the largest near the centre, with whatever touches it), and which are grid-line remnants
//! or pencil marks beside it.

use crate::pipeline::mask::component_boxes;
use image::{GrayImage, Luma, RgbImage};

use super::{Author, Glyph, LINE_MARGIN, MARK_HEIGHT, MIN_GLYPH_HEIGHT};
use crate::pipeline::gray::grey_or_hue;
use crate::pipeline::rectify::{Rectified, CELL};

use super::pieces::{
    faint_bridges, is_column_of_marks, is_line_sliver, is_row_of_marks, is_speck, join_pieces,
    row_mates, stacked_height, Bridges, Join, PieceBox,
};

/// How ink is told from background in one cell.
#[derive(Clone, Copy)]
pub(super) struct Ink<'a> {
    /// How far each grey level stands out from the cell's background, in the ink direction.
    pub(super) stand_out: &'a [u8; 256],
    /// The least stand-out that counts as ink.
    pub(super) threshold: i32,
    /// Twice the least stand-out drawn in a glyph's ink: the threshold, or the grid's where
    /// a cell is cut at its own contrast, so that its strokes' strength is measured as the
    /// other cells' are.
    pub(super) shown_from: i32,
    /// The grid's text contrast, which maps to full ink.
    pub(super) contrast: i32,
    /// The cell's background colour.
    pub(super) background: [u8; 3],
}

impl Ink<'_> {
    /// How far a pixel stands out from the cell's background: in grey towards the ink, or in
    /// hue, whichever is more. A pink wrong entry on a blue highlighted row differs from it
    /// more in hue than in grey.
    fn strength(&self, grey: u8, rgb: [u8; 3]) -> i32 {
        grey_or_hue(
            i32::from(self.stand_out[grey as usize]),
            rgb,
            self.background,
        )
    }
}

/// What one cell holds: its most central glyph (if any) and the other marks beside it.
pub(super) struct CellInk {
    /// The largest glyph near the cell's centre, with whatever touches it.
    pub(super) glyph: Option<Glyph>,
    /// How far the glyph's centre is from the cell's, as a fraction of the cell (the larger
    /// of the two axes).
    pub(super) off_centre: f32,
    /// How far the glyph's centre is from the cell's across, as a fraction of the cell.
    pub(super) off_across: f32,
    /// Where the glyph's bottom is, as a fraction of the cell's height from its top.
    pub(super) bottom: f32,
    /// Heights of the other marks in the cell (grid-line remnants and specks left out).
    pub(super) marks: Vec<u32>,
    /// How many pieces of ink the glyph was joined from, specks left out.
    pub(super) pieces: usize,
    /// When the glyph was joined from pieces one above another, none overlapping another's
    /// rows (specks left out): the tallest piece's height. Pencil marks stacked in a column
    /// join so; the pieces of a broken digit mostly overlap, or keep one tall piece.
    pub(super) stacked: Option<u32>,
    /// How many other marks stand beside the glyph in its row (sharing most of its rows, at
    /// least half its height): pencil marks written in a row are too far apart to join.
    pub(super) row_mates: usize,
    /// When no glyph was found: how many of the cell's pixels stand out at least
    /// [`FAINT_LOOK`](super::FAINT_LOOK) times the ink threshold (0 otherwise).
    pub(super) faint_pixels: usize,
}

impl CellInk {
    /// Whether anything but the background is in the cell.
    pub(super) fn has_marks(&self) -> bool {
        self.glyph.is_some() || !self.marks.is_empty()
    }

    /// Whether marks taller than specks stand beside its glyph: pencil marks, or pieces of
    /// something that is not one digit.
    pub(super) fn has_marks_beside(&self) -> bool {
        (self.marks.iter()).any(|&m| m as f32 >= MIN_GLYPH_HEIGHT * CELL as f32)
    }
}

/// The glyph in one cell, if any: the largest component near the centre, with whatever
/// comes within `join` of its box; and the other marks.
pub(super) fn isolate_glyph(
    rect: &Rectified,
    gray: &GrayImage,
    area: (u32, u32, u32, u32),
    ink: &Ink<'_>,
    join: Join,
) -> CellInk {
    let (x0, y0, x1, y1) = area;
    let (w, h) = (x1 - x0, y1 - y0);
    let (threshold, contrast, shown_from) = (ink.threshold, ink.contrast, ink.shown_from);
    // Coordinates relative to the area; rows above it wrap around and are mapped back.
    let strength = |x: u32, y: u32| {
        let (x, y) = (x0 + x, y0.wrapping_add(y));
        ink.strength(gray.get_pixel(x, y)[0], rect.image.get_pixel(x, y).0)
    };
    let is_ink = |x: u32, y: u32| strength(x, y) > threshold;
    let strengths = area_strengths(rect, gray, area, ink);
    let mask: Vec<bool> = strengths.iter().map(|&s| s > threshold).collect();
    let spans = |b: &PieceBox| (b.0 == 0 && b.2 + 1 == w) || (b.1 == 0 && b.3 + 1 == h);
    let all_boxes = component_boxes(&mask, w, h);
    // Only pieces can be bridged: a cell of one piece needs no faint look.
    let bridges = if all_boxes.len() > 1 {
        let faint: Vec<bool> = strengths.iter().map(|&s| s * 2 >= threshold).collect();
        faint_bridges(&mask, &faint, &all_boxes, w)
    } else {
        Bridges::none()
    };
    let boxes: Vec<_> = all_boxes
        .into_iter()
        .filter(|b| !is_line_sliver(b, w, h))
        .filter(|b| !join.without_spans || !spans(b))
        .collect();
    let min_height = (MIN_GLYPH_HEIGHT * CELL as f32) as u32;
    // Rounded up: truncated, 3.9 px let 3 px specks count as marks, and their number pulled
    // the marks' typical height down to theirs.
    let min_mark = (MARK_HEIGHT.start() * CELL as f32).ceil() as u32;
    let height = |b: &(u32, u32, u32, u32)| b.3 - b.1 + 1;
    let (cx, cy) = (w as f32 / 2.0, h as f32 / 2.0);
    let offset = |b: &(u32, u32, u32, u32)| {
        let (bx, by) = ((b.0 + b.2) as f32 / 2.0, (b.1 + b.3) as f32 / 2.0);
        ((bx - cx).abs() / w as f32).max((by - cy).abs() / h as f32)
    };
    let main = boxes
        .iter()
        .filter(|b| height(b) >= min_height && offset(b) < 0.3)
        .max_by_key(|b| (b.2 - b.0 + 1) * height(b));
    let Some(main) = main else {
        let faint = threshold as f32 * super::FAINT_LOOK;
        return CellInk {
            glyph: None,
            off_centre: 1.0,
            off_across: 1.0,
            bottom: 1.0,
            pieces: 0,
            stacked: None,
            row_mates: 0,
            faint_pixels: strengths.iter().filter(|&&s| s as f32 >= faint).count(),
            marks: boxes
                .iter()
                .map(height)
                .filter(|&h| h >= min_mark)
                .collect(),
        };
    };
    let joinable: Vec<PieceBox> = boxes
        .iter()
        .filter(|b| !join.inside_only || *b == main || (b.1 > 0 && b.3 + 1 < h))
        .copied()
        .collect();
    let joined = join_pieces(&joinable, *main, join, min_mark, &bridges);
    let (mut bx0, mut by0, mut bx1, mut by1) = *main;
    for b in &joined {
        (bx0, by0, bx1, by1) = (bx0.min(b.0), by0.min(b.1), bx1.max(b.2), by1.max(b.3));
    }
    let mut marks: Vec<u32> = boxes
        .iter()
        .filter(|b| !joined.contains(b))
        .map(height)
        .filter(|&h| h >= min_mark)
        .collect();
    // A descender (old-style 3, 5, 7, 9) or a digit set low reaches into the margin left
    // for the grid lines: follow its strokes out of the area, up to the line.
    let reach = (LINE_MARGIN * CELL as f32).round() as u32;
    let mut down = 0;
    if by1 + 1 == h {
        let room = gray.height().saturating_sub(y0 + h);
        down = follow_strokes(&is_ink, (bx0, bx1), by1, w, reach.min(room), 1);
    }
    let mut up = 0;
    if by0 == 0 {
        up = follow_strokes(&is_ink, (bx0, bx1), 0, w, reach.min(y0), -1);
    }
    let joined_box = (bx0, by0, bx1, by1);
    let column = !marks.is_empty() && is_column_of_marks(&joined, joined_box, min_mark);
    if is_row_of_marks(&joined, joined_box) || column {
        marks.extend(joined.iter().map(height).filter(|&h| h >= min_mark));
        return CellInk {
            glyph: None,
            off_centre: 1.0,
            off_across: 1.0,
            bottom: 1.0,
            pieces: 0,
            stacked: None,
            row_mates: 0,
            faint_pixels: 0,
            marks,
        };
    }
    let size = (bx1 - bx0 + 1, by1 - by0 + 1 + up + down);
    // Each pixel's stand-out, measured once: the ink below and the stroke colour use it.
    // The glyph's box, with the rows followed above and below the area (`up` is at most `y0`,
    // `down` at most the rows left below it).
    let (left, top) = (x0 + bx0, y0 + by0 - up);
    let raw = area_strengths(rect, gray, (left, top, left + size.0, top + size.1), ink);
    let raw_at = |x: u32, y: u32| raw[(y * size.0 + x) as usize];
    let ink = GrayImage::from_fn(size.0, size.1, |x, y| {
        let s = raw_at(x, y);
        let v = if s * 2 < shown_from {
            0
        } else {
            s * 255 / contrast.max(1)
        };
        Luma([v.clamp(0, 255) as u8])
    });
    let origin = (x0 + bx0, y0 + by0 - up);
    let core = (x0 + main.0, y0 + main.1, x0 + main.2, y0 + main.3);
    let colour = stroke_colour(&rect.image, size, &raw_at, origin, core);
    let glyph = Glyph {
        width: ink.width(),
        height: ink.height(),
        ink,
        colour,
        author: Author::Given,
        origin,
        core,
        outsized: false,
        sure_author: Author::Given,
        // Set once the cells' backgrounds are known (see `slice`).
        cell_background: [255; 3],
        room: 1.0,
    };
    CellInk {
        glyph: Some(glyph),
        off_centre: offset(&(bx0, by0, bx1, by1)),
        off_across: ((bx0 + bx1) as f32 / 2.0 - cx).abs() / w as f32,
        bottom: (by1 + 1 + down) as f32 / h as f32,
        pieces: joined.iter().filter(|b| !is_speck(b, min_mark)).count(),
        stacked: stacked_height(&joined, min_mark),
        row_mates: row_mates(&boxes, &joined, (bx0, by0, bx1, by1)),
        faint_pixels: 0,
        marks,
    }
}

/// [`Ink::strength`] of every pixel of `area` of the straightened grid, row-major, read along
/// the rows of the grey and colour pictures.
fn area_strengths(
    rect: &Rectified,
    gray: &GrayImage,
    (x0, y0, x1, y1): (u32, u32, u32, u32),
    ink: &Ink<'_>,
) -> Vec<i32> {
    let mut out = Vec::with_capacity(((x1 - x0) * (y1 - y0)) as usize);
    for row in area_rows(rect, gray, (x0, y0, x1, y1)) {
        out.extend(row.map(|(g, c)| ink.strength(g, c)));
    }
    out
}

/// The rows of `x0..x1` x `y0..y1` of the straightened grid, each pixel as its grey and its
/// colour, read as slices of both pictures (a pixel at a time through their accessors cost
/// more than what is done with them).
fn area_rows<'a>(
    rect: &'a Rectified,
    gray: &'a GrayImage,
    (x0, y0, x1, y1): (u32, u32, u32, u32),
) -> impl Iterator<Item = impl Iterator<Item = (u8, [u8; 3])> + 'a> + 'a {
    let (stride, w) = (gray.width() as usize, (x1 - x0) as usize);
    let (greys, colours) = (gray.as_raw(), rect.image.as_raw());
    (y0 as usize..y1 as usize).map(move |y| {
        let first = y * stride + x0 as usize;
        let rgb = colours[3 * first..3 * (first + w)].chunks_exact(3);
        (greys[first..first + w].iter().zip(rgb)).map(|(&g, c)| (g, [c[0], c[1], c[2]]))
    })
}

/// How many rows beyond `edge` (up to `reach`, stepping by `step`: 1 down, -1 up) the ink of
/// the glyph spanning columns `span` goes on: each row's ink must touch the row before's, and
/// a row inked across half the cell's width `w` from one of its sides is a grid line, where
/// the glyph stops. A line runs from side to side; a large `7`'s bar in the margin above the
/// area is as wide but centred (Geist digits 0.77 of the cell: the bar was cut off and the
/// stem read as a 6).
fn follow_strokes(
    is_ink: &impl Fn(u32, u32) -> bool,
    span: (u32, u32),
    edge: u32,
    w: u32,
    reach: u32,
    step: i32,
) -> u32 {
    let mut previous: Vec<bool> = (0..w)
        .map(|x| x >= span.0 && x <= span.1 && is_ink(x, edge))
        .collect();
    for k in 1..=reach {
        let y = edge.wrapping_add_signed(step * k as i32);
        let row: Vec<bool> = (0..w).map(|x| is_ink(x, y)).collect();
        if is_line_row(&row) {
            return k - 1;
        }
        let touches =
            |x: usize| previous[x.saturating_sub(1)..=(x + 1).min(w as usize - 1)].contains(&true);
        let next: Vec<bool> = (0..w as usize).map(|x| row[x] && touches(x)).collect();
        if !next.contains(&true) {
            return k - 1;
        }
        previous = next;
    }
    reach
}

/// A row of the margin inked across half its width, from one of its ends: a grid line
/// (straight or, in a slightly tilted grid, crossing the row).
fn is_line_row(row: &[bool]) -> bool {
    let reaches_a_side = row.first() == Some(&true) || row.last() == Some(&true);
    reaches_a_side && row.iter().filter(|&&i| i).count() * 2 > row.len()
}

/// The mean colour of a cell's background pixels (those within 3 levels of its median grey,
/// `bg`).
pub(super) fn area_colour(
    rect: &Rectified,
    gray: &GrayImage,
    area: (u32, u32, u32, u32),
    bg: u8,
) -> [u8; 3] {
    let mut sum = [0u64; 3];
    let mut n = 0u64;
    for row in area_rows(rect, gray, area) {
        for (g, p) in row {
            if g.abs_diff(bg) <= 3 {
                (0..3).for_each(|i| sum[i] += u64::from(p[i]));
                n += 1;
            }
        }
    }
    let n = n.max(1);
    [(sum[0] / n) as u8, (sum[1] / n) as u8, (sum[2] / n) as u8]
}

/// The mean colour of the glyph's strongest pixels (its stroke cores, free of anti-aliasing).
/// Pixels within a fifth of the peak: a looser cut lets a thin stroke's partly covered pixels
/// pull the colour towards the background, so a serif's hairline digits came out as light as a
/// player's grey entries (tune: 2 grids more exact, 7/10 against 8/10; 9/10 follows JPEG noise).
/// The peak is the strongest pixel's own stand-out, not the glyph's ink scaled to the grid's
/// contrast: that saturates, and in a hairline face most of a stroke's partly covered pixels
/// reached it (Kanit's black givens came out 45-115 grey, its grey entries among them).
/// `size` is the glyph box's, `strength` each of its pixels' stand-out as ink.
fn stroke_colour(
    image: &RgbImage,
    size: (u32, u32),
    strength: &dyn Fn(u32, u32) -> i32,
    origin: (u32, u32),
    core: (u32, u32, u32, u32),
) -> [u8; 3] {
    let (w, h) = size;
    let in_core = |x: u32, y: u32| {
        let (x, y) = (origin.0 + x, origin.1 + y);
        (core.0..=core.2).contains(&x) && (core.1..=core.3).contains(&y)
    };
    let core_pixels: Vec<(u32, u32, i32)> = (0..h)
        .flat_map(|y| (0..w).map(move |x| (x, y)))
        .filter(|&(x, y)| in_core(x, y))
        .map(|(x, y)| (x, y, strength(x, y)))
        .collect();
    let peak = core_pixels.iter().map(|p| p.2).max().unwrap_or(0);
    let cut = peak * 8 / 10;
    let mut sum = [0u64; 3];
    let mut n = 0u64;
    for &(x, y, s) in &core_pixels {
        if s >= cut && s > 0 {
            let c = image.get_pixel(origin.0 + x, origin.1 + y).0;
            (0..3).for_each(|i| sum[i] += u64::from(c[i]));
            n += 1;
        }
    }
    let n = n.max(1);
    [(sum[0] / n) as u8, (sum[1] / n) as u8, (sum[2] / n) as u8]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_large_sevens_bar_above_the_area_is_followed_and_a_line_is_not() {
        // A 7 whose bar lies in the margin two rows above the area, its stem centred.
        let (w, h) = (40u32, 40u32);
        let bar = |x: u32, y: u32| y == u32::MAX - 1 && (8..32).contains(&x);
        let stem = |x: u32, y: u32| (y == u32::MAX || y < h) && (26..30).contains(&x);
        let seven = |x: u32, y: u32| bar(x, y) || stem(x, y);
        assert_eq!(follow_strokes(&seven, (26, 29), 0, w, 3, -1), 2);
        // A grid line there instead, across the whole row: the glyph stops below it.
        let line = |x: u32, y: u32| (y == u32::MAX - 1 && x < w) || stem(x, y);
        assert_eq!(follow_strokes(&line, (26, 29), 0, w, 3, -1), 1);
    }

    #[test]
    fn a_hairline_glyphs_colour_is_its_darkest_pixels() {
        // A hairline black stroke on white: one column of full pixels (stand-out 230), two
        // of anti-aliased grey beside it (stand-out 120, above what the grid's text contrast
        // scales to full ink in a picture of such faces).
        let image = RgbImage::from_fn(3, 10, |x, _| {
            image::Rgb(if x == 1 {
                [20, 20, 20]
            } else {
                [130, 130, 130]
            })
        });
        let strength = |x: u32, _y: u32| if x == 1 { 230 } else { 120 };
        let colour = stroke_colour(&image, (3, 10), &strength, (0, 0), (0, 0, 2, 9));
        assert_eq!(colour, [20, 20, 20]);
    }
}
