//! What the reading decides: the givens solved (correcting misreads the evidence allows),
//! and when that gives no one solution, the other readings tried in turn (other authors,
//! blurred templates, the grid shifted a cell), weighed by the player's pencil marks.

use std::path::Path;

use image::RgbImage;

use crate::budget::Budget;
use crate::pipeline::cells::Cells;
use crate::pipeline::picture::Picture;
use crate::pipeline::{correct, pencil, Reading};
use crate::puzzle::{check, hint};
use crate::read::swap_recognition;
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
        let mut reading = self.read_as(picture.rgb(), (name, label), timings, budget)?;
        if reading.givens.is_full() {
            // Nothing to solve: most likely the page's printed solution was found instead of
            // its puzzle, and its "answer" is no answer to the puzzle the user meant.
            return Err(Error::NoGrid {
                path: name.to_path_buf(),
                reason: "the only grid found is complete: a digit is printed in every cell".into(),
            });
        }
        let mut solved = self.solve_reading(&mut reading, timings, budget);
        budget.check(name)?;
        if !solved.is_unique() {
            // Entries told from the givens by a weak shade may be thin givens that blur
            // lightened: read the authors that clear shades alone tell, and keep that when it
            // has one solution.
            for mut cells in sure_author_fallbacks(&reading.cells) {
                let mut other =
                    timings.time(Stage::Recognize, || self.recognize(&cells, None, budget));
                std::mem::swap(&mut reading.cells, &mut cells);
                swap_recognition(&mut reading, &mut other);
                let solved_again = self.solve_reading(&mut reading, timings, budget);
                budget.check(name)?;
                if solved_again.is_unique() {
                    solved = solved_again;
                    break;
                }
                std::mem::swap(&mut reading.cells, &mut cells);
                swap_recognition(&mut reading, &mut other);
            }
        }
        if !solved.is_unique() {
            let shifted = self.shifted(picture.rgb(), &reading, timings, budget);
            budget.check(name)?;
            if let Some((shifted, solved_shifted)) = shifted {
                reading = shifted;
                solved = solved_shifted;
            }
        }
        if solved.is_unique() && !solved.doubts.is_empty() {
            solved = self.weigh_by_pencil_marks(picture.rgb(), &reading, solved, timings, budget);
            budget.check(name)?;
        }
        let mut refuting = None;
        if let Some(solution) = solved.trusted() {
            let apart = reading.cells.entries_coloured_apart();
            correct::settle_entries(
                &mut reading.entries,
                &reading.evidence,
                &solved.corrections,
                &solution,
                &apart,
            );
            refuting = correct::weigh_corrections_by_entries(&mut solved, &reading.entries, &apart);
        }
        report.record(&reading, &solved, refuting);
        let drawn = if self.options.draw_doubtful {
            solved.any_solution()
        } else {
            solved.trusted()
        };
        let Some(solution) = drawn else {
            return Ok(false);
        };
        report.wrong_entries = check::wrong_entries(&reading.entries, &solution);
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
            self.draw(picture, &reading, &solution, report)
        });
        report.timings = timings;
        Ok(true)
    }

    /// Solves `reading`'s givens, correcting misreads the evidence allows; when that has no
    /// unique solution, reads the glyphs once more against blurred templates and keeps that
    /// reading (in `reading`) when it has one.
    pub(crate) fn solve_reading(
        &self,
        reading: &mut Reading,
        timings: &mut Timings,
        budget: &Budget,
    ) -> correct::Decision {
        let solved = timings.time(Stage::Solve, || self.solve_as_read(reading, budget));
        if solved.is_unique() {
            return solved;
        }
        // Soft print (a photo's lens and focus) can make sharp templates misread it: read
        // once more against templates blurred as the glyphs are, and keep that reading when it
        // has one solution.
        let blurred = timings.time(Stage::Recognize, || {
            self.recognize_blurred(&reading.cells, budget)
        });
        let Some(mut other) = blurred else {
            return solved;
        };
        swap_recognition(reading, &mut other);
        let solved_again = timings.time(Stage::Solve, || self.solve_as_read(reading, budget));
        if solved_again.is_unique() {
            return solved_again;
        }
        swap_recognition(reading, &mut other);
        solved
    }

    /// `solved` weighed again with the player's pencil marks told by their places (see
    /// [`pencil::placed`]): a rival reading whose answer they refute casts no doubt.
    pub(crate) fn weigh_by_pencil_marks(
        &self,
        image: &RgbImage,
        reading: &Reading,
        solved: correct::Decision,
        timings: &mut Timings,
        budget: &Budget,
    ) -> correct::Decision {
        let marks = timings.time(Stage::Recognize, || {
            pencil::placed(image, &reading.rectified, &reading.cells)
        });
        let candidates = correct::Candidates::new(&marks);
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
        // Marks only take rivals away here: the answer itself must stay the one read.
        let solved = if again.is_unique() && again.any_solution() == solved.any_solution() {
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

    /// Solves `reading`'s givens as read, correcting misreads its evidence allows.
    pub(crate) fn solve_as_read(&self, reading: &Reading, budget: &Budget) -> correct::Decision {
        correct::solve_reading(
            &reading.givens,
            &reading.evidence,
            &reading.rivals,
            self.options.max_corrections,
            budget,
        )
    }
}

/// Readings of `cells` to try, in turn, when the authors that weak shades tell give no unique
/// solution: first the unsure glyph whose colour is nearest the givens' taken back among the
/// givens (a thin given whose curved strokes never reach its colour on any whole pixel falls
/// among a player's entries drawn a shade lighter), then the two nearest, then every glyph
/// with its author told by clear shades alone (see [`cells::Glyph::sure_author`]). Empty
/// when no author is unsure.
fn sure_author_fallbacks(cells: &Cells) -> Vec<Cells> {
    let unsure = cells.unsure_nearest_givens_first();
    let steps = (1..=MAX_TAKEN_BACK.min(unsure.len().saturating_sub(1))).chain([unsure.len()]);
    let steps = steps.filter(|&n| n > 0);
    steps
        .map(|n| {
            let mut cells = cells.clone();
            for &i in &unsure[..n] {
                if let Some(glyph) = &mut cells.glyphs[i] {
                    glyph.author = glyph.sure_author;
                }
            }
            cells
        })
        .collect()
}

/// The most unsure glyphs taken back one by one (see [`sure_author_fallbacks`]) before all
/// are.
const MAX_TAKEN_BACK: usize = 2;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::cells;
    use crate::pipeline::cells::Author;

    /// Cells holding `glyphs` (cell index, colour, author, sure author) and nothing else.
    fn cells_of(glyphs: &[(usize, [u8; 3], Author, Author)]) -> Cells {
        let mut all = vec![None; 81];
        for &(i, colour, author, sure_author) in glyphs {
            let mut glyph = cells::Glyph::sketch(4, 8, colour);
            glyph.author = author;
            glyph.sure_author = sure_author;
            all[i] = Some(glyph);
        }
        Cells {
            glyphs: all,
            marked: vec![None; 81],
            lines_x: std::array::from_fn(|i| i as f32 * 10.0),
            lines_y: std::array::from_fn(|i| i as f32 * 10.0),
            dark: false,
            background: [255; 3],
        }
    }

    #[test]
    fn unsure_entries_nearest_the_givens_colour_go_back_first() {
        use Author::{Entry, Given};
        let cells = cells_of(&[
            (0, [10; 3], Given, Given),
            (1, [30; 3], Given, Given),
            (2, [110; 3], Entry, Given),
            (3, [70; 3], Entry, Given),
            (4, [90; 3], Entry, Given),
            (5, [200, 40, 40], Entry, Entry),
        ]);
        let entries_of = |c: &Cells| -> Vec<usize> {
            (0..81)
                .filter(|&i| c.glyphs[i].as_ref().is_some_and(|g| g.author == Entry))
                .collect()
        };
        let tried: Vec<Vec<usize>> = sure_author_fallbacks(&cells)
            .iter()
            .map(entries_of)
            .collect();
        // The lightest given-like shade (70) first, then the next (90), then every unsure
        // glyph; the red entry was never unsure.
        assert_eq!(tried, [vec![2, 4, 5], vec![2, 5], vec![5]]);
        let sure = cells_of(&[(0, [10; 3], Given, Given), (5, [200, 40, 40], Entry, Entry)]);
        assert!(sure_author_fallbacks(&sure).is_empty());
    }
}
