//! Doubt: an answer is only as good as its reading. A cell is doubtful when another digit fits
//! its glyph almost as well **and** the puzzle read that way also has exactly one, different,
//! solution: the rules cannot tell the two readings apart, so neither answer may be drawn with
//! confidence. Several solutions, two corrections that both work, or a rival reading of whole
//! shape groups (see [`Rival`]) are doubtful the same way.

use super::loops::{loops_favour, loops_rule_out};
use super::{with_changes, Alternative, Candidates, Correction, Decision, WEAK_FIT};
use crate::budget::{Budget, SOLVE_STEPS};
pub use crate::findings::Doubt;
use crate::pipeline::recognize::calibrate::ALTERNATIVE_LOSS;
use crate::pipeline::recognize::topology::{self, Part, Sides};
use crate::pipeline::recognize::{Recognized, Rival};
use crate::puzzle::board::{Board, Digit, Pos};
use crate::puzzle::solve::{self, Verdict};

/// A runner-up scoring within this of the best digit is a reading the glyph supports too.
const CLOSE_SCORE: f32 = crate::pipeline::tuning::CLOSE;
/// The longest cycle of digits renamed into one another that [`label_swaps`] weighs.
const MAX_CYCLE: usize = 4;
/// How many times as wide as another digit's glyphs the glyphs read as `1` may be before the
/// widths speak against the reading (see [`ones_wider`]): beyond the widest `1` measured for
/// `NARROW_ONE` (a monospaced face's, with its foot, 1.4 times its 8).
const WIDE_ONE: f32 = 1.5;
/// After a correction, how close to its best score a runner-up must come for
/// [`rival_pairs`] to read it. Set from the two round-3 tune pictures it was made for (a
/// handwriting face's open-looped 8s, runner-ups 0.11 and about 0.13 behind; at 0.12 one of
/// the two still drew a wrong answer). On the tune sets (ten renderings, round 3 seeds 1-8,
/// round 4 seeds 1-4: 10,215 answers drawn) it refuses those two and one more wrong answer,
/// and no right one.
const PAIR_SCORE: f32 = crate::pipeline::tuning::STRETCH;
/// How many cells a doubt about several solutions lists at most.
const MAX_LISTED: usize = 12;
/// How much further, on average, the glyphs read as a digit whose upper part opens to the left
/// (`2`, `3`) must open that way than those read as one opening to the right (`5`, `6`) for
/// the sides to tell the two apart (see [`topology::opening`]). Measured on the tune
/// families' `2`, `3`, `5` and `6` rendered at 14, 20 and 48 px at three weights each: the
/// median difference is about 1; where the sides come out reversed, by at most 0.2 (a black
/// didone's hairline `5` stem lost at 48 px; tiny black faces filling their openings), and
/// once by 0.67 (a hairline face at 14 px, its `2` reduced to a corner). The same margin
/// between a part open to one side and a closed one (a `6`'s upper part and an `8`'s, a `9`'s
/// lower part and an `8`'s): on the first tune rendering (825 pictures, each digit's glyphs
/// averaged per picture) such pairs stand at least 0.4 apart in 72-99 % of the pictures, and
/// come out reversed by at most 0.22, but for that `2`.
const SIDE_MARGIN: f32 = 0.4;
/// How many strokes longer, on average, the glyphs read as `4` must cross their middle rows
/// than those read as `1`, or those read as `7` their top rows than those read as `4`, for the
/// bars to tell the two apart (see [`topology::bars`]).
/// Measured per picture, the `4`s' mean less the `1`s': on the first tune rendering (819
/// pictures giving both, every kind of face) median 3.9, 2nd percentile 0.74, least -0.19
/// (Syne, whose `1` has a long flag); on a round-4 tune rendering (300, mostly hands) median
/// 3.7, 2nd percentile 0.35, and the six pictures below 0 all misread other digits too. The
/// `7`s' top bars less the `4`s': on the first, median 3.2, 2nd percentile 0.76, least 0.33;
/// on the second, median 2.9, and every picture below 0.5 misread other digits too.
const BAR_MARGIN: f32 = 1.0;
/// The glyphs read as `1` are confirmed as `1`s beside another digit's when at most this
/// share of that digit's width, on average. Measured on the tune families' digits at three
/// sizes and weights: a `1` is at most half as wide as a `2` in 17 % of them (a plain stroke,
/// no foot), and no digit is ever at most half as wide as a `1` (the widest `1`, a
/// monospaced face's with its foot, is 1.4 times its `8`).
const NARROW_ONE: f32 = 0.5;

