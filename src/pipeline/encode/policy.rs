//! The output policy: what any path the tool writes (pictures, `--report`, `--debug`
//! pictures, `generate -o`/`--png`) may be, checked before any work and again just before the
//! rename that puts a file in place. An output is a regular file or a name not taken yet, never
//! an input of the run (by any path, links included), never a folder, device, FIFO or socket
//! (nor a symlink to one), and its folder exists.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use crate::error::{EncodeError, Error, Result};

/// The files a run reads, so that no output of the run lands on one of them: known by
/// device and inode on Unix (which sees through links, hard ones too), else by canonical path.
/// The folders holding them are kept too, so that a folder of new files (`--debug`) can be
/// kept apart from the inputs.
#[derive(Clone, Debug, Default)]
pub struct Inputs {
    ids: HashSet<FileId>,
    folders: HashSet<FileId>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum FileId {
    #[cfg(unix)]
    Inode(u64, u64),
    #[cfg_attr(unix, allow(dead_code))]
    Path(PathBuf),
}

fn file_id(path: &Path) -> Option<FileId> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let meta = std::fs::metadata(path).ok()?;
        Some(FileId::Inode(meta.dev(), meta.ino()))
    }
    #[cfg(not(unix))]
    {
        path.canonicalize().ok().map(FileId::Path)
    }
}

/// The folder `path` is in: its parent, or `.` for a bare name.
fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

impl Inputs {
    /// The inputs at `paths` (those that do not exist cannot be written over by accident).
    pub fn new<'a>(paths: impl IntoIterator<Item = &'a Path>) -> Inputs {
        let mut inputs = Inputs::default();
        for path in paths {
            if let Some(id) = file_id(path) {
                inputs.ids.insert(id);
                // The folder of the file the name leads to, links followed.
                let real = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
                inputs.folders.extend(file_id(folder_of(&real)));
            }
        }
        inputs
    }

    /// Whether `path` is (or links to) one of the inputs.
    pub fn contains(&self, path: &Path) -> bool {
        file_id(path).is_some_and(|id| self.ids.contains(&id))
    }

    /// Whether the folder `dir` directly holds one of the inputs.
    pub fn any_in(&self, dir: &Path) -> bool {
        file_id(dir).is_some_and(|id| self.folders.contains(&id))
    }
}

/// The one policy every output goes through, checked before any work: the name is free or a
/// regular file (a symlink to one included), and not an input of this run. (The write itself
/// is atomic: see [`write_bytes_atomic_to`](super::write_bytes_atomic_to), which checks the
/// kind again just before the rename.)
pub fn check_output(path: &Path, inputs: &Inputs) -> Result<()> {
    check_kind(path)?;
    if inputs.contains(path) {
        return Err(Error::OutputIsInput {
            path: path.to_path_buf(),
        });
    }
    Ok(())
}

/// Refuses an output path that is not a regular file or a free name, or is (or links to) the
/// input.
pub fn check_not_input(input: &Path, output: &Path) -> Result<()> {
    check_output(output, &Inputs::new([input]))
}

/// [`check_output`] for one picture named by the user: its folder must exist and its
/// extension must be one we write, so neither fails only after the work.
pub fn check_picture_target(path: &Path, inputs: &Inputs) -> Result<()> {
    check_output(path, inputs)?;
    check_folder(path)?;
    if super::format_for(path).is_none() {
        return Err(Error::Encode {
            path: path.to_path_buf(),
            source: EncodeError::UnknownExtension,
        });
    }
    Ok(())
}

/// Refuses an output whose folder does not exist (or is not a folder).
pub fn check_folder(path: &Path) -> Result<()> {
    let folder = folder_of(path);
    if folder.is_dir() {
        Ok(())
    } else {
        Err(Error::OutputFolderMissing {
            path: path.to_path_buf(),
            folder: folder.to_path_buf(),
        })
    }
}

