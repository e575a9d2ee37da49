//! Rectify: the grid's quadrilateral -> a square picture of the grid, keeping the projection
//! so the answer can be drawn back through it onto the original picture.

use image::{GrayImage, RgbImage};
use imageproc::geometric_transformations::Projection;
use rayon::prelude::*;
use wide::{f32x4, i32x4};

use crate::pipeline::gray::luma;
use crate::pipeline::quad::{square_to_quad, Quad};

/// Side of one cell in the straightened grid, in pixels: digits come out 25-40 px tall,
/// plenty for template matching, and the warp stays a few milliseconds.
pub const CELL: u32 = 56;
/// Side of the straightened grid.
pub const SIDE: u32 = 9 * CELL;

/// The grid, straightened, with the mapping from the original picture.
#[derive(Clone)]
pub struct Rectified {
    /// The square grid picture, `SIDE` x `SIDE`.
    pub image: RgbImage,
    /// The same in grey (Rec. 601 luma), made in the same pass.
    pub gray: GrayImage,
    /// Maps original-picture coordinates to square coordinates (invert it to go back).
    pub projection: Projection,
    /// The grid's corners in the original picture.
    pub quad: Quad,
}

impl Rectified {
    /// The grid's outline moved by whole cells (`across`, `down`; negative: left, up),
    /// through its perspective, in the original picture.
    pub fn shifted_quad(&self, across: i32, down: i32) -> Quad {
        let back = self.projection.invert();
        let (s, cell) = (SIDE as f32, CELL as f32);
        let (dx, dy) = (across as f32 * cell, down as f32 * cell);
        let square = [(0.0, 0.0), (s, 0.0), (s, s), (0.0, s)];
        Quad {
            corners: square.map(|(x, y)| back * (x + dx, y + dy)),
        }
    }
}

/// Straightens the grid bounded by `quad`; `None` when the corners are degenerate.
pub fn rectify(image: &RgbImage, quad: &Quad) -> Option<Rectified> {
    let s = SIDE as f32;
    let square = [(0.0, 0.0), (s, 0.0), (s, s), (0.0, s)];
    let projection = Projection::from_control_points(quad.corners, square)?;
    let (out, gray) = warp_square(image, quad);
    Some(Rectified {
        image: out,
        gray,
        projection,
        quad: *quad,
    })
}

/// The most source pixels per square pixel the warp reads one at a time: further apart, the
/// bilinear taps step over strokes thinner than the gap (a hairline `1` on a tablet
/// screenshot, 2.8 source pixels per square pixel, kept only its flag), so the source is first
/// averaged over boxes about a square pixel wide. Averaging from 1.2 instead of 1.5 drew a
/// wrong answer on the tune renderings; from 2.0 read fewer of them.
const MAX_POINT_SCALE: f32 = 1.5;
/// The widest box averaged, in source pixels.
const MAX_BOX: usize = 8;

