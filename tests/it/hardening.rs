//! The screenshot command against a hostile but fair user (issue 10): outputs never land on
//! an input or a folder, FIFOs never block a batch, closed pipes end the run quietly, huge
//! pictures stay within the memory limit, names that are not UTF-8 keep valid JSON, damaged
//! files get sentences, and a signal leaves no temporary file. Everything at once at the end.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use super::util::{
    bmp_rle8_bomb, bomb_png, cmd, gif_bomb, png_with_chunk, snapshot, webp_bomb, zlib,
};

fn sample(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("samples")
        .join(name)
}

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sudoku-snap"))
}

/// Waits for `child` at most `limit`; kills it and fails the test when it takes longer.
fn wait_or_kill(child: &mut Child, limit: Duration, what: &str) -> std::process::ExitStatus {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if start.elapsed() > limit {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("{what} did not end within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn mkfifo(path: &Path) {
    let made = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(made.success(), "mkfifo {}", path.display());
}

/// A 9999 x 9999 16-bit RGBA PNG (800 MB decoded, under 1 MB on disk).
///
/// Kept in Cargo's scratch directory for integration tests, so it is made once and
/// never left behind in the system's temporary directory; written to a temporary
/// name and renamed, so test binaries running at once never see half a file.
fn png16_bomb() -> &'static Path {
    static BOMB: OnceLock<PathBuf> = OnceLock::new();
    BOMB.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR"));
        let path = dir.join("png16-bomb.png");
        if path.exists() {
            return path;
        }
        let part = tempfile::NamedTempFile::new_in(dir).unwrap();
        let file = std::io::BufWriter::new(part.as_file());
        let side = 9999;
        let mut encoder = png::Encoder::new(file, side, side);
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Sixteen);
        encoder.set_compression(png::Compression::Fast);
        let mut writer = encoder.write_header().unwrap();
        let mut stream = writer.stream_writer().unwrap();
        let row = vec![0x80u8; side as usize * 8];
        for _ in 0..side {
            std::io::Write::write_all(&mut stream, &row).unwrap();
        }
        stream.finish().unwrap();
        writer.finish().unwrap();
        part.persist(&path).unwrap();
        path
    })
}

#[test]
fn a_report_named_like_an_input_is_refused_before_any_work() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("b.png");
    std::fs::copy(sample("classic-dejavu-light.png"), &input).unwrap();
    let before = std::fs::read(&input).unwrap();
    let out = dir.path().join("out.png");
    let run = cmd()
        .arg(&input)
        .arg("-o")
        .arg(&out)
        .arg("--report")
        .arg(&input)
        .assert()
        .code(2);
    let stderr = String::from_utf8_lossy(&run.get_output().stderr).into_owned();
    assert!(
        stderr.contains("refusing to overwrite the input"),
        "{stderr}"
    );
    assert_eq!(std::fs::read(&input).unwrap(), before, "the input changed");
    assert!(!out.exists(), "work was done before the refusal");
}

#[test]
fn a_report_beside_a_single_output_writes_both_files() {
    let dir = tempfile::tempdir().unwrap();
    let (out, report) = (dir.path().join("out.png"), dir.path().join("run.jsonl"));
    cmd()
        .arg(sample("classic-dejavu-light.png"))
        .arg("-o")
        .arg(&out)
        .arg("--report")
        .arg(&report)
        .assert()
        .success();
    assert!(
        out.is_file(),
        "-o with --report must write a picture, not a folder"
    );
    image::open(&out).unwrap();
    let line = std::fs::read_to_string(&report).unwrap();
    let json: serde_json::Value = serde_json::from_str(line.trim()).unwrap();
    assert_eq!(json["status"], "solved");
    assert!(json["output"].as_str().unwrap().ends_with("out.png"));
}

#[test]
fn an_output_or_report_that_is_a_folder_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("x.jsonl");
    std::fs::create_dir(&folder).unwrap();
    let run = cmd()
        .arg(sample("classic-dejavu-light.png"))
        .arg("--report")
        .arg(&folder)
        .assert()
        .code(2);
    let stderr = String::from_utf8_lossy(&run.get_output().stderr).into_owned();
    assert!(stderr.contains("is a folder"), "{stderr}");
}

