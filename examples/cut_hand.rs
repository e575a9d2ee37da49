//! Cuts handwritten digit templates from the tuning part of the games photos (never from the
//! part validated on; see `common/split.rs`), one set per photo: every glyph the player
//! wrote, since a hand varies from glyph to glyph and the nearest of many glyphs reads it
//! better than one typical glyph per digit (BENCHMARKS.md, "Every glyph of a hand").
//!
//! `cargo run --release --example cut_hand -- OUT [--fold 1|2] DIR...`
//!
//! Writes `OUT/<folder>-<photo>/<digit>-<n>.png`, dark on light, cropped to the glyph, the layout
//! `templates/` and `--templates` read. An entry is a cell the truth says was written by
//! hand: the third line of a `games-pen` truth; for the `games-pencil` style, whose truth
//! does not tell givens from entries, a digit written where the authors step tells the ink
//! apart from the print. A photo whose grid was not found, or found so that the truth's
//! digits mostly fall on empty cells, gives no set.

use std::path::{Path, PathBuf};

use image::GrayImage;
use sudoku_snap::stages::{self, Author, Cells};

#[path = "common/split.rs"]
mod split;

/// The least share of the truth's written cells that must hold a glyph for the grid to be
/// taken as placed right: a grid placed a row off leaves most of them empty.
const PLACED: f32 = 0.8;

/// A photo's truth: each cell's handwritten digit if the truth knows it is handwritten, and
/// which cells hold any digit.
struct Truth {
    hand: [Option<u8>; 81],
    written: [bool; 81],
    /// The pencil style, whose entries are told by the authors step.
    pencil: bool,
}

fn truth(image: &Path) -> Option<(Truth, u64)> {
    let text = std::fs::read_to_string(image.with_extension("txt")).ok()?;
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    let pencil = split::is_pencil_style(&lines);
    let part = split::part_of(image, lines.first()?, pencil);
    let digit = |c: char| c.to_digit(10).map(|d| d as u8).filter(|&d| d > 0);
    let hand_line = if pencil { lines[0] } else { lines.get(2)? };
    let hand: Vec<Option<u8>> = hand_line.chars().map(digit).collect();
    let written: Vec<bool> = if pencil {
        hand.iter().map(Option::is_some).collect()
    } else {
        (lines[0].chars().zip(hand_line.chars()))
            .map(|(g, e)| digit(g).is_some() || digit(e).is_some())
            .collect()
    };
    let truth = Truth {
        hand: hand.try_into().ok()?,
        written: written.try_into().ok()?,
        pencil,
    };
    Some((truth, part))
}

/// The photo's cells, authors told, or `None` when no grid is found.
fn cells_of(image: &Path) -> Option<Cells> {
    let rgb = image::open(image).ok()?.to_rgb8();
    let located = stages::locate(&rgb).ok()?;
    let rect = stages::rectify(&rgb, &located.quad)?;
    let mut cells = stages::slice(&rect, &rgb);
    stages::tell_authors(&mut cells);
    Some(cells)
}

/// The set cut from one photo: every handwritten glyph of it, dark on light, with its digit.
fn cut(image: &Path, truth: &Truth) -> Vec<(u8, GrayImage)> {
    let Some(cells) = cells_of(image) else {
        return Vec::new();
    };
    let written = truth.written.iter().filter(|&&w| w).count();
    let found = (truth.written.iter().zip(&cells.glyphs))
        .filter(|(&w, g)| w && g.is_some())
        .count();
    if (found as f32) < PLACED * written as f32 {
        return Vec::new();
    }
    (truth.hand.iter().zip(&cells.glyphs))
        .filter_map(|(&d, g)| Some((d?, g.as_ref()?)))
        .filter(|(_, g)| !g.outsized && (!truth.pencil || g.author == Author::Entry))
        .map(|(digit, g)| {
            let mut ink = g.ink.clone();
            image::imageops::invert(&mut ink);
            (digit, ink)
        })
        .collect()
}

fn main() {
    let mut args = std::env::args().skip(1);
    let out = PathBuf::from(
        args.next()
            .expect("usage: cut_hand OUT [--fold 1|2] DIR..."),
    );
    let mut fold = None;
    let mut dirs = Vec::new();
    while let Some(a) = args.next() {
        match a.as_str() {
            "--fold" => {
                fold = Some(
                    args.next()
                        .and_then(|f| f.parse::<u64>().ok())
                        .expect("--fold 1|2"),
                )
            }
            _ => dirs.push(PathBuf::from(a)),
        }
    }
    let mut sets = 0;
    for dir in &dirs {
        let folder = dir
            .file_name()
            .map_or(String::new(), |n| n.to_string_lossy().into_owned());
        for image in split::photos_in(dir) {
            let Some((truth, part)) = truth(&image) else {
                continue;
            };
            if part == 0 || fold.is_some_and(|f| f != part) {
                continue;
            }
            let set = cut(&image, &truth);
            if set.is_empty() {
                continue;
            }
            let stem = image
                .file_stem()
                .map_or(String::new(), |n| n.to_string_lossy().into_owned());
            let set_dir = out.join(format!("{folder}-{stem}"));
            std::fs::create_dir_all(&set_dir).expect("OUT is writable");
            let mut written = [0usize; 10];
            for (digit, ink) in set {
                written[usize::from(digit)] += 1;
                let name = format!("{digit}-{}.png", written[usize::from(digit)]);
                ink.save(set_dir.join(name)).expect("OUT is writable");
            }
            sets += 1;
        }
    }
    eprintln!("{sets} sets written to {}", out.display());
}
