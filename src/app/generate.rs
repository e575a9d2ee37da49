//! `sudoku-snap generate`: puzzles made in parallel, printed in index order, so the output
//! depends only on the seed and the options, never on the thread count. With `--png DIR` or
//! `-o FILE` each puzzle is also drawn as a printable picture, in the same parallel step.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use sudoku_snap::error::shown;

use anyhow::Context;

use serde::Serialize;
use sudoku_snap::output;
use sudoku_snap::puzzle::generate::{self, GenerateOptions, Generated};
use sudoku_snap::puzzle::grade::Difficulty;
use sudoku_snap::puzzle::printable::{self, PrintOptions};
use sudoku_snap::puzzle::text;
use sudoku_snap::stages::Picture;
use sudoku_snap::Options;

use super::pool::Pool;
use super::Outcome;
use crate::cli::{DifficultyArg, Format, GenerateArgs};

/// Puzzles made per parallel batch before printing: output starts early, a closed stdout
/// stops the work after one batch, and a request that cannot be met stops after one batch
/// instead of trying every index.
const CHUNK: u64 = 64;
/// Puzzles asked for from which the thread pool is started at once, not once the first one
/// has shown how long each takes (see `pool`). Whole processes against the pool started at
/// once: one puzzle 0.88x the wall time, two 0.94x, three 1.04x.
const EAGER_POOL: u64 = 3;

/// One puzzle in the JSON schema of the generate command.
#[derive(Serialize)]
struct Report {
    puzzle: String,
    solution: String,
    givens: usize,
    difficulty: &'static str,
    solved_logically: bool,
    techniques: super::grade::Techniques,
    seed: u64,
    index: u64,
}

impl Report {
    fn new(g: &Generated) -> Report {
        Report {
            puzzle: g.puzzle.to_string(),
            solution: g.solution.to_string(),
            givens: g.puzzle.filled_count(),
            difficulty: g.grade.difficulty.name(),
            solved_logically: g.grade.solved_logically,
            techniques: super::grade::technique_counts(&g.grade),
            seed: g.seed,
            index: g.index,
        }
    }
}

/// Runs the generate command; returns the outcome for the exit code.
pub fn run(args: GenerateArgs) -> anyhow::Result<Outcome> {
    let format = super::output::resolve_format(args.format);
    let options = options_from(&args);
    if args.seed.is_none() {
        // The seed from the clock is the only way to get these puzzles again.
        crate::err!(
            "sudoku-snap generate: seed {0} (`--seed {0}` gives the same puzzles again)",
            options.seed
        );
    }
    let pictures = Pictures::from_args(&args)?;
    // Pictures being written finish and no more start, so a signal leaves no temporary file.
    let stop = match &pictures {
        Some(_) => Some(super::stop_on_signals()?),
        None => None,
    };
    let stopped = || stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed));
    let pool = Pool::new(args.jobs);
    if args.count >= EAGER_POOL {
        pool.start()?;
    }
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let mut start = 0;
    while start < args.count {
        let end = (start + CHUNK).min(args.count);
        let indices: Vec<u64> = (start..end).collect();
        if stopped() {
            out.flush()?;
            crate::err!(
                "interrupted: puzzles {start} to {} not made",
                args.count - 1
            );
            return Ok(Outcome::SomeFailed);
        }
        let results = pool.map(&indices, |&i| {
            if stopped() {
                anyhow::bail!("interrupted");
            }
            let g = generate::generate(&options, i)?;
            if let Some(p) = &pictures {
                p.write(&g)?;
            }
            anyhow::Ok(g)
        })?;
        for result in results {
            match result {
                Ok(g) => print_one(&mut out, &g, format)?,
                Err(e) => {
                    out.flush()?;
                    crate::err!("error: {}", super::console::chain_text(&e));
                    return Ok(Outcome::SomeFailed);
                }
            }
        }
        // Each batch reaches the reader as soon as it is made, and a reader that has gone
        // (`| head -1`) is noticed here, before the next batch is started.
        out.flush()?;
        start = end;
    }
    out.flush()?;
    Ok(Outcome::Success)
}

