//! The text commands (`solve`, `grade`, `generate`) under hostile plumbing: input that never
//! ends or arrives slowly, bad bytes and endless lines, readers of stdout or stderr that go
//! away, named pipes as input, and `--all` with more solutions than memory could hold.
//! Each test is named after the failure it pins.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use super::util::{board, cmd, PUZZLE, SOLUTION};

/// Long enough for a loaded CI machine; the behaviours pinned here take milliseconds.
const PATIENCE: Duration = Duration::from_secs(30);

/// The command under test, ready for pipes.
fn spawn(args: &[&str], stdin: Stdio, stdout: Stdio, stderr: Stdio) -> Child {
    Command::new(env!("CARGO_BIN_EXE_sudoku-snap"))
        .args(args)
        .stdin(stdin)
        .stdout(stdout)
        .stderr(stderr)
        .spawn()
        .expect("the binary runs")
}

/// Kills the child when a test fails half-way, so no endless process outlives it.
struct Reaped(Child);

impl Drop for Reaped {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The child's exit status within `PATIENCE`, or a failure naming `what`.
fn exits_in_time(child: &mut Child, what: &str) -> ExitStatus {
    let start = Instant::now();
    while start.elapsed() < PATIENCE {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        thread::sleep(Duration::from_millis(20));
    }
    panic!("{what}: still running {PATIENCE:?} later");
}

/// The first line of `stdout` within `PATIENCE` (read on a thread, as a read can block
/// forever); the pipe comes back with it so the caller decides when to close it.
fn first_line(stdout: ChildStdout, what: &str) -> (String, BufReader<ChildStdout>) {
    let (send, receive) = mpsc::channel();
    thread::spawn(move || {
        let mut reader = BufReader::new(stdout);
        let mut line = String::new();
        let read = reader.read_line(&mut line);
        let _ = send.send((read.map(|_| line), reader));
    });
    match receive.recv_timeout(PATIENCE) {
        Ok((Ok(line), reader)) => (line.trim_end().to_string(), reader),
        Ok((Err(e), _)) => panic!("{what}: reading stdout failed: {e}"),
        Err(_) => panic!("{what}: no line on stdout within {PATIENCE:?}"),
    }
}

/// Writes `PUZZLE` lines to `stdin` until the reader goes away: an input that never ends.
fn endless_puzzles(mut stdin: impl Write + Send + 'static) {
    thread::spawn(move || {
        let block = format!("{PUZZLE}\n").repeat(1000);
        while stdin.write_all(block.as_bytes()).is_ok() {}
    });
}

// ---- 1. input is streamed ----

/// Starts `args` with stdin open, writes one puzzle and reads the first line of stdout while
/// stdin is still open; returns the child, its stdin and that line.
fn first_answer_with_stdin_open(
    args: &[&str],
    what: &str,
) -> (Reaped, std::process::ChildStdin, String) {
    let mut child = Reaped(spawn(args, Stdio::piped(), Stdio::piped(), Stdio::null()));
    let mut stdin = child.0.stdin.take().unwrap();
    writeln!(stdin, "{PUZZLE}").unwrap();
    stdin.flush().unwrap();
    let (line, _) = first_line(child.0.stdout.take().unwrap(), what);
    (child, stdin, line)
}

#[test]
fn solve_answers_each_line_before_stdin_closes() {
    let (mut child, stdin, line) =
        first_answer_with_stdin_open(&["solve", "-f", "line"], "solve with stdin open");
    assert_eq!(line, SOLUTION);
    drop(stdin);
    assert!(exits_in_time(&mut child.0, "solve after stdin closed").success());
}

#[test]
fn grade_answers_each_line_before_stdin_closes() {
    let (_child, _stdin, line) =
        first_answer_with_stdin_open(&["grade", "-f", "line"], "grade with stdin open");
    assert!(line.starts_with(&format!("{PUZZLE} easy")), "{line}");
}

#[test]
fn endless_line_is_rejected_and_the_next_puzzle_solved() {
    let endless = "5".repeat(1 << 20);
    let out = cmd()
        .args(["solve", "-f", "line"])
        .write_stdin(format!("{endless}\n{PUZZLE}\n"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(stdout.lines().collect::<Vec<_>>(), ["invalid", SOLUTION]);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("error: stdin:1: line of 1048576 bytes, longer than any puzzle"),
        "{stderr}"
    );
}

// ---- 2. a bad byte spoils only its puzzle ----

#[test]
fn bad_byte_names_its_line_and_column_and_the_others_are_solved() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.txt");
    let mut bytes = format!("{PUZZLE}\n{PUZZLE}\n{PUZZLE}\n").into_bytes();
    bytes[82 + 74] = 0xE9; // line 2, column 75: Latin-1 'é'
    std::fs::write(&path, bytes).unwrap();
    let name = path.to_str().unwrap();
    let out = cmd().args(["solve", "-f", "line", name]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        stdout.lines().collect::<Vec<_>>(),
        [SOLUTION, "invalid", SOLUTION]
    );
    let stderr = String::from_utf8(out.stderr).unwrap();
    let expected = format!("error: {name}:2: column 75: byte 0xE9 is not UTF-8 text");
    assert!(stderr.contains(&expected), "{stderr}");
}

// ---- 3. a closed stdout stops the work at once, exit 0 ----

/// Reads one line of the child's stdout, closes it, and checks the child then ends with 0
/// and says nothing.
fn stops_quietly_when_stdout_closes(mut child: Reaped, what: &str) {
    let (line, reader) = first_line(child.0.stdout.take().unwrap(), what);
    assert!(!line.is_empty());
    drop(reader);
    let status = exits_in_time(&mut child.0, what);
    let mut stderr = String::new();
    if let Some(mut e) = child.0.stderr.take() {
        e.read_to_string(&mut stderr).unwrap();
    }
    assert_eq!((status.code(), stderr.as_str()), (Some(0), ""), "{what}");
}

#[test]
fn generate_stops_when_stdout_closes() {
    let child = spawn(
        &["generate", "-n", "1000000", "--seed", "3", "-f", "line"],
        Stdio::null(),
        Stdio::piped(),
        Stdio::piped(),
    );
    stops_quietly_when_stdout_closes(Reaped(child), "generate -n 1000000 | head -1");
}

/// `yes PUZZLE | sudoku-snap COMMAND | head -1`.
fn endless_stdin_stops_when_stdout_closes(command: &str) {
    let mut child = spawn(
        &[command, "-f", "line"],
        Stdio::piped(),
        Stdio::piped(),
        Stdio::piped(),
    );
    endless_puzzles(child.stdin.take().unwrap());
    let what = format!("yes PUZZLE | {command} | head -1");
    stops_quietly_when_stdout_closes(Reaped(child), &what);
}

#[test]
fn solve_of_endless_stdin_stops_when_stdout_closes() {
    endless_stdin_stops_when_stdout_closes("solve");
}

#[test]
fn grade_of_endless_stdin_stops_when_stdout_closes() {
    endless_stdin_stops_when_stdout_closes("grade");
}

// ---- 5. a closed stderr winds the run down without a panic ----

/// A file whose every puzzle is reported on stderr: far more than a pipe holds.
fn file_of_bad_lines() -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad-lines.txt");
    let bad = format!("{}x\n", &PUZZLE[..80]);
    std::fs::write(&path, bad.repeat(50_000)).unwrap();
    let name = path.to_str().unwrap().to_string();
    (dir, name)
}

