//! Who wrote each digit: the puzzle's givens, or a player's entries, told apart by colour.
//!
//! The givens of one picture share one colour, so the glyphs' colours fall into tight groups.
//! How tight is measured on the picture itself (how far each glyph's colour is from its
//! nearest neighbour's), and groups are split only when they lie much further apart than
//! that: near shades (dark grey entries beside black givens, light blue beside white) split,
//! anti-aliasing and JPEG noise do not. Any number of groups is allowed (givens, entries, a
//! wrong entry in red). Two shades that the glyphs' places in the grid explain are light
//! falling across a photographed page, not two authors; two that the cells' backgrounds
//! explain are one ink on plain and highlighted cells, tinted where thin strokes let the
//! highlight through. The givens are the least colourful group large enough to be the givens,
//! and of groups alike in colourfulness the one standing out most from the background.

use super::colour::{best_cut, chroma, covariance, distance, dot, main_axis, mean, solve3, sub};
use super::{Author, Glyph};

/// Groups closer than this (RGB distance) are one group, however tight each is: small and
/// thin glyphs never reach their full colour, and how close they come varies with the digit.
const MIN_SPLIT: f32 = 24.0;
/// A group of fewer glyphs than this is a lone glyph: light and shadow across a photo make one
/// glyph darker or lighter than the rest, so a lone glyph splits off only when it is far away
/// (`LONE_SPLIT`) or of another colourfulness (a red wrong entry).
const LONE: usize = 3;
/// How far a lone glyph's colour must be from the nearest group to be a group of its own.
const LONE_SPLIT: f32 = 60.0;
/// A lone glyph this many of the nearest group's standard deviations away from it has a
/// colour of its own (see [`spread_distance`]).
const LONE_SEPARATION: f32 = 8.0;
/// The colour noise assumed per channel on top of a group's own spread when judging a lone
/// glyph: anti-aliasing of a thin digit alone moves its colour a few levels (3 against 4
/// measured: tune +3 grids exact, photos +1, nothing lost).
const LONE_NOISE: f32 = 3.0;
/// A group is a bolder shade of the givens when its difference from them points this closely
/// (cosine) along the direction from the background to the givens.
const SAME_DIRECTION: f32 = 0.97;
/// A real puzzle has at least this many givens, so a smaller group is not the givens (unless
/// no group is this large).
const MIN_GIVENS: usize = 17;
/// Groups are split when they lie this many times further apart than the typical distance
/// between a glyph's colour and its nearest neighbour's.
const SPLIT_FACTOR: f32 = 5.0;
/// Groups whose colourfulness differs by less than this are told apart by contrast instead.
const CHROMA_TIE: f32 = 30.0;
/// Two sub-groups of one colour group are told apart when their means lie this many of their
/// own standard deviations apart along the direction that best separates them: single
/// linkage chains two near shades through glyphs whose anti-aliased strokes never reach their
/// full colour, but the shades still separate cleanly along one direction.
const SUBGROUP_SEPARATION: f32 = 8.0;
/// ... and their mean colours at least this far apart (RGB distance): closer shades are
/// anti-aliasing and compression, not two authors.
const SUBGROUP_DISTANCE: f32 = 16.0;
/// One digit is given at most nine times, so two shades of more glyphs than this each are not
/// one digit's shape reaching its colour differently (the split `SUBGROUP_SEPARATION`
/// guards against) ...
const MAX_INSTANCES: usize = 9;
/// ... and split at this separation instead: a dark app's grey givens beside 25 blue entries,
/// 7.4 standard deviations apart, were all read as givens.
const SEVERAL_DIGITS_SEPARATION: f32 = 6.0;
/// The share of the difference between two shades that the glyphs' places must explain for
/// the shades to be light across the page (0.94 on a dim photo shaded top to bottom; 0.03
/// and 0.005 on two screenshots with a player's entries).
const POSITION_EXPLAINS: f32 = 0.5;
/// The share of glyphs whose colour may stray from their shade without hiding it (see
/// [`robust_spread`]).
const TRIMMED: f32 = 0.1;
/// The colour noise (standard deviation, grey levels) assumed on top of what a group shows,
/// so a group of identically rendered glyphs does not make any difference significant.
const COLOUR_NOISE: f32 = 2.0;

