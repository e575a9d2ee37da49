//! Batch mode (folders, lists, `-o DIR/`): every good file solved and written, every bad one
//! reported with its reason while the batch goes on, inputs untouched, skip/overwrite, path
//! mirroring, the same outputs at any `-j`, JSON Lines and CSV reports, and interrupted runs
//! that leave no partial files and are completed by a re-run.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::util::{bomb_png, cmd, skipped, snapshot};

fn sample(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("samples")
        .join(name)
}

/// Copies samples into `dir` under new names.
fn copy_samples(dir: &Path, pairs: &[(&str, &str)]) {
    for (from, to) in pairs {
        let to = dir.join(to);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(sample(from), to).unwrap();
    }
}

/// The JSON objects printed one per line.
fn json_lines(stdout: &[u8]) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// The report of the input whose path ends with `name`.
fn report_for<'a>(reports: &'a [serde_json::Value], name: &str) -> &'a serde_json::Value {
    reports
        .iter()
        .find(|r| r["input"].as_str().unwrap().ends_with(name))
        .unwrap_or_else(|| panic!("no report for {name}"))
}

/// Names of our temporary files left anywhere under `dir`.
fn temp_files(dir: &Path) -> Vec<PathBuf> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .flatten()
        .map(|e| e.path().to_path_buf())
        .filter(|p| p.to_string_lossy().ends_with(".tmp"))
        .collect()
}

/// The pictures under `dir`; each must decode fully.
fn decoded_outputs(dir: &Path) -> Vec<PathBuf> {
    let outputs: Vec<PathBuf> = walkdir::WalkDir::new(dir)
        .into_iter()
        .flatten()
        .filter(|e| e.file_type().is_file())
        .map(|e| e.path().to_path_buf())
        .collect();
    for o in &outputs {
        image::open(o).unwrap_or_else(|e| panic!("{} is not a whole picture: {e}", o.display()));
    }
    outputs
}

#[test]
fn good_files_are_solved_and_bad_ones_reported_while_the_batch_goes_on() {
    let tmp = tempfile::tempdir().unwrap();
    let shots = tmp.path().join("shots");
    copy_samples(
        &shots,
        &[
            ("classic-dejavu-light.png", "classic.png"),
            ("lato-light.jpg", "sub/lato.jpg"),
            ("comfortaa-navy.webp", "sub/deeper/navy.webp"),
            ("dark-firacode.png", "no-extension"),
            ("serif-cream.png", ".hidden.png"),
        ],
    );
    let png = std::fs::read(sample("classic-dejavu-light.png")).unwrap();
    let jpg = std::fs::read(sample("lato-light.jpg")).unwrap();
    let no_grid = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/no-grid.png");
    std::fs::write(shots.join("empty.png"), b"").unwrap();
    std::fs::write(shots.join("truncated.png"), &png[..png.len() / 2]).unwrap();
    std::fs::write(shots.join("truncated.jpg"), &jpg[..jpg.len() / 3]).unwrap();
    std::fs::write(shots.join("text.png"), b"I am a text file\n").unwrap();
    std::fs::write(shots.join("notes.txt"), b"not an image, passed over\n").unwrap();
    std::fs::write(shots.join("bomb.png"), bomb_png()).unwrap();
    std::fs::copy(no_grid, shots.join("no-grid.png")).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(&shots, shots.join("sub/loop")).unwrap();
    let before = snapshot(&shots);

    let out = tmp.path().join("solved");
    let assert = cmd()
        .arg(&shots)
        .args(["-r", "--format", "json", "-o"])
        .arg(&out)
        .assert()
        .code(1);
    let output = assert.get_output();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    let reports = json_lines(&output.stdout);
    let expected_inputs = 10 + usize::from(cfg!(unix)); // 4 good, 6 bad, the loop
    assert_eq!(reports.len(), expected_inputs, "{reports:#?}");

    for (name, output) in [
        ("classic.png", "classic.png"),
        ("sub/lato.jpg", "sub/lato.jpg"),
        ("sub/deeper/navy.webp", "sub/deeper/navy.webp"),
        ("no-extension", "no-extension.png"),
    ] {
        let r = report_for(&reports, name);
        assert_eq!(r["status"], "solved", "{r}");
        assert_eq!(
            r["output"].as_str().unwrap(),
            out.join(output).to_str().unwrap()
        );
        image::open(out.join(output)).unwrap();
    }
    for (name, status, reason) in [
        ("empty.png", "error", "the file is empty"),
        ("truncated.png", "error", "not a readable image"),
        ("truncated.jpg", "error", "the JPEG is cut off"),
        ("text.png", "error", "unknown format"),
        ("bomb.png", "error", "over the limit"),
        ("no-grid.png", "no_grid", "no sudoku grid found"),
    ] {
        let r = report_for(&reports, name);
        assert_eq!(r["status"], status, "{r}");
        let error = r["error"].as_str().unwrap();
        assert!(error.contains(name) && error.contains(reason), "{error}");
        assert!(stderr.contains(error), "{stderr}");
    }
    if cfg!(unix) {
        let r = report_for(&reports, "loop");
        assert!(r["error"].as_str().unwrap().contains("loop"), "{r}");
    }
    assert!(!reports
        .iter()
        .any(|r| r["input"].as_str().unwrap().contains("hidden")));
    assert!(
        stderr.contains("4 solved") && stderr.contains("1 no grid"),
        "{stderr}"
    );
    assert_eq!(snapshot(&shots), before, "inputs changed");
    assert_eq!(decoded_outputs(&out).len(), 4);
}

