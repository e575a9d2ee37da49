//! Solve with constraint-aware correction: when the givens as read clash, have no solution or
//! have several, the least confident readings are swapped for their runner-up digits (a
//! bounded search, cheapest total score loss first) until the puzzle has exactly one solution.
//! Every change is reported. Then [`doubt`] weighs whether the answer can be trusted. The
//! order of the repairs and of the searches for doubt is one rule, in `decision.rs`.

use crate::budget::{Budget, SOLVE_STEPS};
use crate::pipeline::recognize::{Recognized, Rival};
use crate::pipeline::tuning;
use crate::puzzle::board::{Board, Conflict, Digit, Pos};
use crate::puzzle::solve::{self, Verdict};

mod decision;
pub mod doubt;
mod entries;
mod exchanges;
mod loops;
mod marks;
mod shapes;
mod writer;

pub use decision::solve_reading_marked;
pub use entries::{settle_entries, weigh_corrections_by_entries, RefutingEntries};
pub use marks::{decided_by_marks, Candidates};
pub use writer::unsure_entries;

pub use crate::findings::{Correction, Doubt};
use doubt::rival_corrections;

/// How many of the least confident digits may be changed.
const SUSPECTS: usize = 8;
/// Alternatives tried per suspect: the runner-up and the third-best digit.
const ALTERNATIVES: usize = 2;
/// Below this median best template score of the givens the font is unlike every bundled one
/// (the tuning set's median picture scores 0.88, its tenth percentile 0.79; the Orbitron
/// pictures whose corrections drew wrong answers 0.45).
const WEAK_FIT: f32 = 0.55;

/// What the reading decided: the givens solved as corrected, the verdict, the corrections
/// made and the doubts left.
#[derive(Clone, Debug)]
pub struct Decision {
    /// The givens actually solved (with corrections applied).
    pub givens: Board,
    /// The uniqueness verdict, or the clash when no correction helped.
    pub verdict: Result<Verdict, Conflict>,
    /// The digits changed to reach the verdict.
    pub corrections: Vec<Correction>,
    /// The cells whose reading is in doubt; empty when the answer can be trusted.
    pub doubts: Vec<Doubt>,
}

impl Decision {
    /// The solution to draw: unique and free of doubt.
    pub fn trusted(&self) -> Option<Board> {
        match self.verdict {
            Ok(Verdict::Unique(s)) if self.doubts.is_empty() => Some(s),
            _ => None,
        }
    }

    /// Whether the reading (as corrected) has exactly one solution.
    pub fn is_unique(&self) -> bool {
        matches!(self.verdict, Ok(Verdict::Unique(_)))
    }

    /// A solution, trusted or not (one of several, or one a doubtful cell could change).
    pub fn any_solution(&self) -> Option<Board> {
        match self.verdict {
            Ok(Verdict::Unique(s) | Verdict::Multiple(s)) => Some(s),
            _ => None,
        }
    }
}

impl std::fmt::Display for RefutingEntries {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the reading is doubtful: the digits corrected to make it solvable call {} of the \
             player's {} entries wrong",
            self.wrong, self.entered
        )
    }
}

/// Solves `givens`; when that fails, tries up to `max_changes` runner-up digits among the
/// least confident readings in `evidence` (indexed like the board). Then weighs the doubt.
/// Every board solved spends [`SOLVE_STEPS`] of `budget`; once it says the reading must
/// stop, what comes back is cut short and must not be used.
pub fn solve_read(
    givens: &Board,
    evidence: &[Option<Recognized>],
    max_changes: usize,
    budget: &Budget,
) -> Decision {
    solve_reading(givens, evidence, &[], max_changes, budget)
}

/// [`solve_read`], also weighing the `rivals`: other readings of the givens the picture
/// supports nearly as well (see [`Rival`]); one that gives another unique answer is a doubt.
pub fn solve_reading(
    givens: &Board,
    evidence: &[Option<Recognized>],
    rivals: &[Rival],
    max_changes: usize,
    budget: &Budget,
) -> Decision {
    let marks = Candidates::default();
    solve_reading_marked(givens, evidence, rivals, marks, max_changes, budget)
}

/// Whether the givens match the templates poorly on the whole (the median given's best score
/// below `WEAK_FIT`): a font unlike every bundled one, whose misreadings the rules may happen
/// to accept, so a correction made on it is a guess.
fn weak_fit(givens: &Board, evidence: &[Option<Recognized>]) -> bool {
    let mut best: Vec<f32> = Pos::all()
        .filter(|p| givens.get(*p).is_some())
        .filter_map(|p| Some(evidence.get(p.index())?.as_ref()?.fit()))
        .collect();
    best.sort_by(f32::total_cmp);
    best.get(best.len() / 2)
        .is_some_and(|&median| median < WEAK_FIT)
}

/// Each correction as a doubt: the cell, what was read and what was used.
fn corrections_as_doubts(corrections: &[Correction]) -> Vec<Doubt> {
    corrections
        .iter()
        .map(|c| Doubt {
            cell: c.cell,
            read: Some(c.read),
            could_be: vec![c.used],
        })
        .collect()
}

/// Solves `givens`, correcting the least confident readings when they clash, have no solution
/// or several. Two corrections of the same size that give different answers are a doubt.
fn correct(
    givens: &Board,
    evidence: &[Option<Recognized>],
    marks: Candidates<'_>,
    max_changes: usize,
    budget: &Budget,
) -> Decision {
    let first = check(givens, budget);
    // A real puzzle has one solution: several solutions mean a misread too.
    let failed = !matches!(first, Ok(Verdict::Unique(_)));
    let several = matches!(first, Ok(Verdict::Multiple(_)));
    let unchanged = |verdict| Decision {
        givens: *givens,
        verdict,
        corrections: Vec::new(),
        doubts: Vec::new(),
    };
    if !failed || max_changes == 0 {
        return unchanged(first);
    }
    let options = alternatives(givens, evidence, first.as_ref().err());
    for changes in 1..=max_changes.min(options.len()) {
        let mut tries = combinations(&options, changes);
        tries.retain(|a| a.iter().all(|alt| alt.loss <= tuning::FAR));
        if several {
            // Almost any change adds a constraint, so one that merely makes the answer unique
            // proves little: only readings nearly as good as the one read are tried.
            tries.retain(|a| cost(a) <= tuning::NEAR * a.len() as f32);
        }
        tries.sort_by(|a, b| cost(a).total_cmp(&cost(b)));
        let mut working = tries.into_iter().filter_map(|attempt| {
            let mut board = *givens;
            for alt in &attempt {
                board.set(alt.pos, Some(alt.digit));
            }
            match check(&board, budget) {
                Ok(Verdict::Unique(s)) => Some((attempt, board, s)),
                _ => None,
            }
        });
        let Some((attempt, board, solution)) = working.next() else {
            continue;
        };
        let rival =
            working.find(|(_, _, other)| *other != solution && !marks.refute(&solution, other));
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
        let doubts = rival.map_or_else(Vec::new, |(other, ..)| {
            rival_corrections(givens, &attempt, &other)
        });
        return Decision {
            givens: board,
            verdict: Ok(Verdict::Unique(solution)),
            corrections,
            doubts,
        };
    }
    unchanged(first)
}

/// When no change of a few single cells gives the puzzle one solution: whole shape groups
/// taking other digits (the picture's alternative readings, least score lost first; a font
/// the templates read badly misreads a digit in all its glyphs alike). The first that gives
/// one solution is used; another giving a different solution makes the answer a doubt.
fn correct_groups(
    givens: &Board,
    alternatives: &[Rival],
    marks: Candidates<'_>,
    budget: &Budget,
) -> Option<Decision> {
    let as_changes = |r: &Rival| -> Vec<Alternative> {
        (r.changes.iter())
            .map(|&(pos, digit)| Alternative {
                pos,
                digit,
                loss: r.loss,
            })
            .collect()
    };
    let mut working = alternatives.iter().filter(|r| !r.backed).filter_map(|r| {
        let board = with_changes(givens, &r.changes);
        match check(&board, budget) {
            Ok(Verdict::Unique(s)) => Some((r, board, s)),
            _ => None,
        }
    });
    // Only a reading losing little may be used; one losing more that works too and answers
    // otherwise still casts doubt on it.
    let mut passed = Vec::new();
    let (chosen, board, solution) = loop {
        let found = working.next()?;
        if found.0.loss <= tuning::STRETCH {
            break found;
        }
        passed.push(found);
    };
    let rival = (passed.into_iter().chain(working))
        .find(|(_, _, other)| *other != solution && !marks.refute(&solution, other));
    let corrections = corrections_from(givens, &chosen.changes);
    let doubts = rival.map_or_else(Vec::new, |(other, ..)| {
        rival_corrections(givens, &as_changes(chosen), &as_changes(other))
    });
    Some(Decision {
        givens: board,
        verdict: Ok(Verdict::Unique(solution)),
        corrections,
        doubts,
    })
}

/// `board` solved (see [`solve::check`]), spending [`SOLVE_STEPS`] of `budget`: once the
/// reading must stop, no board has a solution, so every search here ends at once, and the
/// reading is refused by its caller (see [`Budget::check`]).
pub(super) fn check(board: &Board, budget: &Budget) -> Result<Verdict, Conflict> {
    if budget.spend(SOLVE_STEPS) {
        solve::check(board)
    } else {
        Ok(Verdict::Unsolvable)
    }
}

/// The `changes` (cell and digit used) that differ from the `givens` as read, as corrections.
fn corrections_from(givens: &Board, changes: &[(Pos, Digit)]) -> Vec<Correction> {
    (changes.iter())
        .filter_map(|&(cell, used)| {
            let read = givens.get(cell)?;
            (read != used).then_some(Correction { cell, read, used })
        })
        .collect()
}

/// `givens` with each of `changes` made: the digit put in its cell.
fn with_changes(givens: &Board, changes: &[(Pos, Digit)]) -> Board {
    let mut board = *givens;
    changes.iter().for_each(|&(pos, d)| board.set(pos, Some(d)));
    board
}

