//! Recognize: isolated glyphs -> digits with a confidence, by template matching.
//!
//! Templates are glyphs rendered from open fonts (`templates/`, embedded at build time) plus
//! any the user adds. Glyph and template are both fitted into the same small frame WITHOUT
//! changing their aspect ratio (a thin `1` stays thin and cannot turn into a `7`), centred,
//! and compared by normalised cross-correlation. A digit's score is its best template's; the
//! confidence is the margin to the best other digit.

use std::path::{Path, PathBuf};

use image::GrayImage;
use ndarray::Array2;
use rayon::prelude::*;

use crate::board::{Digit, Pos};
use crate::error::{Error, Result};

pub mod calibrate;
pub mod topology;

mod bundled {
    include!(concat!(env!("OUT_DIR"), "/templates.rs"));
}

/// Width of the comparison frame in pixels.
const FRAME_W: u32 = 24;
/// Height of the comparison frame: enough to tell a `6` from an `8` in any of our fonts.
const FRAME_H: u32 = 32;
/// Values in one feature.
const FRAME_LEN: usize = (FRAME_W * FRAME_H) as usize;

/// A glyph fitted into the comparison frame: zero mean, unit length.
#[derive(Clone, Debug)]
struct Feature(Vec<f32>);

impl Feature {
    /// Fits `ink` (255 = ink) into the frame, keeping its aspect ratio, centred. Each frame
    /// pixel averages the source pixels under it (bilinear when enlarging), so thin strokes
    /// survive shrinking.
    fn of(ink: &GrayImage) -> Feature {
        let (w, h) = (ink.width().max(1) as f32, ink.height().max(1) as f32);
        let s = (FRAME_H as f32 / h).min(FRAME_W as f32 / w);
        let (nw, nh) = (
            ((w * s).round() as u32).clamp(1, FRAME_W),
            ((h * s).round() as u32).clamp(1, FRAME_H),
        );
        let (ox, oy) = ((FRAME_W - nw) / 2, (FRAME_H - nh) / 2);
        let columns = BoxWeights::new(ink.width(), nw);
        let rows = BoxWeights::new(ink.height(), nh);
        // The box average is separable: each source row is first reduced to the frame's
        // width, then the reduced rows are averaged down to its height.
        let (width, nw) = (ink.width().max(1) as usize, nw as usize);
        let mut narrowed = vec![0f32; ink.height() as usize * nw];
        for (line, out) in ink
            .as_raw()
            .chunks_exact(width)
            .zip(narrowed.chunks_exact_mut(nw))
        {
            for (x, o) in out.iter_mut().enumerate() {
                let (first, weights) = columns.taps(x);
                let sum: f32 = (line[first..].iter().zip(weights))
                    .map(|(&v, w)| f32::from(v) * w)
                    .sum();
                *o = sum;
            }
        }
        let mut v = vec![0f32; (FRAME_W * FRAME_H) as usize];
        for (y, out) in v
            .chunks_exact_mut(FRAME_W as usize)
            .skip(oy as usize)
            .take(nh as usize)
            .enumerate()
        {
            let (first, weights) = rows.taps(y);
            let out = &mut out[ox as usize..ox as usize + nw];
            for (row, &w) in narrowed.chunks_exact(nw).skip(first).zip(weights) {
                out.iter_mut().zip(row).for_each(|(o, &r)| *o += r * w);
            }
        }
        let mean = v.iter().sum::<f32>() / v.len() as f32;
        v.iter_mut().for_each(|x| *x -= mean);
        let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt().max(1e-6);
        v.iter_mut().for_each(|x| *x /= norm);
        Feature(v)
    }
}

/// Box-filter weights along one axis: for each of `frame` pixels spread evenly over `source`
/// pixels, the source pixels its span [k * step, (k + 1) * step) covers and by how much. A
/// span reaching past the last pixel gives the last pixel the weight beyond it.
struct BoxWeights {
    /// Per frame pixel: its first source pixel and where its weights sit in `weights`.
    spans: Vec<(usize, std::ops::Range<usize>)>,
    /// Each frame pixel's weights sum to 1.
    weights: Vec<f32>,
}

