//! Input discovery: command-line paths and path lists -> the images to process, each with the
//! relative path its output mirrors. Folders are walked (one level, or all with `recursive`),
//! hidden entries are passed over, and a file is taken when its extension or its first bytes
//! say image. What cannot be read (a missing path, a symlink loop, an unreadable folder) becomes
//! an entry carrying its error, so it is reported like any other failed input.

use std::fs::File;
use std::io::{BufRead, Read};
use std::path::{Component, Path, PathBuf};

use image::ImageFormat;

use crate::error::Error;
use crate::pipeline::encode;

/// One input to process.
#[derive(Debug)]
pub struct Entry {
    /// The file as found (the folder argument joined with the walked path).
    pub input: PathBuf,
    /// Where its output goes under the output folder, before suffix and extension changes:
    /// the path below the folder argument, the file name for a file argument, or the listed
    /// path made relative for `--files-from`.
    pub rel: PathBuf,
    /// Why it cannot be processed, when discovery already knows.
    pub problem: Option<Error>,
}

impl Entry {
    fn file(input: PathBuf, rel: PathBuf) -> Entry {
        Entry {
            input,
            rel,
            problem: None,
        }
    }

    fn problem(input: PathBuf, source: std::io::Error) -> Entry {
        let problem = Error::Io {
            path: input.clone(),
            source,
        };
        Entry::with_problem(input, problem)
    }

    fn with_problem(input: PathBuf, problem: Error) -> Entry {
        Entry {
            rel: input.file_name().map(PathBuf::from).unwrap_or_default(),
            problem: Some(problem),
            input,
        }
    }
}

/// How an input path was given, which decides the relative path its output mirrors.
#[derive(Clone, Debug)]
pub enum Origin {
    /// On the command line: a file mirrors as its name, a folder's files as their path in it.
    Argument,
    /// In a `--files-from` list: a file mirrors as the listed path made relative (without
    /// `..`); a folder as for [`Origin::Argument`].
    Listed,
}

/// How folders are walked.
#[derive(Clone, Debug, Default)]
pub struct Walk {
    /// Descend into sub-folders. Default: false (the folder's own files only).
    pub recursive: bool,
    /// Folders never entered (canonical paths), e.g. the output folder when it lies inside
    /// an input folder. Default: none.
    pub exclude: Vec<PathBuf>,
}

/// The entries for `paths`, in order; each folder's files sorted by name.
pub fn discover(paths: &[(PathBuf, Origin)], walk: &Walk) -> Vec<Entry> {
    let mut entries = Vec::new();
    for (path, origin) in paths {
        match std::fs::metadata(path) {
            Ok(m) if m.is_dir() => {
                let before = entries.len();
                walk_dir(path, walk, &mut entries);
                if entries.len() == before {
                    entries.push(Entry::with_problem(
                        path.clone(),
                        Error::NoImages { path: path.clone() },
                    ));
                }
            }
            Ok(_) => entries.push(Entry::file(path.clone(), mirror_of(path, origin))),
            Err(e) => entries.push(Entry::problem(path.clone(), e)),
        }
    }
    entries
}

/// The longest line a path list may hold: Linux's `PATH_MAX`, the longest path the system
/// opens, so a longer line names no file (and `< /dev/zero` cannot fill memory).
pub const MAX_LIST_LINE: usize = 4096;

/// A line of a path list that names no file, by its number (from 1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadLine {
    /// The line's number, from 1.
    pub line: usize,
    /// Why it names no file.
    pub why: &'static str,
}

impl std::fmt::Display for BadLine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.why)
    }
}

/// A path list read: its paths in order, and the lines that name no file.
#[derive(Debug, Default)]
pub struct List {
    /// The paths, byte for byte as listed (on Unix; elsewhere as UTF-8).
    pub paths: Vec<PathBuf>,
    /// The lines skipped: longer than [`MAX_LIST_LINE`], holding a NUL, or (off Unix) not
    /// UTF-8.
    pub bad: Vec<BadLine>,
}