/// When neither single cells nor whole groups give the puzzle one solution: a second opinion
/// as good as the reading chosen (a rival at no loss: the calibration's grouping that keeps
/// apart glyphs the templates read apart, or the templates unblurred), mended cell by cell as
/// the reading itself would be. Two misreads of different kinds (a blurred 6 grouped with the
/// 8s, and a 5 read 6 alone) need both.
fn correct_second_opinion(read: &decision::Read<'_>) -> Option<Decision> {
    let decision::Read {
        givens,
        evidence,
        rivals,
        marks,
        max_changes,
        budget,
    } = *read;
    rivals
        .iter()
        .filter(|r| r.loss <= 0.0 && !r.backed)
        .find_map(|r| {
            let board = with_changes(givens, &r.changes);
            let mut mended = correct(&board, evidence, marks, max_changes, budget);
            if !matches!(mended.verdict, Ok(Verdict::Unique(_))) {
                return None;
            }
            let mut corrections = corrections_from(givens, &r.changes);
            for c in &mended.corrections {
                let read = givens.get(c.cell).unwrap_or(c.read);
                corrections.retain(|k| k.cell != c.cell);
                if read != c.used {
                    corrections.push(Correction {
                        cell: c.cell,
                        read,
                        used: c.used,
                    });
                }
            }
            mended.corrections = corrections;
            Some(mended)
        })
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
    // A glyph with a twin read as its own digit is not misread alone (the twin would be
    // too): changing it to fit the rules moves the error elsewhere. Unless the templates
    // alone read it otherwise: then the calibration joined it to look-alikes the templates
    // tell apart (a blurred 6 among 8s), and the templates' own digit is its one alternative.
    let mut suspects: Vec<(Pos, &Recognized)> = Pos::all()
        .filter(|p| givens.get(*p).is_some())
        .filter_map(|p| evidence.get(p.index())?.as_ref().map(|r| (p, r)))
        .filter(|(_, r)| !r.has_twin || templates_differ(r).is_some())
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
            let twin_alternative = templates_differ(r).filter(|_| r.has_twin);
            (r.ranked.iter().skip(1))
                .filter(move |(digit, _)| twin_alternative.is_none_or(|d| d == *digit))
                .take(ALTERNATIVES)
                .map(move |&(digit, score)| Alternative {
                    pos,
                    digit,
                    loss: best - score,
                })
        })
        .collect()
}

