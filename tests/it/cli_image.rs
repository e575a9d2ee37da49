//! The screenshot command: JSON output, `-o` writes, bad inputs end in a clear error naming
//! the file and exit code 1 (never a panic), and the input is never overwritten.

use std::path::{Path, PathBuf};

use super::util::{bomb_png, cmd};

fn sample(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("samples")
        .join(name)
}

fn json_of(output: &[u8]) -> serde_json::Value {
    let text = String::from_utf8_lossy(output);
    serde_json::from_str(text.lines().next().expect("one JSON line")).expect("valid JSON")
}

#[test]
fn json_report_has_the_documented_fields() {
    let assert = cmd()
        .arg(sample("classic-dejavu-light.png"))
        .args(["--format", "json"])
        .assert()
        .success();
    let v = json_of(&assert.get_output().stdout);
    for key in [
        "input",
        "status",
        "givens",
        "solution",
        "entries",
        "corrections",
        "output",
        "error",
        "timings_ms",
    ] {
        assert!(v.get(key).is_some(), "missing {key}: {v}");
    }
    assert_eq!(v["status"], "solved");
    let truth = std::fs::read_to_string(sample("classic-dejavu-light.txt")).unwrap();
    let mut lines = truth.lines();
    assert_eq!(v["givens"], lines.next().unwrap());
    assert_eq!(v["solution"], lines.next().unwrap());
    for stage in [
        "decode",
        "locate",
        "rectify",
        "cells",
        "recognize",
        "solve",
        "render",
        "encode",
        "total",
    ] {
        assert!(v["timings_ms"][stage].is_number(), "{stage}");
    }
}

#[test]
fn output_is_written_and_input_is_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.png");
    std::fs::copy(sample("dark-firacode.png"), &input).unwrap();
    let before = std::fs::read(&input).unwrap();
    let out = dir.path().join("out.jpg");
    cmd()
        .arg(&input)
        .arg("-o")
        .arg(&out)
        .args(["--format", "line"])
        .assert()
        .success();
    assert!(image::open(&out).is_ok());
    assert_eq!(std::fs::read(&input).unwrap(), before);
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty());
}

#[test]
fn output_equal_to_input_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.png");
    std::fs::copy(sample("dark-firacode.png"), &input).unwrap();
    let before = std::fs::read(&input).unwrap();
    // A usage error, before any work.
    let assert = cmd().arg(&input).arg("-o").arg(&input).assert().code(2);
    let err = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert!(err.contains("refusing to overwrite the input"), "{err}");
    assert_eq!(std::fs::read(&input).unwrap(), before);
}

/// Runs the command on `bytes` saved as `name`; checks exit 1, no panic, the file named.
fn rejects(name: &str, bytes: &[u8], expect: &str) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, bytes).unwrap();
    let assert = cmd().arg(&path).args(["--format", "json"]).assert().code(1);
    let out = assert.get_output();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert!(err.contains(name) && err.contains(expect), "{name}: {err}");
    let v = json_of(&out.stdout);
    assert!(v["status"] == "error" || v["status"] == "no_grid", "{v}");
}

#[test]
fn bad_inputs_are_clear_errors() {
    rejects("empty.png", b"", "the file is empty");
    rejects(
        "text.png",
        b"this is not an image at all\n",
        "not a readable image",
    );
    let png = std::fs::read(sample("classic-dejavu-light.png")).unwrap();
    rejects(
        "truncated.png",
        &png[..png.len() / 2],
        "not a readable image",
    );
    let no_grid =
        std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/no-grid.png"))
            .unwrap();
    rejects("no-grid.png", &no_grid, "no sudoku grid found");
}

#[test]
fn a_decompression_bomb_is_refused_before_decoding() {
    rejects("bomb.png", &bomb_png(), "over the limit");
}

