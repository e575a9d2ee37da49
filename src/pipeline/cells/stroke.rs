//! A glyph's stroke colour read again from the original picture, at its own resolution.
//!
//! The straightened grid is sampled at a fixed size, so a digit drawn larger in the original
//! is shrunk, and its thin strokes never reach their full colour there: how close each comes
//! depends on the digit's shape (a `1`'s stem against a `4`'s diagonal), which smears one
//! author's colour over a range as wide as the gap to another author's near shade. In the
//! original the strokes are whole pixels wide, so their cores show the colour as drawn.

use image::RgbImage;
use imageproc::geometric_transformations::Projection;
use rayon::prelude::*;

use super::Glyph;
use crate::pipeline::resample::source_scale;

/// Re-read the glyphs' colours only when the original has at least this many pixels per pixel
/// of the straightened grid (for the median glyph): at about the same size the straightened
/// colours are as good.
const MIN_SCALE: f32 = 1.25;
/// The stroke cores: pixels standing out from the cell's background at least this fraction
/// of the strokes' peak (see [`robust_peak`]; the straightened picture's colour takes the
/// strongest pixel's).
const CORE: f32 = 0.8;
/// The share of a glyph's stroke pixels counted as its strongest (see [`robust_peak`]): a
/// bold entry `7` rotated 3.7 degrees had 9% of them in the overshoot. Measured on all ten
/// renderings: 0.1, 0.05 and 0.03 each read 2-4 tune pictures more exact than the strongest
/// pixel did, and 0.03 one validate picture fewer. The straightened picture, which our own
/// resampling smooths, keeps the strongest pixel: the same share there read 5 validate
/// pictures fewer.
const PEAK_SHARE: f32 = 0.1;

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
    // Glyphs are independent: read in parallel.
    (glyphs.par_iter_mut().zip(backgrounds))
        .filter_map(|(glyph, &background)| Some((glyph.as_mut()?, background)))
        .for_each(|(glyph, background)| {
            if let Some(colour) = source_colour(glyph, background, image, &back) {
                glyph.colour = colour;
            }
        });
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
    // Row by row, as slices of the picture's bytes (a pixel at a time through the image's
    // accessor cost more than the strengths themselves).
    let (raw, stride) = (image.as_raw(), w as usize * 3);
    let rows = || {
        (oy0..oy1).map(move |y| {
            let row = y as usize * stride;
            &raw[row + ox0 as usize * 3..row + ox1 as usize * 3]
        })
    };
    let mut strengths = Vec::with_capacity(((ox1 - ox0) * (oy1 - oy0)) as usize);
    for row in rows() {
        strengths.extend(row.chunks_exact(3).map(|p| strength([p[0], p[1], p[2]])));
    }
    let peak = robust_peak(&strengths)?;
    let cut = (peak as f32 * CORE) as i32;
    let mut sum = [0u64; 3];
    let mut n = 0u64;
    let pixels = rows().flat_map(|row| row.chunks_exact(3));
    for (p, _) in pixels.zip(&strengths).filter(|&(_, &s)| s >= cut) {
        (0..3).for_each(|i| sum[i] += u64::from(p[i]));
        n += 1;
    }
    let n = n.max(1);
    Some(sum.map(|s| (s / n) as u8))
}

/// The strength a glyph's stroke cores reach, from its pixels' `strengths`: not the single
/// strongest pixel, which resampling's overshoot (a screenshot rotated or scaled with a
/// sharp filter) makes darker than the ink, but what the strongest `PEAK_SHARE` of its stroke
/// pixels (those at least half the strongest) reach. `None` without ink.
fn robust_peak(strengths: &[i32]) -> Option<i32> {
    let max = strengths.iter().copied().max().filter(|&m| m > 0)?;
    let mut strengths: Vec<i32> = strengths
        .iter()
        .copied()
        .filter(|&s| s * 2 >= max)
        .collect();
    strengths.sort_unstable();
    let at = ((strengths.len() as f32) * (1.0 - PEAK_SHARE)) as usize;
    strengths.get(at.min(strengths.len() - 1)).copied()
}

/// Which of a glyph's ink values (a quantile) stands for its strokes: high enough to sit
/// inside them, below the odd darkest pixel.
const STROKE_QUANTILE: f32 = 0.9;

/// How strongly a glyph's strokes stand out: a high quantile of its ink (255 = the grid's
/// text contrast).
pub(crate) fn stroke_ink(glyph: &Glyph) -> Option<f32> {
    let mut ink: Vec<u8> = (glyph.ink.as_raw().iter().copied())
        .filter(|&v| v > 0)
        .collect();
    if ink.is_empty() {
        return None;
    }
    ink.sort_unstable();
    let k = ((ink.len() - 1) as f32 * STROKE_QUANTILE).round() as usize;
    Some(f32::from(ink[k]))
}

/// How strongly a glyph's strongest stroke stands out, whatever its box takes in of its
/// blurred edges (a box found at a lower cut holds more of them, and [`stroke_ink`]'s
/// quantile falls with it): its ink at the pixel as many from the strongest as the glyph is
/// tall, one pixel down every row of a stroke its height (255 = the grid's text contrast).
pub(crate) fn core_ink(glyph: &Glyph) -> Option<f32> {
    let mut ink: Vec<u8> = (glyph.ink.as_raw().iter().copied())
        .filter(|&v| v > 0)
        .collect();
    let k = (glyph.height as usize).min(ink.len()).checked_sub(1)?;
    ink.sort_unstable_by(|a, b| b.cmp(a));
    Some(f32::from(ink[k]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_glyphs_core_does_not_fade_with_the_blur_its_box_takes_in() {
        // A stem 2 px wide and 20 tall at 200, in a box 4 px wide; the same stem in a box
        // found at a lower cut, taking in 16 more columns of blurred edge at 40.
        let glyph = |width: u32| {
            let ink = image::GrayImage::from_fn(width, 20, |x, _| {
                let centre = width / 2;
                image::Luma([if x == centre || x + 1 == centre {
                    200
                } else {
                    40
                }])
            });
            Glyph {
                ink,
                ..Glyph::sketch(width, 20, [20, 20, 20])
            }
        };
        let (tight, wide) = (glyph(4), glyph(20));
        assert_eq!(core_ink(&tight), Some(200.0));
        assert_eq!(core_ink(&wide), Some(200.0));
        assert!(stroke_ink(&wide) < stroke_ink(&tight));
    }

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

    #[test]
    fn resamplings_overshoot_does_not_set_the_strokes_peak() {
        // Measured on a phone screenshot rotated 3.7 degrees: an entry `7`'s strokes stand
        // out 495 (its ink) over 2,143 pixels, and its edges overshoot to 516-646 over 222.
        let mut strengths = vec![495; 2143];
        strengths.extend((0..222).map(|i| 516 + i * 130 / 221));
        strengths.extend([300; 400]);
        let peak = robust_peak(&strengths).unwrap();
        // The colour is read from pixels within a fifth of the peak: the ink's among them.
        assert!((peak as f32 * CORE) as i32 <= 495, "peak {peak}");
        // A hairline without overshoot keeps its strongest pixels.
        let hairline: Vec<i32> = (0..50).map(|i| 400 + i * 6).collect();
        assert!(robust_peak(&hairline).unwrap() >= 670);
        assert_eq!(robust_peak(&[0, 0]), None);
    }
}
