//! The likeness cue: what a picture's own glyphs say about one glyph's digit. The glyphs of
//! one digit in one picture are near copies of each other, so a glyph's likeness to the
//! glyphs read as each digit rules digits out, backs rival readings and reads a player's
//! entries shaped like the givens.

use ndarray::Array2;

use super::calibrate::{cohesion, mean_likeness, same_shape, SAME_SHAPE};
use super::{digit_at, index_of, Recognized, Rival};
use crate::pipeline::cells::frame::OTHER_SHAPE;
use crate::pipeline::tuning;
use crate::puzzle::board::{Digit, Pos};

/// A player's entry shaped like the givens of one digit (often the same font and weight,
/// only another colour) is read as that digit: it takes the calibrated scores of its most
/// alike given, when it is at least `SAME_SHAPE` alike the givens of that digit and clearly
/// more alike them than those of any other digit. `scores` are every glyph's (the givens'
/// already refined), `likeness` between every pair of glyphs.
pub fn read_entries_like_givens(
    scores: &mut [[f32; 9]],
    likeness: &ndarray::Array2<f32>,
    givens: &[usize],
    entries: &[usize],
) {
    let best_digit = |s: &[f32; 9]| (0..9).max_by(|&a, &b| s[a].total_cmp(&s[b])).unwrap_or(0);
    let digits: Vec<usize> = givens.iter().map(|&g| best_digit(&scores[g])).collect();
    for &e in entries {
        let mut alike = [(0.0f32, 0usize); 9];
        for (&g, &d) in givens.iter().zip(&digits) {
            alike[d].0 += likeness[[e, g]];
            alike[d].1 += 1;
        }
        let mean = alike.map(|(sum, n)| if n == 0 { f32::MIN } else { sum / n as f32 });
        let d = best_digit(&mean);
        let second = (0..9)
            .filter(|&k| k != d)
            .map(|k| mean[k])
            .fold(f32::MIN, f32::max);
        if mean[d] < SAME_SHAPE || mean[d] - second < tuning::NEAR {
            continue;
        }
        let nearest = (givens.iter().zip(&digits))
            .filter(|&(_, &gd)| gd == d)
            .max_by(|a, b| likeness[[e, *a.0]].total_cmp(&likeness[[e, *b.0]]))
            .map(|(&g, _)| g);
        if let Some(g) = nearest {
            scores[e] = scores[g];
        }
    }
}

/// Each digit's (0-8) mean glyph in the comparison frame over the givens read as it, `None`
/// for a digit no given shows. `features` are every glyph's rows in the frame, `givens` the
/// givens' rows and `digits` their digits (0-8).
pub fn digit_centres(
    features: ndarray::ArrayView2<f32>,
    givens: &[usize],
    digits: &[usize],
) -> Vec<Option<ndarray::Array1<f32>>> {
    (0..9)
        .map(|d| {
            let rows: Vec<usize> = (givens.iter().zip(digits))
                .filter(|&(_, &gd)| gd == d)
                .map(|(&g, _)| g)
                .collect();
            features
                .select(ndarray::Axis(0), &rows)
                .mean_axis(ndarray::Axis(0))
        })
        .collect()
}

/// The digits (0-8) whose givens an entry (`glyph`, its row in the comparison frame) read as
/// `read` is shaped like rather than like the givens of `read`, on the strokes that tell the
/// two apart. The two digits' mean givens (`centres`, see [`digit_centres`]) give a direction
/// in the frame, which weighs only those strokes (a `6`'s closed bowl against a `5`'s open
/// one), where the likeness to whole glyphs hardly moves; the entry must lie `DISCRIMINATED`
/// of the way from the middle towards the other digit's givens. Empty when `read` has no
/// given to compare with.
pub fn shaped_like_givens_of(
    glyph: ndarray::ArrayView1<f32>,
    read: usize,
    centres: &[Option<ndarray::Array1<f32>>],
) -> Vec<usize> {
    let Some(own) = &centres[read] else {
        return Vec::new();
    };
    (0..9)
        .filter(|&other| other != read)
        .filter(|&other| {
            let Some(theirs) = &centres[other] else {
                return false;
            };
            let apart = theirs - own;
            let half = apart.dot(&apart) / 2.0;
            let middle = (theirs + own) / 2.0;
            half > f32::EPSILON && (&glyph - &middle).dot(&apart) / half >= DISCRIMINATED
        })
        .collect()
}

