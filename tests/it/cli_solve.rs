//! `sudoku-snap solve` end to end: every input format, stdin, every output format, counting and
//! listing, parallel determinism, exit codes and the error messages on stderr.

use predicates::prelude::*;
use predicates::str::contains;
use serde_json::Value;
use sudoku_snap::puzzle::board::Board;
use sudoku_snap::puzzle::text;

use super::util::{
    board, cmd, sample_lines, shared_puzzles, CONFLICT, PUZZLE, SERG, SERG_SOLUTIONS, SOLUTION,
    UNSOLVABLE,
};

/// Runs `solve` with `args` and stdin, and returns (exit code, stdout, stderr).
fn run(args: &[&str], stdin: &str) -> (i32, String, String) {
    let out = cmd()
        .arg("solve")
        .args(args)
        .write_stdin(stdin)
        .output()
        .unwrap();
    (
        out.status.code().expect("exited normally"),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// A temporary file with `contents`; the directory lives as long as the returned guard.
fn temp_file(name: &str, contents: &str) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, contents).unwrap();
    (dir, path.to_str().unwrap().to_string())
}

/// Asserts that `line` is a valid solution of `puzzle`.
fn assert_solves(line: &str, puzzle: &str) {
    assert!(
        board(line).solves(&board(puzzle)),
        "{line} does not solve {puzzle}"
    );
}

/// The solutions printed in line format, one per non-empty line.
fn lines(stdout: &str) -> Vec<&str> {
    stdout.lines().filter(|l| !l.is_empty()).collect()
}

/// The boards printed in pretty or csv format (the `# ...` headers are comments to the reader).
fn boards(stdout: &str) -> Vec<Board> {
    text::parse_all(stdout)
        .into_iter()
        .map(|p| p.board.unwrap())
        .collect()
}

fn json_reports(stdout: &str) -> Vec<Value> {
    stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect()
}

// ---- input formats ----

#[test]
fn puzzle_as_argument() {
    let (code, out, err) = run(&["-f", "line", PUZZLE], "");
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(lines(&out), [SOLUTION]);
    assert_solves(SOLUTION, PUZZLE);
}

#[test]
fn file_with_many_puzzles_comments_and_blank_lines() {
    let second =
        "..3..8.5...7......9.2.7.1...2.4...7.7.....8.1...58..9..4.7.....29.31.6..1.....24.";
    let contents = format!("# header\n{PUZZLE}\n\n   \n# more\n{second}\n\n{INKALA}\n");
    let (_dir, path) = temp_file("many.txt", &contents);
    let (code, out, err) = run(&["-f", "line", &path], "");
    assert_eq!(code, 0, "{err}");
    let got = lines(&out);
    assert_eq!(got.len(), 3, "{out}");
    for (solution, puzzle) in got.iter().zip([PUZZLE, second, INKALA]) {
        assert_solves(solution, puzzle);
    }
}

/// Arto Inkala's "hardest" puzzle: a proper puzzle that needs search.
const INKALA: &str =
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";

#[test]
fn nine_line_grid_with_separators() {
    let (_dir, path) = temp_file("grid.txt", &text::to_pretty(&board(PUZZLE)));
    cmd()
        .args(["solve", "-f", "line", &path])
        .assert()
        .success()
        .stdout(format!("{SOLUTION}\n"));
}

#[test]
fn long_dash_rule_between_bands_is_a_separator() {
    // Regression: a rule of 30+ dashes was taken for a one-line puzzle of the wrong length.
    let wide = text::to_pretty(&board(PUZZLE)).replace("------+-------+------", &"-".repeat(31));
    cmd()
        .args(["solve", "-f", "line"])
        .write_stdin(wide)
        .assert()
        .success()
        .stdout(format!("{SOLUTION}\n"));
}

