//! Issue 57: nothing of the user's is ever written. One output policy for every path the tool
//! writes (a suffix is a suffix; no output on an input, a device, a FIFO or a link to one; the
//! folder and extension checked before any work), messages that cannot be written never stop
//! the work, path lists read line by line as bytes, names shown escaped, and the temporary
//! files of a killed run cleaned by the next one.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use super::util::{cmd, snapshot};

const SOLUTION: &str =
    "462813975195274368387695214728931546914586732653742189571428693249367851836159427";

fn sample() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/classic-dejavu-light.png")
}

/// A folder holding `names`, each a copy of the sample picture.
fn pictures(dir: &Path, names: &[&str]) {
    std::fs::create_dir_all(dir).unwrap();
    for name in names {
        std::fs::copy(sample(), dir.join(name)).unwrap();
    }
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn a_suffix_that_climbs_out_of_the_output_folder_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let (inp, out) = (dir.path().join("in"), dir.path().join("out"));
    pictures(&inp, &["a.png", "b.png"]);
    let before = snapshot(&inp);
    let run = cmd()
        .arg(&inp)
        .arg("-o")
        .arg(format!("{}/", out.display()))
        .args(["--suffix", "/../../in/b", "--overwrite", "-f", "line"])
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2), "{}", text(&run.stderr));
    assert!(
        text(&run.stderr).contains("suffix"),
        "{}",
        text(&run.stderr)
    );
    assert!(
        run.stdout.is_empty(),
        "work was done: {}",
        text(&run.stdout)
    );
    assert_eq!(snapshot(&inp), before, "an input was written");
}

#[test]
fn a_debug_folder_holding_an_input_is_a_usage_error_single_and_batch() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().join("d");
    pictures(&d, &["a.png", "a.cells.png"]);
    let before = snapshot(&d);
    let single = cmd()
        .arg(d.join("a.png"))
        .arg(d.join("a.cells.png"))
        .arg("--debug")
        .arg(&d)
        .output()
        .unwrap();
    assert_eq!(single.status.code(), Some(2), "{}", text(&single.stderr));
    let batch = cmd()
        .arg(&d)
        .arg("--debug")
        .arg(&d)
        .arg("-o")
        .arg(format!("{}/", dir.path().join("out").display()))
        .output()
        .unwrap();
    assert_eq!(batch.status.code(), Some(2), "{}", text(&batch.stderr));
    assert!(text(&batch.stderr).contains("holds inputs"));
    assert_eq!(snapshot(&d), before, "an input was written");
}

#[test]
fn debug_pictures_are_new_files_unless_overwrite() {
    let dir = tempfile::tempdir().unwrap();
    let dbg = dir.path().join("dbg");
    std::fs::create_dir(&dbg).unwrap();
    let mine = dbg.join("classic-dejavu-light.cells.png");
    std::fs::write(&mine, b"the user's own file").unwrap();
    let run = cmd()
        .arg(sample())
        .arg("--debug")
        .arg(&dbg)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    assert!(text(&run.stderr).contains("new files only"));
    assert_eq!(std::fs::read(&mine).unwrap(), b"the user's own file");
    assert!(dbg.join("classic-dejavu-light.rectified.png").is_file());
    let again = cmd()
        .arg(sample())
        .arg("--debug")
        .arg(&dbg)
        .arg("--overwrite")
        .output()
        .unwrap();
    assert_eq!(again.status.code(), Some(0), "{}", text(&again.stderr));
    let replaced = image::open(&mine).expect("--overwrite replaced it with a picture");
    assert!(replaced.width() > 0);
}

#[cfg(unix)]
#[test]
fn outputs_onto_devices_fifos_and_links_to_them_are_usage_errors() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo.png");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    // Links, not the device itself: a failing test must not replace the machine's /dev/null.
    let to_null = dir.path().join("null.json");
    std::os::unix::fs::symlink("/dev/null", &to_null).unwrap();
    let to_dir = dir.path().join("dir.png");
    std::os::unix::fs::symlink(dir.path(), &to_dir).unwrap();
    let nowhere = dir.path().join("nowhere.png");
    std::os::unix::fs::symlink(dir.path().join("missing"), &nowhere).unwrap();
    // (`-o` naming a folder, or a link to one, is a batch into that folder.)
    let cases: [(&str, &Path); 5] = [
        ("--report", &to_null),
        ("--report", &fifo),
        ("--report", &to_dir),
        ("-o", &fifo),
        ("-o", &nowhere),
    ];
    for (flag, target) in cases {
        let run = cmd().arg(sample()).arg(flag).arg(target).output().unwrap();
        let err = text(&run.stderr);
        assert_eq!(
            run.status.code(),
            Some(2),
            "{flag} {}: {err}",
            target.display()
        );
        assert!(err.contains(&*target.to_string_lossy()), "names it: {err}");
        assert!(run.stdout.is_empty(), "work was done before the refusal");
        let node = std::fs::symlink_metadata(target).unwrap();
        assert!(
            !node.is_file(),
            "{} was replaced by a file",
            target.display()
        );
    }
}

