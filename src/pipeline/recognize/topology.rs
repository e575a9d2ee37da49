//! Topology: how many closed loops (holes) a glyph has, and where a single one sits. Template
//! matching compares grey shapes, and in bold or condensed fonts a `6` and an `8` correlate
//! almost perfectly; their holes (one against two) do not, nor do a square font's `6` and `9`
//! (one loop below against one above). Holes rule out a runner-up reading that contradicts the
//! glyph while the reading chosen agrees with it, and they never change the digit read by
//! themselves: blur can close a `6`'s opening or fill an `8`'s small loops, and then the holes
//! say nothing. Only when the rules reject the reading (no solution, or several) may a
//! correction follow them (`correct::correct_by_loops`).

use image::GrayImage;

use crate::puzzle::board::Digit;

/// Ink at or above this (of 255, the grid's text contrast) is stroke when looking for holes.
const STROKE: u8 = 128;
/// The stroke threshold for a second look at a glyph without loops. Blur fills an `8`'s
/// small loops before a `6`'s, so a loop found this way may be one of two; the photos still
/// read better with it (150-210 alike: 7-9 more solved, one `8` more misread and unsolved).
const BLURRED_STROKE: u8 = 160;
/// A hole smaller than this fraction of the glyph's box is a compression speck, not a loop.
const MIN_HOLE_FRACTION: f32 = 0.01;

/// A single loop whose centre is above this fraction of the glyph's height sits in its upper
/// part, one below `1 - PLACE_MARGIN` in its lower part; between them its place says nothing.
const PLACE_MARGIN: f32 = 0.45;

/// Where a glyph's single loop sits: a `6` closes its loop below, a `9` above, in lining and
/// old-style figures alike, however alike their outlines are (a square font's `6` and `9` are
/// one shape turned over).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// In the upper part of the glyph.
    Upper,
    /// In the lower part of the glyph.
    Lower,
}

/// A glyph's closed loops: how many (capped at 3) and, for a single loop, where it sits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Loops {
    /// Regions of background enclosed by stroke.
    pub count: u8,
    /// Where the loop sits, when there is one and it is clearly above or below the middle.
    pub place: Option<Place>,
    /// Whether the same number of loops is found with the stroke drawn thinner (see
    /// [`STEADY_STROKES`]): blur closes a `5`'s mouth and fills an `8`'s small loop with grey
    /// that a thinner stroke opens again, while a crisp glyph's loops stay.
    pub steady: bool,
}

impl Loops {
    /// `count` loops whose place is not known.
    pub fn counted(count: u8) -> Loops {
        Loops {
            count,
            place: None,
            steady: false,
        }
    }
}

/// The loops each digit has in ordinary fonts (index 0 is digit 1); `None` where fonts
/// differ (an open or a closed `4`).
const DIGIT_LOOPS: [Option<Loops>; 9] = {
    const fn loops(count: u8, place: Option<Place>) -> Option<Loops> {
        Some(Loops {
            count,
            place,
            steady: true,
        })
    }
    [
        loops(0, None),
        loops(0, None),
        loops(0, None),
        None,
        loops(0, None),
        loops(1, Some(Place::Lower)),
        loops(0, None),
        loops(2, None),
        loops(1, Some(Place::Upper)),
    ]
};

/// The loops of a glyph (`ink`: 255 = ink): regions of background enclosed by stroke, not
/// touching the glyph's box, each at least `MIN_HOLE_FRACTION` of it.
///
/// A glyph without loops at the usual threshold is looked at again with its stroke thinned
/// (`BLURRED_STROKE`): a blurred print's counters are grey, not background.
pub fn holes(ink: &GrayImage) -> Loops {
    let sharp = holes_at(ink, STROKE);
    let found = if sharp.count > 0 {
        sharp
    } else {
        holes_at(ink, BLURRED_STROKE)
    };
    let steady = (STEADY_STROKES.iter()).all(|&stroke| holes_at(ink, stroke).count == sharp.count);
    Loops {
        steady: steady && found.count == sharp.count,
        ..found
    }
}

/// The strokes at which [`Loops::steady`] loops are counted as at `STROKE`: only thinner,
/// since a bolder stroke (96) also joins a 12 px typeset `9`'s tail to its loop (Antonio),
/// and the thinner side alone already reopens what blur closed or filled.
const STEADY_STROKES: [u8; 1] = [192];

