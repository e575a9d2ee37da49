//! The library's one error type. Every variant names the input it is about, so a message
//! printed by the binary needs no further context.

use std::path::{Path, PathBuf};

use crate::findings::Doubt;
use crate::puzzle::board::Conflict;
use crate::puzzle::generate::GenerateError;

/// What went wrong, with the input it went wrong on.
#[non_exhaustive]
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Reading or writing a file failed.
    #[error("{}: {source}", shown(path))]
    Io {
        /// The file.
        path: PathBuf,
        /// The operating system's reason.
        #[source]
        source: std::io::Error,
    },
    /// Two givens as read clash (the same digit twice in a row, column or box), most likely
    /// a misread: no answer is drawn.
    #[error(
        "{}: the givens as read clash ({conflict}): probably a misread{}",
        shown(path),
        listed(doubts)
    )]
    Conflict {
        /// The file.
        path: PathBuf,
        /// The two clashing cells and their digit.
        #[source]
        conflict: Conflict,
        /// The doubtful cells and what they could be (a misread digit is often one of them).
        doubts: Vec<Doubt>,
    },
    /// A screenshot was read, but the reading cannot be trusted: no answer is drawn.
    #[error("{}: {why}{}", shown(path), listed(doubts))]
    Doubtful {
        /// The file.
        path: PathBuf,
        /// What makes the reading doubtful, as a sentence.
        why: String,
        /// The doubtful cells and what they could be.
        doubts: Vec<Doubt>,
    },
    /// The file is not an image we can decode (or is damaged).
    #[error("{}: not a readable image: {reason}", shown(path))]
    Decode {
        /// The file.
        path: PathBuf,
        /// What is wrong with the file, as a sentence for people (the decoder's own words
        /// name its internals; they stay in `source`).
        reason: String,
        /// What the decoder or the file system reported, when one of them did.
        #[source]
        source: Option<DecodeCause>,
    },
    /// The image declares more pixels than the configured limit; it is refused before decoding.
    #[error("{}: image is {width}x{height} pixels, over the limit of {limit} pixels; raise `max_pixels` to read it", shown(path))]
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
    /// Decoding the image would take more memory than allowed at its peak (the decoder's own
    /// buffers, 16-bit samples and alpha counted), even read at a reduced size; it is
    /// refused before decoding.
    #[error("{}: decoding it needs {} MB, over the limit of {} MB; raise `max_memory` to read it", shown(path), needed.div_ceil(1 << 20), limit >> 20)]
    TooMuchMemory {
        /// The file.
        path: PathBuf,
        /// Bytes decoding it would take at its peak (at the working size).
        needed: u64,
        /// The limit in bytes.
        limit: u64,
    },
    /// The input is not a regular file (a folder, a FIFO, a socket, a device); only files are
    /// read, since opening a FIFO would wait forever for a writer.
    #[error("{}: not a regular file but {kind}; only files are read", shown(path))]
    NotAFile {
        /// The path.
        path: PathBuf,
        /// What it is instead, in words ("a named pipe (FIFO)").
        kind: &'static str,
    },
    /// A folder given as input holds no picture.
    #[error("{}: no pictures in this folder (PNG, JPEG, WebP, BMP or GIF); sub-folders are read with `recursive`", shown(path))]
    NoImages {
        /// The folder.
        path: PathBuf,
    },
    /// No sudoku grid was found in the image.
    #[error("{}: no sudoku grid found ({reason})", shown(path))]
    NoGrid {
        /// The file.
        path: PathBuf,
        /// Why the best candidate was rejected.
        reason: String,
    },
    /// The reading spent its whole work budget (see [`crate::budget::READING_STEPS`]) before
    /// its searches ended: the picture is left in doubt rather than read by a search cut short,
    /// and no answer is drawn. Pictures of a sudoku need a small part of it; one that runs out
    /// holds many glyphs the searches cannot tell apart (a lattice of thin lines, say).
    #[error("{}: the reading ran out of its work budget ({limit} search steps) before it could tell the digits apart; no answer drawn", path.display())]
    OutOfSteps {
        /// The file.
        path: PathBuf,
        /// The budget, in steps.
        limit: u64,
    },
    /// The reading was cancelled by the caller (see [`crate::Options::cancel`]) before its end;
    /// nothing was drawn.
    #[error("{}: interrupted before the reading ended; nothing written", path.display())]
    Interrupted {
        /// The file.
        path: PathBuf,
    },
    /// A glyph template could not be loaded.
    #[error(transparent)]
    Template(#[from] TemplateError),
    /// Encoding the output image failed (before anything was written).
    #[error("{}: could not write the image: {source}", shown(path))]
    Encode {
        /// The output file.
        path: PathBuf,
        /// Why it could not be encoded.
        #[source]
        source: EncodeError,
    },
    /// Writing an output failed in the file system (the folder is read-only, full, or gone).
    /// The batch command stops on the kinds that mean nothing more can be written.
    #[error("{}: could not write the image: {source}", shown(path))]
    Write {
        /// The output file or folder.
        path: PathBuf,
        /// The operating system's reason.
        #[source]
        source: std::io::Error,
    },
    /// The output already exists and overwriting was not asked for; the input is skipped.
    #[error("{}: already exists; set `overwrite` to replace it", shown(path))]
    OutputExists {
        /// The existing output.
        path: PathBuf,
    },
    /// The output path is the input: inputs are never overwritten.
    #[error(
        "{}: refusing to overwrite the input; choose another output path",
        shown(path)
    )]
    OutputIsInput {
        /// The path given for both.
        path: PathBuf,
    },
    /// The output path is a folder; outputs are files.
    #[error("{}: is a folder; give the output a file name", shown(path))]
    OutputIsFolder {
        /// The folder given as output.
        path: PathBuf,
    },
    /// An output name taken by something that is not a regular file: a device, FIFO,
    /// socket, or a symlink to one (or to nothing). Writing would replace that node.
    #[error(
        "{}: is {kind}, not a file; outputs are regular files or new names",
        shown(path)
    )]
    OutputNotAFile {
        /// The output path.
        path: PathBuf,
        /// What it is.
        kind: &'static str,
    },
    /// An output whose folder does not exist.
    #[error("{}: the folder {} does not exist", shown(path), shown(folder))]
    OutputFolderMissing {
        /// The output path.
        path: PathBuf,
        /// Its folder.
        folder: PathBuf,
    },
    /// A batch suffix that is not a plain suffix of a file's stem.
    #[error("the suffix {suffix:?} holds a path separator, `..` or NUL; a suffix only extends the file's name")]
    BadSuffix {
        /// The suffix given.
        suffix: String,
    },
    /// A batch's output folder is inside one of its input folders (or is the folder of an
    /// input file), where outputs would mix with inputs.
    #[error(
        "the output folder {} is inside the input {}; choose another output folder",
        shown(output),
        shown(input)
    )]
    OutputInsideInput {
        /// The output folder.
        output: PathBuf,
        /// The input (folder or file) it is inside.
        input: PathBuf,
    },
    /// Two inputs of a batch map to the same output (say `a.png` and `a.jpg` written as
    /// PNG); the second is refused instead of racing the first.
    #[error(
        "{}: its output {} is already the output of {}; rename one or give the outputs a suffix",
        shown(path),
        shown(output),
        shown(first)
    )]
    SharedOutput {
        /// The input refused.
        path: PathBuf,
        /// The output both map to.
        output: PathBuf,
        /// The input that claimed the output first.
        first: PathBuf,
    },
    /// The batch's worker threads could not be started.
    #[error("cannot start {} worker threads: {source}", jobs.map_or_else(|| "the".to_string(), |n| n.to_string()))]
    Threads {
        /// The threads asked for (`None`: one per core).
        jobs: Option<usize>,
        /// The thread pool's reason.
        #[source]
        source: rayon::ThreadPoolBuildError,
    },
    /// The generator could not make the puzzle asked for.
    #[error(transparent)]
    Generate(#[from] GenerateError),
}