impl BoxWeights {
    fn new(source: u32, frame: u32) -> BoxWeights {
        let last = source.max(1) - 1;
        let step = source.max(1) as f32 / frame as f32;
        let mut out = BoxWeights {
            spans: Vec::with_capacity(frame as usize),
            weights: Vec::new(),
        };
        for k in 0..frame {
            let (start, end) = (k as f32 * step, k as f32 * step + step);
            // start >= 0: truncation is floor, without a libm call
            let first = (start as u32).min(last);
            let at = out.weights.len();
            let mut p = first as f32;
            while p < end {
                let w = (p + 1.0).min(end) - p.max(start);
                if p as u32 > last {
                    *out.weights.last_mut().expect("the first pixel is inside") += w;
                } else {
                    out.weights.push(w);
                }
                p += 1.0;
            }
            let total: f32 = out.weights[at..].iter().sum();
            out.weights[at..]
                .iter_mut()
                .for_each(|w| *w /= total.max(1e-6));
            out.spans.push((first as usize, at..out.weights.len()));
        }
        out
    }

    /// Frame pixel `k`'s first source pixel and weights.
    fn taps(&self, k: usize) -> (usize, &[f32]) {
        let (first, range) = &self.spans[k];
        (*first, &self.weights[range.clone()])
    }
}

/// One template: a font's rendering of a digit.
struct Template {
    digit: Digit,
    feature: Feature,
}

/// The set of templates the recognizer matches against: one row of features per template, so
/// matching a grid's glyphs against all of them is one matrix product.
pub struct Templates {
    /// Template features, one row each.
    matrix: Array2<f32>,
    /// Each row's digit.
    digits: Vec<Digit>,
}

/// The glyphs of one picture in the comparison frame, one row of features each.
pub struct GlyphFeatures(Array2<f32>);

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

    /// The cosine of every pair of glyphs: how alike their shapes are (1 = the same).
    pub fn likeness(&self) -> Array2<f32> {
        self.0.dot(&self.0.t())
    }
}

/// Rows of features as one matrix.
fn stack(rows: Vec<Feature>) -> Array2<f32> {
    let width = FRAME_LEN;
    let flat: Vec<f32> = rows.into_iter().flat_map(|f| f.0).collect();
    Array2::from_shape_vec((flat.len() / width, width), flat)
        .expect("every feature has the frame's length")
}

/// Another reading of the givens the picture supports, whole shape groups taking other
/// digits: the cells it changes, the digit it puts there, and the template score it loses per
/// glyph changed. Within [`calibrate::RIVAL_LOSS`] it is a rival, nearly as good as the reading
/// chosen; further off, a correction to try when the reading has no unique solution.
#[derive(Clone, Debug, PartialEq)]
pub struct Rival {
    /// The cells and the digit this reading puts there.
    pub changes: Vec<(Pos, Digit)>,
    /// Template score lost per glyph changed (0 = as good as the reading chosen).
    pub loss: f32,
}

impl Rival {
    /// Whether the picture supports this reading nearly as well as the one chosen.
    pub fn is_close(&self) -> bool {
        self.loss <= calibrate::RIVAL_LOSS
    }
}

/// One glyph of a grid, for [`Templates::recognize_grid`].
#[derive(Clone, Copy, Debug)]
pub struct GridGlyph<'a> {
    /// The glyph, ink as brightness (255 = ink), cropped to it.
    pub ink: &'a GrayImage,
    /// Its cell.
    pub cell: Pos,
    /// Whether it is a given (printed by the puzzle, in the puzzle's font).
    pub given: bool,
}

/// A recognized digit with the evidence for it.
#[derive(Clone, Debug, PartialEq)]
pub struct Recognized {
    /// Every digit with its best score, best first.
    pub ranked: Vec<(Digit, f32)>,
}

