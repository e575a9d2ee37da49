//! The shape cues beside the loops: which side a glyph's upper and lower parts open to, the bars
//! crossing its rows, and the widths of the glyphs read as `1`, each measured over the givens read
//! as one digit and compared between the digits an exchange would swap.

use crate::pipeline::recognize::bars;
use crate::pipeline::recognize::sides::{self, Part, Sides};
use crate::pipeline::recognize::Recognized;
use crate::puzzle::board::{Board, Digit, Pos};

/// How many times as wide as another digit's glyphs the glyphs read as `1` may be before the
/// widths speak against the reading (see [`ones_wider`]): beyond the widest `1` measured for
/// `NARROW_ONE` (a monospaced face's, with its foot, 1.4 times its 8).
const WIDE_ONE: f32 = 1.5;

/// How much further, on average, the glyphs read as a digit whose upper part opens to the left
/// (`2`, `3`) must open that way than those read as one opening to the right (`5`, `6`) for
/// the sides to tell the two apart (see [`sides::opening`]). Measured on the tune
/// families' `2`, `3`, `5` and `6` rendered at 14, 20 and 48 px at three weights each: the
/// median difference is about 1; where the sides come out reversed, by at most 0.2 (a black
/// didone's hairline `5` stem lost at 48 px; tiny black faces filling their openings), and
/// once by 0.67 (a hairline face at 14 px, its `2` reduced to a corner). The same margin
/// between a part open to one side and a closed one (a `6`'s upper part and an `8`'s, a `9`'s
/// lower part and an `8`'s): on the first tune rendering (825 pictures, each digit's glyphs
/// averaged per picture) such pairs stand at least 0.4 apart in 72-99 % of the pictures, and
/// come out reversed by at most 0.22, but for that `2`.
pub(super) const SIDE_MARGIN: f32 = 0.4;

/// How many strokes longer, on average, the glyphs read as `4` must cross their middle rows
/// than those read as `1`, or those read as `7` their top rows than those read as `4`, for the
/// bars to tell the two apart (see [`bars::bars`]).
/// Measured per picture, the `4`s' mean less the `1`s': on the first tune rendering (819
/// pictures giving both, every kind of face) median 3.9, 2nd percentile 0.74, least -0.19
/// (Syne, whose `1` has a long flag); on a round-4 tune rendering (300, mostly hands) median
/// 3.7, 2nd percentile 0.35, and the six pictures below 0 all misread other digits too. The
/// `7`s' top bars less the `4`s': on the first, median 3.2, 2nd percentile 0.76, least 0.33;
/// on the second, median 2.9, and every picture below 0.5 misread other digits too.
pub(super) const BAR_MARGIN: f32 = 1.0;

/// The glyphs read as `1` are confirmed as `1`s beside another digit's when at most this
/// share of that digit's width, on average. Measured on the tune families' digits at three
/// sizes and weights: a `1` is at most half as wide as a `2` in 17 % of them (a plain stroke,
/// no foot), and no digit is ever at most half as wide as a `1` (the widest `1`, a
/// monospaced face's with its foot, is 1.4 times its `8`).
const NARROW_ONE: f32 = 0.5;

/// How far the upper and the lower parts of the givens read as each digit open to the left,
/// summed, and how many were measured (see [`sides::opening`]).
pub(super) struct Openings {
    pub(super) sums: [[f32; 9]; 2],
    pub(super) counts: [[usize; 9]; 2],
}

impl Openings {
    pub(super) fn of(givens: &Board, evidence: &[Option<Recognized>]) -> Openings {
        let mut out = Openings {
            sums: [[0.0; 9]; 2],
            counts: [[0; 9]; 2],
        };
        for pos in Pos::all() {
            let (Some(read), Some(Some(r))) = (givens.get(pos), evidence.get(pos.index())) else {
                continue;
            };
            let k = usize::from(read.get() - 1);
            for part in Part::ALL {
                if let Some(opening) = r.opening(part) {
                    out.sums[part.index()][k] += opening;
                    out.counts[part.index()][k] += 1;
                }
            }
        }
        out
    }

