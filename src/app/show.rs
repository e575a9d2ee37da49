//! How one screenshot's outcome is shown: the report on stdout in the chosen format, and on
//! stderr what a person needs beside it (why no picture was written, the wrong entries,
//! pencil marks and hints in words, timings). Shared by the single-image, batch and pipe commands.

use std::io::{self, Write};
use std::path::PathBuf;
use sudoku_snap::error::shown;

use sudoku_snap::puzzle::text;
use sudoku_snap::{Error, Report, Status};

use crate::app::Outcome;
use crate::cli::{Format, ImageArgs};

/// An error as the command line tells it. The library says what to do in its own words
/// (the option's field, `max_pixels`); the flag that sets it is added here, after the
/// library's sentence, which stays whole: it is also the report's `error` in JSON.
pub(super) fn error_text(e: &Error) -> String {
    let flag = match e {
        Error::TooLarge { .. } => " (--max-pixels)",
        Error::TooMuchMemory { .. } => " (--max-memory)",
        Error::OutputExists { .. } => " (--overwrite)",
        Error::OutputInsideInput { .. } => ", or pass --allow-inside-input",
        Error::SharedOutput { .. } => " (--suffix)",
        Error::NoImages { .. } => " (-r)",
        _ => "",
    };
    format!("{e}{flag}")
}

/// After a doubtful or clashing reading: how to see why, and how to draw anyway.
pub(super) fn explain_doubt(report: &Report, args: &ImageArgs) {
    if !matches!(
        report.error,
        Some(Error::Doubtful { .. } | Error::Conflict { .. })
    ) {
        return;
    }
    if args.output.is_some() && !args.draw_doubtful {
        crate::err!(
            "note: {}: no picture written; `--debug DIR` shows the cells as read, `--draw-doubtful` draws the answer anyway",
            shown(&report.input)
        );
    }
}

/// A line on stderr for each of the picture's other grids (a page of several puzzles): where
/// it is and how its reading ended, with its answer when trusted outside the check and hint
/// modes (the first grid's answer is on stdout; these are in JSON as `other_grids`); then its
/// entries called wrong, and in the check and hint modes those not read surely, as the first
/// grid's are (see [`explain_marks`]).
pub(super) fn explain_other_grids(report: &Report, args: &ImageArgs) {
    let input = shown(&report.input);
    let warning = if marks_only(args) { "" } else { "warning: " };
    for (k, grid) in report.other_grids.iter().enumerate() {
        let (x, y) = grid.corners[0];
        // A player checking a game is not told the answer, as for the first grid.
        let answer = (grid.solution.filter(|_| !marks_only(args)))
            .map_or_else(String::new, |s| format!(": {s}"));
        let n = k + 2;
        crate::err!(
            "note: {input}: grid {n} (top left at {x:.0}, {y:.0}): {}{answer}",
            grid.status.name()
        );
        for w in &grid.wrong_entries {
            crate::err!("{warning}{input}: grid {n}: {w}");
        }
        if marks_only(args) {
            for u in &grid.unreadable_entries {
                crate::err!("{input}: grid {n}: {u}");
            }
        }
    }
}

