//! `--check` on pencil marks (issue 12): on pictures rendered with their marks in the ground
//! truth (`tests/data/reading/pencil-*`), the marks read equal the truth wherever they are
//! claimed readable, the cells found leaving out their answer are exactly the planted ones,
//! a picture whose marks all include the answer raises no alarm, and each mistake gets a
//! dashed ring, not the solid ring of a wrong entry.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use sudoku_snap::{Board, Options, Pos, Snap};

use super::util::cmd;

fn picture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/reading")
        .join(format!("{name}.png"))
}

/// The truth of a picture: its solution, and each marked cell with its marks as drawn (the
/// line `pencil LAYOUT r1c3:1256 ...`).
fn truth(name: &str) -> (Board, BTreeMap<String, String>) {
    let text = std::fs::read_to_string(picture(name).with_extension("txt")).unwrap();
    let solution = text.lines().nth(1).unwrap().parse().unwrap();
    let line = text.lines().find(|l| l.starts_with("pencil ")).unwrap();
    let marks = (line.split_whitespace().skip(2))
        .map(|m| {
            let (cell, digits) = m.split_once(':').unwrap();
            (cell.to_string(), digits.to_string())
        })
        .collect();
    (solution, marks)
}

/// The cells whose marks as drawn leave out their answer: the planted mistakes.
fn planted(name: &str) -> BTreeMap<String, (String, u8)> {
    let (solution, marks) = truth(name);
    (marks.into_iter())
        .filter_map(|(cell, digits)| {
            let (r, c) = (cell.as_bytes()[1] - b'1', cell.as_bytes()[3] - b'1');
            let answer = solution.get(Pos::new(r.into(), c.into()).unwrap())?;
            (!digits.contains(answer.to_char())).then_some((cell, (digits, answer.get())))
        })
        .collect()
}

/// `--check -f json` on the picture `name`: its report and its stderr. The exit code says
/// whether the check found mistakes (1, as `rustfmt --check`) or none (0).
fn check_json(name: &str) -> (serde_json::Value, String) {
    let out = cmd()
        .arg(picture(name))
        .args(["--check", "-f", "json"])
        .assert();
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    let v: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    let mistakes = v["wrong_pencil_marks"] != serde_json::json!([])
        || v["wrong_entries"] != serde_json::json!([]);
    out.code(i32::from(mistakes));
    (v, stderr)
}

const PICTURES: [&str; 3] = [
    "pencil-grid-mistakes",
    "pencil-row-mistakes",
    "pencil-grid-right",
];

#[test]
fn marks_read_equal_the_truth_where_claimed_readable() {
    let snap = Snap::new(Options::default()).unwrap();
    for name in PICTURES {
        let (_, truth) = truth(name);
        let image = image::open(picture(name)).unwrap().to_rgb8();
        let reading = snap.read(&image, &picture(name)).unwrap();
        let marks = snap.pencil_marks(&image, &reading);
        for m in &marks.read {
            let digits: String = m.digits.iter().map(|d| d.to_char()).collect();
            let want = truth.get(&m.cell.to_string());
            assert_eq!(Some(&digits), want, "{name}: {} ({:?})", m.cell, m.layout);
        }
        // Not vacuous: these clean renderings are read nearly whole.
        let (read, all) = (marks.read.len(), truth.len());
        assert!(read * 4 >= all * 3, "{name}: {read} of {all} cells read");
        let unreadable: Vec<String> = marks.unreadable.iter().map(Pos::to_string).collect();
        assert!(
            unreadable.iter().all(|c| truth.contains_key(c)),
            "{name}: marks found where none are drawn: {unreadable:?}"
        );
    }
}

