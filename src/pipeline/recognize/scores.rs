//! Template scores: glyphs fitted into the comparison frame and matched against every
//! template at once, each glyph's best score per digit (unblurred, or at the picture's own
//! blur).

use image::GrayImage;
use ndarray::{Array2, ArrayView1};
use rayon::prelude::*;

use super::{Recognized, Templates};
use crate::pipeline::cells::frame;
use crate::pipeline::cells::frame::FRAME_LEN;
use crate::puzzle::board::Digit;

/// One glyph's score for each digit (index 0 is digit 1).
pub(super) type DigitScores = [f32; 9];

/// How many of the nearest handwritten templates of a digit its score averages: among
/// thousands of glyphs from many hands, one of another digit fits a new writer's glyph by
/// chance more often than two do. Measured on writers the templates do not hold (games-pen
/// tune fold 2 read with fold 1's templates): 2 read more entries right than 1 or 3 and said
/// "all right" as often as 1 (BENCHMARKS.md, "The two nearest glyphs of a hand").
const NEAREST_HANDS: usize = 2;

/// A glyph's `NEAREST_HANDS` best cosines with each digit's handwritten templates, best first
/// (`f32::MIN` where fewer were seen).
#[derive(Clone, Copy)]
struct Nearest([[f32; NEAREST_HANDS]; 9]);

impl Default for Nearest {
    fn default() -> Nearest {
        Nearest([[f32::MIN; NEAREST_HANDS]; 9])
    }
}

impl Nearest {
    /// Takes in a template of `digit` at cosine `c`.
    fn add(&mut self, digit: Digit, c: f32) {
        let top = &mut self.0[index_of(digit)];
        if c > top[NEAREST_HANDS - 1] {
            top[NEAREST_HANDS - 1] = c;
            top.sort_by(|a, b| b.total_cmp(a));
        }
    }

    /// Each digit's mean of its nearest templates; the nearest alone where the digit has
    /// fewer than `NEAREST_HANDS`.
    fn scores(&self) -> DigitScores {
        self.0.map(|top| {
            if top[NEAREST_HANDS - 1] == f32::MIN {
                top[0]
            } else {
                top.iter().sum::<f32>() / NEAREST_HANDS as f32
            }
        })
    }
}

/// How many blurs besides none the templates are matched at.
pub(super) const BLUR_COUNT: usize = frame::BLUR_LEVELS.len();

/// A glyph fitted into the comparison frame: zero mean, unit length.
#[derive(Clone, Debug)]
pub(super) struct Feature(pub(super) Vec<f32>);

impl Feature {
    /// Fits `ink` (255 = ink) into the frame (see [`frame::fit`]).
    pub(super) fn of(ink: &GrayImage) -> Feature {
        Feature(frame::fit(ink.as_raw(), ink.width(), ink.height()))
    }
}

/// The glyphs of one picture in the comparison frame, one row of features each.
pub struct GlyphFeatures(pub(super) Array2<f32>);

impl GlyphFeatures {
    /// Fits each glyph (`ink`: 255 = ink, cropped to the glyph) into the comparison frame.
    pub fn of(inks: &[&GrayImage]) -> GlyphFeatures {
        let rows: Vec<Feature> = inks.par_iter().map(|ink| Feature::of(ink)).collect();
        GlyphFeatures(stack(rows))
    }

    /// How many glyphs.
    pub fn len(&self) -> usize {
        self.0.nrows()
    }

    /// Whether there are no glyphs.
    pub fn is_empty(&self) -> bool {
        self.0.nrows() == 0
    }

    /// The glyphs blurred by `sigma` frame pixels (see [`frame::blur`]).
    fn blurred(&self, sigma: f32) -> Array2<f32> {
        let rows: Vec<Feature> = (0..self.len())
            .into_par_iter()
            .map(|i| Feature(frame::blur(&self.0.row(i).to_vec(), sigma)))
            .collect();
        stack(rows)
    }

    /// The cosine of every pair of glyphs: how alike their shapes are (1 = the same).
    pub fn likeness(&self) -> Array2<f32> {
        self.0.dot(&self.0.t())
    }

