//! Print and a hand in one ink: a player's black pen beside a newspaper's black print.
//!
//! Colour cannot part them, but print draws every glyph of a digit alike and a hand never
//! does: each printed glyph has a near copy among the givens (another glyph of its digit, or
//! of a digit its font draws alike), a handwritten one mostly has none.

use super::shapes::Shapes;
use crate::pipeline::cells::Author;
use crate::puzzle::board::MIN_GIVENS;

/// How alike a glyph's nearest other glyph is when both are print (cosine in the comparison
/// frame): measured over every picture of the samples, the corpus, the photos and the games
/// sets, the median of it is 0.845-0.998 in every printed or rendered colour group, 0.52-0.83
/// in every handwritten one; in photos of print and black pen read as one group, 0.94-0.98
/// for the print's glyphs and 0.65-0.71 for the pen's.
const PRINT_TWIN: f32 = 0.84;

/// `authors` with the givens that have no near copy among the givens (`PRINT_TWIN`), or are
/// sized like those (see [`sized_apart`]), made entries, when the givens as a group are not one print (their median nearest copy is under
/// `PRINT_TWIN`) and those that have one are enough for a puzzle. Weak: the reading falls back
/// to the colours' authors when the givens without them have no one solution (a digit the
/// puzzle gives once has no copy of itself).
pub(super) fn print_apart_from_hand(mut authors: Vec<Author>, shapes: &Shapes) -> Vec<Author> {
    let givens: Vec<usize> = (0..authors.len())
        .filter(|&i| authors[i] == Author::Given)
        .collect();
    if givens.len() <= MIN_GIVENS || shapes.consistency(&givens) >= PRINT_TWIN {
        return authors;
    }
    let (print, hand): (Vec<usize>, Vec<usize>) =
        (givens.iter()).partition(|&&i| shapes.twin(i, &givens) >= PRINT_TWIN);
    let (print, hand) = sized_apart(print, hand, shapes);
    if print.len() < MIN_GIVENS || shapes.consistency(&print) < PRINT_TWIN {
        return authors;
    }
    hand.iter().for_each(|&i| authors[i] = Author::Entry);
    authors
}

/// `print` and `hand` with the glyphs of `print` sized like the hand moved to it: a hand's
/// glyphs of one digit may be near copies too (two strokes are two `1`s), but print is one
/// size and a hand written smaller or larger keeps to its own. A glyph goes with the group
/// whose median height is nearer its own on a log scale, when the hand has as many glyphs
/// as a puzzle's fewest givens (a game under way, not a few strays, sets its size) and its
/// median lies outside the middle half of the print's heights (another size than the print).
fn sized_apart(print: Vec<usize>, hand: Vec<usize>, shapes: &Shapes) -> (Vec<usize>, Vec<usize>) {
    // The height at `q` (0-1) of the sorted heights of `members`.
    let quantile = |members: &[usize], q: f32| {
        let mut heights: Vec<f32> = members.iter().map(|&i| shapes.height(i)).collect();
        heights.sort_by(f32::total_cmp);
        heights.get((q * heights.len() as f32) as usize).copied()
    };
    let (Some(print_size), Some(hand_size)) = (quantile(&print, 0.5), quantile(&hand, 0.5)) else {
        return (print, hand);
    };
    // A hand of the print's size is told by shape alone: its typical height must lie outside
    // the middle half of the print's heights.
    let print_middle =
        quantile(&print, 0.25).unwrap_or(print_size)..=quantile(&print, 0.75).unwrap_or(print_size);
    if hand.len() < MIN_GIVENS || print_middle.contains(&hand_size) {
        return (print, hand);
    }
    let nearer_hand = |i: usize| {
        let h = shapes.height(i).ln();
        (h - hand_size.ln()).abs() < (h - print_size.ln()).abs()
    };
    let (moved, print): (Vec<usize>, Vec<usize>) = print.into_iter().partition(|&i| nearer_hand(i));
    (print, hand.into_iter().chain(moved).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::GrayImage;

    /// A printed glyph of kind `k` (a bar at one of six heights), the same for every `k`.
    fn print(k: usize) -> GrayImage {
        GrayImage::from_fn(12, 18, |_, y| {
            image::Luma([if y as usize / 3 == k % 6 { 255 } else { 0 }])
        })
    }

    /// A handwritten glyph, each one unlike every other: a diagonal of its own slope.
    fn hand(k: usize) -> GrayImage {
        GrayImage::from_fn(12, 18, |x, y| {
            let on = (x as usize * (k + 2)) % 18 == y as usize
                || ((x + y) as usize).is_multiple_of(k + 5);
            image::Luma([if on { 255 } else { 0 }])
        })
    }

    #[test]
    fn a_hand_s_near_copies_written_smaller_than_the_print_are_entries() {
        // 24 printed glyphs, 30 handwritten ones at two thirds of the print's height, and 4
        // handwritten strokes (`1`s), near copies of each other, at the hand's height.
        let small = |k: usize| {
            let full = hand(k);
            image::imageops::resize(&full, 8, 12, image::imageops::FilterType::Nearest)
        };
        let stroke =
            || GrayImage::from_fn(8, 12, |x, _| image::Luma([if x == 4 { 255 } else { 0 }]));
        let mut inks: Vec<GrayImage> = (0..24).map(print).collect();
        inks.extend((0..30).map(small));
        inks.extend((0..4).map(|_| stroke()));
        let refs: Vec<&GrayImage> = inks.iter().collect();
        let shapes = Shapes::new(&refs);
        let authors = print_apart_from_hand(vec![Author::Given; 58], &shapes);
        assert!(authors[..24].iter().all(|&a| a == Author::Given));
        assert!(authors[54..].iter().all(|&a| a == Author::Entry));
    }

    #[test]
    fn the_pen_beside_print_in_one_ink_is_entries_and_print_alone_is_not_split() {
        let mut inks: Vec<GrayImage> = (0..24).map(print).collect();
        inks.extend((0..30).map(hand));
        let refs: Vec<&GrayImage> = inks.iter().collect();
        let shapes = Shapes::new(&refs);
        let authors = print_apart_from_hand(vec![Author::Given; 54], &shapes);
        assert!(authors[..24].iter().all(|&a| a == Author::Given));
        let entries = authors[24..]
            .iter()
            .filter(|&&a| a == Author::Entry)
            .count();
        assert!(
            entries >= 25,
            "{entries} of the 30 handwritten glyphs are entries"
        );
        // Print alone: one consistent group, nothing moves.
        let shapes = Shapes::new(&refs[..24]);
        let alone = print_apart_from_hand(vec![Author::Given; 24], &shapes);
        assert!(alone.iter().all(|&a| a == Author::Given));
    }
}