#[test]
fn a_target_that_cannot_be_written_is_refused_before_any_work() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        ("-o", dir.path().join("x.tif")),
        ("-o", dir.path().join("x")),
        ("-o", dir.path().join("missing/x.png")),
        ("--report", dir.path().join("missing/r.json")),
    ];
    for (flag, target) in cases {
        let run = cmd()
            .arg(sample())
            .arg(flag)
            .arg(&target)
            .args(["-f", "line"])
            .output()
            .unwrap();
        let err = text(&run.stderr);
        assert_eq!(
            run.status.code(),
            Some(2),
            "{flag} {}: {err}",
            target.display()
        );
        assert!(run.stdout.is_empty(), "work was done first: {err}");
        assert!(
            !err.contains(".sudoku-snap-"),
            "names the temporary file: {err}"
        );
    }
}

#[cfg(unix)]
#[test]
fn a_message_that_cannot_be_written_never_stops_the_batch() {
    let dir = tempfile::tempdir().unwrap();
    let shots = dir.path().join("shots");
    pictures(&shots, &["1.png", "2.png"]);
    std::fs::write(shots.join("0-bad.png"), b"not a picture").unwrap();
    let out = dir.path().join("out");
    let mut child = Command::new(env!("CARGO_BIN_EXE_sudoku-snap"))
        .arg(&shots)
        .args(["-j", "1", "-f", "line", "-o"])
        .arg(format!("{}/", out.display()))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The reader of stderr is gone before the first message: every write of it fails (EPIPE).
    drop(child.stderr.take());
    let done = child.wait_with_output().unwrap();
    assert_eq!(
        done.status.code(),
        Some(1),
        "the bad input and the lost message"
    );
    let lines = text(&done.stdout);
    assert_eq!(lines.lines().count(), 3, "every input reported: {lines}");
    assert!(out.join("1.png").is_file() && out.join("2.png").is_file());
}

#[cfg(unix)]
#[test]
fn list_lines_are_bytes_and_a_bad_line_is_named_while_the_rest_go_on() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    let raw = std::ffi::OsStr::from_bytes(b"caf\xe9.png");
    pictures(dir.path(), &["a.png"]);
    std::fs::copy(sample(), dir.path().join(raw)).unwrap();
    let mut list = format!("{}\n", dir.path().join("a.png").display()).into_bytes();
    list.extend(vec![b'x'; 100_000]);
    list.extend(b"\nwith\0nul.png\n");
    list.extend(dir.path().join(raw).as_os_str().as_bytes());
    list.push(b'\n');
    let run = cmd()
        .arg("-")
        .args(["-f", "line", "-q"])
        .write_stdin(list)
        .output()
        .unwrap();
    let (out, err) = (text(&run.stdout), text(&run.stderr));
    assert_eq!(run.status.code(), Some(1), "{err}");
    assert!(err.contains("stdin: line 2"), "{err}");
    assert!(err.contains("stdin: line 3"), "{err}");
    let solved: Vec<&str> = out.lines().filter(|l| l.ends_with(SOLUTION)).collect();
    assert_eq!(solved.len(), 2, "both pictures read: {out}");
    assert!(
        out.contains("caf\\xe9.png"),
        "the name's byte shown escaped: {out}"
    );
}

#[cfg(unix)]
#[test]
fn control_characters_in_names_are_shown_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let name = "x\u{1b}[31m\nred.png";
    pictures(dir.path(), &[name]);
    std::fs::write(dir.path().join("bad\nname.png"), b"not a picture").unwrap();
    let run = cmd().arg(dir.path()).args(["-f", "line"]).output().unwrap();
    let (out, err) = (text(&run.stdout), text(&run.stderr));
    assert!(out.contains("x\\x1b[31m\\nred.png\t"), "{out}");
    assert!(err.contains("bad\\nname.png"), "{err}");
    assert!(
        !out.contains('\u{1b}') && !err.contains('\u{1b}'),
        "ESC reached the terminal"
    );
    assert_eq!(
        out.lines().count(),
        2,
        "a newline in a name split a line: {out}"
    );
}