/// The loops of `ink` where stroke is ink at or above `stroke`.
///
/// The background is labelled by runs: each row's runs of background are joined to the runs
/// of the row above that they touch side by side (4-connected, so a diagonal gap between
/// strokes does not open a loop), with a union-find over runs; a glyph has a few runs a row,
/// against dozens of pixels (a flood fill pixel by pixel cost a twentieth of a phone
/// screenshot's reading).
fn holes_at(ink: &GrayImage, stroke: u8) -> Loops {
    let (w, h) = (ink.width() as usize, ink.height() as usize);
    if w < 3 || h < 3 {
        return Loops::counted(0);
    }
    let min_area = ((w * h) as f32 * MIN_HOLE_FRACTION).max(2.0) as usize;
    let runs = background_runs(ink.as_raw(), w, stroke);
    let mut parent: Vec<usize> = (0..runs.len()).collect();
    // Runs of the row above: `above..row_start` in `runs`.
    let (mut above, mut row_start) = (0, 0);
    for i in 0..runs.len() {
        if i > 0 && runs[i].y != runs[i - 1].y {
            above = if runs[i].y == runs[i - 1].y + 1 {
                row_start
            } else {
                i
            };
            row_start = i;
        }
        let run = runs[i];
        for (j, other) in runs.iter().enumerate().take(row_start).skip(above) {
            if other.x0 <= run.x1 && other.x1 >= run.x0 {
                union(&mut parent, i, j);
            }
        }
    }
    // Per component (at its root): area, the sum of its pixels' rows, and whether it touches
    // the glyph's box.
    let mut parts = vec![(0usize, 0usize, false); runs.len()];
    for i in 0..runs.len() {
        let run = runs[i];
        let part = &mut parts[find(&mut parent, i)];
        let len = run.x1 - run.x0 + 1;
        part.0 += len;
        part.1 += run.y * len;
        part.2 |= run.x0 == 0 || run.x1 + 1 == w || run.y == 0 || run.y + 1 == h;
    }
    let enclosed = (parts.into_iter())
        .filter(|p| p.0 > 0)
        .map(|(area, rows, touches)| (area, rows, !touches));
    count_loops(enclosed, min_area, h)
}

/// The loops among background components given as (area, sum of their pixels' rows, whether
/// enclosed): those enclosed and at least `min_area` pixels, counted up to 3, and placed by
/// their centre in a glyph `h` rows tall when there is one.
fn count_loops(
    components: impl Iterator<Item = (usize, usize, bool)>,
    min_area: usize,
    h: usize,
) -> Loops {
    let mut count = 0u8;
    let mut centre = 0.0f32;
    for (area, rows, enclosed) in components {
        if enclosed && area >= min_area {
            count = (count + 1).min(3);
            centre = (rows as f32 / area as f32 + 0.5) / h as f32;
        }
    }
    let place = match count {
        1 if centre < PLACE_MARGIN => Some(Place::Upper),
        1 if centre > 1.0 - PLACE_MARGIN => Some(Place::Lower),
        _ => None,
    };
    Loops {
        count,
        place,
        steady: false,
    }
}

/// A run of background pixels in one row: columns `x0..=x1` of row `y`.
#[derive(Clone, Copy)]
struct Run {
    y: usize,
    x0: usize,
    x1: usize,
}

/// The runs of pixels below `stroke` in `raw` (rows `w` wide), row by row, left to right.
fn background_runs(raw: &[u8], w: usize, stroke: u8) -> Vec<Run> {
    let mut runs = Vec::new();
    for (y, row) in raw.chunks_exact(w).enumerate() {
        let mut start = None;
        for (x, &v) in row.iter().enumerate() {
            match (v < stroke, start) {
                (true, None) => start = Some(x),
                (false, Some(x0)) => {
                    runs.push(Run { y, x0, x1: x - 1 });
                    start = None;
                }
                _ => {}
            }
        }
        if let Some(x0) = start {
            runs.push(Run { y, x0, x1: w - 1 });
        }
    }
    runs
}

