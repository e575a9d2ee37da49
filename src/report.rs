//! The outcome of processing one screenshot: status, what was read, the solution, the
//! corrections, the output written, the error, and per-stage timings. Serialises to the JSON
//! object the command prints, one per image.

use std::path::{Path, PathBuf};
use std::time::Instant;

use serde::{Serialize, Serializer};

use crate::error::Error;
pub use crate::findings::{Correction, Doubt};
use crate::pipeline::correct::{Decision, RefutingEntries};
use crate::pipeline::pencil::PencilMarks;
use crate::pipeline::Reading;
use crate::puzzle::board::{Board, Pos};
use crate::puzzle::check::{self, UnreadableEntry, WrongEntry, WrongPencilMarks};
use crate::puzzle::hint::Hint;
use crate::puzzle::solve::Verdict;

/// How processing one image ended, from best to worst.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Status {
    /// Read and solved; the solution is unique.
    Solved,
    /// Output already existed and was left alone (batch mode).
    Skipped,
    /// Read and solved, but a cell reads as well as another digit that gives another answer;
    /// the answer is not drawn.
    Doubtful,
    /// Read, but the givens allow more than one solution; one is given.
    MultipleSolutions,
    /// Read, but the givens have no solution.
    Unsolvable,
    /// Read, but two givens clash.
    Invalid,
    /// No sudoku grid in the picture.
    NoGrid,
    /// The file could not be read, decoded or written.
    Error,
}

impl Status {
    /// The status as the JSON, CSV and line outputs name it: `solved`, `multiple_solutions`,
    /// `no_grid`, ...
    pub fn name(self) -> &'static str {
        match self {
            Status::Solved => "solved",
            Status::Skipped => "skipped",
            Status::Doubtful => "doubtful",
            Status::MultipleSolutions => "multiple_solutions",
            Status::Unsolvable => "unsolvable",
            Status::Invalid => "invalid",
            Status::NoGrid => "no_grid",
            Status::Error => "error",
        }
    }

    /// Whether this outcome counts as done for the exit code.
    pub fn is_success(self) -> bool {
        matches!(self, Status::Solved | Status::Skipped)
    }
}

/// Shows [`Status::name`].
impl std::fmt::Display for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A pipeline stage, for timings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Stage {
    /// Reading and decoding the file.
    Decode,
    /// Finding the grid.
    Locate,
    /// Warping the grid's quadrilateral into a square picture.
    Rectify,
    /// Slicing the square into cells: lines removed, glyphs isolated, authors told apart.
    Cells,
    /// Recognizing the glyphs' digits.
    Recognize,
    /// Solving, with corrections.
    Solve,
    /// Drawing the answer.
    Render,
    /// Encoding and writing the output.
    Encode,
}

/// Milliseconds spent in each stage.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Timings {
    /// Reading and decoding.
    pub decode: f64,
    /// Finding the grid.
    pub locate: f64,
    /// Warping the grid into a square.
    pub rectify: f64,
    /// Slicing the square into cells.
    pub cells: f64,
    /// Recognizing the digits.
    pub recognize: f64,
    /// Solving.
    pub solve: f64,
    /// Drawing the answer.
    pub render: f64,
    /// Encoding and writing.
    pub encode: f64,
    /// The whole run for this image.
    pub total: f64,
}

impl Timings {
    /// Runs `f`, adding its duration to `stage`.
    pub fn time<T>(&mut self, stage: Stage, f: impl FnOnce() -> T) -> T {
        let start = Instant::now();
        let out = f();
        let ms = start.elapsed().as_secs_f64() * 1000.0;
        *self.slot(stage) += ms;
        out
    }

    fn slot(&mut self, stage: Stage) -> &mut f64 {
        match stage {
            Stage::Decode => &mut self.decode,
            Stage::Locate => &mut self.locate,
            Stage::Rectify => &mut self.rectify,
            Stage::Cells => &mut self.cells,
            Stage::Recognize => &mut self.recognize,
            Stage::Solve => &mut self.solve,
            Stage::Render => &mut self.render,
            Stage::Encode => &mut self.encode,
        }
    }
}