#[test]
fn existing_outputs_are_skipped_unless_overwrite() {
    let tmp = tempfile::tempdir().unwrap();
    let shots = tmp.path().join("shots");
    copy_samples(
        &shots,
        &[
            ("dark-firacode.png", "a.png"),
            ("small-cantarell.png", "b.png"),
        ],
    );
    let out = tmp.path().join("out");
    cmd().arg(&shots).arg("-o").arg(&out).assert().success();
    std::fs::write(out.join("b.png"), b"mine, keep it").unwrap();
    let a_before = std::fs::read(out.join("a.png")).unwrap();

    let again = cmd()
        .arg(&shots)
        .args(["-f", "json", "-o"])
        .arg(&out)
        .assert()
        .success();
    let reports = json_lines(&again.get_output().stdout);
    assert!(
        reports.iter().all(|r| r["status"] == "skipped"),
        "{reports:?}"
    );
    assert!(reports.iter().all(|r| r["error"].is_null()));
    assert_eq!(std::fs::read(out.join("b.png")).unwrap(), b"mine, keep it");
    assert_eq!(std::fs::read(out.join("a.png")).unwrap(), a_before);

    let forced = cmd()
        .arg(&shots)
        .args(["-f", "json", "--overwrite", "-o"])
        .arg(&out)
        .assert()
        .success();
    let reports = json_lines(&forced.get_output().stdout);
    assert!(
        reports.iter().all(|r| r["status"] == "solved"),
        "{reports:?}"
    );
    image::open(out.join("b.png")).unwrap();
}

#[test]
fn folders_are_walked_one_level_unless_recursive_and_paths_are_mirrored() {
    let tmp = tempfile::tempdir().unwrap();
    let shots = tmp.path().join("shots");
    copy_samples(
        &shots,
        &[
            ("dark-firacode.png", "top.png"),
            ("small-cantarell.png", "a/b.png"),
            ("lato-light.jpg", "a/c/d.jpg"),
        ],
    );
    let flat = tmp.path().join("flat");
    cmd().arg(&shots).arg("-o").arg(&flat).assert().success();
    assert_eq!(decoded_outputs(&flat), [flat.join("top.png")]);

    let deep = tmp.path().join("deep");
    cmd()
        .arg(&shots)
        .args(["-r", "--suffix", ".solved", "--output-format", "webp", "-o"])
        .arg(&deep)
        .assert()
        .success();
    let mut outputs = decoded_outputs(&deep);
    outputs.sort();
    let expected = ["a/b.solved.webp", "a/c/d.solved.webp", "top.solved.webp"];
    assert_eq!(outputs, expected.map(|p| deep.join(p)));
}

#[test]
fn a_list_on_stdin_mirrors_the_listed_paths() {
    let tmp = tempfile::tempdir().unwrap();
    copy_samples(
        tmp.path(),
        &[
            ("dark-firacode.png", "shots/x/one.png"),
            ("small-cantarell.png", "two.png"),
        ],
    );
    let assert = cmd()
        .current_dir(tmp.path())
        .args(["-", "--format", "csv", "-o", "out/"])
        .write_stdin("shots/x/one.png\n\ntwo.png\nmissing.png\n")
        .assert()
        .code(1);
    let stdout = String::from_utf8_lossy(&assert.get_output().stdout).into_owned();
    let mut lines = stdout.lines();
    assert_eq!(
        lines.next(),
        Some("input,status,givens,solution,output,error")
    );
    let rows: Vec<&str> = lines.collect();
    assert_eq!(rows.len(), 3, "{stdout}");
    assert!(
        rows.iter().any(|r| r.starts_with("missing.png,error,,,")),
        "{stdout}"
    );
    assert!(
        rows.iter().any(|r| r.starts_with("two.png,solved,")),
        "{stdout}"
    );
    assert!(tmp.path().join("out/shots/x/one.png").is_file());
    assert!(tmp.path().join("out/two.png").is_file());
}