    /// The mean opening of `part` of the givens read as `digit`, leaving out one glyph's
    /// `own` when it is one of them; `None` when no other was measured.
    pub(super) fn mean(&self, part: Part, digit: Digit, own: Option<f32>) -> Option<f32> {
        let p = part.index();
        let k = usize::from(digit.get() - 1);
        let (sum, count) = match own {
            Some(o) => (self.sums[p][k] - o, self.counts[p][k].checked_sub(1)?),
            None => (self.sums[p][k], self.counts[p][k]),
        };
        (count > 0).then(|| sum / count as f32)
    }

    /// Whether a glyph `r` read as `read` is no `other`: a part of the two digits meets the
    /// sides differently (see [`telling_parts`]: a `3`'s upper part opens to the left and a
    /// `5`'s to the right), the picture's other givens read as each open apart as those
    /// digits do by at least `SIDE_MARGIN`, and this glyph opens nearer those read as
    /// `read`; with no other given read as `read`, the glyph itself stands that far apart
    /// from those read as `other`. The templates' runner-up is then their confusion, not the
    /// glyph's shape (Marcellus: its `3`s open to the left by 0.30 on average and its `5`s to
    /// the right by 0.31, while the calibration offered a reading exchanging some of them,
    /// nearly as good to the templates).
    pub(super) fn rule_out(&self, r: &Recognized, read: Digit, other: Digit) -> bool {
        telling_parts(read, other, true).any(|(part, leftward)| {
            let Some(opening) = r.opening(part) else {
                return false;
            };
            let own = self.mean(part, read, Some(opening)).unwrap_or(opening);
            let Some(theirs) = self.mean(part, other, None) else {
                return false;
            };
            let apart = (own - theirs) * leftward;
            apart >= SIDE_MARGIN && (opening - own).abs() < (opening - theirs).abs()
        })
    }
}

/// Whether the glyphs' shapes confirm an exchange's two digits as read, comparing the two
/// groups of glyphs with each other, so the picture's own font, size and blur set the scale:
/// - the sides their upper parts open to, where one digit opens to the left and the other to
///   the right (see [`sides_apart`]): the glyphs read as the left-opening one open further
///   left, on average, by `SIDE_MARGIN`;
/// - their widths, where one digit is `1`: the glyphs read as `1` are at most `NARROW_ONE` as
///   wide as the others, on average.
pub(super) fn shapes_tell_apart(renamed: &[Renamed], evidence: &[Option<Recognized>]) -> bool {
    if let Some(apart) = sides_apart(renamed, evidence, true) {
        return apart >= SIDE_MARGIN;
    }
    bars_apart(renamed, evidence).is_some_and(|apart| apart >= BAR_MARGIN)
        || widths_of_ones(renamed, evidence)
            .is_some_and(|(ones, others)| ones <= NARROW_ONE * others)
}

/// For an exchange of two digits one of which every face draws with the longer bar (see
/// [`topology::longer_bar`]: a `4` against a `1` across its middle, a `7` against a `4` across
/// its top), how many strokes longer the glyphs read as that digit cross the band than those
/// read as the other, on average: positive when the shapes agree with the reading, negative
/// when with the exchange. `None` for other pairs, or when a glyph was not measured.
pub(super) fn bars_apart(renamed: &[Renamed], evidence: &[Option<Recognized>]) -> Option<f32> {
    let first = renamed.first()?;
    let (bar, toward_read) = bars::longer_bar(first.read, first.other)?;
    let length = |r: &Recognized| r.bar(bar);
    let read = mean_of(renamed, evidence, first.read, &length)?;
    let other = mean_of(renamed, evidence, first.other, &length)?;
    Some((read - other) * toward_read)
}

/// Whether, in an exchange of `1` with another digit, the glyphs read as `1` are more than
/// `WIDE_ONE` times as wide as those read as the other digit, on average: the widths speak for
/// the exchange (a cursive face's barred 7s and open 4s read as 1, its slanted 1s as 7).
pub(super) fn ones_wider(renamed: &[Renamed], evidence: &[Option<Recognized>]) -> bool {
    widths_of_ones(renamed, evidence).is_some_and(|(ones, others)| ones > WIDE_ONE * others)
}

