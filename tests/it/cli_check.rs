//! `--check` and `--hint` on a game in progress (issue 12): the wrong entry named in words and
//! JSON and ringed on the picture with nothing else drawn in the grid; hints that agree with
//! the solution, named by technique, drawn only in their own cells.

use std::path::{Path, PathBuf};

use sudoku_snap::{Options, Pos, Snap};

use super::util::cmd;

fn picture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/reading")
        .join(name)
}

/// Line `n` (0-based) of the picture's ground truth: givens, solution, entries as drawn.
fn truth(name: &str, n: usize) -> String {
    let text = std::fs::read_to_string(picture(&format!("{name}.txt"))).unwrap();
    text.lines().nth(n).unwrap().to_string()
}

fn json(stdout: &[u8]) -> serde_json::Value {
    serde_json::from_slice(stdout).expect("one JSON object")
}

/// The cells (in the grid read from `original`) holding pixels that differ in `changed`,
/// with the count of changed pixels outside the grid and their mean colour.
fn changed_cells(original: &Path, changed: &Path) -> (Vec<Pos>, usize, [f64; 3]) {
    let before = image::open(original).unwrap().to_rgb8();
    let after = image::open(changed).unwrap().to_rgb8();
    let snap = Snap::new(Options::default()).unwrap();
    let reading = snap.read(&before, original).unwrap();
    let to_square = reading.rectified.projection;
    let side = sudoku_snap::stages::SIDE as f32;
    let (mut cells, mut outside, mut sum, mut n) = (Vec::new(), 0, [0f64; 3], 0f64);
    // A strip added below the picture (a hint's words) counts outside the grid where it is
    // inked, against its own background: its first pixel.
    let strip = (after.height() > before.height()).then(|| *after.get_pixel(0, before.height()));
    for (x, y, p) in after.enumerate_pixels() {
        if y >= before.height() {
            outside += usize::from(Some(*p) != strip);
            continue;
        }
        if before.get_pixel(x, y) == p {
            continue;
        }
        (0..3).for_each(|c| sum[c] += f64::from(p[c]));
        n += 1.0;
        let (sx, sy) = to_square * (x as f32, y as f32);
        if !(0.0..side).contains(&sx) || !(0.0..side).contains(&sy) {
            outside += 1;
            continue;
        }
        let cell = Pos::new((sy / side * 9.0) as usize, (sx / side * 9.0) as usize).unwrap();
        if !cells.contains(&cell) {
            cells.push(cell);
        }
    }
    (cells, outside, sum.map(|s| s / n.max(1.0)))
}

#[test]
fn check_names_the_wrong_entry_in_words_and_json() {
    let (solution, entries) = (truth("entries-wrong-red", 1), truth("entries-wrong-red", 2));
    let wrong: Vec<usize> = (0..81)
        .filter(|&i| {
            entries.as_bytes()[i] != b'.' && entries.as_bytes()[i] != solution.as_bytes()[i]
        })
        .collect();
    assert_eq!(wrong, [6 * 9 + 4], "the picture's one wrong entry is r7c5");
    let (entered, should) = (
        &entries[wrong[0]..=wrong[0]],
        &solution[wrong[0]..=wrong[0]],
    );
    let out = cmd()
        .arg(picture("entries-wrong-red.png"))
        .args(["--check", "-f", "json"])
        .assert()
        .code(1); // a mistake found: exit 1, as `rustfmt --check`
    let stderr = String::from_utf8_lossy(&out.get_output().stderr);
    assert!(
        stderr.contains(&format!("r7c5: entered {entered}, should be {should}")),
        "{stderr}"
    );
    let v = json(&out.get_output().stdout);
    assert_eq!(
        v["wrong_entries"],
        serde_json::json!([{"cell": "r7c5", "entered": 9, "should_be": 1}])
    );
}

