//! Issue 59: games in progress, one photo per cause (`tests/data/games/`, from the tune part of
//! `../shared/data/photos/games-pen`): the printed givens read exactly beside the player's pen,
//! and the player's entries called wrong only when surely so.

use std::path::{Path, PathBuf};

use image::{Rgb, RgbImage};
use sudoku_snap::{stages, Board, Digit, Mode, Options, Pos, Snap, Status};

fn photo(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/games")
        .join(name)
}

/// Line 1 of the photo's truth: the printed givens.
fn givens(photo: &Path) -> Board {
    let text = std::fs::read_to_string(photo.with_extension("txt")).unwrap();
    text.lines().next().unwrap().parse().unwrap()
}

#[test]
fn pen_darker_than_the_print_is_not_read_as_the_givens() {
    let photo = photo("pen-darker-than-print.jpg");
    let report = Snap::new(Options::default()).unwrap().process(&photo, None);
    assert_eq!(report.givens, Some(givens(&photo)), "{:?}", report.error);
}

/// Line 3 of the photo's truth: the player's entries, every one right.
fn entries(photo: &Path) -> Board {
    let text = std::fs::read_to_string(photo.with_extension("txt")).unwrap();
    text.lines().nth(2).unwrap().parse().unwrap()
}

fn check(picture: &Path) -> sudoku_snap::Report {
    let options = Options {
        mode: Mode::Check,
        ..Options::default()
    };
    Snap::new(options).unwrap().process(picture, None)
}

#[test]
fn right_entries_the_templates_misread_are_not_called_wrong_but_not_read_surely() {
    let photo = photo("pen-darker-than-print.jpg");
    let report = check(&photo);
    assert_eq!(report.status, Status::Solved, "{:?}", report.error);
    assert_eq!(
        report.wrong_entries,
        [],
        "every entry of this game is right"
    );
    // Those the templates misread are listed as such, each at a cell the player filled.
    let written = entries(&photo);
    assert!(!report.unreadable_entries.is_empty());
    for u in &report.unreadable_entries {
        assert_eq!(written.get(u.cell), report.solution.unwrap().get(u.cell));
        assert_ne!(Some(u.read), written.get(u.cell));
    }
}

#[test]
fn a_handwritten_mistake_is_still_called_wrong() {
    // The player's own `1` (r1c8) copied over their `3` at r3c7: a real mistake in their hand.
    let photo = photo("pen-darker-than-print.jpg");
    let (from, to) = (Pos::new(0, 7).unwrap(), Pos::new(2, 6).unwrap());
    let written = entries(&photo);
    assert_eq!(written.get(from), Digit::new(1));
    assert_eq!(written.get(to), Digit::new(3));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("planted.png");
    planted(&straightened(&photo), from, to)
        .save(&path)
        .unwrap();
    let report = check(&path);
    assert_eq!(report.status, Status::Solved, "{:?}", report.error);
    let wrong: Vec<String> = report.wrong_entries.iter().map(|w| w.to_string()).collect();
    assert_eq!(wrong, ["r3c7: entered 1, should be 3"]);
}

/// The photo's grid straightened (see `stages::rectify`) on a white margin of a cell: a
/// frontal picture of the same game.
fn straightened(photo: &Path) -> RgbImage {
    let rgb = image::open(photo).unwrap().to_rgb8();
    let located = stages::locate(&rgb).unwrap();
    let square = stages::rectify(&rgb, &located.quad).unwrap().image;
    let margin = stages::SIDE / 9;
    let mut out = RgbImage::from_pixel(
        stages::SIDE + 2 * margin,
        stages::SIDE + 2 * margin,
        Rgb([255; 3]),
    );
    image::imageops::replace(&mut out, &square, i64::from(margin), i64::from(margin));
    out
}

/// `square` (see [`straightened`]) with the ink inside cell `from` copied over cell `to`:
/// the player's own glyph of one digit written where another belongs.
fn planted(square: &RgbImage, from: Pos, to: Pos) -> RgbImage {
    let cell = stages::SIDE / 9;
    let inset = cell / 8;
    let corner = |p: Pos| {
        let (row, col) = (p.index() as u32 / 9, p.index() as u32 % 9);
        (cell + col * cell + inset, cell + row * cell + inset)
    };
    let ((fx, fy), (tx, ty)) = (corner(from), corner(to));
    let mut out = square.clone();
    for dy in 0..cell - 2 * inset {
        for dx in 0..cell - 2 * inset {
            out.put_pixel(tx + dx, ty + dy, *square.get_pixel(fx + dx, fy + dy));
        }
    }
    out
}