/// How far (1 = all the way) from the middle between two digits' givens towards the other
/// digit's an entry must lie to be shaped like that digit (see [`shaped_like_givens_of`]).
/// Only a reading the solution contradicts is changed by it, so the bar guards against hiding
/// a player's real mistake: at 0.25 and at 0.5 none of the tune renderings' planted wrong
/// entries was hidden, and 0.25 settled three entries more than 0.5 (a `6`, a `1`, a `5`).
const DISCRIMINATED: f32 = 0.25;

/// For each glyph (`digits[i]`, 0-8, read surely when `sure[i]`), the other digits it is
/// clearly unlike: at least two other glyphs are surely read as that digit, and this glyph is
/// on average at most `OTHER_SHAPE` alike them or `tuning::STRETCH` less alike them than they are
/// alike each other.
pub fn unlike_sure_readings(
    likeness: &ndarray::Array2<f32>,
    digits: &[usize],
    sure: &[bool],
) -> Vec<Vec<usize>> {
    let holders: Vec<Vec<usize>> = (0..9)
        .map(|d| {
            (0..digits.len())
                .filter(|&j| digits[j] == d && sure[j])
                .collect()
        })
        .collect();
    let cohesion: Vec<f32> = holders.iter().map(|h| cohesion(likeness, h)).collect();
    (0..digits.len())
        .map(|i| {
            (0..9)
                .filter(|&d| d != digits[i])
                .filter(|&d| {
                    let others: Vec<usize> =
                        holders[d].iter().copied().filter(|&j| j != i).collect();
                    if others.len() < 2 {
                        return false;
                    }
                    let across = mean_likeness(likeness, &[i], &others);
                    across <= OTHER_SHAPE || across <= cohesion[d] - tuning::STRETCH
                })
                .collect()
        })
        .collect()
}

/// For each glyph (`digits[i]`, 0-8), the other digits whose glyphs are all `tuning::CLEAR` less
/// alike it than its nearest look-alike read as its own digit. The glyphs of one digit in one
/// picture look alike, so such a glyph read alone as that other digit would be a shape of its
/// own; tiny glyphs, whose twins fall short of [`same_shape`], still resemble each other more
/// than any other digit's glyphs. A glyph with no other glyph of its own digit gets none.
pub fn nearer_own_digit(likeness: &ndarray::Array2<f32>, digits: &[usize]) -> Vec<Vec<usize>> {
    (0..digits.len())
        .map(|i| {
            let mut nearest = [f32::MIN; 9];
            for j in (0..digits.len()).filter(|&j| j != i) {
                nearest[digits[j]] = nearest[digits[j]].max(likeness[[i, j]]);
            }
            let own = nearest[digits[i]];
            if own == f32::MIN {
                return Vec::new();
            }
            (0..9)
                .filter(|&d| d != digits[i] && nearest[d] > f32::MIN)
                .filter(|&d| nearest[d] <= own - tuning::CLEAR)
                .collect()
        })
        .collect()
}

