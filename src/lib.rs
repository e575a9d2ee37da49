//! # sudoku-snap
//!
//! Turns a screenshot of a sudoku into the solved picture, and solves, grades and generates
//! text puzzles. The image pipeline runs one way:
//! decode -> locate -> rectify -> cells -> recognize -> solve (with correction) -> render ->
//! encode; each stage is a module that takes the previous stage's value and returns its own,
//! and [`Snap`] chains them.
//!
//! ```
//! use sudoku_snap::{puzzle::solve, Board};
//! let puzzle: Board = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
//!     .parse()
//!     .unwrap();
//! let solution = solve::solve(&puzzle).unwrap().unwrap();
//! assert!(solution.solves(&puzzle));
//! ```
//!
//! The few types most users need: [`Snap`] (the pipeline, made once from [`Options`]),
//! [`Solved`] and [`Report`] (what came out, with its [`Status`]), [`Mode`] (the answer, a
//! check of a game in progress, or hints) and [`Error`]. The stage modules below stay public
//! for people who want one stage on its own.
//!
//! A screenshot in memory, in one call:
//!
//! ```
//! use sudoku_snap::{image, Options, Snap, Status};
//! let snap = Snap::new(Options::default())?;
//! let shot = image::open("samples/classic-dejavu-light.png").expect("a sample");
//! let solved = snap.solve_image(&shot)?;
//! assert_eq!(solved.report.status, Status::Solved);
//! assert!(solved.picture.is_some()); // the answer drawn in
//! # Ok::<(), sudoku_snap::Error>(())
//! ```
//!
//! A file to a file:
//!
//! ```no_run
//! use sudoku_snap::{Options, Snap};
//! let snap = Snap::new(Options::default())?;
//! let report = snap.process("shot.png".as_ref(), Some("solved.png".as_ref()));
//! println!("{:?}: {:?}", report.status, report.solution);
//! # Ok::<(), sudoku_snap::Error>(())
//! ```
// Denied, not forbidden: the solver alone allows it, to call its copy compiled for newer cpus
// once it has checked the cpu has them (`puzzle::solve`).
#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod batch;
pub mod budget;
pub mod error;
mod font;
mod memory;
pub mod options;
pub mod pipeline;
pub mod puzzle;
pub mod report;
#[cfg(test)]
mod test_data;

use std::path::Path;

use image::{GrayImage, RgbImage};

use budget::Budget;

pub use error::{DecodeCause, EncodeError, Error, Result};
/// The `image` crate, whose types are in this crate's signatures.
pub use image;
pub use memory::Solved;
pub use options::{Mode, Options};
pub use pipeline::Reading;
pub use puzzle::board::{Board, Conflict, Digit, Pos};
pub use report::{Report, Stage, Status, Timings};

use pipeline::cells::{self, Author, Cells};
use pipeline::picture::Picture;
use pipeline::quad::{Quad, Turn};
use pipeline::recognize::{GridGlyph, Matched, Recognized, Rival, Templates};
use pipeline::rectify::Rectified;
use pipeline::{annotate, correct, debug, decode, encode, locate, pencil, rectify, render};
use puzzle::{check, hint};

/// Glyphs whose median offset across from their cells' centres is beyond this fraction of a
/// cell sit on a grid located off (a column off, stretched: 0.07-0.13 on tune renderings),
/// where a grid located right holds them within 0.06 (tune seed 1 and the photos: at most
/// 0.054, mostly under 0.03).
const MISREGISTERED: f32 = 0.06;
/// ... and a grid located again is kept when it holds them at least this much nearer.
const REGISTERED_GAIN: f32 = 0.5;
/// A puzzle with one solution has at least 17 givens: cells holding fewer glyphs than that
/// may belong to a grid placed off its digits, each digit cut by a cell's edge and dropped.
const MIN_GLYPHS: usize = 17;

/// The image pipeline, ready to process screenshots; templates are loaded once and shared.
pub struct Snap {
    options: Options,
    templates: Templates,
    memory: decode::MemoryBudget,
}

