//! How games in progress are read and checked (issue 59): photos of newspaper sudokus with the
//! player's pen or pencil in them, read in check mode (`--check`), as BENCHMARKS.md quotes them.
//!
//! `cargo run --release --example games -- [--part P] [--templates DIR] [--failures FILE] DIR...`
//!
//! Two kinds of truth beside each `NAME.jpg`, told apart by their first line:
//! - `games-pen` style: line 1 the printed givens, line 2 the solution, line 3 the player's
//!   entries (`.` where none or where a given is printed);
//! - `games-pencil` style: one line of what is written in each cell, printed or by hand alike
//!   (a digit, `.` empty, `+` pencil marks only).
//!
//! Each folder is split by puzzle into a part to tune on and a part only to validate on (see
//! `common/split.rs`). `--part` scores one part (`tune`, its folds `tune1` or `tune2`, or
//! `validate`); tune and validate by default. `--templates DIR` adds the templates of `DIR`
//! as the command line's option does.
//!
//! Columns: photos; cells right (a cell is right when the digit read there, as a given or an
//! entry, is the digit written, and no digit is read where none is written or only pencil
//! marks are); givens read exactly (pen style); entries read right (pen style: the entry
//! cells whose entry is read as written); checked (status `solved`, so the check ran);
//! "all right" verdicts (the check ran and named no wrong entry and none not read surely, on
//! games whose entries are all right); false alarms (entries written as the solution's digit
//! that the check called wrong); unsure (entries the check said it could not read surely); wrong answers (a solution trusted that is not the puzzle's); the slowest photo,
//! in seconds, as read on the pool beside the others.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

use rayon::prelude::*;
use sudoku_snap::{Board, Digit, Mode, Options, Pos, Report, Snap, Status};

#[path = "common/split.rs"]
mod split;

/// What is known of one photo.
struct Truth {
    image: PathBuf,
    kind: Kind,
}

enum Kind {
    /// Givens, solution and entries (every entry of these games is right).
    Pen {
        givens: Board,
        solution: Board,
        entries: Board,
    },
    /// What is written in each cell: a digit, or `None` for an empty cell or pencil marks.
    Pencil { written: [Option<Digit>; 81] },
}

#[derive(Default, Clone, Copy)]
struct Score {
    photos: usize,
    cells_right: usize,
    pen_photos: usize,
    givens_exact: usize,
    entry_cells: usize,
    entries_right: usize,
    checked: usize,
    all_right_games: usize,
    all_right: usize,
    false_alarms: usize,
    false_alarm_photos: usize,
    unsure: usize,
    wrong_answers: usize,
    slowest: f64,
}

impl Score {
    fn add(&mut self, o: &Score) {
        self.photos += o.photos;
        self.cells_right += o.cells_right;
        self.pen_photos += o.pen_photos;
        self.givens_exact += o.givens_exact;
        self.entry_cells += o.entry_cells;
        self.entries_right += o.entries_right;
        self.checked += o.checked;
        self.all_right_games += o.all_right_games;
        self.all_right += o.all_right;
        self.false_alarms += o.false_alarms;
        self.false_alarm_photos += o.false_alarm_photos;
        self.unsure += o.unsure;
        self.wrong_answers += o.wrong_answers;
        self.slowest = self.slowest.max(o.slowest);
    }
}

/// Whether the photo is in `part` ("tune", "tune1", "tune2" or "validate"; see the split).
fn in_part(image: &Path, first_line: &str, pencil: bool, part: &str) -> bool {
    let of = split::part_of(image, first_line, pencil);
    match part {
        "validate" => of == 0,
        "tune" => of != 0,
        "tune1" => of == 1,
        "tune2" => of == 2,
        _ => unreachable!("parts are checked when the arguments are"),
    }
}