/// Reads a list of paths, one per line (blank lines skipped, a trailing `\r` dropped, no
/// other interpretation, so names with spaces work), as `find` writes it. A line that can
/// name no file is set aside in [`List::bad`] and the list goes on; no line is held longer
/// than [`MAX_LIST_LINE`] bytes.
pub fn read_list(mut reader: impl BufRead) -> std::io::Result<List> {
    let mut list = List::default();
    let mut line = Vec::new();
    let mut number = 0;
    loop {
        line.clear();
        number += 1;
        let (ended, too_long) = read_capped_line(&mut reader, &mut line)?;
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        if too_long {
            list.bad.push(BadLine {
                line: number,
                why: "longer than any path (4096 bytes)",
            });
        } else if line.contains(&0) {
            list.bad.push(BadLine {
                line: number,
                why: "holds a NUL byte, which no path holds",
            });
        } else if !line.is_empty() {
            match path_from_bytes(&line) {
                Some(path) => list.paths.push(path),
                None => list.bad.push(BadLine {
                    line: number,
                    why: "not UTF-8, which paths are here",
                }),
            }
        }
        if ended {
            return Ok(list);
        }
    }
}

/// Reads one line (without its `\n`) into `line`, keeping at most [`MAX_LIST_LINE`] + 1
/// bytes of it; returns whether the input ended and whether the line was longer.
fn read_capped_line(
    reader: &mut impl BufRead,
    line: &mut Vec<u8>,
) -> std::io::Result<(bool, bool)> {
    let mut too_long = false;
    loop {
        let buf = match reader.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            return Ok((true, too_long));
        }
        let (part, used, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], i + 1, true),
            None => (buf, buf.len(), false),
        };
        let room = (MAX_LIST_LINE + 1).saturating_sub(line.len());
        line.extend_from_slice(&part[..part.len().min(room)]);
        too_long |= part.len() > room || line.len() > MAX_LIST_LINE;
        reader.consume(used);
        if done {
            return Ok((false, too_long));
        }
    }
}

#[cfg(unix)]
fn path_from_bytes(bytes: &[u8]) -> Option<PathBuf> {
    use std::os::unix::ffi::OsStrExt;
    Some(PathBuf::from(std::ffi::OsStr::from_bytes(bytes)))
}

#[cfg(not(unix))]
fn path_from_bytes(bytes: &[u8]) -> Option<PathBuf> {
    std::str::from_utf8(bytes).ok().map(PathBuf::from)
}

fn walk_dir(root: &Path, walk: &Walk, entries: &mut Vec<Entry>) {
    let depth = if walk.recursive { usize::MAX } else { 1 };
    let walker = walkdir::WalkDir::new(root)
        .follow_links(true)
        .max_depth(depth)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| e.depth() == 0 || !(is_hidden(e.path()) || is_excluded(e, walk)));
    for item in walker {
        match item {
            Ok(e) if e.file_type().is_file() => {
                let rel = e
                    .path()
                    .strip_prefix(root)
                    .unwrap_or(e.path())
                    .to_path_buf();
                match looks_like_image(e.path()) {
                    Ok(true) => entries.push(Entry::file(e.path().to_path_buf(), rel)),
                    Ok(false) => {}
                    Err(err) => entries.push(Entry::problem(e.path().to_path_buf(), err)),
                }
            }
            Ok(e) if !e.file_type().is_dir() => {
                // A FIFO, socket or device: never opened (a FIFO would block), but reported.
                let kind = std::fs::metadata(e.path()).map_or("not a regular file", |m| {
                    crate::pipeline::decode::file_kind(&m)
                });
                let path = e.path().to_path_buf();
                entries.push(Entry::with_problem(
                    path.clone(),
                    Error::NotAFile { path, kind },
                ));
            }
            Ok(_) => {}
            Err(err) => {
                let path = err.path().unwrap_or(root).to_path_buf();
                entries.push(Entry::problem(path, err.into()));
            }
        }
    }
}