/// What the decoder or the file system reported when a picture could not be decoded: the
/// cause behind [`Error::Decode`], kept for callers that look past its sentence.
#[non_exhaustive]
#[derive(Debug, thiserror::Error)]
pub enum DecodeCause {
    /// Reading the file or stream failed (it may be cut off).
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// The `image` crate's decoder refused the picture.
    #[error(transparent)]
    Image(#[from] image::ImageError),
    /// The `png` crate's row-by-row decoder refused the picture (large PNGs are read with it).
    #[error(transparent)]
    Png(#[from] png::DecodingError),
}

/// Why a picture could not be encoded: the cause behind [`Error::Encode`], and the error of
/// [`encode`](crate::pipeline::encode::encode).
#[non_exhaustive]
#[derive(Debug, thiserror::Error)]
pub enum EncodeError {
    /// The output's extension names no format we write.
    #[error("unknown output extension (use .png, .jpg, .webp or .bmp)")]
    UnknownExtension,
    /// The encoder failed.
    #[error(transparent)]
    Image(#[from] image::ImageError),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::board::{Digit, Pos};

    #[test]
    fn a_clash_names_the_file_and_keeps_the_conflict_as_its_source() {
        let conflict = Conflict {
            first: Pos::new(0, 0).unwrap(),
            second: Pos::new(0, 4).unwrap(),
            digit: Digit::new(3).unwrap(),
        };
        let e = Error::Conflict {
            path: "shot.png".into(),
            conflict,
            doubts: Vec::new(),
        };
        assert_eq!(
            e.to_string(),
            "shot.png: the givens as read clash (r1c1 and r1c5 both hold 3 in the same row): probably a misread"
        );
        let source = std::error::Error::source(&e).expect("the conflict");
        assert_eq!(source.downcast_ref::<Conflict>(), Some(&conflict));
    }

    #[test]
    fn limits_are_named_by_the_options_field_not_a_flag() {
        let e = Error::TooLarge {
            path: "big.png".into(),
            width: 20_000,
            height: 10_000,
            limit: 100_000_000,
        };
        let text = e.to_string();
        assert!(text.ends_with("raise `max_pixels` to read it"), "{text}");
        assert!(!text.contains("--"), "{text}");
    }
}

/// `path` for a message or a line of text: printable characters as they are; control
/// characters, bidirectional overrides and (on Unix) backslashes escaped, and bytes that
/// are not UTF-8 as `\xNN`, the way `ls -b` shows names. A newline in a file name then
/// cannot split a message, nor an escape sequence reach the terminal. JSON and CSV carry
/// names by their own quoting instead.
pub fn shown(path: &Path) -> Shown<'_> {
    Shown(path)
}

/// A path shown escaped; see [`shown`].
#[derive(Clone, Copy, Debug)]
pub struct Shown<'a>(&'a Path);

impl std::fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        #[cfg(unix)]
        let bytes = {
            use std::os::unix::ffi::OsStrExt;
            self.0.as_os_str().as_bytes()
        };
        #[cfg(not(unix))]
        let lossy = self.0.to_string_lossy();
        #[cfg(not(unix))]
        let bytes = lossy.as_bytes();
        for chunk in bytes.utf8_chunks() {
            for c in chunk.valid().chars() {
                write_char_shown(f, c)?;
            }
            for b in chunk.invalid() {
                write!(f, "\\x{b:02x}")?;
            }
        }
        Ok(())
    }
}