#[test]
fn whitespace_separated_digits_with_zeros() {
    let grid: String = PUZZLE
        .as_bytes()
        .chunks(9)
        .map(|row| {
            let cells: Vec<String> = row
                .iter()
                .map(|&c| {
                    if c == b'.' {
                        "0".into()
                    } else {
                        (c as char).to_string()
                    }
                })
                .collect();
            cells.join("  ") + "\n"
        })
        .collect();
    cmd()
        .args(["solve", "-f", "line", "-"])
        .write_stdin(grid)
        .assert()
        .success()
        .stdout(format!("{SOLUTION}\n"));
}

#[test]
fn csv_with_bom_and_crlf() {
    let csv = format!(
        "\u{feff}{}",
        text::to_csv(&board(PUZZLE)).replace('\n', "\r\n")
    );
    let (_dir, path) = temp_file("puzzle.csv", &csv);
    cmd()
        .args(["solve", "-f", "line", &path])
        .assert()
        .success()
        .stdout(format!("{SOLUTION}\n"));
}

#[test]
fn stdin_via_dash_and_via_no_argument() {
    for args in [&["-f", "line", "-"][..], &["-f", "line"][..]] {
        let (code, out, _) = run(args, &format!("{PUZZLE}\n{INKALA}\n"));
        assert_eq!(code, 0, "{args:?}");
        let got = lines(&out);
        assert_eq!(got.len(), 2, "{args:?}: {out}");
        assert_solves(got[0], PUZZLE);
        assert_solves(got[1], INKALA);
    }
}

#[test]
fn several_inputs_print_in_order() {
    let (_dir, path) = temp_file("one.txt", &format!("{INKALA}\n"));
    let (code, out, _) = run(&["-f", "line", PUZZLE, &path, "-"], PUZZLE);
    assert_eq!(code, 0);
    let got = lines(&out);
    assert_eq!(got.len(), 3, "{out}");
    assert_eq!((got[0], got[2]), (SOLUTION, SOLUTION));
    assert_solves(got[1], INKALA);
}

// ---- output formats ----

#[test]
fn pretty_format_prints_a_header_and_a_grid() {
    let (code, out, _) = run(&["--format", "pretty", PUZZLE], "");
    assert_eq!(code, 0);
    assert!(out.starts_with("# argument 1:1 solved\n"), "{out}");
    assert!(out.contains("------+-------+------"), "{out}");
    assert_eq!(boards(&out), [board(SOLUTION)]);
}

#[test]
fn csv_format_prints_nine_rows() {
    let (code, out, _) = run(&["--format", "csv", PUZZLE], "");
    assert_eq!(code, 0);
    let rows: Vec<&str> = out.lines().filter(|l| l.contains(',')).collect();
    assert_eq!(rows.len(), 9);
    assert!(rows.iter().all(|r| r.split(',').count() == 9), "{out}");
    assert_eq!(boards(&out), [board(SOLUTION)]);
}

#[test]
fn json_format_one_object_per_puzzle() {
    let input = format!(
        "{PUZZLE}\n{UNSOLVABLE}\n{CONFLICT}\n{SERG}\n{}\n",
        &PUZZLE[..80]
    );
    let (code, out, _) = run(&["--format", "json"], &input);
    assert_eq!(code, 1);
    let reports = json_reports(&out);
    let statuses: Vec<&str> = reports
        .iter()
        .map(|r| r["status"].as_str().unwrap())
        .collect();
    assert_eq!(
        statuses,
        [
            "solved",
            "unsolvable",
            "invalid",
            "multiple_solutions",
            "invalid"
        ]
    );
    let solved = &reports[0];
    assert_eq!(solved["puzzle"], PUZZLE);
    assert_eq!(solved["solution"], SOLUTION);
    assert!(solved["error"].is_null());
    assert!(reports[1]["solution"].is_null());
    assert!(reports[2]["error"]
        .as_str()
        .unwrap()
        .contains("r1c1 and r1c2"));
    assert_solves(reports[3]["solution"].as_str().unwrap(), SERG);
    assert!(reports[4]["puzzle"].is_null());
    assert!(reports[4]["error"].as_str().unwrap().contains("80 cells"));
    assert!(reports[1..].iter().all(|r| r["error"].is_string()));
}

