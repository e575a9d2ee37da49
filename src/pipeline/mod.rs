//! Screenshot in, picture out: one module per stage, in the order the data flows.
//!
//! [`decode`] -> [`locate`] -> [`rectify`] -> [`cells`] -> [`recognize`] -> [`correct`] ->
//! [`render`] (or [`annotate`] for a game in progress) -> [`encode`]; [`pencil`] reads the
//! pencil marks of a game in progress for checking; [`debug`] draws the intermediate
//! pictures. What two stages share (the picture with its transparency, the grid's
//! quadrilateral and its projection, grey levels and their histograms) lives in modules of its
//! own that both import, so no stage reaches into another. Only the crate root chains the
//! stages.

pub mod annotate;
pub(crate) mod authors;
pub mod cells;
pub mod correct;
pub mod debug;
pub mod decode;
pub mod encode;
pub mod gray;
pub mod locate;
pub(crate) mod mask;
pub mod pencil;
pub mod picture;
pub mod quad;
pub mod recognize;
pub mod rectify;
pub mod render;
pub(crate) mod resample;
pub(crate) mod tuning;

use crate::puzzle::board::Board;
use cells::Cells;
use recognize::{Recognized, Rival};
use rectify::Rectified;

/// What was read from a screenshot, before solving.
#[derive(Clone)]
pub struct Reading {
    /// The printed givens.
    pub givens: Board,
    /// A player's digits (in another colour), not givens.
    pub entries: Board,
    /// Recognition evidence per cell (row-major), for the givens and entries read.
    pub evidence: Vec<Option<Recognized>>,
    /// Other readings of the givens the picture supports nearly as well.
    pub rivals: Vec<Rival>,
    /// The straightened grid and its projection.
    pub rectified: Rectified,
    /// The cells as sliced.
    pub cells: Cells,
}
