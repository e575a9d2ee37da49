//! Stroke weight: a player's entries drawn in another weight of the givens' face.
//!
//! Apps draw the givens bold and the entries regular (or the other way round) as often as in
//! another colour, and some do both in shades near enough that colour alone cannot tell them
//! apart. One weight's strokes are equally wide in every digit, so the glyphs of one author
//! share a stroke width, measured here on each glyph's anti-aliased ink, in square-picture
//! pixels. Two clearly separate widths are two authors; which is the player's is known only
//! by count (the givens outnumber the rest), so the split is weak: the givens without the
//! lighter group's glyphs must still have one solution (see [`super::Glyph::sure_author`]).

use crate::pipeline::cells::Glyph;

/// Two weights are told apart when their widths' logarithms lie this many of their own
/// standard deviations apart.
const SEPARATION: f32 = 6.0;
/// ... and the wider weight's strokes are at least this many times as wide as the narrower's:
/// blur and compression thicken a page's small digits a little, never by this much.
const MIN_RATIO: f32 = 1.2;
/// The spread (standard deviation of the logarithm) assumed on top of what a group shows, so
/// that identically rendered glyphs make no difference significant.
const WIDTH_NOISE: f32 = 0.03;
/// The fewest glyphs on each side of a split: a lone glyph's width is one digit's shape.
const MIN_SIDE: usize = 2;

/// The glyph's mean stroke width in square-picture pixels: twice its ink's area over the
/// length of its outline (a stroke `w` wide and `l` long has area `w l` and outline `2 l`).
/// Both are measured on the anti-aliased ink, area as summed ink and outline as summed
/// gradient, so strokes narrower than a pixel keep their width.
pub(super) fn stroke_width(glyph: &Glyph) -> f32 {
    let ink = &glyph.ink;
    let (w, h) = (i64::from(ink.width()), i64::from(ink.height()));
    let at = |x: i64, y: i64| -> f32 {
        if (0..w).contains(&x) && (0..h).contains(&y) {
            f32::from(ink.get_pixel(x as u32, y as u32).0[0]) / 255.0
        } else {
            0.0
        }
    };
    let (mut area, mut outline) = (0.0, 0.0);
    // From one pixel outside the box, so that the ink's first edge is counted too.
    for y in -1..h {
        for x in -1..w {
            let v = at(x, y);
            area += v;
            let (dx, dy) = (at(x + 1, y) - v, at(x, y + 1) - v);
            outline += (dx * dx + dy * dy).sqrt();
        }
    }
    if outline <= 0.0 || h == 0 {
        return 0.0;
    }
    2.0 * area / outline * glyph.height as f32 / h as f32
}

/// Of glyphs with stroke `widths`, which stand clearly apart in weight from the others (the
/// smaller side of the clearest split into two weights); `None` when they are one weight.
pub(super) fn apart_in_weight(widths: &[f32]) -> Option<Vec<bool>> {
    let mut order: Vec<usize> = (0..widths.len()).filter(|&i| widths[i] > 0.0).collect();
    order.sort_by(|&a, &b| widths[a].total_cmp(&widths[b]));
    let logs: Vec<f32> = order.iter().map(|&i| widths[i].ln()).collect();
    let (cut, separation) = (MIN_SIDE..=logs.len().saturating_sub(MIN_SIDE))
        .map(|k| (k, separation(&logs[..k], &logs[k..])))
        .max_by(|a, b| a.1.total_cmp(&b.1))?;
    let (narrow, wide) = (&logs[..cut], &logs[cut..]);
    if separation < SEPARATION || mean(wide) - mean(narrow) < MIN_RATIO.ln() {
        return None;
    }
    let minority = if narrow.len() < wide.len() {
        &order[..cut]
    } else {
        &order[cut..]
    };
    let mut apart = vec![false; widths.len()];
    minority.iter().for_each(|&i| apart[i] = true);
    Some(apart)
}

fn mean(values: &[f32]) -> f32 {
    values.iter().sum::<f32>() / values.len() as f32
}

/// How many pooled standard deviations (noise included) apart the means of `a` and `b` lie.
fn separation(a: &[f32], b: &[f32]) -> f32 {
    let squares = |v: &[f32]| -> f32 {
        let m = mean(v);
        v.iter().map(|x| (x - m).powi(2)).sum()
    };
    let n = (a.len() + b.len()) as f32;
    let spread = ((squares(a) + squares(b)) / (n - 2.0).max(1.0) + WIDTH_NOISE.powi(2)).sqrt();
    (mean(b) - mean(a)) / spread
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_weights_are_told_apart_and_one_is_not() {
        // Measured on a green web page: hairline givens (2.6-3.3 px) beside a player's
        // regular-weight entries (4.1-5.1 px) in a near shade.
        let widths = [
            2.56, 2.75, 2.77, 2.77, 2.77, 2.78, 2.80, 2.80, 2.83, 2.83, 2.84, 2.94, 2.95, 2.97,
            3.03, 3.03, 3.03, 3.06, 3.07, 3.07, 3.16, 3.29, 3.30, 4.13, 4.18, 4.20, 4.24, 4.38,
            4.42, 4.46, 4.51, 4.52, 4.56, 4.69, 4.74, 4.75, 4.76, 4.77, 5.06, 5.10,
        ];
        let apart = apart_in_weight(&widths).unwrap();
        assert_eq!(apart.iter().filter(|&&a| a).count(), 17);
        assert!(apart[23..].iter().all(|&a| a));
        // One weight spread by blur and compression (2.56-3.0 px measured on a JPEG desktop).
        let one: Vec<f32> = (0..40).map(|i| 2.56 + 0.011 * i as f32).collect();
        assert_eq!(apart_in_weight(&one), None);
        // Two widths only slightly apart are one weight, however tight.
        let mut near: Vec<f32> = vec![3.0; 20];
        near.extend([3.3; 10]);
        assert_eq!(apart_in_weight(&near), None);
        assert_eq!(apart_in_weight(&[]), None);
    }

    #[test]
    fn a_strokes_width_is_its_width_at_any_length() {
        let mut glyph = Glyph::sketch(20, 40, [0, 0, 0]);
        for y in 2..38 {
            for x in 8..12 {
                glyph.ink.put_pixel(x, y, image::Luma([255]));
            }
        }
        let width = stroke_width(&glyph);
        assert!((width - 4.0).abs() < 0.5, "{width}");
    }
}
