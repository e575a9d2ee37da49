//! `sudoku-snap solve`: text puzzles from arguments, files or stdin, solved in parallel and
//! printed in input order, streaming so a file of any length needs little memory.

use std::io::{self, Write};

use rayon::prelude::*;
use serde::Serialize;
use sudoku_snap::board::Board;
use sudoku_snap::solve::{self, Verdict};
use sudoku_snap::text::{self, ParseError, Parsed};

use super::input::each_puzzle_chunk;
use super::Outcome;
use crate::cli::{Format, SolveArgs};

/// What to compute for each puzzle.
#[derive(Clone, Copy)]
enum Mode {
    /// The uniqueness check: count to 2, keep one solution.
    Check,
    /// Count solutions up to the limit.
    Count(usize),
    /// Every solution up to the limit.
    All(usize),
}

/// One puzzle's result, in the JSON schema of the solve command.
#[derive(Serialize)]
struct Report {
    #[serde(skip)]
    origin: String,
    puzzle: Option<String>,
    status: &'static str,
    solution: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    solutions: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    all: Option<Vec<String>>,
    error: Option<String>,
}

impl Report {
    fn is_success(&self) -> bool {
        self.status == "solved"
    }
}

/// Runs the solve command; returns the outcome for the exit code.
pub fn run(args: SolveArgs) -> anyhow::Result<Outcome> {
    let format = super::output::resolve_format(args.format);
    let limit = args.limit.map(|n| n as usize);
    let mode = if args.all {
        Mode::All(limit.unwrap_or(100))
    } else if args.count {
        Mode::Count(limit.unwrap_or(2))
    } else {
        Mode::Check
    };
    let pool = super::thread_pool(args.jobs)?;
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let outcome = each_puzzle_chunk(&args.inputs, |name, chunk| {
        let mut failed = false;
        let reports: Vec<Report> =
            pool.install(|| chunk.par_iter().map(|p| solve_one(p, name, mode)).collect());
        for r in &reports {
            if !r.is_success() {
                failed = true;
                if let Some(e) = &r.error {
                    crate::err!("{}: {e}", r.origin);
                }
            }
            print_report(&mut out, r, format, mode)?;
        }
        // The chunk is what the input had ready: show its results before waiting for more.
        out.flush()?;
        Ok(failed)
    })?;
    out.flush()?;
    Ok(outcome)
}

fn solve_one(parsed: &Parsed, input: &str, mode: Mode) -> Report {
    let origin = format!("{input}:{}", parsed.line);
    let board = match &parsed.board {
        Ok(b) => *b,
        Err(e) => return parse_failure(origin, e),
    };
    let mut report = Report {
        origin,
        puzzle: Some(board.to_string()),
        status: "solved",
        solution: None,
        solutions: None,
        all: None,
        error: None,
    };
    let result = match mode {
        Mode::Check => solve::check(&board).map(|v| fill_verdict(&mut report, v)),
        Mode::Count(limit) => solve::solutions(&board, limit.min(2))
            .and_then(|first| Ok((first, solve::count_solutions(&board, limit)?)))
            .map(|(first, count)| fill_found(&mut report, &first, count, limit, false)),
        Mode::All(limit) => solve::solutions(&board, limit)
            .map(|all| fill_found(&mut report, &all, all.len(), limit, true)),
    };
    if let Err(conflict) = result {
        report.status = "invalid";
        report.error = Some(format!("invalid puzzle: {conflict}"));
    }
    report
}

fn parse_failure(origin: String, e: &ParseError) -> Report {
    Report {
        error: Some(format!("{}", e)),
        origin,
        puzzle: None,
        status: "invalid",
        solution: None,
        solutions: None,
        all: None,
    }
}

fn fill_verdict(report: &mut Report, verdict: Verdict) {
    match verdict {
        Verdict::Unique(s) => report.solution = Some(s.to_string()),
        Verdict::Multiple(s) => {
            report.status = "multiple_solutions";
            report.solution = Some(s.to_string());
            report.error = Some("more than one solution; printed one of them".into());
        }
        Verdict::Unsolvable => {
            report.status = "unsolvable";
            report.error = Some("no solution".into());
        }
    }
}

/// `count` stopped at `limit`: below it the count is exact, at it there may be more.
fn fill_found(report: &mut Report, found: &[Board], count: usize, limit: usize, keep_all: bool) {
    report.solutions = Some(count);
    report.solution = found.first().map(Board::to_string);
    if keep_all {
        report.all = Some(found.iter().map(Board::to_string).collect());
    }
    match count {
        0 => {
            report.status = "unsolvable";
            report.error = Some("no solution".into());
        }
        1 => {}
        _ => {
            report.status = "multiple_solutions";
            let more = if count >= limit { " or more" } else { "" };
            report.error = Some(format!("{count}{more} solutions"));
        }
    }
}

fn print_report(out: &mut impl Write, r: &Report, format: Format, mode: Mode) -> io::Result<()> {
    let boards: Vec<Board> = match (&r.all, &r.solution) {
        (Some(all), _) => all.iter().filter_map(|s| s.parse().ok()).collect(),
        (None, Some(s)) => s.parse().ok().into_iter().collect(),
        (None, None) => Vec::new(),
    };
    let count_suffix = match (mode, r.solutions) {
        (Mode::Count(_), Some(n)) => format!(" {n}"),
        _ => String::new(),
    };
    match format {
        Format::Json => {
            serde_json::to_writer(&mut *out, r)?;
            writeln!(out)
        }
        Format::Line if boards.is_empty() => writeln!(out, "{}{count_suffix}", r.status),
        Format::Line => boards
            .iter()
            .try_for_each(|b| writeln!(out, "{}{count_suffix}", text::to_line(b))),
        Format::Pretty | Format::Csv => {
            let solutions = r
                .solutions
                .map(|n| format!(", {n} solution(s) counted"))
                .unwrap_or_default();
            writeln!(out, "# {} {}{solutions}", r.origin, r.status)?;
            for b in &boards {
                let body = if format == Format::Csv {
                    text::to_csv(b)
                } else {
                    text::to_pretty(b)
                };
                writeln!(out, "{body}")?;
            }
            if boards.is_empty() {
                writeln!(out)?;
            }
            Ok(())
        }
    }
}