/// The root of `i`'s set, halving the path on the way.
fn find(parent: &mut [usize], mut i: usize) -> usize {
    while parent[i] != i {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    i
}

/// Joins the sets of `a` and `b` under the lower root.
fn union(parent: &mut [usize], a: usize, b: usize) {
    let (ra, rb) = (find(parent, a), find(parent, b));
    parent[ra.max(rb)] = ra.min(rb);
}

/// A band of a glyph's rows whose sides [`opening`] compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// Below a `5`'s bar and a `3`'s top curve, above the bowls below them: 0.2 to 0.45 of
    /// the glyph's height from the top.
    Upper,
    /// Through the bowls and the `9`'s tail: 0.5 to 0.75 of the height from the top.
    Lower,
}

impl Part {
    /// Every part, upper first: the order [`Part::index`] numbers them in.
    pub const ALL: [Part; 2] = [Part::Upper, Part::Lower];

    /// The part's place in [`Part::ALL`], for per-part arrays.
    pub fn index(self) -> usize {
        match self {
            Part::Upper => 0,
            Part::Lower => 1,
        }
    }

    /// The band's rows, as fractions of the glyph's height from the top.
    fn rows(self) -> (f32, f32) {
        match self {
            Part::Upper => (0.2, 0.45),
            Part::Lower => (0.5, 0.75),
        }
    }

    /// How each digit's part meets the sides (index 0 is digit 1). Upper: a `2` and a `3`
    /// curve round from the right and leave their left open; a `5` drops its stem down the
    /// left and a `6` its bowl, leaving the right open; an `8` and a `9` close a loop there.
    /// Lower: a `3`, `5` and `9` curve round from the right (the `9` its tail), a `6` and an
    /// `8` close their bowls. `None` where fonts differ (a `2`'s diagonal, an old-style or
    /// serif `7`, an open or a closed `4`) or the part is a lone stem (a `1`).
    ///
    /// Measured on the first tune rendering (825 pictures, each digit's glyphs averaged per
    /// picture): upper, the `8`s and `9`s open by -0.21 to 0.20, the `6`s by -0.91 to -0.03,
    /// the `5`s by -0.91 to 0.21 (-0.35 at the 95th percentile); lower, the `6`s and `8`s by
    /// -0.76 to 0.18 (-0.17 at the 1st percentile), the `3`s, `5`s and `9`s by 0.11 to 0.91.
    fn sides(self) -> [Option<Sides>; 9] {
        const LEFT: Option<Sides> = Some(Sides::Opens(Side::Left));
        const RIGHT: Option<Sides> = Some(Sides::Opens(Side::Right));
        const CLOSED: Option<Sides> = Some(Sides::Closed);
        match self {
            Part::Upper => [None, LEFT, LEFT, None, RIGHT, RIGHT, None, CLOSED, CLOSED],
            Part::Lower => [None, None, LEFT, None, LEFT, CLOSED, None, CLOSED, LEFT],
        }
    }
}

/// A side of a glyph.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// Towards the start of a line of text.
    Left,
    /// Towards its end.
    Right,
}

/// How a part of a digit (see [`Part`]) meets the sides of its box.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sides {
    /// Open to one side, stroke on the other.
    Opens(Side),
    /// Stroke on both sides: a loop or a bowl.
    Closed,
}

impl Sides {
    /// What [`opening`] measures for such a part in the ideal: 1 open to the left, -1 to the
    /// right, 0 closed.
    pub fn ideal_opening(self) -> f32 {
        match self {
            Sides::Opens(Side::Left) => 1.0,
            Sides::Opens(Side::Right) => -1.0,
            Sides::Closed => 0.0,
        }
    }
}

/// How `digit`'s `part` meets the sides, where fonts agree.
pub fn sides(digit: Digit, part: Part) -> Option<Sides> {
    part.sides()[usize::from(digit.get() - 1)]
}

