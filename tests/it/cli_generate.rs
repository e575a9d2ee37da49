//! `sudoku-snap generate` and `sudoku-snap grade` end to end: unique puzzles over many seeds,
//! the same output whatever the thread count, every output format, grades of known puzzles,
//! a clear message (not an endless run) for requests that cannot be met, and printable
//! pictures (`--png`, `-o`, `--solution`) that our own pipeline reads back as the puzzle.

use std::path::Path;

use predicates::str::contains;
use serde_json::Value;
use sudoku_snap::puzzle::solve;
use sudoku_snap::{Board, Options, Report, Snap, Status};

use super::util::{board, cmd, shared_puzzles, PUZZLE};

fn stdout_of(args: &[&str]) -> String {
    let out = cmd().args(args).assert().success();
    String::from_utf8(out.get_output().stdout.clone()).unwrap()
}

#[test]
fn generated_puzzles_are_unique_over_many_seeds() {
    for (seed, difficulty) in ["1", "2", "3"].iter().zip(["easy", "hard", "expert"]) {
        let text = stdout_of(&[
            "generate", "-n", "40", "--seed", seed, "-d", difficulty, "-f", "json",
        ]);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 40);
        for line in lines {
            let v: Value = serde_json::from_str(line).unwrap();
            let puzzle = board(v["puzzle"].as_str().unwrap());
            assert_eq!(solve::count_solutions(&puzzle, 2), Ok(1), "{line}");
            assert!(board(v["solution"].as_str().unwrap()).solves(&puzzle));
            assert_eq!(v["difficulty"], *difficulty);
            assert_eq!(v["givens"], puzzle.filled_count());
            assert_eq!(v["seed"], seed.parse::<u64>().unwrap());
        }
    }
}

#[test]
fn same_seed_same_output_with_one_or_two_threads() {
    for extra in [
        &["-d", "medium"][..],
        &["--symmetric", "--holes", "50", "-d", "easy"],
    ] {
        let run = |jobs: &str| {
            let mut args = vec![
                "generate", "-n", "24", "--seed", "99", "-f", "json", "-j", jobs,
            ];
            args.extend_from_slice(extra);
            stdout_of(&args)
        };
        assert_eq!(run("1"), run("2"));
    }
    assert_ne!(
        stdout_of(&["generate", "--seed", "1", "-f", "line"]),
        stdout_of(&["generate", "--seed", "2", "-f", "line"])
    );
}

#[test]
fn minimal_puzzles_lose_uniqueness_when_any_given_goes() {
    let text = stdout_of(&[
        "generate",
        "-n",
        "5",
        "--seed",
        "5",
        "--minimal",
        "-f",
        "line",
    ]);
    for line in text.lines() {
        let puzzle = board(line);
        for i in (0..81).filter(|&i| line.as_bytes()[i] != b'.') {
            let mut fewer = line.to_string();
            fewer.replace_range(i..=i, ".");
            assert_eq!(
                solve::count_solutions(&board(&fewer), 2),
                Ok(2),
                "{line} without {i}"
            );
        }
        assert_eq!(solve::count_solutions(&puzzle, 2), Ok(1));
    }
}

#[test]
fn text_formats_print_the_puzzle() {
    let line = stdout_of(&["generate", "--seed", "8", "--holes", "40", "-f", "line"]);
    assert_eq!(line.trim().len(), 81);
    assert_eq!(line.matches('.').count(), 40);
    let pretty = stdout_of(&["generate", "--seed", "8", "--holes", "40", "-f", "pretty"]);
    assert!(pretty.starts_with("# puzzle 0 of seed 8: "), "{pretty}");
    assert_eq!(
        board(pretty.split_once('\n').unwrap().1),
        board(line.trim())
    );
    let csv = stdout_of(&["generate", "--seed", "8", "--holes", "40", "-f", "csv"]);
    assert_eq!(board(csv.split_once('\n').unwrap().1), board(line.trim()));
}

#[test]
fn rare_request_gives_up_with_a_clear_message() {
    cmd()
        .args([
            "generate",
            "-d",
            "expert",
            "--holes",
            "20",
            "--max-attempts",
            "50",
            "--seed",
            "1",
        ])
        .assert()
        .code(1)
        .stderr(contains(
            "no puzzle found for \"expert, 20 holes\" in 50 attempts",
        ));
    cmd().args(["generate", "--holes", "65"]).assert().code(2);
}

#[test]
fn newspaper_puzzle_grades_easy() {
    let out = stdout_of(&["grade", PUZZLE, "-f", "json"]);
    let v: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["difficulty"], "easy");
    assert_eq!(v["solved_logically"], true);
    let names: Vec<&String> = v["techniques"].as_object().unwrap().keys().collect();
    assert!(names.iter().all(|k| k.ends_with("_single")), "{v}");
}