    /// The glyphs at `rows` only.
    pub(super) fn rows(&self, rows: &[usize]) -> GlyphFeatures {
        GlyphFeatures(self.0.select(ndarray::Axis(0), rows))
    }

    /// [`GlyphFeatures::likeness`] of the glyphs at `rows`, blurred by `sigma` frame pixels:
    /// strokes a pixel apart still overlap, so only the shapes' outlines tell.
    pub fn likeness_blurred(&self, rows: &[usize], sigma: f32) -> Array2<f32> {
        let blurred = self.rows(rows).blurred(sigma);
        let norms: Vec<f32> = (blurred.rows().into_iter())
            .map(|r| r.dot(&r).sqrt().max(1e-6))
            .collect();
        let mut cosines = blurred.dot(&blurred.t());
        for ((i, j), c) in cosines.indexed_iter_mut() {
            *c /= norms[i] * norms[j];
        }
        cosines
    }
}

/// The glyphs of one slicing of a grid matched against the templates: their features and
/// each glyph's best score per digit. Made once and shared by what asks the same question
/// (which way up the grid stands, then what its glyphs read).
pub struct Matched {
    pub(super) features: GlyphFeatures,
    pub(super) scores: Vec<DigitScores>,
}

impl Matched {
    /// Each glyph's best template score, whatever its digit.
    pub(super) fn best_scores(&self) -> impl Iterator<Item = f32> + '_ {
        (self.scores.iter()).map(|scores| scores.iter().copied().fold(f32::MIN, f32::max))
    }
}

/// Rows of features as one matrix.
pub(super) fn stack(rows: Vec<Feature>) -> Array2<f32> {
    let width = FRAME_LEN;
    let flat: Vec<f32> = rows.into_iter().flat_map(|f| f.0).collect();
    Array2::from_shape_vec((flat.len() / width, width), flat)
        .expect("every feature has the frame's length")
}

impl Templates {
    /// Ranks the digits for one glyph (`ink`: 255 = ink, cropped to the glyph).
    pub fn recognize(&self, ink: &GrayImage) -> Recognized {
        self.recognize_all(&[ink]).remove(0)
    }

    /// Ranks the digits for each glyph, as [`Templates::recognize`] does one by one.
    pub fn recognize_all(&self, inks: &[&GrayImage]) -> Vec<Recognized> {
        self.digit_scores(&GlyphFeatures::of(inks))
            .into_iter()
            .map(Recognized::from_scores)
            .collect()
    }

    /// Matches glyphs (`ink`: 255 = ink, cropped) against every template, for
    /// [`Templates::upright_turn`] and [`Templates::recognize_grid`].
    pub fn match_glyphs(&self, inks: &[&GrayImage]) -> Matched {
        let features = GlyphFeatures::of(inks);
        let scores = self.digit_scores(&features);
        Matched { features, scores }
    }

    /// Each glyph's best score for each digit (index 0 is digit 1) among the print templates:
    /// the glyphs x templates matrix of cosines, reduced to the best template of each digit.
    pub fn digit_scores(&self, glyphs: &GlyphFeatures) -> Vec<[f32; 9]> {
        self.scores_per_digit(&glyphs.0, None, self.print_rows())
    }

    /// Each glyph's score for each digit among the handwritten templates, for a player's
    /// entries: the mean of its `NEAREST_HANDS` nearest templates of the digit (the nearest
    /// alone where the digit has fewer; `f32::MIN` where none).
    pub(super) fn handwritten_scores(&self, glyphs: &GlyphFeatures) -> Vec<DigitScores> {
        let blocks = self.per_block(&glyphs.0, None, 0..self.handwritten, |cosines, digits| {
            (cosines.rows().into_iter())
                .map(|row| {
                    let mut nearest = Nearest::default();
                    (row.iter().zip(digits)).for_each(|(&c, &d)| nearest.add(d, c));
                    nearest
                })
                .collect()
        });
        let mut nearest = vec![Nearest::default(); glyphs.0.nrows()];
        for block in blocks {
            for (all, part) in nearest.iter_mut().zip(block) {
                (part.0.iter().enumerate())
                    .for_each(|(i, top)| top.iter().for_each(|&c| all.add(digit_at(i), c)));
            }
        }
        nearest.iter().map(Nearest::scores).collect()
    }