#[test]
fn a_folder_named_like_a_picture_with_no_picture_in_it_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("x.png");
    std::fs::create_dir(&folder).unwrap();
    let run = cmd()
        .arg(&folder)
        .arg("-o")
        .arg(dir.path().join("out/"))
        .assert()
        .code(1);
    let stderr = String::from_utf8_lossy(&run.get_output().stderr).into_owned();
    assert!(stderr.contains("no pictures in this folder"), "{stderr}");
}

#[cfg(unix)]
#[test]
fn a_fifo_among_the_inputs_is_reported_and_the_batch_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().join("d");
    std::fs::create_dir(&d).unwrap();
    std::fs::copy(sample("classic-dejavu-light.png"), d.join("a.png")).unwrap();
    std::fs::copy(sample("classic-dejavu-light.png"), d.join("b.png")).unwrap();
    mkfifo(&d.join("x.png"));
    let out = dir.path().join("o");
    for args in [
        vec![d.join("a.png"), d.join("x.png"), d.join("b.png")],
        vec![d.clone()],
    ] {
        let _ = std::fs::remove_dir_all(&out);
        let mut child = bin()
            .args(&args)
            .args(["-j", "1", "-f", "line", "-o"])
            .arg(format!("{}/", out.display()))
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let status = wait_or_kill(&mut child, Duration::from_secs(60), "a batch with a FIFO");
        let output = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(status.code(), Some(1), "{stderr}");
        assert!(
            stderr.contains("x.png: not a regular file but a named pipe"),
            "{stderr}"
        );
        assert!(out.join("a.png").is_file() && out.join("b.png").is_file());
    }
}

#[cfg(unix)]
#[test]
fn a_closed_stderr_ends_the_batch_without_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let shots = dir.path().join("shots");
    std::fs::create_dir(&shots).unwrap();
    for i in 0..20 {
        std::fs::write(shots.join(format!("bad{i:02}.png")), b"not a picture").unwrap();
    }
    let mut child = bin()
        .arg(&shots)
        .args(["-j", "1", "-f", "line", "-o"])
        .arg(dir.path().join("out/"))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stderr.take()); // as `2>&1 >/dev/null | head -c 1` once head has its byte
    let status = wait_or_kill(
        &mut child,
        Duration::from_secs(60),
        "a batch with stderr closed",
    );
    assert_ne!(status.code(), Some(101), "it panicked");
    assert_eq!(status.code(), Some(1), "the inputs were bad: {status}");
}

#[cfg(unix)]
#[test]
fn a_closed_stdout_ends_a_batch_at_once_with_exit_0() {
    let dir = tempfile::tempdir().unwrap();
    let shots = dir.path().join("shots");
    std::fs::create_dir(&shots).unwrap();
    for i in 0..200 {
        std::fs::copy(
            sample("classic-dejavu-light.png"),
            shots.join(format!("s{i:03}.png")),
        )
        .unwrap();
    }
    let out = dir.path().join("out");
    let mut child = bin()
        .arg(&shots)
        .args(["-j", "1", "-q", "-f", "line", "-o"])
        .arg(format!("{}/", out.display()))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap(); // the reader is dropped here, like `| head -1`
    assert!(first.contains("s000.png"), "{first}");
    let status = wait_or_kill(
        &mut child,
        Duration::from_secs(120),
        "a batch with stdout closed",
    );
    let stderr = String::from_utf8_lossy(&child.wait_with_output().unwrap().stderr).into_owned();
    assert_eq!(status.code(), Some(0), "{stderr}");
    assert!(!stderr.contains("Broken pipe"), "{stderr}");
    let written = std::fs::read_dir(&out).unwrap().count();
    assert!(
        written < 200,
        "all {written} pictures were done after stdout closed"
    );
}

