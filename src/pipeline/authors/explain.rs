//! What explains two shades besides two authors: the cells' backgrounds (one ink on plain and
//! highlighted cells, tinted where thin strokes let the highlight through). The glyphs'
//! places in the grid (light falling across a photographed page) are weighed where the
//! groups are split (`groups.rs`).

use super::colour::{distance, dot, mean, sub};
use super::groups::{colour_groups, group_count, renumbered, split_means};

/// The fewest glyphs in the smaller group for the backgrounds to explain it: one share fitted
/// to the backgrounds explains a lone glyph's colour by chance (a red wrong entry beside a
/// highlight was joined to the givens).
const MIN_EXPLAINED: usize = 2;
/// The least difference (RGB distance) between two groups' mean cell backgrounds for the
/// backgrounds to explain anything.
const MIN_BACKGROUND_SHIFT: f32 = 8.0;
/// How much of the colour difference between two groups, as a share of what the split into
/// two groups explains, the cells' backgrounds must explain for the groups to be one author
/// (see [`backgrounds_explain`]).
const BACKGROUND_EXPLAINS: f32 = 0.7;

/// Joins each group to a larger one when the cells' backgrounds explain the difference in
/// colour between them (see [`backgrounds_explain`]); returns the groups renumbered 0, 1, ….
pub(super) fn join_shades_of_backgrounds(
    colours: &[[f32; 3]],
    backs: &[[f32; 3]],
    mut groups: Vec<usize>,
) -> Vec<usize> {
    let count = group_count(&groups);
    let size = |groups: &[usize], g: usize| groups.iter().filter(|&&k| k == g).count();
    let mut order: Vec<usize> = (0..count).collect();
    order.sort_by_key(|&g| std::cmp::Reverse(size(&groups, g)));
    for (rank, &small) in order.iter().enumerate().skip(1) {
        for &large in &order[..rank] {
            // A group joined to another earlier is empty now.
            if size(&groups, large) == 0 {
                continue;
            }
            let members: Vec<usize> = (0..colours.len())
                .filter(|&i| groups[i] == small || groups[i] == large)
                .collect();
            let points: Vec<[f32; 3]> = members.iter().map(|&i| colours[i]).collect();
            let under: Vec<[f32; 3]> = members.iter().map(|&i| backs[i]).collect();
            let part: Vec<bool> = members.iter().map(|&i| groups[i] == small).collect();
            if backgrounds_explain(&points, &under, &part) {
                members.iter().for_each(|&i| groups[i] = large);
                break;
            }
        }
    }
    renumbered(&groups)
}

/// Whether the two parts' difference in colour is what their cells' backgrounds (`backs`)
/// make of one ink, by either of two models of how a background shows through:
/// - a thin or small glyph never reaches its full colour, so it shows
///   `ink + share * (background - ink)`, and the givens on a highlighted row come out tinted
///   by the highlight. One share of lightness and one of hue, each fitted to all glyphs
///   (between 0 and 1): JPEG keeps hue at half the resolution of lightness, so a thin stroke
///   takes more of its background's hue than of its lightness (dark givens on pink highlights
///   came out redder, though the highlight is less red than the page);
/// - light falling unevenly on a photographed page scales ink and paper alike, so each
///   channel of a glyph's colour is one ratio of its cell's background (a photo's vignetting
///   darkened its corner givens' red print towards brown with the paper around them).
///
/// The model must explain at least `BACKGROUND_EXPLAINS` of what telling the two parts apart
/// explains. A player's entry in the selected cell is not explained: it differs in hue or
/// lightness where the highlight does not lead, and in ratio to the paper where the light
/// does not.
pub(super) fn backgrounds_explain(points: &[[f32; 3]], backs: &[[f32; 3]], part: &[bool]) -> bool {
    let (a, b) = split_means(backs, part);
    let marked = part.iter().filter(|&&k| k).count();
    let fewer = marked.min(part.len() - marked);
    if distance(a, b) < MIN_BACKGROUND_SHIFT || fewer < MIN_EXPLAINED {
        return false;
    }
    let explains = |points: &[[f32; 3]], model: &dyn Fn(usize) -> [f32; 3]| {
        let left_by = |model: &dyn Fn(usize) -> [f32; 3]| -> f32 {
            (points.iter().enumerate())
                .map(|(i, &p)| {
                    let d = sub(p, model(i));
                    dot(d, d)
                })
                .sum()
        };
        let colour_mean = mean(points.iter().copied());
        let (first, second) = split_means(points, part);
        let total = left_by(&|_| colour_mean);
        let split = left_by(&|i| if part[i] { second } else { first });
        total - left_by(model) >= BACKGROUND_EXPLAINS * (total - split)
    };
    let ratios = light_ratios(points, backs);
    if explains(points, &|i| [0, 1, 2].map(|k| backs[i][k] * ratios[k])) {
        return true;
    }
    let points: Vec<[f32; 3]> = points.iter().map(|&p| luma_chroma(p)).collect();
    let backs: Vec<[f32; 3]> = backs.iter().map(|&q| luma_chroma(q)).collect();
    let Some(shares) = tint_shares(&points, &backs, &vec![0; points.len()]) else {
        return false;
    };
    let (colour_mean, back_mean) = (mean(points.iter().copied()), mean(backs.iter().copied()));
    explains(&points, &|i| {
        let shift = sub(backs[i], back_mean);
        [0, 1, 2].map(|k| colour_mean[k] + shift[k] * shares[k])
    })
}

