//! Reading the glyphs of pencil marks: by the recognizer's templates (which fit each glyph
//! into their frame whatever its size), with the loops rule the digits get, and by likeness
//! to the picture's own givens, a second reader independent of the templates.

use image::GrayImage;

use crate::pipeline::recognize::{calibrate, topology, GlyphFeatures, Recognized, Templates};
use crate::puzzle::board::Digit;

/// How one glyph reads.
pub(super) struct Reading {
    /// Its digits ranked by the templates, a runner-up its loops contradict ruled out (as for
    /// the digits).
    pub(super) templates: Recognized,
    /// The digit of the givens it is most alike on average, when the givens hold every digit:
    /// the picture's own font, independent of the templates.
    pub(super) like_givens: Option<Digit>,
}

impl Reading {
    /// Whether the glyph reads as `digit`: the templates' best, or their runner-up when the
    /// givens it is most alike are of that digit (a font the templates do not know, such as
    /// handwriting, is the picture's own).
    pub(super) fn agrees(&self, digit: Digit) -> bool {
        let ranked = &self.templates.ranked;
        ranked[0].0 == digit || (ranked[1].0 == digit && self.like_givens == Some(digit))
    }
}

/// Each glyph's reading (`inks`: 255 = ink, cropped); `printed` are the givens' glyphs with
/// their digits. All glyphs go through one matrix product with the templates.
pub(super) fn read_all(
    templates: &Templates,
    inks: &[&GrayImage],
    printed: &[(&GrayImage, Digit)],
) -> Vec<Reading> {
    if inks.is_empty() {
        return Vec::new();
    }
    let all: Vec<&GrayImage> = (inks.iter().copied())
        .chain(printed.iter().map(|p| p.0))
        .collect();
    let features = GlyphFeatures::of(&all);
    let likeness = features.likeness();
    let scores = templates.digit_scores(&features);
    (scores.into_iter().zip(inks).enumerate())
        .map(|(i, (mut s, ink))| {
            topology::rule_out_contradicted(&mut s, topology::holes(ink), calibrate::HOLE_MARGIN);
            // Mean likeness to the givens of each digit.
            let mut sums = [(0.0f32, 0usize); 9];
            for (k, (_, d)) in printed.iter().enumerate() {
                let slot = &mut sums[d.get() as usize - 1];
                slot.0 += likeness[[i, inks.len() + k]];
                slot.1 += 1;
            }
            let means: Option<Vec<f32>> = (sums.iter())
                .map(|&(sum, n)| (n > 0).then(|| sum / n as f32))
                .collect();
            let like_givens = means.and_then(|m| {
                let best = (0..9).max_by(|&a, &b| m[a].total_cmp(&m[b]))?;
                Digit::new(best as u8 + 1)
            });
            Reading {
                templates: Recognized::from_scores(s),
                like_givens,
            }
        })
        .collect()
}
