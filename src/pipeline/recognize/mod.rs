//! Recognize: isolated glyphs -> digits with a confidence, by template matching.
//!
//! Templates are glyphs rendered from open fonts (`templates/`, embedded at build time) plus
//! any the user adds. Glyph and template are both fitted into the same small frame WITHOUT
//! changing their aspect ratio (a thin `1` stays thin and cannot turn into a `7`), centred,
//! and compared by normalised cross-correlation. A digit's score is its best template's; the
//! confidence is the margin to the best other digit.

use image::GrayImage;

use bars::Bar;
use sides::Part;

/// How much (frame pixels) glyphs are blurred before two groups of them are judged clearly
/// different shapes (see [`calibrate::refine_with`]): the templates' first blur level.
/// Unblurred, a hairline face's `1`s on plain and on highlighted cells came apart (tune: 3
/// grids fewer exact); at 1.2, a handwriting face's crossed `7`s came too near its plain `1`s
/// (handwriting with its templates held out: 337 of 341 exact, against 339).
const UNLIKE_BLUR: f32 = frame::BLUR_LEVELS[0];

use rayon::prelude::*;

use crate::budget::Budget;
use crate::pipeline::cells::frame;
use crate::pipeline::tuning;
use crate::puzzle::board::{Digit, Pos};

mod assign;
mod likeness;
mod scores;
mod template_files;
mod templates;

use scores::{best_digit, digit_at, index_of};
pub use scores::{GlyphFeatures, Matched};

pub use templates::Templates;
pub mod bars;
pub mod calibrate;
mod orient;
pub mod sides;
pub mod topology;

/// Another reading of the givens the picture supports, whole shape groups taking other
/// digits: the cells it changes, the digit it puts there, and the template score it loses per
/// glyph changed. Within `tuning::NEAR` it is a rival, nearly as good as the reading
/// chosen; further off, a correction to try when the reading has no unique solution.
#[derive(Clone, Debug, PartialEq)]
pub struct Rival {
    /// The cells and the digit this reading puts there.
    pub changes: Vec<(Pos, Digit)>,
    /// Template score lost per glyph changed, or per shape group for the calibration's
    /// reassignments (0 = as good as the reading chosen).
    pub loss: f32,
    /// Whether the grid's own glyphs back it: the glyphs it changes look more like those read
    /// as the digit it gives them than like any other glyph read as their own digit (see
    /// `likeness::looks_more_like`). Such a reading is a rival further from the templates'
    /// choice, but never a correction.
    pub backed: bool,
}

impl Rival {
    /// Whether the picture supports this reading nearly as well as the one chosen.
    pub fn is_close(&self) -> bool {
        self.loss <= tuning::NEAR || (self.backed && self.loss <= tuning::FAR)
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
    /// Whether it may be handwriting, so is matched against the handwritten templates too:
    /// an entry, unless drawn in a colour apart from the other entries (an app's marked
    /// mistake, in the app's own font).
    pub may_be_hand: bool,
}

/// A recognized digit with the evidence for it.
#[derive(Clone, Debug, PartialEq)]
pub struct Recognized {
    /// Every digit with its best score, best first.
    pub ranked: Vec<(Digit, f32)>,
    /// Digits the picture itself rules out for this glyph, whatever the templates say: it is
    /// clearly unlike the several glyphs of the grid read surely as that digit (see
    /// `likeness::unlike_sure_readings`), or much less like that digit's glyphs than like
    /// its nearest look-alike read as its own (see `likeness::nearer_own_digit`).
    pub unlike: Vec<Digit>,
    /// Whether another given read as the same digit looks just like this glyph: then a
    /// misreading of it would be a misreading of both, and no correction of this cell alone
    /// may change it.
    pub has_twin: bool,
    /// Each digit's score by the templates alone (index 0 is digit 1), before the grid's
    /// calibration moved it: what a doubt about the calibration itself must be judged by.
    pub template: [f32; 9],
    /// The glyph is not shaped like the grid's digits (much taller: joined to other ink), so
    /// its scores prove little and every other digit is a rival reading.
    pub misshapen: bool,
    /// How much the blur the picture's glyphs were matched at (see `frame::BLUR_LEVELS`)
    /// raised this glyph's best template score: blurred templates fit any soft shape better,
    /// so a score judged against a fixed bar (see [`Recognized::fit`]) leaves it out.
    pub blur_gain: f32,
    /// The glyph's closed loops (see `topology::holes`); `None` when not counted.
    pub holes: Option<topology::Loops>,
    /// The glyph closes a loop and no given shaped like it closes none: the loop is part of
    /// its shape, not a speck or a blur on one glyph, and rules out the digits that never
    /// close one (see `topology::loop_rules_out`) however the templates rank them (a
    /// handwriting face's narrow `8`s passed for `1`s). Only for givens.
    pub loop_certain: bool,
    /// How far the glyph's parts open to the left rather than the right (see
    /// `sides::opening`), in the order of `Part::ALL`; `None` when not measured.
    pub openings: [Option<f32>; 2],
    /// The glyph's width in pixels as cropped; `None` when not measured.
    pub width: Option<u32>,
    /// How many strokes long the longest run of ink across the glyph's top and middle rows
    /// is (see `bars::bars`), in the order of `bars::Bar::ALL`: a `4`'s crossbar against a
    /// `1`'s stem; `None` when not measured.
    pub bars: [Option<f32>; 2],
    /// For a player's entry: the digits whose givens it is shaped like rather than like the
    /// givens of the digit read, where the two differ (see
    /// `likeness::shaped_like_givens_of`). Evidence that a reading the solution
    /// contradicts is the templates' mistake, not the player's.
    pub shaped_like: Vec<Digit>,
}

impl Recognized {
    /// How far the glyph's `part` opens to the left rather than the right (see
    /// `sides::opening`); `None` when not measured.
    pub fn opening(&self, part: Part) -> Option<f32> {
        self.openings[part.index()]
    }