/// Sends `signal` (`-HUP`, `-INT`) to `child` and asserts it stops early, exit 1, as an
/// interrupted run does (not killed by the signal).
#[cfg(unix)]
fn signal_and_expect_exit_1(child: &mut std::process::Child, signal: &str) {
    let sent = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let status = child.wait().unwrap();
    assert_eq!(
        status.code(),
        Some(1),
        "stopped early by the signal: {status}"
    );
}

/// A temporary file of ours whose writer is gone: no process has id 999,999,999.
const STALE: &str = ".sudoku-snap-999999999-abcdef.tmp";

#[test]
fn the_next_run_cleans_what_a_killed_run_left_beside_its_outputs() {
    let dir = tempfile::tempdir().unwrap();
    let report_dir = dir.path().join("r");
    let png_dir = dir.path().join("p");
    let file_dir = dir.path().join("f");
    for d in [&report_dir, &png_dir, &file_dir] {
        std::fs::create_dir(d).unwrap();
        std::fs::write(d.join(STALE), b"half").unwrap();
    }
    let report = cmd()
        .arg(sample())
        .arg("--report")
        .arg(report_dir.join("r.json"))
        .output()
        .unwrap();
    assert_eq!(report.status.code(), Some(0), "{}", text(&report.stderr));
    let png = cmd()
        .args(["generate", "--seed", "1", "--png"])
        .arg(&png_dir)
        .output()
        .unwrap();
    assert_eq!(png.status.code(), Some(0), "{}", text(&png.stderr));
    let file = cmd()
        .args(["generate", "--seed", "1", "-o"])
        .arg(file_dir.join("p.png"))
        .output()
        .unwrap();
    assert_eq!(file.status.code(), Some(0), "{}", text(&file.stderr));
    for d in [&report_dir, &png_dir, &file_dir] {
        assert!(!d.join(STALE).exists(), "left in {}", d.display());
    }
}

#[cfg(unix)]
#[test]
fn sighup_stops_a_batch_like_sigterm_and_leaves_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let shots = dir.path().join("shots");
    let names: Vec<String> = (0..40).map(|i| format!("{i:02}.png")).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    pictures(&shots, &names);
    let out = dir.path().join("out");
    let mut child = Command::new(env!("CARGO_BIN_EXE_sudoku-snap"))
        .arg(&shots)
        .args(["-j", "1", "-q", "-f", "line", "-o"])
        .arg(format!("{}/", out.display()))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // The first answer is out, so the handler is installed and the batch is under way.
    let mut first = String::new();
    let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    std::io::BufRead::read_line(&mut stdout, &mut first).unwrap();
    assert!(first.ends_with(&format!("{SOLUTION}\n")), "{first}");
    signal_and_expect_exit_1(&mut child, "-HUP");
    let left: Vec<_> = std::fs::read_dir(&out)
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .filter(|n| n.to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(left.is_empty(), "temporary files left: {left:?}");
}

#[cfg(target_os = "linux")]
#[test]
fn results_that_cannot_reach_stdout_say_so_and_exit_1() {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let run = Command::new(env!("CARGO_BIN_EXE_sudoku-snap"))
        .args(["solve", &"0".repeat(81)])
        .stdout(full)
        .output()
        .unwrap();
    let err = text(&run.stderr);
    assert_eq!(run.status.code(), Some(1), "{err}");
    assert!(err.contains("cannot write the results to stdout"), "{err}");
}

#[cfg(unix)]
#[test]
fn a_signal_stops_generate_between_pictures_and_leaves_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_sudoku-snap"))
        .args([
            "generate", "--seed", "7", "-n", "5000", "-f", "line", "--png",
        ])
        .arg(dir.path())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let pictures = || {
        std::fs::read_dir(dir.path())
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect::<Vec<_>>()
    };
    let start = std::time::Instant::now();
    while !pictures().iter().any(|n| n.ends_with(".png")) {
        assert!(start.elapsed().as_secs() < 120, "no picture made");
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    signal_and_expect_exit_1(&mut child, "-INT");
    let names = pictures();
    assert!(names.len() < 5000, "it was not stopped");
    let temps: Vec<&String> = names.iter().filter(|n| n.ends_with(".tmp")).collect();
    assert!(temps.is_empty(), "temporary files left: {temps:?}");
}
