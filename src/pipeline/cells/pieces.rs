//! Which pieces of a cell's ink make its glyph: pieces within reach of the largest one near
//! the centre, or joined to it by a faint stroke, are one glyph; rows and columns of pencil
//! marks, specks and grid-line slivers are not.

use crate::pipeline::mask::component_labels;
use crate::pipeline::rectify::CELL;

/// A piece of ink's box in a cell: first column, first row, last column, last row.
pub(super) type PieceBox = (u32, u32, u32, u32);

/// How pieces of ink near the central glyph join it.
#[derive(Clone, Copy)]
pub(super) struct Join {
    /// How far across from a joined piece's box (pixels) a piece joins.
    pub(super) across: u32,
    /// How far up and down.
    pub(super) up_down: u32,
    /// Whether pieces near a speck already joined join too: a chain of specks is what a
    /// hairline stroke leaves at screen sizes.
    pub(super) through_specks: bool,
    /// Whether only pieces wholly inside the cell's area join: one touching its top or
    /// bottom edge is a neighbour's descender reaching in.
    pub(super) inside_only: bool,
    /// Whether pieces spanning the cell's area from one edge to the opposite one are left
    /// out altogether: no digit does, a grid line's remnant or a shadow along the grid's
    /// edge does. What is left of an outsized glyph without them is its digit, if any.
    pub(super) without_spans: bool,
}

/// See [`is_column_of_marks`].
const COLUMN_PIECE: f32 = 0.45;

/// The join of every cell: a glyph broken by JPEG or print stays whole.
pub(super) const JOIN: Join = Join {
    across: (0.08 * CELL as f32) as u32,
    up_down: (0.08 * CELL as f32) as u32,
    through_specks: false,
    inside_only: false,
    without_spans: false,
};

/// The pieces of ink that make one glyph with `main`: those within reach of it (see
/// [`Join`]) and, when the join goes through specks, of a speck already joined. A hairline
/// stroke breaks into a chain of specks at screen sizes (a didone `7`'s diagonal), each near
/// the next but not all near the glyph's largest piece.
pub(super) fn join_pieces(
    boxes: &[PieceBox],
    main: PieceBox,
    join: Join,
    speck: u32,
    bridges: &Bridges,
) -> Vec<PieceBox> {
    // A faint stroke joins a piece beside or above the main one (sharing its columns or its
    // rows), into a box taller than wide, as a digit's: a grid line's remnant along the
    // cell's edge or at its corner, joined to a digit by a photo's shading, is not.
    let bridged = |b: &PieceBox| {
        let (x0, y0, x1, y1) = (
            main.0.min(b.0),
            main.1.min(b.1),
            main.2.max(b.2),
            main.3.max(b.3),
        );
        let shares = (b.0 <= main.2 && b.2 >= main.0) || (b.1 <= main.3 && b.3 >= main.1);
        shares && x1 - x0 <= y1 - y0 && bridges.bridged(&main, b)
    };
    let near = |a: &PieceBox, b: &PieceBox| {
        let close = b.0 <= a.2 + join.across
            && b.2 + join.across >= a.0
            && b.1 <= a.3 + join.up_down
            && b.3 + join.up_down >= a.1;
        close || bridged(b)
    };
    let mut joined = vec![main];
    let mut links = vec![main];
    let mut rest: Vec<_> = boxes.iter().filter(|&&b| b != main).copied().collect();
    while let Some(i) = rest.iter().position(|b| links.iter().any(|j| near(j, b))) {
        let b = rest.swap_remove(i);
        if join.through_specks && is_speck(&b, speck) {
            links.push(b);
        }
        joined.push(b);
    }
    joined
}

/// Which pieces of ink faint strokes join: each piece's box with the faint component it lies
/// in. A high-contrast face's hairlines, in a player's lighter colour, fall under the ink
/// threshold and leave a `5`'s bar and bowl as two pieces too far apart to join, its bowl
/// alone read as a `1`; at half the threshold (where the glyph's ink is still drawn) the
/// hairline joins them.
pub(super) struct Bridges(Vec<(PieceBox, u32)>);

