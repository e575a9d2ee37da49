//! The loops cue in correction: what the glyphs' closed loops say of a reading that changes
//! some givens, whether the picture's other givens vouch for its loops, and the corrections
//! and decisions taken on the loops' word.

use super::exchanges::{close_exchanges, exchanges_the_bars_favour, exchanges_the_sides_favour};
use super::{check, corrections_from, with_changes, Candidates, Correction, Decision};
use crate::budget::Budget;
use crate::pipeline::recognize::{topology, Recognized, Rival};
use crate::pipeline::tuning;
use crate::puzzle::board::{Board, Digit, Pos};
use crate::puzzle::solve::Verdict;

/// The fewest givens whose loops must agree with their digits before loops choose between two
/// readings (see [`loops_hold_elsewhere`]).
const LOOPS_WITNESSES: usize = 10;

/// The largest share of those givens whose loops may disagree with digits the choice does not
/// involve (see [`loops_hold_elsewhere`]).
const LOOPS_DISSENT: f32 = 0.2;

/// The fewest givens closing loops, left alone by an exchange of two digits, that must close
/// them as their digits do for the loops to choose the exchange (see
/// [`loops_closed_elsewhere`]).
const LOOPED_WITNESSES: usize = 2;

/// When neither single cells nor whole groups give the puzzle one solution: every given whose
/// loops contradict the digit read (a `5` with a closed loop, a `6` with two) while a
/// runner-up within `tuning::FAR` does not takes that runner-up, all at once. A runner-up whose
/// loops fonts draw either way (`4`) is taken only when the picture's other loops hold (see
/// [`loops_hold_elsewhere`]): Audiowide's open 4s were all read as 9s. A
/// squarish font misreads its 6s as 5s one glyph at a time, more of them than single-cell
/// corrections may change, and only the loops tell. Used only when the rules then give one
/// solution; the doubts are weighed after it as after any correction.
pub(super) fn correct_by_loops(
    givens: &Board,
    evidence: &[Option<Recognized>],
    budget: &Budget,
) -> Option<Decision> {
    let corrections: Vec<Correction> = Pos::all()
        .filter_map(|cell| {
            let read = givens.get(cell)?;
            let r = evidence.get(cell.index())?.as_ref()?;
            if topology::digit_agrees(read, r.holes) != Some(false) {
                return None;
            }
            let best = r.ranked[0].1;
            let (used, _) = (r.ranked.iter().skip(1))
                .take_while(|(_, score)| best - score <= tuning::FAR)
                .find(|(d, _)| topology::digit_agrees(*d, r.holes) != Some(false))?;
            Some(Correction {
                cell,
                read,
                used: *used,
            })
        })
        .collect();
    if corrections.is_empty() {
        return None;
    }
    let changes: Vec<(Pos, Digit)> = corrections.iter().map(|c| (c.cell, c.used)).collect();
    let unknown = (corrections.iter()).any(|c| {
        let holes = evidence.get(c.cell.index()).and_then(|r| r.as_ref()?.holes);
        topology::digit_agrees(c.used, holes).is_none()
    });
    if unknown && !loops_hold_elsewhere(&changes, givens, evidence) {
        return None;
    }
    let board = with_changes(givens, &changes);
    let Ok(Verdict::Unique(solution)) = check(&board, budget) else {
        return None;
    };
    Some(Decision {
        givens: board,
        verdict: Ok(Verdict::Unique(solution)),
        corrections,
        doubts: Vec::new(),
    })
}

