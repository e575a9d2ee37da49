//! Small glyphs read again from the original picture at its own resolution.
//!
//! The straightened grid has a fixed size, so the digits of a typeset page (a fifth of the
//! cell) come out a dozen pixels tall there, too few to tell an old-style `3` from a `1`,
//! while the original often holds them two or three times larger. Those glyphs are sampled
//! again from the original, up to a height the templates compare well at.

use image::{GrayImage, RgbImage};
use imageproc::geometric_transformations::Projection;
use rayon::prelude::*;

use super::frame;
use super::isolate::Ink;
use super::Glyph;
use crate::pipeline::resample::{source_scale, Strengths};

/// The glyphs of a grid whose digits are shorter than this (pixels of the straightened grid)
/// are read again, all of them, so that one font's glyphs are compared at one resolution.
const SMALL: f32 = 28.0;
/// ... up to this height in pixels, as far as the original's resolution goes.
const TARGET: f32 = 40.0;
/// Not worth it for less than this much enlargement.
const MIN_GAIN: f32 = 1.4;

/// When the grid's digits (`digit` pixels tall) are small, replaces each glyph's ink by its
/// ink sampled from `image` (the original picture; `projection` maps it to the straightened
/// grid), where the original is larger.
pub(super) fn read_small_glyphs_again(
    glyphs: &mut [Option<Glyph>],
    inks: &[Ink<'_>],
    digit: f32,
    dark: bool,
    image: &RgbImage,
    projection: &Projection,
) {
    if digit >= SMALL {
        return;
    }
    let back = projection.invert();
    // Glyphs are independent: sampled in parallel.
    (glyphs.par_iter_mut().zip(inks))
        .filter_map(|(glyph, ink)| Some((glyph.as_mut()?, ink)))
        .for_each(|(glyph, ink)| {
            if let Some(ink) = sampled_ink(glyph, ink, TARGET / digit, dark, image, &back) {
                glyph.ink = ink;
            }
        });
}

/// The glyph's box (with a pixel of margin) sampled from the original enlarged up to `most`
/// times, as ink (255 = full ink) cropped to the glyph; `None` when the original is
/// not larger there.
fn sampled_ink(
    glyph: &Glyph,
    look: &Ink<'_>,
    most: f32,
    dark: bool,
    image: &RgbImage,
    back: &Projection,
) -> Option<GrayImage> {
    let area = glyph.bounds(1.0);
    let (w, h) = (area.2 - area.0, area.3 - area.1);
    let gain = source_scale(back, area).min(most);
    if gain < MIN_GAIN {
        return None;
    }
    let size = ((w * gain).round() as u32, (h * gain).round() as u32);
    let strengths = Strengths::of(image, back, area, size, (look.background, dark));
    let contrast = look.contrast.max(1);
    let ink: Vec<u8> = strengths
        .values
        .iter()
        .map(|&s| {
            if s * 2 < look.shown_from {
                0
            } else {
                (s * 255 / contrast).clamp(0, 255) as u8
            }
        })
        .collect();
    let (ink, w, h) = frame::trim(&ink, size.0, size.1);
    GrayImage::from_raw(w, h, ink).filter(|g| g.width() > 1 && g.height() > 1)
}