impl Snap {
    /// Loads the templates (bundled, plus `options.templates_dir`).
    pub fn new(options: Options) -> Result<Snap> {
        let templates = Templates::load(options.templates_dir.as_deref())?;
        let memory = decode::MemoryBudget::new(options.max_memory);
        Ok(Snap {
            options,
            templates,
            memory,
        })
    }

    /// The options in use.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Reads the grid of an already decoded picture (its colours over white, as
    /// [`Picture::rgb`] holds them); `name` labels errors and debug files. A reading whose
    /// searches run out of their work budget is [`Error::OutOfSteps`].
    pub fn read(&self, image: &RgbImage, name: &Path, timings: &mut Timings) -> Result<Reading> {
        let budget = self.budget();
        self.read_as(image, (name, &file_name(name)), timings, &budget)
    }

    /// A fresh work budget for one reading, cancelled by the options' flag.
    fn budget(&self) -> Budget {
        Budget::new(budget::READING_STEPS, self.options.cancel.clone())
    }

    /// [`Snap::read`], naming debug pictures after `label` (see [`Snap::process_as`]), its
    /// searches spending `budget`.
    pub(crate) fn read_as(
        &self,
        image: &RgbImage,
        (name, label): (&Path, &Path),
        timings: &mut Timings,
        budget: &Budget,
    ) -> Result<Reading> {
        // The stages split their loops over the thread pool many times per picture: run from
        // inside the pool (a no-op there, as in a batch), each split is a cheap push on the
        // worker's own queue instead of a hand-over from a thread outside it.
        rayon::scope(|_| self.read_in_pool(image, (name, label), timings, budget))
    }

    /// [`Snap::read_as`], on a thread of the pool.
    fn read_in_pool(
        &self,
        image: &RgbImage,
        (name, label): (&Path, &Path),
        timings: &mut Timings,
        budget: &Budget,
    ) -> Result<Reading> {
        budget.check(name)?;
        let located = timings.time(Stage::Locate, || locate::locate(image));
        let located = match located {
            Ok(l) => l,
            Err(not_found) => {
                self.debug(|dir| debug::write_ink(dir, name, label, &not_found.ink));
                return Err(Error::NoGrid {
                    path: name.to_path_buf(),
                    reason: not_found.reason,
                });
            }
        };
        budget.check(name)?;
        self.debug(|dir| debug::write_located(dir, name, label, &located));
        let rectified = timings
            .time(Stage::Rectify, || rectify::rectify(image, &located.quad))
            .ok_or_else(|| Error::NoGrid {
                path: name.to_path_buf(),
                reason: "the grid's corners are degenerate".into(),
            })?;
        let cells = timings.time(Stage::Cells, || cells::slice(&rectified, image));
        let (rectified, cells, matched) =
            self.upright(image, &located.quad, rectified, cells, timings);
        let (rectified, cells, matched) =
            self.registered(image, rectified, cells, matched, timings);
        budget.check(name)?;
        let reading = self.reading_of(rectified, cells, matched, timings, budget);
        budget.check(name)?;
        self.debug(|dir| {
            debug::write_cells(
                dir,
                name,
                label,
                &reading.rectified,
                &reading.cells,
                &reading.evidence,
            )
        });
        Ok(reading)
    }

    /// The reading of the grid straightened as `rectified` and sliced as `cells`; `matched`
    /// is their glyphs matched against the templates, when already done.
    fn reading_of(
        &self,
        rectified: Rectified,
        cells: Cells,
        matched: Option<Matched>,
        timings: &mut Timings,
        budget: &Budget,
    ) -> Reading {
        let (evidence, rivals, givens, entries) =
            timings.time(Stage::Recognize, || self.recognize(&cells, matched, budget));
        Reading {
            givens,
            entries,
            evidence,
            rivals,
            rectified,
            cells,
        }
    }