#[test]
fn check_rings_only_the_wrong_entry_in_red() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("checked.png");
    cmd()
        .arg(picture("entries-wrong-red.png"))
        .arg("--check")
        .arg("-o")
        .arg(&out)
        .assert()
        .code(1); // a mistake found, and ringed
    let (cells, outside, mean) = changed_cells(&picture("entries-wrong-red.png"), &out);
    assert_eq!(cells, [Pos::new(6, 4).unwrap()], "only r7c5 is marked");
    assert_eq!(outside, 0, "nothing drawn outside the grid");
    assert!(
        mean[0] > mean[1] + 60.0 && mean[0] > mean[2] + 60.0,
        "red: {mean:?}"
    );
}

#[test]
fn check_with_every_entry_right_says_so_and_marks_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("checked.png");
    let run = cmd()
        .arg(picture("entries-near-colour.png"))
        .args(["--check", "-f", "line", "-o"])
        .arg(&out)
        .assert()
        .success();
    assert_eq!(String::from_utf8_lossy(&run.get_output().stdout), "ok\n");
    let stderr = String::from_utf8_lossy(&run.get_output().stderr);
    assert!(stderr.contains("all 12 entries are right"), "{stderr}");
    let before = image::open(picture("entries-near-colour.png"))
        .unwrap()
        .to_rgb8();
    assert_eq!(image::open(&out).unwrap().to_rgb8(), before);
}

#[test]
fn hints_agree_with_the_solution_and_name_their_technique() {
    let solution = truth("entries-wrong-red", 1);
    let out = cmd()
        .arg(picture("entries-wrong-red.png"))
        .args(["--hint", "3", "-f", "json"])
        .assert()
        .success();
    let v = json(&out.get_output().stdout);
    let hints = v["hints"].as_array().unwrap();
    assert_eq!(hints.len(), 3);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr);
    for (i, h) in hints.iter().enumerate() {
        let cell = h["cell"].as_str().unwrap();
        let (r, c) = (cell.as_bytes()[1] - b'1', cell.as_bytes()[3] - b'1');
        let want = solution.as_bytes()[r as usize * 9 + c as usize] - b'0';
        assert_eq!(h["digit"], u64::from(want), "{h}");
        assert_eq!(h["technique"], "hidden_single");
        let line = format!(
            "hint {}: {cell} = {want}: hidden single in {}",
            i + 1,
            h["house"].as_str().unwrap()
        );
        assert!(stderr.contains(&line), "{line} not in {stderr}");
    }
    // The wrong entry is still named: a hint on a board with a mistake would mislead.
    assert!(stderr.contains("r7c5: entered 9, should be 1"), "{stderr}");
}

#[test]
fn hint_draws_only_its_own_cell_and_writes_its_words_on_a_strip_below() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("hint.png");
    let run = cmd()
        .arg(picture("entries-near-colour.png"))
        .args(["--hint", "-f", "json", "-o"])
        .arg(&out)
        .assert()
        .success();
    let v = json(&run.get_output().stdout);
    let cell = v["hints"][0]["cell"].as_str().unwrap().to_string();
    let (cells, outside, _) = changed_cells(&picture("entries-near-colour.png"), &out);
    let shown: Vec<String> = cells.iter().map(Pos::to_string).collect();
    assert_eq!(
        shown,
        [cell],
        "only the hint's cell changes inside the grid"
    );
    // Nothing of the picture outside the grid changes (not its last rows, not the app's
    // buttons under it): the words are on a strip added below the picture.
    let (before, after) = (
        image::open(picture("entries-near-colour.png"))
            .unwrap()
            .to_rgb8(),
        image::open(&out).unwrap().to_rgb8(),
    );
    assert_eq!(after.width(), before.width());
    assert!(after.height() > before.height(), "no strip added");
    let strip_inked = (0..after.width())
        .flat_map(|x| (before.height()..after.height()).map(move |y| (x, y)))
        .filter(|&(x, y)| *after.get_pixel(x, y) != *after.get_pixel(0, before.height()))
        .count();
    assert!(strip_inked > 100, "the technique is written on the strip");
    assert_eq!(
        outside, strip_inked,
        "only the strip changes outside the grid"
    );
}