/// Per channel, the one ratio of the glyphs' colours (`points`) to their cells' backgrounds
/// (`backs`) that fits best (least squares through zero).
fn light_ratios(points: &[[f32; 3]], backs: &[[f32; 3]]) -> [f32; 3] {
    [0, 1, 2].map(|k| {
        let cross: f32 = points.iter().zip(backs).map(|(p, b)| p[k] * b[k]).sum();
        let spread: f32 = backs.iter().map(|b| b[k] * b[k]).sum();
        if spread > 0.0 {
            cross / spread
        } else {
            0.0
        }
    })
}

/// Each glyph's colour as it would show on the grid's `background`: thin strokes take some of
/// their own cell's background (`backs`), so a highlight tints the givens on it, sometimes
/// past a player's entries in a near hue (grey givens on a blue highlight came out bluer than
/// grey-blue entries on plain cells, and all were read as givens). How much is fitted to the
/// picture, one share for lightness and one for hue as in [`backgrounds_explain`]; colours are
/// left as they are unless enough glyphs sit on cells that differ from the background and
/// both shares lie between 0 and 1. The shares are fitted within colour groups, first of the
/// colours as they are, then of the colours without the tint: the tint can chain the authors
/// into one group, and without it they part.
pub(super) fn without_background_tint(
    colours: &[[f32; 3]],
    backs: &[[f32; 3]],
    background: [f32; 3],
) -> Vec<[f32; 3]> {
    let shifted = backs
        .iter()
        .filter(|&&b| distance(b, background) >= MIN_BACKGROUND_SHIFT)
        .count();
    if shifted < MIN_EXPLAINED {
        return colours.to_vec();
    }
    let points: Vec<[f32; 3]> = colours.iter().map(|&p| luma_chroma(p)).collect();
    let unders: Vec<[f32; 3]> = backs.iter().map(|&q| luma_chroma(q)).collect();
    let reference = luma_chroma(background);
    let mut adjusted = colours.to_vec();
    for _ in 0..2 {
        let groups = colour_groups(&adjusted);
        let Some(shares) = tint_shares(&points, &unders, &groups) else {
            return colours.to_vec();
        };
        adjusted = (points.iter().zip(&unders))
            .map(|(&p, &q)| {
                let shift = sub(q, reference);
                rgb_of([0, 1, 2].map(|k| p[k] - shares[k] * shift[k]))
            })
            .collect();
    }
    adjusted
}

/// The shares of lightness and hue (see [`without_background_tint`]) that the glyphs
/// (`points`, in lightness and hue) take from their cells' backgrounds (`unders`), fitted
/// within each colour group (`groups`) so that two authors on different backgrounds do not
/// pass for a tint; `None` unless both lie between 0 and 1.
fn tint_shares(points: &[[f32; 3]], unders: &[[f32; 3]], groups: &[usize]) -> Option<[f32; 3]> {
    let count = group_count(groups);
    // Per channel: how the glyphs' colours vary with their backgrounds', and how much the
    // backgrounds vary; channel 0 is lightness, 1 and 2 hue.
    let (mut cross, mut spread) = ([0.0f32; 3], [0.0f32; 3]);
    for g in 0..count {
        let members = || (0..points.len()).filter(move |&i| groups[i] == g);
        let colour_mean = mean(members().map(|i| points[i]));
        let back_mean = mean(members().map(|i| unders[i]));
        for i in members() {
            let (dp, dq) = (sub(points[i], colour_mean), sub(unders[i], back_mean));
            for k in 0..3 {
                cross[k] += dp[k] * dq[k];
                spread[k] += dq[k] * dq[k];
            }
        }
    }
    let share = |channels: &[usize]| {
        let c: f32 = channels.iter().map(|&k| cross[k]).sum();
        let s: f32 = channels.iter().map(|&k| spread[k]).sum();
        if s > 0.0 {
            c / s
        } else {
            0.0
        }
    };
    let shares = [share(&[0]), share(&[1, 2]), share(&[1, 2])];
    shares
        .iter()
        .all(|s| (0.0..1.0).contains(s))
        .then_some(shares)
}

/// The RGB colour of lightness and two hue differences (the inverse of [`luma_chroma`]).
fn rgb_of([y, cb, cr]: [f32; 3]) -> [f32; 3] {
    [
        y + 1.402 * cr,
        y - 0.344_136 * cb - 0.714_136 * cr,
        y + 1.772 * cb,
    ]
}

/// An RGB colour as lightness and two hue differences (JPEG's Y, Cb, Cr).
fn luma_chroma([r, g, b]: [f32; 3]) -> [f32; 3] {
    [
        0.299 * r + 0.587 * g + 0.114 * b,
        -0.1687 * r - 0.3313 * g + 0.5 * b,
        0.5 * r - 0.4187 * g - 0.0813 * b,
    ]
}
