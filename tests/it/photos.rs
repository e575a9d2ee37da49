//! Camera photos of newspaper sudokus (`../shared/data/photos/train`, the Wicht-Hennebert data
//! set, CC-BY-4.0): hard kinds read exactly, and no photo is ever drawn with a wrong answer.

use std::path::{Path, PathBuf};

use rayon::prelude::*;
use sudoku_snap::{Board, Options, Snap, Status};

use super::util::shared;

/// The givens and solution of a photo, from `NAME.txt` beside it (line 1 the givens, line 2
/// the solution).
fn truth(photo: &Path) -> (Board, Board) {
    let text = std::fs::read_to_string(photo.with_extension("txt")).unwrap();
    let mut lines = text.lines();
    let mut next = || lines.next().unwrap().parse::<Board>().unwrap();
    (next(), next())
}

#[test]
fn hard_photos_are_read_exactly() {
    let Some(dir) = shared("data/photos/train") else {
        return;
    };
    let hard = [
        // Taken with the phone on its side: every digit lies turned a quarter.
        ("image1038.jpg", "on its side, tops pointing right"),
        ("image1043.jpg", "on its side"),
        // Paper in dim light: the grid's median grey is below the middle, yet its ink is the
        // dark one.
        ("image203.jpg", "dim paper"),
        ("image206.jpg", "dim paper"),
        // Soft print: sharp templates read a blurred 8 as 6 (no solution); matched at the
        // photo's own blur it reads right.
        ("image156.jpg", "soft print"),
        // Blurred, every glyph half-matches a heavy template 1; the five 3s took it from the
        // two 1s while shape groups were weighed by their size.
        ("image93.jpg", "blurred 1s and 3s"),
        // A shadow in an empty cell, stronger than the ink threshold, fainter than print.
        ("image115.jpg", "smudge"),
        // The grid located a little off: thick box lines run down two empty cells.
        ("image161.jpg", "line remnants in empty cells"),
        // The frame's shadow joined to a 7 at the grid's edge, taller than any digit of the
        // font: read without it.
        ("image1014.jpg", "digit joined to a shadow"),
        // Blur makes a 6 as alike the 8s as they are alike each other: one shape group held
        // them all. Kept apart where the templates read them apart, they read right.
        ("image16.jpg", "a blurred 6 grouped with 8s"),
        ("image180.jpg", "a blurred 6 grouped with 8s"),
        // The same, and a 5 read 6 on its own: the second opinion mended cell by cell.
        ("image90.jpg", "a blurred 6 grouped with 8s, and a 5 read 6"),
        // A red 7 washed out in a lit corner: only its bar passed the ink threshold, and a
        // second look at a lower one found the whole digit.
        ("image71.jpg", "a faint corner 7 left only its bar"),
        ("image195.jpg", "a faint corner 7 left only its bar"),
        // Neighbouring print: another sudoku beside the grid, which touches the photo's top
        // edge; columns of text and a title on both sides of a grid on its side.
        (
            "image1040.jpg",
            "grid at the frame's edge, another puzzle beside it",
        ),
        ("image1036.jpg", "text columns beside it"),
    ];
    let snap = Snap::new(Options::default()).unwrap();
    let failures: Vec<String> = hard
        .par_iter()
        .filter_map(|(name, kind)| {
            let photo = dir.join(name);
            let (givens, _) = truth(&photo);
            let report = snap.process(&photo, None);
            (report.givens != Some(givens)).then(|| {
                format!(
                    "{name} ({kind}): read {:?}, {:?}",
                    report.givens, report.status
                )
            })
        })
        .collect();
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn no_photo_is_reported_solved_with_a_wrong_answer() {
    let Some(dir) = shared("data/photos/train") else {
        return;
    };
    let mut photos: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "jpg"))
        .collect();
    photos.sort();
    assert!(
        photos.len() >= 100,
        "{} holds too few photos",
        dir.display()
    );
    let snap = Snap::new(Options::default()).unwrap();
    let wrong: Vec<String> = photos
        .par_iter()
        .filter_map(|photo| {
            let report = snap.process(photo, None);
            let (_, solution) = truth(photo);
            (report.status == Status::Solved && report.solution != Some(solution))
                .then(|| format!("{}: {:?}", photo.display(), report.solution))
        })
        .collect();
    assert!(wrong.is_empty(), "drawn with a wrong answer: {wrong:#?}");
}
