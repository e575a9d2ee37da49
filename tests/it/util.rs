//! Helpers shared by the integration tests: the binary under test, puzzles with known answers,
//! the one rule for tests that cannot run here (`skipped`, `shared`), and hostile inputs.

use std::path::PathBuf;

use sudoku_snap::puzzle::board::Board;

/// A proper puzzle (one solution) and that solution.
pub const PUZZLE: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
pub const SOLUTION: &str =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

/// The first puzzle of serg_benchmark.txt: 872 solutions.
pub const SERG: &str =
    "8.........95.......76.........426798...571243...893165......916....3.487....1.532";
pub const SERG_SOLUTIONS: usize = 872;

/// No clashing givens, but r1c9 must be 9 and column 9 already holds a 9.
pub const UNSOLVABLE: &str =
    "12345678.........9...............................................................";

/// r1c1 and r1c2 both hold 5.
pub const CONFLICT: &str =
    "55..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

/// The `sudoku-snap` binary built by cargo for this test run.
pub fn cmd() -> assert_cmd::Command {
    assert_cmd::Command::new(env!("CARGO_BIN_EXE_sudoku-snap"))
}

/// Parses one puzzle, panicking with the text on failure.
pub fn board(text: &str) -> Board {
    text.parse()
        .unwrap_or_else(|e| panic!("{text:?} does not parse: {e}"))
}

/// Whether this is a CI run (`CI` set, as CI services do, to anything but empty, `0` or
/// `false`). There the data sets must be present, so their absence fails a test rather than
/// skipping it.
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !matches!(v.trim(), "" | "0" | "false"))
}

/// Says on stderr that the calling test checks nothing, and why: every test that cannot run
/// here goes through this, so no test passes silently. (`cargo test -- --show-output` shows
/// the notes of passing tests.)
pub fn skipped(why: impl std::fmt::Display) {
    let test = std::thread::current()
        .name()
        .unwrap_or("a test")
        .to_string();
    eprintln!("skipped: {test}: {why}");
}

/// `../shared/<relative>` (a file or folder beside the repository), or `None` after saying the
/// test is skipped. Under CI (see [`in_ci`]) the data must be there: its absence fails the test.
pub fn shared(relative: &str) -> Option<PathBuf> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared")
        .join(relative);
    if path.exists() {
        return Some(path);
    }
    assert!(
        !in_ci(),
        "{} is missing; CI needs ../shared beside the repository",
        path.display()
    );
    skipped(format_args!("{} not found", path.display()));
    None
}

/// A file of `../shared/data/puzzles`, by the rule of [`shared`].
pub fn shared_puzzles(name: &str) -> Option<PathBuf> {
    shared(&format!("data/puzzles/{name}"))
}

/// Every `step`-th line of a puzzle file (starting with the first), as (line number, text).
pub fn sample_lines(path: &PathBuf, step: usize) -> Vec<(usize, String)> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .enumerate()
        .step_by(step)
        .map(|(i, l)| (i + 1, l.to_string()))
        .collect()
}

/// Fewer samples in debug builds, where the solver is many times slower.
pub fn scaled_step(release_step: usize) -> usize {
    if cfg!(debug_assertions) {
        release_step * 10
    } else {
        release_step
    }
}

/// Every regular file under `dir` (not following links) with its bytes, to show that a run
/// left its inputs as they were.
pub fn snapshot(dir: &std::path::Path) -> std::collections::BTreeMap<PathBuf, Vec<u8>> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .flatten()
        .filter(|e| e.file_type().is_file())
        .map(|e| (e.path().to_path_buf(), std::fs::read(e.path()).unwrap()))
        .collect()
}

/// A decompression bomb: a PNG signature and a header declaring 50,000 x 50,000 grey pixels,
/// and no pixel data. The header's CRC is right, so a decoder cannot refuse it as corrupt: only
/// a size check before decoding stops it.
pub fn bomb_png() -> Vec<u8> {
    let mut ihdr = b"IHDR".to_vec();
    ihdr.extend_from_slice(&50_000u32.to_be_bytes());
    ihdr.extend_from_slice(&50_000u32.to_be_bytes());
    // 8-bit greyscale, deflate, adaptive filtering, not interlaced.
    ihdr.extend_from_slice(&[8, 0, 0, 0, 0]);
    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    png.extend_from_slice(&13u32.to_be_bytes());
    png.extend_from_slice(&ihdr);
    png.extend_from_slice(&crc32(&ihdr).to_be_bytes());
    png
}

/// A lossless WebP of 16383 x 6100 pixels in 38 bytes (issue 57): five prefix codes of one
/// symbol each, so every pixel costs no bits at all; 400 MB once decoded.
pub fn webp_bomb() -> Vec<u8> {
    // (value, width in bits), packed least significant bit first as VP8L reads them.
    let mut fields: Vec<(u32, u32)> = vec![(0x2f, 8), (16383 - 1, 14), (6100 - 1, 14)];
    // Alpha used, version 0; no transform, no colour cache, no meta prefix codes.
    fields.extend([(1, 1), (0, 3), (0, 1), (0, 1), (0, 1)]);
    for symbol in [0, 0, 0, 255, 0] {
        // A simple code of one 8-bit symbol: green, red, blue, alpha, distance.
        fields.extend([(1, 1), (0, 1), (1, 1), (symbol, 8)]);
    }
    let (mut bits, mut n) = (0u128, 0);
    for (value, width) in fields {
        bits |= u128::from(value) << n;
        n += width;
    }
    let mut vp8l = bits.to_le_bytes()[..n.div_ceil(8) as usize].to_vec();
    vp8l.resize(vp8l.len().next_multiple_of(2), 0);
    let mut body = b"WEBPVP8L".to_vec();
    body.extend_from_slice(&(vp8l.len() as u32).to_le_bytes());
    body.extend_from_slice(&vp8l);
    let mut webp = b"RIFF".to_vec();
    webp.extend_from_slice(&(body.len() as u32).to_le_bytes());
    webp.extend_from_slice(&body);
    webp
}

