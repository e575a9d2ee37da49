//! Recognition accuracy on folders of screenshots with ground truth, as written in
//! BENCHMARKS.md and bench/screens/README.md.
//!
//! Beside each picture `NAME.png|jpg|webp`, `NAME.txt`: line 1 the printed givens (81 chars,
//! `.` empty); line 2, when there, the full solution; line 3, when there, the player's entries
//! (`.` where none; a wrong entry as drawn); a line `ambiguous` when the givens have more than
//! one solution (then nothing should be drawn).
//!
//! A folder of pictures is scored as one set; a folder whose subfolders hold pictures (such as
//! `target/screens/validate/{phone,web,...}`) is scored per subfolder plus a total.
//!
//! `cargo run --release --example accuracy -- [--failures FILE] [--templates DIR] DIR...`
//!
//! Columns: pictures; cells whose given (or emptiness) is read right; grids whose givens are
//! read exactly; entry cells read right (pictures with entries only); solved (status `Solved`);
//! wrong answers drawn (status `Solved` but the solution differs from line 2, or the givens
//! are ambiguous); no grid found. `--failures FILE` writes one line per picture not read
//! exactly: path, status, and the cells that differ (`r3c5 read 8 truth 3`).
//!
//! `--fonts bench/screens/fonts.csv` also scores each folder by the traits of the font each
//! picture was rendered in (its category, width and figures, as the screenshot benchmark
//! names them: `0123-font-family.png`), so a weakness shared by a kind of face shows
//! even when no one family is large enough to tell.
//!
//! `--by-app` also scores a folder of real screenshots (`../shared/data/screens-real`,
//! `NNN-app.png`) per app and per part: split by app into a part to tune on and a part only
//! to validate on (`common/split.rs`), so no app is in both.
//!
//! `--templates DIR` matches against `DIR/<face>/<digit>.png` besides the bundled templates,
//! as the tool's own `--templates` does: a face can be scored before it is bundled, with no
//! rebuild (the features made at run time equal those the build script makes).

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use sudoku_snap::{Board, Options, Pos, Snap, Status};

#[path = "common/split.rs"]
#[allow(dead_code)]
mod split;

/// The ground truth of one picture.
struct Truth {
    image: PathBuf,
    givens: Board,
    solution: Option<Board>,
    entries: Option<Board>,
    ambiguous: bool,
}

/// One picture's score.
#[derive(Default, Clone, Copy)]
struct Score {
    images: usize,
    cells: usize,
    exact: usize,
    entry_cells: usize,
    entry_right: usize,
    solved: usize,
    wrong_drawn: usize,
    no_grid: usize,
}

impl Score {
    fn add(&mut self, o: &Score) {
        self.images += o.images;
        self.cells += o.cells;
        self.exact += o.exact;
        self.entry_cells += o.entry_cells;
        self.entry_right += o.entry_right;
        self.solved += o.solved;
        self.wrong_drawn += o.wrong_drawn;
        self.no_grid += o.no_grid;
    }
}

fn is_image(p: &Path) -> bool {
    p.extension().and_then(|e| e.to_str()).is_some_and(|e| {
        matches!(
            e.to_ascii_lowercase().as_str(),
            "png" | "jpg" | "jpeg" | "webp" | "bmp" | "gif"
        )
    })
}

/// The pictures with ground truth directly in `dir`, sorted by path.
fn truth(dir: &Path) -> Vec<Truth> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .filter_map(|txt| {
            let image = files
                .iter()
                .find(|p| p.file_stem() == txt.file_stem() && is_image(p))?;
            let text = std::fs::read_to_string(txt).ok()?;
            let mut lines = text.lines().map(str::trim);
            let givens: Board = lines.next()?.parse().ok()?;
            let solution = lines.next().and_then(|l| l.parse().ok());
            let entries = lines.next().and_then(|l| l.parse().ok());
            let ambiguous = text.lines().any(|l| l.trim() == "ambiguous");
            Some(Truth {
                image: image.clone(),
                givens,
                solution,
                entries,
                ambiguous,
            })
        })
        .collect()
}