#[test]
fn a_16_bit_bomb_is_read_within_the_memory_limit() {
    // 800 MB decoded as it claims; read row by row and scaled down, it fits in 64 MB.
    let run = cmd()
        .arg(png16_bomb())
        .args(["--max-memory", "64", "-f", "json"])
        .assert()
        .code(1);
    let json: serde_json::Value =
        serde_json::from_slice(run.get_output().stdout.trim_ascii()).unwrap();
    assert_eq!(json["status"], "no_grid", "{json}");
}

#[test]
fn a_picture_over_the_memory_limit_is_refused_in_words() {
    let dir = tempfile::tempdir().unwrap();
    let bmp = dir.path().join("big.bmp");
    image::RgbImage::new(3000, 3000).save(&bmp).unwrap(); // 27 MB decoded
    let run = cmd()
        .arg(&bmp)
        .args(["--max-memory", "16"])
        .assert()
        .code(1);
    let stderr = String::from_utf8_lossy(&run.get_output().stderr).into_owned();
    assert!(
        stderr.contains("big.bmp: decoding it needs 52 MB, over the limit of 16 MB"),
        "{stderr}"
    );
}

/// Issue 57: pictures of a few bytes that decode to hundreds of MB (a 16383 x 6100 lossless
/// WebP of 38 bytes, 10,000^2 RLE8 BMP and 9999^2 GIF) are refused at the default
/// `--max-memory` by their decoder's true peak, named with it, before a pixel is decoded.
#[test]
fn decoder_bombs_are_refused_by_their_true_peak_before_decoding() {
    let dir = tempfile::tempdir().unwrap();
    let bombs = [
        ("bomb.webp", webp_bomb(), 477),
        ("rle8.bmp", bmp_rle8_bomb(), 358),
        ("bomb.gif", gif_bomb(), 859),
    ];
    for (name, bytes, needed) in bombs {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        let run = cmd().arg(&path).args(["-f", "line"]).assert().code(1);
        let stdout = String::from_utf8_lossy(&run.get_output().stdout).into_owned();
        assert_eq!(stdout.trim_end(), "error", "{name}");
        let stderr = String::from_utf8_lossy(&run.get_output().stderr).into_owned();
        let said = format!("{name}: decoding it needs {needed} MB, over the limit of 200 MB");
        assert!(stderr.contains(&said), "{stderr}");
    }
}

/// A zlib stream of `len` zero bytes, deflated a block at a time (never held inflated).
fn zlib_zeros(len: usize) -> Vec<u8> {
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
    let block = vec![0u8; 1 << 20];
    for _ in 0..len / block.len() {
        std::io::Write::write_all(&mut z, &block).unwrap();
    }
    z.finish().unwrap()
}

/// Issue 57: an ICC profile or text chunk that inflates to 600 MB is skipped unread and the
/// picture read within a 16 MB `--max-memory`. (The ICC profile used to be inflated up to the
/// PNG decoder's own 512 MiB allowance, 536 MB of memory whatever `--max-memory` said, and
/// then dropped: the status was the same, so `benches/hostile.sh` is what checks the peak.)
#[test]
fn png_icc_and_text_chunks_that_inflate_to_600_mb_are_skipped_unread() {
    let dir = tempfile::tempdir().unwrap();
    let bomb = zlib_zeros(600 << 20);
    let chunks: [(&[u8; 4], &[u8]); 3] = [
        (b"iCCP", b"icc\0\0"),
        (b"zTXt", b"Comment\0\0"),
        (b"iTXt", b"Comment\0\x01\0\0\0"),
    ];
    for (kind, head) in chunks {
        let path = dir.path().join("chunk.png");
        std::fs::write(&path, png_with_chunk(kind, &[head, &bomb].concat())).unwrap();
        let run = cmd()
            .arg(&path)
            .args(["--max-memory", "16", "-f", "json"])
            .assert()
            .code(1);
        let json: serde_json::Value =
            serde_json::from_slice(run.get_output().stdout.trim_ascii()).unwrap();
        // A white page: read, and no grid in it.
        assert_eq!(json["status"], "no_grid", "{kind:?}: {json}");
    }
    // The chunk is skipped, not lost with the picture: a small one reads the same.
    let path = dir.path().join("small.png");
    std::fs::write(
        &path,
        png_with_chunk(b"zTXt", &[&b"Comment\0\0"[..], &zlib(b"hi")].concat()),
    )
    .unwrap();
    let run = cmd().arg(&path).args(["-f", "json"]).assert().code(1);
    let json: serde_json::Value =
        serde_json::from_slice(run.get_output().stdout.trim_ascii()).unwrap();
    assert_eq!(json["status"], "no_grid", "{json}");
}

