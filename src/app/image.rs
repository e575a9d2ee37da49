//! The default command: screenshots in; the puzzle read, its solution and (with `-o`) the
//! solved picture out.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use sudoku_snap::error::shown;

use sudoku_snap::output::{self, Inputs};
use sudoku_snap::Snap;

use super::report_file::ReportFile;
use super::show::{explain_doubt, explain_marks, marks_only, print_report, print_timings};
use super::Outcome;
use crate::cli::{Format, ImageArgs};

/// Runs the screenshot command; returns the outcome for the exit code.
pub fn run(args: ImageArgs) -> anyhow::Result<Outcome> {
    if args.inputs.is_empty() && args.files_from.is_none() {
        return Ok(super::meta::usage());
    }
    for input in &args.inputs {
        if let Some(hint) = text_not_picture(input).or_else(|| mistyped_command(input)) {
            anyhow::bail!("{hint}");
        }
    }
    if super::pipe::wanted(&args) {
        return super::pipe::run(args);
    }
    if super::batch::wanted(&args) {
        return super::batch::run(args);
    }
    if args.output.is_some() && args.inputs.len() > 1 {
        anyhow::bail!("-o names one output file; give one IMAGE, or a folder ending in `/`");
    }
    if !args.suffix.is_empty() {
        anyhow::bail!("--suffix is for batch mode: give -o a folder (`-o DIR/`)");
    }
    let format = super::output::resolve_format(args.format);
    if format == Format::Csv {
        anyhow::bail!(
            "--format csv is for text puzzles and batch mode (-o DIR/); use pretty, line or json"
        );
    }
    let inputs = Inputs::new(args.inputs.iter().map(PathBuf::as_path));
    if let Some(out) = &args.output {
        output::check_picture_target(out, &inputs)?;
        output::remove_stale_temps_beside(out);
        if args.report.as_deref() == Some(out.as_path()) {
            anyhow::bail!("--report and -o name the same file {}", shown(out));
        }
    }
    let mut report_file = match &args.report {
        Some(path) => Some(ReportFile::create(path, &inputs)?),
        None => None,
    };
    super::check_debug_dir(&args, &inputs)?;
    // The first Ctrl-C reaches the picture being read, not only the next one.
    let stop = super::stop_on_signals()?;
    let snap = Snap::new(sudoku_snap::Options {
        cancel: Some(Arc::clone(&stop)),
        ..args.options()
    })?;
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let mut outcome = Outcome::Success;
    for input in &args.inputs {
        if stop.load(Ordering::Relaxed) {
            // Ctrl-C: the rest is not done.
            outcome = outcome.max(Outcome::SomeFailed);
            break;
        }
        let report = snap.process(input, args.output.as_deref());
        outcome = outcome.max(super::show::outcome(&report, &args));
        if let Some(e) = &report.error {
            crate::err!("error: {}", super::show::error_text(e));
            explain_doubt(&report, &args);
        }
        for c in &report.corrections {
            crate::err!(
                "{}: corrected {}: read {}, used {}",
                shown(input),
                c.cell,
                c.read,
                c.used
            );
        }
        explain_marks(&report, &args);
        super::show::explain_other_grids(&report, &args);
        if args.timings {
            print_timings(&report);
        }
        if format == Format::Line && args.inputs.len() > 1 {
            // Several pictures: each line names its input, as in batch mode.
            write!(out, "{}\t", shown(input))?;
        }
        print_report(&mut out, &report, format, marks_only(&args))?;
        if let Some(f) = report_file.as_mut() {
            f.write(&report)?;
        }
    }
    out.flush()?;
    if let Some(f) = report_file {
        f.finish()?;
    }
    Ok(outcome)
}

/// A text puzzle (or a file of them) given where a picture is expected: the sentence that
/// points to `solve`. A `.txt`/`.csv` file, or an argument that is no file but reads as a
/// puzzle (81 cells of digits and `.0_-*`, spaces allowed).
fn text_not_picture(input: &Path) -> Option<String> {
    let ext = input
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    let text_file =
        matches!(ext.as_deref(), Some("txt" | "csv" | "sdk" | "sdm")) && input.is_file();
    let arg = input.to_string_lossy();
    let cells = arg.chars().filter(|c| !c.is_whitespace()).count();
    let puzzle_like = !input.exists()
        && cells == 81
        && arg
            .chars()
            .all(|c| c.is_ascii_digit() || ".0_-* \t".contains(c));
    (text_file || puzzle_like).then(|| {
        format!("{arg}: a text puzzle, not a picture: did you mean `sudoku-snap solve {arg}`?")
    })
}

/// The subcommands, for [`mistyped_command`].
const COMMANDS: [&str; 5] = ["solve", "generate", "grade", "completions", "man"];

/// A first argument that is no file but is a subcommand's name mistyped (`solv`): the
/// sentence that names the subcommand, rather than "No such file".
fn mistyped_command(input: &Path) -> Option<String> {
    let word = input.to_str()?;
    if input.exists() || word.contains(['.', '/']) {
        return None;
    }
    let nearest = COMMANDS
        .iter()
        .map(|c| (strsim::damerau_levenshtein(word, c), *c))
        .min()?;
    // One or two edits, as clap suggests flags; never for a word as short as the edits.
    (nearest.0 <= 2 && word.len() > nearest.0 + 1).then(|| {
        format!(
            "{word}: no such picture or subcommand; did you mean `sudoku-snap {}`?",
            nearest.1
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mistyped_subcommand_is_named() {
        let hint = |w: &str| mistyped_command(Path::new(w));
        assert!(hint("solv").unwrap().contains("`sudoku-snap solve`"));
        assert!(hint("genrate").unwrap().contains("`sudoku-snap generate`"));
        assert!(hint("grdae").unwrap().contains("`sudoku-snap grade`"));
        assert_eq!(hint("shot.png"), None);
        assert_eq!(hint("photos/x"), None);
        assert_eq!(hint("zzzzzz"), None);
    }
}