#[test]
fn count_prints_the_number_of_solutions() {
    let (code, out, _) = run(&["--count", "-f", "line", SERG], "");
    assert_eq!(code, 1, "two solutions is not a proper puzzle");
    let (solution, count) = out.trim_end().split_once(' ').unwrap();
    assert_eq!(count, "2");
    assert_solves(solution, SERG);

    let (code, out, _) = run(&["--count", "-f", "json", PUZZLE], "");
    assert_eq!(code, 0);
    assert_eq!(json_reports(&out)[0]["solutions"], 1);
}

#[test]
fn count_below_the_limit_is_exact() {
    // Regression: "872 or more solutions" was printed although the search had finished.
    let (code, out, err) = run(&["--count", "--limit", "1000", "-f", "json", SERG], "");
    assert_eq!(code, 1);
    assert_eq!(json_reports(&out)[0]["solutions"], SERG_SOLUTIONS);
    assert!(
        err.contains(&format!("{SERG_SOLUTIONS} solutions")),
        "{err}"
    );
    assert!(!err.contains("or more"), "{err}");
    let (_, _, err) = run(&["--count", "--limit", "5", SERG], "");
    assert!(err.contains("5 or more solutions"), "{err}");
}

#[test]
fn all_with_limit_lists_distinct_solutions() {
    let (code, out, _) = run(&["--all", "--limit", "3", "-f", "line", SERG], "");
    assert_eq!(code, 1);
    let got = lines(&out);
    assert_eq!(got.len(), 3, "{out}");
    for s in &got {
        assert_solves(s, SERG);
    }
    assert!(got[0] != got[1] && got[1] != got[2] && got[0] != got[2]);

    let (_, out, _) = run(&["--all", "--limit", "3", "-f", "json", SERG], "");
    let report = &json_reports(&out)[0];
    assert_eq!(report["solutions"], 3);
    assert_eq!(report["all"].as_array().unwrap().len(), 3);
}

#[test]
fn all_on_a_proper_puzzle_succeeds() {
    let (code, out, _) = run(&["--all", "-f", "line", PUZZLE], "");
    assert_eq!((code, lines(&out)), (0, vec![SOLUTION]));
}

#[test]
fn one_thread_and_two_threads_print_the_same() {
    let Some(path) = shared_puzzles("17_clue.txt") else {
        return;
    };
    let sample: String = sample_lines(&path, 160)
        .into_iter()
        .map(|(_, l)| l + "\n")
        .collect();
    assert!(sample.lines().count() >= 300);
    let (code1, one, _) = run(&["-j", "1", "-f", "line"], &sample);
    let (code2, two, _) = run(&["-j", "2", "-f", "line"], &sample);
    assert_eq!((code1, code2), (0, 0));
    assert!(one == two, "-j 1 and -j 2 differ");
    for (solution, puzzle) in one.lines().zip(sample.lines()) {
        assert_solves(solution, puzzle);
    }
}

// ---- exit codes and errors ----

#[test]
fn unsolvable_puzzle_exits_1() {
    cmd()
        .args(["solve", "-f", "line", UNSOLVABLE])
        .assert()
        .code(1)
        .stdout("unsolvable\n")
        .stderr(contains("argument 1:1: no solution"));
}

#[test]
fn conflicting_givens_exit_1_and_name_the_cells() {
    cmd()
        .args(["solve", CONFLICT])
        .assert()
        .code(1)
        .stderr(contains("r1c1 and r1c2 both hold 5 in the same row"));
}

#[test]
fn multiple_solutions_exit_1_but_print_one() {
    let (code, out, err) = run(&["-f", "line", SERG], "");
    assert_eq!(code, 1);
    assert_solves(out.trim_end(), SERG);
    assert!(err.contains("more than one solution"), "{err}");
}

