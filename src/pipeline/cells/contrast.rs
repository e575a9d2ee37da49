//! Backgrounds and contrast: each cell's background, how far ink stands out from it, the
//! text's contrast over the grid, and the threshold a cell's ink must pass.

use image::{GrayImage, RgbImage};
use rayon::prelude::*;

use super::lines::area_rows;
use super::MIN_INK;
use crate::pipeline::gray::Histogram;

/// A cell's band (see [`cell_background`]) whose median grey lies more than this share of the
/// way from the grid's background to the far end of the scale (black on a light page, white on
/// a dark one) is mostly ink: no highlight is that far, since the givens must stand out from
/// it too. Nearer, the band's median stands (the corners of a photographed page's cells are
/// shaded otherwise than their edges: comparing the two in every cell moved 13 photos' readings,
/// 6 better and 7 worse; comparing them beyond this share but against the page only, a cell
/// in a photo's deep shadow took its lighter corners and lost its digits).
const INKED_BAND: f32 = 0.5;
/// The band along a cell's edges whose median grey is its background, as a fraction of the
/// cell's side.
const BACKGROUND_BAND: f32 = 0.12;
/// See [`own_contrast`]: the quantile of a cell's ink pixels that stands for its strokes,
/// as [`stroke_ink`](super::stroke_ink)'s does for a glyph's.
const OWN_QUANTILE: f64 = 0.9;
/// The ink threshold in a cell whose background is `cell_bg`: a highlighted cell (a darker
/// fill on a light theme) leaves ink less room to stand out, so the grid's threshold shrinks
/// in proportion to the room left between the cell's background and the ink's extreme
/// (a player's blue digit on a cell highlighted blue for holding the selected digit).
pub(super) fn cell_threshold(threshold: i32, grid_bg: u8, cell_bg: u8, dark: bool) -> i32 {
    let share = room_share(grid_bg, cell_bg, dark);
    MIN_INK.max((threshold as f32 * share) as i32)
}

/// The ink threshold of a cell whose own contrast is `own` and whose strongest pixel stands
/// out `peak` (see [`own_contrast`]): the same `fraction` of its own contrast as the grid's
/// `threshold` is of the grid's, not below [`MIN_INK`], the noise floor. Only for ink much
/// fainter than the grid's (a cut under `faint` times the grid's, the ratio at which the
/// cells' second looks call a digit faint) that the grid's cut sees at all (a `peak` above
/// it): a cell where nothing passes the grid's cut holds no more than shading or noise.
pub(super) fn own_threshold(threshold: i32, own: i32, peak: i32, fraction: f32, faint: f32) -> i32 {
    let cut = own as f32 * fraction;
    if peak <= threshold || cut > faint * threshold as f32 {
        return threshold;
    }
    (cut as i32).clamp(MIN_INK, threshold.max(MIN_INK))
}

/// How much room a cell whose background is `cell_bg` leaves ink to stand out, as a share of
/// the room the grid's background `grid_bg` leaves (at most 1).
pub(super) fn room_share(grid_bg: u8, cell_bg: u8, dark: bool) -> f32 {
    let room = |bg: u8| f32::from(if dark { 255 - bg } else { bg }).max(1.0);
    (room(cell_bg) / room(grid_bg)).min(1.0)
}

/// How far each cell's pixels stand out from its background (see [`stand_out_table`]): one
/// histogram per cell, from which the grid's text contrast and each cell's own are read.
pub(super) fn stand_out_histograms(
    gray: &GrayImage,
    areas: &[(u32, u32, u32, u32); 81],
    stand_outs: &[[u8; 256]; 81],
) -> Vec<Histogram> {
    (areas.par_iter().zip(stand_outs.par_iter()))
        .map(|(&area, stand_out)| {
            let mut hist = Histogram::new();
            area_rows(gray, area).for_each(|row| hist.add(row, |v| stand_out[v as usize]));
            hist
        })
        .collect()
}

/// The contrast of the grid's text: a high percentile of how far cell pixels stand out from
/// the background, so the ink threshold follows faint photos and crisp screenshots alike.
pub(super) fn text_contrast(cells: &[Histogram]) -> i32 {
    let mut hist = [0u32; 256];
    for cell in cells {
        hist.iter_mut()
            .zip(cell.counts())
            .for_each(|(a, b)| *a += b);
    }
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

/// A cell's own ink contrast and its peak: a high quantile of its pixels that stand out
/// at least [`MIN_INK`] (inside the strokes, whatever share of the cell they cover) and the
/// most any pixel stands out. A picture holds inks of
/// several strengths (black print, a player's dark pen beside a newspaper's faint grey or
/// pink print), and a glyph is cut at a fraction of its own ink's contrast, not of the
/// strongest ink's: cut at the pen's, faint print keeps only its cores and is read wrong or
/// not at all.
pub(super) fn own_contrast(cell: &Histogram) -> (i32, i32) {
    let counts = cell.counts();
    let inked = &counts[MIN_INK as usize..];
    let total: u32 = inked.iter().sum();
    let peak = inked
        .iter()
        .rposition(|&n| n > 0)
        .map_or(0, |p| p as i32 + MIN_INK);
    let target = (f64::from(total) * OWN_QUANTILE) as u32;
    let mut seen = 0;
    let strokes = inked.iter().position(|&n| {
        seen += n;
        seen > target
    });
    (strokes.map_or(0, |p| p as i32 + MIN_INK), peak)
}

/// For each grey level, how far it stands out from `background` in the ink direction,
/// clamped to 0-255.
pub(super) fn stand_out_table(background: u8, dark: bool) -> [u8; 256] {
    std::array::from_fn(|v| {
        let d = v as i32 - i32::from(background);
        (if dark { d } else { -d }).clamp(0, 255) as u8
    })
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
pub(super) fn cell_background(
    gray: &GrayImage,
    area: (u32, u32, u32, u32),
    grid_bg: u8,
    dark: bool,
) -> u8 {
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

/// The grid's typical background colour: the mean of pixels whose grey is the median grey.
/// Every other row and column is plenty for a mean over most of the square.
pub(super) fn background_colour(image: &RgbImage, gray: &GrayImage, bg: u8) -> [u8; 3] {
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