/// How far a glyph's `part` opens to the left rather than the right: the deepest the
/// background reaches in from the left before the first stroke of a row, less the deepest it
/// reaches in from the right, as fractions of the glyph's width. Near 1 opens left (a `3`'s
/// waist), near -1 right (below a `5`'s bar), near 0 closed (an `8`'s loops); `None` when no
/// such row has stroke.
///
/// Templates compare whole shapes, and a `3` and a `5` share their lower bowl, so in some
/// faces they barely tell the two apart; their upper parts open to opposite sides in every
/// face measured.
pub fn opening(ink: &GrayImage, part: Part) -> Option<f32> {
    let (w, h) = (ink.width(), ink.height());
    let rows = part.rows();
    let first = (rows.0 * h as f32) as u32;
    let last = ((rows.1 * h as f32) as u32).max(first + 1).min(h);
    let (mut left, mut right, mut any) = (0, 0, false);
    for y in first..last {
        let stroke = |x: &u32| ink.get_pixel(*x, y)[0] >= STROKE;
        if let (Some(l), Some(r)) = ((0..w).find(stroke), (0..w).rev().find(stroke)) {
            left = left.max(l);
            right = right.max(w - 1 - r);
            any = true;
        }
    }
    any.then(|| (left as f32 - right as f32) / w as f32)
}

/// A band of a glyph's rows whose longest run of ink [`bars`] measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bar {
    /// The top rows, 0 to 0.15 of the height: a `7`'s bar, where a `4` ends in the tip of its
    /// stem and of its arm or apex.
    Top,
    /// 0.3 to 0.8 of the height: a `4`'s crossbar, at two thirds of the height in most
    /// faces, higher in a hand whose `4` stands on a long stem (East Sea Dokdo's at
    /// 0.35-0.4), and clear of a `1`'s flag and foot.
    Middle,
}

impl Bar {
    /// Every band, top first: the order [`bars`] measures them in.
    pub const ALL: [Bar; 2] = [Bar::Top, Bar::Middle];

    /// The band's place in [`Bar::ALL`], for per-band arrays.
    pub fn index(self) -> usize {
        match self {
            Bar::Top => 0,
            Bar::Middle => 1,
        }
    }

    /// The band's rows, as fractions of the glyph's height from the top.
    fn rows(self) -> (f32, f32) {
        match self {
            Bar::Top => (0.0, 0.15),
            Bar::Middle => (0.3, 0.8),
        }
    }
}

/// Which of `a` and `b` every face draws with the longer bar, and where (see [`Bar`]):
/// `Some((bar, 1.0))` when `a`'s, `Some((bar, -1.0))` when `b`'s, `None` when no band tells
/// them apart. A `4`'s crossbar against a `1`'s stem; a `7`'s top bar against a `4`'s tips (a
/// crossed `7`'s middle is as barred as a `4`'s).
pub fn longer_bar(a: Digit, b: Digit) -> Option<(Bar, f32)> {
    const LONGER: [(u8, u8, Bar); 2] = [(4, 1, Bar::Middle), (7, 4, Bar::Top)];
    LONGER.iter().find_map(|&(long, short, bar)| {
        if (a.get(), b.get()) == (long, short) {
            Some((bar, 1.0))
        } else if (a.get(), b.get()) == (short, long) {
            Some((bar, -1.0))
        } else {
            None
        }
    })
}

/// How many times as long as the glyph's strokes are thick its longest run of ink along a
/// row of each band of [`Bar::ALL`] is: a `4`'s crossbar and a `7`'s top bar span the width,
/// 2 to 6 strokes; a `1` is a stem there, one stroke however it slants. A stroke's thickness
/// is the median length of the glyph's runs along rows, and ink counts from half the glyph's
/// darkest, so faint and bold glyphs alike measure their own strokes. `None` when the glyph
/// has no ink.
///
/// Templates compare whole shapes, and an unbundled hand's slanted `1` and open `4` may
/// match each other's templates better than their own (a `4` whose bar sits high on a long
/// stem); the bars tell them apart in any face.
pub fn bars(ink: &GrayImage) -> [Option<f32>; 2] {
    let (w, h) = (ink.width() as usize, ink.height() as usize);
    let raw = ink.as_raw();
    let Some(darkest) = raw.iter().copied().max() else {
        return [None; 2];
    };
    let cut = (darkest / 2).max(MIN_BAR_INK);
    let runs = |y: usize| {
        raw[y * w..(y + 1) * w]
            .split(|&v| v < cut)
            .map(<[u8]>::len)
            .filter(|&n| n > 0)
    };
    let mut lengths: Vec<usize> = (0..h).flat_map(runs).collect();
    if lengths.is_empty() {
        return [None; 2];
    }
    let middle = lengths.len() / 2;
    let (_, &mut stroke, _) = lengths.select_nth_unstable(middle);
    Bar::ALL.map(|bar| {
        let (first, last) = bar.rows();
        let first = (first * h as f32) as usize;
        let last = ((last * h as f32) as usize).max(first + 1).min(h);
        let longest = (first..last).flat_map(runs).max().unwrap_or(0);
        Some(longest as f32 / stroke as f32)
    })
}