#[test]
fn check_and_hint_exclude_each_other() {
    cmd()
        .arg(picture("entries-wrong-red.png"))
        .args(["--check", "--hint"])
        .assert()
        .code(2);
}

/// `--check` over a folder exits as `rustfmt --check` over files: 1 when some game holds a
/// mistake, though every picture was read and solved; 0 when every entry is right.
#[test]
fn check_in_batch_exits_1_when_a_game_holds_a_mistake() {
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path().join("games");
    std::fs::create_dir(&games).unwrap();
    let right = "entries-near-colour.png";
    std::fs::copy(picture(right), games.join(right)).unwrap();
    let all_right = cmd().arg(&games).args(["--check", "-f", "line"]).assert();
    all_right.code(0);
    let wrong = "entries-wrong-red.png";
    std::fs::copy(picture(wrong), games.join(wrong)).unwrap();
    let out = cmd().arg(&games).args(["--check", "-f", "line"]).assert();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    out.code(1);
    assert!(stdout.contains("r7c5:9>1"), "{stdout}");
    // Solving the same folder is no check: both are solved, exit 0.
    cmd().arg(&games).args(["-f", "line"]).assert().code(0);
}

#[test]
fn check_in_batch_prints_marks_not_solutions() {
    let dir = tempfile::tempdir().unwrap();
    let out = cmd()
        .arg(picture(""))
        .arg("-o")
        .arg(dir.path().join("out/"))
        .args(["--check", "-f", "line", "-q"])
        .assert()
        .code(1); // ambiguous-givens.png is not solved
    let stdout = String::from_utf8_lossy(&out.get_output().stdout);
    let line = |name: &str| {
        stdout
            .lines()
            .find(|l| l.contains(name))
            .unwrap_or_else(|| panic!("no {name} in {stdout}"))
            .split('\t')
            .nth(1)
            .unwrap()
            .to_string()
    };
    assert_eq!(line("entries-wrong-red.png"), "r7c5:9>1");
    assert_eq!(line("entries-near-colour.png"), "ok");
    assert_eq!(line("ambiguous-givens.png"), "multiple_solutions");
    assert!(
        stdout
            .lines()
            .all(|l| l.chars().filter(char::is_ascii_digit).nth(80).is_none()),
        "no solution printed: {stdout}"
    );
    let stderr = String::from_utf8_lossy(&out.get_output().stderr);
    assert!(
        stderr.contains("typeset-small-digits.png: no player's entries to check"),
        "{stderr}"
    );
}

#[test]
fn a_full_grid_has_nothing_to_hint() {
    let dir = tempfile::tempdir().unwrap();
    let solved = dir.path().join("solved.png");
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/classic-dejavu-light.png");
    cmd().arg(sample).arg("-o").arg(&solved).assert().success();
    let out = cmd()
        .arg(&solved)
        .args(["--hint", "-f", "json"])
        .assert()
        .success();
    assert_eq!(
        json(&out.get_output().stdout)["hints"],
        serde_json::json!([])
    );
    let stderr = String::from_utf8_lossy(&out.get_output().stderr);
    assert!(
        stderr.contains("the grid is full: nothing left to hint"),
        "{stderr}"
    );
}

#[test]
fn solving_over_a_wrong_entry_warns_of_it_and_exits_0() {
    let out = cmd()
        .arg(picture("entries-wrong-red.png"))
        .assert()
        .success();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout);
    assert_eq!(stdout.trim(), truth("entries-wrong-red", 1));
    let stderr = String::from_utf8_lossy(&out.get_output().stderr);
    let warned = (stderr.lines())
        .any(|l| l.starts_with("warning: ") && l.ends_with("r7c5: entered 9, should be 1"));
    assert!(warned, "{stderr}");
}
