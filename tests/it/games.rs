//! Issue 59: games in progress, one photo per cause (`tests/data/games/`, from the tune part of
//! `../shared/data/photos/games-pen`): the printed givens read exactly beside the player's pen.

use std::path::{Path, PathBuf};

use sudoku_snap::{Board, Options, Snap};

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
