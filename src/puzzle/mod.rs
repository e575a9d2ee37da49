//! The 9x9 puzzle with no image code: the board, text formats, the solver, the grader and the
//! techniques it uses, hints, checking a game in progress, the generator, and printable
//! worksheets. Nothing here knows about screenshots; the pipeline uses it to solve what it read.
//!
//! A new solving technique goes in [`grade`] (with its family); a new text format in [`text`].

pub mod board;
pub mod check;
pub mod generate;
pub mod grade;
pub mod hint;
pub mod printable;
pub mod solve;
pub mod text;
