//! How the games photos are split into a part to tune on and a part only to validate on,
//! shared by the examples that score them (`games`) and cut templates from them
//! (`cut_hand`): no puzzle, and so no writer (who filled in all photos of one puzzle), is
//! in both parts. A puzzle is in the validation part when the FNV-1a hash of its key is
//! divisible by 3; the key is the truth's givens line, or for the pencil style (whose truth
//! does not tell givens from entries) the name's `MM_DD` prefix, which names the puzzle.
//! Within the tuning part, the remainder 1 or 2 names a fold, so that a change can be tuned
//! on one fold and checked on the other before the validation part is looked at.

use std::path::{Path, PathBuf};

/// The JPEG photos of `dir`, sorted by name.
#[allow(dead_code)]
pub fn photos_in(dir: &Path) -> Vec<PathBuf> {
    let mut images: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("jpg")))
        .collect();
    images.sort();
    images
}

/// FNV-1a, 64 bits.
pub fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The app a real screenshot shows (`../shared/data/screens-real`: `NNN-app.png`, the app's
/// slug after the number) and its part, split by app as the games are by puzzle: "validate"
/// when the FNV-1a hash of the slug is divisible by 3, else "tune".
#[allow(dead_code)]
pub fn app_part(image: &Path) -> Option<(String, &'static str)> {
    let stem = image.file_stem()?.to_str()?;
    let (_, app) = stem.split_once('-')?;
    let part = if fnv1a(app).is_multiple_of(3) {
        "validate"
    } else {
        "tune"
    };
    Some((app.to_string(), part))
}

/// The photo's part: 0 for the validation part, 1 or 2 for the tuning part's two folds.
/// `first_line` is its truth's first line; `pencil` whether the truth is the pencil style.
pub fn part_of(image: &Path, first_line: &str, pencil: bool) -> u64 {
    let name = image
        .file_name()
        .map_or(String::new(), |n| n.to_string_lossy().into_owned());
    let key = if pencil {
        name.get(..5).unwrap_or(&name)
    } else {
        first_line
    };
    fnv1a(key) % 3
}

/// Whether a truth's lines are the pencil style: one line, `+` for cells of candidates.
pub fn is_pencil_style(lines: &[&str]) -> bool {
    lines.first().is_some_and(|l| l.contains('+')) || lines.len() == 1
}
