//! Options for the image pipeline: one plain struct whose fields each document their default.
//! The binary builds it from its arguments; no stage sees the command line.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// Everything a caller can tune about reading and solving a screenshot.
#[derive(Clone, Debug)]
pub struct Options {
    /// Images declaring more pixels than this are refused before decoding.
    /// Default: 100 million (a 10,000 x 10,000 picture; ~400 MB decoded).
    pub max_pixels: u64,
    /// Memory the pictures being processed may take at once, in bytes, each counted at its
    /// peak (the decoder's own buffers included): one picture that needs more is read at a
    /// smaller scale when that fits, else refused, and pictures processed in parallel wait
    /// for each other so that together they stay within it. Default: 200 MiB.
    pub max_memory: u64,
    /// Pictures with more pixels are scaled down by a whole factor to at most this many
    /// before reading (PNG while decoding), and the answer is drawn on the smaller picture.
    /// Default: 40 million (a 7,700 x 5,200 photo).
    pub max_working_pixels: u64,
    /// Extra glyph templates (`DIR/<font>/<digit>.png`, black on white) used beside the
    /// bundled ones. Default: none.
    pub templates_dir: Option<PathBuf>,
    /// How many of the least confident digits the correction may change one by one when the
    /// givens as read have no single solution; a correction of a whole group of look-alike
    /// givens (or of givens by their loops) may change more. 0 turns all correction off.
    /// Default: 2.
    pub max_corrections: usize,
    /// Where to write the intermediate pictures (edges, lines, corners, cells) for tuning a
    /// hard case. Default: none.
    pub debug_dir: Option<PathBuf>,
    /// Whether a debug picture may replace a file of the same name in `debug_dir`; otherwise
    /// debug pictures are new files only, and one whose name is taken is not written.
    /// Default: false.
    pub debug_overwrite: bool,
    /// Colour of the drawn answer; `None` picks one that stands out from the givens and suits
    /// the background. Default: `None`.
    pub answer_color: Option<[u8; 3]>,
    /// JPEG quality 1-100 when the output is a JPEG. Default: 90.
    pub jpeg_quality: u8,
    /// Whether an existing output picture may be replaced. When false, an input whose output
    /// exists ends as [`Status::Skipped`](crate::Status::Skipped) without being decoded.
    /// Default: true (the single-image `-o` case); the batch command defaults to false.
    pub overwrite: bool,
    /// Whether to draw an answer the reading leaves in doubt (several solutions, or a cell
    /// that reads as well as another digit which gives another answer). When false, such a
    /// picture is not written and the report names the doubtful cells. Default: false.
    pub draw_doubtful: bool,
    /// What the written picture shows: the whole answer, the player's mistakes, or the next
    /// steps. Default: [`Mode::Answer`].
    pub mode: Mode,
    /// A flag that cancels the pictures being read once it is set (a Ctrl-C handler sets it):
    /// a reading looks at it between stages and while its searches run (every 1024 steps, a
    /// few milliseconds), and ends as [`Error::Interrupted`](crate::Error::Interrupted),
    /// nothing drawn or written. Default: none.
    pub cancel: Option<Arc<AtomicBool>>,
}

/// What a solved picture shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Mode {
    /// The answer drawn into every empty cell.
    #[default]
    Answer,
    /// A game in progress checked: each wrong entry of the player ringed in an alarm colour;
    /// no answer drawn.
    Check,
    /// The next `n` logical steps (from the givens and the player's right entries): each
    /// cell's digit drawn and ringed, with the technique written beside the grid; wrong
    /// entries ringed as in [`Mode::Check`].
    Hint(usize),
}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_pixels: 100_000_000,
            max_memory: 200 << 20,
            max_working_pixels: 40_000_000,
            templates_dir: None,
            max_corrections: 2,
            debug_dir: None,
            debug_overwrite: false,
            answer_color: None,
            jpeg_quality: 90,
            overwrite: true,
            draw_doubtful: false,
            mode: Mode::Answer,
            cancel: None,
        }
    }
}
