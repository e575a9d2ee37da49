//! What users of `rg`, `fd` and `oxipng` expect (issue 12): completions for each shell and a
//! man page from the one clap definition, usage when run bare, examples in --help, a text
//! puzzle pointed to `solve`, generate's seed printed, the answer colour chosen, and PNG
//! outputs no larger than the drawing needs.

use std::path::{Path, PathBuf};

use super::util::{cmd, PUZZLE};

fn sample(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("samples")
        .join(name)
}

fn stderr_of(out: &assert_cmd::assert::Assert) -> String {
    String::from_utf8_lossy(&out.get_output().stderr).into_owned()
}

#[test]
fn completions_are_generated_for_each_shell() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let out = cmd().args(["completions", shell]).assert().success();
        let script = String::from_utf8_lossy(&out.get_output().stdout);
        for word in [
            "sudoku-snap",
            "solve",
            "generate",
            "check",
            "hint",
            "output-format",
        ] {
            assert!(script.contains(word), "{shell}: no {word}");
        }
    }
    cmd().args(["completions", "tcsh"]).assert().code(2);
}

#[test]
fn the_man_page_covers_the_options_and_subcommands() {
    let out = cmd().arg("man").assert().success();
    let page = String::from_utf8_lossy(&out.get_output().stdout);
    assert!(page.contains(".TH sudoku-snap 1"), "a roff page");
    for word in [
        r"\-\-check",
        r"\-\-hint",
        r"\-\-max\-memory",
        "SUDOKU-SNAP SOLVE",
        "SUDOKU-SNAP GENERATE",
        r"\-\-difficulty",
        ".SH \"EXIT STATUS\"",
        ".SH EXAMPLES",
        // An example whole on its line, its columns kept.
        r"sudoku\-snap shot.png \-o solved.png          draw the answer into the screenshot",
    ] {
        assert!(page.contains(word), "no {word}");
    }
    // One page: it names no page of a subcommand that does not exist.
    assert!(
        !page.contains("sudoku-snap-solve(1)"),
        "names a page not there"
    );
    assert!(
        !page.contains(r"sudoku\-snap\-solve(1)"),
        "names a page not there"
    );
    for code in ["0", "1", "2"] {
        assert!(
            page.contains(&format!(".TP\n\\fB{code}\\fR\n")),
            "exit code {code}"
        );
    }
}

#[test]
fn no_arguments_prints_usage_and_exits_2() {
    let out = cmd().assert().code(2);
    assert!(out.get_output().stdout.is_empty());
    let stderr = stderr_of(&out);
    assert!(stderr.starts_with("Usage: sudoku-snap"), "{stderr}");
    assert!(stderr.contains("Examples:"), "{stderr}");
}

#[test]
fn help_shows_examples() {
    let out = cmd().arg("--help").assert().success();
    let help = String::from_utf8_lossy(&out.get_output().stdout);
    assert!(
        help.contains("Examples:\n  sudoku-snap shot.png -o solved.png"),
        "{help}"
    );
    assert!(help.contains("--check") && help.contains("--hint"));
}

#[test]
fn a_text_puzzle_where_a_picture_goes_points_to_solve() {
    let out = cmd().arg(PUZZLE).assert().code(2);
    let stderr = stderr_of(&out);
    assert!(
        stderr.contains(&format!("did you mean `sudoku-snap solve {PUZZLE}`?")),
        "{stderr}"
    );
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("puzzles.txt");
    std::fs::write(&file, format!("{PUZZLE}\n")).unwrap();
    let out = cmd().arg(&file).assert().code(2);
    assert!(
        stderr_of(&out).contains("did you mean `sudoku-snap solve"),
        "{}",
        stderr_of(&out)
    );
}

#[test]
fn generate_prints_the_seed_it_used_and_the_seed_repeats_the_puzzles() {
    let first = cmd()
        .args(["generate", "-n", "2", "-f", "line"])
        .assert()
        .success();
    let stderr = stderr_of(&first);
    let seed = stderr
        .split("seed ")
        .nth(1)
        .and_then(|s| s.split_whitespace().next())
        .expect("the seed on stderr");
    let again = cmd()
        .args(["generate", "-n", "2", "-f", "line", "--seed", seed])
        .assert()
        .success();
    assert_eq!(again.get_output().stdout, first.get_output().stdout);
    assert!(
        stderr_of(&again).is_empty(),
        "no note when the seed was given"
    );
}

#[test]
fn answer_color_sets_the_drawn_colour() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("magenta.png");
    cmd()
        .arg(sample("classic-dejavu-light.png"))
        .args(["--answer-color", "#ff00ff", "-f", "line", "-o"])
        .arg(&out)
        .assert()
        .success();
    let before = image::open(sample("classic-dejavu-light.png"))
        .unwrap()
        .to_rgb8();
    let after = image::open(&out).unwrap().to_rgb8();
    let changed: Vec<_> = after
        .pixels()
        .zip(before.pixels())
        .filter(|(a, b)| a != b)
        .collect();
    assert!(changed.len() > 1000);
    // Pixels fully covered by the answer are exactly the colour asked for.
    assert!(changed.iter().any(|(a, _)| a.0 == [255, 0, 255]));
    assert!(
        changed
            .iter()
            .all(|(a, _)| a.0[1] <= a.0[0] && a.0[1] <= a.0[2]),
        "magenta over white"
    );
    let bad = cmd()
        .arg(sample("classic-dejavu-light.png"))
        .args(["--answer-color", "blue"])
        .assert()
        .code(2);
    assert!(stderr_of(&bad).contains("#rrggbb"), "{}", stderr_of(&bad));
}

