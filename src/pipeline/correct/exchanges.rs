//! Exchanges and relabellings: readings that rename the digits of whole groups into one another
//! (two digits swapped, or a cycle of up to `MAX_CYCLE`), the hypotheses beside single corrections,
//! each with its loss in template score.

use super::shapes::{bars_apart, shapes_tell_apart, sides_apart, Renamed, BAR_MARGIN, SIDE_MARGIN};

use crate::pipeline::recognize::{Recognized, Rival};
use crate::pipeline::tuning;
use crate::puzzle::board::{Board, Digit, Pos};

/// The longest cycle of digits renamed into one another that [`label_swaps`] weighs.
pub(super) const MAX_CYCLE: usize = 4;

/// `board` with each digit of `cycle` renamed to the next (the last to the first), as
/// [`rename`] renames the givens.
pub(super) fn relabelled(board: &Board, cycle: &[Digit]) -> Board {
    let mut out = *board;
    for pos in Pos::all() {
        if let Some(to) = board.get(pos).and_then(|d| renamed_to(cycle, d)) {
            out.set(pos, Some(to));
        }
    }
    out
}

/// The digit `cycle` renames `digit` to; `None` when the cycle leaves it alone.
fn renamed_to(cycle: &[Digit], digit: Digit) -> Option<Digit> {
    links(cycle).find_map(|(from, to)| (from == digit).then_some(to))
}

/// Every exchange of two digits both given (each read as one renamed to the other) that costs
/// at most `max_loss` per glyph renamed: the readings of whole digits the rules always
/// accept, as changes, for the loops to choose between (see `super::decided_by_loops`). A
/// font whose open `4`s the templates read as `9`s reads its closed `9`s as `4`s: two groups
/// misread into each other, never one rival of its own.
pub(super) fn close_exchanges(
    givens: &Board,
    evidence: &[Option<Recognized>],
    max_loss: f32,
) -> Vec<Rival> {
    renamed_close_exchanges(givens, evidence, max_loss)
        .map(|(renamed, loss)| as_rival(&renamed, loss))
        .collect()
}

/// [`close_exchanges`] glyph by glyph: each exchange's renamed givens and its loss per glyph.
fn renamed_close_exchanges<'a>(
    givens: &'a Board,
    evidence: &'a [Option<Recognized>],
    max_loss: f32,
) -> impl Iterator<Item = (Vec<Renamed>, f32)> + 'a {
    let pairs = Digit::all().flat_map(|a| {
        Digit::all()
            .filter(move |b| b.get() > a.get())
            .map(move |b| (a, b))
    });
    pairs.filter_map(move |(a, b)| {
        let renamed = exchange(givens, evidence, a, b)?;
        let loss: f32 = renamed.iter().map(|r| r.loss).sum::<f32>() / renamed.len() as f32;
        let both_given = renamed.iter().any(|r| r.read == a) && renamed.iter().any(|r| r.read == b);
        (both_given && loss <= max_loss).then_some((renamed, loss))
    })
}

/// An exchange's `renamed` givens as a rival reading losing `loss` per glyph.
fn as_rival(renamed: &[Renamed], loss: f32) -> Rival {
    Rival {
        changes: renamed.iter().map(|r| (r.cell, r.other)).collect(),
        loss,
        backed: false,
    }
}

/// The exchanges of two digits losing at most `max_loss` score per glyph renamed whose
/// glyphs' upper parts open the other way round from their digits as read, by at least
/// `SIDE_MARGIN` (see [`sides_apart`]): the templates may name an unbundled face's `3`s and
/// `5`s the wrong way round, and the rules cannot tell, but a `3`'s waist opens to the left
/// and a `5`'s to the right in every face.
pub(super) fn exchanges_the_sides_favour(
    givens: &Board,
    evidence: &[Option<Recognized>],
    max_loss: f32,
) -> Vec<Rival> {
    exchanges_where(givens, evidence, max_loss, |renamed| {
        sides_apart(renamed, evidence, false).is_some_and(|apart| apart <= -SIDE_MARGIN)
    })
}

/// The exchanges of two digits losing at most `max_loss` score per glyph renamed whose glyphs
/// cross a band with bars the other way round from the digits read, by at least `BAR_MARGIN`
/// strokes (see [`bars_apart`]): an unbundled hand's open `4`s read as `1`s and its slanted
/// `1`s as `4`s.
pub(super) fn exchanges_the_bars_favour(
    givens: &Board,
    evidence: &[Option<Recognized>],
    max_loss: f32,
) -> Vec<Rival> {
    exchanges_where(givens, evidence, max_loss, |renamed| {
        bars_apart(renamed, evidence).is_some_and(|apart| apart <= -BAR_MARGIN)
    })
}

/// The exchanges of two digits losing at most `max_loss` score per glyph renamed whose
/// renamed givens `favoured` holds for, as rivals.
fn exchanges_where(
    givens: &Board,
    evidence: &[Option<Recognized>],
    max_loss: f32,
    favoured: impl Fn(&[Renamed]) -> bool,
) -> Vec<Rival> {
    renamed_close_exchanges(givens, evidence, max_loss)
        .filter(|(renamed, _)| favoured(renamed))
        .map(|(renamed, loss)| as_rival(&renamed, loss))
        .collect()
}

/// The givens read as `a` or `b`, each renamed to the other (see [`rename`]).
pub(super) fn exchange(
    givens: &Board,
    evidence: &[Option<Recognized>],
    a: Digit,
    b: Digit,
) -> Option<Vec<Renamed>> {
    rename(givens, evidence, &[a, b])
}

