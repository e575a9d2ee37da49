//! Issue 60: several grids in one picture, each read, solved and drawn, and reported in JSON.

use std::path::Path;

use image::{Rgb, RgbImage};
use sudoku_snap::{Board, Options, Snap, Status};

/// Lines 1-2 of a sample's truth: givens and solution.
fn truth(sample: &Path) -> (Board, Board) {
    let text = std::fs::read_to_string(sample.with_extension("txt")).unwrap();
    let mut lines = text.lines().map(|l| l.parse().unwrap());
    (lines.next().unwrap(), lines.next().unwrap())
}

/// Two bundled samples side by side on a white page.
fn two_grids(dir: &Path) -> std::path::PathBuf {
    let samples = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples");
    let a = image::open(samples.join("classic-dejavu-light.png"))
        .unwrap()
        .to_rgb8();
    let b = image::open(samples.join("serif-cream.png"))
        .unwrap()
        .to_rgb8();
    let (w, h) = (a.width() + b.width() + 40, a.height().max(b.height()) + 20);
    let mut page = RgbImage::from_pixel(w, h, Rgb([255; 3]));
    image::imageops::replace(&mut page, &a, 10, 10);
    image::imageops::replace(&mut page, &b, i64::from(a.width()) + 30, 10);
    let path = dir.join("two.png");
    page.save(&path).unwrap();
    path
}

#[test]
fn each_grid_of_a_picture_is_read_solved_and_drawn() {
    let dir = tempfile::tempdir().unwrap();
    let picture = two_grids(dir.path());
    let out = dir.path().join("solved.png");
    let snap = Snap::new(Options::default()).unwrap();
    let report = snap.process(&picture, Some(&out));
    assert_eq!(report.status, Status::Solved, "{:?}", report.error);
    assert_eq!(report.other_grids.len(), 1, "{:?}", report.other_grids);
    let other = &report.other_grids[0];
    assert_eq!(other.status, Status::Solved);
    let samples = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples");
    let mut found = vec![
        (report.givens.unwrap(), report.solution.unwrap()),
        (other.givens.unwrap(), other.solution.unwrap()),
    ];
    let mut expected = vec![
        truth(&samples.join("classic-dejavu-light.png")),
        truth(&samples.join("serif-cream.png")),
    ];
    let key = |p: &(Board, Board)| p.0.to_string();
    found.sort_by_key(key);
    expected.sort_by_key(key);
    assert_eq!(found, expected);
    // Both answers are drawn: each half of the picture written reads back as its solution,
    // the givens as printed and the answer as entries.
    let drawn = image::open(&out).unwrap().to_rgb8();
    let half = drawn.width() / 2;
    let read_back: Vec<Board> = [0, half]
        .into_iter()
        .map(|x| {
            let side = image::imageops::crop_imm(&drawn, x, 0, half, drawn.height()).to_image();
            let read = snap.read(&side, Path::new("half.png")).unwrap();
            let mut whole = read.givens;
            for cell in sudoku_snap::Pos::all() {
                if let Some(d) = read.entries.get(cell) {
                    whole.set(cell, Some(d));
                }
            }
            whole
        })
        .collect();
    let mut solutions: Vec<Board> = expected.iter().map(|e| e.1).collect();
    let mut read_back = read_back;
    solutions.sort_by_key(Board::to_string);
    read_back.sort_by_key(Board::to_string);
    assert_eq!(read_back, solutions);
}

#[test]
fn a_picture_of_one_grid_reports_no_other() {
    let samples = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples");
    let snap = Snap::new(Options::default()).unwrap();
    for name in [
        "classic-dejavu-light.png",
        "phone-1170x2532.png",
        "webpage-text.png",
    ] {
        let report = snap.process(&samples.join(name), None);
        assert_eq!(report.status, Status::Solved, "{name}");
        assert!(
            report.other_grids.is_empty(),
            "{name}: {:?}",
            report.other_grids
        );
    }
}

/// Two copies of a game in progress with a wrong entry
/// (`tests/data/reading/entries-wrong-red.png`) side by side, checked: the wrong entry is named
/// in each grid, the second's too, and makes the check find a mistake (exit code 1 on the
/// command line).
#[test]
fn a_wrong_entry_in_any_grid_of_a_picture_is_named() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let game = image::open(root.join("tests/data/reading/entries-wrong-red.png"))
        .unwrap()
        .to_rgb8();
    let (w, h) = (2 * game.width() + 60, game.height() + 20);
    let mut page = RgbImage::from_pixel(w, h, Rgb([255; 3]));
    image::imageops::replace(&mut page, &game, 10, 10);
    image::imageops::replace(&mut page, &game, i64::from(game.width()) + 50, 10);
    let dir = tempfile::tempdir().unwrap();
    let picture = dir.path().join("two-games.png");
    page.save(&picture).unwrap();
    let options = Options {
        mode: sudoku_snap::Mode::Check,
        ..Options::default()
    };
    let report = Snap::new(options).unwrap().process(&picture, None);
    assert_eq!(report.status, Status::Solved, "{:?}", report.error);
    assert_eq!(report.other_grids.len(), 1, "{:?}", report.other_grids);
    let other = &report.other_grids[0];
    assert_eq!(other.status, Status::Solved);
    for wrong in [&report.wrong_entries, &other.wrong_entries] {
        let named: Vec<String> = wrong.iter().map(|w| w.to_string()).collect();
        assert_eq!(named, ["r7c5: entered 9, should be 1"]);
    }
    assert!(report.found_mistakes());
}