    /// The grid located again by its digits' lattice when its glyphs sit off their cells'
    /// centres across (lines or fills placed it a column off, and the cells stretched to
    /// match): of the placements the lattice offers, the one that holds the digits nearest
    /// their centres, when by `REGISTERED_GAIN` nearer than now; else as it was. When the
    /// cells hold too few glyphs for a puzzle (`MIN_GLYPHS`), a placement that holds enough,
    /// centred, is kept too: on a card with shading-only boxes and blurred edges, the outline
    /// was placed a third of a cell wide, every digit was cut by a cell's edge, and none read.
    /// `matched` (the glyphs of `cells` matched, when done) comes back with the cells kept.
    fn registered(
        &self,
        image: &RgbImage,
        rectified: Rectified,
        cells: Cells,
        matched: Option<Matched>,
        timings: &mut Timings,
    ) -> (Rectified, Cells, Option<Matched>) {
        let enough = |cells: &Cells| cells.glyphs.iter().flatten().count() >= MIN_GLYPHS;
        // The offset a placement must beat to replace the grid as it is.
        let bound = match cells.offset_across() {
            Some(off) if enough(&cells) && off <= MISREGISTERED => {
                return (rectified, cells, matched)
            }
            Some(off) if enough(&cells) => off * REGISTERED_GAIN,
            _ => MISREGISTERED,
        };
        let placements = timings.time(Stage::Locate, || locate::locate_by_digits(image));
        // The grid as it is, with its matching, until a placement does better.
        let mut best = (rectified, cells, bound, matched);
        for again in placements {
            let Some(moved) = timings.time(Stage::Rectify, || rectify::rectify(image, &again.quad))
            else {
                continue;
            };
            let moved_cells = timings.time(Stage::Cells, || cells::slice(&moved, image));
            match moved_cells.offset_across() {
                Some(o) if o < best.2 && enough(&moved_cells) => {
                    best = (moved, moved_cells, o, None)
                }
                _ => {}
            }
        }
        (best.0, best.1, best.3)
    }

    /// The grid turned upright: sliced again from the quadrilateral with its corners renamed
    /// when its glyphs stand the right way up only turned (a photo taken with the phone on its
    /// side), else as it was, with its glyphs matched against the templates (the reading
    /// needs that too).
    fn upright(
        &self,
        image: &RgbImage,
        quad: &Quad,
        rectified: Rectified,
        cells: Cells,
        timings: &mut Timings,
    ) -> (Rectified, Cells, Option<Matched>) {
        let inks: Vec<&GrayImage> = cells.glyphs.iter().flatten().map(|g| &g.ink).collect();
        let (turn, matched) = timings.time(Stage::Recognize, || {
            let matched = self.templates.match_glyphs(&inks);
            (self.templates.upright_turn(&inks, &matched), matched)
        });
        if turn == Turn::None {
            return (rectified, cells, Some(matched));
        }
        let turned = timings.time(Stage::Rectify, || {
            rectify::rectify(image, &quad.turned(turn))
        });
        match turned {
            Some(turned) => {
                let cells = timings.time(Stage::Cells, || cells::slice(&turned, image));
                (turned, cells, None)
            }
            None => (rectified, cells, Some(matched)),
        }
    }

    /// The pencil marks of `reading`'s empty cells, read from `image`, the picture `reading`
    /// was read from (marks are sampled from it at up to their own resolution). Only marks
    /// read surely are in [`PencilMarks::read`](pipeline::pencil::PencilMarks::read); cells whose
    /// marks are not are listed as unreadable.
    pub fn pencil_marks(&self, image: &RgbImage, reading: &Reading) -> pencil::PencilMarks {
        pencil::read(
            image,
            &reading.rectified,
            &reading.cells,
            &reading.givens,
            &self.templates,
        )
    }

    /// Each cell's recognized digit (`None` for empty cells), the rivals, and the digits read
    /// as givens and entries: all glyphs of the grid matched against all templates in one
    /// matrix product, then calibrated on each other.
    fn recognize(&self, cells: &Cells, matched: Option<Matched>, budget: &Budget) -> Recognition {
        let found = grid_glyphs(cells);
        let (recognized, rivals) = self.templates.recognize_grid(&found, matched, budget);
        recognition(cells, &found, recognized, rivals)
    }