/// Regression: a 131 KB phone screenshot came back as 242 KB (fast deflate). Re-encoded
/// unchanged it now comes back 7 % larger (140.5 KB, zlib-rs level 2): the price of encoding
/// in a third of the time of the 128 KB level it had before.
#[test]
fn png_outputs_are_compressed() {
    let input = sample("phone-1170x2532.png");
    let size_in = std::fs::metadata(&input).unwrap().len() as f64;
    let dir = tempfile::tempdir().unwrap();
    let (solved, unchanged) = (dir.path().join("solved.png"), dir.path().join("same.png"));
    cmd()
        .arg(&input)
        .arg("-o")
        .arg(&solved)
        .args(["-f", "line"])
        .assert()
        .success();
    // --check on a grid without entries draws nothing: the encoder alone.
    cmd()
        .arg(&input)
        .arg("-o")
        .arg(&unchanged)
        .args(["--check", "-f", "line"])
        .assert()
        .success();
    let size = |p: &Path| std::fs::metadata(p).unwrap().len() as f64;
    assert!(
        size(&unchanged) < size_in * 1.1,
        "re-encoded: {} vs {size_in}",
        size(&unchanged)
    );
    assert!(
        size(&solved) < size_in * 1.5,
        "solved: {} vs {size_in}",
        size(&solved)
    );
}

/// `--color` as ripgrep and cargo take it: `always` colours the tool's own `error:` label and
/// clap's help even into a pipe, `never` and the default into a pipe colour nothing, and a
/// subcommand takes it too.
#[test]
fn color_always_never_and_auto_into_a_pipe() {
    let escape = |bytes: &[u8]| bytes.contains(&0x1b);
    let missing = "/nonexistent/shot.png";
    let always = cmd().args([missing, "--color", "always"]).assert().code(1);
    let stderr = stderr_of(&always);
    assert!(
        stderr.starts_with("\u{1b}[1m\u{1b}[31merror:\u{1b}[0m "),
        "{stderr:?}"
    );
    assert!(stderr.contains(missing), "{stderr}");
    for args in [&[missing, "--color", "never"][..], &[missing]] {
        let out = cmd().args(args).assert().code(1);
        let stderr = stderr_of(&out);
        assert!(stderr.starts_with("error: "), "{args:?}: {stderr:?}");
        assert!(!escape(stderr.as_bytes()), "{args:?}: {stderr:?}");
    }
    let help = cmd().args(["--color=always", "--help"]).assert().success();
    assert!(escape(&help.get_output().stdout), "help not coloured");
    let help = cmd().args(["--color=never", "--help"]).assert().success();
    assert!(!escape(&help.get_output().stdout), "help coloured");
    let solve = cmd()
        .args(["solve", "--color", "always", "/nonexistent.txt"])
        .assert()
        .code(1);
    assert!(escape(&solve.get_output().stderr), "{}", stderr_of(&solve));
    let bad = cmd()
        .args(["--color", "sometimes", missing])
        .assert()
        .code(2);
    assert!(
        stderr_of(&bad).contains("auto, always, never"),
        "{}",
        stderr_of(&bad)
    );
}

/// Reading a terminal, `solve` and `-` say what they wait for and how to end it (a tool
/// that waits without a word looks hung); from a pipe they say nothing. The terminal is a
/// pseudo-terminal made by util-linux's `script`, fed the puzzle and then Ctrl-D.
#[test]
fn reading_a_terminal_says_so_and_a_pipe_does_not() {
    let script = std::path::Path::new("/usr/bin/script");
    if !script.exists() {
        eprintln!("skipped: reading_a_terminal_says_so_and_a_pipe_does_not needs /usr/bin/script");
        return;
    }
    let bin = env!("CARGO_BIN_EXE_sudoku-snap");
    let on_terminal = |args: &str, typed: &str| {
        let shell = format!("(sleep 0.3; printf '{typed}'; sleep 0.3; printf '\\004') | script -qec \"{bin} {args} --color never\" /dev/null");
        let out = std::process::Command::new("sh")
            .args(["-c", &shell])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let solved = on_terminal("solve -f line", &format!("{PUZZLE}\\n"));
    assert!(
        solved.contains("note: reading puzzles from the terminal, one per line; Ctrl-D ends"),
        "{solved}"
    );
    assert!(
        solved.contains("534678912"),
        "the puzzle typed is solved: {solved}"
    );
    let paths = on_terminal("-", "");
    assert!(
        paths.contains("note: reading the paths of pictures from the terminal"),
        "{paths}"
    );
    let piped = cmd()
        .args(["solve", "-f", "line"])
        .write_stdin(PUZZLE)
        .assert()
        .success();
    assert!(stderr_of(&piped).is_empty(), "{}", stderr_of(&piped));
}