fn written_cells(line: &str) -> Option<[Option<Digit>; 81]> {
    let chars: Vec<char> = line.chars().collect();
    if chars.len() != 81 {
        return None;
    }
    let mut out = [None; 81];
    for (cell, c) in out.iter_mut().zip(chars) {
        *cell = c.to_digit(10).and_then(|d| Digit::new(d as u8));
    }
    Some(out)
}

/// The photos with truth in `dir` that belong to `part` (`None`: both), sorted by name.
fn truths(dir: &Path, part: Option<&str>) -> Vec<Truth> {
    split::photos_in(dir)
        .into_iter()
        .filter_map(|image| {
            let text = std::fs::read_to_string(image.with_extension("txt")).ok()?;
            let lines: Vec<&str> = text.lines().map(str::trim).collect();
            let first = *lines.first()?;
            let pencil = split::is_pencil_style(&lines);
            if let Some(part) = part {
                if !in_part(&image, first, pencil, part) {
                    return None;
                }
            }
            let kind = if pencil {
                Kind::Pencil {
                    written: written_cells(first)?,
                }
            } else {
                Kind::Pen {
                    givens: first.parse().ok()?,
                    solution: lines.get(1)?.parse().ok()?,
                    entries: lines.get(2)?.parse().ok()?,
                }
            };
            Some(Truth { image, kind })
        })
        .collect()
}

/// The digit read at `p`, as a given or an entry.
fn read_at(report: &Report, p: Pos) -> Option<Digit> {
    let given = report.givens.as_ref().and_then(|b| b.get(p));
    given.or_else(|| report.entries.as_ref().and_then(|b| b.get(p)))
}

fn score(snap: &Snap, t: &Truth) -> (Score, Option<String>) {
    let started = Instant::now();
    let report = snap.process(&t.image, None);
    let mut s = Score {
        photos: 1,
        slowest: started.elapsed().as_secs_f64(),
        ..Score::default()
    };
    let mut notes = String::new();
    let checked = report.status == Status::Solved;
    s.checked = usize::from(checked);
    let trusted = report.solution.as_ref();
    let alarms = |right: &dyn Fn(Pos, Digit) -> bool| {
        (report.wrong_entries.iter())
            .filter(|w| right(w.cell, w.entered))
            .count()
    };
    match &t.kind {
        Kind::Pen {
            givens,
            solution,
            entries,
        } => {
            s.pen_photos = 1;
            let read = report.givens.unwrap_or_default();
            s.givens_exact = usize::from(read == *givens);
            for p in Pos::all() {
                let written = givens.get(p).or_else(|| entries.get(p));
                s.cells_right += usize::from(read_at(&report, p) == written);
                if let Some(e) = entries.get(p) {
                    s.entry_cells += 1;
                    let got = report.entries.as_ref().and_then(|b| b.get(p));
                    s.entries_right += usize::from(got == Some(e));
                }
            }
            s.all_right_games = 1;
            s.false_alarms = alarms(&|cell, _| entries.get(cell) == solution.get(cell));
            s.wrong_answers = usize::from(trusted.is_some_and(|b| b != solution));
            if read != *givens {
                let _ = write!(notes, " givens differ");
            }
        }
        Kind::Pencil { written } => {
            for p in Pos::all() {
                s.cells_right += usize::from(read_at(&report, p) == written[p.index()]);
            }
            let full: Option<Board> = written
                .iter()
                .all(Option::is_some)
                .then(|| {
                    written
                        .iter()
                        .map(|d| d.map_or('.', |d| d.to_char()))
                        .collect::<String>()
                })
                .and_then(|line| line.parse().ok());
            let all_right = full.filter(|b| b.is_full() && b.first_conflict().is_none());
            s.all_right_games = usize::from(all_right.is_some());
            s.false_alarms =
                alarms(&|cell, _| written[cell.index()] == trusted.and_then(|b| b.get(cell)));
            s.wrong_answers =
                usize::from(all_right.is_some_and(|truth| trusted.is_some_and(|b| *b != truth)));
        }
    }
    s.unsure = report.unreadable_entries.len();
    let verdict_right =
        checked && report.wrong_entries.is_empty() && report.unreadable_entries.is_empty();
    s.all_right = usize::from(s.all_right_games == 1 && verdict_right);
    s.false_alarm_photos = usize::from(s.false_alarms > 0);
    let failed =
        s.false_alarms > 0 || s.wrong_answers > 0 || (s.all_right_games == 1 && !verdict_right);
    let line = failed.then(|| {
        format!(
            "{}\t{:?}\t{} false alarms{}{}",
            t.image.display(),
            report.status,
            s.false_alarms,
            if s.wrong_answers > 0 {
                "\tWRONG ANSWER"
            } else {
                ""
            },
            notes
        )
    });
    (s, line)
}