#[test]
fn forum_hardest_needs_guessing() {
    let Some(path) = shared_puzzles("forum_hardest_1106.txt") else {
        return;
    };
    let text = std::fs::read_to_string(&path).unwrap();
    let first: String = text.lines().take(20).collect::<Vec<_>>().join("\n");
    let out = cmd()
        .args(["grade", "-f", "line", "-"])
        .write_stdin(first)
        .assert()
        .success();
    let lines = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert_eq!(lines.lines().count(), 20);
    for line in lines.lines() {
        assert!(line.contains(" expert needs_guessing"), "{line}");
    }
}

#[test]
fn grade_reports_improper_puzzles() {
    let open = ".".repeat(81);
    cmd()
        .args(["grade", &open])
        .assert()
        .code(1)
        .stderr(contains("more than one solution"));
}

/// The puzzles of a `-f json` run as (puzzle, solution, seed, index).
fn generated(args: &[&str]) -> Vec<(Board, Board, u64, u64)> {
    let text = stdout_of(args);
    text.lines()
        .map(|line| {
            let v: Value = serde_json::from_str(line).unwrap();
            (
                board(v["puzzle"].as_str().unwrap()),
                board(v["solution"].as_str().unwrap()),
                v["seed"].as_u64().unwrap(),
                v["index"].as_u64().unwrap(),
            )
        })
        .collect()
}

fn read_back(snap: &Snap, path: &Path) -> Report {
    let report = snap.process(path, None);
    assert_eq!(
        report.status,
        Status::Solved,
        "{}: {report:?}",
        path.display()
    );
    report
}

#[test]
fn png_pictures_read_back_as_the_generated_puzzles() {
    let snap = Snap::new(Options::default()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("sheets"); // created by the command
    for seed in ["4", "5", "6"] {
        for extra in [&[][..], &["--symmetric"], &["--symmetric", "-d", "hard"]] {
            let mut args = vec!["generate", "-n", "2", "--seed", seed, "-f", "json"];
            args.extend_from_slice(&["--png", out.to_str().unwrap()]);
            args.extend_from_slice(extra);
            for (puzzle, solution, seed, index) in generated(&args) {
                let path = out.join(format!("puzzle-{seed}-{index}.png"));
                let report = read_back(&snap, &path);
                assert_eq!(report.givens, Some(puzzle), "{}", path.display());
                assert_eq!(report.solution, Some(solution));
                assert_eq!(report.entries, Some(Board::empty()));
            }
        }
    }
}

#[test]
fn solution_pictures_show_the_givens_and_the_solution_apart() {
    let snap = Snap::new(Options::default()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    for (seed, extra) in [("7", None), ("8", Some("--symmetric")), ("9", None)] {
        let mut args = vec!["generate", "-n", "2", "--seed", seed, "-f", "json"];
        args.extend_from_slice(&["--solution", "--png", dir.path().to_str().unwrap()]);
        args.extend(extra);
        for (puzzle, solution, seed, index) in generated(&args) {
            let path = dir.path().join(format!("solution-{seed}-{index}.png"));
            let report = read_back(&snap, &path);
            // Givens in black, the rest of the solution in blue: read as a player's entries.
            assert_eq!(report.givens, Some(puzzle), "{}", path.display());
            assert_eq!(report.solution, Some(solution));
            let mut entries = solution;
            for pos in sudoku_snap::Pos::all().filter(|&p| puzzle.get(p).is_some()) {
                entries.set(pos, None);
            }
            assert_eq!(report.entries, Some(entries));
        }
    }
}

#[test]
fn output_file_extension_picks_the_format() {
    let snap = Snap::new(Options::default()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    for (name, format) in [
        ("sheet.png", image::ImageFormat::Png),
        ("sheet.jpg", image::ImageFormat::Jpeg),
    ] {
        let path = dir.path().join(name);
        let args = ["generate", "--seed", "10", "-f", "json", "-o"];
        let (puzzle, ..) = generated(&[&args[..], &[path.to_str().unwrap()]].concat())[0];
        let bytes = std::fs::read(&path).unwrap();
        assert_eq!(image::guess_format(&bytes).unwrap(), format, "{name}");
        assert_eq!(read_back(&snap, &path).givens, Some(puzzle), "{name}");
    }
}

#[test]
fn picture_flags_are_checked_before_any_work() {
    let dir = tempfile::tempdir().unwrap();
    let file = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let cases: [(&[&str], &str); 4] = [
        (&["-n", "2", "-o", &file("a.png")], "use --png DIR"),
        (&["-o", &file("a.txt")], "unknown output extension"),
        (&["--solution"], "add --png DIR or -o FILE"),
        (
            &["--png", &file("d"), "-o", &file("a.png")],
            "cannot be used with",
        ),
    ];
    for (args, message) in cases {
        cmd()
            .arg("generate")
            .args(args)
            .assert()
            .code(2)
            .stderr(contains(message));
    }
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}