/// The cells of each rival reading that gives the puzzle one, different, solution.
///
/// With `as_read` (no cell was corrected), a rival changing one glyph to a digit the picture
/// rules out there (see [`Recognized::unlike`]: it looks much more like the glyphs read as its
/// own digit) is no rival: a shape group of one, split from its twins only because tiny glyphs
/// differ more than the grouping allows. Nor, as read, is a rival each of whose changes is
/// refuted by the side its glyph's upper part opens to (see [`Openings::rule_out`]).
pub(super) fn rival_answers(
    givens: &Board,
    evidence: &[Option<Recognized>],
    rivals: &[Rival],
    solution: &Board,
    as_read: bool,
    marks: Candidates<'_>,
    budget: &Budget,
) -> Vec<Doubt> {
    let mut out: Vec<Doubt> = Vec::new();
    let openings = as_read.then(|| Openings::of(givens, evidence));
    for Rival { changes, .. } in rivals.iter().filter(|r| r.is_close()) {
        // A rival the loops refute (see `loops_favour`) is no rival, nor one whose every
        // change the sides the glyphs open to refute (see `Openings::rule_out`).
        if loops_favour(changes, givens, evidence) == Some(false) {
            continue;
        }
        let sides_refute = |openings: &Openings| {
            changes.iter().all(|&(cell, digit)| {
                let r = evidence.get(cell.index()).and_then(Option::as_ref);
                (r.zip(givens.get(cell))).is_some_and(|(r, read)| openings.rule_out(r, read, digit))
            })
        };
        if openings.as_ref().is_some_and(sides_refute) {
            continue;
        }
        if let [(cell, digit)] = changes[..] {
            let ruled_out = |r: &Recognized| r.unlike.contains(&digit);
            if as_read && evidence[cell.index()].as_ref().is_some_and(ruled_out) {
                continue;
            }
        }
        let board = with_changes(givens, changes);
        if !answers_otherwise(&board, solution, marks, budget) {
            continue;
        }
        for &(cell, digit) in changes {
            add_could_be(&mut out, givens, cell, digit);
        }
    }
    out.sort_by_key(|d| d.cell.index());
    out
}

/// Adds `digit` to what `cell` could be, making it a doubt if it is none yet.
fn add_could_be(out: &mut Vec<Doubt>, givens: &Board, cell: Pos, digit: Digit) {
    match out.iter_mut().find(|d| d.cell == cell) {
        Some(d) if !d.could_be.contains(&digit) => d.could_be.push(digit),
        Some(_) => {}
        None => out.push(Doubt {
            cell,
            read: givens.get(cell),
            could_be: vec![digit],
        }),
    }
}

/// The cells two working corrections disagree on, each with the digits they use.
pub(super) fn rival_corrections(
    givens: &Board,
    a: &[Alternative],
    b: &[Alternative],
) -> Vec<Doubt> {
    let mut out: Vec<Doubt> = Vec::new();
    for alt in a.iter().chain(b) {
        let doubt = match out.iter_mut().find(|d| d.cell == alt.pos) {
            Some(d) => d,
            None => {
                out.push(Doubt {
                    cell: alt.pos,
                    read: givens.get(alt.pos),
                    could_be: Vec::new(),
                });
                out.last_mut().expect("just pushed")
            }
        };
        if !doubt.could_be.contains(&alt.digit) {
            doubt.could_be.push(alt.digit);
        }
    }
    out.sort_by_key(|d| d.cell.index());
    out
}