#[test]
fn one_and_two_jobs_write_the_same_outputs() {
    let tmp = tempfile::tempdir().unwrap();
    let shots = tmp.path().join("shots");
    copy_samples(
        &shots,
        &[
            ("dark-firacode.png", "1.png"),
            ("small-cantarell.png", "2.png"),
            ("lato-light.jpg", "3.jpg"),
            ("comfortaa-navy.webp", "4.webp"),
            ("classic-dejavu-light.png", "5.png"),
        ],
    );
    let run = |jobs: &str, out: &str| {
        let out = tmp.path().join(out);
        let report = tmp.path().join(format!("{jobs}.jsonl"));
        let assert = cmd()
            .arg(&shots)
            .args(["-j", jobs, "-f", "json", "--report"])
            .arg(&report)
            .arg("-o")
            .arg(&out)
            .assert()
            .success();
        let stdout = assert.get_output().stdout.clone();
        assert_eq!(
            std::fs::read(&report).unwrap(),
            stdout,
            "--report differs from stdout"
        );
        let files: BTreeMap<_, _> = snapshot(&out)
            .into_iter()
            .map(|(p, b)| (p.strip_prefix(&out).unwrap().to_path_buf(), b))
            .collect();
        (json_lines(&stdout), files)
    };
    let (one, files_one) = run("1", "j1");
    let (two, files_two) = run("2", "j2");
    assert_eq!(files_one, files_two);
    assert_eq!(one.len(), 5);
    assert_eq!(two.len(), 5);
    let inputs: Vec<_> = one.iter().map(|r| r["input"].as_str().unwrap()).collect();
    let mut sorted = inputs.clone();
    sorted.sort();
    assert_eq!(inputs, sorted, "-j 1 reports in input order");
}

#[test]
fn an_output_folder_that_cannot_be_written_is_an_error_before_any_work() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("a-file");
    std::fs::write(&file, b"x").unwrap();
    let assert = cmd()
        .arg(sample("dark-firacode.png"))
        .arg("-o")
        .arg(file.join("out/"))
        .args(["-f", "json"])
        .assert()
        .code(2);
    let out = assert.get_output();
    assert!(out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("output folder cannot be written") && err.contains("a-file"),
        "{err}"
    );
}

#[test]
fn an_output_folder_inside_an_input_folder_is_refused_unless_asked() {
    let tmp = tempfile::tempdir().unwrap();
    copy_samples(tmp.path(), &[("dark-firacode.png", "a.png")]);
    let out = tmp.path().join("solved");
    let assert = cmd().arg(tmp.path()).arg("-o").arg(&out).assert().code(2);
    assert!(String::from_utf8_lossy(&assert.get_output().stderr).contains("inside the input"));
    assert!(!out.exists());
    cmd()
        .arg(tmp.path())
        .args(["-r", "--allow-inside-input", "-o"])
        .arg(&out)
        .assert()
        .success();
    // A second recursive run does not read its own outputs as inputs.
    let again = cmd()
        .arg(tmp.path())
        .args(["-r", "--allow-inside-input", "-f", "json", "-o"])
        .arg(&out)
        .assert()
        .success();
    let reports = json_lines(&again.get_output().stdout);
    assert_eq!(reports.len(), 1);
    assert_eq!(reports[0]["status"], "skipped");
}

/// `n` copies of a small sample, named so they sort in order.
fn many_copies(dir: &Path, n: usize) {
    std::fs::create_dir_all(dir).unwrap();
    for i in 0..n {
        std::fs::copy(
            sample("classic-dejavu-light.png"),
            dir.join(format!("{i:03}.png")),
        )
        .unwrap();
    }
}

/// Starts a `-j 1` batch of `shots` into `out` in the background.
fn spawn_batch(shots: &Path, out: &Path) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_sudoku-snap"))
        .arg(shots)
        .args(["-j", "1", "-q", "-o"])
        .arg(out)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

/// Like [`spawn_batch`], with JSON reports on a piped stdout and stderr kept for the test.
fn spawn_batch_reporting(shots: &Path, out: &Path) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_sudoku-snap"))
        .arg(shots)
        .args(["-j", "1", "-f", "json", "-o"])
        .arg(out)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Waits until a finished (non-hidden) picture is in `dir`.
