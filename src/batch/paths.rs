//! Output-path policy of the batch: one picture per input under the output folder, mirroring
//! the input's relative path with the same stem (plus an optional suffix), in the chosen format
//! or the input's own; never inside an input folder unless asked.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use image::ImageFormat;

use crate::error::{Error, Result};
use crate::pipeline::encode;

/// Where and how the solved pictures are written.
#[derive(Clone, Debug)]
pub struct OutputPlan {
    /// The output folder.
    pub dir: PathBuf,
    /// Added to each stem: `a.png` -> `a<suffix>.png`. Default: empty.
    pub suffix: String,
    /// The format of every output; `None` keeps the input's own (PNG when the input's
    /// extension is not one we write, e.g. GIF). Default: `None`.
    pub format: Option<ImageFormat>,
}

impl OutputPlan {
    /// The output folder with the defaults: no suffix, the input's format.
    pub fn new(dir: impl Into<PathBuf>) -> OutputPlan {
        OutputPlan {
            dir: dir.into(),
            suffix: String::new(),
            format: None,
        }
    }

    /// The output path for an input found at `rel` below its folder.
    ///
    /// # Examples
    /// ```
    /// use std::path::Path;
    /// use sudoku_snap::batch::OutputPlan;
    /// let mut plan = OutputPlan::new("solved");
    /// assert_eq!(plan.path_for(Path::new("a/b.png")), Path::new("solved/a/b.png"));
    /// plan.suffix = ".solved".into();
    /// plan.format = Some(image::ImageFormat::Jpeg);
    /// assert_eq!(plan.path_for(Path::new("a/b.png")), Path::new("solved/a/b.solved.jpg"));
    /// ```
    pub fn path_for(&self, rel: &Path) -> PathBuf {
        // Built from OS strings, so a name that is not UTF-8 keeps its bytes.
        let ext: OsString = match self.format {
            Some(f) => f.extensions_str()[0].into(),
            None if encode::format_for(rel).is_some() => {
                rel.extension().unwrap_or_default().to_owned()
            }
            None => "png".into(),
        };
        let mut name = rel.file_stem().unwrap_or_default().to_owned();
        name.push(&self.suffix);
        name.push(".");
        name.push(ext);
        match rel.parent() {
            Some(parent) => self.dir.join(parent).join(name),
            None => self.dir.join(name),
        }
    }

    /// Refuses an output folder inside (or equal to) one of the input folders, or equal to
    /// the folder of an input file, where outputs would mix with inputs.
    pub fn check_outside(&self, inputs: &[PathBuf]) -> Result<()> {
        let out = lenient_canonical(&self.dir);
        for input in inputs {
            let Ok(canon) = input.canonicalize() else {
                continue;
            };
            let inside = if canon.is_dir() {
                out.starts_with(&canon)
            } else {
                canon.parent() == Some(out.as_path())
            };
            if inside {
                return Err(Error::OutputInsideInput {
                    output: self.dir.clone(),
                    input: input.clone(),
                });
            }
        }
        Ok(())
    }

    /// Creates the output folder, removes temporary files a killed run left there, and proves
    /// a file can be written in it, so a read-only or missing folder fails before any work.
    /// A suffix that is not a plain suffix (see [`encode::check_suffix`]) is refused here too.
    pub fn prepare(&self) -> Result<usize> {
        encode::check_suffix(&self.suffix)?;
        let fail = |source| Error::Write {
            path: self.dir.clone(),
            source,
        };
        std::fs::create_dir_all(&self.dir).map_err(fail)?;
        let removed = encode::remove_stale_temps(&self.dir);
        encode::temp_file_in(&self.dir).map_err(fail)?;
        Ok(removed)
    }

    /// The output folder's canonical path, for keeping it out of the walk.
    pub fn canonical_dir(&self) -> PathBuf {
        lenient_canonical(&self.dir)
    }
}

/// The canonical path of `path`, resolving the longest prefix that exists (the rest need not).
fn lenient_canonical(path: &Path) -> PathBuf {
    let abs = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut rest = Vec::new();
    let mut cur = abs.as_path();
    loop {
        if let Ok(c) = cur.canonicalize() {
            return rest.iter().rev().fold(c, |acc, part| acc.join(part));
        }
        match (cur.parent(), cur.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_owned());
                cur = parent;
            }
            _ => return abs,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mirrors_stem_and_keeps_or_changes_the_format() {
        let plan = OutputPlan::new("out");
        assert_eq!(
            plan.path_for(Path::new("x/y.JPG")),
            Path::new("out/x/y.JPG")
        );
        assert_eq!(
            plan.path_for(Path::new("anim.gif")),
            Path::new("out/anim.png")
        );
        assert_eq!(
            plan.path_for(Path::new("IMG_1")),
            Path::new("out/IMG_1.png")
        );
    }

    #[test]
    fn output_inside_an_input_folder_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let plan = OutputPlan::new(dir.path().join("solved/deeper"));
        assert!(plan.check_outside(&[dir.path().to_path_buf()]).is_err());
        let other = tempfile::tempdir().unwrap();
        assert!(plan.check_outside(&[other.path().to_path_buf()]).is_ok());
    }
}