/// Samples the square grid picture from `image`: each square pixel's centre goes through the
/// homography square -> original and is read bilinearly, from the original averaged over boxes
/// about a square pixel wide when the grid is drawn much larger than the square (see
/// [`MAX_POINT_SCALE`]; boxes of whole pixels on the original itself, not blocks of a reduced
/// copy, whose bilinear taps would blur as much again: a phone's grey pencil marks then broke
/// into specks). The homography is evaluated exactly every `SPAN` pixels of a row and
/// interpolated linearly in between (over 8 pixels the projective map of a photographed screen
/// departs from a straight line by far less than a 1/256 pixel step), so a row costs a
/// division per span, not per pixel. Pixels outside the picture stay black. Returns the colour
/// picture and its grey.
fn warp_square(image: &RgbImage, quad: &Quad) -> (RgbImage, GrayImage) {
    let h = square_to_quad(&quad.corners, SIDE as f64);
    let side = SIDE as usize;
    let mut out = vec![0u8; side * side * 3];
    let mut gray = vec![0u8; side * side];
    let scale = quad.mean_side() / SIDE as f32;
    let averaged;
    let source = if scale > MAX_POINT_SCALE {
        let width = (scale.round() as usize).clamp(2, MAX_BOX);
        averaged = Averaged::of(image, quad, width);
        averaged.source()
    } else {
        Source::new(image.as_raw(), image.width(), image.height(), (0, 0))
    };
    // Rows are independent: split over the thread pool (in a batch, the pool's other
    // threads are busy with other pictures and work stealing keeps this on one).
    out.par_chunks_exact_mut(side * 3)
        .zip(gray.par_chunks_exact_mut(side))
        .enumerate()
        .for_each(|(y, (row, gray_row))| {
            let v = y as f64 + 0.5;
            // Source position of square pixel centre (u, v), in 1/256 pixel.
            let at = |u: f64| -> (i64, i64) {
                let den = h[6] * u + h[7] * v + 1.0;
                let sx = (h[0] * u + h[1] * v + h[2]) / den - 0.5;
                let sy = (h[3] * u + h[4] * v + h[5]) / den - 0.5;
                // Truncation is floor once shifted clear of zero; the shift is whole pixels.
                let fixed = |s: f64| (s * 256.0 + OFFSET) as i64 - OFFSET as i64;
                (fixed(sx), fixed(sy))
            };
            // A span ends where the next starts: each boundary is mapped once.
            let mut start = at(0.5);
            for (span, (pixels, greys)) in row
                .chunks_exact_mut(SPAN * 3)
                .zip(gray_row.chunks_exact_mut(SPAN))
                .enumerate()
            {
                let end = at(((span + 1) * SPAN) as f64 + 0.5);
                source.span(start, end, pixels, greys);
                start = end;
            }
        });
    (
        RgbImage::from_raw(SIDE, SIDE, out).expect("buffer sized for the square"),
        GrayImage::from_raw(SIDE, SIDE, gray).expect("buffer sized for the square"),
    )
}

/// The part of a picture under the grid, each pixel the mean of the `width` x `width` box
/// around it.
struct Averaged {
    raw: Vec<u8>,
    width: u32,
    height: u32,
    /// Where the part's first box is centred in the picture, in 1/256 pixel.
    origin: (i64, i64),
}

impl Averaged {
    fn of(image: &RgbImage, quad: &Quad, width: usize) -> Averaged {
        // The grid's bounding box with a box and a pixel to spare for the bilinear taps.
        let margin = (width + 1) as f32;
        let bound = |values: [f32; 4], limit: u32| {
            let low = values.iter().copied().fold(f32::MAX, f32::min) - margin;
            let high = values.iter().copied().fold(f32::MIN, f32::max) + margin;
            let low = low.clamp(0.0, (limit - 1) as f32) as usize;
            (low, (high.clamp(0.0, limit as f32) as usize).max(low + 1))
        };
        let (x0, x1) = bound(quad.corners.map(|c| c.0), image.width());
        let (y0, y1) = bound(quad.corners.map(|c| c.1), image.height());
        // A box of even width stored at pixel x covers x - width/2 .. x + width/2 - 1: its
        // centre lies half a pixel before x.
        let half = if width.is_multiple_of(2) { 128 } else { 0 };
        Averaged {
            raw: box_means(image, (x0, y0, x1, y1), width),
            width: (x1 - x0) as u32,
            height: (y1 - y0) as u32,
            origin: (x0 as i64 * 256 - half, y0 as i64 * 256 - half),
        }
    }

    fn source(&self) -> Source<'_> {
        Source::new(&self.raw, self.width, self.height, self.origin)
    }
}

/// Rows of the averaged part made by one task of the thread pool.
const BAND: usize = 64;

