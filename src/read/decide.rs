//! What the reading decides: the givens solved (correcting misreads the evidence allows),
//! and when that gives no one solution, the cheapest of the other readings that does (see
//! [`hypotheses`]), weighed by the player's pencil marks.

use std::path::Path;

use image::RgbImage;

use crate::budget::Budget;
use crate::pipeline::picture::Picture;
use crate::pipeline::{cells, correct, pencil, tuning, Reading};
use crate::puzzle::board::{Board, Digit, Pos};
use crate::puzzle::{check, hint};
use crate::read::hypotheses::{self, Hypothesis};
use crate::{Error, Mode, Report, Result, Snap, Stage, Timings};

impl Snap {
    /// Reads, solves and records `picture` into `report`; with `draw`, draws what the mode
    /// asks for onto it when the solution may be drawn. Returns whether it drew. `name`
    /// labels errors, `label` debug pictures (see [`Snap::process_as`]); the searches spend
    /// `budget`, and a reading that runs out of it records no answer and draws nothing.
    pub(crate) fn solve_picture(
        &self,
        picture: &mut Picture,
        (name, label): (&Path, &Path),
        report: &mut Report,
        draw: bool,
        budget: &Budget,
    ) -> Result<bool> {
        let timings = &mut report.timings;
        let reading = self.read_as(picture.rgb(), (name, label), timings, budget)?;
        if reading.givens.is_full() {
            // Nothing to solve: most likely the page's printed solution was found instead of
            // its puzzle, and its "answer" is no answer to the puzzle the user meant.
            return Err(Error::NoGrid {
                path: name.to_path_buf(),
                reason: "the only grid found is complete: a digit is printed in every cell".into(),
            });
        }
        let others = self.other_grids(picture.rgb(), &reading.rectified.quad, (name, label));
        report.other_grids = others.iter().map(|(_, _, grid)| grid.clone()).collect();
        let timings = &mut report.timings;
        let (mut reading, mut solved) = self.decide(picture.rgb(), reading, timings, budget);
        budget.check(name)?;
        // Entries in a colour of their own (an app's red mistakes) are taken as read.
        let apart = reading.cells.entries_coloured_apart();
        if solved.is_unique() && !solved.doubts.is_empty() {
            let read = (&reading, &apart);
            solved = self.weigh_by_players_marks(picture.rgb(), read, solved, timings, budget);
            budget.check(name)?;
        }
        let refuting = weigh_entries(&mut reading, &mut solved, &apart);
        report.record(&reading, &solved, refuting);
        let drawn = if self.options.draw_doubtful {
            solved.any_solution()
        } else {
            solved.trusted()
        };
        let Some(solution) = drawn else {
            return Ok(false);
        };
        (report.wrong_entries, report.unreadable_entries) =
            checked_entries(&reading, &solution, &apart);
        if self.options.mode == Mode::Check {
            let marks = (report.timings).time(Stage::Recognize, || {
                self.pencil_marks(picture.rgb(), &reading)
            });
            report.record_pencil_marks(&marks, &solution);
        }
        if let Mode::Hint(n) = self.options.mode {
            let reached = check::reached(&solved.givens, &reading.entries, &solution);
            report.hints = hint::hints(&reached, n);
        }
        if !draw {
            return Ok(false);
        }
        // Timings is Copy: timed on a copy, since drawing reads the report's marks.
        let mut timings = report.timings;
        timings.time(Stage::Render, || {
            self.draw(picture, &reading, &solution, report);
            if self.options.mode == Mode::Answer {
                self.draw_other_answers(picture, &others);
            }
        });
        report.timings = timings;
        Ok(true)
    }

