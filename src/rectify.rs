//! Rectify: the grid's quadrilateral -> a square picture of the grid, keeping the projection
//! so the answer can be drawn back through it onto the original picture.

use image::RgbImage;
use imageproc::geometric_transformations::Projection;

use crate::locate::Quad;

/// Side of one cell in the straightened grid, in pixels: digits come out 25-40 px tall,
/// plenty for template matching, and the warp stays a few milliseconds.
pub const CELL: u32 = 56;
/// Side of the straightened grid.
pub const SIDE: u32 = 9 * CELL;

/// The grid, straightened, with the mapping from the original picture.
pub struct Rectified {
    /// The square grid picture, `SIDE` x `SIDE`.
    pub image: RgbImage,
    /// Maps original-picture coordinates to square coordinates (invert it to go back).
    pub projection: Projection,
    /// The grid's corners in the original picture.
    pub quad: Quad,
}

/// Straightens the grid bounded by `quad`; `None` when the corners are degenerate.
pub fn rectify(image: &RgbImage, quad: &Quad) -> Option<Rectified> {
    let s = SIDE as f32;
    let square = [(0.0, 0.0), (s, 0.0), (s, s), (0.0, s)];
    let projection = Projection::from_control_points(quad.corners, square)?;
    let out = warp_square(image, quad);
    Some(Rectified {
        image: out,
        projection,
        quad: *quad,
    })
}

/// Samples the square grid picture from `image`: each square pixel's centre goes through the
/// homography square -> original and is read bilinearly. The homography is stepped along each
/// row (three additions and one division a pixel) over raw bytes; imageproc's generic `warp`
/// measured several times slower here. Pixels outside the picture stay black.
fn warp_square(image: &RgbImage, quad: &Quad) -> RgbImage {
    let h = square_to_quad(&quad.corners, SIDE as f64);
    let (w, hgt) = (image.width() as usize, image.height() as usize);
    let src = image.as_raw();
    let mut out = vec![0u8; (SIDE * SIDE * 3) as usize];
    for (y, row) in out.chunks_exact_mut((SIDE * 3) as usize).enumerate() {
        let v = y as f64 + 0.5;
        // Homogeneous coordinates of the row's first pixel centre and their step per pixel.
        let mut num_x = h[0] * 0.5 + h[1] * v + h[2];
        let mut num_y = h[3] * 0.5 + h[4] * v + h[5];
        let mut den = h[6] * 0.5 + h[7] * v + 1.0;
        for px in row.chunks_exact_mut(3) {
            let inv = 1.0 / den;
            let (sx, sy) = (num_x * inv - 0.5, num_y * inv - 0.5);
            num_x += h[0];
            num_y += h[3];
            den += h[6];
            if sx < 0.0 || sy < 0.0 || sx >= (w - 1) as f64 || sy >= (hgt - 1) as f64 {
                continue;
            }
            // Bilinear weights in 1/256ths: integer arithmetic from here on.
            let (fx, fy) = ((sx * 256.0) as u32, (sy * 256.0) as u32);
            let (x0, y0) = ((fx >> 8) as usize, (fy >> 8) as usize);
            let (ax, ay) = (fx & 255, fy & 255);
            let i = (y0 * w + x0) * 3;
            let j = i + w * 3;
            for c in 0..3 {
                let top = u32::from(src[i + c]) * (256 - ax) + u32::from(src[i + 3 + c]) * ax;
                let bottom = u32::from(src[j + c]) * (256 - ax) + u32::from(src[j + 3 + c]) * ax;
                px[c] = ((top * (256 - ay) + bottom * ay + (1 << 15)) >> 16) as u8;
            }
        }
    }
    RgbImage::from_raw(SIDE, SIDE, out).expect("buffer sized for the square")
}

/// The homography (row-major, h[8] = 1) taking the square [0, side]^2 to the quadrilateral
/// `corners` (clockwise from top-left), by the classic closed form for a unit square.
pub(crate) fn square_to_quad(corners: &[(f32, f32); 4], side: f64) -> [f64; 8] {
    let [(x0, y0), (x1, y1), (x2, y2), (x3, y3)] =
        corners.map(|(x, y)| (f64::from(x), f64::from(y)));
    let (dx1, dx2, dx3) = (x1 - x2, x3 - x2, x0 - x1 + x2 - x3);
    let (dy1, dy2, dy3) = (y1 - y2, y3 - y2, y0 - y1 + y2 - y3);
    let det = dx1 * dy2 - dx2 * dy1;
    let (g, hh) = if det.abs() < 1e-12 {
        (0.0, 0.0)
    } else {
        ((dx3 * dy2 - dx2 * dy3) / det, (dx1 * dy3 - dx3 * dy1) / det)
    };
    let (a, b, c) = (x1 - x0 + g * x1, x3 - x0 + hh * x3, x0);
    let (d, e, f) = (y1 - y0 + g * y1, y3 - y0 + hh * y3, y0);
    // Scale the input from [0, side] to [0, 1].
    [
        a / side,
        b / side,
        c,
        d / side,
        e / side,
        f,
        g / side,
        hh / side,
    ]
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
