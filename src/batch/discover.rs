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

/// Reads a list of paths, one per line (blank lines skipped, no other interpretation, so
/// names with spaces work), as `find` writes it.
pub fn read_list(reader: impl BufRead) -> std::io::Result<Vec<PathBuf>> {
    let mut paths = Vec::new();
    for line in reader.lines() {
        let line = line?;
        let line = line.trim_end_matches('\r');
        if !line.is_empty() {
            paths.push(PathBuf::from(line));
        }
    }
    Ok(paths)
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
        assert_eq!(list, [PathBuf::from("a b.png"), PathBuf::from("/x/y.jpg")]);
    }
}