    /// How many strokes long the longest run of ink across the glyph's `bar` band is (see
    /// `bars::bars`); `None` when not measured.
    pub fn bar(&self, bar: Bar) -> Option<f32> {
        self.bars[bar.index()]
    }

    /// The best digit.
    pub fn digit(&self) -> Digit {
        self.ranked[0].0
    }

    /// The score of `digit`; `None` only for a ranking that leaves it out.
    pub fn score(&self, digit: Digit) -> Option<f32> {
        self.ranked.iter().find(|r| r.0 == digit).map(|r| r.1)
    }

    /// How far the score of `digit` leads that of `other` (negative when it trails); `None`
    /// for a ranking that leaves either out.
    pub fn lead(&self, digit: Digit, other: Digit) -> Option<f32> {
        Some(self.score(digit)? - self.score(other)?)
    }

    /// The score the templates alone give `digit`.
    pub fn template_score(&self, digit: Digit) -> f32 {
        self.template[index_of(digit)]
    }

    /// How well the glyph fits its best digit, as matched unblurred: the best score less the
    /// blur's gain.
    pub fn fit(&self) -> f32 {
        self.ranked[0].1 - self.blur_gain
    }

    /// The margin between the best digit's score and the runner-up's (0-2).
    pub fn confidence(&self) -> f32 {
        self.ranked[0].1 - self.ranked.get(1).map_or(-1.0, |r| r.1)
    }
}

impl Templates {
    /// Ranks the digits for each glyph of one grid (`ink`: 255 = ink, cropped), first by the
    /// templates, then refined by `calibrate`: the givens (`given` true) share a font, so
    /// their look-alikes vote together and the rules keep their digits apart. `matched` is
    /// [`Templates::match_glyphs`] of the same glyphs, in the same order, when already made.
    /// The calibration's searches spend `budget`; once it says the reading must stop, what
    /// comes back is cut short and must not be used.
    pub fn recognize_grid(
        &self,
        glyphs: &[GridGlyph<'_>],
        matched: Option<Matched>,
        budget: &Budget,
    ) -> (Vec<Recognized>, Vec<Rival>) {
        let Matched { features, scores } =
            matched.unwrap_or_else(|| self.match_glyphs(&inks_of(glyphs)));
        debug_assert_eq!(features.len(), glyphs.len(), "matched the glyphs given");
        self.calibrated(glyphs, &features, (scores, None), budget)
    }

    /// [`Templates::recognize_grid`] with the templates blurred as much as the glyphs are
    /// (see `Templates::digit_scores_at_own_blur`); `None` when no blur fits them better
    /// than none. The unblurred scores are then the templates' own opinion
    /// ([`Recognized::template`]) and a second reading: where it reads the givens otherwise,
    /// that is a rival.
    pub fn recognize_grid_blurred(
        &self,
        glyphs: &[GridGlyph<'_>],
        budget: &Budget,
    ) -> Option<(Vec<Recognized>, Vec<Rival>)> {
        let features = GlyphFeatures::of(&inks_of(glyphs));
        let (blurred, sharp) = self.digit_scores_at_own_blur(&features)?;
        Some(self.calibrated(glyphs, &features, (blurred, Some(sharp)), budget))
    }

    /// The glyphs' `scores` (index 0 is digit 1) refined by [`calibrate`]; `sharp` holds the
    /// scores unblurred when `scores` were matched blurred.
    fn calibrated(
        &self,
        glyphs: &[GridGlyph<'_>],
        features: &GlyphFeatures,
        (mut scores, sharp): (Vec<[f32; 9]>, Option<Vec<[f32; 9]>>),
        budget: &Budget,
    ) -> (Vec<Recognized>, Vec<Rival>) {
        let inks = inks_of(glyphs);
        self.add_handwritten_scores(glyphs, features, &mut scores);
        let template = scores.clone();
        let blur_gains = blur_gains(&template, sharp.as_deref());
        let holes: Vec<topology::Loops> = inks.par_iter().map(|ink| topology::holes(ink)).collect();
        let givens: Vec<usize> = (0..glyphs.len()).filter(|&i| glyphs[i].given).collect();
        let cells: Vec<Pos> = givens.iter().map(|&i| glyphs[i].cell).collect();
        // The likeness of every pair of glyphs; the givens' own block is what calibrates.
        let all_likeness = (givens.len() > 1).then(|| features.likeness());
        let likeness = all_likeness.as_ref().map(|all| {
            all.select(ndarray::Axis(0), &givens)
                .select(ndarray::Axis(1), &givens)
        });
        let mut rivals = Vec::new();
        if let (Some(all_likeness), Some(likeness)) = (&all_likeness, &likeness) {
            let own: Vec<[f32; 9]> = givens.iter().map(|&i| scores[i]).collect();
            let own_holes: Vec<topology::Loops> = givens.iter().map(|&i| holes[i]).collect();
            let blurred = features.likeness_blurred(&givens, UNLIKE_BLUR);
            let refined =
                calibrate::refine_with(&own, likeness, Some(&blurred), &cells, &own_holes, budget);
            for (&i, r) in givens.iter().zip(refined.scores) {
                scores[i] = r;
            }
            let entries: Vec<usize> = (0..glyphs.len()).filter(|&i| !glyphs[i].given).collect();
            likeness::read_entries_like_givens(&mut scores, all_likeness, &givens, &entries);
            rivals = rivals_at(refined.alternatives, &cells).collect();
            if let Some(sharp) = &sharp {
                // The templates unblurred are a second opinion: where they read the givens
                // otherwise, the picture supports both readings.
                let own: Vec<[f32; 9]> = givens.iter().map(|&i| sharp[i]).collect();
                let unblurred = calibrate::refine(&own, likeness, &cells, &own_holes, budget);
                rivals.extend(unblurred_rivals(unblurred, &givens, &cells, &scores));
            }
        }
        rule_out_by_own_loops(&mut scores, &holes);
        // The templates' own opinion is the one unblurred: the blur is the grid's calibration.
        let template = sharp.unwrap_or(template);
        let mut recognized = records(scores, template, &holes, blur_gains, &inks);
        if let Some(likeness) = &likeness {
            mark_entries_shaped_like(&mut recognized, glyphs, features, &givens);
            likeness::rule_out_unlike(&mut recognized, &givens, likeness);
            let own: Vec<&Recognized> = givens.iter().map(|&i| &recognized[i]).collect();
            rivals.extend(likeness::backed_rivals(&own, &cells, likeness));
        }
        (recognized, rivals)
    }
}

impl Templates {
    /// Raises each entry's `scores` to its handwritten templates' where those fit better: a
    /// player's digits are handwriting at least as often as a font.
    fn add_handwritten_scores(
        &self,
        glyphs: &[GridGlyph<'_>],
        features: &GlyphFeatures,
        scores: &mut [[f32; 9]],
    ) {
        let entries: Vec<usize> = (0..glyphs.len())
            .filter(|&i| glyphs[i].may_be_hand)
            .collect();
        if entries.is_empty() || self.handwritten == 0 {
            return;
        }
        let hand = self.handwritten_scores(&features.rows(&entries));
        for (&i, hand) in entries.iter().zip(hand) {
            for (s, h) in scores[i].iter_mut().zip(hand) {
                *s = s.max(h);
            }
        }
    }
}

/// How much the blur raised each glyph's best score: its best blurred score (`template`) less
/// its best unblurred one (`sharp`); 0 when the glyphs were matched unblurred.
fn blur_gains(template: &[[f32; 9]], sharp: Option<&[[f32; 9]]>) -> Vec<f32> {
    match sharp {
        Some(sharp) => (template.iter().zip(sharp))
            .map(|(t, s)| t[best_digit(t)] - s[best_digit(s)])
            .collect(),
        None => vec![0.0; template.len()],
    }
}

/// The calibration's alternatives (glyphs numbered as the givens at `cells`) as rivals.
fn rivals_at<'a>(
    alternatives: Vec<assign::Alternative>,
    cells: &'a [Pos],
) -> impl Iterator<Item = Rival> + 'a {
    alternatives.into_iter().map(|(changes, loss)| Rival {
        changes: (changes.iter())
            .map(|&(k, d)| (cells[k], digit_at(d)))
            .collect(),
        loss,
        backed: false,
    })
}

/// The rivals of the givens' second opinion, `unblurred` (their calibration on the scores
/// unblurred): its reading, where it differs from `scores` (the reading chosen), at no loss,
/// then its alternatives within `tuning::NEAR`.
fn unblurred_rivals(
    unblurred: calibrate::Refined,
    givens: &[usize],
    cells: &[Pos],
    scores: &[[f32; 9]],
) -> Vec<Rival> {
    let changes: Vec<(Pos, Digit)> = (givens.iter().zip(&unblurred.scores))
        .zip(cells)
        .filter_map(|((&i, s), &cell)| {
            let read = best_digit(s);
            (read != best_digit(&scores[i])).then(|| (cell, digit_at(read)))
        })
        .collect();
    let mut rivals = Vec::new();
    if !changes.is_empty() {
        rivals.push(Rival {
            changes,
            loss: 0.0,
            backed: false,
        });
    }
    let near = (unblurred.alternatives.into_iter()).filter(|(_, loss)| *loss <= tuning::NEAR);
    rivals.extend(rivals_at(near.collect(), cells));
    rivals
}

/// Each glyph's own loops rule out the runner-ups they contradict (the givens' groups were
/// weighed by their majority already).
fn rule_out_by_own_loops(scores: &mut [[f32; 9]], holes: &[topology::Loops]) {
    for (s, &h) in scores.iter_mut().zip(holes) {
        topology::demote_loopless_best(s, h, calibrate::HOLE_MARGIN, tuning::CLEAR);
        topology::rule_out_contradicted(s, h, calibrate::HOLE_MARGIN);
    }
}

/// Each glyph's record: its calibrated `scores`, the templates' own, and what the cues
/// measure on its ink.
fn records(
    scores: Vec<[f32; 9]>,
    template: Vec<[f32; 9]>,
    holes: &[topology::Loops],
    blur_gains: Vec<f32>,
    inks: &[&GrayImage],
) -> Vec<Recognized> {
    (scores.into_iter().zip(template))
        .zip(holes.iter().zip(blur_gains))
        .zip(inks)
        .map(
            |(((refined, template), (&holes, blur_gain)), ink)| Recognized {
                template,
                holes: Some(holes),
                openings: Part::ALL.map(|part| sides::opening(ink, part)),
                width: Some(ink.width()),
                bars: bars::bars(ink),
                blur_gain,
                ..Recognized::from_scores(refined)
            },
        )
        .collect()
}

/// Sets each entry's [`Recognized::shaped_like`]: the digits whose givens (rows `givens` of
/// `features`) it is shaped like rather than like those of the digit it is read as.
fn mark_entries_shaped_like(
    recognized: &mut [Recognized],
    glyphs: &[GridGlyph<'_>],
    features: &GlyphFeatures,
    givens: &[usize],
) {
    let digits: Vec<usize> = givens
        .iter()
        .map(|&g| index_of(recognized[g].digit()))
        .collect();
    let centres = likeness::digit_centres(features.0.view(), givens, &digits);
    for e in (0..glyphs.len()).filter(|&i| !glyphs[i].given) {
        let read = index_of(recognized[e].digit());
        let glyph = features.0.row(e);
        recognized[e].shaped_like = (likeness::shaped_like_givens_of(glyph, read, &centres))
            .into_iter()
            .map(digit_at)
            .collect();
    }
}

/// The glyphs' inks.
fn inks_of<'a>(glyphs: &[GridGlyph<'a>]) -> Vec<&'a GrayImage> {
    glyphs.iter().map(|g| g.ink).collect()
}

impl Recognized {
    /// Ranks the digits by their scores (index 0 is digit 1), best first.
    pub fn from_scores(scores: [f32; 9]) -> Recognized {
        let mut ranked: Vec<(Digit, f32)> = Digit::all().zip(scores).collect();
        ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
        Recognized {
            ranked,
            unlike: Vec::new(),
            has_twin: false,
            template: scores,
            misshapen: false,
            loop_certain: false,
            holes: None,
            openings: [None; 2],
            width: None,
            bars: [None; 2],
            blur_gain: 0.0,
            shaped_like: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use super::templates::template_from_png;
    use super::*;

    #[test]
    fn bundled_templates_recognize_themselves() {
        let templates = Templates::load(None).unwrap();
        assert!(templates.len() >= 9 * 14);
        for (font, digit, png) in template_files() {
            let mut gray = image::open(&png).unwrap().into_luma8();
            image::imageops::invert(&mut gray);
            let r = templates.recognize(&gray);
            assert_eq!(r.digit().get(), digit, "{font} {digit}");
        }
    }

    /// `templates/<font>/<digit>.png`, sorted by font then digit (the build script's order).
    fn template_files() -> Vec<(String, u8, PathBuf)> {
        set_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("templates"))
    }

    /// `templates/handwritten/<set>/<digit>-<n>.png`, in the build script's order.
    fn handwritten_files() -> Vec<(String, u8, PathBuf)> {
        set_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("templates/handwritten"))
    }

