//! The sides cue: how a glyph's upper and lower parts meet the sides of its box (open to the
//! left, to the right, or closed), where template matching barely tells digits apart: a
//! `3`'s and a `5`'s shared lower bowl, their upper parts opening to opposite sides.

use image::GrayImage;

use super::topology::STROKE;
use crate::puzzle::board::Digit;

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

#[cfg(test)]
mod tests {
    use super::*;
    use image::Luma;

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
}
