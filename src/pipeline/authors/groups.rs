//! The glyphs' colours grouped: tight groups split where they lie much further apart than
//! the picture's own colour noise, mixed groups bisected along their widest direction, lone
//! glyphs and other inks set apart.

use super::colour::{
    across_squared, best_cut, chroma, covariance, distance, dot, main_axis, mean, solve3, sub,
};
use super::shapes::Shapes;
use crate::puzzle::board::MIN_GIVENS;

/// The colour noise assumed per channel on top of a group's own spread when judging a lone
/// glyph: anti-aliasing of a thin digit alone moves its colour a few levels (3 against 4
/// measured: tune +3 grids exact, photos +1, nothing lost).
const LONE_NOISE: f32 = 3.0;
/// Two sub-groups of one colour group are told apart when their means lie this many of their
/// own standard deviations apart along the direction that best separates them: single
/// linkage chains two near shades through glyphs whose anti-aliased strokes never reach their
/// full colour, but the shades still separate cleanly along one direction.
const SUBGROUP_SEPARATION: f32 = 8.0;
/// One digit is given at most nine times, so two shades of more glyphs than this each are not
/// one digit's shape reaching its colour differently (the split `SUBGROUP_SEPARATION`
/// guards against) ...
pub(super) const MAX_INSTANCES: usize = 9;
/// A lone glyph this far (RGB distance) off the line from the background through a group's
/// colour has another ink, however near the group it lies ...
const MIN_OFF_LINE: f32 = 12.0;
/// ... when it is also this many times further off it than the group's glyphs are.
const OFF_LINE_FACTOR: f32 = 4.0;
/// The share of the difference between two shades that the glyphs' places must explain for
/// the shades to be light across the page (0.94 on a dim photo shaded top to bottom; 0.03
/// and 0.005 on two screenshots with a player's entries).
const POSITION_EXPLAINS: f32 = 0.5;
/// The share of glyphs whose colour may stray from their shade without hiding it (see
/// [`robust_spread`]).
const TRIMMED: f32 = 0.1;
/// Two shades whose means differ this much (RGB distance) across the line from the background
/// through them differ in hue, which anti-aliasing and compression do not make, so they are
/// far enough apart to be two authors however near in brightness.
const SUBGROUP_HUE: f32 = 10.0;
/// ... and their mean colours at least this far apart (RGB distance): closer shades are
/// anti-aliasing and compression, not two authors.
const SUBGROUP_DISTANCE: f32 = 16.0;
/// Groups are split when they lie this many times further apart than the typical distance
/// between a glyph's colour and its nearest neighbour's.
const SPLIT_FACTOR: f32 = 5.0;
/// ... and split at this separation instead: a dark app's grey givens beside 25 blue entries,
/// 7.4 standard deviations apart, were all read as givens.
const SEVERAL_DIGITS_SEPARATION: f32 = 6.0;
/// Two shades that each hold glyphs of clearly different shapes (see [`Shapes`](super::shapes::Shapes)) split at this
/// separation, weakly: no one digit's shape explains either, so a clean gap between them may
/// be two authors (near-colour entries beside thin givens, 4.4 to 7.9 standard deviations
/// apart on tune seeds 1-2, were all read as givens), but blur and JPEG also part a page's
/// thin digits from its bold ones that far (4.2 to 6.4 on the same seeds). Glyphs set apart
/// so are entries only while the givens without them have one solution (see
/// [`super::Glyph::sure_author`]).
const MIXED_SHAPES_SEPARATION: f32 = 4.0;
/// Groups closer than this (RGB distance) are one group, however tight each is: small and
/// thin glyphs never reach their full colour, and how close they come varies with the digit.
pub(super) const MIN_SPLIT: f32 = 24.0;
/// How far a lone glyph's colour must be from the nearest group to be a group of its own.
pub(super) const LONE_SPLIT: f32 = 60.0;
/// A lone glyph this many of the nearest group's standard deviations away from it has a
/// colour of its own (see [`spread_distance`]).
const LONE_SEPARATION: f32 = 8.0;
/// A group of fewer glyphs than this is a lone glyph: light and shadow across a photo make one
/// glyph darker or lighter than the rest, so a lone glyph splits off only when it is far away
/// (`LONE_SPLIT`) or of another colourfulness (a red wrong entry).
const LONE: usize = 3;
/// The colour noise (standard deviation, grey levels) assumed on top of what a group shows,
/// so a group of identically rendered glyphs does not make any difference significant.
const COLOUR_NOISE: f32 = 2.0;
/// A lone glyph and a group whose colourfulness differs by less than this are alike in it.
const CHROMA_TIE: f32 = 30.0;
/// Each colour's group (0, 1, …): colours closer than the picture's split distance are
/// linked, and a group is what links together.
pub(super) fn colour_groups(colours: &[[f32; 3]]) -> Vec<usize> {
    let split = split_distance(colours);
    let n = colours.len();
    let mut group = vec![usize::MAX; n];
    let mut next = 0;
    for start in 0..n {
        if group[start] != usize::MAX {
            continue;
        }
        group[start] = next;
        let mut stack = vec![start];
        while let Some(i) = stack.pop() {
            for j in 0..n {
                if group[j] == usize::MAX && distance(colours[i], colours[j]) < split {
                    group[j] = next;
                    stack.push(j);
                }
            }
        }
        next += 1;
    }
    group
}

