//! One file through the whole pipeline: decoded, read, solved, drawn and written.

use std::path::Path;

use crate::budget::Budget;
use crate::pipeline::picture::Picture;
use crate::pipeline::{annotate, decode, encode, render, Reading};
use crate::puzzle::board::Board;
use crate::{error, file_name, Error, Mode, Report, Result, Snap, Stage};

impl Snap {
    /// Decodes, reads, solves and (with `output`) draws and writes one screenshot. Never
    /// panics on bad input: every failure ends in the report's status and error.
    pub fn process(&self, input: &Path, output: Option<&Path>) -> Report {
        self.process_as(input, output, &file_name(input))
    }

    /// [`Snap::process`], naming the debug pictures after `label` (a relative path, its
    /// folders joined with `__`) instead of the input's file name: a batch passes each
    /// input's path relative to its folder argument, so `a/x.png` and `b/x.png` get
    /// `a__x.cells.png` and `b__x.cells.png`, not one file written twice.
    pub fn process_as(&self, input: &Path, output: Option<&Path>, label: &Path) -> Report {
        let mut report = Report::new(input);
        let started = std::time::Instant::now();
        let budget = self.budget();
        if let Err(e) = self.process_into(input, output, label, &mut report, &budget) {
            report.fail(e);
        }
        report.steps = budget.spent();
        report.timings.total = started.elapsed().as_secs_f64() * 1000.0;
        report
    }

    fn process_into(
        &self,
        input: &Path,
        output: Option<&Path>,
        label: &Path,
        report: &mut Report,
        budget: &Budget,
    ) -> Result<()> {
        if let Some(out) = output {
            encode::check_not_input(input, out)?;
            encode::format_for(out).ok_or_else(|| Error::Encode {
                path: out.to_path_buf(),
                source: error::EncodeError::UnknownExtension,
            })?;
            // Checked up front to skip the work; the write itself refuses to clobber too.
            if !self.options.overwrite && out.exists() {
                return Err(Error::OutputExists {
                    path: out.to_path_buf(),
                });
            }
        }
        budget.check(input)?;
        let timings = &mut report.timings;
        let limits = self.limits();
        // The reservation lasts until the picture is written.
        let (mut picture, _memory) = timings.time(Stage::Decode, || {
            decode::decode_file_within(input, &limits, &self.memory)
        })?;
        let names = (input, label);
        let drawn = self.solve_picture(&mut picture, names, report, output.is_some(), budget)?;
        budget.check(input)?;
        let Some(out) = output.filter(|_| drawn) else {
            return Ok(());
        };
        let timings = &mut report.timings;
        timings.time(Stage::Encode, || {
            encode::write_atomic_to(
                &picture,
                out,
                self.options.jpeg_quality,
                self.options.overwrite,
            )
        })?;
        report.output = Some(out.to_path_buf());
        Ok(())
    }

    /// The decoding limits of the options.
    pub(crate) fn limits(&self) -> decode::Limits {
        decode::Limits {
            max_pixels: self.options.max_pixels,
            max_bytes: self.options.max_memory,
            working_pixels: self.options.max_working_pixels,
        }
    }

    /// Draws what the mode asks for: the answer, or marks for the wrong entries, the wrong
    /// pencil marks and hints.
    pub(crate) fn draw(
        &self,
        picture: &mut Picture,
        reading: &Reading,
        solution: &Board,
        report: &Report,
    ) {
        let (rect, cells) = (&reading.rectified, &reading.cells);
        let colour = self.options.answer_color;
        match self.options.mode {
            Mode::Answer => {
                render::draw_answer(picture, rect, cells, solution, colour);
            }
            Mode::Check | Mode::Hint(_) => {
                let marks = annotate::Marks {
                    wrong: &report.wrong_entries,
                    pencil: &report.wrong_pencil_marks,
                    hints: &report.hints,
                    colour,
                };
                annotate::draw(picture, rect, cells, &marks);
                let colour = annotate::hint_colour(cells, &marks);
                annotate::hint_strip(picture, rect, cells, &report.hints, colour);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::pipeline::cells::tests::{Sketch, BLACK, DIGIT, GIVENS, WHITE};
    use crate::{Board, Options, Snap, Status};

    /// A picture whose givens clash (the newspaper puzzle with r1c2's 3 changed to r1c1's 5)
    /// is `invalid`, its givens as drawn: no correction invents other readings to make it a
    /// puzzle, since two clear glyphs of one digit in a row are what the picture says.
    #[test]
    fn clashing_givens_are_invalid_as_drawn() {
        let mut clash: Vec<u8> = GIVENS.bytes().collect();
        assert_ne!(clash[0], b'.', "r1c1 holds a given");
        clash[1] = clash[0];
        let givens: Board = String::from_utf8(clash).unwrap().parse().unwrap();
        let mut sketch = Sketch::new((460, 430), (25.0, 12.0), 45.0, WHITE, BLACK);
        sketch.board(&givens, DIGIT, BLACK);
        let dir = std::env::temp_dir().join(format!("sudoku-snap-clash-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let picture = dir.join("clash.png");
        sketch.image.save(&picture).unwrap();
        let report = Snap::new(Options::default())
            .unwrap()
            .process(&picture, None);
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(report.status, Status::Invalid, "{:?}", report.error);
        assert_eq!(report.givens, Some(givens));
        assert!(report.corrections.is_empty(), "{:?}", report.corrections);
        assert_eq!(report.solution, None);
    }
}
