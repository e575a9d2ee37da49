//! Self-calibration: the givens of one picture share a font, so glyphs of one digit look
//! alike. The givens are grouped by shape, each group gets one digit, and the digits are
//! given jointly: scored by the templates (the group's mean score, so one glyph that matches
//! badly is outvoted by its look-alikes) and constrained by sudoku's rules (two groups with
//! givens in one row, column or box hold different digits). A font nobody bundled then reads
//! as long as its digits differ from each other, even when its `3` is closer to a template `8`.

use crate::budget::Budget;
use crate::pipeline::cells::frame::OTHER_SHAPE;
use crate::pipeline::tuning;
use crate::puzzle::board::Pos;

use super::assign::{assign, Alternative, Assignment};
use super::{best_digit, topology};

/// Two groups whose glyphs are on average at least this alike (cosine of their features)
/// are the same digit, in a picture whose glyphs of one digit differ as much as a photo's
/// do; a cleaner picture asks more (see [`same_shape`]).
pub const SAME_SHAPE: f32 = 0.9;
/// How much less alike than the picture's typical twins (in [`shape_noise`]s) two glyphs may
/// be and still be the same digit. A screenshot draws one digit identically wherever it
/// stands, so its 6 and its 8 at 0.91 are two shapes, where a photo's blurred 6s may be that
/// unlike each other (4 against 3 and 5, tune seeds 2-12: +11 and +17 grids exact with the
/// photos unchanged, against photos 5 fewer solved at 3).
const SHAPE_NOISE_FACTOR: f32 = 4.0;
/// How much less alike than the picture's typical twins two glyphs the templates read as
/// different digits may be and still be one shape (see [`same_shape_read_apart`]).
const READ_APART_NOISE_FACTOR: f32 = 2.0;
/// The least shape noise assumed, so identical renderings (likeness 1.0) still let a digit
/// drawn at two sub-pixel offsets be one shape.
const MIN_SHAPE_NOISE: f32 = 0.01;
/// How much a digit's score drops when the glyph's holes contradict it and agree with the best
/// digit (see [`topology`]): twice the largest margin of the ladder, more than any rival,
/// doubt or correction allows, so such a reading is neither a doubt nor a correction.
pub const HOLE_MARGIN: f32 = 2.0 * crate::pipeline::tuning::FAR;

/// The givens' scores refined, and the rival readings.
pub struct Refined {
    /// Per glyph, its digit scores (index 0 is digit 1), the assigned digit best.
    pub scores: Vec<[f32; 9]>,
    /// Other assignments: per alternative, the glyphs it changes with their digit (0-8) there,
    /// and the template score it loses per group changed, least loss first. Those within
    /// `tuning::NEAR` are rivals: two groups swapping digits is always allowed by the rules, so
    /// only the templates can tell such readings apart. The grouping's second opinion (see
    /// `read_apart`) comes first, at no loss.
    pub alternatives: Vec<Alternative>,
}

/// Refines the per-glyph digit scores of the givens (`scores[i]` for the glyph at `cells[i]`
/// with `holes[i]` loops, index 0 is digit 1) using the likeness of their shapes
/// (`likeness[i][j]`, cosines). The searches spend `budget`; when it runs out the result is
/// cut short and `budget` says so: the caller must not use it then.
pub fn refine(
    scores: &[[f32; 9]],
    likeness: &ndarray::Array2<f32>,
    cells: &[Pos],
    holes: &[topology::Loops],
    budget: &Budget,
) -> Refined {
    refine_with(scores, likeness, None, cells, holes, budget)
}

/// [`refine`], with `blurred` the likeness of the glyphs blurred (see
/// [`super::GlyphFeatures::likeness_blurred`]): in a picture that draws one digit's glyphs
/// nearly alike, groups of clearly different shapes by it take different digits (see
/// [`assign_groups`]). Blurred, a hairline digit's glyphs on plain and on highlighted cells
/// stay alike though their strokes fell a pixel apart.
pub fn refine_with(
    scores: &[[f32; 9]],
    likeness: &ndarray::Array2<f32>,
    blurred: Option<&ndarray::Array2<f32>>,
    cells: &[Pos],
    holes: &[topology::Loops],
    budget: &Budget,
) -> Refined {
    let same = same_shape(likeness);
    let groups = group_by_shape(likeness, scores, (cells, holes), (same, same), budget);
    let unlike = blurred.filter(|_| same > SAME_SHAPE);
    let (group_scores, clash, picked) =
        assign_groups(&groups, scores, (cells, holes), unlike, budget);
    let mut alternatives = Assignment {
        groups: &groups,
        scores: &group_scores,
        clash: &clash,
        picked: &picked,
        budget,
    }
    .alternatives();
    let read_apart = read_apart(
        likeness,
        unlike,
        scores,
        (cells, holes),
        (&groups, &picked),
        same,
        budget,
    );
    if !read_apart.is_empty() {
        alternatives.insert(0, (read_apart, 0.0));
    }
    let mut refined = scores.to_vec();
    for (g, members) in groups.iter().enumerate() {
        let digit = picked[g];
        let mut out = group_scores[g];
        if is_twin_of_a_clashing_group(g, (&groups, &group_scores, &picked), &clash, likeness, same)
        {
            continue;
        }
        // Digits that other groups hold, and whose glyphs look nothing like these, are less
        // likely here (a digit's glyphs in one picture look alike).
        for h in (0..groups.len()).filter(|&h| h != g && picked[h] != digit) {
            if mean_likeness(likeness, members, &groups[h]) <= OTHER_SHAPE {
                out[picked[h]] -= tuning::CLEAR;
            }
        }
        let best_other = (0..9)
            .filter(|&d| d != digit)
            .map(|d| out[d])
            .fold(f32::MIN, f32::max);
        out[digit] = out[digit].max(best_other + tuning::TIE);
        for &i in members {
            refined[i] = out;
        }
    }
    Refined {
        scores: refined,
        alternatives,
    }
}

