//! `sudoku-snap solve`: text puzzles from arguments, files or stdin, solved in parallel and
//! printed in input order, streaming so a file of any length needs little memory.

use std::io::{self, Write};
use std::ops::ControlFlow;

use serde::Serialize;
use sudoku_snap::puzzle::board::{Board, Conflict};
use sudoku_snap::puzzle::solve::{self, Verdict};
use sudoku_snap::puzzle::text::{self, ParseError, Parsed};

use super::input::{each_puzzle_chunk, pool_for};
use super::output::{write_json_line, PuzzleStatus};
use super::pool::Pool;
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

/// One puzzle's result, in the JSON schema of the solve command. Boards are kept as boards and
/// written out only when printed: thousands of puzzles a second pass through here.
#[derive(Serialize)]
struct Report<'a> {
    /// The input's name and the puzzle's line: where messages say the puzzle is.
    #[serde(skip)]
    input: &'a str,
    #[serde(skip)]
    line: usize,
    #[serde(serialize_with = "as_line")]
    puzzle: Option<Board>,
    status: PuzzleStatus,
    #[serde(serialize_with = "as_line")]
    solution: Option<Board>,
    #[serde(skip_serializing_if = "Option::is_none")]
    solutions: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    all: Option<AllSolutions>,
    error: Option<String>,
}

impl Report<'_> {
    fn is_success(&self) -> bool {
        self.status == PuzzleStatus::Solved
    }

    /// `INPUT:LINE`, as messages name the puzzle.
    fn origin(&self) -> String {
        format!("{}:{}", self.input, self.line)
    }
}

/// A board in JSON as its 81-character line, `null` for none.
fn as_line<S: serde::Serializer>(board: &Option<Board>, s: S) -> Result<S::Ok, S::Error> {
    match board {
        Some(board) => s.serialize_str(&text::to_line(board)),
        None => s.serialize_none(),
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
    let pool = pool_for(&args.inputs, args.jobs)?;
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let outcome = each_puzzle_chunk(&args.inputs, pool.threads(), |name, chunk| {
        let failed = match mode {
            Mode::All(limit) => list_all(&mut out, chunk, name, limit, format)?,
            _ => solve_chunk(&pool, &mut out, chunk, name, mode, format)?,
        };
        // The chunk is what the input had ready: show its results before waiting for more.
        out.flush()?;
        Ok(failed)
    })?;
    out.flush()?;
    Ok(outcome)
}

/// Solves a chunk (in parallel when it is large enough) and prints the reports in input
/// order; returns whether any puzzle did not get a unique solution.
fn solve_chunk(
    pool: &Pool,
    out: &mut impl Write,
    chunk: &[Parsed],
    name: &str,
    mode: Mode,
    format: Format,
) -> anyhow::Result<bool> {
    let reports: Vec<Report> = pool.map(chunk, |p| solve_one(p, name, mode))?;
    let mut failed = false;
    for r in &reports {
        failed |= tell_failure(r);
        print_report(out, r, format, mode)?;
    }
    Ok(failed)
}

/// `--all`: each puzzle's solutions are written as the solver finds them, never collected, so
/// memory stays flat however many there are. The puzzles take their turns one after another:
/// with thousands of solutions each, writing them is the work, not finding them.
fn list_all(
    out: &mut impl Write,
    chunk: &[Parsed],
    name: &str,
    limit: usize,
    format: Format,
) -> io::Result<bool> {
    let mut failed = false;
    for parsed in chunk {
        let report = if format == Format::Line {
            list_lines(out, parsed, name, limit)?
        } else {
            // These layouts give the count before the solutions: count first, list after.
            let mut report = solve_one(parsed, name, Mode::Count(limit));
            if let (Some(_), Ok(board)) = (report.solutions, &parsed.board) {
                report.all = Some(AllSolutions {
                    board: *board,
                    limit,
                });
            }
            print_report(out, &report, format, Mode::All(limit))?;
            report
        };
        failed |= tell_failure(&report);
    }
    Ok(failed)
}

/// `--all -f line`: one solution per line as found, or the status when there is none; the
/// report (for stderr) is made from the count afterwards, so the search runs once.
fn list_lines<'a>(
    out: &mut impl Write,
    parsed: &Parsed,
    name: &'a str,
    limit: usize,
) -> io::Result<Report<'a>> {
    let Ok(board) = &parsed.board else {
        let report = solve_one(parsed, name, Mode::All(limit));
        print_report(out, &report, Format::Line, Mode::All(limit))?;
        return Ok(report);
    };
    let mut first = None;
    let listed = each_solution(board, limit, |s| {
        first.get_or_insert(*s);
        writeln!(out, "{}", text::to_line(s))
    })?;
    let mut report = blank_report(name, parsed.line, board);
    match listed {
        Ok(count) => fill_found(&mut report, first.as_ref(), count, limit),
        Err(conflict) => mark_invalid(&mut report, conflict),
    }
    if report.solution.is_none() {
        writeln!(out, "{}", report.status)?;
    }
    Ok(report)
}