/// Everything known about one processed image.
#[derive(Debug, Serialize)]
pub struct Report {
    /// The input path (in JSON, a name that is not UTF-8 is shown with U+FFFD in place of
    /// its bad bytes).
    #[serde(serialize_with = "path_lossy")]
    pub input: PathBuf,
    /// How it ended.
    pub status: Status,
    /// The printed givens as read (after corrections), `.` for empty.
    #[serde(serialize_with = "board_or_null")]
    pub givens: Option<Board>,
    /// The answer: the solution, only when the reading is trusted (status `solved`).
    #[serde(serialize_with = "board_or_null")]
    pub solution: Option<Board>,
    /// A solution the reading does not trust, never the answer: one of several
    /// (`multiple_solutions`), or one a doubtful cell could change (`doubtful`). A program that
    /// shows it must say it is a guess.
    #[serde(serialize_with = "board_or_null")]
    pub untrusted_solution: Option<Board>,
    /// A player's digits in another colour, `.` elsewhere.
    #[serde(serialize_with = "board_or_null")]
    pub entries: Option<Board>,
    /// Digits read one way and solved another.
    pub corrections: Vec<Correction>,
    /// Cells whose reading is in doubt, with what they could be; empty when the answer can be
    /// trusted.
    pub doubtful: Vec<Doubt>,
    /// A player's entries that differ from the solution (only when the solution is trusted,
    /// or drawn anyway with `draw_doubtful`).
    pub wrong_entries: Vec<WrongEntry>,
    /// A player's entries that differ from the solution but were not read surely as the
    /// digit read, so are neither called wrong nor right (same conditions as
    /// `wrong_entries`).
    pub unreadable_entries: Vec<UnreadableEntry>,
    /// Cells whose pencil marks leave out the solution's digit, in
    /// [`Mode::Check`](crate::options::Mode::Check) with a trusted solution; else empty. Only
    /// marks read surely are checked.
    pub wrong_pencil_marks: Vec<WrongPencilMarks>,
    /// How many cells' pencil marks were read surely and checked (in check mode).
    pub pencil_marks_checked: usize,
    /// Cells holding pencil marks that could not be read surely, so were not checked (in check
    /// mode), as `r3c5` in JSON.
    #[serde(serialize_with = "cells")]
    pub pencil_marks_unreadable: Vec<Pos>,
    /// The next logical steps, in [`Mode::Hint`](crate::options::Mode::Hint); else empty.
    pub hints: Vec<Hint>,
    /// The picture's other grids (a page of several puzzles), each read and decided like the
    /// first; in JSON only when there are any.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub other_grids: Vec<OtherGrid>,
    /// The picture written, if any; for `skipped`, the one already there.
    #[serde(serialize_with = "path_or_null")]
    pub output: Option<PathBuf>,
    /// What went wrong, as a sentence naming the file.
    #[serde(serialize_with = "error_or_null")]
    pub error: Option<Error>,
    /// Milliseconds per stage (`timings_ms` in JSON).
    #[serde(rename = "timings_ms")]
    pub timings: Timings,
    /// The work steps the reading spent of its budget (see [`crate::budget`]); not in JSON.
    #[serde(skip)]
    pub steps: u64,
}

/// Another grid of the same picture than the one a [`Report`] is about, read and decided the
/// same way; its answer is drawn too when trusted (in the answer mode).
#[derive(Clone, Debug, Serialize)]
pub struct OtherGrid {
    /// Its corners in the picture, (x, y) clockwise from the top left.
    pub corners: [(f32, f32); 4],
    /// How its reading ended: `solved`, `doubtful`, `multiple_solutions`, ...
    pub status: Status,
    /// Its givens as read (after corrections).
    #[serde(serialize_with = "board_or_null")]
    pub givens: Option<Board>,
    /// Its answer, only when the reading is trusted (status `solved`).
    #[serde(serialize_with = "board_or_null")]
    pub solution: Option<Board>,
    /// Digits read one way and solved another.
    pub corrections: Vec<Correction>,
    /// Cells whose reading is in doubt, with what they could be.
    pub doubtful: Vec<Doubt>,
    /// The player's entries, as read (settled where the evidence allows the answer's digit).
    #[serde(serialize_with = "board_or_null")]
    pub entries: Option<Board>,
    /// Entries read surely and differing from its trusted answer: the player's mistakes.
    pub wrong_entries: Vec<WrongEntry>,
    /// Entries differing from its trusted answer but not read surely (see [`Report`]'s).
    pub unreadable_entries: Vec<UnreadableEntry>,
}

impl OtherGrid {
    /// The grid at `corners` as `reading` and `solved` leave it, recorded as a picture's
    /// report records its first grid (see [`Report::record`]).
    /// Its entries are checked by the caller (see `read::decide`).
    pub(crate) fn new(
        corners: [(f32, f32); 4],
        reading: &Reading,
        solved: &Decision,
        refuting: Option<RefutingEntries>,
    ) -> OtherGrid {
        let mut report = Report::new(Path::new(""));
        report.record(reading, solved, refuting);
        OtherGrid {
            corners,
            status: report.status,
            givens: report.givens,
            solution: report.solution,
            corrections: report.corrections,
            doubtful: report.doubtful,
            entries: report.entries,
            wrong_entries: Vec::new(),
            unreadable_entries: Vec::new(),
        }
    }
}

fn board_or_null<S: Serializer>(b: &Option<Board>, s: S) -> Result<S::Ok, S::Error> {
    match b {
        Some(b) => s.serialize_str(&b.to_string()),
        None => s.serialize_none(),
    }
}

fn cells<S: Serializer>(cells: &[Pos], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(cells.iter().map(Pos::to_string))
}

fn path_lossy<S: Serializer>(p: &Path, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&p.to_string_lossy())
}