    /// The rows of the print templates: all but the handwritten ones, which lead.
    fn print_rows(&self) -> std::ops::Range<usize> {
        self.handwritten..self.matrix.nrows()
    }

    /// Per row of `glyphs` (features), the best cosine with each digit's templates among
    /// `rows`, the templates' products divided by `norms` (one per template) when given.
    fn scores_per_digit(
        &self,
        glyphs: &Array2<f32>,
        norms: Option<ArrayView1<f32>>,
        rows: std::ops::Range<usize>,
    ) -> Vec<DigitScores> {
        let blocks = self.per_block(glyphs, norms, rows, best_per_digit);
        let mut best = vec![[f32::MIN; 9]; glyphs.nrows()];
        for block in blocks {
            for (best, scores) in best.iter_mut().zip(block) {
                for (b, s) in best.iter_mut().zip(scores) {
                    *b = b.max(s);
                }
            }
        }
        best
    }

    /// The templates of `rows` matched against `glyphs` a block at a time over the thread
    /// pool, each block's cosines (divided by `norms` when given) reduced by `reduce` with the
    /// block's digits: one block per thread, since each block's product packs only its own
    /// rows (packing the whole template matrix took as long as multiplying it) and repacks the
    /// glyphs, a few more partial tiles.
    fn per_block<T: Send>(
        &self,
        glyphs: &Array2<f32>,
        norms: Option<ArrayView1<f32>>,
        rows: std::ops::Range<usize>,
        reduce: impl Fn(&Array2<f32>, &[Digit]) -> Vec<T> + Sync,
    ) -> Vec<Vec<T>> {
        let per_task = rows.len().div_ceil(rayon::current_num_threads()).max(1);
        let n = rows.end;
        let starts: Vec<usize> = rows.step_by(per_task).collect();
        (starts.into_par_iter())
            .map(|start| {
                let rows = start..(start + per_task).min(n);
                let block = self.matrix.slice(ndarray::s![rows.clone(), ..]);
                let mut cosines = glyphs.dot(&block.t());
                if let Some(norms) = norms {
                    cosines /= &norms.slice(ndarray::s![rows.clone()]);
                }
                reduce(&cosines, &self.digits[rows])
            })
            .collect()
    }

    /// [`Templates::digit_scores`] with the templates blurred as much as the picture's glyphs
    /// are: of no blur and [`frame::BLUR_LEVELS`], the one whose best digits score highest on
    /// average. One picture is blurred alike throughout, and a blur that fits its glyphs fits
    /// their own digit's templates better than the others'.
    /// The scores blurred, then the scores unblurred; `None` when no blur fits better.
    pub(super) fn digit_scores_at_own_blur(
        &self,
        glyphs: &GlyphFeatures,
    ) -> Option<(Vec<DigitScores>, Vec<DigitScores>)> {
        let sharp = self.digit_scores(glyphs);
        let mut best = None;
        let mut best_fit = mean_best(&sharp);
        for (level, &sigma) in frame::BLUR_LEVELS.iter().enumerate() {
            // blur(g) · t = g · blur(t) (see `frame::blur`); over blur(t)'s length, the cosine.
            let scores = self.scores_per_digit(
                &glyphs.blurred(sigma),
                Some(self.blur_norms.row(level)),
                self.print_rows(),
            );
            let fit = mean_best(&scores);
            if fit > best_fit {
                (best, best_fit) = (Some(scores), fit);
            }
        }
        best.map(|blurred| (blurred, sharp))
    }
}
/// Per row of `cosines` (glyphs x templates), the best cosine of each digit's templates
/// (index 0 is digit 1).
fn best_per_digit(cosines: &Array2<f32>, digits: &[Digit]) -> Vec<[f32; 9]> {
    cosines
        .rows()
        .into_iter()
        .map(|row| {
            let mut best = [f32::MIN; 9];
            for (&c, d) in row.iter().zip(digits) {
                let i = index_of(*d);
                best[i] = best[i].max(c);
            }
            best
        })
        .collect()
}