    /// `root/<set>/<digit>.png` and `<digit>-<name>.png`, sorted by set then file name, the
    /// handwritten sets left out.
    fn set_files(root: &Path) -> Vec<(String, u8, PathBuf)> {
        let mut fonts: Vec<PathBuf> = std::fs::read_dir(root)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.is_dir() && !p.ends_with("handwritten"))
            .collect();
        fonts.sort();
        fonts
            .iter()
            .flat_map(|font| {
                let name = font.file_name().unwrap().to_string_lossy().into_owned();
                (template_files::in_set(font).unwrap().into_iter())
                    .map(move |(p, d)| (name.clone(), d, p))
            })
            .collect()
    }

    #[test]
    fn build_time_features_equal_those_made_at_run_time() {
        // The build script and the run-time loader share `frame`; loading the same PNGs as
        // user templates must give the very same matrix rows.
        let bundled = Templates::load(None).unwrap();
        let hand = handwritten_files();
        assert_eq!(bundled.handwritten, hand.len());
        let files = [hand, template_files()].concat();
        assert_eq!(bundled.len(), files.len());
        for (row, (font, digit, png)) in files.iter().enumerate() {
            let bytes = std::fs::read(png).unwrap();
            let t = template_from_png(&bytes, *digit, png).unwrap();
            assert_eq!(bundled.digits[row].get(), *digit, "{font}");
            assert_eq!(
                bundled.matrix.row(row).to_vec(),
                t.feature.0,
                "{font} {digit}"
            );
        }
    }