impl Bridges {
    /// No faint components: pieces join by reach alone.
    pub(super) fn none() -> Bridges {
        Bridges(Vec::new())
    }

    /// Whether pieces `a` and `b` lie in one faint component.
    fn bridged(&self, a: &PieceBox, b: &PieceBox) -> bool {
        let of = |p: &PieceBox| self.0.iter().find(|(q, _)| q == p).map(|&(_, l)| l);
        matches!((of(a), of(b)), (Some(x), Some(y)) if x == y)
    }
}

/// The faint components (of `faint`, a mask holding all of `mask`, both `w` pixels wide and
/// row-major) that the pieces (`boxes`, the components of `mask` in scan order) lie in.
pub(super) fn faint_bridges(mask: &[bool], faint: &[bool], boxes: &[PieceBox], w: u32) -> Bridges {
    let h = mask.len() as u32 / w;
    let strong = component_labels(mask, w, h);
    let weak = component_labels(faint, w, h);
    // Each piece's first pixel in scan order is on its box's top row.
    let pieces = (boxes.iter().enumerate())
        .filter_map(|(k, b)| {
            let first = (b.0..=b.2).find(|&x| strong[(b.1 * w + x) as usize] == k as u32)?;
            Some((*b, weak[(b.1 * w + first) as usize]))
        })
        .collect();
    Bridges(pieces)
}

/// Whether a piece is shorter and narrower than `speck` pixels.
pub(super) fn is_speck(b: &PieceBox, speck: u32) -> bool {
    b.2 - b.0 + 1 < speck && b.3 - b.1 + 1 < speck
}

/// Whether the pieces joined into one glyph are pencil marks written in a row ("2356" across
/// the cell's middle): several pieces side by side, none above another, spanning a box wider
/// than tall. A digit is taller than wide, and the pieces of a broken digit overlap
/// horizontally.
pub(super) fn is_row_of_marks(
    pieces: &[(u32, u32, u32, u32)],
    joined: (u32, u32, u32, u32),
) -> bool {
    let (w, h) = (joined.2 - joined.0 + 1, joined.3 - joined.1 + 1);
    if pieces.len() < 2 || w * 5 <= h * 6 {
        return false;
    }
    let mut spans: Vec<(u32, u32)> = pieces.iter().map(|b| (b.0, b.2)).collect();
    none_overlap(&mut spans)
}

/// Whether the pieces joined into one glyph are pencil marks one above another (a `2` over a
/// `5` of a 3x3 layout, close enough to join): at least two pieces besides specks, stacked
/// without overlapping, none as much as `COLUMN_PIECE` of the column's height. A digit broken
/// apart keeps a piece at least half its height (a `5`'s bowl, a `7`'s stem, an `8`'s loop).
pub(super) fn is_column_of_marks(pieces: &[PieceBox], joined: PieceBox, speck: u32) -> bool {
    let h = joined.3 - joined.1 + 1;
    let mut spans = row_spans(pieces, speck);
    spans.len() >= 2
        && none_overlap(&mut spans)
        && (spans.iter())
            .all(|&(top, bottom)| ((bottom - top + 1) as f32) < COLUMN_PIECE * h as f32)
}

/// How many of the cell's `boxes` not `joined` to the glyph (whose box is `glyph`) stand
/// beside it in its row: at least half its height, sharing at least half the rows of the
/// shorter of the two, and not overlapping it across.
pub(super) fn row_mates(boxes: &[PieceBox], joined: &[PieceBox], glyph: PieceBox) -> usize {
    let height = |b: &PieceBox| b.3 - b.1 + 1;
    (boxes.iter())
        .filter(|b| !joined.contains(b))
        .filter(|b| 2 * height(b) >= height(&glyph))
        .filter(|b| b.2 < glyph.0 || b.0 > glyph.2)
        .filter(|b| {
            let shared = (b.3.min(glyph.3) + 1).saturating_sub(b.1.max(glyph.1));
            2 * shared >= height(b).min(height(&glyph))
        })
        .count()
}

