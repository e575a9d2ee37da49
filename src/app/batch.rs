//! The batch form of the screenshot command: folders, path lists and `-o DIR/`. Turns the
//! arguments into an output plan and a list of entries, runs the library's batch with a
//! progress bar (stderr terminals only), prints one record per input as it finishes, and ends
//! with a summary on stderr.

use std::fs::File;
use std::io::{self, BufReader, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use sudoku_snap::error::shown;

use anyhow::Context;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use sudoku_snap::batch::{self, Origin, OutputPlan, Summary, Walk};
use sudoku_snap::output::{self, Inputs};
use sudoku_snap::{Report, Snap, Status};

use super::report_file::ReportFile;
use super::show::{print_report, print_timings};
use super::Outcome;
use crate::cli::{Format, ImageArgs, OutputFormat};

/// Whether the arguments ask for batch mode: a folder or `-` among the inputs, a list
/// (`--files-from`), an output folder (existing, or written with a trailing `/`), or CSV.
pub fn wanted(args: &ImageArgs) -> bool {
    let dir_input = args
        .inputs
        .iter()
        .any(|p| p.as_os_str() == "-" || p.is_dir());
    let dir_output = args.output.as_deref().is_some_and(is_dir_like);
    dir_input
        || dir_output
        || args.files_from.is_some()
        || args.shard.is_some()
        || args.format == Some(Format::Csv)
}

fn is_dir_like(path: &Path) -> bool {
    let s = path.as_os_str().to_string_lossy();
    path.is_dir() || s.ends_with('/') || s.ends_with(std::path::MAIN_SEPARATOR)
}

/// Runs the batch; usage and output-folder problems are errors before any work (exit 2).
pub fn run(args: ImageArgs) -> anyhow::Result<Outcome> {
    // Before the list is read: a suffix that could lead outputs elsewhere is a usage error.
    output::check_suffix(&args.suffix)?;
    let (paths, bad_lines) = input_paths(&args)?;
    let names_a_picture = |o: &Path| !is_dir_like(o) && output::format_for(o).is_some();
    if let Some(out) = args.output.as_deref().filter(|o| names_a_picture(o)) {
        anyhow::bail!(
            "-o {} names one picture, but this is a batch (folders, lists or --format csv); give -o a folder ending in `/`",
            shown(out)
        );
    }
    let plan = match &args.output {
        Some(dir) => Some(plan_output(dir, &args)?),
        None => None,
    };
    let walk = Walk {
        recursive: args.recursive,
        exclude: plan.iter().map(OutputPlan::canonical_dir).collect(),
    };
    let mut entries = batch::discover(&paths, &walk);
    // Every input of the batch, not only this shard's, is kept safe from the outputs.
    let inputs = Inputs::new(entries.iter().map(|e| e.input.as_path()));
    if let Some(shard) = args.shard {
        entries.retain(|e| shard.takes(&e.rel));
    }
    let mut report_file = match &args.report {
        Some(path) => Some(ReportFile::create(path, &inputs)?),
        None => None,
    };
    super::check_debug_dir(&args, &inputs)?;
    let format = super::output::resolve_format(args.format);
    // The first Ctrl-C reaches the pictures being read, not only those not yet started.
    let stop = super::stop_on_signals()?;
    let snap = Snap::new(sudoku_snap::Options {
        overwrite: args.overwrite,
        cancel: Some(std::sync::Arc::clone(&stop)),
        ..args.options()
    })?;
    let bar = progress_bar(entries.len() as u64, args.quiet);
    let stdout = io::stdout();
    let mut out = stdout.lock();
    if format == Format::Csv {
        writeln!(out, "input,status,givens,solution,output,error")?;
    }
    let mut write_error = None;
    let mut mistakes = Outcome::Success;
    let summary = batch::run(
        &snap,
        entries,
        plan.as_ref(),
        args.jobs.map(|j| j as usize),
        &stop,
        |report| {
            if write_error.is_some() {
                // Stopped because our results have nowhere to go: the pictures cut short by
                // that stop are not news.
                return;
            }
            if args.check && report.found_mistakes() {
                mistakes = Outcome::SomeFailed;
            }
            bar.suspend(|| {
                let written = emit(&mut out, report_file.as_mut(), report, format, &args);
                if let Err(e) = written {
                    write_error.get_or_insert(e);
                }
            });
            if write_error.is_some() {
                // Our results have nowhere to go: start nothing more. (Messages that cannot
                // be written are counted instead: the pictures are still worth making.)
                stop.store(true, Ordering::Relaxed);
            }
            bar.inc(1);
        },
    )?;
    bar.finish_and_clear();
    out.flush()?;
    if let Some(e) = write_error {
        return Err(e).context("cannot write the results");
    }
    if let Some(f) = report_file {
        f.finish()?;
    }
    let outcome = finish(&summary, args.quiet).max(mistakes);
    Ok(if bad_lines > 0 {
        outcome.max(Outcome::SomeFailed)
    } else {
        outcome
    })
}

/// The paths to discover, in order: IMAGE arguments (`-` reads a list from stdin), then the
/// `--files-from` list; and how many list lines named no file (each reported on stderr).
fn input_paths(args: &ImageArgs) -> anyhow::Result<(Vec<(PathBuf, Origin)>, usize)> {
    let stdin_args = args.inputs.iter().filter(|p| p.as_os_str() == "-").count();
    let list_is_stdin = args.files_from.as_deref() == Some(Path::new("-"));
    if stdin_args + usize::from(list_is_stdin) > 1 {
        anyhow::bail!("stdin can be read once: give `-` or `--files-from -`, not both");
    }
    let mut paths = Vec::new();
    let mut bad = 0;
    for p in &args.inputs {
        if p.as_os_str() == "-" {
            bad += read_list(Path::new("-"), &mut paths)?;
        } else {
            paths.push((p.clone(), Origin::Argument));
        }
    }
    if let Some(list) = &args.files_from {
        bad += read_list(list, &mut paths)?;
    }
    if paths.is_empty() && bad == 0 {
        anyhow::bail!("no IMAGE given; try `sudoku-snap --help`");
    }
    Ok((paths, bad))
}

/// Appends the paths of `list` (`-`: stdin) to `paths`; reports each line that names no file
/// and returns how many there were.
fn read_list(list: &Path, paths: &mut Vec<(PathBuf, Origin)>) -> anyhow::Result<usize> {
    let (read, name) = if list.as_os_str() == "-" {
        super::stdin::note_if_terminal("the paths of pictures");
        let read = batch::read_list(super::stdin::reader())
            .context("cannot read the list of paths on stdin")?;
        (read, "stdin".to_string())
    } else {
        let file = File::open(list).with_context(|| format!("cannot open {}", shown(list)))?;
        let read = batch::read_list(BufReader::new(file))
            .with_context(|| format!("cannot read {}", shown(list)))?;
        (read, shown(list).to_string())
    };
    for line in &read.bad {
        crate::err!("error: {name}: {line}; skipped");
    }
    paths.extend(read.paths.into_iter().map(|p| (p, Origin::Listed)));
    Ok(read.bad.len())
}

/// The output plan, checked and its folder created and probed before any work.
fn plan_output(dir: &Path, args: &ImageArgs) -> anyhow::Result<OutputPlan> {
    let plan = OutputPlan {
        dir: dir.to_path_buf(),
        suffix: args.suffix.clone(),
        format: args.output_format.map(OutputFormat::image_format),
    };
    if !args.allow_inside_input {
        let named: Vec<PathBuf> = args
            .inputs
            .iter()
            .filter(|p| p.as_os_str() != "-")
            .cloned()
            .collect();
        plan.check_outside(&named)
            .map_err(|e| anyhow::anyhow!(super::show::error_text(&e)))?;
    }
    plan.prepare()
        .context("the output folder cannot be written; nothing was processed")?;
    Ok(plan)
}

/// Count, rate and ETA on stderr, only when it is a terminal and not `--quiet`.
fn progress_bar(total: u64, quiet: bool) -> ProgressBar {
    if quiet || !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    let style =
        ProgressStyle::with_template("{elapsed_precise} [{wide_bar}] {pos}/{len} {rate} ETA {eta}")
            .expect("a valid progress template")
            // indicatif's own `{per_sec}` prints four decimals ("12.6488/s"); one is enough.
            .with_key(
                "rate",
                |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = std::fmt::Write::write_fmt(w, format_args!("{:.1}/s", state.per_sec()));
                },
            )
            .progress_chars("=> ");
    bar.set_style(style);
    bar
}

