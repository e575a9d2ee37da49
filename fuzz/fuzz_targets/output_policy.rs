//! Arbitrary bytes -> a suffix and a relative path (as discovery makes them: no `..`, no
//! root) -> `OutputPlan::path_for`. A suffix the policy takes must keep every output inside
//! the output folder, named after the input's stem with the suffix.
#![no_main]

use std::path::{Component, Path, PathBuf};

use libfuzzer_sys::fuzz_target;
use sudoku_snap::batch::OutputPlan;
use sudoku_snap::output;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let (suffix, rel) = text.split_once('\u{0}').unwrap_or((&text, "a.png"));
    let rel: PathBuf = Path::new(rel)
        .components()
        .filter(|c| matches!(c, Component::Normal(_)))
        .collect();
    if rel.file_stem().is_none() || output::check_suffix(suffix).is_err() {
        return;
    }
    let mut plan = OutputPlan::new("out");
    plan.suffix = suffix.to_string();
    let out = plan.path_for(&rel);
    let below = out.strip_prefix("out").expect("inside the output folder");
    assert!(
        below.components().all(|c| matches!(c, Component::Normal(_))),
        "{} leaves the output folder",
        out.display()
    );
    assert_eq!(below.parent(), rel.parent().or(Some(Path::new(""))), "mirrors the folders");
    let name = out.file_name().unwrap().to_string_lossy().into_owned();
    let stem = rel.file_stem().unwrap().to_string_lossy().into_owned();
    assert!(name.starts_with(&format!("{stem}{suffix}.")), "{name}");
});