/// In check and hint modes, the wrong entries, the pencil marks leaving out their answer and
/// the steps in words on stderr; in solve mode, a warning for each wrong entry.
pub(super) fn explain_marks(report: &Report, args: &ImageArgs) {
    // Only a trusted solution says which entries are wrong (other statuses are explained
    // by their error).
    if report.status != Status::Solved {
        return;
    }
    let input = shown(&report.input);
    if !marks_only(args) {
        // Solving over a player's mistake: the answer is the givens', but the player should
        // know their board disagrees with it.
        for w in &report.wrong_entries {
            crate::err!("warning: {input}: {w}");
        }
        return;
    }
    let entered = report.entries.map_or(0, |e| e.filled_count());
    for w in &report.wrong_entries {
        crate::err!("{input}: {w}");
    }
    for u in &report.unreadable_entries {
        crate::err!("{input}: {u}");
    }
    let unchecked = report.unreadable_entries.len();
    match entered {
        _ if !args.check || !report.wrong_entries.is_empty() => {}
        n if unchecked > 0 => crate::err!(
            "{input}: {} of {n} entries are right, {unchecked} not read surely",
            n - unchecked
        ),
        0 => crate::err!("{input}: no player's entries to check"),
        1 => crate::err!("{input}: the one entry is right"),
        n => crate::err!("{input}: all {n} entries are right"),
    }
    for w in &report.wrong_pencil_marks {
        crate::err!("{input}: {w}");
    }
    if let Some(line) = pencil_summary(report) {
        crate::err!("{input}: {line}");
    }
    for (i, h) in report.hints.iter().enumerate() {
        crate::err!("{input}: hint {}: {h}", i + 1);
    }
    if let Some(n) = args.hint.filter(|&n| report.hints.len() < n as usize) {
        let done = report.solution.is_some_and(|s| {
            report.hints.len() + report.givens.map_or(0, |g| g.filled_count()) + entered
                - report.wrong_entries.len()
                >= s.filled_count()
        });
        match (done, report.hints.len()) {
            (true, 0) => crate::err!("{input}: the grid is full: nothing left to hint"),
            (true, _) => {}
            (false, found) => crate::err!(
                "{input}: {found} of {n} hints: the techniques known here find no further step"
            ),
        }
    }
}

/// How the pencil marks were checked, in words; `None` when the picture has none.
fn pencil_summary(r: &Report) -> Option<String> {
    let (read, unreadable) = (r.pencil_marks_checked, r.pencil_marks_unreadable.len());
    let cells = |n: usize| format!("{n} {}", plural(n, "cell", "cells"));
    let wrong = r.wrong_pencil_marks.len();
    let verdict = match wrong {
        0 => "none leaves out its answer".to_string(),
        1 => "1 leaves out its answer".to_string(),
        n => format!("{n} leave out their answer"),
    };
    match (read, unreadable) {
        (0, 0) => None,
        (0, n) => Some(format!(
            "pencil marks in {} not read surely: not checked",
            cells(n)
        )),
        (read, 0) => Some(format!("pencil marks read in {}: {verdict}", cells(read))),
        (read, n) => Some(format!(
            "pencil marks read in {read} of {} (the rest not read surely): {verdict}",
            cells(read + n)
        )),
    }
}

pub(super) fn print_timings(r: &Report) {
    let t = &r.timings;
    crate::err!(
        "{}: decode {:.1} ms, locate {:.1} ms, rectify {:.1} ms, cells {:.1} ms, recognize {:.1} ms, solve {:.1} ms, render {:.1} ms, encode {:.1} ms, total {:.1} ms",
        shown(&r.input), t.decode, t.locate, t.rectify, t.cells, t.recognize, t.solve, t.render, t.encode, t.total
    );
}

/// Whether results show marks (wrong entries, hints) instead of the solution: `--check` and
/// `--hint` are asked for so as not to spoil the game.
pub(super) fn marks_only(args: &ImageArgs) -> bool {
    args.check || args.hint.is_some()
}

/// Prints one report; with `marks_only`, the solution is left out of pretty and line output
/// (JSON keeps every field).
pub(super) fn print_report(
    out: &mut impl Write,
    r: &Report,
    format: Format,
    marks_only: bool,
) -> io::Result<()> {
    if marks_only && format != Format::Json {
        return print_marks(out, r, format);
    }
    match format {
        Format::Json => super::output::write_json_line(out, r),
        // A solution the reading leaves in doubt is not printed as the answer.
        Format::Line => match &r.solution {
            Some(s) => writeln!(out, "{s}"),
            None => writeln!(out, "{}", r.status),
        },
        Format::Pretty | Format::Csv => {
            writeln!(out, "{}: {}", shown(&r.input), r.status)?;
            if let Some(g) = &r.givens {
                writeln!(out, "givens:\n{}", text::to_pretty(g))?;
            }
            if let Some(e) = r.entries.filter(|e| e.filled_count() > 0) {
                writeln!(out, "player's entries:\n{}", text::to_pretty(&e))?;
            }
            if let Some(s) = &r.solution {
                writeln!(out, "solution:\n{}", text::to_pretty(s))?;
            }
            if let Some(s) = &r.untrusted_solution {
                let s = text::to_pretty(s);
                writeln!(out, "one solution of the reading (not trusted):\n{s}")?;
            }
            if let Some(o) = &r.output {
                writeln!(out, "wrote {}", shown(&PathBuf::from(o)))?;
            }
            Ok(())
        }
    }
}

