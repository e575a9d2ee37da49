//! An area of the straightened grid sampled again from the original picture, at a size of the
//! caller's choosing, as ink strengths: small glyphs and pencil marks are read at the
//! original's resolution, not the straightened grid's.

use image::RgbImage;
use imageproc::geometric_transformations::Projection;
use wide::{f32x4, i32x4, CmpGe};

use crate::pipeline::gray::{grey_or_hue, luma};

/// A rectangle of the square picture: left, top, right, bottom.
pub(crate) type Area = (f32, f32, f32, f32);

/// How far each pixel of a sampled area stands out from the cell's background.
pub(crate) struct Strengths {
    /// Row-major, `w` x `h`; grey levels (0 = background).
    pub(crate) values: Vec<i32>,
    pub(crate) w: u32,
    pub(crate) h: u32,
}

impl Strengths {
    /// `area` of the square picture, `size` pixels, sampled from `image` through `back`
    /// (square -> original) and measured against `background` (ink lighter than it when
    /// `dark`).
    pub(crate) fn of(
        image: &RgbImage,
        back: &Projection,
        area: Area,
        size: (u32, u32),
        (background, dark): ([u8; 3], bool),
    ) -> Strengths {
        let bg_grey = luma(&background) as i32;
        // As the cells stage measures a glyph's ink.
        let strength = |p: [u8; 3]| {
            let grey = luma(&p) as i32 - bg_grey;
            grey_or_hue(if dark { grey } else { -grey }, p, background)
        };
        let mut values = Vec::with_capacity(size.0 as usize * size.1 as usize);
        sample(image, back, area, size, |p| values.push(strength(p)));
        Strengths {
            values,
            w: size.0,
            h: size.1,
        }
    }

    /// The strength at (x, y).
    pub(crate) fn at(&self, x: u32, y: u32) -> i32 {
        self.values[(y * self.w + x) as usize]
    }

    /// The strongest value in the rectangle `x0..x1` x `y0..y1` (clipped to the sample).
    pub(crate) fn peak(&self, (x0, y0, x1, y1): (u32, u32, u32, u32)) -> i32 {
        (y0..y1.min(self.h))
            .flat_map(|y| (x0..x1.min(self.w)).map(move |x| (x, y)))
            .map(|(x, y)| self.at(x, y))
            .max()
            .unwrap_or(0)
    }
}

/// The side of the square-picture rectangle `area` in the original picture, in pixels: the
/// mean of its four edges carried back through the projection, over the square's side.
pub(crate) fn source_scale(back: &Projection, (x0, y0, x1, y1): Area) -> f32 {
    let corners = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)].map(|p| back * &p);
    let edge = |a: (f32, f32), b: (f32, f32)| ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt();
    let mean = (0..4)
        .map(|i| edge(corners[i], corners[(i + 1) % 4]))
        .sum::<f32>()
        / 4.0;
    mean / (((x1 - x0) + (y1 - y0)) / 2.0)
}

/// `area` of the square picture sampled from `image` at `size` pixels, row by row, each pixel
/// read bilinearly at its centre's place in the original and handed to `each`. Places outside
/// the picture read as the nearest edge pixel.
fn sample(
    image: &RgbImage,
    back: &Projection,
    area: Area,
    (w, h): (u32, u32),
    mut each: impl FnMut([u8; 3]),
) {
    let (sx, sy) = ((area.2 - area.0) / w as f32, (area.3 - area.1) / h as f32);
    let (iw, ih) = (image.width() as f32, image.height() as f32);
    let (last_x, last_y) = (image.width() as usize - 1, image.height() as usize - 1);
    let (raw, stride) = (image.as_raw(), image.width() as usize * 3);
    for y in 0..h {
        let at_y = area.1 + (y as f32 + 0.5) * sy;
        for x in 0..w {
            let (ox, oy) = back * &(area.0 + (x as f32 + 0.5) * sx, at_y);
            let (fx, fy) = (
                (ox - 0.5).clamp(0.0, iw - 1.0),
                (oy - 0.5).clamp(0.0, ih - 1.0),
            );
            let (ix, iy) = (fx as usize, fy as usize);
            let (tx, ty) = (fx - ix as f32, fy - iy as f32);
            let (jx, jy) = ((ix + 1).min(last_x), (iy + 1).min(last_y));
            // One colour channel per lane, with the same operations as one at a time.
            let p = |x: usize, y: usize| {
                let i = y * stride + x * 3;
                let p = &raw[i..i + 3];
                i32x4::new([i32::from(p[0]), i32::from(p[1]), i32::from(p[2]), 0]).round_float()
            };
            let (a, b, c, d) = (p(ix, iy), p(jx, iy), p(ix, jy), p(jx, jy));
            let (tx, ty) = (f32x4::splat(tx), f32x4::splat(ty));
            let top = a + (b - a) * tx;
            let bottom = c + (d - c) * tx;
            let rounded = round_bytes(top + (bottom - top) * ty).to_array();
            each([rounded[0] as u8, rounded[1] as u8, rounded[2] as u8]);
        }
    }
}

/// `v` (blends of bytes: 0 to 255) rounded half away from zero, as `f32::round` does, but
/// without its library call (the baseline x86-64 target has no rounding instruction): the
/// truncation, plus one where the fraction above it (exact) is a half or more.
fn round_bytes(v: f32x4) -> i32x4 {
    let whole = v.fast_trunc_int();
    let up = (v - whole.round_float()).cmp_ge(f32x4::splat(0.5));
    // A true lane is all ones: -1 as a whole number.
    whole - bytemuck::cast::<f32x4, i32x4>(up)
}

/// A connected piece of ink: its box (x0, y0, x1, y1, inclusive) in sample pixels.
pub(crate) type Piece = crate::pipeline::mask::Box4;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_round_as_f32_round_does() {
        let mut v = 0.0f32;
        while v <= 255.0 {
            let lanes = round_bytes(f32x4::splat(v)).to_array();
            assert_eq!(lanes, [v.round() as i32; 4], "{v}");
            // Every representable value near the halves, and a walk through the rest.
            v = if (v.fract() - 0.5).abs() < 1e-3 {
                v.next_up()
            } else {
                v + 0.0003
            };
        }
    }
}