/// The relabellings of the digits the rules can never tell apart from the reading: every
/// cycle of two to `MAX_CYCLE` digits (`a` read as `b`, `b` as `c`, ..., the last as `a`),
/// each listed once, its smallest digit first. The second-best labelling of a picture's digit
/// groups differs from the best by one cycle; in a font unlike every template, a longer cycle
/// can lose less than any exchange of two.
pub(super) fn relabellings() -> &'static [Vec<Digit>] {
    pub(super) fn extend(cycle: &mut Vec<Digit>, out: &mut Vec<Vec<Digit>>) {
        if cycle.len() >= 2 {
            out.push(cycle.clone());
        }
        if cycle.len() == MAX_CYCLE {
            return;
        }
        let next: Vec<Digit> = Digit::all()
            .filter(|d| d.get() > cycle[0].get() && !cycle.contains(d))
            .collect();
        for d in next {
            cycle.push(d);
            extend(cycle, out);
            cycle.pop();
        }
    }
    static CYCLES: std::sync::OnceLock<Vec<Vec<Digit>>> = std::sync::OnceLock::new();
    CYCLES.get_or_init(|| {
        let mut out = Vec::new();
        for first in Digit::all() {
            extend(&mut vec![first], &mut out);
        }
        out
    })
}

/// Each link of `cycle`: a digit and the one it is renamed to (the last to the first).
pub(super) fn links(cycle: &[Digit]) -> impl Iterator<Item = (Digit, Digit)> + '_ {
    (cycle.iter().zip(cycle.iter().cycle().skip(1))).map(|(&from, &to)| (from, to))
}

/// What renaming every given read as one digit to another loses, summed per pair of digits,
/// so each of the hundreds of relabellings is first weighed in a few adds: only those that
/// may come close are renamed glyph by glyph (see [`label_swaps`]).
pub(super) struct LinkLosses {
    /// `[read][other]`: the calibrated and the template score lost over the givens read as
    /// `read` (index 0 is digit 1) when renamed to `other`; `None` when one lacks a score.
    pub(super) lost: [[Option<(f32, f32)>; 9]; 9],
    /// How many givens are read as each digit.
    pub(super) count: [usize; 9],
}

impl LinkLosses {
    pub(super) fn of(givens: &Board, evidence: &[Option<Recognized>]) -> LinkLosses {
        let mut lost = [[Some((0.0, 0.0)); 9]; 9];
        let mut count = [0; 9];
        for cell in Pos::all() {
            let Some(read) = givens.get(cell) else {
                continue;
            };
            let r = evidence.get(cell.index()).and_then(Option::as_ref);
            let row = &mut lost[usize::from(read.get() - 1)];
            count[usize::from(read.get() - 1)] += 1;
            for other in Digit::all() {
                let link = &mut row[usize::from(other.get() - 1)];
                *link = match (r, *link) {
                    (Some(r), Some((loss, by_templates))) => {
                        r.score(read)
                            .zip(r.score(other))
                            .map(|(read_score, other_score)| {
                                (
                                    loss + read_score - other_score,
                                    by_templates + r.template_score(read) - r.template_score(other),
                                )
                            })
                    }
                    _ => None,
                };
            }
        }
        LinkLosses { lost, count }
    }

    /// Whether `cycle` may lose little enough to be a rival at the widest margin
    /// (`tuning::FAR` per glyph), or the templates alone prefer it; `false` when some
    /// glyph lacks the scores to weigh it, or no given is renamed.
    pub(super) fn may_be_close(&self, cycle: &[Digit]) -> bool {
        let index = |d: Digit| usize::from(d.get() - 1);
        let (mut loss, mut by_templates, mut renamed) = (0.0, 0.0, 0);
        for (read, other) in links(cycle) {
            let Some((l, t)) = self.lost[index(read)][index(other)] else {
                return false;
            };
            (loss, by_templates) = (loss + l, by_templates + t);
            renamed += self.count[index(read)];
        }
        // A little slack: summed in another order than the glyph-by-glyph weighing.
        renamed > 0 && (loss <= tuning::FAR * renamed as f32 + 1e-3 || by_templates < 1e-3)
    }
}

/// The givens read as a digit of `cycle`, each renamed to the digit after it (the last to
/// the first); `None` when there are none or one has no template scores to weigh it with.
pub(super) fn rename(
    givens: &Board,
    evidence: &[Option<Recognized>],
    cycle: &[Digit],
) -> Option<Vec<Renamed>> {
    let renamed: Option<Vec<Renamed>> = Pos::all()
        .filter_map(|cell| {
            let read = givens.get(cell)?;
            Some((cell, read, renamed_to(cycle, read)?))
        })
        .map(|(cell, read, other)| {
            let r = evidence.get(cell.index())?.as_ref()?;
            Some(Renamed {
                cell,
                read,
                other,
                loss: r.score(read)? - r.score(other)?,
                template_loss: r.template_score(read) - r.template_score(other),
            })
        })
        .collect();
    renamed.filter(|r| !r.is_empty())
}

/// Whether the glyphs' shapes refute one link of `cycle` (a digit renamed to the next), by
/// [`shapes_tell_apart`] on the glyphs read as the two.
pub(super) fn any_link_told_apart(
    cycle: &[Digit],
    renamed: &[Renamed],
    evidence: &[Option<Recognized>],
) -> bool {
    links(cycle).any(|(from, to)| {
        let mut link: Vec<Renamed> = (renamed.iter())
            .filter(|r| r.read == from || r.read == to)
            .map(|r| Renamed {
                other: if r.read == from { to } else { from },
                ..*r
            })
            .collect();
        link.sort_by_key(|r| r.read != from);
        shapes_tell_apart(&link, evidence)
    })
}