/// The pixels `x0..x1` x `y0..y1` of `image`, each the mean of the `width` x `width` box around
/// it (boxes clipped at the area's edges average what they hold), row-major RGB. Each box is
/// summed as `width` shifted rows added whole, then `width` such sums down a column: plain
/// adds over contiguous rows, which the compiler turns into vector code.
fn box_means(
    image: &RgbImage,
    (x0, y0, x1, y1): (usize, usize, usize, usize),
    width: usize,
) -> Vec<u8> {
    let (w, h) = (x1 - x0, y1 - y0);
    let stride = image.width() as usize * 3;
    let raw = image.as_raw();
    let before = width / 2;
    let after = width - 1 - before;
    // The first and last pixel (or row) of the box around `i`, of `n`.
    let span = move |i: usize, n: usize| (i.saturating_sub(before), (i + after).min(n - 1));
    // How many pixels each value's box spans across.
    let per_column: Vec<u32> = (0..w * 3)
        .map(|k| {
            let (a, b) = span(k / 3, w);
            (b - a + 1) as u32
        })
        .collect();
    // One row of the area, each value summed across its pixel's box: the pixel itself stored,
    // then the row shifted by each other offset in the box added whole.
    let sum_across = |y: usize, sums: &mut [u16]| {
        let row = &raw[(y0 + y) * stride + x0 * 3..(y0 + y) * stride + x1 * 3];
        for (s, &v) in sums.iter_mut().zip(row) {
            *s = u16::from(v);
        }
        for d in (0..width).filter(|&d| d != before) {
            // Pixel x takes pixel x + d - before, where both lie in the row.
            let (to, from) = if d < before {
                ((before - d) * 3, 0)
            } else {
                (0, (d - before) * 3)
            };
            let n = (w * 3).saturating_sub(to.max(from));
            for (s, &v) in sums[to..to + n].iter_mut().zip(&row[from..from + n]) {
                *s += u16::from(v);
            }
        }
    };
    let mut out = vec![0u8; w * h * 3];
    out.par_chunks_mut(BAND * w * 3)
        .enumerate()
        .for_each(|(band, rows)| {
            let first = band * BAND;
            // The last `width` rows summed across, row k at k % width: a box spans at most
            // that many rows, and so little stays in the cache.
            let mut across = vec![0u16; width * w * 3];
            let mut summed_to = None;
            let mut column = vec![0u16; w * 3];
            // 2^16 / each value's box's pixel count (rounded), for the rows whose boxes span
            // `scaled_for` rows: a multiply and a shift divide. In 16 bits, so that the
            // baseline x86-64 target multiplies eight lanes at a time (a 32-bit multiply it
            // has not); a box of one pixel takes 2^16 - 1, which rounds every byte to itself.
            let mut scale = vec![0u16; w * 3];
            let mut scaled_for = 0;
            for (y, row) in (first..).zip(rows.chunks_exact_mut(w * 3)) {
                let (a, b) = span(y, h);
                let from = summed_to.map_or(a, |done: usize| done + 1);
                for k in from..=b {
                    sum_across(k, &mut across[(k % width) * w * 3..(k % width + 1) * w * 3]);
                }
                summed_to = Some(b);
                let row_sums = |k: usize| &across[(k % width) * w * 3..(k % width + 1) * w * 3];
                column.copy_from_slice(row_sums(a));
                for k in a + 1..=b {
                    for (total, &s) in column.iter_mut().zip(row_sums(k)) {
                        *total += s;
                    }
                }
                let rows_spanned = (b - a + 1) as u32;
                if rows_spanned != scaled_for {
                    scaled_for = rows_spanned;
                    for (s, &p) in scale.iter_mut().zip(&per_column) {
                        let count = p * rows_spanned;
                        *s = (((1 << 16) + count / 2) / count).min(u32::from(u16::MAX)) as u16;
                    }
                }
                for ((pixel, &total), &s) in row.iter_mut().zip(&column).zip(&scale) {
                    // (total * s + 2^15) >> 16, from the product's high and low halves as 16-bit
                    // lanes hold them.
                    let high = ((u32::from(total) * u32::from(s)) >> 16) as u16;
                    let low = total.wrapping_mul(s);
                    *pixel = (high + (low >> 15)) as u8;
                }
            }
        });
    out
}

/// Pixels a span of the square is sampled over: 8 divides the side, so every span is whole.
const SPAN: usize = 8;
const _: () = assert!((SIDE as usize).is_multiple_of(SPAN));
/// A whole number of pixels (in 1/256 pixel) that lifts any position inside or near the
/// picture above zero, so truncating toward zero floors.
const OFFSET: f64 = (1u64 << 40) as f64;

/// The picture being sampled, with its bounds in 1/256 pixel.
struct Source<'a> {
    raw: &'a [u8],
    stride: usize,
    /// The last position whose 2x2 neighbourhood lies inside, in 1/256 pixel (exclusive).
    max: (i64, i64),
    /// Where `raw`'s first pixel lies in the picture, in 1/256 pixel.
    origin: (i64, i64),
}