/// Whether group `g`, which the templates read clearly (`tuning::FAR` ahead) as a digit other
/// than its own, is one shape (at least `same` alike) with a group it clashes with that holds
/// the digit it reads. Two near copies in one house are one digit printed twice: the picture's
/// givens clash, and the templates' reading, clash and all, is what it says (calibrating one
/// copy into another digit would invent a reading). A glyph forced off its reading that looks
/// like no glyph holding that digit is a misreading the assignment mends, as before.
fn is_twin_of_a_clashing_group(
    g: usize,
    (groups, scores, picked): (&[Vec<usize>], &[[f32; 9]], &[usize]),
    clash: &[Vec<bool>],
    likeness: &ndarray::Array2<f32>,
    same: f32,
) -> bool {
    let read = best_digit(&scores[g]);
    scores[g][read] - scores[g][picked[g]] > tuning::FAR
        && (0..groups.len())
            .filter(|&h| picked[h] == read && clash[g][h])
            .any(|h| mean_likeness(likeness, &groups[g], &groups[h]) >= same)
}

/// The digits picked for shape groups (each group's glyphs, its scores per digit after its
/// loops are weighed), whether two groups clash, and each group's digit. Groups clash when
/// they share a row, column or box, or, with `unlike` (the glyphs' likeness blurred), when
/// their glyphs are clearly different shapes (at most `OTHER_SHAPE` alike): one font draws a
/// digit one way, so a handwriting face's crossed `7`s that the templates read `1` cannot
/// share the `1` with the picture's plain `1`s.
fn assign_groups(
    groups: &[Vec<usize>],
    scores: &[[f32; 9]],
    (cells, holes): (&[Pos], &[topology::Loops]),
    unlike: Option<&ndarray::Array2<f32>>,
    budget: &Budget,
) -> (Vec<[f32; 9]>, Vec<Vec<bool>>, Vec<usize>) {
    let mut group_scores: Vec<[f32; 9]> = groups.iter().map(|g| mean_scores(scores, g)).collect();
    for (members, s) in groups.iter().zip(&mut group_scores) {
        if let Some(loops) = group_loops(members.iter().map(|&i| holes[i])) {
            topology::demote_loopless_best(s, loops, HOLE_MARGIN, tuning::CLEAR);
            topology::rule_out_contradicted(s, loops, HOLE_MARGIN);
        }
    }
    let mut clash = clashes(groups, cells);
    if let Some(likeness) = unlike {
        for (a, row) in clash.iter_mut().enumerate() {
            for (b, c) in row.iter_mut().enumerate() {
                *c |= a != b && mean_likeness(likeness, &groups[a], &groups[b]) <= OTHER_SHAPE;
            }
        }
    }
    let picked = assign(groups, &group_scores, &clash, None, budget);
    (group_scores, clash, picked)
}

/// A second opinion from grouping the glyphs again, keeping apart glyphs the templates read
/// as different digits unless they are as alike as [`same_shape_read_apart`] asks: the glyphs
/// (with their digit) whose reading then differs from the one `chosen` (its groups and their
/// digits; `same` is the picture's [`same_shape`]). Blur makes a photo's `6` and `8` as alike as two of its `8`s are at their least;
/// joined, they share one digit and the puzzle has no solution, or the wrong one. Kept apart
/// by default, a blurred `2` that the templates read as `1` would lose the `2`s that outvote
/// them, so this reading is only an alternative.
fn read_apart(
    likeness: &ndarray::Array2<f32>,
    unlike: Option<&ndarray::Array2<f32>>,
    scores: &[[f32; 9]],
    (cells, holes): (&[Pos], &[topology::Loops]),
    chosen: (&[Vec<usize>], &[usize]),
    same: f32,
    budget: &Budget,
) -> Vec<(usize, usize)> {
    let read_apart_same = same_shape_read_apart(likeness, same);
    let groups = group_by_shape(
        likeness,
        scores,
        (cells, holes),
        (same, read_apart_same),
        budget,
    );
    let (_, _, picked) = assign_groups(&groups, scores, (cells, holes), unlike, budget);
    let mut digit_of = vec![0; cells.len()];
    for (members, &digit) in chosen.0.iter().zip(chosen.1) {
        members.iter().for_each(|&i| digit_of[i] = digit);
    }
    let mut changes: Vec<(usize, usize)> = (groups.iter().zip(&picked))
        .flat_map(|(members, &digit)| members.iter().map(move |&i| (i, digit)))
        .filter(|&(i, digit)| digit_of[i] != digit)
        .collect();
    changes.sort_unstable();
    changes
}