impl Recognized {
    /// The best digit.
    pub fn digit(&self) -> Digit {
        self.ranked[0].0
    }

    /// The margin between the best digit's score and the runner-up's (0-2).
    pub fn confidence(&self) -> f32 {
        self.ranked[0].1 - self.ranked.get(1).map_or(-1.0, |r| r.1)
    }
}

impl Templates {
    /// The bundled templates, plus those under `extra` (`DIR/<name>/<digit>.png`) when given.
    pub fn load(extra: Option<&Path>) -> Result<Templates> {
        let mut templates = Vec::new();
        for &(font, digit, bytes) in bundled::BUNDLED {
            let path = PathBuf::from(format!("templates/{font}/{digit}.png"));
            templates.push(template_from_png(bytes, digit, &path)?);
        }
        if let Some(dir) = extra {
            templates.extend(load_dir(dir)?);
        }
        let digits = templates.iter().map(|t| t.digit).collect();
        let matrix = stack(templates.into_iter().map(|t| t.feature).collect());
        Ok(Templates { matrix, digits })
    }

    /// How many templates are loaded.
    pub fn len(&self) -> usize {
        self.digits.len()
    }

    /// Whether no template is loaded.
    pub fn is_empty(&self) -> bool {
        self.digits.is_empty()
    }

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