    /// [`Snap::recognize`] against templates blurred as much as the glyphs are; `None` when no
    /// blur fits them better than none (the reading would be the same).
    fn recognize_blurred(&self, cells: &Cells, budget: &Budget) -> Option<Recognition> {
        let found = grid_glyphs(cells);
        let (recognized, rivals) = self.templates.recognize_grid_blurred(&found, budget)?;
        Some(recognition(cells, &found, recognized, rivals))
    }

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

    /// The grid read and solved with its outline moved a cell across or down, when exactly one
    /// of the four moves gives a reading with one solution and no doubt. A grid whose boxes are
    /// told apart by their fills alone, its corner box filled like the card around it and its
    /// far column empty of givens, was placed a column off: by the fills, and by the digits'
    /// lattice too (digits sit centred in the cells either way), and read with no solution.
    /// A grid placed right and moved a cell reads its givens in the wrong rows or columns, and
    /// those clash or leave no solution.
    fn shifted(
        &self,
        image: &RgbImage,
        reading: &Reading,
        timings: &mut Timings,
        budget: &Budget,
    ) -> Option<(Reading, correct::Solved)> {
        let inside = |quad: &Quad| {
            let (w, h) = (image.width() as f32, image.height() as f32);
            (quad.corners.iter()).all(|&(x, y)| (0.0..w).contains(&x) && (0.0..h).contains(&y))
        };
        let mut found = None;
        for (across, down) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
            let quad = reading.rectified.shifted_quad(across, down);
            if !inside(&quad) {
                continue;
            }
            let Some(rectified) = timings.time(Stage::Rectify, || rectify::rectify(image, &quad))
            else {
                continue;
            };
            let cells = timings.time(Stage::Cells, || cells::slice(&rectified, image));
            let moved = self.reading_of(rectified, cells, None, timings, budget);
            let solved = timings.time(Stage::Solve, || self.solve_as_read(&moved, budget));
            if budget.is_stopped() {
                return None;
            }
            if solved.trusted().is_none() {
                continue;
            }
            if found.is_some() {
                return None;
            }
            found = Some((moved, solved));
        }
        found
    }

    /// Solves `reading`'s givens, correcting misreads the evidence allows; when that has no
    /// unique solution, reads the glyphs once more against blurred templates and keeps that
    /// reading (in `reading`) when it has one.
    fn solve_reading(
        &self,
        reading: &mut Reading,
        timings: &mut Timings,
        budget: &Budget,
    ) -> correct::Solved {
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
    fn weigh_by_pencil_marks(
        &self,
        image: &RgbImage,
        reading: &Reading,
        solved: correct::Solved,
        timings: &mut Timings,
        budget: &Budget,
    ) -> correct::Solved {
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
    fn solve_as_read(&self, reading: &Reading, budget: &Budget) -> correct::Solved {
        correct::solve_reading(
            &reading.givens,
            &reading.evidence,
            &reading.rivals,
            self.options.max_corrections,
            budget,
        )
    }

    /// Draws what the mode asks for: the answer, or marks for the wrong entries, the wrong
    /// pencil marks and hints.
    fn draw(&self, picture: &mut Picture, reading: &Reading, solution: &Board, report: &Report) {
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
            }
        }
    }

    /// Runs `write` on the debug folder when one is configured; debug output is best effort
    /// and never fails the run.
    fn debug(&self, write: impl FnOnce(&debug::Folder<'_>) -> std::io::Result<()>) {
        if let Some(dir) = &self.options.debug_dir {
            let folder = debug::Folder {
                path: dir,
                overwrite: self.options.debug_overwrite,
            };
            let _ = std::fs::create_dir_all(dir).and_then(|_| write(&folder));
        }
    }
}

/// What recognition makes of a grid's cells: the evidence, the rivals, the givens and the
/// entries (see [`Reading`]).
type Recognition = (Vec<Option<Recognized>>, Vec<Rival>, Board, Board);

