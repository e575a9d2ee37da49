//! Pencil-mark checking (`--check`) scored on folders of screenshots whose ground truth lists
//! the marks as drawn: `NAME.txt` beside each picture, line 2 the solution and a line
//! `pencil LAYOUT r1c3:1256 r4c4:37 ...` (written by `bench/screens/render.py`; see
//! bench/screens/README.md). Pictures without that line count when they are read with marks
//! anyway (any mistake reported there is a false alarm).
//!
//! `cargo run --release --example pencil -- [--failures FILE] DIR...` (folders are searched
//! recursively).
//!
//! Columns, over the pictures solved (only a trusted solution is checked): pictures with
//! marks; marked cells; cells checked (every mark read surely) and of those read exactly as
//! drawn; cells left unread; mistakes drawn (marks leaving out the answer) and of those
//! reported; false alarms (a cell reported whose marks as drawn include its answer), cells and
//! pictures. `--failures FILE` lists every cell checked but read otherwise than drawn, and
//! every false alarm.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use sudoku_snap::{Board, Mode, Options, Snap, Status};

/// One picture's figures, in the order of the columns.
#[derive(Default, Clone, Copy)]
struct Score {
    pictures: usize,
    marked_cells: usize,
    checked: usize,
    exact: usize,
    unread: usize,
    mistakes: usize,
    reported: usize,
    false_alarms: usize,
    false_pictures: usize,
}

impl Score {
    fn add(&mut self, o: &Score) {
        self.pictures += o.pictures;
        self.marked_cells += o.marked_cells;
        self.checked += o.checked;
        self.exact += o.exact;
        self.unread += o.unread;
        self.mistakes += o.mistakes;
        self.reported += o.reported;
        self.false_alarms += o.false_alarms;
        self.false_pictures += o.false_pictures;
    }
}

/// The pictures under `dir` (recursively) with a truth file beside them, sorted.
fn pictures(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    paths.sort();
    for p in paths {
        let ext = p.extension().and_then(|e| e.to_str()).unwrap_or("");
        if p.is_dir() {
            pictures(&p, out);
        } else if matches!(ext, "png" | "jpg") && p.with_extension("txt").is_file() {
            out.push(p);
        }
    }
}

/// The solution and the marks as drawn (cell name -> digits) of a picture's truth.
fn truth(image: &Path) -> Option<(Board, BTreeMap<String, String>)> {
    let text = std::fs::read_to_string(image.with_extension("txt")).ok()?;
    let solution = text.lines().nth(1)?.trim().parse().ok()?;
    let marks = (text.lines().find(|l| l.starts_with("pencil ")))
        .map(|l| {
            (l.split_whitespace().skip(2))
                .filter_map(|m| m.split_once(':'))
                .map(|(c, d)| (c.to_string(), d.to_string()))
                .collect()
        })
        .unwrap_or_default();
    Some((solution, marks))
}

/// Scores one picture; the lines for `--failures`.
fn score(snap: &Snap, path: &Path) -> (Score, Vec<String>) {
    let mut s = Score::default();
    let mut lines = Vec::new();
    let (Some((solution, drawn)), Ok(image)) = (truth(path), image::open(path)) else {
        return (s, lines);
    };
    let image = image.to_rgb8();
    let Ok(reading) = snap.read(&image, path) else {
        return (s, lines);
    };
    let report = snap.process(path, None);
    if report.status != Status::Solved {
        return (s, lines);
    }
    let marks = snap.pencil_marks(&image, &reading);
    let answer = |cell: &str| -> Option<char> {
        let (r, c) = (cell.as_bytes()[1] - b'1', cell.as_bytes()[3] - b'1');
        solution.cells()[usize::from(r) * 9 + usize::from(c)].map(|d| d.to_char())
    };
    s.pictures = usize::from(!drawn.is_empty() || !marks.read.is_empty());
    s.marked_cells = drawn.len();
    s.checked = report.pencil_marks_checked;
    s.unread = report.pencil_marks_unreadable.len();
    for m in &marks.read {
        let read: String = m.digits.iter().map(|d| d.to_char()).collect();
        let want = drawn.get(&m.cell.to_string());
        if want == Some(&read) {
            s.exact += 1;
        } else {
            lines.push(format!(
                "{}\t{} read {read} drawn {}",
                path.display(),
                m.cell,
                want.map_or("nothing", String::as_str)
            ));
        }
    }
    s.mistakes = (drawn.iter())
        .filter(|(cell, d)| answer(cell).is_some_and(|a| !d.contains(a)))
        .count();
    for w in &report.wrong_pencil_marks {
        let cell = w.cell.to_string();
        let real = drawn
            .get(&cell)
            .is_some_and(|d| !d.contains(w.should_be.to_char()));
        if real {
            s.reported += 1;
        } else {
            s.false_alarms += 1;
            lines.push(format!("{}\tFALSE ALARM {w}", path.display()));
        }
    }
    s.false_pictures = usize::from(s.false_alarms > 0);
    (s, lines)
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
        "{name:<36} {:>8} {:>7} {:>15} {:>15} {:>7} {:>17} {:>12}",
        s.pictures,
        s.marked_cells,
        format!("{} {}", s.checked, pct(s.checked, s.marked_cells)),
        format!("{} {}", s.exact, pct(s.exact, s.checked)),
        s.unread,
        format!(
            "{}/{} {}",
            s.reported,
            s.mistakes,
            pct(s.reported, s.mistakes)
        ),
        format!("{} in {}", s.false_alarms, s.false_pictures),
    );
}

fn main() {
    let mut dirs = Vec::new();
    let mut failures_path = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--failures" {
            failures_path = Some(args.next().expect("--failures FILE"));
        } else {
            dirs.push(a);
        }
    }
    let options = Options {
        mode: Mode::Check,
        ..Options::default()
    };
    let snap = Snap::new(options).expect("templates load");
    println!(
        "{:<36} {:>8} {:>7} {:>15} {:>15} {:>7} {:>17} {:>12}",
        "set",
        "pictures",
        "cells",
        "checked",
        "read as drawn",
        "unread",
        "mistakes found",
        "false alarms"
    );
    let mut total = Score::default();
    let mut failures = Vec::new();
    for dir in &dirs {
        let mut paths = Vec::new();
        pictures(Path::new(dir), &mut paths);
        let results: Vec<(Score, Vec<String>)> =
            paths.par_iter().map(|p| score(&snap, p)).collect();
        let mut s = Score::default();
        for (r, lines) in results {
            s.add(&r);
            failures.extend(lines);
        }
        row(dir, &s);
        total.add(&s);
    }
    if dirs.len() > 1 {
        row("(total)", &total);
    }
    if let Some(path) = failures_path {
        std::fs::write(&path, failures.join("\n") + "\n").expect("write failures");
    }
}
