//! A glyph's stroke colour read again from the original picture, at its own resolution.
//!
//! The straightened grid is sampled at a fixed size, so a digit drawn larger in the original
//! is shrunk, and its thin strokes never reach their full colour there: how close each comes
//! depends on the digit's shape (a `1`'s stem against a `4`'s diagonal), which smears one
//! author's colour over a range as wide as the gap to another author's near shade. In the
//! original the strokes are whole pixels wide, so their cores show the colour as drawn.

use image::RgbImage;
use imageproc::geometric_transformations::Projection;

use super::Glyph;
use crate::pipeline::resample::source_scale;

/// Re-read the glyphs' colours only when the original has at least this many pixels per pixel
/// of the straightened grid (for the median glyph): at about the same size the straightened
/// colours are as good.
const MIN_SCALE: f32 = 1.25;
/// The stroke cores: pixels standing out from the cell's background at least this fraction
/// of the glyph's strongest pixel (as for the straightened picture's colour).
const CORE: f32 = 0.8;

/// Replaces each glyph's colour by its strokes' colour in `image` (the original picture,
/// mapped to the straightened grid by `projection`), when the original is larger there;
/// `backgrounds` are the cells' background colours, row-major like `glyphs`. All glyphs or
/// none: colours read at two resolutions differ by more than two near shades do (a page in
/// perspective left its far column's givens in the straightened grid's lighter colours, and
/// they were read as a player's entries).
pub(super) fn colours_from_source(
    glyphs: &mut [Option<Glyph>],
    backgrounds: &[[u8; 3]],
    image: &RgbImage,
    projection: &Projection,
) {
    let back = projection.invert();
    let scales: Vec<f32> = glyphs
        .iter()
        .flatten()
        .map(|g| source_scale(&back, g.bounds(0.0)))
        .collect();
    if !larger_in_source(scales) {
        return;
    }
    for (glyph, &background) in glyphs.iter_mut().zip(backgrounds) {
        let Some(glyph) = glyph else { continue };
        if let Some(colour) = source_colour(glyph, background, image, &back) {
            glyph.colour = colour;
        }
    }
}

/// Whether the original holds the median glyph at least `MIN_SCALE` times larger, from each
/// glyph's `scales` (original pixels per straightened pixel).
fn larger_in_source(mut scales: Vec<f32>) -> bool {
    scales.sort_by(f32::total_cmp);
    scales
        .get(scales.len() / 2)
        .is_some_and(|&s| s >= MIN_SCALE)
}

/// The mean colour of the glyph's stroke cores in the original picture, or `None` when it
/// has no ink there.
fn source_colour(
    glyph: &Glyph,
    background: [u8; 3],
    image: &RgbImage,
    back: &Projection,
) -> Option<[u8; 3]> {
    // The core's pixels, edges included (bounds are pixel edges, the core's last row and
    // column inclusive).
    let (x0, y0, x1, y1) = (
        glyph.core.0 as f32,
        glyph.core.1 as f32,
        glyph.core.2 as f32 + 1.0,
        glyph.core.3 as f32 + 1.0,
    );
    let corners = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)].map(|p| back * &p);
    let bound = |v: f32, limit: u32| (v.max(0.0) as u32).min(limit);
    let (w, h) = image.dimensions();
    let xs = corners.iter().map(|c| c.0);
    let ys = corners.iter().map(|c| c.1);
    let (ox0, ox1) = (
        bound(xs.clone().fold(f32::MAX, f32::min).floor(), w),
        bound(xs.fold(f32::MIN, f32::max).ceil(), w),
    );
    let (oy0, oy1) = (
        bound(ys.clone().fold(f32::MAX, f32::min).floor(), h),
        bound(ys.fold(f32::MIN, f32::max).ceil(), h),
    );
    let bg = background.map(i32::from);
    let strength = |p: [u8; 3]| -> i32 { (0..3).map(|i| (i32::from(p[i]) - bg[i]).abs()).sum() };
    let pixels = || (oy0..oy1).flat_map(move |y| (ox0..ox1).map(move |x| image.get_pixel(x, y).0));
    let peak = pixels().map(strength).max()?;
    if peak == 0 {
        return None;
    }
    let cut = (peak as f32 * CORE) as i32;
    let mut sum = [0u64; 3];
    let mut n = 0u64;
    for p in pixels().filter(|&p| strength(p) >= cut) {
        (0..3).for_each(|i| sum[i] += u64::from(p[i]));
        n += 1;
    }
    let n = n.max(1);
    Some(sum.map(|s| (s / n) as u8))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_are_read_from_the_original_for_all_glyphs_or_none() {
        // A page in perspective: its far column's glyphs are smaller in the original than
        // the rest, and still read there with them.
        let mut scales = vec![1.6; 19];
        scales.extend([1.1, 1.15, 1.2]);
        assert!(larger_in_source(scales));
        assert!(!larger_in_source(vec![1.0, 1.1, 1.3]));
        assert!(!larger_in_source(Vec::new()));
    }
}
