//! The glyphs' shapes, as the authors step weighs them: whether a set of glyphs holds
//! clearly different digits, and how near copies of each other they are (print or a hand).

use std::cell::OnceCell;

use image::GrayImage;

use crate::pipeline::cells::frame::{self, OTHER_SHAPE};

/// The glyphs' shapes, fitted into the recognizer's comparison frame when first asked for:
/// whether a set of glyphs holds clearly different digits is a question of shape alone.
pub(super) struct Shapes<'a> {
    inks: &'a [&'a GrayImage],
    features: OnceCell<Vec<Vec<f32>>>,
}

impl<'a> Shapes<'a> {
    pub(super) fn new(inks: &'a [&'a GrayImage]) -> Shapes<'a> {
        Shapes {
            inks,
            features: OnceCell::new(),
        }
    }

    /// Whether two of the glyphs `members` are clearly different shapes (their cosine at most
    /// [`OTHER_SHAPE`]), so they are not one digit.
    pub(super) fn mixed(&self, members: &[usize]) -> bool {
        (members.iter().enumerate()).any(|(k, &a)| {
            members[k + 1..]
                .iter()
                .any(|&b| self.cosine(a, b) <= OTHER_SHAPE)
        })
    }

    /// How near copies of each other the glyphs `members` are: the median, over the members,
    /// of the cosine to the most alike other member (-1 with fewer than two). Print draws
    /// every glyph of a digit alike, so a font's glyphs each have a near twin (0.85-0.99 on the
    /// photos and screenshots of `../shared`), where a hand draws each one anew (0.52-0.83).
    pub(super) fn consistency(&self, members: &[usize]) -> f32 {
        let mut nearest: Vec<f32> = (members.iter()).map(|&a| self.twin(a, members)).collect();
        nearest.sort_by(f32::total_cmp);
        nearest.get(nearest.len() / 2).copied().unwrap_or(-1.0)
    }

    /// The cosine of glyph `a` to the most alike other glyph of `members` (-1 when none).
    pub(super) fn twin(&self, a: usize, members: &[usize]) -> f32 {
        (members.iter())
            .filter(|&&b| b != a)
            .map(|&b| self.cosine(a, b))
            .fold(-1.0, f32::max)
    }

    /// The height of glyph `a`, in pixels of the straightened grid.
    pub(super) fn height(&self, a: usize) -> f32 {
        self.inks[a].height() as f32
    }

    /// The cosine of glyphs `a` and `b` in the comparison frame (1 = the same shape).
    fn cosine(&self, a: usize, b: usize) -> f32 {
        let features = self.features.get_or_init(|| {
            (self.inks.iter())
                .map(|ink| frame::fit(ink.as_raw(), ink.width(), ink.height()))
                .collect()
        });
        frame::likeness(&features[a], &features[b])
    }
}