/// Splits each colour group that holds two clearly separate shades (see
/// [`SUBGROUP_SEPARATION`]); a group large enough to be the givens is split only when one part
/// still is (a puzzle has at least `MIN_GIVENS` givens, and highlights or blur spread the
/// givens' own shade). `places` are the glyphs' cells (row, column). Returns the groups and
/// whether a weak split (see [`bisect`]), allowed by `allow_weak`, was made.
pub(super) fn split_mixed_groups(
    colours: &[[f32; 3]],
    background: [f32; 3],
    places: &[(f32, f32)],
    shapes: &Shapes,
    allow_weak: bool,
    mut groups: Vec<usize>,
) -> (Vec<usize>, bool) {
    let count = group_count(&groups);
    let mut next = count;
    let mut any_weak = false;
    for g in 0..count {
        let members = members_of(&groups, g);
        let Some((part, weak)) = bisect(colours, background, places, shapes, allow_weak, &members)
        else {
            continue;
        };
        let moved = part.iter().filter(|&&b| b).count();
        let kept = members.len() - moved;
        if members.len() >= MIN_GIVENS && kept.max(moved) < MIN_GIVENS {
            continue;
        }
        for (&i, &b) in members.iter().zip(&part) {
            if b {
                groups[i] = next;
            }
        }
        next += 1;
        any_weak |= weak;
    }
    (groups, any_weak)
}

/// Two clearly separate shades within `members`: which members belong to the second, and
/// whether the split is weak (two shades of mixed shapes, nearer than one digit's shape could
/// explain, see [`MIXED_SHAPES_SEPARATION`]); `None` when they are one shade. The split is
/// found like a two-class discriminant: start from the best cut along the colours' main axis,
/// then re-cut along the direction that separates the two parts best relative to their own
/// spread, until the parts settle.
pub(super) fn bisect(
    colours: &[[f32; 3]],
    background: [f32; 3],
    places: &[(f32, f32)],
    shapes: &Shapes,
    allow_weak: bool,
    members: &[usize],
) -> Option<(Vec<bool>, bool)> {
    if members.len() < 2 {
        return None;
    }
    let points: Vec<[f32; 3]> = members.iter().map(|&i| colours[i]).collect();
    // The refinement settles near where it starts: start from the main axis and from the
    // brightness and opponent-colour axes, and keep the clearest split.
    let starts = [
        main_axis(&points, COLOUR_NOISE),
        [1.0, 1.0, 1.0],
        [1.0, 0.0, -1.0],
        [1.0, -1.0, 0.0],
        [0.0, 1.0, -1.0],
    ];
    let best = starts
        .iter()
        .filter_map(|&start| refine_split(&points, start, background))
        .filter(|&(_, apart, far, _)| apart && far)
        .max_by(|a, b| a.0.total_cmp(&b.0))?;
    let (separation, .., part) = best;
    let moved = part.iter().filter(|&&b| b).count();
    let side = |want: bool| -> Vec<usize> {
        (members.iter().zip(&part))
            .filter(|p| *p.1 == want)
            .map(|p| *p.0)
            .collect()
    };
    let needed = if moved.min(part.len() - moved) > MAX_INSTANCES {
        SEVERAL_DIGITS_SEPARATION
    } else {
        SUBGROUP_SEPARATION
    };
    // A weak split is for telling entries from the givens: the group split holds them.
    let weak = separation < needed;
    if weak && (!allow_weak || members.len() < MIN_GIVENS) {
        return None;
    }
    if weak
        && (separation < MIXED_SHAPES_SEPARATION
            || !shapes.mixed(&side(false))
            || !shapes.mixed(&side(true)))
    {
        return None;
    }
    let places: Vec<(f32, f32)> = members.iter().map(|&i| places[i]).collect();
    (!follows_position(&points, &places, &part)).then_some((part, weak))
}