#[test]
fn check_finds_exactly_the_planted_mistakes_in_words_and_json() {
    for name in ["pencil-grid-mistakes", "pencil-row-mistakes"] {
        let want = planted(name);
        assert!(!want.is_empty(), "{name} has planted mistakes");
        let (v, stderr) = check_json(name);
        let found: BTreeMap<String, (String, u8)> = (v["wrong_pencil_marks"].as_array())
            .unwrap()
            .iter()
            .map(|w| {
                let marks = (w["marks"].as_array().unwrap().iter())
                    .map(|d| d.to_string())
                    .collect::<String>();
                let should_be = w["should_be"].as_u64().unwrap() as u8;
                (w["cell"].as_str().unwrap().to_string(), (marks, should_be))
            })
            .collect();
        assert_eq!(found, want, "{name}");
        for (cell, (marks, answer)) in &want {
            let spaced: Vec<String> = marks.chars().map(String::from).collect();
            let (noun, verb) = if marks.len() == 1 {
                ("pencil mark", "leaves")
            } else {
                ("pencil marks", "leave")
            };
            let line = format!("{cell}: {noun} {} {verb} out {answer}", spaced.join(" "));
            assert!(stderr.contains(&line), "{line} not in {stderr}");
        }
    }
}

#[test]
fn no_alarm_when_every_cells_marks_include_its_answer() {
    let name = "pencil-grid-right";
    assert!(planted(name).is_empty());
    let (v, stderr) = check_json(name);
    assert_eq!(v["wrong_pencil_marks"], serde_json::json!([]));
    assert_eq!(v["pencil_marks_checked"], truth(name).1.len());
    assert!(stderr.contains("none leaves out its answer"), "{stderr}");
    let line = cmd()
        .arg(picture(name))
        .args(["--check", "-f", "line"])
        .assert()
        .success();
    assert_eq!(String::from_utf8_lossy(&line.get_output().stdout), "ok\n");
}

#[test]
fn line_format_names_the_marks_and_the_answer() {
    let name = "pencil-grid-mistakes";
    let out = cmd()
        .arg(picture(name))
        .args(["--check", "-f", "line"])
        .assert()
        .code(1); // mistakes found
    let words: Vec<String> = (planted(name).into_iter())
        .map(|(cell, (marks, answer))| format!("{cell}:[{marks}]>{answer}"))
        .collect();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout);
    assert_eq!(stdout.trim_end(), words.join(" "));
}

#[test]
fn each_mistake_gets_a_dashed_ring_and_nothing_else_is_drawn() {
    let name = "pencil-grid-mistakes";
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("checked.png");
    cmd()
        .arg(picture(name))
        .args(["--check", "-o"])
        .arg(&out)
        .assert()
        .code(1); // mistakes found, and ringed
    let before = image::open(picture(name)).unwrap().to_rgb8();
    let after = image::open(&out).unwrap().to_rgb8();
    let snap = Snap::new(Options::default()).unwrap();
    let reading = snap.read(&before, &picture(name)).unwrap();
    let side = sudoku_snap::stages::SIDE as f32;
    let cell = side / 9.0;
    // Per changed cell, which sixtieths of the circle around its centre hold changed pixels.
    let mut arcs: BTreeMap<String, [bool; 60]> = BTreeMap::new();
    for (x, y, p) in after.enumerate_pixels() {
        if before.get_pixel(x, y) == p {
            continue;
        }
        let (sx, sy) = reading.rectified.projection * (x as f32 + 0.5, y as f32 + 0.5);
        let (row, col) = ((sy / cell) as usize, (sx / cell) as usize);
        let pos = Pos::new(row.min(8), col.min(8)).unwrap();
        let (dx, dy) = (
            sx - (col as f32 + 0.5) * cell,
            sy - (row as f32 + 0.5) * cell,
        );
        let turn = (dy.atan2(dx) / std::f32::consts::TAU).rem_euclid(1.0);
        arcs.entry(pos.to_string()).or_insert([false; 60])[(turn * 60.0) as usize % 60] = true;
    }
    let want: Vec<String> = planted(name).into_keys().collect();
    assert_eq!(arcs.keys().cloned().collect::<Vec<_>>(), want);
    // A solid ring would cover every sixtieth; the dashes leave about half of them.
    for (cell, sixtieths) in &arcs {
        let covered = sixtieths.iter().filter(|&&t| t).count();
        assert!((20..50).contains(&covered), "{cell}: {covered} of 60");
    }
}