/// Whether `board` has one solution, another than `solution`, that the pencil `marks` do not
/// refute beside it: a reading the rules cannot tell from the one that answered `solution`.
fn answers_otherwise(
    board: &Board,
    solution: &Board,
    marks: Candidates<'_>,
    budget: &Budget,
) -> bool {
    matches!(super::check(board, budget), Ok(Verdict::Unique(other))
        if other != *solution && !marks.refute(solution, &other))
}

/// The doubtful cells of a solved reading (see the module comment); a rival reading whose
/// answer the pencil `marks` refute is none.
pub(super) fn doubts(
    solved: &Decision,
    evidence: &[Option<Recognized>],
    marks: Candidates<'_>,
    budget: &Budget,
) -> Vec<Doubt> {
    match &solved.verdict {
        Ok(Verdict::Unique(solution)) => {
            let close = close_rivals(
                &solved.givens,
                evidence,
                solution,
                solved.corrections.is_empty(),
                marks,
                budget,
            );
            if !close.is_empty() {
                return close;
            }
            let pairs = if solved.corrections.is_empty() {
                Vec::new()
            } else {
                rival_pairs(
                    &solved.givens,
                    evidence,
                    &solved.corrections,
                    solution,
                    (marks, budget),
                )
            };
            if pairs.is_empty() {
                label_swaps(&solved.givens, evidence, solution, marks)
            } else {
                pairs
            }
        }
        Ok(Verdict::Multiple(first)) => open_cells(&solved.givens, first, budget),
        Ok(Verdict::Unsolvable) => least_confident(&solved.givens, evidence, &[]),
        Err(conflict) => {
            least_confident(&solved.givens, evidence, &[conflict.first, conflict.second])
        }
    }
}

/// Given cells where a runner-up digit scores close to the read one and also gives the puzzle
/// one solution, a different one.
///
/// With `as_read` (no cell was corrected), a runner-up the picture itself rules out (the
/// glyph is clearly unlike the glyphs surely read as that digit) is no rival, nor is any
/// runner-up at a glyph with a twin read as its own digit: one font draws a digit one way, so
/// twins are misread together, and whole groups are weighed by [`label_swaps`] (glyphs with
/// twins were refused: a handwriting font's 1 that could be 7), nor a runner-up the sides the
/// glyph's parts open to rule out (see [`Openings::rule_out`]: a lone `8` closed below, beside
/// `9`s open there to the left). After a correction every runner-up counts: the reading is
/// already known to be wrong somewhere.
fn close_rivals(
    givens: &Board,
    evidence: &[Option<Recognized>],
    solution: &Board,
    as_read: bool,
    marks: Candidates<'_>,
    budget: &Budget,
) -> Vec<Doubt> {
    let mut out = Vec::new();
    let openings = as_read.then(|| Openings::of(givens, evidence));
    for pos in Pos::all() {
        let (Some(read), Some(Some(r))) = (givens.get(pos), evidence.get(pos.index())) else {
            continue;
        };
        let best = r.ranked[0].1;
        let mut could_be = Vec::new();
        let sides_rule_out = |d: Digit| openings.as_ref().is_some_and(|o| o.rule_out(r, read, d));
        // A misshapen glyph's scores prove little: every other digit is a rival.
        let possible = |d: &Digit| {
            *d != read
                && (r.misshapen
                    || !((as_read && (r.unlike.contains(d) || r.has_twin))
                        || loops_rule_out(r, read, *d)
                        || sides_rule_out(*d)))
        };
        // After a correction the calibration may be what erred: a digit the templates alone
        // rank close is a rival too.
        let template_best = r.template.iter().copied().fold(f32::MIN, f32::max);
        let close = |digit: Digit, score: f32| {
            best - score <= CLOSE_SCORE
                || r.misshapen
                || (!as_read && template_best - r.template_score(digit) <= CLOSE_SCORE)
        };
        for &(digit, score) in r.ranked.iter().filter(|(d, _)| possible(d)) {
            if !close(digit, score) {
                continue;
            }
            let mut board = *givens;
            board.set(pos, Some(digit));
            if answers_otherwise(&board, solution, marks, budget) {
                could_be.push(digit);
            }
        }
        if could_be.is_empty() && r.loop_certain && topology::loop_rules_out(read, r.holes) {
            // The glyph's own loop says it is no `read` (see `Recognized::loop_certain`): any
            // digit that may close it and fits the houses is a rival.
            could_be = fitting_digits(givens, pos, read)
                .into_iter()
                .filter(|&d| !topology::loop_rules_out(d, r.holes))
                .collect();
        }
        if could_be.is_empty() && r.misshapen && !as_read {
            // The reading is wrong somewhere, and a glyph joined to other ink is the likeliest
            // place: its own misreading may be what the correction made up for, so no
            // single change of it tests the answer.
            could_be = fitting_digits(givens, pos, read);
        }
        if !could_be.is_empty() {
            out.push(Doubt {
                cell: pos,
                read: Some(read),
                could_be,
            });
        }
    }
    out
}