/// From the best cut along `start`, re-cuts along the discriminant direction until the parts
/// settle; returns the separation (distance between the parts' means along that direction in
/// their pooled standard deviations), whether the parts do not overlap along it, whether
/// their means are `SUBGROUP_DISTANCE` apart, and the parts.
fn refine_split(
    points: &[[f32; 3]],
    start: [f32; 3],
    background: [f32; 3],
) -> Option<(f32, bool, bool, Vec<bool>)> {
    let mut direction = start;
    let mut part = best_cut(points, direction);
    for _ in 0..8 {
        let (a, b) = split_means(points, &part);
        let within = within_covariance(points, &part, [a, b]);
        direction = solve3(within, sub(b, a))?;
        let next = best_cut(points, direction);
        if next == part {
            break;
        }
        part = next;
    }
    let (a, b) = split_means(points, &part);
    let norm = dot(direction, direction).sqrt().max(1e-9);
    let along: Vec<f32> = points.iter().map(|&p| dot(p, direction) / norm).collect();
    let (lo, hi) = (dot(a, direction) / norm, dot(b, direction) / norm);
    let spread = robust_spread(&along, &part, [lo, hi]);
    let side = |want: bool| {
        let values = along.iter().zip(&part).filter(move |p| *p.1 == want);
        let lowest = values.clone().map(|p| *p.0).fold(f32::MAX, f32::min);
        let highest = values.map(|p| *p.0).fold(f32::MIN, f32::max);
        (lowest, highest)
    };
    let ((low_a, high_a), (low_b, high_b)) = (side(false), side(true));
    let apart = high_a < low_b || high_b < low_a;
    let far = distance(a, b) >= SUBGROUP_DISTANCE || hue_apart(a, b, background) >= SUBGROUP_HUE;
    Some(((hi - lo).abs() / spread, apart, far, part))
}

/// The spread of values around their own part's mean (`means`: the first part's, then the
/// second's), as the root mean square of all but the largest `TRIMMED` of the deviations
/// (plus the assumed noise): a few glyphs that a highlight or a thin stroke pulls toward the
/// background would otherwise hide two clearly separate shades behind a wide standard
/// deviation (a phone app's lighter brown entries among its givens, three of them on
/// highlighted cells: 7.9 standard deviations apart untrimmed).
fn robust_spread(along: &[f32], part: &[bool], means: [f32; 2]) -> f32 {
    let mut squares: Vec<f32> = (along.iter().zip(part))
        .map(|(&x, &in_b)| (x - means[usize::from(in_b)]).powi(2))
        .collect();
    squares.sort_by(f32::total_cmp);
    let kept = squares.len() - (squares.len() as f32 * TRIMMED) as usize;
    let variance = squares[..kept].iter().sum::<f32>() / kept.max(1) as f32;
    (variance + COLOUR_NOISE * COLOUR_NOISE).sqrt()
}

/// The means of the two parts (`part[i]` true: the second).
pub(super) fn split_means(points: &[[f32; 3]], part: &[bool]) -> ([f32; 3], [f32; 3]) {
    let side = |want: bool| {
        points
            .iter()
            .zip(part)
            .filter(move |p| *p.1 == want)
            .map(|p| *p.0)
    };
    (mean(side(false)), mean(side(true)))
}