/// When the pieces (specks aside) fall into at least two tiers one above another, no piece
/// sharing rows with another tier: the tallest tier's height. A tier is a run of pieces
/// whose rows overlap (a mark broken in two is one tier).
pub(super) fn stacked_height(pieces: &[PieceBox], speck: u32) -> Option<u32> {
    let mut spans = row_spans(pieces, speck);
    spans.sort_unstable();
    let mut tiers: Vec<(u32, u32)> = Vec::new();
    for (top, bottom) in spans {
        match tiers.last_mut() {
            Some(last) if top <= last.1 => last.1 = last.1.max(bottom),
            _ => tiers.push((top, bottom)),
        }
    }
    (tiers.len() >= 2)
        .then(|| tiers.iter().map(|&(top, bottom)| bottom - top + 1).max())
        .flatten()
}

/// The rows (first and last) each piece spans, specks left out.
pub(super) fn row_spans(pieces: &[PieceBox], speck: u32) -> Vec<(u32, u32)> {
    (pieces.iter())
        .filter(|b| !is_speck(b, speck))
        .map(|b| (b.1, b.3))
        .collect()
}

/// Whether no two of the pieces' `spans` (first and last pixel along one axis) overlap;
/// sorts them.
pub(super) fn none_overlap(spans: &mut [(u32, u32)]) -> bool {
    spans.sort_unstable();
    spans.windows(2).all(|p| p[1].0 > p[0].1)
}