/// The likeness at which two of this picture's glyphs are one shape: `SHAPE_NOISE_FACTOR`
/// times its shape noise below a perfect match, and never below `SAME_SHAPE`.
pub fn same_shape(likeness: &ndarray::Array2<f32>) -> f32 {
    (1.0 - SHAPE_NOISE_FACTOR * shape_noise(likeness)).max(SAME_SHAPE)
}

/// The likeness at which two of this picture's glyphs the templates read as different digits
/// are still one shape: `READ_APART_NOISE_FACTOR` times its shape noise below a perfect match,
/// and never below `same`, the picture's [`same_shape`] (see [`read_apart`]).
fn same_shape_read_apart(likeness: &ndarray::Array2<f32>, same: f32) -> f32 {
    (1.0 - READ_APART_NOISE_FACTOR * shape_noise(likeness)).max(same)
}

/// How far from identical the picture's glyphs are to their nearest look-alike (one minus the
/// median over glyphs of the likeness to the most alike other glyph): most digits are given
/// more than once, so this is how much one digit's glyphs differ in this picture (rendering,
/// blur, compression), at least `MIN_SHAPE_NOISE`.
fn shape_noise(likeness: &ndarray::Array2<f32>) -> f32 {
    let n = likeness.nrows();
    let mut nearest: Vec<f32> = (0..n)
        .map(|i| {
            (0..n)
                .filter(|&j| j != i)
                .map(|j| likeness[[i, j]])
                .fold(f32::MIN, f32::max)
        })
        .collect();
    nearest.sort_by(f32::total_cmp);
    nearest
        .get(n / 2)
        .map_or(MIN_SHAPE_NOISE, |&m| (1.0 - m).max(MIN_SHAPE_NOISE))
}

/// How alike glyphs are among themselves: the mean over distinct pairs.
pub(super) fn cohesion(likeness: &ndarray::Array2<f32>, members: &[usize]) -> f32 {
    let n = members.len();
    let sum: f32 = members
        .iter()
        .flat_map(|&i| {
            members
                .iter()
                .filter(move |&&j| j != i)
                .map(move |&j| likeness[[i, j]])
        })
        .sum();
    sum / (n * n.saturating_sub(1)).max(1) as f32
}