/// The pooled covariance of the points around their own part's mean, plus the assumed noise.
fn within_covariance(points: &[[f32; 3]], part: &[bool], means: [[f32; 3]; 2]) -> [[f32; 3]; 3] {
    covariance(points, |i| means[usize::from(part[i])], COLOUR_NOISE)
}

/// Moves the glyphs of each group large enough to be the givens that lie clearly off the line
/// from the background through the rest of the group (see [`off_ink_line`]) into a group of
/// their own, while the rest are still enough givens; returns the groups and whether any
/// glyph moved.
pub(super) fn split_off_other_inks(
    colours: &[[f32; 3]],
    background: [f32; 3],
    mut groups: Vec<usize>,
) -> (Vec<usize>, bool) {
    let count = group_count(&groups);
    let mut next = count;
    for g in 0..count {
        let members = members_of(&groups, g);
        if members.len() <= MIN_GIVENS {
            continue;
        }
        let off: Vec<usize> = (members.iter().copied())
            .filter(|&i| {
                let rest: Vec<[f32; 3]> = (members.iter())
                    .filter(|&&k| k != i)
                    .map(|&k| colours[k])
                    .collect();
                off_ink_line(&rest, colours[i], background)
            })
            .collect();
        if off.is_empty() || members.len() - off.len() < MIN_GIVENS {
            continue;
        }
        off.iter().for_each(|&i| groups[i] = next);
        next += 1;
    }
    (groups, next > count)
}

/// Joins each lone glyph's group to the nearest large group unless it is far from it, of
/// another colourfulness, or off the line from the `background` through that group's colour
/// (see [`off_ink_line`]); returns the groups renumbered 0, 1, ….
pub(super) fn absorb_lone_glyphs(
    colours: &[[f32; 3]],
    background: [f32; 3],
    mut groups: Vec<usize>,
) -> Vec<usize> {
    let count = group_count(&groups);
    let size = |groups: &[usize], g: usize| groups.iter().filter(|&&k| k == g).count();
    for g in 0..count {
        let members = members_of(&groups, g);
        if members.is_empty() || members.len() >= LONE {
            continue;
        }
        let nearest = members
            .iter()
            .flat_map(|&i| {
                (0..colours.len())
                    .filter(|&j| groups[j] != g && size(&groups, groups[j]) >= LONE)
                    .map(move |j| (distance(colours[i], colours[j]), i, j))
            })
            .min_by(|a, b| a.0.total_cmp(&b.0));
        if let Some((d, i, j)) = nearest {
            let alike = (chroma(colours[i]) - chroma(colours[j])).abs() < CHROMA_TIE;
            let target: Vec<[f32; 3]> = (0..colours.len())
                .filter(|&k| groups[k] == groups[j])
                .map(|k| colours[k])
                .collect();
            // Far outside the spread of a tight group (a screenshot's givens), a glyph is of
            // another colour even when near in absolute terms; light and shadow spread a
            // photo's givens so widely that a darker one stays inside.
            // Several glyphs of a lone group are judged by their mean colour: each of them
            // alone may stray, their mean less so.
            let own = mean(members.iter().map(|&m| colours[m]));
            let outside = (d >= MIN_SPLIT && spread_distance(&target, own) >= LONE_SEPARATION)
                || off_ink_line(&target, own, background);
            if d < LONE_SPLIT && alike && !outside {
                let target = groups[j];
                members.iter().for_each(|&m| groups[m] = target);
            }
        }
    }
    renumbered(&groups)
}

/// The groups numbered 0, 1, … in the order of their old numbers, with no gaps.
pub(super) fn renumbered(groups: &[usize]) -> Vec<usize> {
    let mut numbers: Vec<usize> = groups.to_vec();
    numbers.sort_unstable();
    numbers.dedup();
    groups
        .iter()
        .map(|g| numbers.binary_search(g).expect("a group of the list"))
        .collect()
}

/// How many groups `groups` (each glyph's group, numbered from 0) holds.
pub(super) fn group_count(groups: &[usize]) -> usize {
    groups.iter().max().map_or(0, |&g| g + 1)
}

/// The glyphs of group `g`.
pub(super) fn members_of(groups: &[usize], g: usize) -> Vec<usize> {
    (0..groups.len()).filter(|&i| groups[i] == g).collect()
}

