//! Rectify: the grid's quadrilateral -> a square picture of the grid, keeping the projection
//! so the answer can be drawn back through it onto the original picture.

use image::{Rgb, RgbImage};
use imageproc::geometric_transformations::{warp_into, Interpolation, Projection};

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
    let mut out = RgbImage::new(SIDE, SIDE);
    warp_into(
        image,
        &projection,
        Interpolation::Bilinear,
        Rgb([0, 0, 0]),
        &mut out,
    );
    Some(Rectified {
        image: out,
        projection,
        quad: *quad,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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