#[test]
fn unknown_output_extension_is_an_error_before_work() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.xyz");
    let assert = cmd()
        .arg(sample("dark-firacode.png"))
        .arg("-o")
        .arg(&out)
        .assert()
        .code(2);
    assert!(
        String::from_utf8_lossy(&assert.get_output().stderr).contains("unknown output extension")
    );
    assert!(!out.exists());
}

#[test]
fn extra_templates_are_used_and_bad_ones_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let set = dir.path().join("mine");
    std::fs::create_dir(&set).unwrap();
    let bundled = Path::new(env!("CARGO_MANIFEST_DIR")).join("templates/dejavu-sans");
    for d in 1..=9 {
        std::fs::copy(
            bundled.join(format!("{d}.png")),
            set.join(format!("{d}.png")),
        )
        .unwrap();
    }
    cmd()
        .arg(sample("classic-dejavu-light.png"))
        .arg("--templates")
        .arg(dir.path())
        .assert()
        .success();
    assert_a_bad_template_is_named(dir.path(), &set.join("4.png"));
}

/// Spoils `template` in the templates folder `dir` and asserts that reading a sample with
/// them is a usage error naming the file.
fn assert_a_bad_template_is_named(dir: &Path, template: &Path) {
    std::fs::write(template, b"not a png").unwrap();
    let assert = cmd()
        .arg(sample("classic-dejavu-light.png"))
        .arg("--templates")
        .arg(dir)
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    let name = template.file_name().unwrap().to_string_lossy();
    assert!(err.contains(name.as_ref()), "{err}");
}

#[test]
fn a_templates_folder_of_handwriting_alone_is_used_and_its_bad_ones_named() {
    // DIR/handwritten/<set>/ only: handwriting for the entries, no print set beside it.
    let dir = tempfile::tempdir().unwrap();
    let set = dir.path().join("handwritten/writer");
    std::fs::create_dir_all(&set).unwrap();
    let bundled = Path::new(env!("CARGO_MANIFEST_DIR")).join("templates/dejavu-sans");
    std::fs::copy(bundled.join("4.png"), set.join("4.png")).unwrap();
    let assert = cmd()
        .arg(sample("classic-dejavu-light.png"))
        .args(["-f", "line", "--templates"])
        .arg(dir.path())
        .assert()
        .success();
    let text = std::fs::read_to_string(sample("classic-dejavu-light.txt")).unwrap();
    let solution = text.lines().nth(1).unwrap();
    assert_eq!(
        String::from_utf8_lossy(&assert.get_output().stdout).trim(),
        solution
    );
    assert_a_bad_template_is_named(dir.path(), &set.join("7.png"));
}

#[test]
fn debug_pictures_are_written() {
    let dir = tempfile::tempdir().unwrap();
    cmd()
        .arg(sample("dark-firacode.png"))
        .arg("--debug")
        .arg(dir.path())
        .assert()
        .success();
    for what in ["edges-corners", "rectified", "cells"] {
        let file = dir.path().join(format!("dark-firacode.{what}.png"));
        assert!(image::open(&file).is_ok(), "{} missing", file.display());
    }
    // The cells picture carries a legend strip under the grid (issue 12: readable debug).
    let open =
        |what: &str| image::open(dir.path().join(format!("dark-firacode.{what}.png"))).unwrap();
    let (cells, rectified) = (open("cells"), open("rectified"));
    assert_eq!(cells.width(), rectified.width());
    assert!(
        cells.height() > rectified.height() + 40,
        "a legend below the grid"
    );
}

/// Regression: outputs went through a private (0600) temporary file and kept its mode.
#[cfg(unix)]
#[test]
fn output_gets_ordinary_file_permissions() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.png");
    cmd()
        .arg(sample("dark-firacode.png"))
        .arg("-o")
        .arg(&out)
        .assert()
        .success();
    let mode = std::fs::metadata(&out).unwrap().permissions().mode() & 0o777;
    assert_ne!(mode & 0o044, 0, "output mode {mode:o} is private");
}