fn winds_down_when_stderr_closes(command: &str) {
    let (_dir, file) = file_of_bad_lines();
    let mut child = Reaped(spawn(
        &[command, "-f", "line", &file],
        Stdio::null(),
        Stdio::null(),
        Stdio::piped(),
    ));
    let mut stderr = child.0.stderr.take().unwrap();
    let mut byte = [0u8; 1];
    stderr.read_exact(&mut byte).unwrap();
    drop(stderr);
    let status = exits_in_time(&mut child.0, command);
    // 1: the puzzles read were bad; 101 would be a panic on the closed stderr.
    assert_eq!(status.code(), Some(1), "{command}");
}

#[test]
fn solve_winds_down_when_stderr_closes() {
    winds_down_when_stderr_closes("solve");
}

#[test]
fn grade_winds_down_when_stderr_closes() {
    winds_down_when_stderr_closes("grade");
}

// ---- 4. --all streams its solutions ----

/// Runs `solve` under a limit of `megabytes` of address space (bash's `ulimit -v`), the
/// tool's own binary and threads included.
#[cfg(unix)]
fn solve_with_memory_cap(megabytes: u64, args: &str, stdout: Stdio) -> Child {
    let binary = env!("CARGO_BIN_EXE_sudoku-snap");
    let script = format!(
        "ulimit -v {}; exec '{binary}' solve {args}",
        megabytes * 1024
    );
    Command::new("bash")
        .args(["-c", &script])
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(Stdio::piped())
        .spawn()
        .expect("bash runs")
}

/// A file of `n` empty grids (about 6.7e21 solutions each), read as one chunk of puzzles.
fn empty_grids(n: usize) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("empty.txt");
    std::fs::write(&path, format!("{}\n", ".".repeat(81)).repeat(n)).unwrap();
    let name = path.to_str().unwrap().to_string();
    (dir, name)
}

/// 16 empty grids at a million solutions each: 1.9 GB when each solution was kept as a board
/// and a string until its puzzle was done. Streamed, the first is printed at once, within a
/// 300 MB address-space cap, while the search goes on.
#[cfg(unix)]
#[test]
fn all_solutions_stream_out_before_the_search_ends() {
    let (_dir, file) = empty_grids(16);
    let args = format!("--all --limit 1000000 -f line -j 1 '{file}'");
    let mut child = Reaped(solve_with_memory_cap(300, &args, Stdio::piped()));
    let (line, _reader) = first_line(child.0.stdout.take().unwrap(), "solve --all");
    assert!(
        board(&line).solves(&sudoku_snap::Board::empty()),
        "{line:?}"
    );
    assert!(
        child.0.try_wait().unwrap().is_none(),
        "solve --all ended after its first solution"
    );
}

