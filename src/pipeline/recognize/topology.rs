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
pub(super) const STROKE: u8 = 128;
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
