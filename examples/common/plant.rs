//! Mistakes planted in a player's own hand, shared by `examples/mistakes` and the games tests:
//! a photo's grid straightened into a frontal picture, and two cells' ink exchanged in it.

use std::path::Path;

use image::{Rgb, RgbImage};
use sudoku_snap::stages;
use sudoku_snap::Pos;

/// The photo's grid straightened (see `stages::rectify`) on a white margin of one cell: a
/// frontal picture of the same game; `None` when no grid is found.
pub fn straightened(photo: &Path) -> Option<RgbImage> {
    let rgb = image::open(photo).ok()?.to_rgb8();
    let located = stages::locate(&rgb).ok()?;
    let square = stages::rectify(&rgb, &located.quad)?.image;
    let margin = stages::SIDE / 9;
    let side = stages::SIDE + 2 * margin;
    let mut out = RgbImage::from_pixel(side, side, Rgb([255; 3]));
    image::imageops::replace(&mut out, &square, i64::from(margin), i64::from(margin));
    Some(out)
}

/// `square` (see [`straightened`]) with the ink inside cells `a` and `b` exchanged: the
/// player's own glyphs of two digits, each written where the other belongs.
pub fn exchanged(square: &RgbImage, a: Pos, b: Pos) -> RgbImage {
    let cell = stages::SIDE / 9;
    let inset = cell / 8;
    let corner = |p: Pos| {
        let (row, col) = (p.index() as u32 / 9, p.index() as u32 % 9);
        (cell + col * cell + inset, cell + row * cell + inset)
    };
    let ((ax, ay), (bx, by)) = (corner(a), corner(b));
    let mut out = square.clone();
    for dy in 0..cell - 2 * inset {
        for dx in 0..cell - 2 * inset {
            out.put_pixel(bx + dx, by + dy, *square.get_pixel(ax + dx, ay + dy));
            out.put_pixel(ax + dx, ay + dy, *square.get_pixel(bx + dx, by + dy));
        }
    }
    out
}