/// Four empty grids at a million solutions each: about 490 MB when they were collected; a
/// 300 MB address-space cap (threads' stacks included) holds only when they are streamed.
/// JSON writes its `all` arrays the same way.
#[cfg(unix)]
#[test]
fn all_solutions_need_no_memory_for_the_list() {
    let (_dir, file) = empty_grids(4);
    for format in ["line", "json"] {
        let args = format!("--all --limit 1000000 -f {format} '{file}'");
        let mut child = Reaped(solve_with_memory_cap(300, &args, Stdio::piped()));
        let mut stdout = child.0.stdout.take().unwrap();
        let counted = thread::spawn(move || {
            let mut lines = 0usize;
            let mut buf = vec![0u8; 1 << 16];
            while let Ok(n @ 1..) = stdout.read(&mut buf) {
                lines += buf[..n].iter().filter(|&&b| b == b'\n').count();
            }
            lines
        });
        let status = exits_in_time(&mut child.0, &format!("solve --all -f {format}"));
        let mut stderr = String::new();
        let mut err_pipe = child.0.stderr.take().unwrap();
        err_pipe.read_to_string(&mut stderr).unwrap();
        assert_eq!(status.code(), Some(1), "-f {format}: {stderr}");
        let expected = if format == "line" { 4_000_000 } else { 4 };
        assert_eq!(counted.join().unwrap(), expected, "-f {format}");
    }
}

/// The output of `--all --limit 3`, as it was before `--all` streamed, for every layout.
#[test]
fn all_with_a_limit_prints_what_it_always_did() {
    let serg = super::util::SERG;
    // The solver's first three in its search order (which follows its branching heuristic).
    let first = "841762359295348671376159824153426798968571243427893165534287916612935487789614532";
    let second =
        "841762359295348671376159824153426798968571243724893165537284916612935487489617532";
    let third = "841267359295348671376159824153426798968571243724893165432785916519632487687914532";
    let run = |format: &str| {
        let out = cmd()
            .args([
                "solve", "--all", "--limit", "3", "-f", format, serg, SOLUTION,
            ])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1));
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(stderr, "error: argument 1:1: 3 or more solutions\n");
        String::from_utf8(out.stdout).unwrap()
    };
    assert_eq!(
        run("line"),
        format!("{first}\n{second}\n{third}\n{SOLUTION}\n")
    );
    assert_eq!(
        run("json"),
        format!(
            "{{\"puzzle\":\"{serg}\",\"status\":\"multiple_solutions\",\"solution\":\"{first}\",\
             \"solutions\":3,\"all\":[\"{first}\",\"{second}\",\"{third}\"],\
             \"error\":\"3 or more solutions\"}}\n\
             {{\"puzzle\":\"{SOLUTION}\",\"status\":\"solved\",\"solution\":\"{SOLUTION}\",\
             \"solutions\":1,\"all\":[\"{SOLUTION}\"],\"error\":null}}\n"
        )
    );
    let grids = |to: fn(&sudoku_snap::Board) -> String| -> String {
        [first, second, third]
            .map(|s| to(&board(s)) + "\n")
            .concat()
    };
    let pretty = run("pretty");
    assert_eq!(
        pretty,
        format!(
            "# argument 1:1 multiple_solutions, 3 solution(s) counted\n{}\
             # argument 2:1 solved, 1 solution(s) counted\n{}\n",
            grids(sudoku_snap::puzzle::text::to_pretty),
            sudoku_snap::puzzle::text::to_pretty(&board(SOLUTION))
        )
    );
    let csv = run("csv");
    assert_eq!(
        csv,
        format!(
            "# argument 1:1 multiple_solutions, 3 solution(s) counted\n{}\
             # argument 2:1 solved, 1 solution(s) counted\n{}\n",
            grids(sudoku_snap::puzzle::text::to_csv),
            sudoku_snap::puzzle::text::to_csv(&board(SOLUTION))
        )
    );
}

// ---- 6. named pipes and character devices are read as streams ----

/// `sudoku-snap solve <(printf ...)`: the argument is `/dev/fd/63`, a pipe, not a file.
#[cfg(unix)]
#[test]
fn process_substitution_is_read_as_input() {
    let binary = env!("CARGO_BIN_EXE_sudoku-snap");
    let script = format!("'{binary}' solve -f line <(printf '%s\\n' {PUZZLE} {PUZZLE})");
    let out = Command::new("bash").args(["-c", &script]).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        format!("{SOLUTION}\n{SOLUTION}\n")
    );
}

#[test]
fn folder_input_is_an_error_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let name = dir.path().to_str().unwrap();
    let out = cmd().args(["solve", name, PUZZLE]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        format!("{SOLUTION}\n")
    );
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains(&format!("{name}: a folder")), "{stderr}");
}