    /// The one decision: of the reading first made and the hypotheses beyond it (see
    /// [`hypotheses::tiers`]), the cheapest one taken with one solution (see
    /// [`Hypothesis::accepts`]), with its decision. Two taken from one tier are a tie: they
    /// are equally likely and give two answers, so neither is taken and the first reading
    /// stands, undecided. Each hypothesis is weighed within a share of what is left of
    /// `budget` (see [`Budget::share`]); one cut short is not taken, nor is any of its tier.
    /// Once `budget` says stop, what comes back must not be used.
    pub(crate) fn decide(
        &self,
        image: &RgbImage,
        mut first: Reading,
        timings: &mut Timings,
        budget: &Budget,
    ) -> (Reading, correct::Decision) {
        let decision = timings.time(Stage::Solve, || self.solve_as_read(&first, budget));
        let as_read =
            Hypothesis::AS_READ.accepts(&decision) && !refuted_by_entries(&first, &decision);
        if as_read && decision.trusted().is_some() {
            return (first, decision);
        }
        // The player's entries, where they complete the houses around a given, say what it is
        // more surely than any reading of its glyph: weighed first, and over a reading in doubt.
        if let Weighed::Taken(found) =
            self.weigh_within_share(Hypothesis::IMPLIED, image, &first, timings, budget)
        {
            return *found;
        }
        if as_read {
            return (first, decision);
        }
        if hypotheses::may_miss_a_given(&decision) {
            let again = timings.time(Stage::Cells, || {
                cells::looking_fainter(&first.rectified, image)
            });
            first.cells.faint = again.faint;
        }
        for tier in hypotheses::tiers(&first.cells, &decision) {
            let mut taken = None;
            let mut undecided = false;
            for hypothesis in tier {
                match self.weigh_within_share(hypothesis, image, &first, timings, budget) {
                    Weighed::CutShort => undecided = true,
                    _ if budget.is_stopped() => return (first, decision),
                    Weighed::Taken(_) if taken.is_some() => return (first, decision),
                    Weighed::Taken(found) => taken = Some(*found),
                    Weighed::NotTaken => {}
                }
            }
            // A hypothesis cut short could have tied with the one taken beside it.
            if undecided {
                continue;
            }
            if let Some(taken) = taken {
                return taken;
            }
        }
        (first, decision)
    }

    /// `hypothesis` weighed (see [`Snap::weigh`]) within a share of what is left of `budget`,
    /// so that no one hypothesis may spend it all (see [`Budget::share`]).
    fn weigh_within_share(
        &self,
        hypothesis: Hypothesis,
        image: &RgbImage,
        first: &Reading,
        timings: &mut Timings,
        budget: &Budget,
    ) -> Weighed {
        let share = budget.share();
        let weighed = self.weigh(hypothesis, image, first, timings, &share);
        if budget.close(share) {
            return Weighed::CutShort;
        }
        match weighed {
            Some(found)
                if hypothesis.accepts(&found.1) && !refuted_by_entries(&found.0, &found.1) =>
            {
                Weighed::Taken(Box::new(found))
            }
            _ => Weighed::NotTaken,
        }
    }

    /// `solved` weighed again with the player's pencil marks told by their places (see
    /// [`pencil::placed`]) and their entries read clearly: a rival reading whose answer they
    /// refute casts no doubt (see [`correct::Candidates`]).
    pub(crate) fn weigh_by_players_marks(
        &self,
        image: &RgbImage,
        (reading, apart): (&Reading, &[bool; 81]),
        solved: correct::Decision,
        timings: &mut Timings,
        budget: &Budget,
    ) -> correct::Decision {
        let marks = timings.time(Stage::Recognize, || {
            pencil::placed(image, &reading.rectified, &reading.cells)
        });
        let entries = clear_entries(reading, apart);
        let candidates = correct::Candidates::with_entries(&marks, &entries);
        let again = timings.time(Stage::Solve, || {
            correct::solve_reading_marked(
                &reading.givens,
                &reading.evidence,
                &reading.rivals,
                candidates,
                self.options.max_corrections,
                budget,
            )
        });
        // Marks only take rivals away here: the answer itself must stay the one read, and so
        // must the corrections that gave it. Solved again, a reading may reach the same answer
        // by other corrections, whose rivals are not the ones the marks were to weigh (a
        // games-pen photo's wrong answer lost its true rival so, the entries refuting another).
        let same = again.any_solution() == solved.any_solution()
            && again.corrections == solved.corrections;
        let solved = if again.is_unique() && same {
            again
        } else {
            solved
        };
        if solved.doubts.is_empty() {
            return solved;
        }
        let decided = timings.time(Stage::Solve, || {
            correct::decided_by_marks(
                &reading.givens,
                &solved,
                &reading.evidence,
                &reading.rivals,
                candidates,
                budget,
            )
        });
        decided.unwrap_or(solved)
    }