/// When the reading has one solution and a close rival reading of whole shape groups another,
/// the rules cannot choose, but the glyphs' loops may: a rival the loops favour (see
/// [`loops_favour`]: a group of `7`s with a loop above, read `9` by the rival) is taken
/// instead, its changes reported as corrections.
/// The exchanges of two digits the templates barely tell apart are weighed the same way (see
/// [`close_exchanges`]), and so are those whose glyphs' upper parts open to the sides the
/// exchanged digits' do, the other way round from the digits read (see
/// [`exchanges_the_sides_favour`]: a `3` read as `5` opens to the left), unless the loops
/// speak against them.
/// Last, when none of those answers otherwise, the exchanges whose glyphs' bars stand the
/// other way round from the digits read (see [`exchanges_the_bars_favour`]: a `4`'s crossbar
/// on glyphs read as `1`).
/// Only when exactly one answer comes out of such rivals; loops blur or compression closed or
/// filled anywhere leave the choice to the doubts.
pub(super) fn decided_by_loops(
    solved: &Decision,
    evidence: &[Option<Recognized>],
    rivals: &[Rival],
    marks: Candidates<'_>,
    budget: &Budget,
) -> Option<Decision> {
    let Ok(Verdict::Unique(solution)) = solved.verdict else {
        return None;
    };
    let exchanges: Vec<Rival> = close_exchanges(&solved.givens, evidence, tuning::STRETCH)
        .into_iter()
        .filter(|x| loops_closed_elsewhere(&x.changes, &solved.givens, evidence))
        .collect();
    let sided = exchanges_the_sides_favour(&solved.givens, evidence, tuning::FAR);
    let favoured = (rivals.iter().filter(|r| r.is_close()).chain(&exchanges))
        .filter(|r| loops_favour(&r.changes, &solved.givens, evidence) == Some(true))
        .chain(
            sided
                .iter()
                .filter(|r| loops_favour(&r.changes, &solved.givens, evidence) != Some(false)),
        );
    let (board, other, rival) =
        match one_other_answer(favoured, &solved.givens, &solution, marks, budget) {
            OtherAnswer::One(board, other, rival) => (board, other, rival.clone()),
            OtherAnswer::Several => return None,
            OtherAnswer::Nothing => {
                // The bars weigh least: they tell only a `1` from a `4` and a `4` from a `7`,
                // and where a hand's digits are misread by a longer cycle than the exchange, a
                // rival above names the whole cycle (a `1` read as `4`, a `4` as `9`, a `9` as `1`).
                let barred = exchanges_the_bars_favour(&solved.givens, evidence, tuning::FAR);
                let barred = (barred.iter())
                    .filter(|r| loops_favour(&r.changes, &solved.givens, evidence) != Some(false));
                match one_other_answer(barred, &solved.givens, &solution, marks, budget) {
                    OtherAnswer::One(board, other, rival) => (board, other, rival.clone()),
                    _ => return None,
                }
            }
        };
    let mut corrections = solved.corrections.clone();
    corrections.retain(|c| rival.changes.iter().all(|(cell, _)| *cell != c.cell));
    corrections.extend(corrections_from(&solved.givens, &rival.changes));
    Some(Decision {
        givens: board,
        verdict: Ok(Verdict::Unique(other)),
        corrections,
        doubts: Vec::new(),
    })
}

/// What the rivals of [`decided_by_loops`] come to.
enum OtherAnswer<'a> {
    /// No rival has one solution other than the reading's.
    Nothing,
    /// Every rival with one solution other than the reading's has the same: the givens the
    /// first such rival reads, that solution, and the rival.
    One(Board, Board, &'a Rival),
    /// Rivals answer differently from each other.
    Several,
}

/// Whether `rivals`, applied to `givens`, answer otherwise than `solution`, and alike; an
/// answer the player's `marks` and entries refute beside `solution` is no rival.
fn one_other_answer<'a>(
    rivals: impl Iterator<Item = &'a Rival>,
    givens: &Board,
    solution: &Board,
    marks: Candidates<'_>,
    budget: &Budget,
) -> OtherAnswer<'a> {
    let mut decided = OtherAnswer::Nothing;
    for rival in rivals {
        let board = with_changes(givens, &rival.changes);
        let Ok(Verdict::Unique(other)) = check(&board, budget) else {
            continue;
        };
        match &decided {
            _ if other == *solution || marks.refute(solution, &other) => continue,
            OtherAnswer::One(_, earlier, _) if *earlier != other => return OtherAnswer::Several,
            OtherAnswer::One(..) => {}
            _ => decided = OtherAnswer::One(board, other, rival),
        }
    }
    decided
}

