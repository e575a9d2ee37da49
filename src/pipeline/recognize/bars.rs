//! The bars cue: the longest run of ink across a glyph's top and middle rows, in strokes: a
//! `4`'s crossbar and a `7`'s top bar span the width, a `1`'s stem is one stroke.

use image::GrayImage;

use crate::puzzle::board::Digit;

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

#[cfg(test)]
mod tests {
    use super::*;
    use image::Luma;

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
}
