//! Solve with constraint-aware correction: when the givens as read clash or have no solution,
//! the least confident readings are swapped for their runner-up digits (a bounded search,
//! cheapest total score loss first) until the puzzle has exactly one solution. Every change
//! is reported.

use serde::Serialize;

use crate::board::{Board, Conflict, Digit, Pos};
use crate::recognize::Recognized;
use crate::solve::{self, Verdict};

/// How many of the least confident digits may be changed.
const SUSPECTS: usize = 8;
/// Alternatives tried per suspect: the runner-up and the third-best digit.
const ALTERNATIVES: usize = 2;

/// One digit read as `read` but used as `used`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Correction {
    /// The cell, as `r3c5`.
    #[serde(serialize_with = "serialize_pos")]
    pub cell: Pos,
    /// What recognition read.
    #[serde(serialize_with = "serialize_digit")]
    pub read: Digit,
    /// What the solver used.
    #[serde(serialize_with = "serialize_digit")]
    pub used: Digit,
}

fn serialize_pos<S: serde::Serializer>(p: &Pos, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&p.to_string())
}

fn serialize_digit<S: serde::Serializer>(d: &Digit, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_u8(d.get())
}

/// The solver's answer for the givens as read, after any corrections.
#[derive(Clone, Debug)]
pub struct Solved {
    /// The givens actually solved (with corrections applied).
    pub givens: Board,
    /// The uniqueness verdict, or the clash when no correction helped.
    pub verdict: Result<Verdict, Conflict>,
    /// The digits changed to reach the verdict.
    pub corrections: Vec<Correction>,
}

/// Solves `givens`; when that fails, tries up to `max_changes` runner-up digits among the
/// least confident readings in `evidence` (indexed like the board).
pub fn solve_read(givens: &Board, evidence: &[Option<Recognized>], max_changes: usize) -> Solved {
    let first = solve::check(givens);
    let failed = matches!(first, Err(_) | Ok(Verdict::Unsolvable));
    if !failed || max_changes == 0 {
        return Solved {
            givens: *givens,
            verdict: first,
            corrections: Vec::new(),
        };
    }
    let options = alternatives(givens, evidence, first.as_ref().err());
    for changes in 1..=max_changes.min(options.len()) {
        let mut tries = combinations(&options, changes);
        tries.sort_by(|a, b| cost(a).total_cmp(&cost(b)));
        for attempt in tries {
            let mut board = *givens;
            for alt in &attempt {
                board.set(alt.pos, Some(alt.digit));
            }
            if let Ok(verdict @ Verdict::Unique(_)) = solve::check(&board) {
                let corrections = attempt
                    .iter()
                    .filter_map(|a| {
                        Some(Correction {
                            cell: a.pos,
                            read: givens.get(a.pos)?,
                            used: a.digit,
                        })
                    })
                    .collect();
                return Solved {
                    givens: board,
                    verdict: Ok(verdict),
                    corrections,
                };
            }
        }
    }
    Solved {
        givens: *givens,
        verdict: first,
        corrections: Vec::new(),
    }
}

/// One possible change: put `digit` at `pos`, losing `loss` in match score.
#[derive(Clone, Copy, Debug)]
struct Alternative {
    pos: Pos,
    digit: Digit,
    loss: f32,
}

/// The runner-up digits of the least confident cells; the clashing cells come first.
fn alternatives(
    givens: &Board,
    evidence: &[Option<Recognized>],
    clash: Option<&Conflict>,
) -> Vec<Alternative> {
    let mut suspects: Vec<(Pos, &Recognized)> = Pos::all()
        .filter(|p| givens.get(*p).is_some())
        .filter_map(|p| evidence.get(p.index())?.as_ref().map(|r| (p, r)))
        .collect();
    let in_clash = |p: Pos| clash.is_some_and(|c| c.first == p || c.second == p);
    suspects.sort_by(|a, b| {
        in_clash(b.0)
            .cmp(&in_clash(a.0))
            .then(a.1.confidence().total_cmp(&b.1.confidence()))
    });
    suspects
        .into_iter()
        .take(SUSPECTS)
        .flat_map(|(pos, r)| {
            let best = r.ranked[0].1;
            r.ranked
                .iter()
                .skip(1)
                .take(ALTERNATIVES)
                .map(move |&(digit, score)| Alternative {
                    pos,
                    digit,
                    loss: best - score,
                })
        })
        .collect()
}

/// Every set of `k` alternatives on distinct cells.
fn combinations(options: &[Alternative], k: usize) -> Vec<Vec<Alternative>> {
    if k == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for (i, a) in options.iter().enumerate() {
        for mut rest in combinations(&options[i + 1..], k - 1) {
            if rest.iter().all(|r| r.pos != a.pos) {
                rest.insert(0, *a);
                out.push(rest);
            }
        }
    }
    out
}

fn cost(attempt: &[Alternative]) -> f32 {
    attempt.iter().map(|a| a.loss).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn recognized(best: u8, runner_up: u8, margin: f32) -> Recognized {
        let mut ranked: Vec<(Digit, f32)> = Digit::all().map(|d| (d, 0.0)).collect();
        ranked.retain(|(d, _)| d.get() != best && d.get() != runner_up);
        ranked.insert(0, (Digit::new(runner_up).unwrap(), 0.9 - margin));
        ranked.insert(0, (Digit::new(best).unwrap(), 0.9));
        Recognized { ranked }
    }

    #[test]
    fn a_misread_one_is_corrected_from_its_runner_up() {
        let puzzle: Board =
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
                .parse()
                .unwrap();
        // r2c4 holds 1; pretend it was read as 7 (which clashes with r1c5's 7).
        let mut misread = puzzle;
        let cell = Pos::new(1, 3).unwrap();
        misread.set(cell, Digit::new(7));
        let evidence: Vec<Option<Recognized>> = Pos::all()
            .map(|p| {
                misread.get(p).map(|d| {
                    if p == cell {
                        recognized(7, 1, 0.05)
                    } else {
                        recognized(d.get(), (d.get() % 9) + 1, 0.5)
                    }
                })
            })
            .collect();
        let solved = solve_read(&misread, &evidence, 2);
        assert!(matches!(solved.verdict, Ok(Verdict::Unique(_))));
        assert_eq!(
            solved.corrections,
            vec![Correction {
                cell,
                read: Digit::new(7).unwrap(),
                used: Digit::new(1).unwrap()
            }]
        );
        assert_eq!(solved.givens, puzzle);
    }
}