/// For an exchange of `1` with another digit, the mean width of the glyphs read as `1` and of
/// those read as the other digit; `None` for other relabellings, or when a glyph was not
/// measured.
fn widths_of_ones(renamed: &[Renamed], evidence: &[Option<Recognized>]) -> Option<(f32, f32)> {
    let first = renamed.first()?;
    let one = Digit::new(1).expect("1 is a digit");
    let other = match (first.read == one, first.other == one) {
        (true, false) => first.other,
        (false, true) => first.read,
        _ => return None,
    };
    if renamed.iter().any(|r| ![one, other].contains(&r.read)) {
        return None;
    }
    let width = |r: &Recognized| r.width.map(|w| w as f32);
    Some((
        mean_of(renamed, evidence, one, &width)?,
        mean_of(renamed, evidence, other, &width)?,
    ))
}

/// For an exchange of two digits a part of which meets the sides differently (see
/// [`telling_parts`]: a `3` and a `5`, or a `6` and an `8`), how much further the glyphs read
/// as one open the way that digit does than those read as the other, on average (see
/// [`sides::opening`]), in the part that agrees best with the reading: positive when the
/// shapes agree with the reading, negative when every such part agrees with the exchange.
/// `None` for other pairs, or when a glyph was not measured. A `3` and an `8` differ in both
/// parts, and a bold `3`'s narrow upper bowl leaves the upper part a poorer witness than the
/// lower (at least 0.4 apart in 79 % of the first tune rendering's pictures above, 95 %
/// below).
pub(super) fn sides_apart(
    renamed: &[Renamed],
    evidence: &[Option<Recognized>],
    closed_too: bool,
) -> Option<f32> {
    let first = renamed.first()?;
    let apart = |(part, leftward): (Part, f32)| {
        let opening = |r: &Recognized| r.opening(part);
        let read = mean_of(renamed, evidence, first.read, &opening)?;
        let other = mean_of(renamed, evidence, first.other, &opening)?;
        Some((read - other) * leftward)
    };
    telling_parts(first.read, first.other, closed_too)
        .filter_map(apart)
        .max_by(f32::total_cmp)
}

/// The parts (see [`Part`]) that `a` and `b` meet the sides with differently (see
/// [`topology::sides`]), each with 1 when `a`'s opens further to the left there, -1 when
/// further to the right. Without `closed_too`, only parts open to opposite sides count: a
/// handwriting face's `8` may leave its loop open.
fn telling_parts(a: Digit, b: Digit, closed_too: bool) -> impl Iterator<Item = (Part, f32)> {
    Part::ALL.into_iter().filter_map(move |part| {
        let (a, b) = (sides::sides(a, part)?, sides::sides(b, part)?);
        let closed = [a, b].contains(&Sides::Closed);
        let (a, b) = (a.ideal_opening(), b.ideal_opening());
        (a != b && (closed_too || !closed)).then(|| (part, (a - b).signum()))
    })
}

/// The mean of `measure` over the glyphs of `renamed` read as `digit`, when every one has it.
fn mean_of(
    renamed: &[Renamed],
    evidence: &[Option<Recognized>],
    digit: Digit,
    measure: &dyn Fn(&Recognized) -> Option<f32>,
) -> Option<f32> {
    let values: Option<Vec<f32>> = (renamed.iter())
        .filter(|r| r.read == digit)
        .map(|r| measure(evidence.get(r.cell.index())?.as_ref()?))
        .collect();
    let values = values.filter(|v| !v.is_empty())?;
    Some(values.iter().sum::<f32>() / values.len() as f32)
}
/// One given renamed by a relabelling of the digits (an exchange of two, or a cycle), and the
/// score that loses: calibrated, and by the templates alone.
#[derive(Clone, Copy)]
pub(super) struct Renamed {
    pub(super) cell: Pos,
    pub(super) read: Digit,
    pub(super) other: Digit,
    pub(super) loss: f32,
    pub(super) template_loss: f32,
}
