//! Which files of a template set are templates, and of which digit: `<digit>.png`, or
//! `<digit>-<anything>.png` where a set holds several glyphs of one digit (a writer's hand
//! varies from glyph to glyph, so every glyph of theirs is kept). Plain `std` only: the
//! build script includes this file too.

use std::path::{Path, PathBuf};

/// The digit a template file's name says it shows, if it names one: `7.png`, `7-3.png`.
pub fn digit_of(file: &Path) -> Option<u8> {
    if file.extension()? != "png" {
        return None;
    }
    let stem = file.file_stem()?.to_str()?;
    let (digit, rest) = stem.split_at_checked(1)?;
    let digit: u8 = digit.parse().ok().filter(|d| (1..=9).contains(d))?;
    (rest.is_empty() || rest.starts_with('-')).then_some(digit)
}

/// The template files in `set`, each with its digit, sorted by name (so the templates' order,
/// and with it every tie between equal scores, does not depend on the file system's).
pub fn in_set(set: &Path) -> std::io::Result<Vec<(PathBuf, u8)>> {
    let mut files: Vec<(PathBuf, u8)> = std::fs::read_dir(set)?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .filter_map(|p| digit_of(&p).map(|d| (p, d)))
        .collect();
    files.sort();
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_template_file_names_its_digit_alone_or_before_a_dash() {
        let digit = |name: &str| digit_of(Path::new(name));
        assert_eq!(digit("7.png"), Some(7));
        assert_eq!(digit("set/7-12.png"), Some(7));
        assert_eq!(digit("0.png"), None, "no digit 0");
        assert_eq!(digit("72.png"), None, "not a digit and a dash");
        assert_eq!(digit("7.jpg"), None);
        assert_eq!(digit("LICENSE"), None);
        assert_eq!(digit("é.png"), None, "a name not cut inside a character");
    }
}
