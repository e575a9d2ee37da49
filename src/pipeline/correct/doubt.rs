//! Doubt: an answer is only as good as its reading. A cell is doubtful when another digit fits
//! its glyph almost as well **and** the puzzle read that way also has exactly one, different,
//! solution: the rules cannot tell the two readings apart, so neither answer may be drawn with
//! confidence. Several solutions, two corrections that both work, or a rival reading of whole
//! shape groups (see [`Rival`]) are doubtful the same way.

use super::exchanges::{any_link_told_apart, relabelled, relabellings, rename, LinkLosses};
use super::loops::{loops_favour, loops_rule_out};
use super::shapes::{ones_wider, Openings, Renamed};
use super::{with_changes, Alternative, Candidates, Correction, Decision, WEAK_FIT};
use crate::budget::{Budget, SOLVE_STEPS};
pub use crate::findings::Doubt;

use crate::pipeline::recognize::topology;
use crate::pipeline::recognize::{Recognized, Rival};
use crate::pipeline::tuning;
use crate::puzzle::board::{Board, Digit, Pos};
use crate::puzzle::solve::{self, Verdict};

/// How many cells a doubt about several solutions lists at most.
const MAX_LISTED: usize = 12;

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
            best - score <= tuning::CLOSE
                || r.misshapen
                || (!as_read && template_best - r.template_score(digit) <= tuning::CLOSE)
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

/// After a correction: two given glyphs read at once as runner-ups scoring within
/// `tuning::STRETCH` of their best, when that gives the puzzle one, different, solution. The
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
                        && best - score <= tuning::STRETCH
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
/// loses at most `tuning::CLOSE` of template score per glyph renamed, on average: the glyphs of
/// one digit in one picture are near-identical renderings, so many of them are hardly
/// stronger evidence than one. A correction's exchange can even gain score, when the rules
/// accepted a relabelling of the groups the templates like less than the truth. And when the
/// templates alone (before the grid's calibration) prefer the exchange, the calibration that
/// chose the reading is its only evidence: a doubt too, however far the calibrated scores
/// moved apart.
///
/// When the two digits' glyphs fit the templates poorly (their mean best score below
/// `WEAK_FIT`) the scores name them poorly too: the exchange is then a rival up to the loss
/// of any alternative reading (`tuning::FAR` per group). So is the exchange of a digit
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
                tuning::FAR
            } else {
                tuning::CLOSE
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
