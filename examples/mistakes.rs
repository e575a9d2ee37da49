//! How many real mistakes `--check` catches in a player's own hand: on each `games-pen` photo
//! (every entry of which is right), the grid is straightened and two entries of different
//! digits exchange their glyphs, two mistakes in the writer's own hand (exchanged, not copied,
//! so that no copy of a planted glyph is left in the grid for the writer cue to find); each
//! planted picture is checked on its own. As BENCHMARKS.md quotes it.
//!
//! `cargo run --release --example mistakes -- [--part P] [--per-photo N] DIR...`
//!
//! Columns, counted per planted mistake (two per picture): those checked (the check ran: its
//! givens read and solved); caught (the cell called wrong with the digit planted); not read
//! surely (the cell listed as such: the check then does not say "all right", so the player is
//! warned); missed (the cell taken as right, or called wrong as another digit: a mistake the
//! check let pass or misnamed); false alarms (other right entries called wrong). `--part` is
//! `tune` or `validate` (both by default; see `common/split.rs`), `--per-photo` the exchanges
//! planted per photo (3). The tune part's photos are in the handwritten templates, so only the
//! validate part's figures say how the check does on a new writer.

use std::path::{Path, PathBuf};

use rayon::prelude::*;
use sudoku_snap::{Board, Mode, Options, Pos, Snap, Status};

#[path = "common/plant.rs"]
mod plant;
#[path = "common/split.rs"]
mod split;

/// One photo with its truth.
struct Game {
    image: PathBuf,
    entries: Board,
}

#[derive(Default)]
struct Tally {
    planted: usize,
    checked: usize,
    caught: usize,
    unsure: usize,
    missed: usize,
    false_alarms: usize,
}

impl Tally {
    fn add(&mut self, o: &Tally) {
        self.planted += o.planted;
        self.checked += o.checked;
        self.caught += o.caught;
        self.unsure += o.unsure;
        self.missed += o.missed;
        self.false_alarms += o.false_alarms;
    }
}

/// The pen-style games of `dir` in `part` (0 validate, otherwise tune).
fn games(dir: &Path, validate: bool) -> Vec<Game> {
    split::photos_in(dir)
        .into_iter()
        .filter_map(|image| {
            let text = std::fs::read_to_string(image.with_extension("txt")).ok()?;
            let lines: Vec<&str> = text.lines().map(str::trim).collect();
            if split::is_pencil_style(&lines) {
                return None;
            }
            let of = split::part_of(&image, lines.first()?, false);
            ((of == 0) == validate).then_some(())?;
            Some(Game {
                image,
                entries: lines.get(2)?.parse().ok()?,
            })
        })
        .collect()
}

/// Up to `n` pairs of entry cells to exchange, spread over the entries: an entry and the next
/// entry after it of another digit.
fn plants(entries: &Board, n: usize) -> Vec<(Pos, Pos)> {
    let cells: Vec<Pos> = Pos::all().filter(|&p| entries.get(p).is_some()).collect();
    if cells.len() < 2 {
        return Vec::new();
    }
    (0..n)
        .filter_map(|k| {
            let t = (k * cells.len() / n + cells.len() / (2 * n)) % cells.len();
            let to = cells[t];
            let from = (1..cells.len())
                .map(|step| cells[(t + step) % cells.len()])
                .find(|&f| entries.get(f) != entries.get(to))?;
            Some((from, to))
        })
        .collect()
}

fn tally(snap: &Snap, game: &Game, per_photo: usize, dir: &Path) -> Tally {
    let mut t = Tally::default();
    let Some(square) = plant::straightened(&game.image) else {
        return t;
    };
    let stem = game.image.file_stem().unwrap_or_default().to_string_lossy();
    for (k, (a, b)) in plants(&game.entries, per_photo).into_iter().enumerate() {
        t.planted += 2;
        let path = dir.join(format!("{stem}-{k}.png"));
        plant::exchanged(&square, a, b)
            .save(&path)
            .expect("the temporary folder is writable");
        let report = snap.process(&path, None);
        if report.status != Status::Solved {
            continue;
        }
        t.checked += 2;
        for (cell, entered) in [(a, game.entries.get(b)), (b, game.entries.get(a))] {
            let caught =
                (report.wrong_entries.iter()).any(|w| w.cell == cell && Some(w.entered) == entered);
            let unsure = report.unreadable_entries.iter().any(|u| u.cell == cell);
            t.caught += usize::from(caught);
            t.unsure += usize::from(!caught && unsure);
            t.missed += usize::from(!caught && !unsure);
        }
        // Every other entry of these games is right.
        t.false_alarms += (report.wrong_entries.iter())
            .filter(|w| w.cell != a && w.cell != b)
            .count();
    }
    t
}

fn pct(a: usize, b: usize) -> String {
    if b == 0 {
        "-".into()
    } else {
        format!("{:.1}%", 100.0 * a as f64 / b as f64)
    }
}

fn main() {
    let mut dirs = Vec::new();
    let mut parts = vec!["tune", "validate"];
    let mut per_photo = 3;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--part" => {
                let p = args.next().expect("--part tune|validate");
                parts = vec![if p == "validate" { "validate" } else { "tune" }];
            }
            "--per-photo" => {
                per_photo = (args.next())
                    .and_then(|n| n.parse().ok())
                    .expect("--per-photo N")
            }
            _ => dirs.push(PathBuf::from(a)),
        }
    }
    let options = Options {
        mode: Mode::Check,
        ..Options::default()
    };
    let snap = Snap::new(options).expect("templates load");
    let tmp = tempfile::tempdir().expect("a temporary folder");
    println!(
        "{:<44} {:>8} {:>8} {:>14} {:>16} {:>14} {:>12}",
        "set", "planted", "checked", "caught", "not read surely", "missed", "false alarms"
    );
    for dir in &dirs {
        for &part in &parts {
            let set = games(dir, part == "validate");
            let tallies: Vec<Tally> = (set.par_iter())
                .map(|g| tally(&snap, g, per_photo, tmp.path()))
                .collect();
            let mut t = Tally::default();
            tallies.iter().for_each(|o| t.add(o));
            println!(
                "{:<44} {:>8} {:>8} {:>14} {:>16} {:>14} {:>12}",
                format!("{} [{part}]", dir.display()),
                t.planted,
                t.checked,
                format!("{} {}", t.caught, pct(t.caught, t.checked)),
                format!("{} {}", t.unsure, pct(t.unsure, t.checked)),
                format!("{} {}", t.missed, pct(t.missed, t.checked)),
                t.false_alarms
            );
        }
    }
}