/// For each glyph (`digits[i]`, 0-8), the other digits whose glyphs look more like it (by
/// `tuning::NEAR`) than any glyph read as its own digit outside its twins (those alike it by
/// `SAME_SHAPE`, which share its reading whatever it is). A glyph with no such glyph of its own
/// digit has nothing to compare with, and gets none.
pub fn looks_more_like(likeness: &ndarray::Array2<f32>, digits: &[usize]) -> Vec<Vec<usize>> {
    let n = digits.len();
    let same = same_shape(likeness);
    (0..n)
        .map(|i| {
            let nearest = |accept: &dyn Fn(usize) -> bool| {
                (0..n)
                    .filter(|&j| j != i && accept(j))
                    .map(|j| likeness[[i, j]])
                    .max_by(f32::total_cmp)
            };
            let own = nearest(&|j| digits[j] == digits[i] && likeness[[i, j]] < same);
            let Some(own) = own else {
                return Vec::new();
            };
            (0..9)
                .filter(|&d| d != digits[i])
                .filter(|&d| nearest(&|j| digits[j] == d).is_some_and(|l| l > own + tuning::NEAR))
                .collect()
        })
        .collect()
}
/// Marks, for each given (`givens`: indices into `recognized`; `likeness`: between the givens),
/// the digits the picture rules out for it (see [`Recognized::unlike`]), and whether it has a
/// twin read as its own digit.
pub(super) fn rule_out_unlike(
    recognized: &mut [Recognized],
    givens: &[usize],
    likeness: &Array2<f32>,
) {
    let own: Vec<&Recognized> = givens.iter().map(|&i| &recognized[i]).collect();
    let digits: Vec<usize> = own.iter().map(|r| index_of(r.digit())).collect();
    let sure: Vec<bool> = (own.iter())
        .map(|r| r.confidence() >= tuning::CLEAR)
        .collect();
    let mut unlike = unlike_sure_readings(likeness, &digits, &sure);
    for (ruled_out, more) in unlike.iter_mut().zip(nearer_own_digit(likeness, &digits)) {
        for d in more {
            if !ruled_out.contains(&d) {
                ruled_out.push(d);
            }
        }
    }
    // A twin is a glyph the grouping would join to this one.
    let same = same_shape(likeness);
    for (k, &i) in givens.iter().enumerate() {
        recognized[i].has_twin =
            (0..givens.len()).any(|j| j != k && digits[j] == digits[k] && likeness[[k, j]] >= same);
    }
    for (&i, ruled_out) in givens.iter().zip(unlike) {
        recognized[i].unlike = (ruled_out.into_iter()).map(digit_at).collect();
    }
    let loops: Vec<u8> = (givens.iter())
        .map(|&i| recognized[i].holes.map_or(0, |l| l.count))
        .collect();
    for (k, &i) in givens.iter().enumerate() {
        recognized[i].loop_certain =
            loops[k] > 0 && !(0..givens.len()).any(|j| loops[j] == 0 && likeness[[k, j]] >= same);
    }
}

