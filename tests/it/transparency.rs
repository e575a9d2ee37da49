//! Transparency composited for reading and kept on output (issue 12). A sample is made
//! transparent the way a sudoku exported without a background is (its white page taken out
//! as alpha, the hidden colour black) and solved: PNG and WebP outputs keep the alpha, the
//! page transparent as in the input and the drawn ink opaque, and laid over white they are
//! exactly what the opaque sample gets, so they read back as the solution; JPEG is laid over
//! white; --check and --hint marks and the library's one call keep the alpha as well.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use image::{DynamicImage, ImageFormat, Rgb, RgbImage, Rgba, RgbaImage};
use sudoku_snap::{Board, Options, Pos, Snap};

use super::util::cmd;

const SAMPLE: &str = "samples/classic-dejavu-light.png";
/// A game in progress with a wrong entry, for --check and --hint.
const GAME: &str = "tests/data/reading/entries-wrong-red.png";

fn repo(relative: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(relative)
}

/// The picture's white taken out as alpha: each pixel becomes the most transparent colour
/// that shows as it did over white, white itself transparent black.
fn clear(rgb: &RgbImage) -> RgbaImage {
    RgbaImage::from_fn(rgb.width(), rgb.height(), |x, y| {
        let p = rgb.get_pixel(x, y).0;
        let darkest = u32::from(*p.iter().min().unwrap());
        let alpha = 255 - darkest;
        if alpha == 0 {
            return Rgba([0, 0, 0, 0]);
        }
        let c = p.map(|s| ((255 * (u32::from(s) - darkest) + alpha / 2) / alpha) as u8);
        Rgba([c[0], c[1], c[2], alpha as u8])
    })
}

/// `rgba` as a viewer on white shows it (the rounding of the reader's own compositing).
fn over_white(rgba: &RgbaImage) -> RgbImage {
    RgbImage::from_fn(rgba.width(), rgba.height(), |x, y| {
        let [r, g, b, a] = rgba.get_pixel(x, y).0.map(u32::from);
        Rgb([r, g, b].map(|v| ((v * a + 255 * (255 - a) + 127) / 255) as u8))
    })
}

/// Writes the transparent version of the picture at `relative` into `dir`; returns its path
/// and the opaque picture.
fn transparent_copy(relative: &str, dir: &Path) -> (PathBuf, RgbImage) {
    let opaque = image::open(repo(relative)).unwrap().to_rgb8();
    let clear = clear(&opaque);
    assert_eq!(
        over_white(&clear),
        opaque,
        "the test's picture shows as the sample"
    );
    let path = dir.join("clear.png");
    clear.save(&path).unwrap();
    (path, opaque)
}

/// Runs the screenshot command on `input` with `-o output` and `extra` arguments.
/// `input` solved (or checked, or hinted, by `extra`) into `output`. Only `GAME` is checked,
/// and its one wrong entry makes `--check` exit 1, as `rustfmt --check` does on a file it
/// would change.
fn solve_to(input: &Path, output: &Path, extra: &[&str]) {
    let code = i32::from(extra.contains(&"--check"));
    cmd()
        .arg(input)
        .arg("-o")
        .arg(output)
        .args(["-f", "line"])
        .args(extra)
        .assert()
        .code(code);
}

/// The solution in the sample's ground truth.
fn solution() -> Board {
    let truth = std::fs::read_to_string(repo(SAMPLE).with_extension("txt")).unwrap();
    truth.lines().nth(1).unwrap().parse().unwrap()
}

/// Reads `path` back (laid over white, as every picture is read): givens and entries
/// together must be the solution.
fn assert_reads_back_as_the_solution(path: &Path) {
    let report = Snap::new(Options::default()).unwrap().process(path, None);
    let (givens, entries) = (report.givens.unwrap(), report.entries.unwrap());
    let solution = solution();
    for p in Pos::all() {
        assert_eq!(
            givens.get(p).or(entries.get(p)),
            solution.get(p),
            "{}: {p}",
            path.display()
        );
    }
}

/// The ink at full coverage (strokes' interiors): of the pixels of the picture whose colour
/// the drawing changed by half the range or more, the colour drawn most often.
fn ink(opaque: &RgbImage, drawn: &RgbImage) -> [u8; 3] {
    let mut counts: HashMap<[u8; 3], usize> = HashMap::new();
    for (x, y, p) in drawn.enumerate_pixels() {
        if y >= opaque.height() {
            continue; // the strip a hint's words are written on
        }
        let before = opaque.get_pixel(x, y).0;
        if (0..3).any(|c| p[c].abs_diff(before[c]) >= 128) {
            *counts.entry(p.0).or_default() += 1;
        }
    }
    counts.into_iter().max_by_key(|&(_, n)| n).unwrap().0
}

