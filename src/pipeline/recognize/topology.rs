//! Topology: how many closed loops (holes) a glyph has. Template matching compares grey
//! shapes, and in bold or condensed fonts a `6` and an `8` correlate almost perfectly; their
//! holes (one against two) do not. Holes rule out a runner-up reading that contradicts the
//! glyph while the reading chosen agrees with it, and they never change the digit read by
//! themselves: blur can close a `6`'s opening or fill an `8`'s small loops, and then the holes
//! say nothing. Only when the rules reject the reading (no solution, or several) may a
//! correction follow them (`correct::correct_by_loops`).

use image::GrayImage;

use crate::puzzle::board::Digit;

/// Ink at or above this (of 255, the grid's text contrast) is stroke when looking for holes.
const STROKE: u8 = 128;
/// A hole smaller than this fraction of the glyph's box is a compression speck, not a loop.
const MIN_HOLE_FRACTION: f32 = 0.01;

/// The holes each digit has in ordinary fonts (index 0 is digit 1); `None` where fonts
/// differ (an open or a closed `4`).
const DIGIT_HOLES: [Option<u8>; 9] = [
    Some(0),
    Some(0),
    Some(0),
    None,
    Some(0),
    Some(1),
    Some(0),
    Some(2),
    Some(1),
];

/// The number of holes in a glyph (`ink`: 255 = ink), capped at 3: regions of background
/// enclosed by stroke, not touching the glyph's box, each at least `MIN_HOLE_FRACTION` of it.
pub fn holes(ink: &GrayImage) -> u8 {
    let (w, h) = (ink.width() as usize, ink.height() as usize);
    if w < 3 || h < 3 {
        return 0;
    }
    let open: Vec<bool> = ink.as_raw().iter().map(|&v| v < STROKE).collect();
    let min_area = ((w * h) as f32 * MIN_HOLE_FRACTION).max(2.0) as usize;
    let mut seen = vec![false; w * h];
    let mut stack = Vec::new();
    let mut count = 0u8;
    for start in 0..w * h {
        if !open[start] || seen[start] {
            continue;
        }
        seen[start] = true;
        stack.push(start);
        let (mut area, mut enclosed) = (0usize, true);
        while let Some(i) = stack.pop() {
            area += 1;
            let (x, y) = (i % w, i / w);
            if x == 0 || y == 0 || x + 1 == w || y + 1 == h {
                enclosed = false;
            }
            // 4-connected background, so a diagonal gap between strokes does not open a loop.
            let neighbours = [
                (x > 0).then(|| i - 1),
                (x + 1 < w).then(|| i + 1),
                (y > 0).then(|| i - w),
                (y + 1 < h).then(|| i + w),
            ];
            for j in neighbours.into_iter().flatten() {
                if open[j] && !seen[j] {
                    seen[j] = true;
                    stack.push(j);
                }
            }
        }
        if enclosed && area >= min_area {
            count = (count + 1).min(3);
        }
    }
    count
}

/// Whether `holes` loops agree with `digit` (index 0 is digit 1); `None` where fonts differ.
pub fn agrees(digit: usize, holes: u8) -> Option<bool> {
    DIGIT_HOLES[digit].map(|h| h == holes)
}

/// [`agrees`] for a glyph whose loops may not have been counted (`holes` is `None`).
pub fn digit_agrees(digit: Digit, holes: Option<u8>) -> Option<bool> {
    holes.and_then(|h| agrees(usize::from(digit.get() - 1), h))
}

/// Lowers the scores (index 0 is digit 1) of the digits whose holes contradict `holes` by
/// `margin` when the best-scoring digit's holes agree with it, so those readings are neither
/// close rivals nor cheap corrections. The best digit never changes.
pub fn rule_out_contradicted(scores: &mut [f32; 9], holes: u8, margin: f32) {
    let best = (0..9)
        .max_by(|&a, &b| scores[a].total_cmp(&scores[b]))
        .expect("nine digits");
    if DIGIT_HOLES[best] != Some(holes) {
        return;
    }
    for (d, score) in scores.iter_mut().enumerate() {
        if d != best && DIGIT_HOLES[d].is_some_and(|h| h != holes) {
            *score -= margin;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Luma;

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
        assert_eq!(holes(&loops(1, 3)), 1);
        assert_eq!(holes(&loops(2, 3)), 2);
        let bar = GrayImage::from_pixel(4, 30, Luma([255]));
        assert_eq!(holes(&bar), 0);
    }

    #[test]
    fn a_speck_is_not_a_loop() {
        let mut blob = GrayImage::from_pixel(20, 30, Luma([255]));
        blob.put_pixel(10, 15, Luma([0]));
        assert_eq!(holes(&blob), 0);
    }

    #[test]
    fn an_eight_rules_out_a_six_but_never_changes_the_reading() {
        let mut scores = [0.1; 9];
        scores[7] = 0.90; // 8
        scores[5] = 0.88; // 6
        rule_out_contradicted(&mut scores, 2, 0.5);
        assert!(scores[5] <= 0.38 + 1e-6);
        assert_eq!(scores[7], 0.90);
        // A glyph with one loop read as 8: the holes disagree with the reading, nothing moves.
        let mut scores = [0.1; 9];
        scores[7] = 0.90;
        scores[5] = 0.88;
        rule_out_contradicted(&mut scores, 1, 0.5);
        assert_eq!(scores[5], 0.88);
    }
}