fn is_hidden(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with('.'))
}

fn is_excluded(e: &walkdir::DirEntry, walk: &Walk) -> bool {
    e.file_type().is_dir()
        && !walk.exclude.is_empty()
        && e.path()
            .canonicalize()
            .is_ok_and(|c| walk.exclude.contains(&c))
}

/// Whether a walked file is an image to try: by extension (so a damaged `.png` is reported,
/// not silently passed over) or by its first bytes (so `IMG_0001` without one is found).
fn looks_like_image(path: &Path) -> std::io::Result<bool> {
    if encode::format_for(path).is_some() || has_extension(path, "gif") {
        return Ok(true);
    }
    let mut head = [0u8; 32];
    let mut file = File::open(path)?;
    let mut n = 0;
    while n < head.len() {
        match file.read(&mut head[n..])? {
            0 => break,
            k => n += k,
        }
    }
    Ok(matches!(
        image::guess_format(&head[..n]),
        Ok(ImageFormat::Png
            | ImageFormat::Jpeg
            | ImageFormat::WebP
            | ImageFormat::Bmp
            | ImageFormat::Gif)
    ))
}

fn has_extension(path: &Path, ext: &str) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case(ext))
}

/// The relative path a file given directly mirrors.
fn mirror_of(path: &Path, origin: &Origin) -> PathBuf {
    let name = || path.file_name().map(PathBuf::from).unwrap_or_default();
    match origin {
        Origin::Argument => name(),
        Origin::Listed => {
            let mut rel = PathBuf::new();
            for c in path.components() {
                match c {
                    Component::Normal(part) => rel.push(part),
                    Component::CurDir | Component::RootDir | Component::Prefix(_) => {}
                    // `..` could climb out of the output folder: fall back to the name.
                    Component::ParentDir => return name(),
                }
            }
            rel
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listed_paths_mirror_below_the_output_folder() {
        let m = |p: &str| mirror_of(Path::new(p), &Origin::Listed);
        assert_eq!(m("./shots/a/b.png"), Path::new("shots/a/b.png"));
        assert_eq!(m("/abs/b.png"), Path::new("abs/b.png"));
        assert_eq!(m("../up/b.png"), Path::new("b.png"));
        assert_eq!(
            mirror_of(Path::new("shots/a/b.png"), &Origin::Argument),
            Path::new("b.png")
        );
    }

    #[test]
    fn lists_skip_blank_lines_and_keep_spaces() {
        let list = read_list(&b"a b.png\r\n\n/x/y.jpg\n"[..]).unwrap();
        assert_eq!(
            list.paths,
            [PathBuf::from("a b.png"), PathBuf::from("/x/y.jpg")]
        );
        assert!(list.bad.is_empty());
    }

    #[test]
    fn a_line_no_path_can_be_is_named_and_the_list_goes_on() {
        let mut text = b"a.png\n".to_vec();
        text.extend(std::iter::repeat_n(b'x', MAX_LIST_LINE + 10));
        text.extend(b"\nb\0c.png\nd.png");
        // Read through a small buffer, so the long line arrives in many pieces.
        let list = read_list(std::io::BufReader::with_capacity(7, &text[..])).unwrap();
        assert_eq!(list.paths, [PathBuf::from("a.png"), PathBuf::from("d.png")]);
        let lines: Vec<usize> = list.bad.iter().map(|b| b.line).collect();
        assert_eq!(lines, [2, 3]);
        let exactly = vec![b'y'; MAX_LIST_LINE];
        assert_eq!(read_list(&exactly[..]).unwrap().paths.len(), 1);
    }

    #[cfg(unix)]
    #[test]
    fn a_name_that_is_not_utf8_keeps_its_bytes() {
        use std::os::unix::ffi::OsStrExt;
        let list = read_list(&b"ok.png\n\xffname.png\n"[..]).unwrap();
        assert_eq!(list.paths[1].as_os_str().as_bytes(), b"\xffname.png");
        assert!(list.bad.is_empty());
    }
}