/// The digit the templates alone clearly rank above the digit read (by `tuning::TIE`).
fn templates_differ(r: &Recognized) -> Option<Digit> {
    let own = Digit::all().max_by(|a, b| r.template_score(*a).total_cmp(&r.template_score(*b)))?;
    let lead = r.template_score(own) - r.template_score(r.digit());
    (own != r.digit() && lead >= tuning::TIE).then_some(own)
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
    use super::marks::MIN_MARKED;
    use super::*;
    use crate::pipeline::pencil::CellMarks;
    use crate::pipeline::recognize::{sides, topology};

    fn recognized(best: u8, runner_up: u8, margin: f32) -> Recognized {
        let mut ranked: Vec<(Digit, f32)> = Digit::all().map(|d| (d, 0.0)).collect();
        ranked.retain(|(d, _)| d.get() != best && d.get() != runner_up);
        ranked.insert(0, (Digit::new(runner_up).unwrap(), 0.9 - margin));
        ranked.insert(0, (Digit::new(best).unwrap(), 0.9));
        let mut template = [0.0; 9];
        for &(d, score) in &ranked {
            template[d.get() as usize - 1] = score;
        }
        Recognized {
            ranked,
            unlike: Vec::new(),
            has_twin: false,
            template,
            misshapen: false,
            holes: None,
            loop_certain: false,
            openings: [None; 2],
            width: None,
            bars: [None; 2],
            blur_gain: 0.0,
            shaped_like: Vec::new(),
        }
    }

    #[test]
    fn an_entry_read_by_a_close_call_against_the_solution_is_the_solutions_digit() {
        let puzzle: Board = PUZZLE.parse().unwrap();
        let solution = solve::solve(&puzzle).unwrap().unwrap();
        let (close, clear) = (Pos::new(0, 0).unwrap(), Pos::new(4, 4).unwrap());
        let right = |p: Pos| solution.get(p).unwrap().get();
        // Each entry read as the digit after the solution's: one a close call, one clear.
        let wrong = |p: Pos| right(p) % 9 + 1;
        let mut entries = Board::empty();
        let mut evidence: Vec<Option<Recognized>> = vec![None; 81];
        for (p, margin) in [(close, 0.03), (clear, 0.3)] {
            entries.set(p, Digit::new(wrong(p)));
            evidence[p.index()] = Some(recognized(wrong(p), right(p), margin));
        }
        let mut apart = [false; 81];
        let mut settled = entries;
        settle_entries(&mut settled, &evidence, &[], &solution, &apart);
        assert_eq!(settled.get(close), solution.get(close));
        assert_eq!(settled.get(clear).map(Digit::get), Some(wrong(clear)));
        // Drawn in a colour of its own, the close call stays as read.
        apart[close.index()] = true;
        settle_entries(&mut entries, &evidence, &[], &solution, &apart);
        assert_eq!(entries.get(close).map(Digit::get), Some(wrong(close)));
    }

    #[test]
    fn entries_the_corrected_answer_keeps_calling_wrong_cast_doubt_on_the_correction() {
        let puzzle: Board = PUZZLE.parse().unwrap();
        let solution = solve::solve(&puzzle).unwrap().unwrap();
        let given = Pos::all().find(|&p| puzzle.get(p).is_some()).unwrap();
        let fix = Correction {
            cell: given,
            read: Digit::new(puzzle.get(given).unwrap().get() % 9 + 1).unwrap(),
            used: puzzle.get(given).unwrap(),
        };
        let solved = |corrections: Vec<Correction>| Decision {
            givens: puzzle,
            verdict: Ok(Verdict::Unique(solution)),
            corrections,
            doubts: Vec::new(),
        };
        // `n` entries in empty cells (twelve unless said): `wrong` of them a digit off the
        // answer's.
        let empty: Vec<Pos> = Pos::all().filter(|&p| puzzle.get(p).is_none()).collect();
        let entries_of = |wrong: usize, n: usize| {
            let mut board = Board::empty();
            for (k, &p) in empty.iter().take(n).enumerate() {
                let right = solution.get(p).unwrap().get();
                let digit = if k < wrong { right % 9 + 1 } else { right };
                board.set(p, Digit::new(digit));
            }
            board
        };
        let entries = |wrong: usize| entries_of(wrong, 12);
        let apart = [false; 81];
        let none: Vec<Option<Recognized>> = vec![None; 81];
        // Four of twelve wrong (a third): the correction is in doubt, and says why.
        let mut doubted = solved(vec![fix]);
        let refuting = weigh_corrections_by_entries(&mut doubted, &entries(4), &none, &apart);
        assert_eq!(
            refuting,
            Some(RefutingEntries {
                wrong: 4,
                entered: 12
            })
        );
        let why = refuting.unwrap().to_string();
        assert!(
            why.ends_with("call 4 of the player's 12 entries wrong"),
            "{why}"
        );
        assert_eq!(doubted.doubts, corrections_as_doubts(&[fix]));
        assert!(doubted.trusted().is_none());
        // Three wrong: a player's few mistakes.
        let mut kept = solved(vec![fix]);
        assert_eq!(
            weigh_corrections_by_entries(&mut kept, &entries(3), &none, &apart),
            None
        );
        assert_eq!(kept.trusted(), Some(solution));
        // Four wrong of 40, under a third: a player's few mistakes or misreadings, unless the
        // templates read all four clearly as the digits entered.
        let clearly = |wrong: usize, lead: f32| {
            let board = entries_of(wrong, 40);
            let mut evidence: Vec<Option<Recognized>> = vec![None; 81];
            for &p in empty.iter().take(wrong) {
                let (read, right) = (board.get(p).unwrap(), solution.get(p).unwrap());
                let mut scores = [0.2f32; 9];
                scores[usize::from(read.get()) - 1] = 0.5 + lead;
                scores[usize::from(right.get()) - 1] = 0.5;
                evidence[p.index()] = Some(Recognized::from_scores(scores));
            }
            (board, evidence)
        };
        let (few, barely) = clearly(4, tuning::FAR / 2.0);
        let mut kept_few = solved(vec![fix]);
        assert!(weigh_corrections_by_entries(&mut kept_few, &few, &barely, &apart).is_none());
        let (four, clear) = clearly(4, tuning::FAR);
        let mut refuted = solved(vec![fix]);
        assert!(weigh_corrections_by_entries(&mut refuted, &four, &clear, &apart).is_some());
        assert!(refuted.trusted().is_none());
        // Nothing corrected: checking a game full of mistakes is no doubt about the reading.
        let mut as_read = solved(Vec::new());
        assert_eq!(
            weigh_corrections_by_entries(&mut as_read, &entries(12), &none, &apart),
            None
        );
        assert_eq!(as_read.trusted(), Some(solution));
        // Mistakes the app drew in a colour of their own count for neither side.
        let mut marked = apart;
        marked[empty[0].index()] = true;
        let mut app_marked = solved(vec![fix]);
        assert_eq!(
            weigh_corrections_by_entries(&mut app_marked, &entries(4), &none, &marked),
            None
        );
    }

    #[test]
    fn an_entry_read_as_the_givens_were_misread_as_a_group_takes_the_corrected_digit() {
        let puzzle: Board = PUZZLE.parse().unwrap();
        let solution = solve::solve(&puzzle).unwrap().unwrap();
        let digit = |p: Pos| solution.get(p).unwrap();
        // An entry read clearly (0.3 ahead) as the digit after the solution's.
        let cell = Pos::new(4, 4).unwrap();
        let (right, read) = (digit(cell), Digit::new(digit(cell).get() % 9 + 1).unwrap());
        let mut entries = Board::empty();
        entries.set(cell, Some(read));
        let mut evidence: Vec<Option<Recognized>> = vec![None; 81];
        evidence[cell.index()] = Some(recognized(read.get(), right.get(), 0.3));
        let apart = [false; 81];
        let fix = |used: Digit, read: Digit, row: usize| Correction {
            cell: Pos::new(row, 0).unwrap(),
            read,
            used,
        };
        // Schoolbell: givens read as `read` were `right`, and givens read `right` were `read`.
        let swapped = [fix(right, read, 0), fix(read, right, 1)];
        let mut settled = entries;
        settle_entries(&mut settled, &evidence, &swapped, &solution, &apart);
        assert_eq!(settled.get(cell), Some(right));
        // Twice the same way is a group too.
        let twice = [fix(right, read, 0), fix(right, read, 1)];
        let mut settled = entries;
        settle_entries(&mut settled, &evidence, &twice, &solution, &apart);
        assert_eq!(settled.get(cell), Some(right));
        // One given corrected is that glyph's misreading: the entry stays a wrong entry.
        let once = [fix(right, read, 0)];
        let mut settled = entries;
        settle_entries(&mut settled, &evidence, &once, &solution, &apart);
        assert_eq!(settled.get(cell), Some(read));
    }

    #[test]
    fn an_entry_shaped_like_the_givens_of_the_solutions_digit_takes_it() {
        let puzzle: Board = PUZZLE.parse().unwrap();
        let solution = solve::solve(&puzzle).unwrap().unwrap();
        let cell = Pos::new(4, 4).unwrap();
        let right = solution.get(cell).unwrap();
        let read = Digit::new(right.get() % 9 + 1).unwrap();
        let mut entries = Board::empty();
        entries.set(cell, Some(read));
        // Read clearly (0.3 ahead) by the templates ...
        let mut evidence: Vec<Option<Recognized>> = vec![None; 81];
        evidence[cell.index()] = Some(recognized(read.get(), right.get(), 0.3));
        let mut settled = entries;
        settle_entries(&mut settled, &evidence, &[], &solution, &[false; 81]);
        assert_eq!(
            settled.get(cell),
            Some(read),
            "a wrong entry as far as anyone knows"
        );
        // ... but shaped like the picture's givens of the solution's digit where the two differ.
        if let Some(r) = &mut evidence[cell.index()] {
            r.shaped_like = vec![right];
        }
        let mut settled = entries;
        settle_entries(&mut settled, &evidence, &[], &solution, &[false; 81]);
        assert_eq!(settled.get(cell), Some(right));
    }

    #[test]
    fn a_misread_one_is_corrected_from_its_runner_up() {
        let puzzle: Board = PUZZLE.parse().unwrap();
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
        let solved = solve_read(&misread, &evidence, 2, &Budget::unlimited());
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

    /// The puzzle with r2c4's 1 misread as 7 (clashing with r1c5's 7), a close call between 7
    /// and 1 there, every other given read clearly.
    struct MisreadOne {
        puzzle: Board,
        cell: Pos,
        misread: Board,
        evidence: Vec<Option<Recognized>>,
    }

    fn misread_one() -> MisreadOne {
        let puzzle: Board = PUZZLE.parse().unwrap();
        let cell = Pos::new(1, 3).unwrap();
        let mut misread = puzzle;
        misread.set(cell, Digit::new(7));
        let mut evidence = clear_evidence(&misread);
        evidence[cell.index()] = Some(recognized(7, 1, 0.05));
        MisreadOne {
            puzzle,
            cell,
            misread,
            evidence,
        }
    }

    #[test]
    fn a_twin_is_corrected_alone_only_to_what_the_templates_alone_read() {
        // r2c4's 1 read as 7 with a twin: the calibration joined it to the 7s. Its correction
        // is allowed only when the templates alone clearly read it as another digit.
        let MisreadOne {
            puzzle,
            cell,
            misread,
            mut evidence,
        } = misread_one();
        let twin = |template_lead: f32| {
            let mut r = recognized(7, 1, 0.05);
            r.has_twin = true;
            r.template[0] = 0.8;
            r.template[6] = 0.8 - template_lead;
            Some(r)
        };
        evidence[cell.index()] = twin(0.1);
        let solved = solve_read(&misread, &evidence, 2, &Budget::unlimited());
        assert_eq!(solved.givens, puzzle);
        assert_eq!(solved.corrections.len(), 1);
        // A tie by the templates is no evidence against the calibration: no correction.
        evidence[cell.index()] = twin(0.0);
        let solved = solve_read(&misread, &evidence, 2, &Budget::unlimited());
        assert!(solved.corrections.is_empty());
        assert!(solved.trusted().is_none());
    }

    #[test]
    fn a_misshapen_given_is_a_doubt_once_anything_was_corrected() {
        // r2c4's misread 1 is corrected; r1c1's 5, joined to other ink, proves little, and
        // its own misreading may be what the correction made up for.
        let MisreadOne {
            misread,
            mut evidence,
            ..
        } = misread_one();
        let joined = Pos::new(0, 0).unwrap();
        let solved = solve_read(&misread, &evidence, 2, &Budget::unlimited());
        assert!(solved.trusted().is_some(), "{:?}", solved.doubts);
        evidence[joined.index()].as_mut().unwrap().misshapen = true;
        let solved = solve_read(&misread, &evidence, 2, &Budget::unlimited());
        assert!(solved.trusted().is_none());
        assert!(solved.doubts.iter().any(|d| d.cell == joined));
    }

    #[test]
    fn a_loop_its_digit_never_closes_makes_a_clear_reading_a_doubt() {
        // A given read clearly as a `1` or a `7` where the puzzle holds another digit, and the
        // misreading still leaves one (other) solution: the rules cannot catch it.
        let puzzle: Board = PUZZLE.parse().unwrap();
        let (cell, read) = Pos::all()
            .filter(|&p| puzzle.get(p).is_some())
            .flat_map(|p| [1, 7].map(|d| (p, Digit::new(d).unwrap())))
            .find(|&(p, d)| {
                let mut b = puzzle;
                b.set(p, Some(d));
                puzzle.get(p) != Some(d) && matches!(solve::check(&b), Ok(Verdict::Unique(_)))
            })
            .expect("some given misread as 1 or 7 leaves one solution");
        let mut misread = puzzle;
        misread.set(cell, Some(read));
        let mut evidence = clear_evidence(&misread);
        let glyph = evidence[cell.index()].as_mut().unwrap();
        glyph.holes = Some(topology::Loops::counted(2));
        assert!(solve_read(&misread, &evidence, 2, &Budget::unlimited())
            .trusted()
            .is_some());
        // The glyph's loops are its shape (no look-alike closes none): no 1 or 7 draws them.
        evidence[cell.index()].as_mut().unwrap().loop_certain = true;
        let solved = solve_read(&misread, &evidence, 2, &Budget::unlimited());
        assert!(solved.trusted().is_none());
        let doubt = solved.doubts.iter().find(|d| d.cell == cell).unwrap();
        assert!(!doubt.could_be.iter().any(|d| [1, 7].contains(&d.get())));
    }

    #[test]
    fn a_rival_reading_after_a_correction_is_still_a_doubt() {
        // The first test's misread 1 (read 7) is corrected; but the 3s and 8s, swapped as whole
        // groups, are a reading the picture supports nearly as well, and it answers otherwise.
        let MisreadOne {
            puzzle,
            misread,
            evidence,
            ..
        } = misread_one();
        let swap = |d: Digit| match d.get() {
            3 => Digit::new(8).unwrap(),
            8 => Digit::new(3).unwrap(),
            _ => d,
        };
        let rival = Rival {
            changes: Pos::all()
                .filter_map(|p| {
                    let d = puzzle.get(p)?;
                    (swap(d) != d).then(|| (p, swap(d)))
                })
                .collect(),
            loss: 0.01,
            backed: false,
        };
        let alone = solve_read(&misread, &evidence, 2, &Budget::unlimited());
        assert!(alone.trusted().is_some());
        let solved = solve_reading(&misread, &evidence, &[rival], 2, &Budget::unlimited());
        assert_eq!(solved.corrections.len(), 1);
        assert_eq!(solved.trusted(), None, "{:?}", solved.doubts);
        assert!(!solved.doubts.is_empty());
    }

    #[test]
    fn two_misreads_that_agree_are_a_doubt_once_a_correction_was_needed() {
        // Two givens misread so that the puzzle still has one (other) solution; each glyph's
        // true digit is its runner-up, 0.1 behind: too far for a single rival.
        let puzzle: Board = PUZZLE.parse().unwrap();
        let unique_other = |b: &Board| match solve::check(b) {
            Ok(Verdict::Unique(s)) => Some(s),
            _ => None,
        };
        let truth = unique_other(&puzzle).unwrap();
        let changes = |b: &Board| -> Vec<(Pos, Digit)> {
            Pos::all()
                .filter(|&p| b.get(p).is_some())
                .flat_map(|p| Digit::all().map(move |d| (p, d)))
                .filter(|&(p, d)| b.get(p) != Some(d))
                .collect()
        };
        let (misread, answer, [a, b]) = changes(&puzzle)
            .into_iter()
            .filter_map(|a| {
                let once = with_changes(&puzzle, &[a]);
                unique_other(&once)?;
                changes(&once).into_iter().find_map(|b| {
                    let twice = with_changes(&once, &[b]);
                    let answer = unique_other(&twice).filter(|s| *s != truth)?;
                    (b.0 != a.0).then_some((twice, answer, [a, b]))
                })
            })
            .next()
            .expect("two misreads leave one other solution");
        let mut evidence = clear_evidence(&misread);
        for (p, d) in [a, b] {
            let right = puzzle.get(p).unwrap();
            evidence[p.index()] = Some(recognized(d.get(), right.get(), 0.1));
        }
        let corrected = |corrections: Vec<Correction>| Decision {
            givens: misread,
            verdict: Ok(Verdict::Unique(answer)),
            corrections,
            doubts: Vec::new(),
        };
        let elsewhere = Pos::all().find(|&p| ![a.0, b.0].contains(&p) && misread.get(p).is_some());
        let fix = Correction {
            cell: elsewhere.unwrap(),
            read: Digit::new(1).unwrap(),
            used: misread.get(elsewhere.unwrap()).unwrap(),
        };
        let doubts = doubt::doubts(
            &corrected(vec![fix]),
            &evidence,
            Candidates::default(),
            &Budget::unlimited(),
        );
        for (p, _) in [a, b] {
            let doubt = doubts
                .iter()
                .find(|d| d.cell == p)
                .expect("a doubt on both");
            assert_eq!(doubt.could_be, vec![puzzle.get(p).unwrap()]);
        }
        // As read (nothing corrected), a clear reading is not second-guessed two cells at once.
        let as_read = doubt::doubts(
            &corrected(Vec::new()),
            &evidence,
            Candidates::default(),
            &Budget::unlimited(),
        );
        assert!(as_read.iter().all(|d| ![a.0, b.0].contains(&d.cell)));
        // Nor is a glyph with a twin: twins are misread together, as a group.
        evidence[a.0.index()].as_mut().unwrap().has_twin = true;
        let twinned = doubt::doubts(
            &corrected(vec![fix]),
            &evidence,
            Candidates::default(),
            &Budget::unlimited(),
        );
        assert!(twinned.iter().all(|d| ![a.0, b.0].contains(&d.cell)));
    }

    /// Evidence for `board` where every glyph reads clearly as itself.
    fn clear_evidence(board: &Board) -> Vec<Option<Recognized>> {
        Pos::all()
            .map(|p| {
                board
                    .get(p)
                    .map(|d| recognized(d.get(), (d.get() % 9) + 1, 0.5))
            })
            .collect()
    }

    /// The shared puzzle, with a given whose digit can be swapped for another that leaves the
    /// puzzle with one, different, solution (a misread the rules cannot catch), and evidence
    /// where that given's glyph has the other digit as runner-up, `margin` behind.
    struct RivalCase {
        puzzle: Board,
        solution: Board,
        cell: Pos,
        read: Digit,
        other: Digit,
        evidence: Vec<Option<Recognized>>,
    }

    fn rival_case(margin: f32) -> RivalCase {
        let puzzle: Board = PUZZLE.parse().unwrap();
        let solution = solve::solve(&puzzle).unwrap().unwrap();
        let (cell, other) = Pos::all()
            .filter(|&p| puzzle.get(p).is_some())
            .flat_map(|p| Digit::all().map(move |d| (p, d)))
            .find(|&(p, d)| {
                let mut b = puzzle;
                b.set(p, Some(d));
                matches!(solve::check(&b), Ok(Verdict::Unique(s)) if s != solution)
            })
            .expect("some given has a rival digit");
        let read = puzzle.get(cell).unwrap();
        let mut evidence = clear_evidence(&puzzle);
        evidence[cell.index()] = Some(recognized(read.get(), other.get(), margin));
        RivalCase {
            puzzle,
            solution,
            cell,
            read,
            other,
            evidence,
        }
    }

    const PUZZLE: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

    #[test]
    fn a_clear_reading_is_trusted() {
        let puzzle: Board = PUZZLE.parse().unwrap();
        let solved = solve_read(&puzzle, &clear_evidence(&puzzle), 2, &Budget::unlimited());
        assert!(solved.doubts.is_empty());
        assert!(solved.trusted().unwrap().solves(&puzzle));
    }

    #[test]
    fn a_close_runner_up_that_also_solves_is_a_doubt() {
        let RivalCase {
            puzzle,
            solution,
            cell,
            read,
            other,
            mut evidence,
        } = rival_case(0.02);
        let solved = solve_read(&puzzle, &evidence, 2, &Budget::unlimited());
        assert_eq!(
            solved.doubts,
            vec![Doubt {
                cell,
                read: Some(read),
                could_be: vec![other]
            }]
        );
        assert_eq!(solved.trusted(), None);
        assert_eq!(solved.any_solution(), Some(solution));
        // A rival the picture's own glyphs rule out (the glyph is clearly unlike those
        // surely read as that digit) is no doubt either.
        let mut unlike = recognized(read.get(), other.get(), 0.02);
        unlike.unlike = vec![other];
        evidence[cell.index()] = Some(unlike);
        assert!(solve_read(&puzzle, &evidence, 2, &Budget::unlimited())
            .doubts
            .is_empty());
        // Nor is a runner-up at a glyph with a twin read as its own digit: one font draws a
        // digit one way, so the two glyphs would be misread together, and whole groups are
        // weighed as exchanges of digits.
        let twin = Recognized {
            has_twin: true,
            ..recognized(read.get(), other.get(), 0.02)
        };
        evidence[cell.index()] = Some(twin);
        let solved = solve_read(&puzzle, &evidence, 2, &Budget::unlimited());
        assert!(solved.doubts.is_empty());
        assert_eq!(solved.trusted(), Some(solution));
        // The same rival far behind the best score is no doubt.
        evidence[cell.index()] = Some(recognized(read.get(), other.get(), 0.3));
        assert!(solve_read(&puzzle, &evidence, 2, &Budget::unlimited())
            .doubts
            .is_empty());
    }

    #[test]
    fn two_digits_the_templates_barely_tell_apart_are_a_doubt() {
        // The rules accept the 3s and 8s exchanged everywhere (another puzzle with one
        // solution): only the glyphs can tell, and here they barely do.
        let puzzle: Board = PUZZLE.parse().unwrap();
        let mut evidence = clear_evidence(&puzzle);
        let (three, eight) = (Digit::new(3).unwrap(), Digit::new(8).unwrap());
        for pos in Pos::all() {
            match puzzle.get(pos) {
                Some(d) if d == three => evidence[pos.index()] = Some(recognized(3, 8, 0.03)),
                Some(d) if d == eight => evidence[pos.index()] = Some(recognized(8, 3, 0.03)),
                _ => {}
            }
        }
        let solved = solve_read(&puzzle, &evidence, 2, &Budget::unlimited());
        assert_eq!(solved.trusted(), None);
        let expected: Vec<Pos> = Pos::all()
            .filter(|&p| matches!(puzzle.get(p), Some(d) if d == three || d == eight))
            .collect();
        let doubted: Vec<Pos> = solved.doubts.iter().map(|d| d.cell).collect();
        assert_eq!(doubted, expected);
        for d in &solved.doubts {
            let other = if d.read == Some(three) { eight } else { three };
            assert_eq!(d.could_be, vec![other]);
        }
        // Told apart clearly (0.2 per glyph), the same reading is trusted.
        for pos in &expected {
            let d = puzzle.get(*pos).unwrap().get();
            evidence[pos.index()] = Some(recognized(d, 11 - d, 0.2));
        }
        assert!(solve_read(&puzzle, &evidence, 2, &Budget::unlimited())
            .trusted()
            .is_some());
        // Told apart as clearly, but by glyphs that fit the templates poorly (best 0.5): the
        // scores name these digits poorly, so the exchange is a doubt again.
        let mut weak = evidence.clone();
        for pos in &expected {
            if let Some(r) = weak[pos.index()].as_mut() {
                r.ranked.iter_mut().for_each(|(_, s)| *s -= 0.4);
            }
        }
        assert_eq!(
            solve_read(&puzzle, &weak, 2, &Budget::unlimited()).trusted(),
            None
        );
        // The same calibrated scores, but the templates alone liked the exchange better (the
        // grid's calibration made the reading): a doubt again.
        for pos in &expected {
            if let Some(r) = evidence[pos.index()].as_mut() {
                r.template.swap(2, 7);
            }
        }
        assert_eq!(
            solve_read(&puzzle, &evidence, 2, &Budget::unlimited()).trusted(),
            None
        );
    }

    #[test]
    fn digits_renamed_in_a_cycle_the_templates_barely_tell_apart_are_a_doubt() {
        // A font unlike the templates: each 3 looks nearly as much like a 5, each 5 like an
        // 8, each 8 like a 3. No exchange of two of them comes close (the digit renamed back
        // scores nothing), but reading 3 as 5, 5 as 8 and 8 as 3 loses 0.03 a glyph, and the
        // rules accept it as they accept any relabelling. The same with a cycle of four.
        let puzzle: Board = PUZZLE.parse().unwrap();
        for cycle in [vec![3, 5, 8], vec![2, 3, 5, 8]] {
            let next = |read: u8| {
                let at = cycle.iter().position(|&d| d == read)?;
                Some(cycle[(at + 1) % cycle.len()])
            };
            let read_with = |margin: f32| {
                let mut evidence = clear_evidence(&puzzle);
                for pos in Pos::all() {
                    let Some(d) = puzzle.get(pos) else { continue };
                    if let Some(other) = next(d.get()) {
                        evidence[pos.index()] = Some(recognized(d.get(), other, margin));
                    }
                }
                evidence
            };
            let solved = solve_read(&puzzle, &read_with(0.03), 2, &Budget::unlimited());
            assert_eq!(solved.trusted(), None, "{cycle:?}");
            for d in &solved.doubts {
                let other = next(d.read.unwrap().get()).unwrap();
                assert_eq!(d.could_be, vec![Digit::new(other).unwrap()], "{cycle:?}");
            }
            let cycled = |p: &Pos| matches!(puzzle.get(*p), Some(d) if cycle.contains(&d.get()));
            assert_eq!(solved.doubts.len(), Pos::all().filter(cycled).count());
            // Told apart clearly (0.2 a glyph), the same reading is trusted.
            assert!(
                solve_read(&puzzle, &read_with(0.2), 2, &Budget::unlimited())
                    .trusted()
                    .is_some()
            );
        }
    }

    /// The puzzle's 3s and 5s read as each other or as themselves (`exchanged`), each a close
    /// call (0.03) against the other.
    fn threes_and_fives_read(puzzle: &Board, exchanged: bool) -> (Board, Vec<Option<Recognized>>) {
        let other = |d: u8| match d {
            3 => 5,
            5 => 3,
            d => d,
        };
        let mut read = *puzzle;
        let mut evidence = clear_evidence(puzzle);
        for pos in Pos::all() {
            let Some(d) = puzzle
                .get(pos)
                .map(Digit::get)
                .filter(|d| [3, 5].contains(d))
            else {
                continue;
            };
            let shown = if exchanged { other(d) } else { d };
            read.set(pos, Digit::new(shown));
            evidence[pos.index()] = Some(recognized(shown, other(shown), 0.03));
        }
        (read, evidence)
    }

    /// 3x3 pencil marks in `cells` holding the solution's digit and a digit that is neither 3
    /// nor 5: a player's candidates.
    fn candidates_in(cells: &[Pos], solution: &Board) -> Vec<CellMarks> {
        (cells.iter())
            .map(|&cell| {
                let digit = solution.get(cell).unwrap();
                let mut digits = vec![
                    digit,
                    Digit::new(if digit.get() == 9 { 1 } else { 9 }).unwrap(),
                ];
                digits.sort_unstable();
                CellMarks {
                    cell,
                    digits,
                    layout: crate::pipeline::pencil::Layout::Grid,
                }
            })
            .collect()
    }

    #[test]
    fn pencil_marks_that_leave_out_an_exchanged_answer_refute_it() {
        // A font whose 3s and 5s the templates barely tell apart: exchanging them everywhere
        // is another puzzle with one solution, so the reading is a doubt. A player's marks by
        // their places hold the answer's 3s and 5s but not the exchanged answer's.
        let puzzle: Board = PUZZLE.parse().unwrap();
        let solution = solve::solve(&puzzle).unwrap().unwrap();
        let (read, evidence) = threes_and_fives_read(&puzzle, false);
        let doubtful = solve_read(&read, &evidence, 2, &Budget::unlimited());
        assert_eq!(doubtful.trusted(), None);
        let three_or_five = |p: &Pos| {
            puzzle.get(*p).is_none() && matches!(solution.get(*p).map(Digit::get), Some(3 | 5))
        };
        let marked: Vec<Pos> = Pos::all().filter(three_or_five).take(MIN_MARKED).collect();
        let marks = candidates_in(&marked, &solution);
        let weighed = solve_reading_marked(
            &read,
            &evidence,
            &[],
            Candidates::new(&marks),
            2,
            &Budget::unlimited(),
        );
        assert_eq!(weighed.trusted(), Some(solution));
        // Marks in too few cells weigh nothing.
        let few = Candidates::new(&marks[..MIN_MARKED - 1]);
        assert_eq!(
            solve_reading_marked(&read, &evidence, &[], few, 2, &Budget::unlimited()).trusted(),
            None
        );
        // Marks that hold both answers' digits cannot tell them apart.
        let both: Vec<CellMarks> = (marked.iter())
            .map(|&cell| CellMarks {
                cell,
                digits: vec![Digit::new(3).unwrap(), Digit::new(5).unwrap()],
                layout: crate::pipeline::pencil::Layout::Grid,
            })
            .collect();
        let blind = solve_reading_marked(
            &read,
            &evidence,
            &[],
            Candidates::new(&both),
            2,
            &Budget::unlimited(),
        );
        assert_eq!(blind.trusted(), None);
    }

    #[test]
    fn entries_that_contradict_an_exchanged_answer_refute_it() {
        // As the pencil marks above: the player's entries of the answer's 3s and 5s, one
        // candidate each, refute the answer with the 3s and 5s exchanged.
        let puzzle: Board = PUZZLE.parse().unwrap();
        let solution = solve::solve(&puzzle).unwrap().unwrap();
        let (read, evidence) = threes_and_fives_read(&puzzle, false);
        let entered: Vec<(Pos, Digit)> = Pos::all()
            .filter(|p| {
                puzzle.get(*p).is_none() && matches!(solution.get(*p).map(Digit::get), Some(3 | 5))
            })
            .take(MIN_MARKED)
            .map(|p| (p, solution.get(p).unwrap()))
            .collect();
        let weigh = |entries: &[(Pos, Digit)]| {
            let candidates = Candidates::with_entries(&[], entries);
            solve_reading_marked(&read, &evidence, &[], candidates, 2, &Budget::unlimited())
        };
        assert_eq!(weigh(&entered).trusted(), Some(solution));
        // Too few entries weigh nothing.
        assert_eq!(weigh(&entered[..MIN_MARKED - 1]).trusted(), None);
    }

    #[test]
    fn pencil_marks_that_leave_out_the_answer_read_decide_for_the_exchanged_one() {
        // The templates named the 3s 5s and the 5s 3s; the marks hold the true answer's digits.
        let puzzle: Board = PUZZLE.parse().unwrap();
        let solution = solve::solve(&puzzle).unwrap().unwrap();
        let (read, evidence) = threes_and_fives_read(&puzzle, true);
        let marked: Vec<Pos> = Pos::all()
            .filter(|p| {
                puzzle.get(*p).is_none() && matches!(solution.get(*p).map(Digit::get), Some(3 | 5))
            })
            .take(MIN_MARKED)
            .collect();
        let marks = candidates_in(&marked, &solution);
        let candidates = Candidates::new(&marks);
        let doubtful =
            solve_reading_marked(&read, &evidence, &[], candidates, 2, &Budget::unlimited());
        assert_eq!(
            doubtful.trusted(),
            None,
            "the marks refute the reading, not its rival"
        );
        let decided = decided_by_marks(
            &read,
            &doubtful,
            &evidence,
            &[],
            candidates,
            &Budget::unlimited(),
        )
        .unwrap();
        assert_eq!(decided.trusted(), Some(solution));
        assert_eq!(decided.givens, puzzle);
        let renamed = Pos::all()
            .filter(|p| matches!(puzzle.get(*p).map(Digit::get), Some(3 | 5)))
            .count();
        assert_eq!(decided.corrections.len(), renamed);
        // Without marks nothing decides.
        let none = Candidates::default();
        assert!(
            decided_by_marks(&read, &doubtful, &evidence, &[], none, &Budget::unlimited())
                .is_none()
        );
    }

    #[test]
    fn a_lone_glyph_renamed_to_a_digit_the_givens_lack_is_a_doubt_further_off() {
        // The givens hold one 6 and no 1: reading the 6 as 1 renames a digit, and the rules
        // accept it (another puzzle with one solution). One glyph is all the evidence, so a
        // runner-up 0.15 behind is a rival (a hairline font's flat-topped 3 read as 5 by 0.19
        // drew a wrong answer).
        let puzzle: Board =
            ".......3....9..8..3...4..72..6.9....4..3..7.8.3.2.5.4...4........2.7.3..7...2.5.9"
                .parse()
                .unwrap();
        let six = Pos::all()
            .find(|&p| puzzle.get(p) == Digit::new(6))
            .unwrap();
        let mut evidence = clear_evidence(&puzzle);
        evidence[six.index()] = Some(recognized(6, 1, 0.15));
        let solved = solve_read(&puzzle, &evidence, 2, &Budget::unlimited());
        assert_eq!(solved.trusted(), None);
        assert_eq!(
            solved.doubts,
            vec![Doubt {
                cell: six,
                read: Digit::new(6),
                could_be: vec![Digit::new(1).unwrap()]
            }]
        );
        // Told apart clearly, the reading is trusted.
        evidence[six.index()] = Some(recognized(6, 1, 0.3));
        assert!(solve_read(&puzzle, &evidence, 2, &Budget::unlimited())
            .trusted()
            .is_some());
    }

    #[test]
    fn sixes_read_as_fives_are_corrected_by_their_loops() {
        // A squarish font: every 6 read as 5, the 6 runner-up 0.1 behind; too many for single
        // cells, and no shape group to relabel. The misread glyphs have a closed loop, which
        // no 5 has; the true 5s have none.
        let puzzle: Board = PUZZLE.parse().unwrap();
        let (five, six) = (Digit::new(5).unwrap(), Digit::new(6).unwrap());
        let mut read = puzzle;
        let mut evidence = clear_evidence(&puzzle);
        for pos in Pos::all() {
            let (digit, holes) = match puzzle.get(pos) {
                Some(d) if d == six => (recognized(5, 6, 0.1), 1),
                Some(d) if d == five => (recognized(5, 6, 0.1), 0),
                Some(d) => {
                    // The other givens show their usual loops: the font's loops hold.
                    if let Some(r) = evidence[pos.index()].as_mut() {
                        r.holes = Some(usual_loops(d.get()));
                    }
                    continue;
                }
                None => continue,
            };
            read.set(pos, Some(five));
            evidence[pos.index()] = Some(Recognized {
                holes: Some(topology::Loops::counted(holes)),
                ..digit
            });
        }
        let solved = solve_read(&read, &evidence, 2, &Budget::unlimited());
        let sixes = Pos::all().filter(|&p| puzzle.get(p) == Some(six)).count();
        assert_eq!(solved.corrections.len(), sixes);
        assert!(solved.corrections.iter().all(|c| c.used == six));
        assert!(solved.trusted().unwrap().solves(&puzzle));
        // Without loops to tell, nothing is drawn.
        let blind: Vec<Option<Recognized>> = evidence
            .iter()
            .map(|r| r.clone().map(|r| Recognized { holes: None, ..r }))
            .collect();
        assert_eq!(
            solve_read(&read, &blind, 2, &Budget::unlimited()).trusted(),
            None
        );
    }

    #[test]
    fn a_rival_the_grids_own_glyphs_back_is_a_doubt_further_off() {
        // A cell whose runner-up gives another unique answer, 0.15 behind: no rival by the
        // templates alone, one when its glyph looks more like that digit's glyphs.
        let RivalCase {
            puzzle,
            solution,
            cell,
            read,
            other,
            evidence,
        } = rival_case(0.15);
        let rival = |backed| Rival {
            changes: vec![(cell, other)],
            loss: 0.15,
            backed,
        };
        let unbacked = solve_reading(&puzzle, &evidence, &[rival(false)], 2, &Budget::unlimited());
        assert_eq!(unbacked.trusted(), Some(solution));
        let backed = solve_reading(&puzzle, &evidence, &[rival(true)], 2, &Budget::unlimited());
        assert_eq!(backed.trusted(), None);
        assert_eq!(
            backed.doubts,
            vec![Doubt {
                cell,
                read: Some(read),
                could_be: vec![other]
            }]
        );
    }

    #[test]
    fn a_lone_glyph_rival_to_a_digit_its_look_alikes_rule_out_is_no_doubt() {
        // A shape group of one glyph moved to another digit at a small loss: a doubt, unless
        // the glyph looks much more like the glyphs read as its own digit than like any read
        // as the rival digit (tiny typeset 8s, one of them split from its twins).
        let mut case = rival_case(0.3);
        let (cell, other) = (case.cell, case.other);
        let rival = Rival {
            changes: vec![(cell, other)],
            loss: 0.01,
            backed: false,
        };
        let solve = |case: &RivalCase| {
            solve_reading(
                &case.puzzle,
                &case.evidence,
                std::slice::from_ref(&rival),
                2,
                &Budget::unlimited(),
            )
        };
        let solved = solve(&case);
        assert_eq!(solved.trusted(), None);
        let expected = Doubt {
            cell,
            read: Some(case.read),
            could_be: vec![other],
        };
        assert_eq!(solved.doubts, vec![expected]);
        if let Some(r) = case.evidence[cell.index()].as_mut() {
            r.unlike = vec![other];
        }
        assert_eq!(solve(&case).trusted(), Some(case.solution));
    }

    #[test]
    fn several_solutions_name_the_open_cells() {
        let mut puzzle: Board = PUZZLE.parse().unwrap();
        // Drop givens until the puzzle has more than one solution.
        let dropped = Pos::all()
            .filter(|&p| puzzle.get(p).is_some())
            .find(|&p| {
                let mut b = puzzle;
                b.set(p, None);
                matches!(solve::check(&b), Ok(Verdict::Multiple(_)))
            })
            .expect("some given is needed for uniqueness");
        puzzle.set(dropped, None);
        let solved = solve_read(&puzzle, &clear_evidence(&puzzle), 2, &Budget::unlimited());
        assert_eq!(solved.trusted(), None);
        assert!(!solved.doubts.is_empty());
        let two = solve::solutions(&puzzle, 2).unwrap();
        for d in &solved.doubts {
            assert_eq!(d.read, None);
            assert!(puzzle.get(d.cell).is_none());
            assert_eq!(d.could_be.len(), 2);
            assert_ne!(two[0].get(d.cell), two[1].get(d.cell));
        }
    }

    /// `PUZZLE`'s solution, the cells of its given 7s, and the puzzle with every given 7 read
    /// as 1, as a font the templates read badly does to all its 7s.
    fn sevens_read_as_ones() -> (Board, Vec<Pos>, Board) {
        let puzzle: Board = PUZZLE.parse().unwrap();
        let solution = solve::solve(&puzzle).unwrap().unwrap();
        let sevens: Vec<Pos> = Pos::all()
            .filter(|&p| puzzle.get(p) == Digit::new(7))
            .collect();
        let mut misread = puzzle;
        sevens.iter().for_each(|&p| misread.set(p, Digit::new(1)));
        (solution, sevens, misread)
    }

    #[test]
    fn a_whole_digit_misread_alike_is_corrected_as_a_group() {
        let (solution, sevens, misread) = sevens_read_as_ones();
        assert!(!matches!(solve::check(&misread), Ok(Verdict::Unique(_))));
        let group = |digit: u8, loss: f32| Rival {
            changes: sevens
                .iter()
                .map(|&p| (p, Digit::new(digit).unwrap()))
                .collect(),
            loss,
            backed: false,
        };
        // The nearer alternative (the 7s as 4) breaks the rules; the next one is the truth.
        let alternatives = [group(4, 0.1), group(7, 0.15)];
        let none: Vec<Option<Recognized>> = vec![None; 81];
        let solved = solve_reading(&misread, &none, &alternatives, 2, &Budget::unlimited());
        assert_eq!(solved.trusted(), Some(solution));
        assert_eq!(solved.corrections.len(), sevens.len());
        // With corrections turned off, nothing is changed.
        let solved = solve_reading(&misread, &none, &alternatives, 0, &Budget::unlimited());
        assert_eq!(solved.trusted(), None);
    }

    /// The shared puzzle with its `a`s and `b`s swapped (a reading with one, different,
    /// solution), evidence whose glyphs have the loops of their true digits (`loops` off: not
    /// counted), each read with its true digit the runner-up by 0.02, and the rival reading
    /// that swaps them back.
    fn digits_swapped(a: u8, b: u8, loops: bool) -> (Board, Board, Vec<Option<Recognized>>, Rival) {
        let puzzle: Board = PUZZLE.parse().unwrap();
        let solution = solve::solve(&puzzle).unwrap().unwrap();
        let (a, b) = (Digit::new(a).unwrap(), Digit::new(b).unwrap());
        let mut misread = puzzle;
        let mut evidence = clear_evidence(&puzzle);
        let mut changes = Vec::new();
        for pos in Pos::all() {
            let Some(truth) = puzzle.get(pos) else {
                continue;
            };
            let read = match truth {
                t if t == a => b,
                t if t == b => a,
                t => t,
            };
            if read != truth {
                misread.set(pos, Some(read));
                changes.push((pos, truth));
            }
            evidence[pos.index()] = Some(Recognized {
                holes: loops.then(|| usual_loops(truth.get())),
                ..recognized(read.get(), truth.get(), 0.02)
            });
        }
        let rival = Rival {
            changes,
            loss: 0.02,
            backed: false,
        };
        (solution, misread, evidence, rival)
    }

    fn sevens_and_nines_swapped(loops: bool) -> (Board, Board, Vec<Option<Recognized>>, Rival) {
        digits_swapped(7, 9, loops)
    }

    #[test]
    fn loops_choose_an_exchange_of_two_digits_no_rival_names() {
        // A handwriting face: its open 4s read as 9s, its closed 9s as 4s, and the shape
        // groups offered no rival; the exchange of the two digits is weighed by the loops.
        let (solution, misread, evidence, _) = digits_swapped(4, 9, true);
        assert!(matches!(solve::check(&misread), Ok(Verdict::Unique(s)) if s != solution));
        let solved = solve_reading(&misread, &evidence, &[], 2, &Budget::unlimited());
        assert_eq!(solved.trusted(), Some(solution));
        // A stencil face, its cuts opening one loop of two of the 8s (too few to outvote
        // the other givens' loops): the loops of faces that close them no longer vouch for
        // the 4s' and 9s', so loops choose nothing.
        let puzzle: Board = PUZZLE.parse().unwrap();
        let mut stencil = evidence;
        let eights = Pos::all().filter(|&p| puzzle.get(p) == Digit::new(8));
        for pos in eights.take(2) {
            if let Some(r) = stencil[pos.index()].as_mut() {
                r.holes = Some(topology::Loops::counted(1));
            }
        }
        let solved = solve_reading(&misread, &stencil, &[], 2, &Budget::unlimited());
        assert_eq!(solved.trusted(), None);
        assert!(solved.corrections.is_empty());
    }

    #[test]
    fn loops_choose_between_two_readings_the_rules_both_accept() {
        let (solution, misread, evidence, rival) = sevens_and_nines_swapped(true);
        assert!(matches!(solve::check(&misread), Ok(Verdict::Unique(s)) if s != solution));
        let solved = solve_reading(
            &misread,
            &evidence,
            std::slice::from_ref(&rival),
            2,
            &Budget::unlimited(),
        );
        assert_eq!(solved.trusted(), Some(solution));
        assert_eq!(solved.corrections.len(), rival.changes.len());
        // Without loops, or with corrections turned off, the two answers stay a doubt.
        let (_, _, blind, _) = sevens_and_nines_swapped(false);
        let solved = solve_reading(
            &misread,
            &blind,
            std::slice::from_ref(&rival),
            2,
            &Budget::unlimited(),
        );
        assert_eq!(solved.trusted(), None);
        assert!(!solved.doubts.is_empty());
        let solved = solve_reading(
            &misread,
            &evidence,
            std::slice::from_ref(&rival),
            0,
            &Budget::unlimited(),
        );
        assert_eq!(solved.trusted(), None);
    }

    #[test]
    fn entries_of_the_answer_read_refute_an_exchange_the_loops_favour() {
        // The loops favour exchanging the 7s and 9s; here the reading was right (the misread
        // puzzle is the puzzle as printed), and the player's entries of its answer's 7s and
        // 9s refute the exchange, so the reading stands.
        let (exchanged, read, evidence, rival) = sevens_and_nines_swapped(true);
        let answer = solve::solve(&read).unwrap().unwrap();
        let entered: Vec<(Pos, Digit)> = Pos::all()
            .filter(|p| read.get(*p).is_none())
            .filter(|p| matches!(answer.get(*p).map(Digit::get), Some(7 | 9)))
            .map(|p| (p, answer.get(p).unwrap()))
            .collect();
        assert!(entered.len() >= 2 * MIN_MARKED);
        let weigh = |entries: &[(Pos, Digit)]| {
            let candidates = Candidates::with_entries(&[], entries);
            let rivals = std::slice::from_ref(&rival);
            solve_reading_marked(
                &read,
                &evidence,
                rivals,
                candidates,
                2,
                &Budget::unlimited(),
            )
        };
        assert_eq!(weigh(&[]).trusted(), Some(exchanged), "the loops alone");
        let weighed = weigh(&entered);
        assert_eq!(weighed.any_solution(), Some(answer));
        assert!(weighed.corrections.is_empty());
    }

    #[test]
    fn loops_the_picture_contradicts_elsewhere_choose_nothing() {
        // Every other given shows a loop its digit lacks: this font's loops say nothing.
        let (_, misread, mut evidence, rival) = sevens_and_nines_swapped(true);
        for (pos, r) in Pos::all().zip(evidence.iter_mut()) {
            if let Some(r) = r
                .as_mut()
                .filter(|_| rival.changes.iter().all(|(p, _)| *p != pos))
            {
                r.holes = Some(topology::Loops::counted(3));
            }
        }
        let solved = solve_reading(
            &misread,
            &evidence,
            std::slice::from_ref(&rival),
            2,
            &Budget::unlimited(),
        );
        assert_eq!(solved.trusted(), None);
        assert!(solved.corrections.is_empty());
    }

    /// The loops a common font draws in `digit`: a 6's below, a 9's above, an 8's two, none
    /// elsewhere (a 4 drawn open).
    fn usual_loops(digit: u8) -> topology::Loops {
        let one = |place| topology::Loops {
            count: 1,
            place: Some(place),
            steady: true,
        };
        match digit {
            6 => one(topology::Place::Lower),
            9 => one(topology::Place::Upper),
            8 => topology::Loops::counted(2),
            _ => topology::Loops::counted(0),
        }
    }

    /// The shared puzzle read right, its glyphs with their digits' usual loops (4s drawn
    /// open, as some fonts do), every 4 and 9 read with the other a close runner-up. Returns
    /// the solution, the evidence and the rival reading that swaps the 4s and 9s.
    fn open_fours_beside_nines() -> (Board, Vec<Option<Recognized>>, Rival) {
        let puzzle: Board = PUZZLE.parse().unwrap();
        let solution = solve::solve(&puzzle).unwrap().unwrap();
        let mut evidence = clear_evidence(&puzzle);
        let mut changes = Vec::new();
        for pos in Pos::all() {
            let Some(digit) = puzzle.get(pos) else {
                continue;
            };
            let runner_up = match digit.get() {
                4 => 9,
                9 => 4,
                d => (d % 9) + 1,
            };
            let loops = usual_loops(digit.get());
            if runner_up == 4 || runner_up == 9 {
                changes.push((pos, Digit::new(runner_up).unwrap()));
            }
            evidence[pos.index()] = Some(Recognized {
                holes: Some(loops),
                ..recognized(digit.get(), runner_up, 0.03)
            });
        }
        let rival = Rival {
            changes,
            loss: 0.03,
            backed: false,
        };
        (solution, evidence, rival)
    }

    #[test]
    fn loops_a_rival_lacks_refute_it_beside_a_digit_drawn_either_way() {
        // Fonts draw a 4 open or closed, so its loops prove nothing; but 9s read as 4 would
        // need the loop these 4s lack, and the picture's other loops hold.
        let (solution, evidence, rival) = open_fours_beside_nines();
        let puzzle: Board = PUZZLE.parse().unwrap();
        let solved = solve_reading(
            &puzzle,
            &evidence,
            std::slice::from_ref(&rival),
            2,
            &Budget::unlimited(),
        );
        assert_eq!(solved.trusted(), Some(solution));
        assert!(solved.doubts.is_empty());
        // Where the 4s differ among themselves in their loops, blur may have closed or filled
        // them: the swap stays a doubt.
        let mut evidence = evidence;
        let first_four = Pos::all()
            .find(|&p| puzzle.get(p) == Digit::new(4))
            .unwrap();
        if let Some(r) = evidence[first_four.index()].as_mut() {
            r.holes = Some(topology::Loops::counted(1));
        }
        let solved = solve_reading(
            &puzzle,
            &evidence,
            std::slice::from_ref(&rival),
            2,
            &Budget::unlimited(),
        );
        assert_eq!(solved.trusted(), None);
    }

    /// The shared puzzle read right, every `a` and `b` with the other a close runner-up, each
    /// of their glyphs as `shape` dresses it (given its digit).
    fn close_pair(
        a: u8,
        b: u8,
        shape: impl Fn(u8, Recognized) -> Recognized,
    ) -> Vec<Option<Recognized>> {
        let puzzle: Board = PUZZLE.parse().unwrap();
        let mut evidence = clear_evidence(&puzzle);
        for pos in Pos::all() {
            let read = match puzzle.get(pos).map(Digit::get) {
                Some(d) if d == a || d == b => d,
                _ => continue,
            };
            let runner_up = if read == a { b } else { a };
            evidence[pos.index()] = Some(shape(read, recognized(read, runner_up, 0.02)));
        }
        evidence
    }

    /// `board` with every `a` and `b` exchanged.
    fn exchanged(board: &Board, a: u8, b: u8) -> Board {
        let mut out = *board;
        for pos in Pos::all() {
            match board.get(pos).map(Digit::get) {
                Some(d) if d == a => out.set(pos, Digit::new(b)),
                Some(d) if d == b => out.set(pos, Digit::new(a)),
                _ => {}
            }
        }
        out
    }

    /// [`close_pair`] of 3s and 5s whose upper parts open by `threes` and `fives` (see
    /// [`sides::opening`]).
    fn threes_and_fives(threes: Option<f32>, fives: Option<f32>) -> Vec<Option<Recognized>> {
        close_pair(3, 5, |d, r| Recognized {
            openings: [if d == 3 { threes } else { fives }, None],
            ..r
        })
    }

    #[test]
    fn a_fours_crossbar_tells_it_from_a_one_either_way_round() {
        // An unbundled hand whose slanted 1s and open 4s the templates barely tell apart:
        // exchanging every 1 with every 4 leaves a puzzle with one solution. Each glyph has a
        // twin, so only the exchange of whole digits is weighed, and the widths are alike.
        let puzzle: Board = PUZZLE.parse().unwrap();
        let solution = solve::solve(&puzzle).unwrap().unwrap();
        let bars = |ones: Option<f32>, fours: Option<f32>| {
            close_pair(1, 4, move |d, r| Recognized {
                bars: [None, if d == 1 { ones } else { fours }],
                width: Some(16),
                has_twin: true,
                ..r
            })
        };
        assert_eq!(
            solve_reading(&puzzle, &bars(None, None), &[], 2, &Budget::unlimited()).trusted(),
            None
        );
        // The glyphs read as 4 cross their middle with a bar three strokes long: it stands.
        let solved = solve_reading(
            &puzzle,
            &bars(Some(1.1), Some(3.4)),
            &[],
            2,
            &Budget::unlimited(),
        );
        assert_eq!(solved.trusted(), Some(solution));
        assert!(solved.doubts.is_empty());
        // Bars too near each other prove nothing.
        let solved = solve_reading(
            &puzzle,
            &bars(Some(1.2), Some(1.9)),
            &[],
            2,
            &Budget::unlimited(),
        );
        assert_eq!(solved.trusted(), None);
        // The bars the other way round: the exchange is taken, each renamed given a correction.
        let solved = solve_reading(
            &puzzle,
            &bars(Some(3.4), Some(1.1)),
            &[],
            2,
            &Budget::unlimited(),
        );
        assert_eq!(solved.trusted(), Some(exchanged(&solution, 1, 4)));
        assert_eq!(solved.givens, exchanged(&puzzle, 1, 4));
    }

    #[test]
    fn a_sevens_top_bar_tells_it_from_a_four_either_way_round() {
        // A hand whose open 4s and 7s the templates barely tell apart; a crossed 7 is barred
        // across its middle like a 4, so only the top rows tell.
        let puzzle: Board = PUZZLE.parse().unwrap();
        let solution = solve::solve(&puzzle).unwrap().unwrap();
        let tops = |fours: f32, sevens: f32| {
            close_pair(4, 7, move |d, r| Recognized {
                bars: [Some(if d == 4 { fours } else { sevens }), Some(4.0)],
                has_twin: true,
                ..r
            })
        };
        let solved = solve_reading(&puzzle, &tops(1.0, 3.6), &[], 2, &Budget::unlimited());
        assert_eq!(solved.trusted(), Some(solution));
        assert!(solved.doubts.is_empty());
        assert_eq!(
            solve_reading(&puzzle, &tops(1.0, 1.5), &[], 2, &Budget::unlimited()).trusted(),
            None
        );
        let solved = solve_reading(&puzzle, &tops(3.6, 1.0), &[], 2, &Budget::unlimited());
        assert_eq!(solved.trusted(), Some(exchanged(&solution, 4, 7)));
    }

    #[test]
    fn the_sides_the_upper_parts_open_to_tell_threes_from_fives() {
        // The templates barely tell this font's 3s from its 5s, and exchanging every 3 with
        // every 5 leaves a puzzle with one solution: without other evidence, a doubt.
        let puzzle: Board = PUZZLE.parse().unwrap();
        let solution = solve::solve(&puzzle).unwrap().unwrap();
        let solved = solve_reading(
            &puzzle,
            &threes_and_fives(None, None),
            &[],
            2,
            &Budget::unlimited(),
        );
        assert_eq!(solved.trusted(), None);
        assert!(!solved.doubts.is_empty());
        // The 3s open to the left and the 5s to the right: the reading stands.
        let solved = solve_reading(
            &puzzle,
            &threes_and_fives(Some(0.5), Some(-0.6)),
            &[],
            2,
            &Budget::unlimited(),
        );
        assert_eq!(solved.trusted(), Some(solution));
        assert!(solved.doubts.is_empty());
        // Sides too near each other prove nothing.
        let solved = solve_reading(
            &puzzle,
            &threes_and_fives(Some(0.2), Some(-0.1)),
            &[],
            2,
            &Budget::unlimited(),
        );
        assert_eq!(solved.trusted(), None);
        // Sides the other way round: the glyphs read as 3s are 5s and those read as 5s are
        // 3s, and the exchange is taken, each renamed given reported as a correction.
        let solved = solve_reading(
            &puzzle,
            &threes_and_fives(Some(-0.5), Some(0.6)),
            &[],
            2,
            &Budget::unlimited(),
        );
        assert_eq!(solved.trusted(), Some(exchanged(&solution, 3, 5)));
        assert_eq!(solved.givens, exchanged(&puzzle, 3, 5));
        let renamed = Pos::all()
            .filter(|p| matches!(puzzle.get(*p).map(Digit::get), Some(3 | 5)))
            .count();
        assert_eq!(solved.corrections.len(), renamed);
    }

    #[test]
    fn a_part_closed_in_one_digit_and_open_in_the_other_tells_them_apart_but_never_renames() {
        // A stencil face's 5s and 6s: no loops, and the templates barely tell them apart.
        // Their upper parts both open to the right; below, a 5's bowl opens to the left and a
        // 6's is closed.
        let puzzle: Board = PUZZLE.parse().unwrap();
        let solution = solve::solve(&puzzle).unwrap().unwrap();
        let fives_and_sixes = |fives: f32, sixes: f32| {
            close_pair(5, 6, |d, r| Recognized {
                openings: [Some(-0.6), Some(if d == 5 { fives } else { sixes })],
                has_twin: true,
                ..r
            })
        };
        let twins = close_pair(5, 6, |_, r| Recognized {
            has_twin: true,
            ..r
        });
        let solved = solve_reading(&puzzle, &twins, &[], 2, &Budget::unlimited());
        assert_eq!(solved.trusted(), None);
        let solved = solve_reading(
            &puzzle,
            &fives_and_sixes(0.6, 0.0),
            &[],
            2,
            &Budget::unlimited(),
        );
        assert_eq!(solved.trusted(), Some(solution));
        assert!(solved.doubts.is_empty());
        // The other way round the sides speak for the exchange, but a closed part is only
        // ever evidence for the reading: a doubt, and the givens stay as read.
        let solved = solve_reading(
            &puzzle,
            &fives_and_sixes(0.0, 0.6),
            &[],
            2,
            &Budget::unlimited(),
        );
        assert_eq!(solved.trusted(), None);
        assert_eq!(solved.givens, puzzle);
    }

    #[test]
    fn either_part_may_tell_threes_from_eights() {
        // A bold face's 3s: the narrow upper bowl leaves the waist barely open on the left,
        // where the 8s' upper loop is closed, but below, the 3s open to the left and the 8s'
        // bowls are closed.
        let puzzle: Board = PUZZLE.parse().unwrap();
        let solution = solve::solve(&puzzle).unwrap().unwrap();
        let threes_and_eights = |lower_threes: f32| {
            close_pair(3, 8, |d, r| Recognized {
                openings: if d == 3 {
                    [Some(0.15), Some(lower_threes)]
                } else {
                    [Some(0.0), Some(0.0)]
                },
                has_twin: true,
                ..r
            })
        };
        let solved = solve_reading(
            &puzzle,
            &threes_and_eights(0.1),
            &[],
            2,
            &Budget::unlimited(),
        );
        assert_eq!(solved.trusted(), None);
        let solved = solve_reading(
            &puzzle,
            &threes_and_eights(0.6),
            &[],
            2,
            &Budget::unlimited(),
        );
        assert_eq!(solved.trusted(), Some(solution));
    }

    #[test]
    fn a_lone_glyph_whose_part_opens_unlike_the_runner_ups_givens_is_no_doubt() {
        // A given read with a close runner-up that the rules would accept too, the glyph
        // without a twin: a doubt, unless a part of the glyph meets the sides as the digit
        // read does, and the picture's givens of the runner-up meet them otherwise.
        let puzzle: Board = PUZZLE.parse().unwrap();
        let solution = solve::solve(&puzzle).unwrap().unwrap();
        let (cell, other, part) = Pos::all()
            .filter_map(|p| Some((p, puzzle.get(p)?)))
            .flat_map(|(p, read)| Digit::all().map(move |d| (p, read, d)))
            .find_map(|(p, read, d)| {
                let part = sides::Part::ALL.into_iter().find(|&part| {
                    let (a, b) = (sides::sides(read, part), sides::sides(d, part));
                    a.zip(b).is_some_and(|(a, b)| a != b)
                })?;
                let mut b = puzzle;
                b.set(p, Some(d));
                matches!(solve::check(&b), Ok(Verdict::Unique(s)) if s != solution)
                    .then_some((p, d, part))
            })
            .expect("some given has a rival digit whose sides differ");
        let read = puzzle.get(cell).unwrap();
        let ideal = |d: Digit| sides::sides(d, part).unwrap().ideal_opening() * 0.6;
        let lone = |own: Option<f32>| {
            let mut evidence = clear_evidence(&puzzle);
            let mut glyph = recognized(read.get(), other.get(), 0.02);
            glyph.openings[part.index()] = own;
            evidence[cell.index()] = Some(glyph);
            for p in Pos::all().filter(|&p| puzzle.get(p) == Some(other)) {
                let r = evidence[p.index()].as_mut().unwrap();
                r.openings[part.index()] = Some(ideal(other));
            }
            evidence
        };
        let doubted = |solved: &Decision| solved.doubts.iter().any(|d| d.cell == cell);
        assert!(doubted(&solve_reading(
            &puzzle,
            &lone(None),
            &[],
            2,
            &Budget::unlimited()
        )));
        let solved = solve_reading(
            &puzzle,
            &lone(Some(ideal(read))),
            &[],
            2,
            &Budget::unlimited(),
        );
        assert!(!doubted(&solved));
        assert_eq!(solved.trusted(), Some(solution));
        // A glyph that opens like the runner-up's givens stays a doubt.
        assert!(doubted(&solve_reading(
            &puzzle,
            &lone(Some(ideal(other))),
            &[],
            2,
            &Budget::unlimited(),
        )));
    }

    #[test]
    fn a_rival_reading_the_sides_of_every_glyph_it_changes_refute_is_no_doubt() {
        // The grid's calibration offers the exchange of every 3 with every 5 as a rival (the
        // templates barely tell them apart); the rules accept either reading.
        let puzzle: Board = PUZZLE.parse().unwrap();
        let solution = solve::solve(&puzzle).unwrap().unwrap();
        let digit = |d: u8| Digit::new(d).unwrap();
        let exchange = || Rival {
            changes: (Pos::all())
                .filter_map(|p| match puzzle.get(p).map(Digit::get) {
                    Some(3) => Some((p, digit(5))),
                    Some(5) => Some((p, digit(3))),
                    _ => None,
                })
                .collect(),
            loss: 0.0,
            backed: false,
        };
        let solved = solve_reading(
            &puzzle,
            &threes_and_fives(None, None),
            &[exchange()],
            2,
            &Budget::unlimited(),
        );
        assert_eq!(solved.trusted(), None);
        // Each glyph read as 3 opens to the left like the others read as 3, and each read as
        // 5 to the right like the other 5s: the rival is the templates' confusion.
        let evidence = threes_and_fives(Some(0.5), Some(-0.6));
        let solved = solve_reading(&puzzle, &evidence, &[exchange()], 2, &Budget::unlimited());
        assert_eq!(solved.trusted(), Some(solution));
        assert!(solved.doubts.is_empty());
    }

    #[test]
    fn ones_much_narrower_than_another_digit_are_no_doubt() {
        // A handwriting face's 1s and 7s, barely told apart by the templates; each glyph has a
        // twin (one face draws a digit one way), so only the exchange of whole digits is weighed.
        let puzzle: Board = PUZZLE.parse().unwrap();
        let solution = solve::solve(&puzzle).unwrap().unwrap();
        let widths = |ones: u32, sevens: u32| {
            close_pair(1, 7, move |d, r| Recognized {
                width: Some(if d == 1 { ones } else { sevens }),
                has_twin: true,
                ..r
            })
        };
        // The 1s are a plain stroke, a third as wide as the 7s: the reading stands.
        let solved = solve_reading(&puzzle, &widths(6, 18), &[], 2, &Budget::unlimited());
        assert_eq!(solved.trusted(), Some(solution));
        // With a foot and a flag, 1s are nearly as wide: the exchange stays a doubt.
        let solved = solve_reading(&puzzle, &widths(14, 18), &[], 2, &Budget::unlimited());
        assert_eq!(solved.trusted(), None);
        assert!(!solved.doubts.is_empty());
    }

    #[test]
    fn ones_far_wider_than_the_digit_they_exchange_with_are_a_doubt() {
        // A cursive face the templates read clearly (0.15 a glyph) but perhaps the wrong way
        // round: its barred 7s as 1 and its slanted 1s as 7. Whole digits exchanged, the rules
        // accept either reading.
        let puzzle: Board = PUZZLE.parse().unwrap();
        let solution = solve::solve(&puzzle).unwrap().unwrap();
        let widths_at = |ones: u32, sevens: u32, margin: f32| {
            let mut evidence = clear_evidence(&puzzle);
            for pos in Pos::all() {
                let (read, other, width) = match puzzle.get(pos).map(Digit::get) {
                    Some(1) => (1, 7, ones),
                    Some(7) => (7, 1, sevens),
                    _ => continue,
                };
                evidence[pos.index()] = Some(Recognized {
                    width: Some(width),
                    has_twin: true,
                    ..recognized(read, other, margin)
                });
            }
            evidence
        };
        let widths = |ones: u32, sevens: u32| widths_at(ones, sevens, 0.15);
        // The 1s a third as wide as the 7s, or a monospaced face's footed 1s a little wider:
        // the reading stands.
        for (ones, sevens) in [(6, 18), (18, 14)] {
            let solved =
                solve_reading(&puzzle, &widths(ones, sevens), &[], 2, &Budget::unlimited());
            assert_eq!(solved.trusted(), Some(solution), "{ones} against {sevens}");
        }
        // The glyphs read as 1 twice as wide as those read as 7: the widths speak for the
        // exchange, and the reading is a doubt.
        let solved = solve_reading(&puzzle, &widths(24, 12), &[], 2, &Budget::unlimited());
        assert_eq!(solved.trusted(), None);
        let sevens_and_ones =
            Pos::all().filter(|&p| matches!(puzzle.get(p).map(Digit::get), Some(1 | 7)));
        let doubted: Vec<Pos> = solved.doubts.iter().map(|d| d.cell).collect();
        assert_eq!(doubted, sevens_and_ones.collect::<Vec<_>>());
        // However clearly the templates named them (0.4 a glyph): a 1 is never that wide.
        let solved = solve_reading(
            &puzzle,
            &widths_at(24, 12, 0.4),
            &[],
            2,
            &Budget::unlimited(),
        );
        assert_eq!(solved.trusted(), None);
        assert_eq!(
            solve_reading(
                &puzzle,
                &widths_at(6, 18, 0.4),
                &[],
                2,
                &Budget::unlimited()
            )
            .trusted(),
            Some(solution)
        );
    }

    #[test]
    fn a_second_opinion_is_mended_cell_by_cell() {
        // Every given 7 read as 1 (the second opinion, at no loss, reads them 7), and r1c1's 5
        // read alone as a 6, its runner-up 5: neither mend gives one solution without the other.
        let (solution, sevens, mut misread) = sevens_read_as_ones();
        let r1c1 = Pos::new(0, 0).unwrap();
        misread.set(r1c1, Digit::new(6));
        let second_opinion = Rival {
            changes: sevens
                .iter()
                .map(|&p| (p, Digit::new(7).unwrap()))
                .collect(),
            loss: 0.0,
            backed: false,
        };
        let mut evidence: Vec<Option<Recognized>> = vec![None; 81];
        evidence[r1c1.index()] = Some(recognized(6, 5, 0.05));
        let solved = solve_reading(
            &misread,
            &evidence,
            &[second_opinion],
            2,
            &Budget::unlimited(),
        );
        assert_eq!(solved.any_solution(), Some(solution));
        assert_eq!(solved.corrections.len(), sevens.len() + 1);
        assert!(solved.corrections.contains(&Correction {
            cell: r1c1,
            read: Digit::new(6).unwrap(),
            used: Digit::new(5).unwrap(),
        }));
    }
}
