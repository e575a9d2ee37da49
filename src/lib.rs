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
//! check of a game in progress, or hints) and [`Error`]. [`stages`] holds the pipeline's
//! stages one at a time, for people who want one stage on its own; [`output`] the rules for
//! the paths the tool writes.
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
//! // `solution` is the answer only when the reading is trusted; else see `untrusted_solution`.
//! println!("{}: {:?}", report.status, report.solution);
//! # Ok::<(), sudoku_snap::Error>(())
//! ```
// Denied, not forbidden: the solver alone allows it, to call its copy compiled for newer cpus
// once it has checked the cpu has them (`puzzle::solve`).
#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod batch;
pub mod budget;
pub mod error;
mod findings;
mod font;
mod memory;
pub mod options;
pub mod output;
pub(crate) mod pipeline;
mod process;
pub mod puzzle;
mod read;
pub mod report;
pub mod stages;
#[cfg(test)]
mod test_data;

use std::path::Path;

use image::RgbImage;

pub use error::{DecodeCause, EncodeError, Error, Result};
/// The `image` crate, whose types are in this crate's signatures.
pub use image;
pub use memory::Solved;
pub use options::{Mode, Options};
pub use pipeline::Reading;
pub use puzzle::board::{Board, Conflict, Digit, Pos};
pub use report::{Report, Stage, Status, Timings};

use pipeline::recognize::Templates;
use pipeline::{decode, pencil};

/// The README's Rust examples, compiled and run as doctests so they stay true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExamples;

/// The Rust examples of the library's guide, docs/library.md, run the same way.
#[cfg(doctest)]
#[doc = include_str!("../docs/library.md")]
struct LibraryGuideExamples;

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
    /// [`Picture::rgb`](stages::Picture::rgb) holds them); `name` labels errors and debug files. A reading whose
    /// searches run out of their work budget is [`Error::OutOfSteps`].
    pub fn read(&self, image: &RgbImage, name: &Path) -> Result<Reading> {
        let budget = self.budget();
        let mut timings = Timings::default();
        self.read_as(image, (name, &file_name(name)), &mut timings, &budget)
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
}

/// The last component of `path` (the path itself when it has none), to name debug pictures.
pub(crate) fn file_name(path: &Path) -> std::path::PathBuf {
    path.file_name()
        .map_or_else(|| path.to_path_buf(), Into::into)
}