/// The digit at `index` of a row of scores (0 is digit 1).
pub(super) fn digit_at(index: usize) -> Digit {
    Digit::new(index as u8 + 1).expect("0-8 is a digit")
}

/// The index of `digit` in a row of scores (digit 1 is 0).
pub(super) fn index_of(digit: Digit) -> usize {
    usize::from(digit.get()) - 1
}

/// The index (0 is digit 1) of the best of `scores`.
pub(super) fn best_digit(scores: &[f32; 9]) -> usize {
    (0..9).fold(0, |b, d| if scores[d] > scores[b] { d } else { b })
}

/// The mean over glyphs of their best digit's score: how well the templates fit the picture.
pub(super) fn mean_best(scores: &[[f32; 9]]) -> f32 {
    let total: f32 = (scores.iter())
        .map(|s| s.iter().copied().fold(f32::MIN, f32::max))
        .sum();
    total / scores.len().max(1) as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_blurred_glyph_is_matched_at_its_own_blur() {
        let templates = Templates::load(None).unwrap();
        // Every bundled 8, blurred more than the most the templates are: soft print.
        let eights: Vec<Feature> = (templates.matrix.rows().into_iter())
            .zip(&templates.digits)
            .filter(|(_, d)| d.get() == 8)
            .map(|(row, _)| Feature(frame::blur(&row.to_vec(), 2.0)))
            .collect();
        let glyphs = GlyphFeatures(stack(eights));
        let sharp = templates.digit_scores(&glyphs);
        let (scores, unblurred) = templates
            .digit_scores_at_own_blur(&glyphs)
            .expect("a blur is chosen");
        assert_eq!(unblurred, sharp);
        // How far each glyph's 8 leads the best other digit, on average.
        let lead = |s: &[[f32; 9]]| {
            let total: f32 = (s.iter())
                .map(|s| {
                    s[7] - (0..9)
                        .filter(|&d| d != 7)
                        .map(|d| s[d])
                        .fold(f32::MIN, f32::max)
                })
                .sum();
            total / s.len() as f32
        };
        assert!(mean_best(&scores) > mean_best(&sharp));
        assert!(
            lead(&scores) > lead(&sharp),
            "{} {}",
            lead(&scores),
            lead(&sharp)
        );
    }

    /// A frame feature of a synthetic glyph: a ring (`hole` true) or a bar.
    fn synthetic(hole: bool) -> Vec<f32> {
        let (w, h) = (18u32, 26u32);
        let ink: Vec<u8> = (0..w * h)
            .map(|i| {
                let (x, y) = ((i % w) as f32 - 8.5, (i / w) as f32 - 12.5);
                let r = (x * x / 64.0 + y * y / 144.0).sqrt();
                let on = if hole {
                    (0.7..1.0).contains(&r)
                } else {
                    x.abs() < 2.5
                };
                if on {
                    255
                } else {
                    0
                }
            })
            .collect();
        frame::fit(&ink, w, h)
    }

    #[test]
    fn blurring_the_glyph_stands_for_blurring_the_template() {
        let (glyph, template) = (synthetic(true), synthetic(false));
        for sigma in frame::BLUR_LEVELS {
            let blurred = frame::blur(&template, sigma);
            let mean = blurred.iter().sum::<f32>() / blurred.len() as f32;
            let centred: Vec<f32> = blurred.iter().map(|v| v - mean).collect();
            let norm = centred.iter().map(|v| v * v).sum::<f32>().sqrt();
            let direct: f32 = glyph.iter().zip(&centred).map(|(g, t)| g * t).sum::<f32>() / norm;
            let through_glyph: f32 = (frame::blur(&glyph, sigma).iter().zip(&template))
                .map(|(g, t)| g * t)
                .sum::<f32>()
                / frame::blurred_norm(&template, sigma);
            assert!(
                (direct - through_glyph).abs() < 1e-4,
                "{direct} {through_glyph}"
            );
        }
    }
}