/// The readings the grid's own glyphs back (`own`: the givens, on `cells`, with `likeness`
/// between them), for a glyph and its twins (read alike, alike by `SAME_SHAPE`):
/// - a digit whose glyphs look more like them than any other glyph of their own digit does
///   (see [`looks_more_like`]);
/// - any runner-up digit, when another glyph read as their digit is clearly another shape
///   (alike them by at most `OTHER_SHAPE`): one font draws a digit one way, so one of the two
///   shapes is misread, and the templates alone do not say which.
pub(super) fn backed_rivals(
    own: &[&Recognized],
    cells: &[Pos],
    likeness: &Array2<f32>,
) -> Vec<Rival> {
    let digits: Vec<usize> = own.iter().map(|r| index_of(r.digit())).collect();
    let looks_like = looks_more_like(likeness, &digits);
    let same = same_shape(likeness);
    let mut out: Vec<Rival> = Vec::new();
    for (i, backed) in looks_like.into_iter().enumerate() {
        let twins: Vec<usize> = (0..own.len())
            .filter(|&j| j == i || (digits[j] == digits[i] && likeness[[i, j]] >= same))
            .collect();
        let contested = (0..own.len()).any(|j| {
            digits[j] == digits[i]
                && !twins.contains(&j)
                && twins.iter().all(|&t| likeness[[t, j]] <= OTHER_SHAPE)
        });
        let runner_ups = own[i].ranked[1..].iter().map(|&(d, _)| index_of(d));
        let candidates: Vec<usize> = if contested {
            runner_ups.collect()
        } else {
            backed
        };
        for d in candidates {
            let digit = digit_at(d);
            let changes: Vec<(Pos, Digit)> = twins.iter().map(|&j| (cells[j], digit)).collect();
            if out.iter().any(|r| r.changes == changes) {
                continue;
            }
            let lost: f32 = (twins.iter())
                .map(|&j| own[j].ranked[0].1 - own[j].score(digit).unwrap_or(0.0))
                .sum();
            out.push(Rival {
                changes,
                loss: lost / twins.len() as f32,
                backed: true,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_is_shaped_like_the_givens_it_matches_where_two_digits_differ() {
        // Features: a shared body (first axis) and the one stroke that tells a `5` from a `6`
        // (second axis). Two given 5s (digit index 4), two given 6s (index 5).
        let rows = [
            [0.95, 0.30, 0.0],
            [0.96, 0.28, 0.1],
            [0.95, -0.30, 0.0],
            [0.94, -0.32, 0.1],
            [0.90, -0.25, 0.3], // an entry read 5: a 6 in another weight
            [0.90, 0.25, 0.3],  // an entry read 5 that is a 5
        ];
        let features = ndarray::Array2::from_shape_fn((6, 3), |(i, k)| rows[i][k]);
        let centres = digit_centres(features.view(), &[0, 1, 2, 3], &[4, 4, 5, 5]);
        let like = |entry, read| shaped_like_givens_of(features.row(entry), read, &centres);
        assert_eq!(like(4, 4), vec![5]);
        assert!(like(5, 4).is_empty());
        // Read as a digit no given shows: nothing to compare with.
        assert!(like(4, 2).is_empty());
    }

    #[test]
    fn a_glyph_nearer_another_digits_glyphs_than_its_own_looks_like_that_digit() {
        // Glyphs 0 and 1 are twins read as digit index 4; glyph 2 is another 4, glyph 3 a 5,
        // glyph 4 a lone 6 unlike everything.
        let digits = [4, 4, 4, 5, 6];
        let pairs = [((0, 1), 0.99), ((0, 2), 0.7), ((1, 2), 0.7), ((0, 3), 0.85)];
        let likeness = ndarray::Array2::from_shape_fn((5, 5), |(i, j)| {
            if i == j {
                return 1.0;
            }
            let key = (i.min(j), i.max(j));
            pairs.iter().find(|p| p.0 == key).map_or(0.3, |p| p.1)
        });
        let looks = looks_more_like(&likeness, &digits);
        // The twin does not count as its own digit's evidence; the other 4 (0.7) does, and
        // the 5 (0.85) is nearer by more than the margin.
        assert_eq!(looks[0], vec![5]);
        // Glyph 1 is as near the other 4 (0.7) as the 5 is (0.3): nothing.
        assert!(looks[1].is_empty());
        // A lone glyph has nothing of its own to compare with.
        assert!(looks[4].is_empty());
    }

    #[test]
    fn a_tiny_glyph_nearer_its_own_digits_glyphs_is_not_another_digit_alone() {
        // Measured on a typeset page in Crimson Text, digits 8 px tall: its four 8s are 0.81-0.90
        // alike each other, below `SAME_SHAPE`, so the last one is a shape group of its own;
        // its three 6s are 0.64-0.73 alike it. Glyph 4 is a 9, as alike the 8 as the 8s are.
        let digits = [7, 7, 7, 7, 8, 5, 5, 5];
        let alike = |i: usize, j: usize| match (i.min(j), i.max(j)) {
            (a, b) if a == b => 1.0,
            (0, 3) => 0.9,
            (_, b) if b < 4 => 0.87,
            (3, 4) => 0.88,
            (3, 5) => 0.73,
            (3, _) => 0.71,
            _ => 0.6,
        };
        let likeness = ndarray::Array2::from_shape_fn((8, 8), |(i, j)| alike(i, j));
        let ruled_out = nearer_own_digit(&likeness, &digits);
        // The 6s (index 5) are 0.17 less alike the last 8 than its nearest 8; the 9 is not.
        assert_eq!(ruled_out[3], vec![5]);
        // A glyph whose digit has no other glyph has nothing to compare with.
        assert!(ruled_out[4].is_empty());
    }

    #[test]
    fn a_glyph_unlike_the_sure_ones_of_a_digit_is_not_that_digit() {
        // Glyphs 0-2 surely read 1 and alike each other (0.97); glyph 3 read 3 is only 0.75
        // like them, glyph 4 read 7 is 0.9 like them (blur makes a 7 look like a 1).
        let digits = [0, 0, 0, 2, 6];
        let alike = |i: usize, j: usize| match (i.min(j), i.max(j)) {
            _ if i == j => 1.0,
            (a, b) if b < 3 && a < 3 => 0.97,
            (a, 3) if a < 3 => 0.75,
            (a, 4) if a < 3 => 0.9,
            _ => 0.5,
        };
        let likeness = ndarray::Array2::from_shape_fn((5, 5), |(i, j)| alike(i, j));
        let unlike = unlike_sure_readings(&likeness, &digits, &[true; 5]);
        assert!(unlike[3].contains(&0), "{unlike:?}");
        assert!(!unlike[4].contains(&0), "{unlike:?}");
        // Readings that are not sure rule nothing out.
        let unsure = unlike_sure_readings(&likeness, &digits, &[false, false, false, true, true]);
        assert!(!unsure[3].contains(&0), "{unsure:?}");
    }

    #[test]
    fn two_shapes_read_as_one_digit_make_a_rival_of_the_runner_up() {
        // Glyphs 0 and 1 are twins read 2 (runner-up 3, 0.1 behind); glyph 2 is read 2 too but
        // is another shape (likeness `other`); glyph 3 is a 7.
        let cells: Vec<Pos> = [(0, 0), (4, 4), (8, 8), (2, 6)]
            .iter()
            .map(|&(r, c)| Pos::new(r, c).unwrap())
            .collect();
        let read = |best: usize, runner: usize, gap: f32| {
            let mut scores = [0.1; 9];
            scores[best] = 0.6;
            scores[runner] = 0.6 - gap;
            Recognized::from_scores(scores)
        };
        let own = [
            read(1, 2, 0.1),
            read(1, 2, 0.1),
            read(1, 8, 0.4),
            read(6, 0, 0.4),
        ];
        let own: Vec<&Recognized> = own.iter().collect();
        let with = |other: f32| {
            Array2::from_shape_fn((4, 4), |(i, j)| match (i.min(j), i.max(j)) {
                _ if i == j => 1.0,
                (0, 1) => 0.97,
                (0, 2) | (1, 2) => other,
                _ => 0.3,
            })
        };
        let three = Digit::new(3).unwrap();
        let twins_as_three = vec![(cells[0], three), (cells[1], three)];
        let rivals = backed_rivals(&own, &cells, &with(0.45));
        let rival = rivals
            .iter()
            .find(|r| r.changes == twins_as_three)
            .expect("the twins' runner-up is a rival");
        assert!(rival.backed && rival.is_close(), "{rival:?}");
        // The lone other shape's own runner-up is 0.4 behind: listed, but no close rival.
        assert!(rivals
            .iter()
            .filter(|r| r.changes.iter().any(|c| c.0 == cells[2]))
            .all(|r| !r.is_close()));
        // When the two shapes are alike enough to be one digit's, nothing is contested.
        assert!(backed_rivals(&own, &cells, &with(0.8)).is_empty());
    }
}