/// The least ink (of 255) [`bars`] counts as stroke, however faint the glyph.
const MIN_BAR_INK: u8 = 32;

/// Whether `loops` agree with `digit` (index 0 is digit 1); `None` where fonts differ.
pub fn agrees(digit: usize, loops: Loops) -> Option<bool> {
    DIGIT_LOOPS[digit].map(|expected| {
        let place_contradicts = matches!(
            (expected.place, loops.place),
            (Some(a), Some(b)) if a != b
        );
        expected.count == loops.count && !place_contradicts
    })
}

/// Whether `digit` closes loops in every ordinary font (`6`, `8`, `9`).
pub fn closes_loops(digit: Digit) -> bool {
    DIGIT_LOOPS[usize::from(digit.get() - 1)].is_some_and(|l| l.count > 0)
}

/// [`agrees`] for a glyph whose loops may not have been counted (`loops` is `None`).
pub fn digit_agrees(digit: Digit, loops: Option<Loops>) -> Option<bool> {
    loops.and_then(|l| agrees(usize::from(digit.get() - 1), l))
}

/// The index (0 is digit 1) of the best of `scores`.
fn best_of(scores: &[f32; 9]) -> usize {
    (0..9)
        .max_by(|&a, &b| scores[a].total_cmp(&scores[b]))
        .expect("nine digits")
}

/// Lowers the scores (index 0 is digit 1) of the digits whose loops contradict `loops` by
/// `margin` when the best-scoring digit's loops agree with them, so those readings are
/// neither close rivals nor cheap corrections. The best digit never changes.
pub fn rule_out_contradicted(scores: &mut [f32; 9], loops: Loops, margin: f32) {
    let best = best_of(scores);
    if agrees(best, loops) != Some(true) {
        return;
    }
    for (d, score) in scores.iter_mut().enumerate() {
        if d != best && agrees(d, loops) == Some(false) {
            *score -= margin;
        }
    }
}

/// The digits drawn without a bowl or an aperture that blur could close into a loop (index 0
/// is digit 1): a `1` and a `7`. A `2`, `3` or `5` curls round a counter whose mouth a bold or
/// blurred print closes (a typeset `5` read as `6`, photographed `5`s as `8`s, when their
/// loops were trusted).
const NO_BOWL: [bool; 9] = [true, false, false, false, false, false, true, false, false];

/// Whether `loops` hold a closed loop that `digit` cannot have: a `1` or a `7` (see
/// [`NO_BOWL`]).
pub fn loop_rules_out(digit: Digit, loops: Option<Loops>) -> bool {
    NO_BOWL[usize::from(digit.get() - 1)] && loops.is_some_and(|l| l.count > 0)
}