/// One line of marks: `ok`, or the wrong entries (`r7c5:9>1`), the entries not read surely
/// (`r2c2:4?`), the pencil marks leaving out their answer (`r3c5:[124]>7`) and hints (`r5c5=5`), space-separated; the status word when
/// the solution is not trusted.
pub(super) fn marks_line(r: &Report) -> String {
    if r.status != Status::Solved {
        return r.status.to_string();
    }
    let wrong = r
        .wrong_entries
        .iter()
        .map(|w| format!("{}:{}>{}", w.cell, w.entered, w.should_be));
    let pencil = r.wrong_pencil_marks.iter().map(|w| {
        let marks: String = w.marks.iter().map(|d| d.to_char()).collect();
        format!("{}:[{marks}]>{}", w.cell, w.should_be)
    });
    let unsure = (r.unreadable_entries.iter()).map(|u| format!("{}:{}?", u.cell, u.read));
    let hints = r.hints.iter().map(|h| format!("{}={}", h.cell, h.digit));
    let words: Vec<String> = wrong.chain(unsure).chain(pencil).chain(hints).collect();
    if words.is_empty() {
        "ok".to_string()
    } else {
        words.join(" ")
    }
}

/// `--check`/`--hint` results: line format prints `ok` or the wrong entries (`r7c5:9>1`), the
/// pencil marks leaving out their answer (`r3c5:[124]>7`) and the hints (`r5c5=5`),
/// space-separated; pretty prints the entries and the counts.
fn print_marks(out: &mut impl Write, r: &Report, format: Format) -> io::Result<()> {
    let trusted = r.status == Status::Solved;
    if format == Format::Line {
        return writeln!(out, "{}", marks_line(r));
    }
    writeln!(out, "{}: {}", shown(&r.input), r.status)?;
    if let Some(e) = r.entries.filter(|e| e.filled_count() > 0) {
        writeln!(out, "player's entries:\n{}", text::to_pretty(&e))?;
    }
    // The wrong entries and hints themselves are on stderr, once (see `explain_marks`).
    if trusted {
        let (w, h) = (r.wrong_entries.len(), r.hints.len());
        let p = r.wrong_pencil_marks.len();
        let pencil = if r.pencil_marks_checked > 0 {
            format!(
                ", {p} {} leaving out the answer",
                plural(p, "cell of pencil marks", "cells of pencil marks")
            )
        } else {
            String::new()
        };
        let u = r.unreadable_entries.len();
        let unsure = if u > 0 {
            format!(", {u} not read surely")
        } else {
            String::new()
        };
        writeln!(
            out,
            "{w} wrong {}{unsure}{pencil}, {h} {}",
            plural(w, "entry", "entries"),
            plural(h, "hint", "hints")
        )?;
    }
    if let Some(o) = &r.output {
        writeln!(out, "wrote {}", shown(&PathBuf::from(o)))?;
    }
    Ok(())
}

fn plural<'a>(n: usize, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 {
        one
    } else {
        many
    }
}

/// The exit code one report earns: success when it was solved (or skipped) and, under
/// `--check`, the game holds no mistake (as `rustfmt --check` fails on a file it would change).
pub fn outcome(report: &Report, args: &ImageArgs) -> Outcome {
    if report.status.is_success() && !(args.check && report.found_mistakes()) {
        Outcome::Success
    } else {
        Outcome::SomeFailed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_adds_the_flag_after_the_librarys_whole_sentence() {
        let e = Error::TooLarge {
            path: "big.png".into(),
            width: 20_000,
            height: 10_000,
            limit: 100_000_000,
        };
        let text = error_text(&e);
        // The report's `error` (the library's sentence) stays whole inside the stderr line.
        assert!(text.starts_with(&e.to_string()), "{text}");
        assert!(text.ends_with("(--max-pixels)"), "{text}");
    }
}