/// How much of the colour difference between two groups, as a share of what the split into
/// two groups explains, the cells' backgrounds must explain for the groups to be one author
/// (see [`backgrounds_explain`]).
const BACKGROUND_EXPLAINS: f32 = 0.7;
/// The least difference (RGB distance) between two groups' mean cell backgrounds for the
/// backgrounds to explain anything.
const MIN_BACKGROUND_SHIFT: f32 = 8.0;
/// The fewest glyphs in the smaller group for the backgrounds to explain it: one share fitted
/// to the backgrounds explains a lone glyph's colour by chance (a red wrong entry beside a
/// highlight was joined to the givens).
const MIN_EXPLAINED: usize = 2;

/// Marks the glyphs outside the givens' colour group as entries; `cell_backgrounds` are the
/// 81 cells' background colours, row-major like `glyphs`.
pub(super) fn mark_entries(
    glyphs: &mut [Option<Glyph>],
    background: [u8; 3],
    cell_backgrounds: &[[u8; 3]],
) {
    let colours: Vec<[f32; 3]> = glyphs
        .iter()
        .flatten()
        .map(|g| g.colour.map(f32::from))
        .collect();
    if colours.len() < 2 {
        return;
    }
    let backs: Vec<[f32; 3]> = (glyphs.iter().zip(cell_backgrounds))
        .filter(|(g, _)| g.is_some())
        .map(|(_, b)| b.map(f32::from))
        .collect();
    let places: Vec<(f32, f32)> = (glyphs.iter().enumerate())
        .filter(|(_, g)| g.is_some())
        .map(|(i, _)| ((i / 9) as f32, (i % 9) as f32))
        .collect();
    let groups = split_mixed_groups(&colours, &places, colour_groups(&colours));
    let groups = absorb_lone_glyphs(&colours, groups);
    let groups = join_shades_of_backgrounds(&colours, &backs, groups);
    let count = groups.iter().max().map_or(0, |&g| g + 1);
    if count < 2 {
        return;
    }
    let background = background.map(f32::from);
    let givens = givens_group(&colours, &groups, count, background);
    let bolder = bolder_shades(&colours, &groups, count, givens, background);
    for (glyph, &group) in glyphs.iter_mut().flatten().zip(&groups) {
        if group != givens && !bolder.contains(&group) {
            glyph.author = Author::Entry;
        }
    }
}

/// The groups that are the givens' own colour drawn with more contrast: further from the
/// background along the very direction of the givens. Small digits never reach their full
/// colour except where a stroke falls on whole pixels (a `1`'s stem), so those come out
/// darker than the rest; a player's entries are drawn lighter or in another hue, not in a
/// stronger shade of the givens' colour.
fn bolder_shades(
    colours: &[[f32; 3]],
    groups: &[usize],
    count: usize,
    givens: usize,
    background: [f32; 3],
) -> Vec<usize> {
    let mean_of = |g: usize| {
        mean(
            colours
                .iter()
                .zip(groups)
                .filter(|p| *p.1 == g)
                .map(|p| *p.0),
        )
    };
    let towards = sub(mean_of(givens), background);
    let reach = dot(towards, towards).sqrt().max(1e-6);
    (0..count)
        .filter(|&g| g != givens)
        .filter(|&g| {
            let beyond = sub(mean_of(g), mean_of(givens));
            let along = dot(beyond, towards) / reach;
            let length = dot(beyond, beyond).sqrt().max(1e-6);
            along > 0.0 && along / length >= SAME_DIRECTION
        })
        .collect()
}