/// Compares the output of the transparent input with that of the opaque one (`drawn`, drawn
/// on `opaque`): laid over white it is the same picture; where nothing was drawn the alpha is
/// the input's (the page mostly see-through: under 16, as a page tinted off white is);
/// where something was, never more transparent, and the ink opaque; a strip added below the
/// picture for a hint's words is opaque.
fn assert_kept(out: &RgbaImage, input: &RgbaImage, opaque: &RgbImage, drawn: &RgbImage) {
    assert_eq!(
        over_white(out),
        *drawn,
        "over white: what the opaque input got"
    );
    let changed = |x, y| opaque.get_pixel(x, y) != drawn.get_pixel(x, y);
    let pixels = (input.width() * input.height()) as usize;
    let ink = ink(opaque, drawn);
    let (mut see_through, mut inked) = (0, 0);
    for (x, y, p) in out.enumerate_pixels() {
        if y >= input.height() {
            assert_eq!(p[3], 255, "({x}, {y}): the hint's strip is opaque");
            continue;
        }
        let before = input.get_pixel(x, y)[3];
        if !changed(x, y) {
            assert_eq!(p[3], before, "({x}, {y}) not drawn on: alpha kept");
            see_through += usize::from(before < 16);
        } else {
            assert!(p[3] >= before, "({x}, {y}) drawn on: more transparent");
            if drawn.get_pixel(x, y).0 == ink {
                assert_eq!(p[3], 255, "({x}, {y}): the ink {ink:?} is opaque");
                inked += 1;
            }
        }
    }
    assert!(
        see_through > pixels / 2,
        "{see_through} of {pixels} pixels see-through"
    );
    assert!(inked > 100, "{inked} pixels of ink");
}

#[test]
fn a_transparent_png_or_webp_keeps_its_alpha_with_the_answer_opaque() {
    let dir = tempfile::tempdir().unwrap();
    let (input, opaque) = transparent_copy(SAMPLE, dir.path());
    let reference = dir.path().join("opaque.png");
    solve_to(&repo(SAMPLE), &reference, &[]);
    let drawn = image::open(&reference).unwrap().to_rgb8();
    let clear = image::open(&input).unwrap().to_rgba8();
    for ext in ["png", "webp"] {
        let out = dir.path().join(format!("solved.{ext}"));
        solve_to(&input, &out, &[]);
        let written = image::open(&out).unwrap();
        assert!(
            matches!(written, DynamicImage::ImageRgba8(_)),
            "{ext}: {:?}",
            written.color()
        );
        assert_kept(&written.to_rgba8(), &clear, &opaque, &drawn);
        assert_reads_back_as_the_solution(&out);
    }
}

#[test]
fn a_transparent_input_written_as_jpeg_is_laid_over_white() {
    let dir = tempfile::tempdir().unwrap();
    let (input, _) = transparent_copy(SAMPLE, dir.path());
    let out = dir.path().join("solved.jpg");
    solve_to(&input, &out, &[]);
    let written = image::open(&out).unwrap();
    assert!(
        matches!(written, DynamicImage::ImageRgb8(_)),
        "{:?}",
        written.color()
    );
    // The corner was transparent over black: white, not black.
    let corner = written.to_rgb8().get_pixel(2, 2).0;
    assert!(corner.iter().all(|&c| c > 245), "{corner:?}");
    assert_reads_back_as_the_solution(&out);
}

#[test]
fn check_rings_and_hints_on_a_transparent_game_are_opaque() {
    let dir = tempfile::tempdir().unwrap();
    let (input, opaque) = transparent_copy(GAME, dir.path());
    let clear = image::open(&input).unwrap().to_rgba8();
    for mode in [&["--check"][..], &["--hint", "2"]] {
        let reference = dir.path().join("opaque.png");
        let out = dir.path().join("marked.png");
        solve_to(&repo(GAME), &reference, mode);
        solve_to(&input, &out, mode);
        let drawn = image::open(&reference).unwrap().to_rgb8();
        let written = image::open(&out).unwrap().to_rgba8();
        assert_kept(&written, &clear, &opaque, &drawn);
        std::fs::remove_file(reference).unwrap();
        std::fs::remove_file(out).unwrap();
    }
}

#[test]
fn an_alpha_channel_with_nothing_transparent_is_written_as_without_one() {
    let dir = tempfile::tempdir().unwrap();
    let rgba = image::open(repo(SAMPLE)).unwrap().to_rgba8();
    let input = dir.path().join("opaque-rgba.png");
    rgba.save(&input).unwrap();
    let (with, without) = (dir.path().join("with.png"), dir.path().join("without.png"));
    solve_to(&input, &with, &[]);
    solve_to(&repo(SAMPLE), &without, &[]);
    assert!(std::fs::read(&with).unwrap() == std::fs::read(&without).unwrap());
}

#[test]
fn the_library_call_keeps_the_alpha_of_an_rgba_image() {
    let snap = Snap::new(Options::default()).unwrap();
    let opaque = image::open(repo(SAMPLE)).unwrap();
    let clear = clear(&opaque.to_rgb8());
    let drawn = snap.solve_image(&opaque).unwrap().picture.unwrap();
    let DynamicImage::ImageRgb8(drawn) = drawn else {
        panic!("an opaque picture comes back RGB: {:?}", drawn.color());
    };
    let mut png = std::io::Cursor::new(Vec::new());
    clear.write_to(&mut png, ImageFormat::Png).unwrap();
    let from_image = snap.solve_image(&DynamicImage::ImageRgba8(clear.clone()));
    let from_bytes = snap.solve_bytes(png.get_ref(), "clear.png".as_ref());
    for solved in [from_image, from_bytes] {
        let picture = solved.unwrap().picture.expect("drawn");
        let DynamicImage::ImageRgba8(picture) = picture else {
            panic!(
                "a transparent picture comes back RGBA: {:?}",
                picture.color()
            );
        };
        assert_kept(&picture, &clear, &opaque.to_rgb8(), &drawn);
    }
}