fn write_char_shown(f: &mut std::fmt::Formatter<'_>, c: char) -> std::fmt::Result {
    let bidi = matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}');
    match c {
        '\n' => f.write_str("\\n"),
        '\r' => f.write_str("\\r"),
        '\t' => f.write_str("\\t"),
        '\\' if cfg!(unix) => f.write_str("\\\\"),
        c if (c as u32) < 0x100 && c.is_control() => write!(f, "\\x{:02x}", c as u32),
        c if c.is_control() || bidi => write!(f, "\\u{{{:x}}}", c as u32),
        c => write!(f, "{c}"),
    }
}

#[cfg(test)]
mod shown_tests {
    use super::*;

    #[test]
    fn names_are_shown_escaped() {
        let show = |p: &str| shown(Path::new(p)).to_string();
        assert_eq!(show("shots/a b.png"), "shots/a b.png");
        assert_eq!(show("é/ü.png"), "é/ü.png");
        assert_eq!(show("a\nb.png"), "a\\nb.png");
        assert_eq!(show("\u{1b}[31mred.png"), "\\x1b[31mred.png");
        assert_eq!(show("x\u{202e}gnp.exe"), "x\\u{202e}gnp.exe");
        #[cfg(unix)]
        {
            use std::os::unix::ffi::OsStrExt;
            let raw = Path::new(std::ffi::OsStr::from_bytes(b"a\xffb.png"));
            assert_eq!(shown(raw).to_string(), "a\\xffb.png");
        }
    }
}

/// Why glyph templates could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum TemplateError {
    /// A template folder or file could not be read.
    #[error("{}: {source}", path.display())]
    Io {
        /// The folder or file.
        path: PathBuf,
        /// The operating system's reason.
        #[source]
        source: std::io::Error,
    },
    /// A template file is not a picture the decoder reads.
    #[error("template {}: not a readable image: {source}", path.display())]
    Image {
        /// The file.
        path: PathBuf,
        /// The decoder's reason.
        #[source]
        source: image::ImageError,
    },
    /// A template is named for no digit 1-9.
    #[error("template {}: not a digit 1-9", path.display())]
    NotADigit {
        /// The file.
        path: PathBuf,
    },
    /// A template folder holds no templates.
    #[error("template {}: no templates found (expected DIR/<name>/<digit>.png)", path.display())]
    Empty {
        /// The folder.
        path: PathBuf,
    },
}