impl Source<'_> {
    fn new(raw: &[u8], width: u32, height: u32, origin: (i64, i64)) -> Source<'_> {
        let (w, h) = (i64::from(width), i64::from(height));
        Source {
            raw,
            stride: width as usize * 3,
            max: ((w - 1) << 8, (h - 1) << 8),
            origin,
        }
    }

    fn inside(&self, (x, y): (i64, i64)) -> bool {
        x >= 0 && y >= 0 && x < self.max.0 && y < self.max.1
    }

    /// Fills one span's pixels, positions (in the picture) interpolated linearly from `start`
    /// to `end` (both in 1/256 pixel, `end` one pixel past the span). Stepping in 1/2048 pixel
    /// keeps the eighths exact.
    fn span(&self, start: (i64, i64), end: (i64, i64), pixels: &mut [u8], greys: &mut [u8]) {
        let start = (start.0 - self.origin.0, start.1 - self.origin.1);
        let end = (end.0 - self.origin.0, end.1 - self.origin.1);
        let step = (end.0 - start.0, end.1 - start.1);
        let (mut x, mut y) = (start.0 * SPAN as i64, start.1 * SPAN as i64);
        // Both ends inside means every point between is (the span is straight).
        let all_inside = self.inside(start) && self.inside(end);
        for (px, grey) in pixels.chunks_exact_mut(3).zip(greys.iter_mut()) {
            let at = (x >> 3, y >> 3);
            x += step.0;
            y += step.1;
            if all_inside || self.inside(at) {
                let rgb = self.bilinear(at);
                px.copy_from_slice(&rgb);
                *grey = luma(&rgb) as u8;
            }
        }
    }

    /// The colour at `(x, y)` in 1/256 pixel, which must be inside: the rows blended across,
    /// then the two blends down, one colour channel per lane. In `f32` lanes (the baseline
    /// x86-64 target multiplies four at a time; 32-bit integer lanes it cannot), and exactly:
    /// every product and sum is a whole number below 2^24 (at most 255 * 256 * 256 + 2^15),
    /// so the result is the integer blend's, `(sum of tap * weight + 2^15) >> 16`, bit for bit.
    fn bilinear(&self, (x, y): (i64, i64)) -> [u8; 3] {
        let (ax, ay) = (
            f32x4::splat((x & 255) as f32),
            f32x4::splat((y & 255) as f32),
        );
        let full = f32x4::splat(256.0);
        let (bx, by) = (full - ax, full - ay);
        let i = (y >> 8) as usize * self.stride + (x >> 8) as usize * 3;
        let row = |at: usize| -> (f32x4, f32x4) {
            let p = &self.raw[at..at + 6];
            let lanes = |p: &[u8]| {
                i32x4::new([i32::from(p[0]), i32::from(p[1]), i32::from(p[2]), 0]).round_float()
            };
            (lanes(&p[..3]), lanes(&p[3..]))
        };
        let ((tl, tr), (bl, br)) = (row(i), row(i + self.stride));
        let upper = tl * bx + tr * ax;
        let lower = bl * bx + br * ax;
        let sum = upper * by + lower * ay + f32x4::splat(32768.0);
        // Whole, positive and below 2^24: truncation is exact.
        let v = (sum.fast_trunc_int() >> 16_i32).to_array();
        [v[0] as u8, v[1] as u8, v[2] as u8]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_pixel_is_the_mean_of_its_box() {
        let image = RgbImage::from_fn(23, 19, |x, y| {
            image::Rgb([
                (x * 23 + y * 7) as u8,
                (x * y * 3) as u8,
                (255 - x * 9) as u8,
            ])
        });
        let area = (1, 2, 20, 17);
        for width in [2, 3, 4] {
            let means = box_means(&image, area, width);
            let (before, after) = (width / 2, width - 1 - width / 2);
            for (y, x, c) in (area.1..area.3)
                .flat_map(|y| (area.0..area.2).flat_map(move |x| (0..3).map(move |c| (y, x, c))))
            {
                // The box, clipped to the area.
                let xs = x.saturating_sub(before).max(area.0)..=(x + after).min(area.2 - 1);
                let ys = y.saturating_sub(before).max(area.1)..=(y + after).min(area.3 - 1);
                let values: Vec<u32> = (ys.flat_map(|v| xs.clone().map(move |u| (u, v))))
                    .map(|(u, v)| u32::from(image.get_pixel(u as u32, v as u32)[c]))
                    .collect();
                let mean = f64::from(values.iter().sum::<u32>()) / values.len() as f64;
                let got = means[((y - area.1) * (area.2 - area.0) + x - area.0) * 3 + c];
                assert!(
                    (f64::from(got) - mean).abs() <= 0.5 + 1e-9,
                    "width {width}, pixel {x},{y} channel {c}: {got} against {mean}"
                );
            }
        }
    }

    #[test]
    fn strokes_a_pixel_wide_survive_a_grid_drawn_three_times_larger() {
        // A 1,600 px grid: 3.2 source pixels per square pixel. Bilinear taps that far apart
        // step over one-pixel strokes at most phases; averaged blocks keep every one.
        let side = 1600.0;
        let mut image = RgbImage::from_pixel(1700, 1700, image::Rgb([255, 255, 255]));
        let columns: Vec<u32> = (0..16).map(|k| 200 + k * 81).collect();
        for &x in &columns {
            for y in 400..1200 {
                image.put_pixel(x, y, image::Rgb([0, 0, 0]));
            }
        }
        let quad = Quad {
            corners: [
                (50.0, 50.0),
                (50.0 + side, 50.0),
                (50.0 + side, 50.0 + side),
                (50.0, 50.0 + side),
            ],
        };
        let r = rectify(&image, &quad).unwrap();
        let row = (r.projection * (0.0, 800.0)).1.round() as u32;
        for &x in &columns {
            let at = (r.projection * (x as f32 + 0.5, 800.0)).0;
            let darkest = (at as u32 - 2..=at as u32 + 2)
                .map(|u| r.gray.get_pixel(u, row)[0])
                .min()
                .unwrap();
            // A black stroke averaged over a 3-pixel box is 85 grey levels below white; a tap
            // between the last box holding it and the next takes at least half of that.
            assert!(darkest < 220, "the stroke at x = {x} came out {darkest}");
        }
    }

    #[test]
    fn stepped_homography_agrees_with_the_projection() {
        let quad = Quad {
            corners: [(10.0, 12.0), (400.0, 20.0), (390.0, 410.0), (5.0, 400.0)],
        };
        let h = square_to_quad(&quad.corners, SIDE as f64);
        let back = rectify(&RgbImage::new(8, 8), &quad)
            .unwrap()
            .projection
            .invert();
        for &(u, v) in &[
            (0.0f64, 0.0f64),
            (100.5, 37.5),
            (SIDE as f64, SIDE as f64),
            (3.0, 400.0),
        ] {
            let den = h[6] * u + h[7] * v + 1.0;
            let (x, y) = (
                (h[0] * u + h[1] * v + h[2]) / den,
                (h[3] * u + h[4] * v + h[5]) / den,
            );
            let (px, py) = back * (u as f32, v as f32);
            assert!(
                (x as f32 - px).abs() < 0.01 && (y as f32 - py).abs() < 0.01,
                "{x},{y} vs {px},{py}"
            );
        }
    }

    #[test]
    fn corners_map_to_the_square_and_back() {
        let quad = Quad {
            corners: [(10.0, 12.0), (400.0, 20.0), (390.0, 410.0), (5.0, 400.0)],
        };
        let img = RgbImage::new(420, 420);
        let r = rectify(&img, &quad).unwrap();
        let back = r.projection.invert();
        for (i, &(x, y)) in quad.corners.iter().enumerate() {
            let (sx, sy) = r.projection * (x, y);
            let expect = [
                (0.0, 0.0),
                (SIDE as f32, 0.0),
                (SIDE as f32, SIDE as f32),
                (0.0, SIDE as f32),
            ][i];
            assert!((sx - expect.0).abs() < 0.01 && (sy - expect.1).abs() < 0.01);
            let (bx, by) = back * (sx, sy);
            assert!((bx - x).abs() < 0.01 && (by - y).abs() < 0.01);
        }
    }
}