fn pct(a: usize, b: usize) -> String {
    if b == 0 {
        "-".into()
    } else {
        format!("{:.1}%", 100.0 * a as f64 / b as f64)
    }
}

fn row(name: &str, s: &Score) {
    println!(
        "{name:<52} {:>6} {:>15} {:>11} {:>18} {:>11} {:>13} {:>12} {:>8} {:>6} {:>7.2}",
        s.photos,
        pct(s.cells_right, s.photos * 81),
        format!("{} {}", s.givens_exact, pct(s.givens_exact, s.pen_photos)),
        format!(
            "{}/{} {}",
            s.entries_right,
            s.entry_cells,
            pct(s.entries_right, s.entry_cells)
        ),
        s.checked,
        format!(
            "{}/{} {}",
            s.all_right,
            s.all_right_games,
            pct(s.all_right, s.all_right_games)
        ),
        format!("{} in {}", s.false_alarms, s.false_alarm_photos),
        s.unsure,
        s.wrong_answers,
        s.slowest,
    );
}

fn main() {
    let mut dirs = Vec::new();
    let mut part = None;
    let mut failures_path = None;
    let mut templates_dir = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--part" => part = Some(args.next().expect("--part tune|validate")),
            "--failures" => failures_path = Some(args.next().expect("--failures FILE")),
            "--templates" => {
                templates_dir = Some(PathBuf::from(args.next().expect("--templates DIR")))
            }
            _ => dirs.push(a),
        }
    }
    assert!(
        part.as_deref()
            .is_none_or(|p| ["tune", "tune1", "tune2", "validate"].contains(&p)),
        "--part is tune, tune1, tune2 or validate"
    );
    let options = Options {
        mode: Mode::Check,
        templates_dir,
        ..Options::default()
    };
    let snap = Snap::new(options).expect("templates load");
    println!(
        "{:<52} {:>6} {:>15} {:>11} {:>18} {:>11} {:>13} {:>12} {:>8} {:>6} {:>7}",
        "set",
        "photos",
        "cells right",
        "givens",
        "entries right",
        "checked",
        "all right",
        "false alarms",
        "unsure",
        "wrong",
        "slowest"
    );
    let mut failures = Vec::new();
    let mut all = Score::default();
    let parts: Vec<&str> = part
        .as_deref()
        .map_or(vec!["tune", "validate"], |p| vec![p]);
    for dir in &dirs {
        for &p in &parts {
            let set = truths(Path::new(dir), Some(p));
            let results: Vec<(Score, Option<String>)> =
                set.par_iter().map(|t| score(&snap, t)).collect();
            let mut s = Score::default();
            for (r, line) in results {
                s.add(&r);
                failures.extend(line);
            }
            row(&format!("{dir} [{p}]"), &s);
            all.add(&s);
        }
    }
    if dirs.len() * parts.len() > 1 {
        row("all", &all);
    }
    if let Some(path) = failures_path {
        let mut text = failures.join("\n");
        text.push('\n');
        std::fs::write(&path, text).unwrap_or_else(|e| panic!("{path}: {e}"));
        eprintln!(
            "{} photos with a false alarm, a wrong answer or no verdict: {path}",
            failures.len()
        );
    }
}
