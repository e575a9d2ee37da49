//! The glyph templates: the bundled ones, made into features by the build script, and any
//! in a folder the user names (`DIR/<face>/<digit>.png`, handwriting in
//! `DIR/handwritten/<set>/<digit>.png`), loaded once and matched as one matrix. Handwritten
//! templates are matched for a player's entries only: a print's givens are one font, and a
//! hand's loose shapes fit a printed glyph of another digit more often than a font does.

use std::path::{Path, PathBuf};

use ndarray::{Array2, ArrayView1, ArrayView2, CowArray, Ix2};

use super::scores::{Feature, BLUR_COUNT};
use super::template_files;
use crate::error::TemplateError;
use crate::pipeline::cells::frame::{self, FRAME_LEN};
use crate::puzzle::board::Digit;

/// The set of templates the recognizer matches against: one row of features per template, so
/// matching a grid's glyphs against all of them is one matrix product.
pub struct Templates {
    /// Template features, one row each: the bundled ones borrowed from the binary, owned
    /// when a folder of the user's templates adds rows. The first `handwritten` rows are
    /// handwriting, matched for entries only.
    pub(super) matrix: CowArray<'static, f32, Ix2>,
    /// How many of the first rows are handwritten.
    pub(super) handwritten: usize,
    /// Each row's digit.
    pub(super) digits: Vec<Digit>,
    /// Per level of [`frame::BLUR_LEVELS`], each template's length when blurred that much
    /// (see [`frame::blurred_norm`]).
    pub(super) blur_norms: Array2<f32>,
}

/// The bundled templates (`templates/<font>/<digit>.png`) as features, made by the build
/// script: `DIGITS[i]` is template i's digit, `FEATURES` its feature (`FRAME_LEN` f32 values,
/// in the target's byte order) at offset `i * FRAME_LEN * 4`, aligned for f32, so the matrix
/// of templates is the binary's own bytes: nothing is copied or converted at start.
mod bundled {
    /// Bytes aligned as f32s are.
    #[repr(C, align(4))]
    pub struct Aligned<B: ?Sized>(pub B);

    include!(concat!(env!("OUT_DIR"), "/templates.rs"));
}

/// One template: a font's rendering of a digit.
pub(super) struct Template {
    digit: Digit,
    pub(super) feature: Feature,
}

/// One template of `digit` read from a PNG's bytes; `path` names it in errors.
pub(super) fn template_from_png(
    bytes: &[u8],
    digit: u8,
    path: &Path,
) -> Result<Template, TemplateError> {
    let path = || path.to_path_buf();
    let digit = Digit::new(digit).ok_or_else(|| TemplateError::NotADigit { path: path() })?;
    let mut gray = image::load_from_memory(bytes)
        .map_err(|source| TemplateError::Image {
            path: path(),
            source,
        })?
        .into_luma8();
    // Templates are dark on light; features use ink as brightness.
    image::imageops::invert(&mut gray);
    let (ink, w, h) = frame::trim(gray.as_raw(), gray.width(), gray.height());
    Ok(Template {
        digit,
        feature: Feature(frame::fit(&ink, w, h)),
    })
}

/// The folder of handwritten sets, under `templates/` and a folder of the user's.
const HANDWRITTEN: &str = "handwritten";

/// Templates from `DIR/<set>/<digit>.png` and `DIR/<set>/<digit>-<name>.png` (none from
/// `DIR/handwritten`).
fn load_dir(dir: &Path) -> Result<Vec<Template>, TemplateError> {
    let io = |source, path: &Path| TemplateError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut sets: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| io(e, dir))?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir() && !p.ends_with(HANDWRITTEN))
        .collect();
    sets.sort();
    let mut out = Vec::new();
    for set in sets {
        for (path, digit) in template_files::in_set(&set).map_err(|e| io(e, &set))? {
            let bytes = std::fs::read(&path).map_err(|e| io(e, &path))?;
            out.push(template_from_png(&bytes, digit, &path)?);
        }
    }
    Ok(out)
}

/// The user's templates in `dir`: its handwritten sets and its print sets; an error when it
/// holds neither.
fn load_user(dir: &Path) -> Result<(Vec<Template>, Vec<Template>), TemplateError> {
    let hand_dir = dir.join(HANDWRITTEN);
    let hand = if hand_dir.is_dir() {
        load_dir(&hand_dir)?
    } else {
        Vec::new()
    };
    let print = load_dir(dir)?;
    if hand.is_empty() && print.is_empty() {
        return Err(TemplateError::Empty {
            path: dir.to_path_buf(),
        });
    }
    Ok((hand, print))
}
impl Templates {
    /// The bundled templates, plus those under `extra` (`DIR/<name>/<digit>.png`) when given.
    pub fn load(extra: Option<&Path>) -> Result<Templates, TemplateError> {
        // The bundled templates' features were computed by the build script (the same
        // `frame` code): nothing is decoded at start.
        let bundled_features: &'static [f32] = bytemuck::try_cast_slice(&bundled::FEATURES.0)
            .expect("the build script writes aligned f32s");
        let mut digits: Vec<Digit> = (bundled::DIGITS.iter())
            .map(|&d| Digit::new(d).expect("the build script writes digits 1-9"))
            .collect();
        let bundled_matrix = ArrayView2::from_shape((digits.len(), FRAME_LEN), bundled_features)
            .expect("every feature has the frame's length");
        let mut norms: Vec<[f32; BLUR_COUNT]> = bundled::BLUR_NORMS.to_vec();
        let mut handwritten = bundled::HANDWRITTEN;
        let matrix = match extra {
            None => CowArray::from(bundled_matrix),
            Some(dir) => {
                let (hand, print) = load_user(dir)?;
                handwritten += hand.len();
                // The user's handwriting before the bundled rows, whose handwriting comes
                // first: every handwritten row leads the matrix.
                let rows = (hand.iter())
                    .map(|t| (t.digit, t.feature.0.as_slice()))
                    .chain(
                        digits.iter().copied().zip(
                            bundled_matrix
                                .rows()
                                .into_iter()
                                .map(|r| r.to_slice().expect("rows are contiguous")),
                        ),
                    )
                    .chain(print.iter().map(|t| (t.digit, t.feature.0.as_slice())));
                let mut matrix = Array2::zeros((0, FRAME_LEN));
                let (mut all_digits, mut all_norms) = (Vec::new(), Vec::new());
                for (i, (digit, feature)) in rows.enumerate() {
                    all_digits.push(digit);
                    let bundled_row = i.checked_sub(hand.len()).filter(|&k| k < norms.len());
                    all_norms.push(match bundled_row {
                        Some(k) => norms[k],
                        None => frame::BLUR_LEVELS.map(|sigma| frame::blurred_norm(feature, sigma)),
                    });
                    matrix
                        .push_row(ArrayView1::from(feature))
                        .expect("every feature has the frame's length");
                }
                (digits, norms) = (all_digits, all_norms);
                CowArray::from(matrix)
            }
        };
        let blur_norms = Array2::from_shape_fn((BLUR_COUNT, norms.len()), |(l, t)| norms[t][l]);
        Ok(Templates {
            matrix,
            handwritten,
            digits,
            blur_norms,
        })
    }

    /// How many templates are loaded.
    pub fn len(&self) -> usize {
        self.digits.len()
    }

    /// Whether no template is loaded.
    pub fn is_empty(&self) -> bool {
        self.digits.is_empty()
    }
}