/// Puts a failed puzzle's reason on stderr; returns whether it failed.
fn tell_failure(r: &Report) -> bool {
    if r.is_success() {
        return false;
    }
    if let Some(e) = &r.error {
        crate::err!("error: {}: {e}", r.origin());
    }
    true
}

/// Calls `each` with the solutions of `board`, up to `limit`, as the solver finds them, and
/// returns how many there were; the first error of `each` stops the search and is returned.
fn each_solution<E>(
    board: &Board,
    limit: usize,
    mut each: impl FnMut(&Board) -> Result<(), E>,
) -> Result<Result<usize, Conflict>, E> {
    let mut count = 0;
    let mut failure = None;
    let searched = solve::for_each_solution(board, |s| {
        if count >= limit {
            return ControlFlow::Break(());
        }
        if let Err(e) = each(s) {
            failure = Some(e);
            return ControlFlow::Break(());
        }
        count += 1;
        if count >= limit {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    match failure {
        Some(e) => Err(e),
        None => Ok(searched.map(|()| count)),
    }
}

/// One puzzle's report. `--all` asks for a count here; its solutions are listed when printed.
fn solve_one<'a>(parsed: &Parsed, input: &'a str, mode: Mode) -> Report<'a> {
    let board = match &parsed.board {
        Ok(b) => *b,
        Err(e) => return parse_failure(input, parsed.line, e),
    };
    let mut report = blank_report(input, parsed.line, &board);
    let result = match mode {
        Mode::Check => solve::check(&board).map(|v| fill_verdict(&mut report, v)),
        Mode::Count(limit) | Mode::All(limit) => solve::first_and_count(&board, limit)
            .map(|(first, count)| fill_found(&mut report, first.as_ref(), count, limit)),
    };
    if let Err(conflict) = result {
        mark_invalid(&mut report, conflict);
    }
    report
}

/// The report of a readable puzzle before solving: `solved` until found otherwise.
fn blank_report<'a>(input: &'a str, line: usize, board: &Board) -> Report<'a> {
    Report {
        input,
        line,
        puzzle: Some(*board),
        status: PuzzleStatus::Solved,
        solution: None,
        solutions: None,
        all: None,
        error: None,
    }
}

fn mark_invalid(report: &mut Report, conflict: Conflict) {
    report.status = PuzzleStatus::Invalid;
    report.error = Some(format!("invalid puzzle: {conflict}"));
}

fn parse_failure<'a>(input: &'a str, line: usize, e: &ParseError) -> Report<'a> {
    Report {
        // The origin names the file and line already.
        error: Some(e.after_line(line)),
        input,
        line,
        puzzle: None,
        status: PuzzleStatus::Invalid,
        solution: None,
        solutions: None,
        all: None,
    }
}