/// How far the upper and the lower parts of the givens read as each digit open to the left,
/// summed, and how many were measured (see [`topology::opening`]).
struct Openings {
    sums: [[f32; 9]; 2],
    counts: [[usize; 9]; 2],
}

impl Openings {
    fn of(givens: &Board, evidence: &[Option<Recognized>]) -> Openings {
        let mut out = Openings {
            sums: [[0.0; 9]; 2],
            counts: [[0; 9]; 2],
        };
        for pos in Pos::all() {
            let (Some(read), Some(Some(r))) = (givens.get(pos), evidence.get(pos.index())) else {
                continue;
            };
            let k = usize::from(read.get() - 1);
            for part in Part::ALL {
                if let Some(opening) = r.opening(part) {
                    out.sums[part.index()][k] += opening;
                    out.counts[part.index()][k] += 1;
                }
            }
        }
        out
    }

    /// The mean opening of `part` of the givens read as `digit`, leaving out one glyph's
    /// `own` when it is one of them; `None` when no other was measured.
    fn mean(&self, part: Part, digit: Digit, own: Option<f32>) -> Option<f32> {
        let p = part.index();
        let k = usize::from(digit.get() - 1);
        let (sum, count) = match own {
            Some(o) => (self.sums[p][k] - o, self.counts[p][k].checked_sub(1)?),
            None => (self.sums[p][k], self.counts[p][k]),
        };
        (count > 0).then(|| sum / count as f32)
    }

    /// Whether a glyph `r` read as `read` is no `other`: a part of the two digits meets the
    /// sides differently (see [`telling_parts`]: a `3`'s upper part opens to the left and a
    /// `5`'s to the right), the picture's other givens read as each open apart as those
    /// digits do by at least `SIDE_MARGIN`, and this glyph opens nearer those read as
    /// `read`; with no other given read as `read`, the glyph itself stands that far apart
    /// from those read as `other`. The templates' runner-up is then their confusion, not the
    /// glyph's shape (Marcellus: its `3`s open to the left by 0.30 on average and its `5`s to
    /// the right by 0.31, while the calibration offered a reading exchanging some of them,
    /// nearly as good to the templates).
    fn rule_out(&self, r: &Recognized, read: Digit, other: Digit) -> bool {
        telling_parts(read, other, true).any(|(part, leftward)| {
            let Some(opening) = r.opening(part) else {
                return false;
            };
            let own = self.mean(part, read, Some(opening)).unwrap_or(opening);
            let Some(theirs) = self.mean(part, other, None) else {
                return false;
            };
            let apart = (own - theirs) * leftward;
            apart >= SIDE_MARGIN && (opening - own).abs() < (opening - theirs).abs()
        })
    }
}