/// An RLE8 BMP of 10,000 x 10,000 pixels in about 1 KB (issue 57): a grey palette and data
/// that ends at once; 300 MB once decoded.
pub fn bmp_rle8_bomb() -> Vec<u8> {
    let side = 10_000i32;
    let data = [0u8, 1]; // end of bitmap
    let palette: Vec<u8> = (0..=255u8).flat_map(|i| [i, i, i, 0]).collect();
    let offset = 14 + 40 + palette.len() as u32;
    let mut bmp = b"BM".to_vec();
    bmp.extend_from_slice(&(offset + data.len() as u32).to_le_bytes());
    bmp.extend_from_slice(&[0; 4]);
    bmp.extend_from_slice(&offset.to_le_bytes());
    // BITMAPINFOHEADER: size, width, height, planes, 8 bits, BI_RLE8, data size, 72 dpi,
    // 256 colours used, all important.
    bmp.extend_from_slice(&40u32.to_le_bytes());
    bmp.extend_from_slice(&side.to_le_bytes());
    bmp.extend_from_slice(&side.to_le_bytes());
    bmp.extend_from_slice(&1u16.to_le_bytes());
    bmp.extend_from_slice(&8u16.to_le_bytes());
    bmp.extend_from_slice(&1u32.to_le_bytes());
    bmp.extend_from_slice(&(data.len() as u32).to_le_bytes());
    bmp.extend_from_slice(&2835i32.to_le_bytes());
    bmp.extend_from_slice(&2835i32.to_le_bytes());
    bmp.extend_from_slice(&256u32.to_le_bytes());
    bmp.extend_from_slice(&0u32.to_le_bytes());
    bmp.extend_from_slice(&palette);
    bmp.extend_from_slice(&data);
    bmp
}

/// A GIF declaring a 9999 x 9999 screen and one frame as large, whose data is only a clear
/// code and an end code (issue 57); 400 MB of RGBA once decoded.
pub fn gif_bomb() -> Vec<u8> {
    let side = 9999u16.to_le_bytes();
    let mut gif = b"GIF89a".to_vec();
    gif.extend_from_slice(&side);
    gif.extend_from_slice(&side);
    // A global table of two colours, black and white.
    gif.extend_from_slice(&[0x80, 0, 0, 0, 0, 0, 255, 255, 255]);
    gif.push(b',');
    gif.extend_from_slice(&[0, 0, 0, 0]);
    gif.extend_from_slice(&side);
    gif.extend_from_slice(&side);
    gif.push(0);
    // LZW with 2-bit codes: clear (4) then end (5) in 3-bit codes, one sub-block.
    gif.extend_from_slice(&[2, 1, 0x2c, 0, b';']);
    gif
}

/// A 64 x 64 white PNG whose `kind` chunk (after IHDR) holds `data` as it is.
pub fn png_with_chunk(kind: &[u8; 4], data: &[u8]) -> Vec<u8> {
    let chunk = |kind: &[u8], data: &[u8]| {
        let mut body = kind.to_vec();
        body.extend_from_slice(data);
        let mut out = (data.len() as u32).to_be_bytes().to_vec();
        out.extend_from_slice(&body);
        out.extend_from_slice(&crc32(&body).to_be_bytes());
        out
    };
    let side = 64u32;
    let mut ihdr = side.to_be_bytes().to_vec();
    ihdr.extend_from_slice(&side.to_be_bytes());
    ihdr.extend_from_slice(&[8, 0, 0, 0, 0]);
    let mut rows = Vec::new();
    for _ in 0..side {
        rows.push(0);
        rows.extend(std::iter::repeat_n(255u8, side as usize));
    }
    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    png.extend(chunk(b"IHDR", &ihdr));
    png.extend(chunk(kind, data));
    png.extend(chunk(b"IDAT", &zlib(&rows)));
    png.extend(chunk(b"IEND", b""));
    png
}

/// `bytes` in a zlib stream.
pub fn zlib(bytes: &[u8]) -> Vec<u8> {
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
    std::io::Write::write_all(&mut z, bytes).unwrap();
    z.finish().unwrap()
}

/// PNG's CRC-32 of a chunk's type and data.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = 0xffff_ffffu32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xedb8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

#[test]
fn a_missing_data_set_is_skipped_here_and_fails_under_ci() {
    let missing = || shared("data/no-such-set-for-this-test");
    if in_ci() {
        assert!(std::panic::catch_unwind(missing).is_err());
    } else {
        assert_eq!(missing(), None);
    }
}