    #[test]
    fn handwritten_templates_score_entries_only() {
        // A set of a writer's two 4s, alike, shaped like no printed digit: a hooked bar (two,
        // since a hand's digit scores the mean of its nearest templates).
        let dir = std::env::temp_dir().join(format!("sudoku-snap-hand-{}", std::process::id()));
        let set = dir.join("handwritten/writer");
        std::fs::create_dir_all(&set).unwrap();
        let hook = GrayImage::from_fn(30, 40, |x, y| {
            let ink = y < 6 || (x < 6 && y < 24) || (x > 22 && y > 16);
            image::Luma([if ink { 0 } else { 255 }])
        });
        hook.save(set.join("4-a.png")).unwrap();
        hook.save(set.join("4-b.png")).unwrap();
        let templates = Templates::load(Some(&dir)).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        let mut ink = hook.clone();
        image::imageops::invert(&mut ink);
        let glyph = |given: bool| GridGlyph {
            ink: &ink,
            cell: Pos::new(0, 0).unwrap(),
            given,
            may_be_hand: !given,
        };
        let four = Digit::new(4).unwrap();
        let (as_entry, _) = templates.recognize_grid(&[glyph(false)], None, &Budget::unlimited());
        let (as_given, _) = templates.recognize_grid(&[glyph(true)], None, &Budget::unlimited());
        assert!(
            as_entry[0].score(four).unwrap() > 0.99,
            "the entry matches its writer's 4"
        );
        assert!(
            as_given[0].score(four).unwrap() < 0.9,
            "a given is matched against print only"
        );
    }

    #[test]
    fn a_stretched_one_is_not_a_seven() {
        // A plain vertical bar, as a thin sans-serif `1` looks.
        let bar = GrayImage::from_fn(5, 40, |_, _| image::Luma([255]));
        let templates = Templates::load(None).unwrap();
        assert_eq!(templates.recognize(&bar).digit().get(), 1);
    }
}