/// How many of a group's own standard deviations (along the direction to it) a colour lies
/// from the group's mean: the group's covariance plus `LONE_NOISE` per channel.
fn spread_distance(group: &[[f32; 3]], colour: [f32; 3]) -> f32 {
    let m = mean(group.iter().copied());
    let c = covariance(group, |_| m, LONE_NOISE);
    let d = sub(colour, m);
    solve3(c, d).map_or(0.0, |x| dot(d, x).max(0.0).sqrt())
}

/// How far apart two colours must be to belong to different groups: several times the
/// typical nearest-neighbour distance (the noise within a group), and never less than
/// `MIN_SPLIT`.
fn split_distance(colours: &[[f32; 3]]) -> f32 {
    let mut nearest: Vec<f32> = colours
        .iter()
        .enumerate()
        .map(|(i, &a)| {
            colours
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .map(|(_, &b)| distance(a, b))
                .fold(f32::MAX, f32::min)
        })
        .collect();
    nearest.sort_by(f32::total_cmp);
    // The upper quartile: most glyphs have a same-group neighbour, a lone red entry does not.
    let noise = nearest[nearest.len() * 3 / 4];
    (SPLIT_FACTOR * noise).max(MIN_SPLIT)
}
/// Whether the glyphs' place in the grid explains most of the difference between the two
/// parts (a plane over rows and columns fitted to each glyph's colour along the direction
/// between the parts' means leaves less than `POSITION_EXPLAINS` of it): light falling
/// across a photographed page shades its top givens lighter than its bottom ones, while a
/// player's entries lie scattered among the givens.
fn follows_position(points: &[[f32; 3]], places: &[(f32, f32)], part: &[bool]) -> bool {
    let (a, b) = split_means(points, part);
    let towards = sub(b, a);
    let values: Vec<f32> = points.iter().map(|&p| dot(p, towards)).collect();
    let n = values.len() as f32;
    let mean = values.iter().sum::<f32>() / n;
    let total: f32 = values.iter().map(|v| (v - mean).powi(2)).sum();
    // Least squares for value = c0 + c1 row + c2 column, by its normal equations.
    let mut normal = [[0.0f32; 3]; 3];
    let mut right = [0.0f32; 3];
    for (&(row, column), &v) in places.iter().zip(&values) {
        let x = [1.0, row, column];
        for i in 0..3 {
            right[i] += x[i] * v;
            for j in 0..3 {
                normal[i][j] += x[i] * x[j];
            }
        }
    }
    let Some(c) = solve3(normal, right) else {
        return false;
    };
    let residual: f32 = (places.iter().zip(&values))
        .map(|(&(row, column), &v)| (v - c[0] - c[1] * row - c[2] * column).powi(2))
        .sum();
    total > 0.0 && residual < (1.0 - POSITION_EXPLAINS) * total
}

/// Whether `colour` lies clearly off the line from `background` through the mean of `group`:
/// anti-aliasing and blur mix a glyph's ink with its background, moving its colour along that
/// line, so a thin or small given stays on it while a near shade of another hue (a light blue
/// entry beside white givens) lies off it.
fn off_ink_line(group: &[[f32; 3]], colour: [f32; 3], background: [f32; 3]) -> bool {
    let m = mean(group.iter().copied());
    let towards = sub(m, background);
    let off = |c: [f32; 3]| across_squared(sub(c, m), towards);
    let Some(own) = off(colour).map(f32::sqrt) else {
        return false;
    };
    let spread = group.iter().filter_map(|&c| off(c)).sum::<f32>() / group.len() as f32;
    let noise = (spread + LONE_NOISE * LONE_NOISE).sqrt();
    own >= MIN_OFF_LINE && own >= OFF_LINE_FACTOR * noise
}

/// How far apart `a` and `b` lie across the line from `background` through their middle.
fn hue_apart(a: [f32; 3], b: [f32; 3], background: [f32; 3]) -> f32 {
    let middle = [0, 1, 2].map(|k| (a[k] + b[k]) / 2.0);
    across_squared(sub(b, a), sub(middle, background)).map_or(0.0, f32::sqrt)
}