/// The library options; a missing seed comes from the clock (and is printed with each puzzle).
fn options_from(args: &GenerateArgs) -> GenerateOptions {
    let seed = args.seed.unwrap_or_else(|| {
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
        now.map_or(0, |d| d.as_nanos() as u64)
    });
    GenerateOptions {
        seed,
        holes: args.holes,
        difficulty: args.difficulty.map(|d| match d {
            DifficultyArg::Easy => Difficulty::Easy,
            DifficultyArg::Medium => Difficulty::Medium,
            DifficultyArg::Hard => Difficulty::Hard,
            DifficultyArg::Expert => Difficulty::Expert,
        }),
        symmetric: args.symmetric,
        minimal: args.minimal,
        max_attempts: args.max_attempts,
    }
}

/// Where and how the printable pictures go; checked before any puzzle is made, so a bad
/// `-o` extension fails at once instead of after the work.
struct Pictures {
    place: Place,
    solution: bool,
    print: PrintOptions,
}

enum Place {
    /// `--png DIR`: one file per puzzle, named by seed and index.
    Dir(PathBuf),
    /// `-o FILE` (with `-n 1`).
    File(PathBuf),
}

impl Pictures {
    fn from_args(args: &GenerateArgs) -> anyhow::Result<Option<Pictures>> {
        let place = match (&args.png, &args.output) {
            (Some(dir), _) => {
                if dir.exists() && !dir.is_dir() {
                    anyhow::bail!("--png {}: is not a folder", shown(dir));
                }
                std::fs::create_dir_all(dir)
                    .with_context(|| format!("cannot create --png folder {}", shown(dir)))?;
                output::remove_stale_temps_in(dir);
                Place::Dir(dir.clone())
            }
            (None, Some(file)) => {
                if args.count != 1 {
                    anyhow::bail!("-o names one picture; use --png DIR for -n {}", args.count);
                }
                // The output policy, before any work (generate reads no input).
                output::check_picture_target(file, &output::Inputs::default())?;
                output::remove_stale_temps_beside(file);
                Place::File(file.clone())
            }
            (None, None) if args.solution => {
                anyhow::bail!("--solution draws the solved grid; add --png DIR or -o FILE")
            }
            (None, None) => return Ok(None),
        };
        Ok(Some(Pictures {
            place,
            solution: args.solution,
            print: PrintOptions::default(),
        }))
    }

    /// `puzzle-<seed>-<index>.png`, or `solution-...` for the solved grid, so both kinds can
    /// share a folder and a rerun with the same seed replaces its own files.
    fn path(&self, g: &Generated) -> PathBuf {
        match &self.place {
            Place::Dir(dir) => {
                let kind = if self.solution { "solution" } else { "puzzle" };
                dir.join(format!("{kind}-{}-{}.png", g.seed, g.index))
            }
            Place::File(file) => file.clone(),
        }
    }

    /// Draws `g` and writes it atomically (an existing file is replaced, as with `-o` of the
    /// screenshot command).
    fn write(&self, g: &Generated) -> sudoku_snap::Result<()> {
        let solution = self.solution.then_some(&g.solution);
        let image = printable::draw_puzzle(&g.puzzle, solution, &self.print);
        let path = self.path(g);
        let picture = Picture::from(image);
        output::write_atomic(&picture, Path::new(&path), Options::default().jpeg_quality)
    }
}

fn print_one(out: &mut impl Write, g: &Generated, format: Format) -> anyhow::Result<()> {
    match format {
        Format::Line => writeln!(out, "{}", text::to_line(&g.puzzle))?,
        Format::Json => {
            super::output::write_json_line(out, &Report::new(g))?;
        }
        Format::Pretty | Format::Csv => {
            let guessing = if g.grade.solved_logically {
                ""
            } else {
                ", needs guessing"
            };
            writeln!(
                out,
                "# puzzle {} of seed {}: {}{guessing}, {} givens",
                g.index,
                g.seed,
                g.grade.difficulty,
                g.puzzle.filled_count()
            )?;
            let body = if format == Format::Csv {
                text::to_csv(&g.puzzle)
            } else {
                text::to_pretty(&g.puzzle)
            };
            writeln!(out, "{body}")?;
        }
    }
    Ok(())
}
