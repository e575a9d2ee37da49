//! Intermediate pictures for `--debug DIR`, for people tuning a hard case: the ink map with
//! the grid's corners, the straightened grid with the lines found, and the 81 cells with
//! what was read in each. Files are named after the input's file name, or in a batch its
//! path relative to its folder argument (`a/x.png` -> `a__x.cells.png`).

use std::io;
use std::path::{Path, PathBuf};

use image::{DynamicImage, GrayImage, ImageFormat, Rgb, RgbImage};
use imageproc::drawing::{draw_hollow_rect_mut, draw_line_segment_mut};
use imageproc::rect::Rect;

use crate::pipeline::cells::{Author, Cells};
use crate::pipeline::encode;
use crate::pipeline::locate::Located;
use crate::pipeline::recognize::Recognized;
use crate::pipeline::rectify::Rectified;

/// `DIR/<label>.<what>.png`, the label's folders joined with `__` and its extension
/// dropped: `a/x.png` -> `a__x.cells.png`, so inputs of the same name in different folders
/// of a batch do not overwrite each other's pictures.
fn file(dir: &Folder<'_>, label: &Path, what: &str) -> PathBuf {
    let parts: Vec<String> = label
        .with_extension("")
        .components()
        .filter_map(|c| match c {
            std::path::Component::Normal(s) => Some(s.to_string_lossy().into_owned()),
            _ => None,
        })
        .collect();
    let stem = if parts.is_empty() {
        "image".to_string()
    } else {
        parts.join("__")
    };
    dir.path.join(format!("{stem}.{what}.png"))
}

/// The `--debug` folder, and whether its pictures may replace files already there.
#[derive(Clone, Copy, Debug)]
pub struct Folder<'a> {
    /// The folder.
    pub path: &'a Path,
    /// Whether an existing file of the same name is replaced (`overwrite`); otherwise debug
    /// pictures are new files only.
    pub overwrite: bool,
}

/// Writes a debug picture as PNG by the output policy: atomically, never over the input it
/// is about (`name`), and over an existing file only when `dir.overwrite`.
fn save(
    image: impl Into<DynamicImage>,
    path: PathBuf,
    name: &Path,
    dir: &Folder<'_>,
) -> io::Result<()> {
    encode::check_not_input(name, &path).map_err(io::Error::other)?;
    let mut bytes = Vec::new();
    image
        .into()
        .write_to(&mut io::Cursor::new(&mut bytes), ImageFormat::Png)
        .map_err(io::Error::other)?;
    encode::write_bytes_atomic_to(&bytes, &path, dir.overwrite).map_err(io::Error::other)
}

/// The ink map alone (when no grid was found).
pub fn write_ink(dir: &Folder<'_>, name: &Path, label: &Path, ink: &GrayImage) -> io::Result<()> {
    save(ink.clone(), file(dir, label, "ink"), name, dir)
}

/// The ink map with the accepted quadrilateral in red.
pub fn write_located(
    dir: &Folder<'_>,
    name: &Path,
    label: &Path,
    located: &Located,
) -> io::Result<()> {
    let mut canvas = image::DynamicImage::ImageLuma8(located.ink.clone()).into_rgb8();
    let c = located
        .quad
        .corners
        .map(|(x, y)| (x / located.scale, y / located.scale));
    for i in 0..4 {
        draw_line_segment_mut(&mut canvas, c[i], c[(i + 1) % 4], Rgb([255, 0, 0]));
    }
    save(canvas, file(dir, label, "edges-corners"), name, dir)
}

/// A reading whose best digit beats the runner-up by less than this (scores 0-2) is shown
/// with the runner-up, in orange: a display threshold for people, not used in reading.
const CLOSE_MARGIN: f32 = 0.1;

/// Label size on the 504 px square picture: fits "8 1.23" inside a 56 px cell's top.
const LABEL_PX: f32 = 12.0;

/// The straightened grid with the lines found (green) and each digit's box: red for givens,
/// blue for entries, with the digit read and its margin over the runner-up written in the
/// cell's top-left corner (a close call in orange, with the runner-up), and a legend below.
pub fn write_cells(
    dir: &Folder<'_>,
    name: &Path,
    label: &Path,
    rect: &Rectified,
    cells: &Cells,
    evidence: &[Option<Recognized>],
) -> io::Result<()> {
    let mut canvas = rect.image.clone();
    let side = canvas.width() as f32;
    for &x in &cells.lines_x {
        draw_line_segment_mut(&mut canvas, (x, 0.0), (x, side), Rgb([0, 200, 0]));
    }
    for &y in &cells.lines_y {
        draw_line_segment_mut(&mut canvas, (0.0, y), (side, y), Rgb([0, 200, 0]));
    }
    save(canvas.clone(), file(dir, label, "rectified"), name, dir)?;
    for (i, glyph) in cells.glyphs.iter().enumerate() {
        let (Some(g), Some(r)) = (glyph, &evidence[i]) else {
            continue;
        };
        let colour = if g.author == Author::Given {
            [220, 0, 0]
        } else {
            [0, 0, 220]
        };
        let (x, y) = (g.origin.0 as i32, g.origin.1 as i32);
        draw_hollow_rect_mut(
            &mut canvas,
            Rect::at(x, y).of_size(g.width.max(1), g.height.max(1)),
            Rgb(colour),
        );
        label_cell(&mut canvas, cells, i, r, colour);
    }
    save(with_legend(&canvas), file(dir, label, "cells"), name, dir)
}

/// "7 0.93" (digit read, margin over the runner-up) in the cell's top-left corner; a close
/// call reads "7|1 0.04" in orange.
fn label_cell(canvas: &mut RgbImage, cells: &Cells, i: usize, r: &Recognized, colour: [u8; 3]) {
    let (col, row) = (i % 9, i / 9);
    let origin = (cells.lines_x[col] + 3.0, cells.lines_y[row] + LABEL_PX);
    let margin = r.confidence();
    let (text, colour) = match r.ranked.get(1) {
        Some(&(runner_up, _)) if margin < CLOSE_MARGIN => (
            format!("{}|{} {margin:.2}", r.digit(), runner_up),
            [230, 120, 0],
        ),
        _ => (format!("{} {margin:.2}", r.digit()), colour),
    };
    crate::pipeline::annotate::draw_text(canvas, &text, origin, LABEL_PX, colour);
}

/// The picture with a white strip below it explaining the marks.
fn with_legend(canvas: &RgbImage) -> RgbImage {
    const LINES: [(&str, [u8; 3]); 3] = [
        (
            "red box: a given; blue box: a player's entry; green: the grid lines found",
            [0, 0, 0],
        ),
        (
            "\"7 0.93\": digit read, its score's margin over the runner-up (0-2)",
            [0, 0, 0],
        ),
        (
            "orange \"7|1 0.04\": a close call, the runner-up after the bar",
            [230, 120, 0],
        ),
    ];
    let line_h = LABEL_PX * 1.5;
    let strip = (line_h * LINES.len() as f32 + LABEL_PX * 0.5) as u32;
    let mut out = RgbImage::from_pixel(canvas.width(), canvas.height() + strip, Rgb([255; 3]));
    image::imageops::replace(&mut out, canvas, 0, 0);
    for (k, (text, colour)) in LINES.iter().enumerate() {
        let baseline = canvas.height() as f32 + line_h * (k as f32 + 1.0);
        crate::pipeline::annotate::draw_text(
            &mut out,
            text,
            (4.0, baseline),
            LABEL_PX * 0.9,
            *colour,
        );
    }
    out
}