fn wait_for_first_output(dir: &Path) {
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(120) {
        let found = std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .flatten()
            .any(|e| {
                let name = e.file_name();
                !name.to_string_lossy().starts_with('.')
            });
        if found {
            return;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    panic!("no output appeared in {}", dir.display());
}

#[test]
fn a_killed_run_leaves_only_whole_pictures_and_a_rerun_completes_it() {
    let tmp = tempfile::tempdir().unwrap();
    let (shots, out) = (tmp.path().join("shots"), tmp.path().join("out"));
    many_copies(&shots, 40);
    let mut child = spawn_batch(&shots, &out);
    wait_for_first_output(&out);
    child.kill().unwrap(); // SIGKILL: no chance to clean up
    child.wait().unwrap();
    let done = decoded_outputs_ignoring_temps(&out);
    assert!(
        !done.is_empty() && done.len() < 40,
        "{} outputs",
        done.len()
    );

    let rerun = cmd()
        .arg(&shots)
        .args(["-f", "json", "-o"])
        .arg(&out)
        .assert()
        .success();
    let reports = json_lines(&rerun.get_output().stdout);
    assert_eq!(reports.len(), 40);
    let skipped = reports.iter().filter(|r| r["status"] == "skipped").count();
    assert_eq!(skipped, done.len());
    assert!(temp_files(&out).is_empty(), "{:?}", temp_files(&out));
    assert_eq!(decoded_outputs(&out).len(), 40);
}

/// The finished pictures in `dir` (each decoding fully), passing over our temporary files,
/// which a SIGKILL can leave and the next run removes.
fn decoded_outputs_ignoring_temps(dir: &Path) -> Vec<PathBuf> {
    let outputs: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| !p.to_string_lossy().ends_with(".tmp"))
        .collect();
    for o in &outputs {
        image::open(o).unwrap_or_else(|e| panic!("{} is partial: {e}", o.display()));
    }
    outputs
}

#[cfg(unix)]
#[test]
fn sigterm_lets_running_images_finish_and_leaves_no_temporary_file() {
    let tmp = tempfile::tempdir().unwrap();
    let (shots, out) = (tmp.path().join("shots"), tmp.path().join("out"));
    many_copies(&shots, 40);
    let mut child = spawn_batch(&shots, &out);
    wait_for_first_output(&out);
    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let status = child.wait().unwrap();
    assert_eq!(
        status.code(),
        Some(1),
        "an interrupted batch is not a success"
    );
    assert!(temp_files(&out).is_empty(), "{:?}", temp_files(&out));
    let done = decoded_outputs(&out).len();
    assert!(done > 0 && done < 40, "{done} outputs");
}

#[test]
fn a_file_that_vanishes_mid_run_is_reported_and_the_batch_goes_on() {
    let tmp = tempfile::tempdir().unwrap();
    let (shots, out) = (tmp.path().join("shots"), tmp.path().join("out"));
    many_copies(&shots, 30);
    let child = spawn_batch_reporting(&shots, &out);
    wait_for_first_output(&out);
    std::fs::remove_file(shots.join("029.png")).unwrap();
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(1));
    let reports = json_lines(&output.stdout);
    assert_eq!(reports.len(), 30);
    let gone = report_for(&reports, "029.png");
    assert_eq!(gone["status"], "error");
    assert!(
        gone["error"].as_str().unwrap().contains("029.png"),
        "{gone}"
    );
    assert_eq!(
        reports.iter().filter(|r| r["status"] == "solved").count(),
        29
    );
}

/// A tmpfs of `kib` KiB mounted on `dir` for the test's life, or `None` where mounting is not
/// allowed (not root, or a container without the capability), in which case the test says it
/// is skipped and checks nothing.
struct SmallDisk(PathBuf);

impl SmallDisk {
    fn mount(dir: &Path, kib: u32) -> Option<SmallDisk> {
        std::fs::create_dir_all(dir).unwrap();
        let ok = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={kib}k"), "tmpfs"])
            .arg(dir)
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !ok {
            skipped("cannot mount a tmpfs here (needs root)");
        }
        ok.then(|| SmallDisk(dir.to_path_buf()))
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
    }
}

