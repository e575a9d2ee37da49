//! Printable puzzles: a generated board drawn as a clean picture for a worksheet (white
//! background, thin lines between cells, thick lines around boxes and the grid, givens centred
//! in the bundled font), optionally with the solution filled in a second colour. The pictures
//! are also what our own pipeline reads back in the tests, so they double as test input.
//!
//! Geometry, all in pixels of the output: the grid starts `margin_px` from each edge; line `i`
//! (0-9, across or down) is centred `thick_px / 2 + i * cell_px` into the grid, so every cell
//! is exactly `cell_px` from line centre to line centre and the outer thick lines fit inside.

use ab_glyph::{Font, FontRef, PxScale};
use image::{Rgb, RgbImage};

use crate::puzzle::board::{Board, Digit, Pos};

use crate::font::font;

/// How a puzzle is drawn. `PrintOptions::default()` gives a 645 x 645 picture.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct PrintOptions {
    /// Distance between neighbouring line centres, in pixels. Default 64.
    pub cell_px: u32,
    /// White border around the grid, in pixels. Default 32 (half a default cell).
    pub margin_px: u32,
    /// Width of the lines between cells, in pixels. Default 2.
    pub thin_px: u32,
    /// Width of the lines around boxes and the grid, in pixels. Default 5.
    pub thick_px: u32,
    /// Ink height of a digit as a fraction of `cell_px`. Default 0.6.
    pub digit_height: f32,
    /// Colour of the givens and the lines. Default black.
    pub ink: [u8; 3],
    /// Colour of the solution digits in cells that were empty. Default dark blue
    /// `[20, 60, 170]`: clearly not a given on screen, in print and to our own recognizer,
    /// which tells a player's entries from givens by colour.
    pub solution_ink: [u8; 3],
}

impl Default for PrintOptions {
    fn default() -> Self {
        PrintOptions {
            cell_px: 64,
            margin_px: 32,
            thin_px: 2,
            thick_px: 5,
            digit_height: 0.6,
            ink: [0, 0, 0],
            solution_ink: [20, 60, 170],
        }
    }
}

impl PrintOptions {
    /// Width and height of the picture: the margins, nine cells and one thick line's width
    /// (half of it on each outer side).
    pub fn side(&self) -> u32 {
        2 * self.margin_px + 9 * self.cell_px + self.thick_px
    }

    /// Centre of line `i` (0-9), in picture pixels from the left (or top) edge.
    fn line_centre(&self, i: u32) -> f32 {
        self.margin_px as f32 + self.thick_px as f32 / 2.0 + (i * self.cell_px) as f32
    }
}

/// Draws `puzzle`'s givens in `options.ink`; with `solution`, also its digits for the empty
/// cells of `puzzle` in `options.solution_ink`.
///
/// # Examples
///
/// ```
/// use sudoku_snap::puzzle::printable::{draw_puzzle, PrintOptions};
/// let puzzle = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
///     .parse()
///     .unwrap();
/// let picture = draw_puzzle(&puzzle, None, &PrintOptions::default());
/// assert_eq!(picture.dimensions(), (645, 645));
/// ```
///
/// # Panics
///
/// When `options.cell_px` is 0.
pub fn draw_puzzle(puzzle: &Board, solution: Option<&Board>, options: &PrintOptions) -> RgbImage {
    assert!(options.cell_px > 0, "cell_px must be at least 1");
    let side = options.side();
    let mut image = RgbImage::from_pixel(side, side, Rgb([255, 255, 255]));
    draw_lines(&mut image, options);
    let font = font();
    let height = options.digit_height * options.cell_px as f32;
    for pos in Pos::all() {
        let (digit, colour) = match (puzzle.get(pos), solution.and_then(|s| s.get(pos))) {
            (Some(d), _) => (d, options.ink),
            (None, Some(d)) => (d, options.solution_ink),
            (None, None) => continue,
        };
        let centre = (
            (options.line_centre(pos.col() as u32) + options.line_centre(pos.col() as u32 + 1))
                / 2.0,
            (options.line_centre(pos.row() as u32) + options.line_centre(pos.row() as u32 + 1))
                / 2.0,
        );
        draw_digit(&mut image, &font, digit, height, centre, colour);
    }
    image
}

/// The ten lines across and down: thick at 0, 3, 6 and 9, thin between.
fn draw_lines(image: &mut RgbImage, options: &PrintOptions) {
    let start = options.margin_px;
    let end = options.side() - options.margin_px;
    for i in 0..=9 {
        let width = if i % 3 == 0 {
            options.thick_px
        } else {
            options.thin_px
        };
        // Integer span of `width` pixels centred on the line (the extra pixel of an odd
        // width goes after the centre).
        let from = (options.line_centre(i) - width as f32 / 2.0).round() as u32;
        for a in from..from + width {
            for b in start..end {
                image.put_pixel(a, b, Rgb(options.ink));
                image.put_pixel(b, a, Rgb(options.ink));
            }
        }
    }
}