#[test]
fn a_large_png_is_scaled_down_and_still_read_and_solved() {
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("big.png");
    let small = image::open(sample("classic-dejavu-light.png")).unwrap();
    let (w, h) = (small.width() * 3, small.height() * 3);
    small
        .resize_exact(w, h, image::imageops::FilterType::Triangle)
        .save(&big)
        .unwrap();
    let out = dir.path().join("out.png");
    let truth = std::fs::read_to_string(sample("classic-dejavu-light.txt")).unwrap();
    // A working size of 2 MP halves each side of this 5 MP picture while decoding it.
    let run = cmd()
        .arg(&big)
        .arg("-o")
        .arg(&out)
        .args(["--max-working-pixels", "2000000", "-f", "line"])
        .assert()
        .success();
    let stdout = String::from_utf8_lossy(&run.get_output().stdout).into_owned();
    assert_eq!(stdout.trim(), truth.lines().nth(1).unwrap());
    let written = image::open(&out).unwrap();
    assert_eq!(
        (written.width(), written.height()),
        (w.div_ceil(2), h.div_ceil(2))
    );
}

#[cfg(unix)]
#[test]
fn a_name_that_is_not_utf8_keeps_its_bytes_and_the_json_stays_valid() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    let shots = dir.path().join("shots");
    std::fs::create_dir(&shots).unwrap();
    let name = OsStr::from_bytes(b"sh\xffot.png");
    std::fs::copy(sample("classic-dejavu-light.png"), shots.join(name)).unwrap();
    let out = dir.path().join("out");
    let run = cmd()
        .arg(&shots)
        .args(["-f", "json", "-o"])
        .arg(format!("{}/", out.display()))
        .assert()
        .success();
    let line = String::from_utf8(run.get_output().stdout.clone()).expect("JSON is UTF-8");
    let json: serde_json::Value = serde_json::from_str(line.trim()).unwrap();
    assert_eq!(json["status"], "solved");
    assert!(json["input"]
        .as_str()
        .unwrap()
        .ends_with("sh\u{fffd}ot.png"));
    assert!(out.join(name).is_file(), "the output's name lost its bytes");
}

#[test]
fn a_damaged_png_is_described_in_words() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("crc.png");
    let mut bytes = std::fs::read(sample("classic-dejavu-light.png")).unwrap();
    let idat = bytes.windows(4).position(|w| w == b"IDAT").unwrap();
    bytes[idat + 10] ^= 0x55; // the data no longer matches its checksum
    std::fs::write(&bad, bytes).unwrap();
    let run = cmd().arg(&bad).assert().code(1);
    let stderr = String::from_utf8_lossy(&run.get_output().stderr).into_owned();
    assert!(
        stderr.contains("crc.png: not a readable image: the file is damaged"),
        "{stderr}"
    );
    assert!(!stderr.contains("ChunkType"), "{stderr}");
}

