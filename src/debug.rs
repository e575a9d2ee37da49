//! Intermediate pictures for `--debug DIR`, for people tuning a hard case: the ink map with
//! the grid's corners, the straightened grid with the lines found, and the 81 cells with
//! what was read in each. Files are named after the input's stem.

use std::io;
use std::path::{Path, PathBuf};

use image::{DynamicImage, GrayImage, ImageFormat, Rgb};
use imageproc::drawing::{draw_hollow_rect_mut, draw_line_segment_mut};
use imageproc::rect::Rect;

use crate::cells::{Author, Cells};
use crate::encode;
use crate::locate::Located;
use crate::recognize::Recognized;
use crate::rectify::Rectified;

fn file(dir: &Path, name: &Path, what: &str) -> PathBuf {
    let stem = name
        .file_stem()
        .map_or("image".into(), |s| s.to_string_lossy());
    dir.join(format!("{stem}.{what}.png"))
}

/// Writes a debug picture as PNG by the output policy: atomically, and never over the input
/// it is about (`name`).
fn save(image: impl Into<DynamicImage>, path: PathBuf, name: &Path) -> io::Result<()> {
    encode::check_not_input(name, &path).map_err(io::Error::other)?;
    let mut bytes = Vec::new();
    image
        .into()
        .write_to(&mut io::Cursor::new(&mut bytes), ImageFormat::Png)
        .map_err(io::Error::other)?;
    encode::write_bytes_atomic(&bytes, &path).map_err(io::Error::other)
}

/// The ink map alone (when no grid was found).
pub fn write_ink(dir: &Path, name: &Path, ink: &GrayImage) -> io::Result<()> {
    save(ink.clone(), file(dir, name, "ink"), name)
}

/// The ink map with the accepted quadrilateral in red.
pub fn write_located(dir: &Path, name: &Path, located: &Located) -> io::Result<()> {
    let mut canvas = image::DynamicImage::ImageLuma8(located.ink.clone()).into_rgb8();
    let c = located
        .quad
        .corners
        .map(|(x, y)| (x / located.scale, y / located.scale));
    for i in 0..4 {
        draw_line_segment_mut(&mut canvas, c[i], c[(i + 1) % 4], Rgb([255, 0, 0]));
    }
    save(canvas, file(dir, name, "edges-corners"), name)
}

/// The straightened grid with the lines found (green) and each digit's box: red for givens,
/// blue for entries, with the digit read drawn as that many ticks under the box.
pub fn write_cells(
    dir: &Path,
    name: &Path,
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
    save(canvas.clone(), file(dir, name, "rectified"), name)?;
    for (i, glyph) in cells.glyphs.iter().enumerate() {
        let (Some(g), Some(r)) = (glyph, &evidence[i]) else {
            continue;
        };
        let _ = i;
        let (x, y) = (g.origin.0 as i32, g.origin.1 as i32);
        let colour = if g.author == Author::Given {
            Rgb([220, 0, 0])
        } else {
            Rgb([0, 0, 220])
        };
        draw_hollow_rect_mut(
            &mut canvas,
            Rect::at(x, y).of_size(g.ink.width().max(1), g.ink.height().max(1)),
            colour,
        );
        for t in 0..r.digit().get() as i32 {
            let tx = (x + 2 + 3 * t) as f32;
            draw_line_segment_mut(
                &mut canvas,
                (tx, (y - 2) as f32),
                (tx, (y + 1) as f32),
                colour,
            );
        }
    }
    save(canvas, file(dir, name, "cells"), name)
}