    /// Ranks the digits for each glyph of one grid (`ink`: 255 = ink, cropped), first by the
    /// templates, then refined by [`calibrate`]: the givens (`given` true) share a font, so
    /// their look-alikes vote together and the rules keep their digits apart.
    pub fn recognize_grid(&self, glyphs: &[GridGlyph<'_>]) -> (Vec<Recognized>, Vec<Rival>) {
        let inks: Vec<&GrayImage> = glyphs.iter().map(|g| g.ink).collect();
        let features = GlyphFeatures::of(&inks);
        let mut scores = self.digit_scores(&features);
        let holes: Vec<u8> = inks.par_iter().map(|ink| topology::holes(ink)).collect();
        let givens: Vec<usize> = (0..glyphs.len()).filter(|&i| glyphs[i].given).collect();
        let mut rivals = Vec::new();
        if givens.len() > 1 {
            let all_likeness = features.likeness();
            let likeness = all_likeness
                .select(ndarray::Axis(0), &givens)
                .select(ndarray::Axis(1), &givens);
            let own: Vec<[f32; 9]> = givens.iter().map(|&i| scores[i]).collect();
            let cells: Vec<Pos> = givens.iter().map(|&i| glyphs[i].cell).collect();
            let own_holes: Vec<u8> = givens.iter().map(|&i| holes[i]).collect();
            let refined = calibrate::refine(&own, &likeness, &cells, &own_holes);
            for (&i, r) in givens.iter().zip(refined.scores) {
                scores[i] = r;
            }
            let entries: Vec<usize> = (0..glyphs.len()).filter(|&i| !glyphs[i].given).collect();
            calibrate::read_entries_like_givens(&mut scores, &all_likeness, &givens, &entries);
            let digit = |d: usize| Digit::new(d as u8 + 1).expect("0-8 is a digit");
            rivals = (refined.alternatives.into_iter())
                .map(|(changes, loss)| Rival {
                    changes: changes.iter().map(|&(k, d)| (cells[k], digit(d))).collect(),
                    loss,
                })
                .collect();
        }
        // Each glyph's own loops rule out the runner-ups they contradict (the givens' groups
        // were weighed by their majority already).
        for (s, &h) in scores.iter_mut().zip(&holes) {
            topology::rule_out_contradicted(s, h, calibrate::HOLE_MARGIN);
        }
        let recognized = scores.into_iter().map(Recognized::from_scores).collect();
        (recognized, rivals)
    }

    /// Each glyph's best score for each digit (index 0 is digit 1): the glyphs x templates
    /// matrix of cosines, reduced to the best template of each digit.
    pub fn digit_scores(&self, glyphs: &GlyphFeatures) -> Vec<[f32; 9]> {
        let cosines = glyphs.0.dot(&self.matrix.t());
        cosines
            .rows()
            .into_iter()
            .map(|row| {
                let mut best = [f32::MIN; 9];
                for (&c, d) in row.iter().zip(&self.digits) {
                    let i = d.get() as usize - 1;
                    best[i] = best[i].max(c);
                }
                best
            })
            .collect()
    }
}

impl Recognized {
    /// Ranks the digits by their scores (index 0 is digit 1), best first.
    pub fn from_scores(scores: [f32; 9]) -> Recognized {
        let mut ranked: Vec<(Digit, f32)> = Digit::all().zip(scores).collect();
        ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
        Recognized { ranked }
    }
}

fn template_from_png(bytes: &[u8], digit: u8, path: &Path) -> Result<Template> {
    let bad = |reason: String| Error::Template {
        path: path.to_path_buf(),
        reason,
    };
    let digit = Digit::new(digit).ok_or_else(|| bad("not a digit 1-9".into()))?;
    let mut gray = image::load_from_memory(bytes)
        .map_err(|e| bad(e.to_string()))?
        .into_luma8();
    // Templates are dark on light; features use ink as brightness.
    image::imageops::invert(&mut gray);
    Ok(Template {
        digit,
        feature: Feature::of(&trim(&gray)),
    })
}

/// Crops away rows and columns without ink, so a padded user template fits like ours.
fn trim(ink: &GrayImage) -> GrayImage {
    let has_ink = |x: u32, y: u32| ink.get_pixel(x, y)[0] > 64;
    let (w, h) = ink.dimensions();
    let xs: Vec<u32> = (0..w).filter(|&x| (0..h).any(|y| has_ink(x, y))).collect();
    let ys: Vec<u32> = (0..h).filter(|&y| (0..w).any(|x| has_ink(x, y))).collect();
    match (xs.first(), xs.last(), ys.first(), ys.last()) {
        (Some(&x0), Some(&x1), Some(&y0), Some(&y1)) => {
            image::imageops::crop_imm(ink, x0, y0, x1 - x0 + 1, y1 - y0 + 1).to_image()
        }
        _ => ink.clone(),
    }
}

/// Templates from `DIR/<set>/<digit>.png`.
fn load_dir(dir: &Path) -> Result<Vec<Template>> {
    let io = |source, path: &Path| Error::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut sets: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| io(e, dir))?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    sets.sort();
    let mut out = Vec::new();
    for set in sets {
        for digit in 1..=9u8 {
            let path = set.join(format!("{digit}.png"));
            if path.is_file() {
                let bytes = std::fs::read(&path).map_err(|e| io(e, &path))?;
                out.push(template_from_png(&bytes, digit, &path)?);
            }
        }
    }
    if out.is_empty() {
        return Err(Error::Template {
            path: dir.to_path_buf(),
            reason: "no templates found (expected DIR/<name>/<digit>.png)".into(),
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bundled_templates_recognize_themselves() {
        let templates = Templates::load(None).unwrap();
        assert!(templates.len() >= 9 * 14);
        for &(font, digit, bytes) in bundled::BUNDLED {
            let mut gray = image::load_from_memory(bytes).unwrap().into_luma8();
            image::imageops::invert(&mut gray);
            let r = templates.recognize(&gray);
            assert_eq!(r.digit().get(), digit, "{font} {digit}");
        }
    }

    #[test]
    fn a_stretched_one_is_not_a_seven() {
        // A plain vertical bar, as a thin sans-serif `1` looks.
        let bar = GrayImage::from_fn(5, 40, |_, _| image::Luma([255]));
        let templates = Templates::load(None).unwrap();
        assert_eq!(templates.recognize(&bar).digit().get(), 1);
    }
}