/// Each colour's group (0, 1, …): colours closer than the picture's split distance are
/// linked, and a group is what links together.
fn colour_groups(colours: &[[f32; 3]]) -> Vec<usize> {
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
/// givens' own shade). `places` are the glyphs' cells (row, column).
fn split_mixed_groups(
    colours: &[[f32; 3]],
    places: &[(f32, f32)],
    mut groups: Vec<usize>,
) -> Vec<usize> {
    let count = groups.iter().max().map_or(0, |&g| g + 1);
    let mut next = count;
    for g in 0..count {
        let members: Vec<usize> = (0..colours.len()).filter(|&i| groups[i] == g).collect();
        let Some(part) = bisect(colours, places, &members) else {
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
    }
    groups
}

/// Two clearly separate shades within `members`: which members belong to the second, or
/// `None` when they are one shade. The split is found like a two-class discriminant: start
/// from the best cut along the colours' main axis, then re-cut along the direction that
/// separates the two parts best relative to their own spread, until the parts settle.
fn bisect(colours: &[[f32; 3]], places: &[(f32, f32)], members: &[usize]) -> Option<Vec<bool>> {
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
        .filter_map(|&start| refine_split(&points, start))
        .filter(|&(_, apart, far, _)| apart && far)
        .max_by(|a, b| a.0.total_cmp(&b.0))?;
    let (separation, .., part) = best;
    let moved = part.iter().filter(|&&b| b).count();
    let needed = if moved.min(part.len() - moved) > MAX_INSTANCES {
        SEVERAL_DIGITS_SEPARATION
    } else {
        SUBGROUP_SEPARATION
    };
    if separation < needed {
        return None;
    }
    let places: Vec<(f32, f32)> = members.iter().map(|&i| places[i]).collect();
    (!follows_position(&points, &places, &part)).then_some(part)
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

/// From the best cut along `start`, re-cuts along the discriminant direction until the parts
/// settle; returns the separation (distance between the parts' means along that direction in
/// their pooled standard deviations), whether the parts do not overlap along it, whether
/// their means are `SUBGROUP_DISTANCE` apart, and the parts.
fn refine_split(points: &[[f32; 3]], start: [f32; 3]) -> Option<(f32, bool, bool, Vec<bool>)> {
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
    let far = distance(a, b) >= SUBGROUP_DISTANCE;
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
fn split_means(points: &[[f32; 3]], part: &[bool]) -> ([f32; 3], [f32; 3]) {
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

/// Joins each lone glyph's group to the nearest large group unless it is far from it or of
/// another colourfulness; returns the groups renumbered 0, 1, ….
fn absorb_lone_glyphs(colours: &[[f32; 3]], mut groups: Vec<usize>) -> Vec<usize> {
    let count = groups.iter().max().map_or(0, |&g| g + 1);
    let size = |groups: &[usize], g: usize| groups.iter().filter(|&&k| k == g).count();
    for g in 0..count {
        let members: Vec<usize> = (0..colours.len()).filter(|&i| groups[i] == g).collect();
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
            let outside = d >= MIN_SPLIT && spread_distance(&target, colours[i]) >= LONE_SEPARATION;
            if d < LONE_SPLIT && alike && !outside {
                let target = groups[j];
                members.iter().for_each(|&m| groups[m] = target);
            }
        }
    }
    renumbered(&groups)
}

/// Joins each group to a larger one when the cells' backgrounds explain the difference in
/// colour between them (see [`backgrounds_explain`]); returns the groups renumbered 0, 1, ….
fn join_shades_of_backgrounds(
    colours: &[[f32; 3]],
    backs: &[[f32; 3]],
    mut groups: Vec<usize>,
) -> Vec<usize> {
    let count = groups.iter().max().map_or(0, |&g| g + 1);
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
/// make of one ink: a thin or small glyph never reaches its full colour, so it shows
/// `ink + share * (background - ink)`, and the givens on a highlighted row come out tinted
/// by the highlight. One share fitted to all glyphs (between 0 and 1) must explain at least
/// `BACKGROUND_EXPLAINS` of what telling the two parts apart explains. A player's entry in
/// the selected cell is not explained: it differs in hue or lightness where the highlight
/// does not lead.
fn backgrounds_explain(points: &[[f32; 3]], backs: &[[f32; 3]], part: &[bool]) -> bool {
    let (a, b) = split_means(backs, part);
    let marked = part.iter().filter(|&&k| k).count();
    let fewer = marked.min(part.len() - marked);
    if distance(a, b) < MIN_BACKGROUND_SHIFT || fewer < MIN_EXPLAINED {
        return false;
    }
    let colour_mean = mean(points.iter().copied());
    let back_mean = mean(backs.iter().copied());
    let (mut cross, mut backs_spread, mut total) = (0.0f32, 0.0f32, 0.0f32);
    for (&p, &q) in points.iter().zip(backs) {
        let (dp, dq) = (sub(p, colour_mean), sub(q, back_mean));
        cross += dot(dp, dq);
        backs_spread += dot(dq, dq);
        total += dot(dp, dp);
    }
    let share = cross / backs_spread;
    if !(0.0..1.0).contains(&share) {
        return false;
    }
    let left_by = |model: &dyn Fn(usize) -> [f32; 3]| -> f32 {
        (points.iter().enumerate())
            .map(|(i, &p)| {
                let d = sub(p, model(i));
                dot(d, d)
            })
            .sum()
    };
    let mixed = left_by(&|i| {
        let shift = sub(backs[i], back_mean).map(|v| v * share);
        [0, 1, 2].map(|k| colour_mean[k] + shift[k])
    });
    let (first, second) = split_means(points, part);
    let split = left_by(&|i| if part[i] { second } else { first });
    total - mixed >= BACKGROUND_EXPLAINS * (total - split)
}

/// The groups numbered 0, 1, … in the order of their old numbers, with no gaps.
fn renumbered(groups: &[usize]) -> Vec<usize> {
    let mut numbers: Vec<usize> = groups.to_vec();
    numbers.sort_unstable();
    numbers.dedup();
    groups
        .iter()
        .map(|g| numbers.binary_search(g).expect("a group of the list"))
        .collect()
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

/// The givens' group: of the groups large enough, the least colourful; of groups about as
/// colourful, the one standing out most from the background.
fn givens_group(
    colours: &[[f32; 3]],
    groups: &[usize],
    count: usize,
    background: [f32; 3],
) -> usize {
    let sizes: Vec<usize> = (0..count)
        .map(|g| groups.iter().filter(|&&k| k == g).count())
        .collect();
    let large = MIN_GIVENS.min(sizes.iter().copied().max().unwrap_or(0));
    let means: Vec<[f32; 3]> = (0..count)
        .map(|g| {
            let members: Vec<&[f32; 3]> = colours
                .iter()
                .zip(groups)
                .filter(|&(_, &k)| k == g)
                .map(|(c, _)| c)
                .collect();
            let n = members.len().max(1) as f32;
            std::array::from_fn(|i| members.iter().map(|c| c[i]).sum::<f32>() / n)
        })
        .collect();
    let eligible = || (0..count).filter(|&g| sizes[g] >= large);
    let least = eligible()
        .map(|g| chroma(means[g]))
        .fold(f32::MAX, f32::min);
    eligible()
        .filter(|&g| chroma(means[g]) < least + CHROMA_TIE)
        .max_by(|&a, &b| distance(means[a], background).total_cmp(&distance(means[b], background)))
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grouped(colours: &[[u8; 3]]) -> Vec<usize> {
        colour_groups(&colours.iter().map(|c| c.map(f32::from)).collect::<Vec<_>>())
    }

    #[test]
    fn noise_within_one_colour_is_one_group() {
        let colours: Vec<[u8; 3]> = (0..30u8).map(|i| [i % 7, i % 5, (i * 3) % 8]).collect();
        assert!(grouped(&colours).iter().all(|&g| g == 0));
    }

    #[test]
    fn near_shades_and_a_red_entry_are_three_groups() {
        let mut colours: Vec<[u8; 3]> = (0..25u8).map(|i| [i % 4, i % 3, i % 5]).collect();
        colours.extend((0..10u8).map(|i| [68 + i % 3, 68 + i % 4, 68 + i % 2]));
        colours.push([220, 30, 30]);
        let colours_f: Vec<[f32; 3]> = colours.iter().map(|c| c.map(f32::from)).collect();
        let groups = absorb_lone_glyphs(&colours_f, grouped(&colours));
        assert!(groups[..25].iter().all(|&g| g == groups[0]));
        assert!(groups[25..35].iter().all(|&g| g == groups[25]));
        assert_ne!(groups[0], groups[25]);
        assert_ne!(groups[35], groups[0]);
        assert_ne!(groups[35], groups[25]);
        let colours: Vec<[f32; 3]> = colours.iter().map(|c| c.map(f32::from)).collect();
        // On white, black stands out more than dark grey: black is the givens.
        assert_eq!(givens_group(&colours, &groups, 3, [255.0; 3]), groups[0]);
    }

    #[test]
    fn a_lone_darker_glyph_is_not_the_givens() {
        // Modelled on a newspaper photo: one given in shadow. Light and shadow move all three
        // channels together (measured on the photo set: per-channel spreads of 6-12 levels,
        // correlated 0.7-0.99).
        let mut colours: Vec<[f32; 3]> = (0..24)
            .map(|i| {
                let v = i as f32;
                [86.0 + v, 88.0 + v * 0.9, 82.0 + v * 0.9]
            })
            .collect();
        colours.push([61.0, 74.0, 72.0]);
        let groups =
            split_mixed_groups(&colours, &scattered(colours.len()), colour_groups(&colours));
        let groups = absorb_lone_glyphs(&colours, groups);
        assert!(groups.iter().all(|&g| g == 0), "{groups:?}");
    }

    #[test]
    fn white_givens_beside_light_blue_entries_on_dark() {
        let mut colours: Vec<[f32; 3]> = vec![[240.0, 240.0, 240.0]; 20];
        colours[3] = [236.0, 241.0, 238.0];
        colours.extend(vec![[150.0, 190.0, 250.0]; 8]);
        let groups = colour_groups(&colours);
        assert_ne!(groups[0], groups[20]);
        assert_eq!(givens_group(&colours, &groups, 2, [18.0; 3]), groups[0]);
    }

    #[test]
    fn two_shades_chained_by_thin_glyphs_are_split() {
        // Measured on a blurred OLED phone capture: white givens and light blue entries whose
        // thin strokes spread both along their brightness until single linkage joins them.
        let jitter = |i: usize| ((i * 37 % 11) as f32 - 5.0) * 1.5;
        let mut colours: Vec<[f32; 3]> = (0..24)
            .map(|i| {
                let v = 209.0 + i as f32 + jitter(i);
                [v, v + 1.0 + jitter(i + 3) / 2.0, v + 1.0]
            })
            .collect();
        colours.extend((0..20).map(|i| {
            let v = 188.0 + i as f32 * 1.2 + jitter(i + 5);
            [v, v + 10.0, v + 30.0 + jitter(i + 7) / 2.0]
        }));
        // Single linkage alone sees one group.
        assert!(colour_groups(&colours).iter().all(|&g| g == 0));
        assert_split_at(&colours, &scattered(colours.len()), 24);
    }

    #[test]
    fn two_shades_with_a_few_strays_between_are_split() {
        // Measured on a downscaled phone capture: brown givens at about 63 grey, a player's
        // lighter brown entries at about 93, and a few givens on highlighted cells or with
        // thin strokes pulled toward the background between them.
        let shade = |v: f32| [v, v * 0.81, v * 0.62];
        let mut colours: Vec<[f32; 3]> = (0..20).map(|i| shade(60.0 + (i % 5) as f32)).collect();
        colours.extend([66.0, 67.0, 67.0, 74.0, 74.0, 77.0].map(shade));
        colours.extend((0..19).map(|i| shade(91.0 + (i % 6) as f32)));
        colours.push(shade(89.0));
        assert_split_at(&colours, &scattered(colours.len()), 26);
    }

    #[test]
    fn many_entries_in_another_hue_split_off_unless_light_explains_them() {
        // Measured on a downscaled JPEG of a dark app: 26 grey givens spread over 23 levels
        // of brightness, 25 blue entries whose thin strokes reach their hue unevenly.
        let jitter = |i: usize| (i * 7 % 11) as f32;
        let mut colours: Vec<[f32; 3]> = (0..26)
            .map(|i| {
                let v = 153.0 + (i * 23 / 25) as f32;
                [v, v + 1.0, v + 4.0 + (i % 3) as f32 * 2.0]
            })
            .collect();
        colours.extend((0..25).map(|i| {
            let v = 126.0 + jitter(i) + (i % 5) as f32;
            [v, v + 10.0 + jitter(i + 3), v + 22.0 + 2.5 * jitter(i + 5)]
        }));
        assert_split_at(&colours, &scattered(colours.len()), 26);
        // The same colours, the second shade all in the top rows and the first below: light
        // across a photographed page, one author.
        let places: Vec<(f32, f32)> = (0..colours.len())
            .map(|i| {
                let cell = if i < 26 { 80 - i } else { i - 26 };
                ((cell / 9) as f32, (cell % 9) as f32)
            })
            .collect();
        let groups = split_mixed_groups(&colours, &places, colour_groups(&colours));
        assert!(groups.iter().all(|&g| g == groups[0]), "{groups:?}");
    }

    #[test]
    fn one_shade_spread_by_blur_stays_one_group() {
        let colours: Vec<[f32; 3]> = (0..30)
            .map(|i| {
                let v = 180.0 + (i * 7 % 40) as f32;
                [v, v + 2.0, v + 4.0]
            })
            .collect();
        let groups =
            split_mixed_groups(&colours, &scattered(colours.len()), colour_groups(&colours));
        assert!(groups.iter().all(|&g| g == groups[0]), "{groups:?}");
    }

    #[test]
    fn two_entries_in_a_near_grey_beside_crisp_givens_are_their_own_group() {
        // A screenshot's givens vary by a level or two; two entries 50 levels lighter are
        // another author, though near in absolute terms.
        let mut colours: Vec<[f32; 3]> = (0..22)
            .map(|i| {
                let v = 30.0 + (i % 3) as f32;
                [v, v, v + 1.0]
            })
            .collect();
        colours.extend([[60.0, 58.0, 62.0], [61.0, 60.0, 62.0]]);
        let groups = absorb_lone_glyphs(&colours, colour_groups(&colours));
        assert_eq!(groups[22], groups[23]);
        assert_ne!(groups[0], groups[22]);
    }

    #[test]
    fn darker_ones_of_a_small_print_are_givens() {
        // Measured on a typeset page (digits 11 px): the 1s reach 45 grey, the curved digits
        // only 80-98. Grey entries would sit on the other side, lighter.
        let mut glyphs: Vec<Option<Glyph>> = (0..24)
            .map(|i| Some(glyph([80 + (i % 19) as u8; 3])))
            .collect();
        glyphs.extend((0..3).map(|i| Some(glyph([44 + i as u8; 3]))));
        mark_entries(&mut glyphs, [254; 3], &[[254; 3]; 27]);
        assert!(glyphs.iter().flatten().all(|g| g.author == Author::Given));
        // Lighter ones of the same grey are a player's.
        let mut glyphs: Vec<Option<Glyph>> = (0..24)
            .map(|i| Some(glyph([40 + (i % 5) as u8; 3])))
            .collect();
        glyphs.extend((0..3).map(|i| Some(glyph([120 + i as u8; 3]))));
        mark_entries(&mut glyphs, [254; 3], &[[254; 3]; 27]);
        assert!(glyphs[24..]
            .iter()
            .flatten()
            .all(|g| g.author == Author::Entry));
    }

    /// Measured on a dark web page in a weight-200 face: the givens on plain cells
    /// (background 42,46,49) reach 159-173 grey; four on a highlighted row (64,79,107) come out
    /// tinted blue by it. The backgrounds explain the tint, so all are givens; blue entries
    /// on the same two backgrounds, and a lone glyph tinted like a highlight, are not.
    #[test]
    fn givens_tinted_by_a_highlight_are_givens() {
        let plain = [42u8, 46, 49];
        let highlight = [64u8, 79, 107];
        let grey = |i: usize| {
            [
                159 + (i % 15) as u8,
                164 + (i % 15) as u8,
                167 + (i % 15) as u8,
            ]
        };
        let tinted = [
            [172u8, 185, 211],
            [175, 189, 216],
            [177, 188, 211],
            [179, 193, 217],
        ];
        let mut glyphs: Vec<Option<Glyph>> = (0..19).map(|i| Some(glyph(grey(i)))).collect();
        let mut backs = vec![plain; 19];
        glyphs.extend(tinted.map(|c| Some(glyph(c))));
        backs.extend([highlight; 4]);
        mark_entries(&mut glyphs, plain, &backs);
        assert!(glyphs.iter().flatten().all(|g| g.author == Author::Given));

        // Light blue entries on plain and highlighted cells alike.
        let mut glyphs: Vec<Option<Glyph>> = (0..19).map(|i| Some(glyph(grey(i)))).collect();
        let mut backs = vec![plain; 19];
        let entries = [
            [138u8, 180, 248],
            [150, 190, 250],
            [140, 182, 246],
            [146, 186, 249],
        ];
        glyphs.extend(entries.map(|c| Some(glyph(c))));
        backs.extend([plain, highlight, plain, highlight]);
        mark_entries(&mut glyphs, plain, &backs);
        assert!(glyphs[19..]
            .iter()
            .flatten()
            .all(|g| g.author == Author::Entry));

        // One glyph alone on a highlight is not explained by it.
        let mut glyphs: Vec<Option<Glyph>> = (0..19).map(|i| Some(glyph(grey(i)))).collect();
        let mut backs = vec![plain; 19];
        glyphs.push(Some(glyph([179, 193, 217])));
        backs.push(highlight);
        mark_entries(&mut glyphs, plain, &backs);
        assert_eq!(glyphs[19].as_ref().map(|g| g.author), Some(Author::Entry));
    }

    /// Asserts that the colours split into two groups: the first `at` of them, and the rest.
    fn assert_split_at(colours: &[[f32; 3]], places: &[(f32, f32)], at: usize) {
        let groups = split_mixed_groups(colours, places, colour_groups(colours));
        assert!(groups[..at].iter().all(|&g| g == groups[0]), "{groups:?}");
        assert!(groups[at..].iter().all(|&g| g == groups[at]), "{groups:?}");
        assert_ne!(groups[0], groups[at]);
    }

    /// Cells spread over the grid, unrelated to the order of the colours.
    fn scattered(n: usize) -> Vec<(f32, f32)> {
        (0..n)
            .map(|i| {
                let cell = i * 37 % 81;
                ((cell / 9) as f32, (cell % 9) as f32)
            })
            .collect()
    }

    fn glyph(colour: [u8; 3]) -> Glyph {
        Glyph {
            ink: image::GrayImage::new(1, 1),
            colour,
            author: Author::Given,
            width: 1,
            height: 10,
            origin: (0, 0),
            outsized: false,
        }
    }
}
