//! Rectify: the grid's quadrilateral -> a square picture of the grid, keeping the projection
//! so the answer can be drawn back through it onto the original picture.

use image::{GrayImage, RgbImage};
use imageproc::geometric_transformations::Projection;
use rayon::prelude::*;

use crate::pipeline::gray::luma;
use crate::pipeline::quad::{square_to_quad, Quad};

/// Side of one cell in the straightened grid, in pixels: digits come out 25-40 px tall,
/// plenty for template matching, and the warp stays a few milliseconds.
pub const CELL: u32 = 56;
/// Side of the straightened grid.
pub const SIDE: u32 = 9 * CELL;

/// The grid, straightened, with the mapping from the original picture.
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

/// Samples the square grid picture from `image`: each square pixel's centre goes through the
/// homography square -> original and is read bilinearly. The homography is evaluated exactly
/// every `SPAN` pixels of a row and interpolated linearly in between (over 8 pixels the
/// projective map of a photographed screen departs from a straight line by far less than a
/// 1/256 pixel step), so a row costs a division per span, not per pixel. Pixels outside the
/// picture stay black. Returns the colour picture and its grey.
fn warp_square(image: &RgbImage, quad: &Quad) -> (RgbImage, GrayImage) {
    let h = square_to_quad(&quad.corners, SIDE as f64);
    let side = SIDE as usize;
    let mut out = vec![0u8; side * side * 3];
    let mut gray = vec![0u8; side * side];
    let source = Source::new(image);
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
            for (span, (pixels, greys)) in row
                .chunks_exact_mut(SPAN * 3)
                .zip(gray_row.chunks_exact_mut(SPAN))
                .enumerate()
            {
                let first = (span * SPAN) as f64 + 0.5;
                let start = at(first);
                let end = at(first + SPAN as f64);
                source.span(start, end, pixels, greys);
            }
        });
    (
        RgbImage::from_raw(SIDE, SIDE, out).expect("buffer sized for the square"),
        GrayImage::from_raw(SIDE, SIDE, gray).expect("buffer sized for the square"),
    )
}

/// Pixels a span of the square is sampled over: 8 divides the side, so every span is whole.
const SPAN: usize = 8;
const _: () = assert!(SIDE as usize % SPAN == 0);
/// A whole number of pixels (in 1/256 pixel) that lifts any position inside or near the
/// picture above zero, so truncating toward zero floors.
const OFFSET: f64 = (1u64 << 40) as f64;

/// The picture being sampled, with its bounds in 1/256 pixel.
struct Source<'a> {
    raw: &'a [u8],
    stride: usize,
    /// The last position whose 2x2 neighbourhood lies inside, in 1/256 pixel (exclusive).
    max: (i64, i64),
}

impl Source<'_> {
    fn new(image: &RgbImage) -> Source<'_> {
        let (w, h) = (i64::from(image.width()), i64::from(image.height()));
        Source {
            raw: image.as_raw(),
            stride: image.width() as usize * 3,
            max: ((w - 1) << 8, (h - 1) << 8),
        }
    }

    fn inside(&self, (x, y): (i64, i64)) -> bool {
        x >= 0 && y >= 0 && x < self.max.0 && y < self.max.1
    }

    /// Fills one span's pixels, positions interpolated linearly from `start` to `end` (both
    /// in 1/256 pixel, `end` one pixel past the span). Stepping in 1/2048 pixel keeps the
    /// eighths exact.
    fn span(&self, start: (i64, i64), end: (i64, i64), pixels: &mut [u8], greys: &mut [u8]) {
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

    /// The colour at `(x, y)` in 1/256 pixel, which must be inside.
    fn bilinear(&self, (x, y): (i64, i64)) -> [u8; 3] {
        let (ax, ay) = ((x & 255) as u32, (y & 255) as u32);
        // The four taps' weights, summing to 2^16: the same as blending the rows then the
        // columns, with one rounding.
        let w = [
            (256 - ax) * (256 - ay),
            ax * (256 - ay),
            (256 - ax) * ay,
            ax * ay,
        ];
        let i = (y >> 8) as usize * self.stride + (x >> 8) as usize * 3;
        let top = &self.raw[i..i + 6];
        let bottom = &self.raw[i + self.stride..i + self.stride + 6];
        std::array::from_fn(|c| {
            let sum = u32::from(top[c]) * w[0]
                + u32::from(top[c + 3]) * w[1]
                + u32::from(bottom[c]) * w[2]
                + u32::from(bottom[c + 3]) * w[3];
            ((sum + (1 << 15)) >> 16) as u8
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