#[test]
fn malformed_input_exits_1_and_the_batch_goes_on() {
    let bad = format!("{}x{}", &PUZZLE[..10], &PUZZLE[11..]);
    let (_dir, path) = temp_file("mixed.txt", &format!("{PUZZLE}\n{bad}\n{PUZZLE}\n"));
    let (code, out, err) = run(&["-f", "line", &path], "");
    assert_eq!(code, 1);
    assert_eq!(lines(&out), [SOLUTION, "invalid", SOLUTION]);
    // The message names the input, the line and the column of the bad character.
    assert!(err.contains(&format!("{path}:2")), "{err}");
    assert!(err.contains(":2: column 11"), "{err}");
    // The line is named once, by the origin, and the message starts like every error.
    assert!(
        err.starts_with("error: ") && !err.contains("line 2"),
        "{err}"
    );
    assert!(err.contains("'x'"), "{err}");
}

#[test]
fn bad_character_on_stdin_names_stdin_line_and_column() {
    let bad = format!("# comment\n{}?{}\n", &PUZZLE[..40], &PUZZLE[41..]);
    cmd()
        .args(["solve", "-"])
        .write_stdin(bad)
        .assert()
        .code(1)
        .stderr(contains("error: stdin:2: column 41"));
}

#[test]
fn csv_bad_field_names_the_column_of_the_bad_character() {
    // Regression: the column pointed past the field, and a field of digits was reported as a
    // bad character 'X' that the input did not hold.
    let mut rows: Vec<String> = text::to_csv(&board(PUZZLE))
        .lines()
        .map(String::from)
        .collect();
    rows[4] = "4,,,8,ab,3,,,1".into();
    cmd()
        .args(["solve", "-"])
        .write_stdin(rows.join("\r\n"))
        .assert()
        .code(1)
        .stderr(contains(
            "stdin:1: line 5, column 7: field \"ab\" is not one cell",
        ));
    rows[4] = "4,,,8,12,3,,,1".into();
    cmd()
        .args(["solve", "-"])
        .write_stdin(rows.join("\n"))
        .assert()
        .code(1)
        .stderr(contains("line 5, column 7: field \"12\" is not one cell"));
    rows[4] = r#"4,,,8," x ",3,,,1"#.into();
    cmd()
        .args(["solve", "-"])
        .write_stdin(rows.join("\n"))
        .assert()
        .code(1)
        .stderr(contains("line 5, column 9: bad character 'x'"));
}

#[test]
fn short_grid_names_the_line() {
    let pretty = text::to_pretty(&board(PUZZLE));
    let eight: String = pretty.lines().take(10).map(|l| format!("{l}\n")).collect();
    let (_dir, path) = temp_file("short.txt", &format!("# a grid\n{eight}"));
    cmd()
        .args(["solve", &path])
        .assert()
        .code(1)
        .stderr(contains(format!("{path}:2")).and(contains("8 rows instead of 9")));
}

#[test]
fn empty_input_and_missing_file_exit_1() {
    cmd()
        .args(["solve"])
        .write_stdin("# nothing here\n\n")
        .assert()
        .code(1)
        .stderr(contains("stdin: no puzzle found"));
    cmd()
        .args(["solve", "no-such-file.txt"])
        .assert()
        .code(1)
        .stderr(contains("no-such-file.txt"));
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        &["--format", "bogus", PUZZLE][..],
        &["--limit", "0", PUZZLE],
        &["--all", "--count", PUZZLE],
        &["-j", "0", PUZZLE],
        &["--no-such-flag"],
    ] {
        cmd()
            .arg("solve")
            .args(args)
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::is_empty().not());
    }
}

#[test]
fn help_and_version_exit_0() {
    cmd()
        .args(["solve", "--help"])
        .assert()
        .success()
        .stdout(contains("--format"));
    cmd()
        .arg("--version")
        .assert()
        .success()
        .stdout(contains("sudoku-snap"));
}
