//! # sudoku-snap
//!
//! Turns a screenshot of a sudoku into the solved picture, and solves, grades and generates
//! text puzzles. The image pipeline runs one way:
//! decode -> locate -> rectify -> cells -> recognize -> solve -> render -> encode;
//! each stage is a module that takes the previous stage's value and returns its own.
//!
//! ```
//! use sudoku_snap::{board::Board, solve};
//! let puzzle: Board = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
//!     .parse()
//!     .unwrap();
//! let solution = solve::solve(&puzzle).unwrap().unwrap();
//! assert!(solution.solves(&puzzle));
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod board;
pub mod error;
pub mod solve;
pub mod text;

pub use board::{Board, Conflict, Digit, Pos};
pub use error::{Error, Result};