/// Refuses a suffix that could lead an output out of its folder or onto another name: a
/// suffix is added to a file's stem, so it holds no path separator, no `..` and no NUL.
pub fn check_suffix(suffix: &str) -> Result<()> {
    let separator = suffix.contains('/') || suffix.contains(std::path::MAIN_SEPARATOR);
    if separator || suffix.contains("..") || suffix.contains('\0') {
        return Err(Error::BadSuffix {
            suffix: suffix.to_string(),
        });
    }
    Ok(())
}

/// Refuses a name taken by anything but a regular file: a folder, device, FIFO or socket, a
/// symlink to one of those, or a symlink that leads nowhere (the rename would replace the
/// node itself, as `--report /dev/null` once replaced the machine's `/dev/null`).
pub(crate) fn check_kind(path: &Path) -> Result<()> {
    let refuse = |kind: &'static str| {
        Err(Error::OutputNotAFile {
            path: path.to_path_buf(),
            kind,
        })
    };
    let node = match std::fs::symlink_metadata(path) {
        Ok(node) => node,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(source) => {
            return Err(Error::Write {
                path: path.to_path_buf(),
                source,
            })
        }
    };
    if node.is_file() {
        return Ok(());
    }
    if node.is_dir() {
        return Err(Error::OutputIsFolder {
            path: path.to_path_buf(),
        });
    }
    if !node.file_type().is_symlink() {
        return refuse(crate::pipeline::decode::file_kind(&node));
    }
    match std::fs::metadata(path) {
        Ok(target) if target.is_file() => Ok(()),
        Ok(target) if target.is_dir() => Err(Error::OutputIsFolder {
            path: path.to_path_buf(),
        }),
        Ok(target) => refuse(symlink_kind(crate::pipeline::decode::file_kind(&target))),
        Err(_) => refuse("a symlink that leads nowhere"),
    }
}

fn symlink_kind(kind: &'static str) -> &'static str {
    match kind {
        "a named pipe (FIFO)" => "a symlink to a named pipe (FIFO)",
        "a socket" => "a symlink to a socket",
        "a device" => "a symlink to a device",
        _ => "a symlink to something not a regular file",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_suffix_holds_no_separator_nor_parent() {
        for bad in ["/../../in/b", "a/b", "..", "x..y", "a\0b"] {
            assert!(check_suffix(bad).is_err(), "{bad:?}");
        }
        for good in ["", ".solved", "-answer", "_v2.final"] {
            assert!(check_suffix(good).is_ok(), "{good:?}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn devices_fifos_folders_and_links_to_them_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("file.json");
        std::fs::write(&file, b"{}").unwrap();
        let fifo = dir.path().join("fifo");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        let link = |name: &str, to: &Path| {
            let l = dir.path().join(name);
            std::os::unix::fs::symlink(to, &l).unwrap();
            l
        };
        let to_file = link("to-file", &file);
        let to_null = link("to-null", Path::new("/dev/null"));
        let to_dir = link("to-dir", dir.path());
        let dangling = link("dangling", &dir.path().join("missing"));
        assert!(check_kind(&file).is_ok());
        assert!(check_kind(&to_file).is_ok());
        assert!(check_kind(&dir.path().join("new.json")).is_ok());
        for refused in [
            Path::new("/dev/null"),
            &to_null,
            &to_dir,
            &dangling,
            dir.path(),
        ] {
            assert!(check_kind(refused).is_err(), "{}", refused.display());
        }
        if made.is_ok_and(|s| s.success()) {
            let err = check_kind(&fifo).unwrap_err().to_string();
            assert!(err.contains("FIFO"), "{err}");
        }
    }

    #[test]
    fn a_folder_holding_an_input_is_known() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("a.png");
        std::fs::write(&input, b"x").unwrap();
        let inputs = Inputs::new([input.as_path()]);
        assert!(inputs.any_in(dir.path()));
        assert!(!inputs.any_in(&std::env::temp_dir().join("surely-not-here")));
        assert!(inputs.contains(&input));
    }
}
