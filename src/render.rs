//! Render: draw the answer into the empty cells of the ORIGINAL picture, through the inverse
//! of the rectifying projection, so a tilted grid gets tilted digits. Digits are anti-aliased
//! (coverage from the bundled font's outlines), sized like the givens, centred in their cells,
//! in a colour that stands out from the givens and suits the background. Nothing outside the
//! drawn glyphs changes.

use ab_glyph::{Font, FontRef, PxScale};
use image::RgbImage;
use rayon::prelude::*;

use crate::board::{Board, Digit, Pos};
use crate::cells::{Author, Cells};
use crate::rectify::{Rectified, CELL};

/// DejaVu Sans (Bitstream Vera licence, see assets/fonts/): answers and printable puzzles.
pub(crate) static FONT: &[u8] = include_bytes!("../assets/fonts/DejaVuSans.ttf");

/// Answer digits are this fraction of the cell tall when there are no givens to copy.
const DEFAULT_HEIGHT: f32 = 0.6;

/// A digit rasterised once: coverage 0-1 on a grid of `scale` raster pixels per square pixel.
struct Raster {
    width: u32,
    height: u32,
    coverage: Vec<f32>,
}

impl Raster {
    /// Bilinear coverage at raster coordinates (x, y); 0 outside.
    fn sample(&self, x: f32, y: f32) -> f32 {
        let (x, y) = (x - 0.5, y - 0.5);
        let (w, h) = (self.width as i32, self.height as i32);
        // Every tap outside: the common case around a glyph, decided before any rounding.
        if !(x > -1.0 && y > -1.0 && x < w as f32 && y < h as f32) {
            return 0.0;
        }
        // floor for values above -1, without a libm call
        let (x0, y0) = ((x + 1.0) as i32 - 1, (y + 1.0) as i32 - 1);
        let (fx, fy) = (x - x0 as f32, y - y0 as f32);
        let at = |xi: i32, yi: i32| -> f32 {
            if xi < 0 || yi < 0 || xi >= w || yi >= h {
                0.0
            } else {
                self.coverage[(yi * w + xi) as usize]
            }
        };
        let top = at(x0, y0) * (1.0 - fx) + at(x0 + 1, y0) * fx;
        let bottom = at(x0, y0 + 1) * (1.0 - fx) + at(x0 + 1, y0 + 1) * fx;
        top * (1.0 - fy) + bottom * fy
    }
}

/// Draws every digit of `solution` whose cell is empty in the picture (no given, no entry).
/// Returns how many digits were drawn.
pub fn draw_answer(
    image: &mut RgbImage,
    rect: &Rectified,
    cells: &Cells,
    solution: &Board,
    colour: Option<[u8; 3]>,
) -> usize {
    let font = FontRef::try_from_slice(FONT).expect("the bundled font is valid");
    let colour = colour.unwrap_or_else(|| answer_colour(cells));
    let height = digit_height(cells);
    // Raster at the original picture's resolution so strokes stay crisp after mapping back.
    let scale = (rect.quad.mean_side() / (9 * CELL) as f32).max(1.0);
    let back = rect.projection.invert();
    let mut rasters: [Option<Raster>; 9] = Default::default();
    let mut jobs = Vec::new();
    for pos in Pos::all() {
        if cells.glyphs[pos.index()].is_some() {
            continue;
        }
        let Some(digit) = solution.get(pos) else {
            continue;
        };
        rasters[digit.get() as usize - 1]
            .get_or_insert_with(|| rasterise(&font, digit, height * scale));
        jobs.push((pos, digit));
    }
    // Each digit's new pixels are worked out in parallel from the untouched picture, then
    // written in turn: the digits' boxes do not overlap where they change pixels.
    let canvas = Canvas {
        image,
        rect,
        back: &back,
        cells,
        scale,
        colour,
    };
    let patches: Vec<Vec<(u32, u32, [u8; 3])>> = jobs
        .par_iter()
        .filter_map(|&(pos, digit)| {
            let raster = rasters[digit.get() as usize - 1].as_ref()?;
            Some(canvas.paint(pos, raster, cells.marked[pos.index()]))
        })
        .collect();
    for (x, y, rgb) in patches.iter().flatten() {
        image.put_pixel(*x, *y, image::Rgb(*rgb));
    }
    jobs.len()
}

/// The givens' median height in square-picture pixels.
fn digit_height(cells: &Cells) -> f32 {
    let mut heights: Vec<u32> = cells
        .glyphs
        .iter()
        .flatten()
        .filter(|g| g.author == Author::Given)
        .map(|g| g.height)
        .collect();
    heights.sort_unstable();
    heights
        .get(heights.len() / 2)
        .map_or(DEFAULT_HEIGHT * CELL as f32, |&h| h as f32)
}

/// Blue on light pictures, light blue on dark ones; orange instead when the givens are
/// themselves blue, so the answer never looks like a given.
pub fn answer_colour(cells: &Cells) -> [u8; 3] {
    let givens = cells
        .glyphs
        .iter()
        .flatten()
        .find(|g| g.author == Author::Given)
        .map(|g| g.colour);
    let bluish =
        givens.is_some_and(|[r, g, b]| b > r.saturating_add(40) && b > g.saturating_add(20));
    match (cells.dark, bluish) {
        (false, false) => [28, 92, 210],
        (true, false) => [125, 200, 255],
        (false, true) => [205, 80, 20],
        (true, true) => [255, 170, 70],
    }
}