/// Blends `digit`, `height` pixels of ink tall, centred on `centre`, into `image`.
fn draw_digit(
    image: &mut RgbImage,
    font: &FontRef<'_>,
    digit: Digit,
    height: f32,
    centre: (f32, f32),
    colour: [u8; 3],
) {
    let id = font.glyph_id(digit.to_char());
    // Scale by ink height, not em size: measure the outline at 100 px first.
    let ink_at_100 = font
        .outline_glyph(id.with_scale(PxScale::from(100.0)))
        .map_or(72.0, |g| g.px_bounds().height());
    let glyph = id.with_scale(PxScale::from(100.0 * height / ink_at_100));
    let Some(outlined) = font.outline_glyph(glyph) else {
        return;
    };
    let bounds = outlined.px_bounds();
    let left = (centre.0 - bounds.width() / 2.0).round() as i64;
    let top = (centre.1 - bounds.height() / 2.0).round() as i64;
    let (w, h) = image.dimensions();
    outlined.draw(|x, y, coverage| {
        let (px, py) = (left + i64::from(x), top + i64::from(y));
        if px < 0 || py < 0 || px >= i64::from(w) || py >= i64::from(h) {
            return;
        }
        let p = image.get_pixel_mut(px as u32, py as u32);
        let alpha = coverage.clamp(0.0, 1.0);
        for i in 0..3 {
            let v = f32::from(p[i]) * (1.0 - alpha) + f32::from(colour[i]) * alpha;
            p[i] = v.round() as u8;
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    const PUZZLE: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    const SOLUTION: &str =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

    fn dark(p: &Rgb<u8>) -> bool {
        p.0.iter().all(|&c| c < 128)
    }

    /// Pixels of cell `pos` inside its lines, as (x, y).
    fn interior(o: &PrintOptions, pos: Pos) -> impl Iterator<Item = (u32, u32)> {
        let span = |i: usize| {
            let a = o.line_centre(i as u32) as u32 + o.thick_px;
            let b = o.line_centre(i as u32 + 1) as u32 - o.thick_px;
            a..b
        };
        let (xs, ys) = (span(pos.col()), span(pos.row()));
        ys.flat_map(move |y| xs.clone().map(move |x| (x, y)))
    }

    #[test]
    fn picture_size_follows_the_options() {
        let board: Board = PUZZLE.parse().unwrap();
        let o = PrintOptions::default();
        assert_eq!(draw_puzzle(&board, None, &o).dimensions(), (645, 645));
        let small = PrintOptions {
            cell_px: 30,
            margin_px: 0,
            ..o
        };
        assert_eq!(draw_puzzle(&board, None, &small).dimensions(), (275, 275));
    }

    #[test]
    fn lines_are_thick_at_box_borders_and_thin_between() {
        let o = PrintOptions::default();
        let image = draw_puzzle(&Board::empty(), None, &o);
        // Count the dark pixels across each line along a row through the middle of cell 0.
        let y = o.line_centre(0) as u32 + o.cell_px / 2;
        let width_at = |i: u32| {
            let c = o.line_centre(i) as u32;
            (c - 6..c + 6)
                .filter(|&x| dark(image.get_pixel(x, y)))
                .count() as u32
        };
        for i in 0..=9 {
            let expected = if i % 3 == 0 { o.thick_px } else { o.thin_px };
            assert_eq!(width_at(i), expected, "line {i}");
        }
        // The margin and the empty cells stay white.
        assert_eq!(image.get_pixel(o.margin_px - 1, y).0, [255; 3]);
        assert!(
            interior(&o, Pos::new(4, 4).unwrap()).all(|(x, y)| image.get_pixel(x, y).0 == [255; 3])
        );
    }

    #[test]
    fn digits_go_in_their_cells_in_their_colours() {
        let o = PrintOptions::default();
        let puzzle: Board = PUZZLE.parse().unwrap();
        let solution: Board = SOLUTION.parse().unwrap();
        let image = draw_puzzle(&puzzle, Some(&solution), &o);
        let blank = draw_puzzle(&puzzle, None, &o);
        for pos in Pos::all() {
            let ink = |img: &RgbImage| -> Vec<[u8; 3]> {
                interior(&o, pos)
                    .map(|(x, y)| img.get_pixel(x, y).0)
                    .filter(|p| *p != [255; 3])
                    .collect()
            };
            let (filled, empty) = (ink(&image), ink(&blank));
            assert!(!filled.is_empty(), "{pos} has no digit");
            let target = if puzzle.get(pos).is_some() {
                o.ink
            } else {
                assert!(empty.is_empty(), "{pos} should be empty without a solution");
                o.solution_ink
            };
            // The stroke cores are exactly the digit's colour.
            assert!(filled.contains(&target), "{pos}");
            // The digit is about 60% of the cell tall.
            let rows: Vec<u32> = interior(&o, pos)
                .filter(|&(x, y)| image.get_pixel(x, y).0 != [255; 3])
                .map(|(_, y)| y)
                .collect();
            let tall = rows.iter().max().unwrap() - rows.iter().min().unwrap() + 1;
            let expected = o.digit_height * o.cell_px as f32;
            assert!(
                (tall as f32 - expected).abs() <= 2.0,
                "{pos}: {tall} px tall"
            );
        }
    }
}
