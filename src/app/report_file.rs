//! `--report FILE`: the JSON Lines of a screenshot run, written through a temporary file in
//! the report's folder and renamed into place at the end, so FILE is never half-written and
//! a run that fails before the end leaves the previous FILE as it was.

use std::io::{self, BufWriter};
use std::path::{Path, PathBuf};
use sudoku_snap::error::shown;

use anyhow::Context;
use sudoku_snap::output::{self, Inputs};
use sudoku_snap::Report;
use tempfile::NamedTempFile;

/// An open report; [`ReportFile::finish`] puts it in place.
pub struct ReportFile {
    path: PathBuf,
    tmp: BufWriter<NamedTempFile>,
}

impl ReportFile {
    /// Checks `path` by the output policy (a regular file or a new name in a folder that
    /// exists, not one of `inputs`), removes the temporary files a killed run left beside it,
    /// and opens its own, so a report that cannot be written fails before any work.
    pub fn create(path: &Path, inputs: &Inputs) -> anyhow::Result<ReportFile> {
        output::check_output(path, inputs)?;
        output::check_folder(path)?;
        let dir = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        output::remove_stale_temps_in(dir);
        let tmp = output::temp_file_in(dir)
            .with_context(|| format!("cannot create the report {}", shown(path)))?;
        Ok(ReportFile {
            path: path.to_path_buf(),
            tmp: BufWriter::new(tmp),
        })
    }

    /// Appends one report as a JSON line.
    pub fn write(&mut self, report: &Report) -> io::Result<()> {
        super::output::write_json_line(&mut self.tmp, report)
    }

    /// Flushes the report to disk and renames it into place.
    pub fn finish(self) -> anyhow::Result<()> {
        let fail = || format!("cannot write the report {}", shown(&self.path));
        let tmp = self
            .tmp
            .into_inner()
            .map_err(|e| e.into_error())
            .with_context(fail)?;
        tmp.as_file().sync_all().with_context(fail)?;
        tmp.persist(&self.path)
            .map_err(|e| e.error)
            .with_context(fail)?;
        Ok(())
    }
}