/// Prints one finished input: its errors and corrections on stderr, its record on stdout,
/// and its JSON line in the report file.
fn emit(
    out: &mut impl Write,
    report_file: Option<&mut ReportFile>,
    r: &Report,
    format: Format,
    args: &ImageArgs,
) -> io::Result<()> {
    if let Some(e) = &r.error {
        // Every error of a report names its file.
        crate::err!("error: {}", super::show::error_text(e));
    }
    for c in &r.corrections {
        let (cell, read, used) = (c.cell, c.read, c.used);
        crate::err!(
            "{}: corrected {cell}: read {read}, used {used}",
            shown(&r.input)
        );
    }
    super::show::explain_marks(r, args);
    super::show::explain_other_grids(r, args);
    if args.timings {
        print_timings(r);
    }
    match format {
        Format::Csv => write_csv(out, r)?,
        Format::Line if super::show::marks_only(args) => {
            writeln!(out, "{}\t{}", shown(&r.input), super::show::marks_line(r))?;
        }
        Format::Line => {
            let what = r.solution.map(|s| s.to_string());
            let what = what.unwrap_or_else(|| r.status.to_string());
            writeln!(out, "{}\t{what}", shown(&r.input))?;
        }
        _ => print_report(out, r, format, super::show::marks_only(args))?,
    }
    if let Some(f) = report_file {
        f.write(r)?;
    }
    Ok(())
}