/// A thin component along the cell's edge: what is left of a grid line. A line runs along a
/// side of the cell, never through its middle: a tall plain `1` reaching the area's bottom
/// is as thin and as long, but centred across (a tablet app's digits 0.76 of the cell tall:
/// two `1`s were dropped as slivers).
pub(super) fn is_line_sliver(b: &(u32, u32, u32, u32), w: u32, h: u32) -> bool {
    let touches = b.0 == 0 || b.1 == 0 || b.2 + 1 >= w || b.3 + 1 >= h;
    let (bw, bh) = (b.2 - b.0 + 1, b.3 - b.1 + 1);
    // Centred: its middle within the middle half of the cell, along `len`.
    let centred = |first: u32, last: u32, len: u32| (first + last + 1).abs_diff(len) * 2 < len;
    let upright = bw * 7 <= w && bh >= h * 3 / 4 && !centred(b.0, b.2, w);
    let level = bh * 7 <= h && bw >= w * 3 / 4 && !centred(b.1, b.3, h);
    touches && (upright || level)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::mask::component_boxes;

    #[test]
    fn a_tall_one_reaching_the_areas_edge_is_no_line_sliver() {
        // Measured on a tablet app: a plain `1` 0.76 of the cell tall, its foot on the
        // area's bottom edge, 6 of the area's 45 px wide.
        assert!(!is_line_sliver(&(20, 3, 25, 45), 45, 46));
        // What grid lines leave: along a side, and along the top.
        assert!(is_line_sliver(&(0, 0, 2, 45), 45, 46));
        assert!(is_line_sliver(&(42, 4, 44, 40), 45, 46));
        assert!(is_line_sliver(&(0, 0, 44, 2), 45, 46));
    }

    #[test]
    fn pencil_marks_in_a_row_are_not_a_digit() {
        // "689" written across the cell's middle: three pieces side by side.
        let pieces = [(0, 0, 5, 12), (7, 0, 12, 12), (14, 1, 19, 12)];
        assert!(is_row_of_marks(&pieces, (0, 0, 19, 12)));
    }

    #[test]
    fn marks_beside_a_glyph_in_its_row_are_counted() {
        // "2568" across the cell: the `5` (the glyph) has the `2`, `6` and `8` beside it.
        let boxes = [
            (0, 4, 5, 12),
            (8, 4, 13, 12),
            (16, 0, 21, 12),
            (24, 0, 29, 12),
        ];
        assert_eq!(row_mates(&boxes, &boxes[1..2], boxes[1]), 3);
        // A speck beside it, and a mark in the row below, are not.
        let apart = [(8, 4, 13, 12), (15, 10, 16, 11), (8, 16, 13, 24)];
        assert_eq!(row_mates(&apart, &apart[..1], apart[0]), 0);
    }

    /// A `w` x `h` cell's pieces of ink where `strength` passes 50, their faint bridges
    /// (where it passes half of that) and the pieces' boxes.
    fn bridged_pieces(
        (w, h): (u32, u32),
        strength: impl Fn(u32, u32) -> i32,
    ) -> (Bridges, Vec<PieceBox>, Vec<bool>) {
        let over = |cut: i32| -> Vec<bool> {
            (0..h)
                .flat_map(|y| (0..w).map(move |x| (x, y)))
                .map(|(x, y)| strength(x, y) * 2 > cut)
                .collect()
        };
        let (mask, faint) = (over(100), over(49));
        let boxes = component_boxes(&mask, w, h);
        (faint_bridges(&mask, &faint, &boxes, w), boxes, mask)
    }

    #[test]
    fn a_faint_hairline_joins_a_digits_pieces() {
        // A high-contrast `5` in a light entry colour: its bar (rows 0-2) and its bowl (rows
        // 12-29) pass the ink threshold, the hairline stem between them (down column 2, then
        // across to the bowl) only half of it. Ten rows apart, the pieces are out of the usual
        // reach.
        let (bridges, boxes, mask) = bridged_pieces((16, 30), |x, y| match (x, y) {
            (2..=13, 0..=2) | (6..=13, 12..=29) => 100,
            (2, 3..=11) | (3..=5, 11) => 30,
            _ => 0,
        });
        assert_eq!(boxes, vec![(2, 0, 13, 2), (6, 12, 13, 29)]);
        let (bar, bowl) = (boxes[0], boxes[1]);
        let near = Join {
            across: 4,
            up_down: 4,
            ..JOIN
        };
        assert_eq!(join_pieces(&boxes, bowl, near, 3, &bridges).len(), 2);
        // Without the hairline the bowl stands alone.
        let apart = faint_bridges(&mask, &mask, &boxes, 16);
        assert_eq!(join_pieces(&boxes, bowl, near, 3, &apart), vec![bowl]);
        assert!(!apart.bridged(&bar, &bowl));
        // A grid line's remnant along the cell's bottom, joined to a digit by a photo's faint
        // shading (measured: a 16x23 digit and a 47x7 remnant), stays apart; nor does a speck
        // of a line crossing at the cell's corner, below and beside the digit (a 20x28 digit
        // and a 5x7 speck).
        let remnant = |x, y| match (x, y) {
            (15..=30, 12..=34) | (0..=46, 39..=45) => 100,
            (20, 35..=38) => 30,
            _ => 0,
        };
        let speck = |x, y| match (x, y) {
            (14..=33, 7..=34) | (39..=43, 37..=43) => 100,
            (34..=38, 35..=36) => 30,
            _ => 0,
        };
        for (bridges, boxes, _) in [
            bridged_pieces((48, 46), remnant),
            bridged_pieces((48, 46), speck),
        ] {
            assert!(bridges.bridged(&boxes[0], &boxes[1]));
            let joined = join_pieces(&boxes, boxes[0], near, 3, &bridges);
            assert_eq!(joined, vec![boxes[0]]);
        }
    }

    #[test]
    fn pieces_one_above_another_fall_into_tiers() {
        // An old-style `5` mark (its flag apart from its bowl, overlapping rows) over an `8`:
        // two tiers, the taller 12 rows.
        let marks = [(1, 0, 6, 4), (0, 3, 6, 11), (0, 14, 6, 24)];
        assert_eq!(stacked_height(&marks, 3), Some(12));
        // A digit broken down its middle: one tier.
        let split = [(0, 0, 4, 24), (6, 2, 12, 24)];
        assert_eq!(stacked_height(&split, 3), None);
        // Specks do not make a tier.
        let speck = [(0, 0, 6, 20), (2, 22, 3, 23)];
        assert_eq!(stacked_height(&speck, 3), None);
    }

    #[test]
    fn pencil_marks_one_above_another_are_not_a_digit() {
        // A `2` over a `5` of a 3x3 layout, close enough to join.
        let marks = [(20, 0, 26, 9), (20, 14, 26, 23)];
        assert!(is_column_of_marks(&marks, (20, 0, 26, 23), 3));
        // A `5` whose flag came apart from its bowl, and an `8` in two loops: a piece at
        // least half the digit's height.
        let five = [(2, 0, 14, 3), (0, 5, 15, 24)];
        assert!(!is_column_of_marks(&five, (0, 0, 15, 24), 3));
        let eight = [(1, 0, 13, 11), (0, 12, 14, 24)];
        assert!(!is_column_of_marks(&eight, (0, 0, 14, 24), 3));
        // Side by side, not stacked.
        let row = [(0, 0, 6, 9), (10, 0, 16, 9)];
        assert!(!is_column_of_marks(&row, (0, 0, 16, 9), 3));
    }

    #[test]
    fn a_digit_broken_in_two_is_still_a_digit() {
        // A 5 whose top bar came apart from its bowl: the pieces overlap horizontally.
        let pieces = [(2, 0, 14, 3), (0, 5, 15, 24)];
        assert!(!is_row_of_marks(&pieces, (0, 0, 15, 24)));
        // Side by side but taller than wide: a digit with a detached serif, not a row.
        let pieces = [(0, 0, 3, 24), (5, 0, 12, 24)];
        assert!(!is_row_of_marks(&pieces, (0, 0, 12, 24)));
    }

    /// A join 4 pixels each way that follows chains of specks.
    fn chain_join() -> Join {
        Join {
            across: 4,
            up_down: 4,
            through_specks: true,
            inside_only: false,
            without_spans: false,
        }
    }

    #[test]
    fn a_hairline_broken_into_specks_joins_its_digit_when_asked() {
        // A Bodoni 7 of a typeset page in a 56 px cell: the bar, the diagonal's hairline as
        // single pixels two rows apart, the foot.
        let bar = (17, 15, 27, 18);
        let foot = (20, 26, 23, 32);
        let boxes = [
            bar,
            (26, 18, 26, 18),
            (25, 20, 25, 20),
            (24, 22, 24, 22),
            (23, 24, 23, 24),
            foot,
        ];
        let join = chain_join();
        let joined = join_pieces(&boxes, bar, join, 3, &Bridges::none());
        assert_eq!(joined.len(), 6);
        assert!(joined.contains(&foot));
        let plain = Join {
            through_specks: false,
            ..join
        };
        assert!(!join_pieces(&boxes, bar, plain, 3, &Bridges::none()).contains(&foot));
    }

    #[test]
    fn a_column_of_pencil_marks_does_not_chain_into_one_glyph() {
        // Marks 1, 4 and 7 of a 3x3 layout: each near the next, none a speck.
        let (top, middle, bottom) = ((0, 0, 5, 10), (0, 13, 5, 22), (0, 25, 5, 34));
        let join = chain_join();
        let joined = join_pieces(&[top, middle, bottom], top, join, 3, &Bridges::none());
        assert_eq!(joined, vec![top, middle]);
    }
}