/// Groups of glyphs alike in shape: average-linkage merging while two groups are at least
/// `same` alike, or `same_read_apart` when the templates (`scores`, summed over each group)
/// read the two groups as different digits, never merging two groups with glyphs in one
/// house (one digit cannot be given twice in a row, column or box), nor two whose steady
/// loops (`holes`, per glyph like `cells`) tell their readings apart.
fn group_by_shape(
    likeness: &ndarray::Array2<f32>,
    scores: &[[f32; 9]],
    (cells, holes): (&[Pos], &[topology::Loops]),
    (same, same_read_apart): (f32, f32),
    budget: &Budget,
) -> Vec<Vec<usize>> {
    let n = cells.len();
    // Two groups the templates read as different digits, each with steady loops (see
    // [`topology::Loops::steady`]) that agree with its own reading and differ in count from the
    // other's, are two digits however alike their outlines (a condensed face's `8` and `9`).
    let told_apart_by_loops = |a: &[usize], b: &[usize], read_a: usize, read_b: usize| {
        let loops = |g: &[usize]| group_loops(g.iter().map(|&i| holes[i]));
        match (loops(a), loops(b)) {
            (Some(la), Some(lb)) => {
                la.steady
                    && lb.steady
                    && la.count != lb.count
                    && topology::agrees(read_a, la) == Some(true)
                    && topology::agrees(read_b, lb) == Some(true)
            }
            _ => false,
        }
    };
    let mut groups: Vec<Vec<usize>> = (0..n).map(|i| vec![i]).collect();
    // The summed scores of each group's glyphs, whose best digit is the group's reading.
    let mut score_sums: Vec<[f32; 9]> = scores.to_vec();
    // Kept up to date as groups merge, so each round only scans the pairs: the summed
    // likeness between two groups, and whether they have glyphs in one house.
    let mut sums: Vec<Vec<f32>> = (0..n)
        .map(|i| (0..n).map(|j| likeness[[i, j]]).collect())
        .collect();
    let mut clash: Vec<Vec<bool>> = (0..n)
        .map(|i| (0..n).map(|j| cells[i].sees(cells[j])).collect())
        .collect();
    loop {
        let reads: Vec<usize> = score_sums.iter().map(best_digit).collect();
        let mut best: Option<(f32, usize, usize)> = None;
        for a in 0..groups.len() {
            for b in a + 1..groups.len() {
                let alike = sums[a][b] / (groups[a].len() * groups[b].len()) as f32;
                let (read_a, read_b) = (reads[a], reads[b]);
                let needed = if read_a == read_b {
                    same
                } else {
                    same_read_apart
                };
                if alike >= needed
                    && best.is_none_or(|(s, ..)| alike > s)
                    && !clash[a][b]
                    && (read_a == read_b
                        || !told_apart_by_loops(&groups[a], &groups[b], read_a, read_b))
                {
                    best = Some((alike, a, b));
                }
            }
        }
        // Each merge is a step: bounded by the glyphs' count, but a step of the reading.
        let Some((_, a, b)) = best.filter(|_| budget.spend(1)) else {
            return groups;
        };
        for c in 0..groups.len() {
            sums[a][c] += sums[b][c];
            clash[a][c] |= clash[b][c];
            sums[c][a] = sums[a][c];
            clash[c][a] = clash[a][c];
        }
        // Group b goes, the last group takes its place (as `swap_remove` does).
        for row in sums.iter_mut() {
            row.swap_remove(b);
        }
        for row in clash.iter_mut() {
            row.swap_remove(b);
        }
        sums.swap_remove(b);
        clash.swap_remove(b);
        let merged_scores = score_sums.swap_remove(b);
        for (sum, add) in score_sums[a].iter_mut().zip(merged_scores) {
            *sum += add;
        }
        let merged = groups.swap_remove(b);
        groups[a].extend(merged);
    }
}

/// The loops a group's glyphs have: the count most of them have, the place most of those
/// give their loop (none when they disagree), and whether every glyph's loops are steady.
fn group_loops(members: impl Iterator<Item = topology::Loops> + Clone) -> Option<topology::Loops> {
    let count = majority(members.clone().map(|l| l.count))?;
    let steady = members.clone().all(|l| l.steady);
    let place = majority(members.filter(|l| l.count == count).map(|l| l.place)).flatten();
    Some(topology::Loops {
        count,
        place,
        steady,
    })
}

/// The value most members share, when one value is more common than every other.
fn majority<T: PartialEq + Copy>(values: impl Iterator<Item = T>) -> Option<T> {
    let mut counts: Vec<(T, usize)> = Vec::new();
    for v in values {
        match counts.iter_mut().find(|(c, _)| *c == v) {
            Some((_, n)) => *n += 1,
            None => counts.push((v, 1)),
        }
    }
    let top = counts.iter().map(|&(_, n)| n).max()?;
    let mut winners = counts.iter().filter(|&&(_, n)| n == top);
    let first = winners.next()?.0;
    winners.next().is_none().then_some(first)
}

pub(super) fn mean_likeness(likeness: &ndarray::Array2<f32>, a: &[usize], b: &[usize]) -> f32 {
    let sum: f32 = a
        .iter()
        .flat_map(|&i| b.iter().map(move |&j| likeness[[i, j]]))
        .sum();
    sum / (a.len() * b.len()) as f32
}

fn share_a_house(a: &[usize], b: &[usize], cells: &[Pos]) -> bool {
    a.iter()
        .any(|&i| b.iter().any(|&j| cells[i].sees(cells[j])))
}

fn mean_scores(scores: &[[f32; 9]], members: &[usize]) -> [f32; 9] {
    let n = members.len() as f32;
    std::array::from_fn(|d| members.iter().map(|&i| scores[i][d]).sum::<f32>() / n)
}