/// After a correction: two given glyphs read at once as runner-ups scoring within
/// `PAIR_SCORE` of their best, when that gives the puzzle one, different, solution. The
/// reading is known to be wrong somewhere, and a wrong given the correction did not find can
/// hide behind the one it did: two misreads that agree with each other pass every single-cell
/// test (a handwriting face's open-looped 8s read 2 and 9, the 2 corrected to 6). A glyph with
/// a twin read as its own digit is left to [`label_swaps`], as in [`close_rivals`]: twins are
/// misread together (two of a didone's three 5s read as 3 were a rival otherwise). Nor is a
/// corrected glyph read back as first read: the rules refused that reading already, and two
/// corrections undone together are an exchange of two digits, which [`label_swaps`] weighs.
fn rival_pairs(
    givens: &Board,
    evidence: &[Option<Recognized>],
    corrections: &[Correction],
    solution: &Board,
    (marks, budget): (Candidates<'_>, &Budget),
) -> Vec<Doubt> {
    let mut alternatives: Vec<(Pos, Digit)> = Vec::new();
    for pos in Pos::all() {
        let (Some(read), Some(Some(r))) = (givens.get(pos), evidence.get(pos.index())) else {
            continue;
        };
        let best = r.ranked[0].1;
        alternatives.extend(
            r.ranked
                .iter()
                .filter(|&&(d, score)| {
                    d != read
                        && best - score <= PAIR_SCORE
                        && !r.has_twin
                        && !r.unlike.contains(&d)
                        && !corrections.iter().any(|c| c.cell == pos && c.read == d)
                        && !loops_rule_out(r, read, d)
                })
                .map(|&(d, _)| (pos, d)),
        );
    }
    let mut out: Vec<Doubt> = Vec::new();
    for (i, &a) in alternatives.iter().enumerate() {
        for &b in alternatives[i + 1..].iter().filter(|b| b.0 != a.0) {
            let board = with_changes(givens, &[a, b]);
            if board.first_conflict().is_some()
                || !answers_otherwise(&board, solution, marks, budget)
            {
                continue;
            }
            for (cell, digit) in [a, b] {
                add_could_be(&mut out, givens, cell, digit);
            }
        }
    }
    out.sort_by_key(|d| d.cell.index());
    out
}

/// The digits other than `read` that no other given in `pos`'s row, column or box holds.
fn fitting_digits(givens: &Board, pos: Pos, read: Digit) -> Vec<Digit> {
    Digit::all()
        .filter(|&d| d != read)
        .filter(|&d| {
            let mut board = *givens;
            board.set(pos, Some(d));
            board.first_conflict().is_none()
        })
        .collect()
}

/// Two digits (or a cycle of up to `MAX_CYCLE`) whose glyphs the templates barely tell apart,
/// as a doubt on every cell that holds one of them.
///
/// The rules check a reading only up to the names of the digits: exchanging two digits
/// everywhere (or renaming one the givens lack, or renaming several in a cycle: see
/// [`relabellings`]) leaves a puzzle with one solution, another one. Only the glyphs can tell
/// the two readings apart, so the exchange is a rival when it
/// loses at most `CLOSE_SCORE` of template score per glyph renamed, on average: the glyphs of
/// one digit in one picture are near-identical renderings, so many of them are hardly
/// stronger evidence than one. A correction's exchange can even gain score, when the rules
/// accepted a relabelling of the groups the templates like less than the truth. And when the
/// templates alone (before the grid's calibration) prefer the exchange, the calibration that
/// chose the reading is its only evidence: a doubt too, however far the calibrated scores
/// moved apart.
///
/// When the two digits' glyphs fit the templates poorly (their mean best score below
/// `WEAK_FIT`) the scores name them poorly too: the exchange is then a rival up to the loss
/// of any alternative reading (`ALTERNATIVE_LOSS` per group). So is the exchange of a digit
/// given once with one the givens lack: a single glyph, with no twin to confirm its shape, is
/// all that names it (a hairline font's flat-topped 3 read as 5 by 0.19 drew a wrong answer).
/// So is an exchange of `1`s whose glyphs read as `1` are far wider than the others (see
/// [`ones_wider`]), however much score it loses: a `1` is never that wide, so the templates
/// that named such glyphs `1` were misled by an unbundled hand (East Sea Dokdo's open `4`s
/// read as `1`, 0.27-0.31 a glyph ahead of `4`).
fn label_swaps(
    givens: &Board,
    evidence: &[Option<Recognized>],
    solution: &Board,
    marks: Candidates<'_>,
) -> Vec<Doubt> {
    let mut out: Vec<Doubt> = Vec::new();
    let best_score = |cell: Pos| {
        evidence
            .get(cell.index())
            .and_then(Option::as_ref)
            .map_or(0.0, Recognized::fit)
    };
    let links = LinkLosses::of(givens, evidence);
    let one = Digit::new(1).expect("1 is a digit");
    for cycle in relabellings() {
        let may_be_close = links.may_be_close(cycle);
        // However much an exchange of 1s loses, wide 1s may make it a doubt.
        let exchanges_ones = cycle.len() == 2 && cycle.contains(&one);
        if !(may_be_close || exchanges_ones) {
            continue;
        }
        let Some(renamed) = rename(givens, evidence, cycle) else {
            continue;
        };
        let wide_ones = ones_wider(&renamed, evidence);
        if !may_be_close && !wide_ones {
            continue;
        }
        let loss: f32 = renamed.iter().map(|r| r.loss).sum();
        let by_templates: f32 = renamed.iter().map(|r| r.template_loss).sum();
        let fit = renamed.iter().map(|r| best_score(r.cell)).sum::<f32>();
        // The relabelling as changes to the reading: the loops may refute it or back it.
        let changes: Vec<(Pos, Digit)> = renamed.iter().map(|r| (r.cell, r.other)).collect();
        let loops = loops_favour(&changes, givens, evidence);
        if loops == Some(false) || any_link_told_apart(cycle, &renamed, evidence) {
            continue;
        }
        let close =
            if fit < WEAK_FIT * renamed.len() as f32 || loops == Some(true) || renamed.len() == 1 {
                ALTERNATIVE_LOSS
            } else {
                CLOSE_SCORE
            };
        if loss > close * renamed.len() as f32 && by_templates >= 0.0 && !wide_ones {
            continue;
        }
        // The rules are blind to names: the relabelled reading answers the relabelled
        // solution, which the player's candidates may refute.
        if marks.refute(solution, &relabelled(solution, cycle)) {
            continue;
        }
        for Renamed { cell, other, .. } in renamed {
            add_could_be(&mut out, givens, cell, other);
        }
    }
    out.sort_by_key(|d| d.cell.index());
    out
}

/// `board` with each digit of `cycle` renamed to the next (the last to the first), as
/// [`rename`] renames the givens.
fn relabelled(board: &Board, cycle: &[Digit]) -> Board {
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

/// Whether the glyphs' shapes confirm an exchange's two digits as read, comparing the two
/// groups of glyphs with each other, so the picture's own font, size and blur set the scale:
/// - the sides their upper parts open to, where one digit opens to the left and the other to
///   the right (see [`sides_apart`]): the glyphs read as the left-opening one open further
///   left, on average, by `SIDE_MARGIN`;
/// - their widths, where one digit is `1`: the glyphs read as `1` are at most `NARROW_ONE` as
///   wide as the others, on average.
fn shapes_tell_apart(renamed: &[Renamed], evidence: &[Option<Recognized>]) -> bool {
    if let Some(apart) = sides_apart(renamed, evidence, true) {
        return apart >= SIDE_MARGIN;
    }
    bars_apart(renamed, evidence).is_some_and(|apart| apart >= BAR_MARGIN)
        || widths_of_ones(renamed, evidence)
            .is_some_and(|(ones, others)| ones <= NARROW_ONE * others)
}

/// For an exchange of two digits one of which every face draws with the longer bar (see
/// [`topology::longer_bar`]: a `4` against a `1` across its middle, a `7` against a `4` across
/// its top), how many strokes longer the glyphs read as that digit cross the band than those
/// read as the other, on average: positive when the shapes agree with the reading, negative
/// when with the exchange. `None` for other pairs, or when a glyph was not measured.
fn bars_apart(renamed: &[Renamed], evidence: &[Option<Recognized>]) -> Option<f32> {
    let first = renamed.first()?;
    let (bar, toward_read) = topology::longer_bar(first.read, first.other)?;
    let length = |r: &Recognized| r.bar(bar);
    let read = mean_of(renamed, evidence, first.read, &length)?;
    let other = mean_of(renamed, evidence, first.other, &length)?;
    Some((read - other) * toward_read)
}

/// Whether, in an exchange of `1` with another digit, the glyphs read as `1` are more than
/// `WIDE_ONE` times as wide as those read as the other digit, on average: the widths speak for
/// the exchange (a cursive face's barred 7s and open 4s read as 1, its slanted 1s as 7).
fn ones_wider(renamed: &[Renamed], evidence: &[Option<Recognized>]) -> bool {
    widths_of_ones(renamed, evidence).is_some_and(|(ones, others)| ones > WIDE_ONE * others)
}

/// For an exchange of `1` with another digit, the mean width of the glyphs read as `1` and of
/// those read as the other digit; `None` for other relabellings, or when a glyph was not
/// measured.
fn widths_of_ones(renamed: &[Renamed], evidence: &[Option<Recognized>]) -> Option<(f32, f32)> {
    let first = renamed.first()?;
    let one = Digit::new(1).expect("1 is a digit");
    let other = match (first.read == one, first.other == one) {
        (true, false) => first.other,
        (false, true) => first.read,
        _ => return None,
    };
    if renamed.iter().any(|r| ![one, other].contains(&r.read)) {
        return None;
    }
    let width = |r: &Recognized| r.width.map(|w| w as f32);
    Some((
        mean_of(renamed, evidence, one, &width)?,
        mean_of(renamed, evidence, other, &width)?,
    ))
}

/// For an exchange of two digits a part of which meets the sides differently (see
/// [`telling_parts`]: a `3` and a `5`, or a `6` and an `8`), how much further the glyphs read
/// as one open the way that digit does than those read as the other, on average (see
/// [`topology::opening`]), in the part that agrees best with the reading: positive when the
/// shapes agree with the reading, negative when every such part agrees with the exchange.
/// `None` for other pairs, or when a glyph was not measured. A `3` and an `8` differ in both
/// parts, and a bold `3`'s narrow upper bowl leaves the upper part a poorer witness than the
/// lower (at least 0.4 apart in 79 % of the first tune rendering's pictures above, 95 %
/// below).
fn sides_apart(
    renamed: &[Renamed],
    evidence: &[Option<Recognized>],
    closed_too: bool,
) -> Option<f32> {
    let first = renamed.first()?;
    let apart = |(part, leftward): (Part, f32)| {
        let opening = |r: &Recognized| r.opening(part);
        let read = mean_of(renamed, evidence, first.read, &opening)?;
        let other = mean_of(renamed, evidence, first.other, &opening)?;
        Some((read - other) * leftward)
    };
    telling_parts(first.read, first.other, closed_too)
        .filter_map(apart)
        .max_by(f32::total_cmp)
}

/// The parts (see [`Part`]) that `a` and `b` meet the sides with differently (see
/// [`topology::sides`]), each with 1 when `a`'s opens further to the left there, -1 when
/// further to the right. Without `closed_too`, only parts open to opposite sides count: a
/// handwriting face's `8` may leave its loop open.
fn telling_parts(a: Digit, b: Digit, closed_too: bool) -> impl Iterator<Item = (Part, f32)> {
    Part::ALL.into_iter().filter_map(move |part| {
        let (a, b) = (topology::sides(a, part)?, topology::sides(b, part)?);
        let closed = [a, b].contains(&Sides::Closed);
        let (a, b) = (a.ideal_opening(), b.ideal_opening());
        (a != b && (closed_too || !closed)).then(|| (part, (a - b).signum()))
    })
}

/// The mean of `measure` over the glyphs of `renamed` read as `digit`, when every one has it.
fn mean_of(
    renamed: &[Renamed],
    evidence: &[Option<Recognized>],
    digit: Digit,
    measure: &dyn Fn(&Recognized) -> Option<f32>,
) -> Option<f32> {
    let values: Option<Vec<f32>> = (renamed.iter())
        .filter(|r| r.read == digit)
        .map(|r| measure(evidence.get(r.cell.index())?.as_ref()?))
        .collect();
    let values = values.filter(|v| !v.is_empty())?;
    Some(values.iter().sum::<f32>() / values.len() as f32)
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

/// One given renamed by a relabelling of the digits (an exchange of two, or a cycle), and the
/// score that loses: calibrated, and by the templates alone.
#[derive(Clone, Copy)]
struct Renamed {
    cell: Pos,
    read: Digit,
    other: Digit,
    loss: f32,
    template_loss: f32,
}

/// The givens read as `a` or `b`, each renamed to the other (see [`rename`]).
fn exchange(
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
fn relabellings() -> &'static [Vec<Digit>] {
    fn extend(cycle: &mut Vec<Digit>, out: &mut Vec<Vec<Digit>>) {
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
fn links(cycle: &[Digit]) -> impl Iterator<Item = (Digit, Digit)> + '_ {
    (cycle.iter().zip(cycle.iter().cycle().skip(1))).map(|(&from, &to)| (from, to))
}

/// What renaming every given read as one digit to another loses, summed per pair of digits,
/// so each of the hundreds of relabellings is first weighed in a few adds: only those that
/// may come close are renamed glyph by glyph (see [`label_swaps`]).
struct LinkLosses {
    /// `[read][other]`: the calibrated and the template score lost over the givens read as
    /// `read` (index 0 is digit 1) when renamed to `other`; `None` when one lacks a score.
    lost: [[Option<(f32, f32)>; 9]; 9],
    /// How many givens are read as each digit.
    count: [usize; 9],
}

impl LinkLosses {
    fn of(givens: &Board, evidence: &[Option<Recognized>]) -> LinkLosses {
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
    /// (`ALTERNATIVE_LOSS` per glyph), or the templates alone prefer it; `false` when some
    /// glyph lacks the scores to weigh it, or no given is renamed.
    fn may_be_close(&self, cycle: &[Digit]) -> bool {
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
        renamed > 0 && (loss <= ALTERNATIVE_LOSS * renamed as f32 + 1e-3 || by_templates < 1e-3)
    }
}

/// The givens read as a digit of `cycle`, each renamed to the digit after it (the last to
/// the first); `None` when there are none or one has no template scores to weigh it with.
fn rename(
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
fn any_link_told_apart(
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

/// The empty cells where two solutions of the reading differ.
fn open_cells(givens: &Board, first: &Board, budget: &Budget) -> Vec<Doubt> {
    if !budget.spend(SOLVE_STEPS) {
        return Vec::new();
    }
    let second = solve::solutions(givens, 2)
        .ok()
        .and_then(|all| all.into_iter().find(|s| s != first));
    let Some(second) = second else {
        return Vec::new();
    };
    Pos::all()
        .filter_map(|pos| {
            let (a, b) = (first.get(pos)?, second.get(pos)?);
            (a != b).then(|| Doubt {
                cell: pos,
                read: None,
                could_be: vec![a, b],
            })
        })
        .take(MAX_LISTED)
        .collect()
}

/// The cells in a clash, then the least confident readings, with their runner-ups.
fn least_confident(givens: &Board, evidence: &[Option<Recognized>], clash: &[Pos]) -> Vec<Doubt> {
    let mut read: Vec<(Pos, &Recognized)> = Pos::all()
        .filter(|p| givens.get(*p).is_some())
        .filter_map(|p| evidence.get(p.index())?.as_ref().map(|r| (p, r)))
        .collect();
    read.sort_by(|a, b| {
        clash
            .contains(&b.0)
            .cmp(&clash.contains(&a.0))
            .then(a.1.confidence().total_cmp(&b.1.confidence()))
    });
    read.into_iter()
        .take(clash.len().max(3))
        .map(|(pos, r)| Doubt {
            cell: pos,
            read: givens.get(pos),
            could_be: r.ranked.iter().skip(1).take(2).map(|&(d, _)| d).collect(),
        })
        .collect()
}