/// The glyphs of `cells`, for recognition.
fn grid_glyphs(cells: &Cells) -> Vec<GridGlyph<'_>> {
    Pos::all()
        .filter_map(|cell| {
            let glyph = cells.glyphs[cell.index()].as_ref()?;
            Some(GridGlyph {
                ink: &glyph.ink,
                cell,
                given: glyph.author == Author::Given,
            })
        })
        .collect()
}

/// The recognition of `cells` from what `found` (their glyphs) were recognized as: a glyph
/// joined to other ink is marked misshapen, and the digits are split by author.
fn recognition(
    cells: &Cells,
    found: &[GridGlyph<'_>],
    recognized: Vec<Recognized>,
    rivals: Vec<Rival>,
) -> Recognition {
    let mut evidence = vec![None; cells.glyphs.len()];
    for (g, r) in found.iter().zip(recognized) {
        let misshapen = cells.glyphs[g.cell.index()]
            .as_ref()
            .is_some_and(|glyph| glyph.outsized);
        evidence[g.cell.index()] = Some(Recognized { misshapen, ..r });
    }
    let (givens, entries) = split_by_author(cells, &evidence);
    (evidence, rivals, givens, entries)
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

/// Exchanges `reading`'s recognition with `other`.
fn swap_recognition(reading: &mut Reading, other: &mut Recognition) {
    std::mem::swap(&mut reading.evidence, &mut other.0);
    std::mem::swap(&mut reading.rivals, &mut other.1);
    std::mem::swap(&mut reading.givens, &mut other.2);
    std::mem::swap(&mut reading.entries, &mut other.3);
}

/// The last component of `path` (the path itself when it has none), to name debug pictures.
fn file_name(path: &Path) -> std::path::PathBuf {
    path.file_name()
        .map_or_else(|| path.to_path_buf(), Into::into)
}

/// Splits the recognized digits into givens and a player's entries by their author.
fn split_by_author(cells: &Cells, evidence: &[Option<Recognized>]) -> (Board, Board) {
    let mut givens = Board::empty();
    let mut entries = Board::empty();
    for pos in Pos::all() {
        let (Some(glyph), Some(r)) = (&cells.glyphs[pos.index()], &evidence[pos.index()]) else {
            continue;
        };
        match glyph.author {
            Author::Given => givens.set(pos, Some(r.digit())),
            Author::Entry => entries.set(pos, Some(r.digit())),
        }
    }
    (givens, entries)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::cells::tests::Sketch;
    use crate::puzzle::solve;

    /// A puzzle with one solution whose last column holds no given.
    const LAST_COLUMN_EMPTY: &str =
        "98.7..6..7.69..5...4..8....6..5..9....3.9..7......2...1....7.....7.591.....1...6.";

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

    #[test]
    fn a_grid_placed_a_column_off_is_read_moved_back() {
        let puzzle: Board = LAST_COLUMN_EMPTY.parse().unwrap();
        let solution = solve::solve(&puzzle).unwrap().unwrap();
        let cell = 40.0;
        let mut sketch = Sketch::new((560, 440), (100.0, 40.0), cell, [250; 3], [60; 3]);
        sketch.board(&puzzle, 0.6, [20; 3]);
        let snap = Snap::new(Options::default()).unwrap();
        // The outline placed a column left: the page's margin read as the first column, the
        // last one, empty, left out; every given lands a column right.
        let off = sketch.rectified().shifted_quad(-1, 0);
        let rectified = rectify::rectify(&sketch.image, &off).unwrap();
        let cells = cells::slice(&rectified, &sketch.image);
        let mut timings = Timings::default();
        let budget = Budget::unlimited();
        let misplaced = snap.reading_of(rectified, cells, None, &mut timings, &budget);
        assert_ne!(misplaced.givens, puzzle);
        let (moved, solved) = snap
            .shifted(&sketch.image, &misplaced, &mut timings, &budget)
            .expect("moved a column right, the grid reads");
        assert_eq!(moved.givens, puzzle);
        assert_eq!(solved.trusted(), Some(solution));
    }
}