/// For each pair of groups, whether they have glyphs in one house (and so need different
/// digits).
fn clashes(groups: &[Vec<usize>], cells: &[Pos]) -> Vec<Vec<bool>> {
    groups
        .iter()
        .map(|a| groups.iter().map(|b| share_a_house(a, b, cells)).collect())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::assign::{allowed, total, Forced};
    use super::*;

    /// Loop counts no digit has, so the holes rule nothing out in these tests.
    const UNTOLD: [topology::Loops; 6] = [topology::Loops {
        count: 3,
        place: None,
        steady: false,
    }; 6];

    /// The cells at these (row, column) places, counted from 0.
    fn cells_at(places: &[(usize, usize)]) -> Vec<Pos> {
        (places.iter())
            .map(|&(r, c)| Pos::new(r, c).unwrap())
            .collect()
    }

    fn one_hot(d: usize, best: f32, second: usize, runner: f32) -> [f32; 9] {
        let mut s = [0.1; 9];
        s[d] = best;
        s[second] = runner;
        s
    }

    #[test]
    fn a_whole_digit_misread_by_the_templates_is_given_back_by_the_rules() {
        // Glyph 0-2 are one shape (the font's 3), glyphs 3-5 another (its 8); the templates
        // call both 8, the 3s only a little less 3 than 8. The 3s and the 8s sit in one row,
        // so they cannot both be 8.
        let cells = cells_at(&[(0, 0), (3, 3), (6, 6), (0, 5), (4, 1), (7, 8)]);
        let scores = vec![
            one_hot(7, 0.80, 2, 0.78),
            one_hot(7, 0.81, 2, 0.77),
            one_hot(7, 0.79, 2, 0.76),
            one_hot(7, 0.95, 5, 0.6),
            one_hot(7, 0.94, 5, 0.6),
            one_hot(7, 0.96, 5, 0.6),
        ];
        let likeness =
            ndarray::Array2::from_shape_fn(
                (6, 6),
                |(i, j)| {
                    if (i < 3) == (j < 3) {
                        0.97
                    } else {
                        0.7
                    }
                },
            );
        let refined = refine(&scores, &likeness, &cells, &UNTOLD, &Budget::unlimited()).scores;
        let best = |s: &[f32; 9]| (0..9).max_by(|&a, &b| s[a].total_cmp(&s[b])).unwrap();
        assert_eq!(
            refined[..3].iter().map(best).collect::<Vec<_>>(),
            vec![2; 3]
        );
        assert_eq!(
            refined[3..].iter().map(best).collect::<Vec<_>>(),
            vec![7; 3]
        );
    }

    #[test]
    fn two_clearly_different_shapes_are_two_digits_though_no_house_holds_both() {
        // A handwriting face: glyphs 0-2 are its plain 1s (the templates' 1, 0.9), glyphs 3-4
        // its crossed 7s, which the templates call 1 too (0.6) before 7 (0.5). No row, column
        // or box holds a 1 and a 7, so the rules alone let both shapes be 1; but twins are
        // 0.99 alike and the two shapes 0.3: one font draws a digit one way.
        let cells = cells_at(&[(0, 0), (1, 3), (2, 6), (3, 1), (4, 4)]);
        let scores = vec![
            one_hot(0, 0.9, 6, 0.3),
            one_hot(0, 0.9, 6, 0.3),
            one_hot(0, 0.9, 6, 0.3),
            one_hot(0, 0.6, 6, 0.5),
            one_hot(0, 0.6, 6, 0.5),
        ];
        let alike = |same: bool| if same { 0.99 } else { 0.3 };
        let likeness = ndarray::Array2::from_shape_fn((5, 5), |(i, j)| {
            if i == j {
                1.0
            } else {
                alike((i < 3) == (j < 3))
            }
        });
        let read = |refined: Refined| refined.scores.iter().map(best_digit).collect::<Vec<_>>();
        assert_eq!(
            read(refine(
                &scores,
                &likeness,
                &cells,
                &UNTOLD,
                &Budget::unlimited()
            )),
            vec![0; 5]
        );
        let apart = refine_with(
            &scores,
            &likeness,
            Some(&likeness),
            &cells,
            &UNTOLD,
            &Budget::unlimited(),
        );
        assert_eq!(read(apart), vec![0, 0, 0, 6, 6]);
        // In a picture whose twins differ as much as a photo's (0.8), shapes tell less.
        let noisy = likeness.mapv(|v| if v == 0.99 { 0.8 } else { v });
        let blurry = refine_with(
            &scores,
            &noisy,
            Some(&noisy),
            &cells,
            &UNTOLD,
            &Budget::unlimited(),
        );
        assert_eq!(read(blurry), vec![0; 5]);
    }

    #[test]
    fn a_digit_every_glyph_half_matches_goes_to_the_group_most_like_it() {
        // Glyphs 0-1 are one shape (a photo's 1s), glyphs 2-6 another (its 3s). Blurred, every
        // glyph half-matches a heavy `1`: the 3s score 0.80 as 1 and only 0.69 as 3, the 1s
        // 0.82 as 1. Glyphs 0 and 2 share a row, so the shapes need different digits. Counted
        // glyph by glyph, the five 3s would take the 1 from the two 1s.
        let cells = cells_at(&[(0, 2), (3, 7), (0, 4), (3, 1), (4, 5), (7, 2), (8, 6)]);
        let ones = one_hot(0, 0.82, 2, 0.59);
        let threes = one_hot(0, 0.80, 2, 0.69);
        let scores = vec![ones, ones, threes, threes, threes, threes, threes];
        let likeness = ndarray::Array2::from_shape_fn((7, 7), |(i, j)| {
            if i == j {
                1.0
            } else if (i < 2) == (j < 2) {
                0.97
            } else {
                0.5
            }
        });
        let refined = refine(
            &scores,
            &likeness,
            &cells,
            &[UNTOLD[0]; 7],
            &Budget::unlimited(),
        )
        .scores;
        let best = |s: &[f32; 9]| (0..9).max_by(|&a, &b| s[a].total_cmp(&s[b])).unwrap();
        let read: Vec<usize> = refined.iter().map(best).collect();
        assert_eq!(read, vec![0, 0, 2, 2, 2, 2, 2]);
    }

    #[test]
    fn one_odd_glyph_is_outvoted_by_its_look_alikes() {
        let cells = cells_at(&[(0, 0), (4, 4), (8, 8)]);
        let scores = vec![
            one_hot(4, 0.9, 5, 0.7),
            one_hot(4, 0.9, 5, 0.7),
            one_hot(5, 0.8, 4, 0.78),
        ];
        let likeness = ndarray::Array2::from_elem((3, 3), 0.96);
        let refined = refine(&scores, &likeness, &cells, &UNTOLD, &Budget::unlimited()).scores;
        assert!(refined.iter().all(|s| s[4] > s[5]));
    }

    #[test]
    fn a_clean_picture_keeps_a_near_shape_apart_from_identical_twins() {
        // Glyphs 0-3 are one digit drawn identically (a screenshot's 8s); glyph 4 (its 6) is
        // 0.92 alike them, above `SAME_SHAPE`, but far below how alike the picture's twins are.
        let cells = cells_at(&[(0, 0), (1, 3), (2, 6), (3, 1), (5, 4)]);
        let identical = ndarray::Array2::from_shape_fn((5, 5), |(i, j)| {
            if i < 4 && j < 4 || i == j {
                1.0
            } else {
                0.92
            }
        });
        let grouped = |likeness: &ndarray::Array2<f32>| {
            let same = same_shape(likeness);
            group_by_shape(
                likeness,
                &[[0.1; 9]; 5],
                (&cells, &UNTOLD[..5]),
                (same, same),
                &Budget::unlimited(),
            )
            .len()
        };
        assert!(same_shape(&identical) > 0.92);
        assert_eq!(grouped(&identical), 2);
        // The same 6 among 8s that blur makes 0.95 alike each other is one of them: glyphs of
        // one digit in such a picture differ as much.
        let blurred = ndarray::Array2::from_shape_fn((5, 5), |(i, j)| match identical[[i, j]] {
            _ if i == j => 1.0,
            1.0 => 0.95,
            l => l,
        });
        assert_eq!(same_shape(&blurred), SAME_SHAPE);
        assert_eq!(grouped(&blurred), 1);
    }

    #[test]
    fn glyphs_in_one_house_are_never_one_group() {
        let cells = cells_at(&[(0, 0), (0, 8)]);
        let likeness = ndarray::Array2::from_elem((2, 2), 0.99);
        assert_eq!(
            group_by_shape(
                &likeness,
                &[[0.1; 9]; 2],
                (&cells, &UNTOLD[..2]),
                (0.9, 0.9),
                &Budget::unlimited()
            )
            .len(),
            2
        );
    }

    #[test]
    fn glyphs_read_apart_whose_steady_loops_agree_with_their_readings_are_two_digits() {
        // A condensed face's 8s (two loops, read 8) and 9s (one loop above, read 9), as
        // alike in outline as two of its 8s; the cells share no house.
        let cells = cells_at(&[(0, 0), (4, 4), (8, 8), (1, 3), (5, 7)]);
        let likeness = ndarray::Array2::from_elem((5, 5), 0.97);
        let scores = [
            one_hot(7, 0.85, 8, 0.8),
            one_hot(7, 0.85, 8, 0.8),
            one_hot(7, 0.85, 8, 0.8),
            one_hot(8, 0.85, 7, 0.8),
            one_hot(8, 0.85, 7, 0.8),
        ];
        let loops = |count, place, steady| topology::Loops {
            count,
            place,
            steady,
        };
        let eight = loops(2, None, true);
        let nine = loops(1, Some(topology::Place::Upper), true);
        let holes = [eight, eight, eight, nine, nine];
        let grouped = |holes: &[topology::Loops]| {
            group_by_shape(
                &likeness,
                &scores,
                (&cells, holes),
                (0.9, 0.9),
                &Budget::unlimited(),
            )
            .len()
        };
        assert_eq!(grouped(&holes), 2);
        // Loops that blur moves between thresholds tell nothing: one shape.
        let unsteady = holes.map(|l| topology::Loops { steady: false, ..l });
        assert_eq!(grouped(&unsteady), 1);
    }

    #[test]
    fn a_blurred_six_among_eights_the_templates_read_apart_is_an_alternative() {
        // Glyphs 0-3 are a photo's 8s, 0.97 alike each other, each read 8 by a little; glyph 4
        // is its 6, read 6, and blur makes it 0.92 alike them: one shape at the photo's noise.
        let cells = cells_at(&[(0, 0), (1, 3), (2, 6), (3, 1), (5, 4)]);
        let (six, eight) = (5, 7);
        let eights = one_hot(eight, 0.66, six, 0.63);
        let mut scores = vec![eights; 4];
        scores.push(one_hot(six, 0.74, eight, 0.66));
        let likeness = ndarray::Array2::from_shape_fn((5, 5), |(i, j)| match (i, j) {
            _ if i == j => 1.0,
            (4, _) | (_, 4) => 0.92,
            _ => 0.97,
        });
        let refined = refine(&scores, &likeness, &cells, &UNTOLD, &Budget::unlimited());
        // Grouped by shape, the 6 is read 8 with the others; kept apart, it reads 6.
        let best = |s: &[f32; 9]| (0..9).max_by(|&a, &b| s[a].total_cmp(&s[b])).unwrap();
        assert_eq!(best(&refined.scores[4]), eight);
        assert!(
            refined.alternatives.contains(&(vec![(4, six)], 0.0)),
            "{:?}",
            refined.alternatives
        );
        // A glyph the templates read as the others is no second opinion.
        scores[4] = one_hot(eight, 0.70, six, 0.66);
        let refined = refine(&scores, &likeness, &cells, &UNTOLD, &Budget::unlimited());
        assert!(refined.alternatives.iter().all(|(c, _)| *c != [(4, six)]));
    }

    /// The changes of the alternatives within `tuning::NEAR`.
    fn rivals(refined: &Refined) -> Vec<Vec<(usize, usize)>> {
        (refined.alternatives.iter())
            .filter(|(_, loss)| *loss <= tuning::NEAR)
            .map(|(c, _)| c.clone())
            .collect()
    }

    #[test]
    fn two_groups_the_templates_barely_tell_apart_are_a_rival_swap() {
        // Two single glyphs in one row: the first a little more 5 than 6, the second a
        // little more 6 than 5. Swapping them is allowed by the rules and costs little.
        let cells = cells_at(&[(0, 0), (0, 4)]);
        let scores = vec![one_hot(4, 0.80, 5, 0.78), one_hot(5, 0.80, 4, 0.78)];
        let likeness =
            ndarray::Array2::from_shape_fn((2, 2), |(i, j)| if i == j { 1.0 } else { 0.5 });
        let refined = refine(&scores, &likeness, &cells, &UNTOLD, &Budget::unlimited());
        assert!(
            rivals(&refined).contains(&vec![(0, 5), (1, 4)]),
            "{:?}",
            refined.alternatives
        );
        // Told apart clearly, there is no rival.
        let scores = vec![one_hot(4, 0.95, 5, 0.6), one_hot(5, 0.95, 4, 0.6)];
        assert!(rivals(&refine(
            &scores,
            &likeness,
            &cells,
            &UNTOLD,
            &Budget::unlimited()
        ))
        .is_empty());
    }

    /// The best total of an assignment where clashing groups differ, by trying them all.
    fn best_by_brute_force(scores: &[[f32; 9]], clash: &[Vec<bool>]) -> f32 {
        let n = scores.len();
        let mut best = f32::MIN;
        for code in 0..9usize.pow(n as u32) {
            let digits: Vec<usize> = (0..n).map(|g| code / 9usize.pow(g as u32) % 9).collect();
            let allowed =
                (0..n).all(|g| (0..n).all(|h| h == g || !clash[g][h] || digits[g] != digits[h]));
            if allowed {
                best = best.max(total(&digits, &|g: usize, d: usize| scores[g][d]));
            }
        }
        best
    }

    /// Which of `n` groups clash, pair by pair in order (a-b for a < b), from `links`.
    fn clash_of_links(n: usize, links: &[bool]) -> Vec<Vec<bool>> {
        let mut clash = vec![vec![false; n]; n];
        let pairs = (0..n).flat_map(|a| (a + 1..n).map(move |b| (a, b)));
        for ((a, b), &linked) in pairs.zip(links) {
            clash[a][b] = linked;
            clash[b][a] = linked;
        }
        clash
    }

    proptest::proptest! {
        #[test]
        fn the_assignment_is_the_best_the_rules_allow(
            scores in proptest::collection::vec(proptest::array::uniform9(-0.3f32..1.0), 5),
            links in proptest::collection::vec(proptest::bool::ANY, 10),
        ) {
            let n = scores.len();
            let clash = clash_of_links(n, &links);
            let groups: Vec<Vec<usize>> = (0..n).map(|g| vec![g]).collect();
            let picked = assign(&groups, &scores, &clash, None, &Budget::unlimited());
            let got = total(&picked, &|g: usize, d: usize| scores[g][d]);
            proptest::prop_assert!((got - best_by_brute_force(&scores, &clash)).abs() < 1e-5);
        }
    }

    /// The best total of an assignment where clashing groups differ and group `g` holds `d`,
    /// by trying them all; `None` when the rules allow none.
    fn best_forced_by_brute_force(
        scores: &[[f32; 9]],
        clash: &[Vec<bool>],
        (g, d): (usize, usize),
    ) -> Option<f32> {
        let mut forced = scores.to_vec();
        (0..9)
            .filter(|&e| e != d)
            .for_each(|e| forced[g][e] = f32::MIN / 1e6);
        let best = best_by_brute_force(&forced, clash);
        (best > f32::MIN / 1e7).then_some(best)
    }

    proptest::proptest! {
        #[test]
        fn a_forced_search_started_anywhere_finds_the_best_the_rules_allow(
            scores in proptest::collection::vec(proptest::array::uniform9(-0.3f32..1.0), 5),
            links in proptest::collection::vec(proptest::bool::ANY, 10),
            g in 0usize..5,
            d in 0usize..9,
        ) {
            let n = scores.len();
            let clash = clash_of_links(n, &links);
            let groups: Vec<Vec<usize>> = (0..n).map(|g| vec![g]).collect();
            let Some(expected) = best_forced_by_brute_force(&scores, &clash, (g, d)) else {
                return Ok(());
            };
            let mut forced = scores.clone();
            (0..9).filter(|&e| e != d).for_each(|e| forced[g][e] = f32::MIN / 1e6);
            // Started from the first assignment found with `d` there, as `forced` may be.
            let picked = assign(&groups, &scores, &clash, None, &Budget::unlimited());
            let assignment = Assignment {
                groups: &groups,
                scores: &scores,
                clash: &clash,
                picked: &picked,
                budget: &Budget::unlimited(),
            };
            let start = assignment.start(std::slice::from_ref(&picked), g, d);
            let setup = Forced { group: g, floor: f32::MIN, start };
            let found = assign(&groups, &forced, &clash, Some(setup), &Budget::unlimited());
            proptest::prop_assert_eq!(found[g], d);
            proptest::prop_assert!(allowed(&found, &clash));
            let got = total(&found, &|h: usize, e: usize| scores[h][e]);
            proptest::prop_assert!((got - expected).abs() < 1e-5, "{} {}", got, expected);
        }
    }

    #[test]
    fn an_assignment_of_look_alikes_stops_when_the_budget_runs_out() {
        // A lattice of thin lines: every cell holds the same cross, which no template reads
        // better as one digit than another, and no two share a group (crosses one cell apart
        // are told apart by the lines the cell cut). The branch and bound cannot prune among
        // nine near-equal digits per group: before the budget, each of its searches ran to a
        // cap of its own, again for every group and digit forced, for minutes.
        let cells: Vec<Pos> = Pos::all().collect();
        let scores: Vec<[f32; 9]> = (0..81)
            .map(|i| std::array::from_fn(|d| 0.5 + ((i * 7 + d * 3) % 11) as f32 * 1e-3))
            .collect();
        let likeness =
            ndarray::Array2::from_shape_fn((81, 81), |(i, j)| if i == j { 1.0 } else { 0.3 });
        let holes = vec![UNTOLD[0]; 81];
        let limit = 20_000;
        let budget = Budget::new(limit, None);
        refine(&scores, &likeness, &cells, &holes, &budget);
        assert!(budget.is_stopped(), "spent {}", budget.spent());
        // Every search stops at the step that ran out, and none spends more after it.
        assert_eq!(budget.spent(), limit + 1);
        assert!(matches!(
            budget.check(std::path::Path::new("lattice.png")),
            Err(crate::Error::OutOfSteps { .. })
        ));
    }

    #[test]
    fn three_groups_trading_digits_in_a_cycle_are_a_rival() {
        // Each glyph is nearly its neighbour's digit, and no two can simply swap: only the
        // cycle 1 -> 2 -> 3 -> 1 costs little.
        let cells = cells_at(&[(0, 0), (0, 4), (0, 8)]);
        let mut scores = vec![[0.1f32; 9]; 3];
        for (g, s) in scores.iter_mut().enumerate() {
            s[g] = 0.80;
            s[(g + 1) % 3] = 0.78;
            s[(g + 2) % 3] = 0.3;
        }
        let likeness =
            ndarray::Array2::from_shape_fn((3, 3), |(i, j)| if i == j { 1.0 } else { 0.5 });
        let refined = refine(&scores, &likeness, &cells, &UNTOLD, &Budget::unlimited());
        assert!(
            rivals(&refined).contains(&vec![(0, 1), (1, 2), (2, 0)]),
            "{:?}",
            refined.alternatives
        );
    }
}
