//! Reference pictures for the render stage, resvg's way: for a few samples the answer drawn
//! now must match a picture kept in `tests/data/render/` within a per-channel tolerance. On a
//! mismatch a diff picture is written (its path is in the failure) and the test fails.
//! `REGENERATE=1 cargo test render_refs` rewrites the references instead; look at
//! them before committing.
//!
//! A reference holds what the answer layer is: the pixels the drawing changed, transparent
//! elsewhere, over the grid's bounding box (and a small margin). Laid over the sample it gives
//! the expected picture, which the drawn one must match everywhere, unchanged pixels included.
//! Layers keep the committed PNGs small: a photographed sample's noise is not stored twice.

use std::path::{Path, PathBuf};

use image::codecs::png::{CompressionType, FilterType, PngEncoder};
use image::{ImageEncoder, Rgb, RgbImage, Rgba, RgbaImage};
use sudoku_snap::puzzle::solve::solve;
use sudoku_snap::stages::draw_answer;
use sudoku_snap::{Board, Options, Snap};

/// How far a channel may differ from the reference. The glyphs are rasterised in floating
/// point: another CPU or compiler may round an edge pixel's coverage a step differently, but
/// a moved, resized or recoloured digit differs by far more.
const TOLERANCE: u8 = 2;

/// Margin kept around the grid's bounding box, in pixels.
const MARGIN: u32 = 4;

/// A sample and the same with its answer drawn, both cropped to the grid.
struct Drawn {
    input: RgbImage,
    drawn: RgbImage,
}

/// Draws the answer into sample `name`.
fn rendered(name: &str) -> Drawn {
    let samples = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples");
    let path = samples.join(name);
    let input = image::open(&path).unwrap().into_rgb8();
    let truth = std::fs::read_to_string(path.with_extension("txt")).unwrap();
    let solution: Board = truth.lines().nth(1).unwrap().parse().unwrap();
    let snap = Snap::new(Options::default()).unwrap();
    let reading = snap
        .read(&input, &path)
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    // The reference must show the right answer, not whatever the reader made of the picture.
    let solved = solve(&reading.givens).unwrap();
    assert_eq!(solved, Some(solution), "{name}: read {}", reading.givens);
    let mut drawn = input.clone();
    draw_answer(
        &mut drawn,
        &reading.rectified,
        &reading.cells,
        &solution,
        None,
    );
    let corners = reading.rectified.quad.corners;
    let (w, h) = input.dimensions();
    let lo = |f: fn(&(f32, f32)) -> f32| corners.iter().map(f).fold(f32::MAX, f32::min);
    let hi = |f: fn(&(f32, f32)) -> f32| corners.iter().map(f).fold(f32::MIN, f32::max);
    let x0 = (lo(|c| c.0).max(0.0) as u32).saturating_sub(MARGIN);
    let y0 = (lo(|c| c.1).max(0.0) as u32).saturating_sub(MARGIN);
    let x1 = (hi(|c| c.0).ceil() as u32 + MARGIN).min(w);
    let y1 = (hi(|c| c.1).ceil() as u32 + MARGIN).min(h);
    let crop =
        |image: &RgbImage| image::imageops::crop_imm(image, x0, y0, x1 - x0, y1 - y0).to_image();
    Drawn {
        input: crop(&input),
        drawn: crop(&drawn),
    }
}

impl Drawn {
    /// The answer layer: the drawn pixels where they differ from the input, transparent
    /// elsewhere.
    fn layer(&self) -> RgbaImage {
        RgbaImage::from_fn(self.input.width(), self.input.height(), |x, y| {
            let (i, d) = (self.input.get_pixel(x, y), self.drawn.get_pixel(x, y));
            if i == d {
                Rgba([0, 0, 0, 0])
            } else {
                Rgba([d[0], d[1], d[2], 255])
            }
        })
    }

    /// The input with a reference layer laid over it.
    fn with_layer(&self, layer: &RgbaImage) -> RgbImage {
        RgbImage::from_fn(self.input.width(), self.input.height(), |x, y| {
            let l = layer.get_pixel(x, y);
            if l[3] == 0 {
                *self.input.get_pixel(x, y)
            } else {
                Rgb([l[0], l[1], l[2]])
            }
        })
    }
}

/// Writes `image` as a PNG compressed as hard as the encoder can: the references live in git.
/// No row filter: a layer is runs of one colour and of transparency, which deflate takes best
/// as they are (measured: a third smaller than with adaptive filtering).
fn write_png<P>(image: &image::ImageBuffer<P, Vec<u8>>, path: &Path)
where
    P: image::Pixel<Subpixel = u8> + image::PixelWithColorType,
{
    let mut bytes = Vec::new();
    PngEncoder::new_with_quality(&mut bytes, CompressionType::Best, FilterType::NoFilter)
        .write_image(image.as_raw(), image.width(), image.height(), P::COLOR_TYPE)
        .unwrap();
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
}