    /// Solves `reading`'s givens as read, correcting misreads its evidence allows, with the
    /// player's entries read clearly weighing rival answers (see [`correct::Candidates`]).
    pub(crate) fn solve_as_read(&self, reading: &Reading, budget: &Budget) -> correct::Decision {
        let entries = clear_entries(reading, &reading.cells.entries_coloured_apart());
        correct::solve_reading_marked(
            &reading.givens,
            &reading.evidence,
            &reading.rivals,
            correct::Candidates::with_entries(&[], &entries),
            self.options.max_corrections,
            budget,
        )
    }
}

/// What weighing one hypothesis came to.
enum Weighed {
    /// It ran out of its share of the budget: whether it would be taken is not known.
    CutShort,
    /// Taken: its reading and decision.
    Taken(Box<(Reading, correct::Decision)>),
    /// Weighed, and not good enough to take.
    NotTaken,
}

/// Whether the player's entries, as read, refute the corrections `decision` made to `reading`
/// (see [`correct::weigh_corrections_by_entries`]): a reading corrected into an answer the
/// entries keep contradicting is no reading to take while a dearer one may do without.
fn refuted_by_entries(reading: &Reading, decision: &correct::Decision) -> bool {
    let apart = reading.cells.entries_coloured_apart();
    let mut weighed = decision.clone();
    correct::weigh_corrections_by_entries(&mut weighed, &reading.entries, &reading.evidence, &apart)
        .is_some()
}

/// The player's entries read clearly (their best digit `tuning::CLEAR` ahead of the next), as
/// each cell's digit; those drawn `apart`, in a colour of their own (an app's marked
/// mistakes), left out.
fn clear_entries(reading: &Reading, apart: &[bool; 81]) -> Vec<(Pos, Digit)> {
    Pos::all()
        .filter(|c| !apart[c.index()])
        .filter_map(|cell| {
            let digit = reading.entries.get(cell)?;
            let r = reading.evidence.get(cell.index())?.as_ref()?;
            (r.digit() == digit && r.confidence() >= tuning::CLEAR).then_some((cell, digit))
        })
        .collect()
}

/// The player's entries of `reading` weighed against a trusted decision: those the evidence
/// allows to be the solution's digit read as it (see [`correct::settle_entries`]), and the
/// corrections doubted when the entries refute them (returned when they do). Entries drawn
/// `apart`, in a colour of their own (an app's red mistakes), are taken as read.
pub(crate) fn weigh_entries(
    reading: &mut Reading,
    solved: &mut correct::Decision,
    apart: &[bool; 81],
) -> Option<correct::RefutingEntries> {
    let solution = solved.trusted()?;
    correct::settle_entries(
        &mut reading.entries,
        &reading.evidence,
        &solved.corrections,
        &solution,
        apart,
    );
    correct::weigh_corrections_by_entries(solved, &reading.entries, &reading.evidence, apart)
}

/// The entries of `reading` that differ from `solution`: those read surely as the digit
/// entered (wrong) and the others (not read surely, see [`correct::unsure_entries`]).
pub(crate) fn checked_entries(
    reading: &Reading,
    solution: &Board,
    apart: &[bool; 81],
) -> (Vec<check::WrongEntry>, Vec<check::UnreadableEntry>) {
    let unsure = correct::unsure_entries(
        &reading.cells,
        &reading.evidence,
        &reading.entries,
        solution,
        apart,
    );
    let (unreadable, wrong): (Vec<_>, Vec<_>) = check::wrong_entries(&reading.entries, solution)
        .into_iter()
        .partition(|w| unsure.contains(&w.cell));
    let unreadable = (unreadable.iter())
        .map(|w| check::UnreadableEntry {
            cell: w.cell,
            read: w.entered,
            should_be: w.should_be,
        })
        .collect();
    (wrong, unreadable)
}