#[cfg(unix)]
#[test]
fn a_signal_during_a_single_image_write_leaves_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    // A picture big enough that writing the answer takes a while.
    let big = dir.path().join("big.png");
    let small = image::open(sample("classic-dejavu-light.png")).unwrap();
    small
        .resize_exact(3000, 3000, image::imageops::FilterType::Triangle)
        .save(&big)
        .unwrap();
    let out_dir = dir.path().join("out");
    std::fs::create_dir(&out_dir).unwrap();
    let temps = || {
        std::fs::read_dir(&out_dir)
            .unwrap()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
            .count()
    };
    let mut caught = 0;
    for _ in 0..5 {
        let mut child = bin()
            .arg(&big)
            .arg("-o")
            .arg(out_dir.join("solved.png"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // Signal the moment the temporary file appears.
        let start = Instant::now();
        while temps() == 0 && start.elapsed() < Duration::from_secs(60) {
            if child.try_wait().unwrap().is_some() {
                break;
            }
        }
        if temps() > 0 {
            caught += 1;
            let _ = Command::new("kill")
                .args(["-TERM", &child.id().to_string()])
                .status();
        }
        wait_or_kill(
            &mut child,
            Duration::from_secs(60),
            "a signalled single run",
        );
        assert_eq!(temps(), 0, "a temporary file was left behind");
    }
    assert!(
        caught > 0,
        "never saw the temporary file: the test proved nothing"
    );
}

#[cfg(unix)]
#[test]
fn a_batch_of_every_kind_of_bad_input_reports_each_and_writes_every_good_one() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    let shots = dir.path().join("shots");
    std::fs::create_dir_all(shots.join("folder.png")).unwrap();
    let good = ["good1.png", "good2.png", "good3.jpg"];
    std::fs::copy(sample("classic-dejavu-light.png"), shots.join(good[0])).unwrap();
    std::fs::copy(sample("phone-1170x2532.png"), shots.join(good[1])).unwrap();
    std::fs::copy(sample("lato-light.jpg"), shots.join(good[2])).unwrap();
    std::fs::copy(
        sample("classic-dejavu-light.png"),
        shots.join(std::ffi::OsStr::from_bytes(b"good\xff4.png")),
    )
    .unwrap();
    std::fs::write(shots.join("zero.png"), b"").unwrap();
    let whole = std::fs::read(sample("classic-dejavu-light.png")).unwrap();
    std::fs::write(shots.join("truncated.png"), &whole[..whole.len() / 2]).unwrap();
    std::fs::write(shots.join("bomb.png"), bomb_png()).unwrap();
    std::fs::copy(png16_bomb(), shots.join("bomb16.png")).unwrap();
    mkfifo(&shots.join("fifo.png"));
    std::os::unix::fs::symlink("loop.png", shots.join("loop.png")).unwrap();
    let before = snapshot(&shots);
    let out = dir.path().join("out");
    let mut child = bin()
        .arg(&shots)
        .arg(shots.join("folder.png")) // a folder argument, unlike the walked sub-folder
        .args(["-j", "2", "-f", "json", "-o"])
        .arg(format!("{}/", out.display()))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let status = wait_or_kill(&mut child, Duration::from_secs(300), "the hostile batch");
    let output = child.wait_with_output().unwrap();
    assert_eq!(status.code(), Some(1));
    let reports: Vec<serde_json::Value> = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let status_of = |name: &str| {
        let r = reports
            .iter()
            .find(|r| r["input"].as_str().unwrap().ends_with(name))
            .unwrap_or_else(|| panic!("no report for {name}: {reports:?}"));
        r["status"].as_str().unwrap().to_string()
    };
    for name in good.iter().copied().chain(["good\u{fffd}4.png"]) {
        assert_eq!(status_of(name), "solved", "{name}");
    }
    for name in [
        "zero.png",
        "truncated.png",
        "bomb.png",
        "fifo.png",
        "loop.png",
    ] {
        assert_eq!(status_of(name), "error", "{name}");
    }
    assert_eq!(status_of("bomb16.png"), "no_grid");
    assert_eq!(
        status_of("folder.png"),
        "error",
        "an empty folder named like a picture"
    );
    assert_eq!(snapshot(&shots), before, "an input changed");
    assert_eq!(
        std::fs::read_dir(&out).unwrap().count(),
        4,
        "every good file written"
    );
}

#[test]
fn generate_refuses_a_folder_as_its_picture_before_any_work() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("puzzle.png");
    std::fs::create_dir(&folder).unwrap();
    let run = cmd()
        .args(["generate", "--seed", "1", "-o"])
        .arg(&folder)
        .assert()
        .code(2);
    let stderr = String::from_utf8_lossy(&run.get_output().stderr).into_owned();
    assert!(stderr.contains("is a folder"), "{stderr}");
    assert!(
        run.get_output().stdout.is_empty(),
        "a puzzle was made first"
    );
}
