//! The library's one error type. Every variant names the input it is about, so a message
//! printed by the binary needs no further context.

use std::path::PathBuf;

use crate::pipeline::correct::Doubt;
use crate::pipeline::recognize::TemplateError;
use crate::puzzle::board::Conflict;
use crate::puzzle::generate::GenerateError;

/// What went wrong, with the input it went wrong on.
#[non_exhaustive]
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Reading or writing a file failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The operating system's reason.
        #[source]
        source: std::io::Error,
    },
    /// The givens break the rules before any solving starts.
    #[error("invalid puzzle: {0}")]
    Conflict(#[from] Conflict),
    /// A screenshot was read, but the reading cannot be trusted: no answer is drawn.
    #[error("{}: {why}{}", path.display(), listed(doubts))]
    Doubtful {
        /// The file.
        path: PathBuf,
        /// What makes the reading doubtful, as a sentence.
        why: String,
        /// The doubtful cells and what they could be.
        doubts: Vec<Doubt>,
    },
    /// The file is not an image we can decode (or is damaged).
    #[error("{}: not a readable image: {reason}", path.display())]
    Decode {
        /// The file.
        path: PathBuf,
        /// The decoder's reason.
        reason: String,
    },
    /// The image declares more pixels than the configured limit; it is refused before decoding.
    #[error("{}: image is {width}x{height} pixels, over the limit of {limit} pixels (raise it with --max-pixels)", path.display())]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// Declared width.
        width: u32,
        /// Declared height.
        height: u32,
        /// The limit in pixels.
        limit: u64,
    },
    /// Decoding the image would take more memory than allowed (16-bit samples and alpha
    /// counted); it is refused before decoding.
    #[error("{}: decoding it needs {} MB, over the limit of {} MB (raise it with --max-memory)", path.display(), needed.div_ceil(1 << 20), limit >> 20)]
    TooMuchMemory {
        /// The file.
        path: PathBuf,
        /// Bytes the decoded picture would take.
        needed: u64,
        /// The limit in bytes.
        limit: u64,
    },
    /// The input is not a regular file (a folder, a FIFO, a socket, a device); only files are
    /// read, since opening a FIFO would wait forever for a writer.
    #[error("{}: not a regular file but {kind}; only files are read", path.display())]
    NotAFile {
        /// The path.
        path: PathBuf,
        /// What it is instead, in words ("a named pipe (FIFO)").
        kind: &'static str,
    },
    /// A folder given as input holds no picture.
    #[error("{}: no pictures in this folder (PNG, JPEG, WebP, BMP or GIF; sub-folders need -r)", path.display())]
    NoImages {
        /// The folder.
        path: PathBuf,
    },
    /// No sudoku grid was found in the image.
    #[error("{}: no sudoku grid found ({reason})", path.display())]
    NoGrid {
        /// The file.
        path: PathBuf,
        /// Why the best candidate was rejected.
        reason: String,
    },
    /// A glyph template could not be loaded.
    #[error(transparent)]
    Template(#[from] TemplateError),
    /// Writing the output image failed.
    #[error("{}: could not write the image: {reason}", path.display())]
    Encode {
        /// The output file.
        path: PathBuf,
        /// The encoder's or file system's reason.
        reason: String,
    },
    /// Writing an output failed in the file system (the folder is read-only, full, or gone).
    /// The batch command stops on the kinds that mean nothing more can be written.
    #[error("{}: could not write the image: {source}", path.display())]
    Write {
        /// The output file or folder.
        path: PathBuf,
        /// The operating system's reason.
        #[source]
        source: std::io::Error,
    },
    /// The output already exists and overwriting was not asked for; the input is skipped.
    #[error("{}: already exists (pass --overwrite to replace it)", path.display())]
    OutputExists {
        /// The existing output.
        path: PathBuf,
    },
    /// The output path is the input: inputs are never overwritten.
    #[error("{}: refusing to overwrite the input; choose another output path", path.display())]
    OutputIsInput {
        /// The path given for both.
        path: PathBuf,
    },
    /// The output path is a folder; outputs are files.
    #[error("{}: is a folder; give the output a file name", path.display())]
    OutputIsFolder {
        /// The folder given as output.
        path: PathBuf,
    },
    /// An option value is out of range.
    #[error("invalid option: {0}")]
    Options(String),
    /// The generator could not make the puzzle asked for.
    #[error(transparent)]
    Generate(#[from] GenerateError),
}

/// The library's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// `; r4c5: read 1, could be 7; …` for the first few doubts.
fn listed(doubts: &[Doubt]) -> String {
    const SHOWN: usize = 6;
    let mut out: String = doubts
        .iter()
        .take(SHOWN)
        .map(|d| format!("; {d}"))
        .collect();
    if doubts.len() > SHOWN {
        out.push_str(&format!("; and {} more", doubts.len() - SHOWN));
    }
    out
}