/// The font family's slug in a benchmark picture's name (`0123-font-family.png`).
fn family_slug(image: &Path) -> Option<String> {
    let stem = image.file_stem()?.to_str()?;
    let (number, slug) = stem.split_once('-')?;
    number
        .bytes()
        .all(|b| b.is_ascii_digit())
        .then(|| slug.to_string())
}

/// Each family's traits from the screenshot benchmark's font list (`bench/screens/fonts.csv`:
/// family, source, category, width, figures, ...), keyed by its slug as the renderer names
/// pictures: lower case, every other character a `-`.
fn font_traits(path: &str) -> HashMap<String, Vec<String>> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .skip(1)
        .filter_map(|line| {
            let fields: Vec<&str> = line.split(',').collect();
            let [family, _source, category, width, figures, ..] = fields[..] else {
                return None;
            };
            let slug: String = (family.to_lowercase().chars())
                .map(|c| if c.is_alphanumeric() { c } else { '-' })
                .collect();
            let traits = vec![
                format!("category {category}"),
                format!("width {width}"),
                format!("figures {figures}"),
            ];
            Some((slug, traits))
        })
        .collect()
}

fn digit(b: &Board, p: Pos) -> char {
    b.get(p).map_or('.', |d| d.to_char())
}

/// Scores one picture; the failure line when it was not read exactly.
fn score(snap: &Snap, t: &Truth) -> (Score, Option<String>) {
    let report = snap.process(&t.image, None);
    let read = report.givens.unwrap_or_default();
    let read_entries = report.entries.unwrap_or_default();
    let mut s = Score {
        images: 1,
        ..Score::default()
    };
    let mut diffs = String::new();
    for p in Pos::all() {
        if read.get(p) == t.givens.get(p) {
            s.cells += 1;
        } else {
            let _ = write!(
                diffs,
                " {p} read {} truth {}",
                digit(&read, p),
                digit(&t.givens, p)
            );
            if read_entries.get(p).is_some() && read.get(p).is_none() {
                let _ = write!(diffs, " (read as entry {})", digit(&read_entries, p));
            }
            diffs.push(';');
        }
        if let Some(entries) = &t.entries {
            if t.givens.get(p).is_none()
                && (entries.get(p).is_some() || read_entries.get(p).is_some())
            {
                if entries.get(p).is_some() {
                    s.entry_cells += 1;
                }
                if read_entries.get(p) == entries.get(p) {
                    s.entry_right += 1;
                } else {
                    let _ = write!(
                        diffs,
                        " {p} entry read {} truth {};",
                        digit(&read_entries, p),
                        digit(entries, p)
                    );
                }
            }
        }
    }
    s.exact = usize::from(s.cells == 81);
    s.solved = usize::from(report.status == Status::Solved);
    s.no_grid = usize::from(report.status == Status::NoGrid);
    let wrong = report.status == Status::Solved
        && (t.ambiguous
            || t.solution
                .is_some_and(|truth| report.solution != Some(truth)));
    s.wrong_drawn = usize::from(wrong);
    let failed = !diffs.is_empty() || wrong || (report.status != Status::Solved && !t.ambiguous);
    let line = failed.then(|| {
        let mut line = format!("{}\t{:?}", t.image.display(), report.status);
        if wrong {
            line.push_str("\tWRONG ANSWER DRAWN");
        }
        if t.ambiguous {
            line.push_str("\t(ambiguous givens)");
        }
        if diffs.is_empty() {
            line.push_str("\tall cells read right");
        } else {
            let n = diffs.matches(';').count();
            let _ = write!(line, "\t{n} cells differ:{}", diffs.trim_end_matches(';'));
        }
        line
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
        "{name:<44} {:>6} {:>17} {:>7} {:>13} {:>15} {:>14} {:>14} {:>7}",
        s.images,
        format!("{}/{}", s.cells, s.images * 81),
        pct(s.cells, s.images * 81),
        format!("{} {}", s.exact, pct(s.exact, s.images)),
        format!(
            "{}/{} {}",
            s.entry_right,
            s.entry_cells,
            pct(s.entry_right, s.entry_cells)
        ),
        format!("{} {}", s.solved, pct(s.solved, s.images)),
        s.wrong_drawn,
        s.no_grid,
    );
}

fn main() {
    let mut dirs = Vec::new();
    let mut failures_path = None;
    let mut fonts = None;
    let mut templates_dir = None;
    let mut by_app = false;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--by-app" {
            by_app = true;
        } else if a == "--fonts" {
            fonts = Some(font_traits(&args.next().expect("--fonts FILE")));
        } else if a == "--templates" {
            templates_dir = Some(PathBuf::from(args.next().expect("--templates DIR")));
        } else if a == "--failures" {
            failures_path = Some(args.next().expect("--failures FILE"));
        } else if let Some(f) = a.strip_prefix("--failures=") {
            failures_path = Some(f.to_string());
        } else {
            dirs.push(a);
        }
    }
    let options = Options {
        templates_dir,
        ..Options::default()
    };
    let snap = Snap::new(options).expect("templates load");
    let mut failures = Vec::new();
    let mut grand = Score::default();
    let mut sets = 0;
    println!(
        "{:<44} {:>6} {:>17} {:>7} {:>13} {:>15} {:>14} {:>14} {:>7}",
        "set",
        "images",
        "cells right",
        "",
        "givens exact",
        "entries right",
        "solved",
        "wrong answers",
        "no grid"
    );
    for dir in &dirs {
        let dir_path = Path::new(dir);
        let mut subdirs: Vec<PathBuf> = std::fs::read_dir(dir_path)
            .unwrap_or_else(|e| panic!("{dir}: {e}"))
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.is_dir() && !truth(p).is_empty())
            .collect();
        subdirs.sort();
        let flat = truth(dir_path);
        let mut parts: Vec<(String, Vec<Truth>)> = Vec::new();
        if !flat.is_empty() || subdirs.is_empty() {
            parts.push((dir.clone(), flat));
        }
        for sub in &subdirs {
            parts.push((sub.display().to_string(), truth(sub)));
        }
        let mut total = Score::default();
        let mut by_trait: BTreeMap<String, Score> = BTreeMap::new();
        for (name, set) in &parts {
            let results: Vec<(Score, Option<String>)> =
                set.par_iter().map(|t| score(&snap, t)).collect();
            let mut s = Score::default();
            for (t, (r, line)) in set.iter().zip(results) {
                s.add(&r);
                failures.extend(line);
                let traits = fonts.as_ref().and_then(|f| f.get(&family_slug(&t.image)?));
                for trait_ in traits.into_iter().flatten() {
                    by_trait.entry(trait_.clone()).or_default().add(&r);
                }
                if let Some((app, part)) = by_app.then(|| split::app_part(&t.image)).flatten() {
                    by_trait
                        .entry(format!("{part}: {app}"))
                        .or_default()
                        .add(&r);
                    by_trait
                        .entry(format!("{part} (total)"))
                        .or_default()
                        .add(&r);
                }
            }
            row(name, &s);
            total.add(&s);
        }
        if parts.len() > 1 {
            row(&format!("{dir} (total)"), &total);
        }
        for (trait_, s) in &by_trait {
            row(&format!("{dir} [{trait_}]"), s);
        }
        grand.add(&total);
        sets += 1;
    }
    if sets > 1 {
        row("all", &grand);
    }
    if let Some(path) = failures_path {
        let mut text = failures.join("\n");
        text.push('\n');
        std::fs::write(&path, text).unwrap_or_else(|e| panic!("{path}: {e}"));
        eprintln!("{} pictures not read exactly: {path}", failures.len());
    }
}