/// The reference picture's path for `name`.
fn reference(name: &str) -> PathBuf {
    let stem = Path::new(name).file_stem().unwrap().to_string_lossy();
    Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/data/render/{stem}.png"))
}

/// The pixels differing by more than [`TOLERANCE`] in some channel.
fn beyond_tolerance(expected: &RgbImage, actual: &RgbImage) -> usize {
    expected
        .pixels()
        .zip(actual.pixels())
        .filter(|(e, a)| (0..3).any(|c| e[c].abs_diff(a[c]) > TOLERANCE))
        .count()
}

/// Expected, actual and their difference side by side: red where a pixel is beyond the
/// tolerance, yellow where it differs within it, the reference faded elsewhere.
fn diff_picture(expected: &RgbImage, actual: &RgbImage) -> RgbImage {
    let (w, h) = expected.dimensions();
    let mut out = RgbImage::from_pixel(3 * w, h, Rgb([255, 255, 255]));
    image::imageops::replace(&mut out, expected, 0, 0);
    image::imageops::replace(&mut out, actual, i64::from(w), 0);
    for (x, y, e) in expected.enumerate_pixels() {
        let a = actual.get_pixel(x, y);
        let most = (0..3).map(|c| e[c].abs_diff(a[c])).max().unwrap_or(0);
        let mark = match most {
            0 => {
                let faded = (e.0.iter().map(|&v| u32::from(v)).sum::<u32>() / 9 + 170) as u8;
                Rgb([faded; 3])
            }
            d if d <= TOLERANCE => Rgb([255, 200, 0]),
            _ => Rgb([255, 0, 0]),
        };
        out.put_pixel(2 * w + x, y, mark);
    }
    out
}

/// Compares the answer drawn now on sample `name` with its reference (or rewrites the
/// reference under `REGENERATE=1`).
fn check(name: &str) {
    let now = rendered(name);
    let path = reference(name);
    if std::env::var_os("REGENERATE").is_some_and(|v| v == "1") {
        write_png(&now.layer(), &path);
        eprintln!("regenerated {}", path.display());
        return;
    }
    let layer = image::open(&path)
        .unwrap_or_else(|e| {
            panic!(
                "{}: {e} (REGENERATE=1 writes the references)",
                path.display()
            )
        })
        .into_rgba8();
    let diff = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("render-diffs")
        .join(path.file_name().unwrap());
    if layer.dimensions() != now.input.dimensions() {
        write_png(&now.drawn, &diff);
        panic!(
            "{name}: the grid's box is {:?}, the reference's {:?}; drawn picture: {}",
            now.input.dimensions(),
            layer.dimensions(),
            diff.display()
        );
    }
    let expected = now.with_layer(&layer);
    let bad = beyond_tolerance(&expected, &now.drawn);
    if bad > 0 {
        write_png(&diff_picture(&expected, &now.drawn), &diff);
        panic!(
            "{name}: {bad} pixels differ from {} by more than {TOLERANCE}; \
             expected | drawn | diff: {}",
            path.display(),
            diff.display()
        );
    }
}

#[test]
fn render_refs_light_screenshot() {
    check("classic-dejavu-light.png");
}

#[test]
fn render_refs_dark_screenshot() {
    check("dark-firacode.png");
}

#[test]
fn render_refs_photographed_at_an_angle() {
    check("perspective-opensans.png");
}

/// The references can only be compared if drawing is deterministic: the same picture twice
/// (digits are rasterised in parallel, then written in a fixed order).
#[test]
fn render_refs_rendering_is_deterministic() {
    let first = rendered("perspective-opensans.png").drawn;
    for _ in 0..3 {
        assert!(rendered("perspective-opensans.png").drawn == first);
    }
}

#[test]
fn render_refs_a_changed_picture_fails_and_leaves_a_diff() {
    // The comparison itself: a digit's worth of pixels moved is beyond the tolerance, a
    // rounding step is not.
    let now = rendered("classic-dejavu-light.png");
    // The layer over the input is the drawn picture itself.
    assert!(now.with_layer(&now.layer()) == now.drawn);
    let expected = now.drawn;
    let mut nudged = expected.clone();
    nudged.pixels_mut().take(500).for_each(|p| p[0] ^= 1);
    assert_eq!(beyond_tolerance(&expected, &nudged), 0);
    let mut moved = expected.clone();
    image::imageops::replace(&mut moved, &expected, 3, 0);
    assert!(beyond_tolerance(&expected, &moved) > 100);
    let diff = diff_picture(&expected, &moved);
    assert_eq!(diff.width(), 3 * expected.width());
    assert!(diff.pixels().any(|p| *p == Rgb([255, 0, 0])));
}