/// What the glyphs' loops say of a reading that makes `changes` to `givens`: `Some(true)` when
/// they contradict the digits held at some cells changed and the new digits at none,
/// `Some(false)` when the other way round, `None` when they contradict both or neither, or
/// when the picture's other givens do not vouch for its loops (see [`loops_hold_elsewhere`]).
/// A digit whose loops fonts draw differently (`4`) is never contradicted, so against it
/// one digit's loops speak alone, and only when all its givens show the same.
pub(super) fn loops_favour(
    changes: &[(Pos, Digit)],
    givens: &Board,
    evidence: &[Option<Recognized>],
) -> Option<bool> {
    let holes_at = |pos: Pos| evidence.get(pos.index()).and_then(|r| r.as_ref()?.holes);
    // Blur closes a gap into a loop in some glyphs of a digit and not in others: where the
    // givens of such a digit differ in their loops, a loop it should not have is no evidence
    // against it beside a digit whose loops are unknown.
    let consistent = |digit: Digit| {
        let mut counts = Pos::all()
            .filter(|&p| givens.get(p) == Some(digit))
            .map(|p| holes_at(p).map(|h| h.count));
        let first = counts.next().flatten();
        first.is_some() && counts.all(|c| c == first)
    };
    let (mut against_held, mut against_new) = (0, 0);
    for &(pos, digit) in changes {
        let Some(held) = givens.get(pos) else {
            continue;
        };
        let holes = holes_at(pos);
        match (
            topology::digit_agrees(held, holes),
            topology::digit_agrees(digit, holes),
        ) {
            (Some(false), Some(true)) => against_held += 1,
            (Some(true), Some(false)) => against_new += 1,
            (Some(false), None) | (None, Some(false)) if !consistent(held) => return None,
            (Some(false), None) => against_held += 1,
            (None, Some(false)) => against_new += 1,
            _ => {}
        }
    }
    let favour = match (against_held, against_new) {
        (0, 0) => return None,
        (_, 0) => true,
        (0, _) => false,
        _ => return None,
    };
    loops_hold_elsewhere(changes, givens, evidence).then_some(favour)
}

/// Whether the givens `changes` leaves alone that should close loops (`6`, `8`, `9`) close
/// them as their digits do: at least `LOOPED_WITNESSES` of them, none otherwise. Glyphs with
/// no loops to close vouch for nothing where a face opens or fills loops (a stencil face's
/// cuts open an `8`'s loops as they open a `6`'s).
fn loops_closed_elsewhere(
    changes: &[(Pos, Digit)],
    givens: &Board,
    evidence: &[Option<Recognized>],
) -> bool {
    let mut agree = 0;
    for p in Pos::all().filter(|p| changes.iter().all(|(c, _)| c != p)) {
        let Some(digit) = givens.get(p).filter(|&d| topology::closes_loops(d)) else {
            continue;
        };
        let holes = evidence.get(p.index()).and_then(|r| r.as_ref()?.holes);
        match topology::digit_agrees(digit, holes) {
            Some(true) => agree += 1,
            _ => return false,
        }
    }
    agree >= LOOPED_WITNESSES
}

/// Whether the loops of this picture's font tell its digits. Among the givens `changes`
/// leaves alone whose digits have known loops, every one of a digit the changes involve (read
/// or put) agrees with its loops, and at least `LOOPS_WITNESSES` givens in all do, with no more
/// than `LOOPS_DISSENT` of them disagreeing. Small serif and monospaced figures close or fill
/// loops (a typeset `8` with one loop, a `9` with two) the same way in every glyph of the
/// picture, and a handwriting font's `8` may leave its top open.
fn loops_hold_elsewhere(
    changes: &[(Pos, Digit)],
    givens: &Board,
    evidence: &[Option<Recognized>],
) -> bool {
    let involved = |d: Digit| {
        changes
            .iter()
            .any(|&(p, new)| new == d || givens.get(p) == Some(d))
    };
    let mut agree = 0;
    let mut dissent = 0;
    for p in Pos::all().filter(|p| changes.iter().all(|(c, _)| c != p)) {
        let Some(digit) = givens.get(p) else {
            continue;
        };
        let holes = evidence.get(p.index()).and_then(|r| r.as_ref()?.holes);
        match topology::digit_agrees(digit, holes) {
            Some(true) => agree += 1,
            Some(false) if involved(digit) => return false,
            Some(false) => dissent += 1,
            None => {}
        }
    }
    agree >= LOOPS_WITNESSES && dissent as f32 <= LOOPS_DISSENT * (agree + dissent) as f32
}
/// Whether the glyph's loops agree with `read` and contradict `other`, or close a loop that
/// `other` cannot have (a `1`, a `7`) while `read` may (a closed `4`): holes rule out such a
/// runner-up however the templates alone rank it (after a correction too).
pub(super) fn loops_rule_out(r: &Recognized, read: Digit, other: Digit) -> bool {
    let read_fits = topology::digit_agrees(read, r.holes);
    (read_fits == Some(true) && topology::digit_agrees(other, r.holes) == Some(false))
        || (read_fits != Some(false) && topology::loop_rules_out(other, r.holes))
}