fn path_or_null<S: Serializer>(p: &Option<PathBuf>, s: S) -> Result<S::Ok, S::Error> {
    match p {
        Some(p) => path_lossy(p, s),
        None => s.serialize_none(),
    }
}

fn error_or_null<S: Serializer>(e: &Option<Error>, s: S) -> Result<S::Ok, S::Error> {
    match e {
        Some(e) => s.serialize_str(&e.to_string()),
        None => s.serialize_none(),
    }
}

impl Report {
    /// Whether the player's game holds a mistake the check found: a wrong entry (in any of
    /// the picture's grids), or pencil marks that leave out their cell's answer.
    pub fn found_mistakes(&self) -> bool {
        !self.wrong_entries.is_empty()
            || !self.wrong_pencil_marks.is_empty()
            || (self.other_grids.iter()).any(|g| !g.wrong_entries.is_empty())
    }

    /// An empty report for `input`, status `error` until something better is known.
    pub fn new(input: &Path) -> Report {
        Report {
            input: input.to_path_buf(),
            status: Status::Error,
            givens: None,
            solution: None,
            untrusted_solution: None,
            entries: None,
            corrections: Vec::new(),
            doubtful: Vec::new(),
            wrong_entries: Vec::new(),
            unreadable_entries: Vec::new(),
            wrong_pencil_marks: Vec::new(),
            pencil_marks_checked: 0,
            pencil_marks_unreadable: Vec::new(),
            hints: Vec::new(),
            other_grids: Vec::new(),
            output: None,
            error: None,
            timings: Timings::default(),
            steps: 0,
        }
    }

    /// Records what was read and how solving went. A reading that cannot be trusted gets an
    /// error saying why (`refuting`: the player's entries refuted its corrections) and naming
    /// the doubtful cells; clashing givens get [`Error::Conflict`], which names the cells that
    /// clash.
    pub fn record(
        &mut self,
        reading: &Reading,
        solved: &Decision,
        refuting: Option<RefutingEntries>,
    ) {
        self.givens = Some(solved.givens);
        self.entries = Some(reading.entries);
        self.corrections = solved.corrections.clone();
        self.doubtful = solved.doubts.clone();
        self.solution = solved.trusted();
        self.untrusted_solution = solved.any_solution().filter(|_| self.solution.is_none());
        let why = match &solved.verdict {
            Ok(Verdict::Unique(_)) if solved.doubts.is_empty() => {
                self.status = Status::Solved;
                return;
            }
            Ok(Verdict::Unique(_)) => {
                self.status = Status::Doubtful;
                match refuting {
                    Some(refuting) => refuting.to_string(),
                    None => "the reading is doubtful: another reading of these cells gives \
                             another answer"
                        .to_string(),
                }
            }
            Ok(Verdict::Multiple(_)) => {
                self.status = Status::MultipleSolutions;
                "the givens as read have several solutions (a given missed or misread?)".to_string()
            }
            Ok(Verdict::Unsolvable) => {
                self.status = Status::Unsolvable;
                "the givens as read have no solution: probably a misread".to_string()
            }
            Err(conflict) => {
                self.status = Status::Invalid;
                self.error = Some(Error::Conflict {
                    path: self.input.clone(),
                    conflict: *conflict,
                    doubts: solved.doubts.clone(),
                });
                return;
            }
        };
        self.error = Some(Error::Doubtful {
            path: self.input.clone(),
            why,
            doubts: solved.doubts.clone(),
        });
    }

    /// Records the pencil marks read and the cells whose marks leave out their digit in
    /// `solution`.
    pub fn record_pencil_marks(&mut self, marks: &PencilMarks, solution: &Board) {
        let read: Vec<_> = (marks.read.iter())
            .map(|m| (m.cell, m.digits.clone()))
            .collect();
        self.wrong_pencil_marks = check::wrong_pencil_marks(&read, solution);
        self.pencil_marks_checked = read.len();
        self.pencil_marks_unreadable = marks.unreadable.clone();
    }

    /// Records a failure: the status follows the error's kind. An existing output that must
    /// not be overwritten is no failure: the input is `skipped`, `output` names the file there.
    pub fn fail(&mut self, error: Error) {
        if let Error::OutputExists { path } = error {
            self.status = Status::Skipped;
            self.output = Some(path);
            return;
        }
        self.status = match error {
            Error::NoGrid { .. } => Status::NoGrid,
            Error::OutOfSteps { .. } => Status::Doubtful,
            _ => Status::Error,
        };
        self.error = Some(error);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_status_shows_the_name_json_gives_it() {
        use Status::*;
        for status in [
            Solved,
            Skipped,
            Doubtful,
            MultipleSolutions,
            Unsolvable,
            Invalid,
            NoGrid,
            Error,
        ] {
            let json = serde_json::to_value(status).unwrap();
            assert_eq!(json.as_str(), Some(status.name()));
            assert_eq!(status.to_string(), status.name());
        }
    }
}
