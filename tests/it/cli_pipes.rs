//! Pictures through pipes (issue 12): a screenshot on stdin told from a list of paths by its
//! first bytes, the drawn picture on stdout in the format asked for (or the input's own), a
//! round trip that reads back as the solution, and stdin read within --max-memory.

use std::path::{Path, PathBuf};

use super::util::cmd;

fn sample(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("samples")
        .join(name)
}

/// Line 2 of a sample's ground truth: its solution.
fn solution_of(name: &str) -> String {
    let truth = std::fs::read_to_string(sample(name).with_extension("txt")).unwrap();
    truth.lines().nth(1).unwrap().to_string()
}

/// Givens and entries read from `bytes`, merged: what a person sees in the grid.
fn grid_read_from(bytes: &[u8]) -> String {
    let out = cmd()
        .args(["-", "-f", "json"])
        .write_stdin(bytes.to_vec())
        .assert()
        .success();
    let v: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    let (givens, entries) = (
        v["givens"].as_str().unwrap(),
        v["entries"].as_str().unwrap(),
    );
    givens
        .chars()
        .zip(entries.chars())
        .map(|(g, e)| if g == '.' { e } else { g })
        .collect()
}

#[test]
fn a_picture_round_trips_through_stdin_and_stdout() {
    let name = "classic-dejavu-light.png";
    let out = cmd()
        .args(["-", "-o", "-"])
        .write_stdin(std::fs::read(sample(name)).unwrap())
        .assert()
        .success();
    let png = &out.get_output().stdout;
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "a PNG on stdout");
    let picture = image::load_from_memory(png).unwrap();
    assert_eq!((picture.width(), picture.height()), (760, 760));
    // The answer drawn, read back by our own recognizer, is the solution.
    assert_eq!(grid_read_from(png), solution_of(name));
}

#[test]
fn output_format_picks_the_format_on_stdout() {
    let out = cmd()
        .arg(sample("classic-dejavu-light.png"))
        .args(["-o", "-", "--output-format", "jpg", "--jpeg-quality", "80"])
        .assert()
        .success();
    let bytes = &out.get_output().stdout;
    assert!(bytes.starts_with(b"\xff\xd8\xff"), "a JPEG on stdout");
    assert_eq!(
        grid_read_from(bytes),
        solution_of("classic-dejavu-light.png")
    );
}

#[test]
fn a_lossy_input_stays_lossy_on_stdout() {
    let jpeg =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/reading/desktop-light-card.jpg");
    let out = cmd()
        .args(["-", "-o", "-"])
        .write_stdin(std::fs::read(jpeg).unwrap())
        .assert()
        .success();
    assert!(out.get_output().stdout.starts_with(b"\xff\xd8\xff"));
}

#[test]
fn a_picture_on_stdin_can_be_written_to_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("solved.png");
    let run = cmd()
        .args(["-", "-f", "line", "-o"])
        .arg(&out)
        .write_stdin(std::fs::read(sample("classic-dejavu-light.png")).unwrap())
        .assert()
        .success();
    let line = String::from_utf8_lossy(&run.get_output().stdout)
        .trim()
        .to_string();
    assert_eq!(line, solution_of("classic-dejavu-light.png"));
    assert!(out.is_file());
}

#[test]
fn a_list_of_paths_on_stdin_still_works() {
    let list = format!("{}\n", sample("classic-dejavu-light.png").display());
    let run = cmd()
        .args(["-", "-f", "line", "-q"])
        .write_stdin(list)
        .assert()
        .success();
    let stdout = String::from_utf8_lossy(&run.get_output().stdout);
    assert!(
        stdout.ends_with(&format!("\t{}\n", solution_of("classic-dejavu-light.png"))),
        "{stdout}"
    );
}

#[test]
fn stdin_is_read_within_max_memory() {
    // A PNG signature followed by 17 MB: refused after reading 16 MB, not held whole.
    let mut bytes = b"\x89PNG\r\n\x1a\n".to_vec();
    bytes.resize(17 << 20, 0);
    let run = cmd()
        .args(["-", "-o", "-", "--max-memory", "16"])
        .write_stdin(bytes)
        .assert()
        .code(1);
    assert!(run.get_output().stdout.is_empty());
    let stderr = String::from_utf8_lossy(&run.get_output().stderr);
    assert!(stderr.contains("more than 16 MB"), "{stderr}");
}

#[test]
fn json_cannot_share_stdout_with_the_picture() {
    cmd()
        .args(["-", "-o", "-", "-f", "json"])
        .write_stdin(std::fs::read(sample("classic-dejavu-light.png")).unwrap())
        .assert()
        .code(2);
}

/// Issue 12 asks that transparency not spoil reading: a screenshot whose background is
/// transparent (alpha 0 over black, as many tools save it) is read through a pipe, laid over
/// white as a viewer shows it. (What is written is checked in `transparency.rs`.)
#[test]
fn a_transparent_background_is_read() {
    let opaque = image::open(sample("classic-dejavu-light.png"))
        .unwrap()
        .to_rgb8();
    let clear = image::RgbaImage::from_fn(opaque.width(), opaque.height(), |x, y| {
        let p = opaque.get_pixel(x, y).0;
        if p.iter().all(|&c| c > 230) {
            image::Rgba([0, 0, 0, 0])
        } else {
            image::Rgba([p[0], p[1], p[2], 255])
        }
    });
    let mut png = Vec::new();
    clear
        .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .unwrap();
    let out = cmd()
        .args(["-", "-f", "line"])
        .write_stdin(png)
        .assert()
        .success();
    let line = String::from_utf8_lossy(&out.get_output().stdout)
        .trim()
        .to_string();
    assert_eq!(line, solution_of("classic-dejavu-light.png"));
}

#[test]
fn a_picture_whose_first_bytes_arrive_in_pieces_is_still_a_picture() {
    // A writer that hands over the signature a few bytes at a time, pausing between them: a
    // single peek at stdin's buffer would see only "\x89PN" and take the input for a list.
    use std::io::Write;
    use std::process::{Command, Stdio};
    let bytes = std::fs::read(sample("classic-dejavu-light.png")).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_sudoku-snap"))
        .args(["-", "-f", "line", "-q"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        for piece in bytes[..12].chunks(3) {
            stdin.write_all(piece).unwrap();
            stdin.flush().unwrap();
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        stdin.write_all(&bytes[12..]).unwrap();
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        solution_of("classic-dejavu-light.png")
    );
}