#[test]
fn a_full_output_folder_stops_the_batch_cleanly() {
    let tmp = tempfile::tempdir().unwrap();
    let (shots, out) = (tmp.path().join("shots"), tmp.path().join("out"));
    many_copies(&shots, 40);
    // Each solved copy is ~30 KB as PNG; 200 KiB holds a handful.
    let Some(_disk) = SmallDisk::mount(&out, 200) else {
        return;
    };
    let assert = cmd()
        .arg(&shots)
        .args(["-j", "2", "-f", "json", "-o"])
        .arg(&out)
        .assert()
        .code(1);
    let output = assert.get_output();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("No space left") && stderr.contains("stopped"),
        "{stderr}"
    );
    let reports = json_lines(&output.stdout);
    assert!(
        reports.len() < 40,
        "the batch went on after the disk filled"
    );
    assert!(temp_files(&out).is_empty(), "{:?}", temp_files(&out));
    decoded_outputs(&out);
}

#[test]
fn an_output_folder_turned_read_only_mid_run_stops_the_batch_cleanly() {
    let tmp = tempfile::tempdir().unwrap();
    let (shots, out) = (tmp.path().join("shots"), tmp.path().join("out"));
    many_copies(&shots, 40);
    let Some(_disk) = SmallDisk::mount(&out, 4096) else {
        return;
    };
    let child = spawn_batch_reporting(&shots, &out);
    wait_for_first_output(&out);
    // A remount read-only fails ("mount point is busy") while a file on it is open for
    // writing, which a running batch has most of the time: try again until it lands.
    let remount = || {
        Command::new("mount")
            .args(["-o", "remount,ro"])
            .arg(&out)
            .stderr(std::process::Stdio::null())
            .status()
            .unwrap()
            .success()
    };
    let remounted = (0..200).any(|_| {
        remount() || {
            std::thread::sleep(std::time::Duration::from_millis(5));
            false
        }
    });
    assert!(remounted, "the output folder never went read-only");
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("Read-only file system") && stderr.contains("stopped"),
        "{stderr}"
    );
    assert!(json_lines(&output.stdout).len() < 40, "the batch went on");
    assert!(temp_files(&out).is_empty(), "{:?}", temp_files(&out));
    decoded_outputs(&out);
}

/// Issue 12: `--debug` in a batch named pictures after the file name only, so `a/x.png`
/// and `b/x.png` wrote the same debug files.
#[test]
fn debug_pictures_of_same_named_inputs_do_not_overwrite_each_other() {
    let dir = tempfile::tempdir().unwrap();
    let shots = dir.path().join("shots");
    for (sub, sample) in [
        ("a", "classic-dejavu-light.png"),
        ("b", "dark-firacode.png"),
    ] {
        std::fs::create_dir_all(shots.join(sub)).unwrap();
        let from = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("samples")
            .join(sample);
        std::fs::copy(from, shots.join(sub).join("x.png")).unwrap();
    }
    let debug = dir.path().join("debug");
    cmd()
        .arg("-r")
        .arg(&shots)
        .arg("--debug")
        .arg(&debug)
        .args(["-q", "-f", "line"])
        .assert()
        .success();
    let (a, b) = (debug.join("a__x.cells.png"), debug.join("b__x.cells.png"));
    let (a, b) = (image::open(&a).unwrap(), image::open(&b).unwrap());
    assert_ne!(a.to_rgb8(), b.to_rgb8(), "two pictures, one per input");
}

/// Several pictures named on the command line, `-f line`: each line names its input, in the
/// order given; one picture alone prints its solution bare.
#[test]
fn line_format_names_each_of_several_pictures() {
    let (a, b) = (
        "samples/classic-dejavu-light.png",
        "samples/dark-firacode.png",
    );
    let out = cmd()
        .args([a, b, "-f", "line"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    let names: Vec<&str> = text
        .lines()
        .map(|l| l.split('\t').next().unwrap())
        .collect();
    assert_eq!(names, [a, b], "{text}");
    for line in text.lines() {
        let solution: sudoku_snap::Board = line.split('\t').nth(1).unwrap().parse().unwrap();
        assert!(solution.is_full(), "{line}");
    }
    let one = cmd()
        .args([a, "-f", "line"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert!(!String::from_utf8(one).unwrap().contains('\t'));
}

/// `-f csv` on one picture prints its rows and no batch summary on stderr.
#[test]
fn csv_on_one_picture_prints_no_summary() {
    cmd()
        .args(["samples/classic-dejavu-light.png", "-f", "csv"])
        .assert()
        .success()
        .stdout(predicates::str::contains(
            "samples/classic-dejavu-light.png,solved,",
        ))
        .stderr(predicates::prelude::PredicateBooleanExt::not(
            predicates::str::contains("inputs in"),
        ));
}