/// Lowers the best digit's score (index 0 is digit 1) by `margin` when the glyph closes a
/// loop that digit cannot have (see [`NO_BOWL`]) while a digit scoring within `close` of it
/// may have that loop. A hairline `4`'s stem, foot and bar pass for a footed `1` to the
/// templates (Ovo: 0.07 apart) while its thin diagonal still closes the counter. Returns
/// whether it lowered.
pub fn demote_loopless_best(scores: &mut [f32; 9], loops: Loops, margin: f32, close: f32) -> bool {
    if loops.count == 0 {
        return false;
    }
    let best = best_of(scores);
    if !NO_BOWL[best] {
        return false;
    }
    let rival = (0..9)
        .filter(|&d| d != best && scores[best] - scores[d] <= close)
        .any(|d| !NO_BOWL[d] && agrees(d, loops) != Some(false));
    if rival {
        scores[best] -= margin;
    }
    rival
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Luma;

    /// The loops counted pixel by pixel, with a flood fill: what the runs must agree with.
    fn holes_by_flood_fill(ink: &GrayImage, stroke: u8) -> Loops {
        let (w, h) = (ink.width() as usize, ink.height() as usize);
        let open: Vec<bool> = ink.as_raw().iter().map(|&v| v < stroke).collect();
        let min_area = ((w * h) as f32 * MIN_HOLE_FRACTION).max(2.0) as usize;
        let mut seen = vec![false; w * h];
        let mut components = Vec::new();
        for start in (0..w * h).filter(|&i| open[i]) {
            if seen[start] {
                continue;
            }
            seen[start] = true;
            let mut stack = vec![start];
            let (mut area, mut rows, mut enclosed) = (0usize, 0usize, true);
            while let Some(i) = stack.pop() {
                let (x, y) = (i % w, i / w);
                area += 1;
                rows += y;
                enclosed &= x > 0 && y > 0 && x + 1 < w && y + 1 < h;
                let next = [
                    (x > 0).then(|| i - 1),
                    (x + 1 < w).then(|| i + 1),
                    (y > 0).then(|| i - w),
                    (y + 1 < h).then(|| i + w),
                ];
                for j in next.into_iter().flatten() {
                    if open[j] && !seen[j] {
                        seen[j] = true;
                        stack.push(j);
                    }
                }
            }
            components.push((area, rows, enclosed));
        }
        count_loops(components.into_iter(), min_area, h)
    }

    proptest::proptest! {
        #[test]
        fn runs_count_the_loops_a_flood_fill_counts(
            levels in proptest::collection::vec(0usize..4, 13 * 13),
            w in 3u32..14,
            h in 3u32..14,
        ) {
            let pixels: Vec<u8> = levels[..(w * h) as usize].iter().map(|&l| [0, 100, 200, 255][l]).collect();
            let ink = GrayImage::from_raw(w, h, pixels).unwrap();
            for stroke in [STROKE, BLURRED_STROKE, 192] {
                let (runs, flood) = (holes_at(&ink, stroke), holes_by_flood_fill(&ink, stroke));
                proptest::prop_assert_eq!((runs.count, runs.place), (flood.count, flood.place));
            }
        }
    }

    /// A ring (one loop) or a figure eight (two loops) of the given stroke width.
    fn loops(n: u32, stroke: u32) -> GrayImage {
        let r = 10i32;
        let h = 2 * r as u32 * n + 2;
        GrayImage::from_fn(2 * r as u32 + 2, h, |x, y| {
            let inside = (0..n as i32).any(|k| {
                let (cx, cy) = (r + 1, r + 1 + 2 * r * k);
                let d2 = (x as i32 - cx).pow(2) + (y as i32 - cy).pow(2);
                d2 <= r * r && d2 >= (r - stroke as i32).pow(2)
            });
            Luma([if inside { 255 } else { 0 }])
        })
    }

    /// A square `3` (`five` off) or `5`: three bars joined down the right, or down the left
    /// above the middle bar and the right below it; 15 x 21 px, strokes 3 px wide.
    fn square_three_or_five(five: bool) -> GrayImage {
        GrayImage::from_fn(15, 21, |x, y| {
            let bar = y < 3 || (9..12).contains(&y) || y >= 18;
            let upper_stem = if five { x < 3 } else { x >= 12 };
            let stem = if y < 10 { upper_stem } else { x >= 12 };
            Luma([if bar || stem { 255 } else { 0 }])
        })
    }

    #[test]
    fn a_three_opens_its_upper_part_to_the_left_and_a_five_to_the_right() {
        let three = opening(&square_three_or_five(false), Part::Upper).unwrap();
        let five = opening(&square_three_or_five(true), Part::Upper).unwrap();
        assert!(three > 0.5 && five < -0.5, "{three} {five}");
        let blank = GrayImage::new(15, 21);
        assert_eq!(opening(&blank, Part::Upper), None);
    }

    /// A square `8` (`nine` off) or `9`: three bars and a stem down the right, with a stem
    /// down the left above the middle bar, and below it too for the `8`; 15 x 21 px, strokes 3
    /// px wide.
    fn square_eight_or_nine(nine: bool) -> GrayImage {
        GrayImage::from_fn(15, 21, |x, y| {
            let bar = y < 3 || (9..12).contains(&y) || y >= 18;
            let left_stem = x < 3 && (y < 10 || !nine);
            Luma([if bar || left_stem || x >= 12 { 255 } else { 0 }])
        })
    }

    #[test]
    fn an_eight_closes_both_parts_and_a_nine_opens_its_lower_part_to_the_left() {
        let eight = square_eight_or_nine(false);
        let nine = square_eight_or_nine(true);
        assert_eq!(opening(&eight, Part::Upper), Some(0.0));
        assert_eq!(opening(&nine, Part::Upper), Some(0.0));
        assert_eq!(opening(&eight, Part::Lower), Some(0.0));
        let lower = opening(&nine, Part::Lower).unwrap();
        assert!(lower > 0.5, "{lower}");
        let sides = |d: u8| Digit::new(d).and_then(|d| sides(d, Part::Lower));
        assert_eq!(sides(8), Some(Sides::Closed));
        assert_eq!(sides(9), Some(Sides::Opens(Side::Left)));
    }

    /// A hand's `1`, a stroke 5 px thick slanting a pixel left every 4 rows, or its open `4`:
    /// the same stem with an arm down from the top left to a crossbar at `bar_row` of 40 rows,
    /// drawn in `ink`.
    fn hand_one_or_four(four: bool, bar_row: u32, ink: u8) -> GrayImage {
        GrayImage::from_fn(24, 40, |x, y| {
            let stem_left = 16 - y / 4;
            let stem = (stem_left..stem_left + 5).contains(&x);
            let arm = four && x < 5 && y <= bar_row;
            let bar = four && (bar_row..bar_row + 3).contains(&y);
            Luma([if stem || arm || bar { ink } else { 0 }])
        })
    }

    #[test]
    fn a_fours_crossbar_is_strokes_long_where_a_ones_stem_is_one() {
        let bar = |ink: &GrayImage| bars(ink)[Bar::Middle.index()];
        let one = bar(&hand_one_or_four(false, 0, 255)).unwrap();
        assert!(one < 1.5, "{one}");
        // Two thirds down, as most faces draw it, or high on a long stem, as some hands do;
        // and in a faint grey the glyph's own strokes still set the scale.
        for (row, ink) in [(26, 255), (14, 255), (26, 90)] {
            let four = bar(&hand_one_or_four(true, row, ink)).unwrap();
            assert!(
                four > one + 2.0,
                "bar at row {row}, ink {ink}: {four} against {one}"
            );
        }
        assert_eq!(bars(&GrayImage::new(10, 20)), [None; 2]);
    }

    #[test]
    fn a_sevens_top_bar_is_strokes_long_where_a_fours_tips_are_one() {
        // A 7: a bar 4 rows deep across the top, and the stem of the hand's 1 below it.
        let seven = GrayImage::from_fn(24, 40, |x, y| {
            let stem = hand_one_or_four(false, 0, 255).get_pixel(x, y)[0] > 0;
            Luma([if y < 4 && x >= 4 || stem { 255 } else { 0 }])
        });
        let top = |ink: &GrayImage| bars(ink)[Bar::Top.index()].unwrap();
        let four = top(&hand_one_or_four(true, 26, 255));
        assert!(four < 1.5, "{four}");
        assert!(top(&seven) > four + 2.0, "{} against {four}", top(&seven));
        let seven_four = |a, b| longer_bar(Digit::new(a).unwrap(), Digit::new(b).unwrap());
        assert_eq!(seven_four(7, 4), Some((Bar::Top, 1.0)));
        assert_eq!(seven_four(1, 4), Some((Bar::Middle, -1.0)));
        assert_eq!(seven_four(1, 7), None);
    }

    #[test]
    fn loops_are_counted() {
        assert_eq!(holes(&loops(1, 3)).count, 1);
        assert_eq!(holes(&loops(2, 3)).count, 2);
        let bar = GrayImage::from_pixel(4, 30, Luma([255]));
        assert_eq!(holes(&bar).count, 0);
    }

    /// A square `6` (loop below, stem up the left) or, turned over, a `9`.
    fn square_six(turned: bool) -> GrayImage {
        let six = GrayImage::from_fn(20, 36, |x, y| {
            let stem = x < 4;
            let loop_ = y >= 16 && (x >= 16 || !(20..32).contains(&y));
            let top = y < 4;
            Luma([if stem || loop_ || top { 255 } else { 0 }])
        });
        if turned {
            image::imageops::rotate180(&six)
        } else {
            six
        }
    }

    #[test]
    fn a_single_loop_is_placed_above_or_below_the_middle() {
        assert_eq!(holes(&square_six(false)).place, Some(Place::Lower));
        assert_eq!(holes(&square_six(true)).place, Some(Place::Upper));
        // A ring fills its box: its loop is in the middle, and its place says nothing.
        assert_eq!(holes(&loops(1, 3)).place, None);
    }

    #[test]
    fn a_loop_below_rules_out_a_nine_and_above_a_six() {
        let (six, nine) = (5, 8);
        let mut scores = [0.1; 9];
        scores[six] = 0.85;
        scores[nine] = 0.80;
        rule_out_contradicted(&mut scores, holes(&square_six(false)), 0.5);
        assert!(scores[nine] <= 0.30 + 1e-6);
        let mut scores = [0.1; 9];
        scores[nine] = 0.85;
        scores[six] = 0.80;
        rule_out_contradicted(&mut scores, holes(&square_six(true)), 0.5);
        assert!(scores[six] <= 0.30 + 1e-6);
        // Counted alone, one loop agrees with both.
        let mut scores = [0.1; 9];
        scores[six] = 0.85;
        scores[nine] = 0.80;
        rule_out_contradicted(&mut scores, Loops::counted(1), 0.5);
        assert_eq!(scores[nine], 0.80);
    }

    #[test]
    fn a_loop_blur_has_greyed_is_found_with_the_stroke_thinned() {
        // A ring whose counter blur has filled with grey ink over the usual threshold.
        let mut ring = loops(1, 3);
        let inside = |x: u32, y: u32| (x as i32 - 11).pow(2) + (y as i32 - 11).pow(2) < 49;
        for (x, y, p) in ring.enumerate_pixels_mut() {
            if inside(x, y) {
                *p = Luma([140]);
            }
        }
        assert_eq!(holes_at(&ring, STROKE).count, 0);
        assert_eq!(holes(&ring).count, 1);
    }

    #[test]
    fn a_speck_is_not_a_loop() {
        let mut blob = GrayImage::from_pixel(20, 30, Luma([255]));
        blob.put_pixel(10, 15, Luma([0]));
        assert_eq!(holes(&blob).count, 0);
    }

    #[test]
    fn an_eight_rules_out_a_six_but_never_changes_the_reading() {
        let mut scores = [0.1; 9];
        scores[7] = 0.90; // 8
        scores[5] = 0.88; // 6
        rule_out_contradicted(&mut scores, Loops::counted(2), 0.5);
        assert!(scores[5] <= 0.38 + 1e-6);
        assert_eq!(scores[7], 0.90);
        // A glyph with one loop read as 8: the holes disagree with the reading, nothing moves.
        let mut scores = [0.1; 9];
        scores[7] = 0.90;
        scores[5] = 0.88;
        rule_out_contradicted(&mut scores, Loops::counted(1), 0.5);
        assert_eq!(scores[5], 0.88);
    }

    /// A hairline `4` whose stem, foot and bar the templates read as a footed `1`, 0.07
    /// ahead, still closes its counter: the loop gives it the `4`; without a loop, or with
    /// the `4` far behind, or only loopless digits close, the reading stands.
    #[test]
    fn a_closed_loop_takes_a_close_call_from_a_loopless_digit() {
        let mut scores = [0.0; 9];
        scores[0] = 0.8; // 1
        scores[3] = 0.73; // 4
        let loop_ = Loops::counted(1);
        let mut demoted = scores;
        assert!(demote_loopless_best(&mut demoted, loop_, 0.5, 0.1));
        assert_eq!(best_of(&demoted), 3);
        let mut no_loop = scores;
        assert!(!demote_loopless_best(
            &mut no_loop,
            Loops::counted(0),
            0.5,
            0.1
        ));
        let mut far = scores;
        far[3] = 0.6;
        assert!(!demote_loopless_best(&mut far, loop_, 0.5, 0.1));
        let mut loopless_rival = [0.0; 9];
        loopless_rival[0] = 0.8;
        loopless_rival[6] = 0.78; // 7
        assert!(!demote_loopless_best(&mut loopless_rival, loop_, 0.5, 0.1));
        let one = Digit::new(1).unwrap();
        assert!(loop_rules_out(one, Some(loop_)));
        assert!(!loop_rules_out(one, Some(Loops::counted(0))));
        assert!(!loop_rules_out(Digit::new(4).unwrap(), Some(loop_)));
    }
}