fn write_csv(out: &mut impl Write, r: &Report) -> io::Result<()> {
    let board = |b: Option<sudoku_snap::Board>| b.map(|b| b.to_string()).unwrap_or_default();
    let fields = [
        r.input.display().to_string(),
        r.status.to_string(),
        board(r.givens),
        board(r.solution),
        r.output
            .as_ref()
            .map(|o| o.display().to_string())
            .unwrap_or_default(),
        r.error
            .as_ref()
            .map(super::show::error_text)
            .unwrap_or_default(),
    ];
    let quoted: Vec<String> = fields.iter().map(|f| csv_field(f)).collect();
    writeln!(out, "{}", quoted.join(","))
}

/// RFC 4180 quoting: fields with a comma, quote or line break are quoted, quotes doubled.
fn csv_field(field: &str) -> String {
    if field.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", field.replace('"', "\"\""))
    } else {
        field.to_string()
    }
}

/// Prints the summary (unless quiet) and the reason of an early stop; returns the outcome.
fn finish(summary: &Summary, quiet: bool) -> Outcome {
    if let Some(e) = &summary.fatal {
        crate::err!(
            "error: {}\nstopped: nothing more can be written there; {} inputs not processed",
            super::show::error_text(e),
            summary.not_processed
        );
    } else if summary.interrupted {
        crate::err!(
            "interrupted: {} inputs not processed; run the same command again to finish",
            summary.not_processed
        );
    }
    // One picture's own line says all a summary would (`-f csv` on one file runs here too).
    if !quiet && summary.processed() > 1 {
        let n = summary.processed();
        let secs = summary.elapsed.as_secs_f64();
        let c = |s| summary.count(s);
        crate::err!(
            "{n} inputs in {secs:.2} s ({:.1} images/s): {} solved, {} doubtful, {} with several solutions (neither drawn), {} unsolvable, {} no grid, {} errors, {} skipped",
            n as f64 / secs.max(1e-9),
            c(Status::Solved),
            c(Status::Doubtful),
            c(Status::MultipleSolutions),
            c(Status::Unsolvable) + c(Status::Invalid),
            c(Status::NoGrid),
            c(Status::Error),
            c(Status::Skipped),
        );
    }
    if summary.all_done() {
        Outcome::Success
    } else {
        Outcome::SomeFailed
    }
}