/// The digit's coverage at `height` raster pixels tall (ink height, not em size).
fn rasterise(font: &FontRef<'_>, digit: Digit, height: f32) -> Raster {
    let id = font.glyph_id(digit.to_char());
    let probe = id.with_scale(PxScale::from(100.0));
    let ink_at_100 = font
        .outline_glyph(probe)
        .map_or(72.0, |g| g.px_bounds().height());
    let glyph = id.with_scale(PxScale::from(100.0 * height / ink_at_100));
    let Some(outlined) = font.outline_glyph(glyph) else {
        return Raster {
            width: 0,
            height: 0,
            coverage: Vec::new(),
        };
    };
    let bounds = outlined.px_bounds();
    let (w, h) = (bounds.width() as u32 + 1, bounds.height() as u32 + 1);
    let mut coverage = vec![0f32; (w * h) as usize];
    outlined.draw(|x, y, c| {
        if x < w && y < h {
            coverage[(y * w + x) as usize] = c;
        }
    });
    Raster {
        width: w,
        height: h,
        coverage,
    }
}

/// What every digit of one picture is drawn with.
struct Canvas<'a> {
    image: &'a RgbImage,
    rect: &'a Rectified,
    back: &'a imageproc::geometric_transformations::Projection,
    cells: &'a Cells,
    scale: f32,
    colour: [u8; 3],
}

impl Canvas<'_> {
    /// The pixels that change when one digit is blended into its cell: each original pixel
    /// near the cell is mapped into the square picture, then into the raster centred on the
    /// cell. With `erase`, the cell's interior is first painted that colour, clearing pencil
    /// marks the answer replaces.
    fn paint(&self, pos: Pos, raster: &Raster, erase: Option<[u8; 3]>) -> Vec<(u32, u32, [u8; 3])> {
        let (cells, scale) = (self.cells, self.scale);
        let interior =
            crate::cells::cell_area(&cells.lines_x, &cells.lines_y, pos.row(), pos.col());
        let (x0, x1) = (cells.lines_x[pos.col()], cells.lines_x[pos.col() + 1]);
        let (y0, y1) = (cells.lines_y[pos.row()], cells.lines_y[pos.row() + 1]);
        let (cx, cy) = ((x0 + x1) / 2.0, (y0 + y1) / 2.0);
        // Visit the whole cell when erasing marks, else only the glyph's box.
        let (hw, hh) = match erase {
            Some(_) => ((x1 - x0) / 2.0, (y1 - y0) / 2.0),
            None => (
                raster.width as f32 / scale / 2.0 + 1.0,
                raster.height as f32 / scale / 2.0 + 1.0,
            ),
        };
        let (x0, x1, y0, y1) = (cx - hw, cx + hw, cy - hh, cy + hh);
        let corners = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)].map(|p| *self.back * p);
        let (w, h) = self.image.dimensions();
        let (min_x, max_x) = pixel_span(corners.map(|c| c.0), w);
        let (min_y, max_y) = pixel_span(corners.map(|c| c.1), h);
        let m = crate::rectify::picture_to_square(&self.rect.quad);
        let (half_w, half_h) = (raster.width as f32 / 2.0, raster.height as f32 / 2.0);
        let mut changed = Vec::new();
        for y in min_y..max_y {
            // The row's first pixel centre in homogeneous square coordinates, stepped along x.
            let (px, py) = (f64::from(min_x) + 0.5, f64::from(y) + 0.5);
            let mut num_x = m[0] * px + m[1] * py + m[2];
            let mut num_y = m[3] * px + m[4] * py + m[5];
            let mut den = m[6] * px + m[7] * py + m[8];
            for x in min_x..max_x {
                let inv = 1.0 / den;
                let (sx, sy) = ((num_x * inv) as f32, (num_y * inv) as f32);
                num_x += m[0];
                num_y += m[3];
                den += m[6];
                let erased = erase.filter(|_| {
                    sx >= interior.0 as f32
                        && sx < interior.2 as f32
                        && sy >= interior.1 as f32
                        && sy < interior.3 as f32
                });
                let alpha = raster.sample((sx - cx) * scale + half_w, (sy - cy) * scale + half_h);
                if alpha <= 0.0 && erased.is_none() {
                    continue;
                }
                let mut p = erased.unwrap_or(self.image.get_pixel(x, y).0);
                if alpha > 0.0 {
                    for (v, &c) in p.iter_mut().zip(&self.colour) {
                        let blended = f32::from(*v) * (1.0 - alpha) + f32::from(c) * alpha;
                        *v = (blended + 0.5) as u8; // blended >= 0: rounds to nearest
                    }
                }
                changed.push((x, y, p));
            }
        }
        changed
    }
}

/// The whole pixels covering `values`, clipped to `0..limit`.
fn pixel_span(values: [f32; 4], limit: u32) -> (u32, u32) {
    let lo = values
        .iter()
        .copied()
        .fold(f32::MAX, f32::min)
        .floor()
        .max(0.0) as u32;
    let hi = values
        .iter()
        .copied()
        .fold(f32::MIN, f32::max)
        .ceil()
        .max(0.0) as u32;
    (lo, hi.min(limit))
}