fn fill_verdict(report: &mut Report, verdict: Verdict) {
    match verdict {
        Verdict::Unique(s) => report.solution = Some(s),
        Verdict::Multiple(s) => {
            report.status = PuzzleStatus::MultipleSolutions;
            report.solution = Some(s);
            report.error = Some("more than one solution; printed one of them".into());
        }
        Verdict::Unsolvable => {
            report.status = PuzzleStatus::Unsolvable;
            report.error = Some("no solution".into());
        }
    }
}

/// `count` stopped at `limit`: below it the count is exact, at it there may be more.
fn fill_found(report: &mut Report, first: Option<&Board>, count: usize, limit: usize) {
    report.solutions = Some(count);
    report.solution = first.copied();
    match count {
        0 => {
            report.status = PuzzleStatus::Unsolvable;
            report.error = Some("no solution".into());
        }
        1 => {}
        _ => {
            report.status = PuzzleStatus::MultipleSolutions;
            let more = if count >= limit { " or more" } else { "" };
            report.error = Some(format!("{count}{more} solutions"));
        }
    }
}

/// Prints one report; with `all` set, its solutions are found again and written as they come.
fn print_report(out: &mut impl Write, r: &Report, format: Format, mode: Mode) -> io::Result<()> {
    let count = match mode {
        Mode::Count(_) => r.solutions,
        _ => None,
    };
    match format {
        Format::Json => write_json_line(out, r),
        Format::Line => {
            let any = each_board(r, |b| write_line(out, &line_bytes(b), count))?;
            if !any {
                write_line(out, r.status.name().as_bytes(), count)?;
            }
            Ok(())
        }
        Format::Pretty | Format::Csv => {
            let solutions = r
                .solutions
                .map(|n| format!(", {n} solution(s) counted"))
                .unwrap_or_default();
            writeln!(out, "# {} {}{solutions}", r.origin(), r.status)?;
            let any = each_board(r, |b| {
                let body = if format == Format::Csv {
                    text::to_csv(b)
                } else {
                    text::to_pretty(b)
                };
                writeln!(out, "{body}")
            })?;
            if !any {
                writeln!(out)?;
            }
            Ok(())
        }
    }
}

/// One line of `-f line`: `text`, then the count when there is one. Written as bytes: a
/// formatted string per puzzle cost as much as solving an easy one.
fn write_line(out: &mut impl Write, text: &[u8], count: Option<usize>) -> io::Result<()> {
    out.write_all(text)?;
    if let Some(n) = count {
        write!(out, " {n}")?;
    }
    out.write_all(b"\n")
}

/// A board as the 81 bytes of [`text::to_line`], without building a `String`.
fn line_bytes(board: &Board) -> [u8; 81] {
    board
        .to_bytes()
        .map(|digit| if digit == 0 { b'.' } else { b'0' + digit })
}

/// Calls `each` with the boards a report prints: every solution for `--all`, else the one
/// solution if any. Returns whether there was one.
fn each_board(r: &Report, mut each: impl FnMut(&Board) -> io::Result<()>) -> io::Result<bool> {
    if let Some(all) = &r.all {
        let listed = each_solution(&all.board, all.limit, each)?;
        return Ok(listed.is_ok_and(|count| count > 0));
    }
    match &r.solution {
        Some(board) => each(board).map(|()| true),
        None => Ok(false),
    }
}

/// The `all` field: every solution of `board` up to `limit`, found again while the JSON is
/// written, so the array never has to be held in memory.
struct AllSolutions {
    board: Board,
    limit: usize,
}

impl Serialize for AllSolutions {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let mut seq = s.serialize_seq(None)?;
        each_solution(&self.board, self.limit, |b| {
            seq.serialize_element(&text::to_line(b))
        })?
        .map_err(serde::ser::Error::custom)?;
        seq.end()
    }
}
