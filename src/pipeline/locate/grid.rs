//! The grid test: whether a candidate quadrilateral, straightened, shows a sudoku's lines.

use image::GrayImage;
use imageproc::geometric_transformations::Projection;

use crate::pipeline::gray::Histogram;
use crate::pipeline::quad::Quad;

use super::homography::apply;

/// Accepts a quadrilateral when, straightened, its ink shows a sudoku's lines and little ink
/// half-way between them; the score is the summed fill of the 20 lines less that of the 18
/// lines half-way between. Without `explain` (the rejection's message is not
/// wanted), a candidate is dropped as soon as it lacks 3 of the 4 box borders either way,
/// which neither test below can then pass. With `all_lines`, only the ten lines each way
/// pass, not the box borders alone.
pub(super) fn grid_test(
    ink: &GrayImage,
    quad: &Quad,
    explain: bool,
    all_lines: bool,
) -> Result<f32, String> {
    let unit = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)];
    Projection::from_control_points(unit, quad.corners)
        .ok_or_else(|| "the shape's corners do not form a quadrilateral".to_string())?;
    let sampler = LineSampler::new(ink, quad);
    const BORDERS: [usize; 4] = [0, 3, 6, 9];
    let mut fills = [[0.0f32; 10]; 2]; // rows, then columns
    for (lines, horizontal) in fills.iter_mut().zip([true, false]) {
        for k in BORDERS {
            lines[k] = sampler.fill(k, horizontal);
        }
        let weak = BORDERS.iter().filter(|&&k| lines[k] < LINE_FILL).count();
        if weak >= 3 && !explain {
            return Err(format!("the shape lacks {weak} of 4 box borders"));
        }
    }
    for (lines, horizontal) in fills.iter_mut().zip([true, false]) {
        for k in (0..10).filter(|k| !BORDERS.contains(k)) {
            lines[k] = sampler.fill(k, horizontal);
        }
    }
    let [rows, cols] = fills;
    let strong = |s: &[f32]| s.iter().filter(|&&v| v >= LINE_FILL).count();
    let borders = |s: &[f32]| BORDERS.iter().all(|&i| s[i] >= LINE_FILL);
    let full = strong(&rows) >= 8 && strong(&cols) >= 8;
    if full || (!all_lines && borders(&rows) && borders(&cols)) {
        // Half-way between the lines a grid is mostly background (a digit's strokes cross
        // there); a solid shape, such as a card in the polarity that makes it ink, is ink
        // everywhere and shows "lines" wherever it is sampled.
        let gaps: f32 = (0..9)
            .flat_map(|k| [(k, true), (k, false)])
            .map(|(k, horizontal)| sampler.gap(k, horizontal))
            .sum();
        if gaps / 18.0 > GAP_FILL {
            return Err(format!(
                "the shape is solid ({:.0}% ink between its lines), not a grid",
                100.0 * gaps / 18.0
            ));
        }
        if !full && is_keypad(&sampler) {
            return Err("the shape is a keypad of nine keys, not a grid".to_string());
        }
        Ok(rows.iter().chain(&cols).sum::<f32>() - gaps)
    } else {
        Err(format!(
            "the largest shape has {} of 10 horizontal and {} of 10 vertical grid lines",
            strong(&rows),
            strong(&cols)
        ))
    }
}

/// Whether a shape seen as box borders alone holds ink at the centres of its nine boxes and
/// hardly anywhere else: an app's 3x3 keypad beside the grid, one digit per key (a digit set
/// low in its key, or a keypad outlined a little askew, reaches a neighbouring cell). A
/// puzzle's givens (17 or more) are never all at box centres, nor in so few cells.
fn is_keypad(sampler: &LineSampler<'_>) -> bool {
    let inked: Vec<usize> = (0..81)
        .filter(|&i| sampler.cell_has_ink(i / 9, i % 9))
        .collect();
    let at_box_centre = |i: &usize| (i / 9) % 3 == 1 && (i % 9) % 3 == 1;
    let centres = inked.iter().filter(|i| at_box_centre(i)).count();
    centres == 9 && inked.len() <= 9 + KEYPAD_SPILL || centres > 0 && centres == inked.len()
}

/// Whether the inside of `quad` is a dark background with light ink (see
/// [`Histogram::light_on_dark`]). Judged on the candidate itself, not on the whole picture (a
/// light card on a dark desktop).
pub(super) fn background_is_dark(gray: &GrayImage, quad: &Quad) -> bool {
    const N: usize = 40;
    let h = crate::pipeline::quad::square_to_quad(&quad.corners, 1.0);
    let (w, ht) = (gray.width() as f64, gray.height() as f64);
    let mut values: Vec<u8> = Vec::with_capacity(N * N);
    for i in 0..N {
        for j in 0..N {
            let (u, v) = ((j as f64 + 0.5) / N as f64, (i as f64 + 0.5) / N as f64);
            let (x, y) = apply(&h, u, v);
            if x >= 0.0 && y >= 0.0 && x < w && y < ht {
                values.push(gray.as_raw()[y as usize * w as usize + x as usize]);
            }
        }
    }
    let mut hist = Histogram::new();
    hist.add(&values, |v| v);
    hist.light_on_dark()
}

/// How many cells besides the nine box centres a keypad's digits may reach (a puzzle has at
/// least 17 givens: a keypad's nine and these stay under it).
const KEYPAD_SPILL: usize = 4;
/// A line must cover this fraction of the grid's width to count (dashed or anti-aliased lines
/// still do; a row of digits does not).
pub(super) const LINE_FILL: f32 = 0.6;
/// The most ink the middles of the cells may hold, on average over the 18 lines half-way
/// between grid lines: a solid shape fills them; digits' strokes cross them at a few points.
const GAP_FILL: f32 = 0.6;
/// Points sampled along each candidate line.
const SAMPLES: usize = 120;
/// How far from its place a line is looked for, as a fraction of the grid: a quarter cell.
const LINE_WINDOW: f64 = 1.0 / 36.0;

/// Samples the ink map along lines of a candidate grid, straightened: the unit square maps
/// onto the quadrilateral by a homography.
pub(super) struct LineSampler<'a> {
    ink: &'a GrayImage,
    to_image: [f64; 8],
    /// Offsets tried on each side of a line's place: one per pixel of the window, so a
    /// 1-pixel line is never stepped over, whatever the grid's size.
    steps: i32,
}

impl<'a> LineSampler<'a> {
    pub(super) fn new(ink: &'a GrayImage, quad: &Quad) -> LineSampler<'a> {
        LineSampler {
            ink,
            to_image: crate::pipeline::quad::square_to_quad(&quad.corners, 1.0),
            steps: ((f64::from(quad.mean_side()) * LINE_WINDOW).ceil() as i32).max(1),
        }
    }

    /// The best fill fraction of line `k` (0-9) within the window around its place.
    pub(super) fn fill(&self, k: usize, horizontal: bool) -> f32 {
        let centre = k as f64 / 9.0;
        let best = (-self.steps..=self.steps)
            .map(|s| {
                let v = centre + LINE_WINDOW * f64::from(s) / f64::from(self.steps);
                self.hits(v, horizontal)
            })
            .max()
            .unwrap_or(0);
        best as f32 / SAMPLES as f32
    }

    /// Whether any of a few points in the middle half of cell (`row`, `col`) is ink.
    fn cell_has_ink(&self, row: usize, col: usize) -> bool {
        const POINTS: usize = 5;
        let h = &self.to_image;
        let (w, ht) = (self.ink.width() as f64, self.ink.height() as f64);
        (0..POINTS * POINTS).any(|k| {
            let at = |i: usize, cell: usize| {
                (cell as f64 + 0.25 + 0.5 * (i as f64 + 0.5) / POINTS as f64) / 9.0
            };
            let (u, v) = (at(k % POINTS, col), at(k / POINTS, row));
            let (x, y) = apply(h, u, v);
            let (x, y) = (x + 0.5, y + 0.5);
            x >= 0.0
                && y >= 0.0
                && x < w
                && y < ht
                && self.ink.as_raw()[y as usize * w as usize + x as usize] > 0
        })
    }

    /// The fill fraction of line `k` exactly at its place.
    pub(super) fn exact(&self, k: usize, horizontal: bool) -> f32 {
        self.hits(k as f64 / 9.0, horizontal) as f32 / SAMPLES as f32
    }

    /// The fill fraction of the line half-way between lines `k` and `k + 1`.
    fn gap(&self, k: usize, horizontal: bool) -> f32 {
        self.hits((k as f64 + 0.5) / 9.0, horizontal) as f32 / SAMPLES as f32
    }

    /// How many of the line's samples land on ink: the line at `v` across the unit square,
    /// horizontal or vertical.
    fn hits(&self, v: f64, horizontal: bool) -> usize {
        let h = &self.to_image;
        // The line in homogeneous image coordinates: base + u * dir for u in 0..1.
        let (base, dir) = if horizontal {
            (
                [h[1] * v + h[2], h[4] * v + h[5], h[7] * v + 1.0],
                [h[0], h[3], h[6]],
            )
        } else {
            (
                [h[0] * v + h[2], h[3] * v + h[5], h[6] * v + 1.0],
                [h[1], h[4], h[7]],
            )
        };
        let (w, ht) = (self.ink.width() as f64, self.ink.height() as f64);
        let raw = self.ink.as_raw();
        (0..SAMPLES)
            .filter(|&i| {
                let u = (i as f64 + 0.5) / SAMPLES as f64;
                let z = base[2] + u * dir[2];
                // + 0.5 then truncation rounds to the nearest pixel
                let x = (base[0] + u * dir[0]) / z + 0.5;
                let y = (base[1] + u * dir[1]) / z + 0.5;
                x >= 0.0
                    && y >= 0.0
                    && x < w
                    && y < ht
                    && raw[y as usize * w as usize + x as usize] > 0
            })
            .count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An ink map of nine keys (strong borders, as a 3x3 of boxes) with one mark in each:
    /// at each key's centre (an app's keypad), or with one mark moved off the centre, or
    /// with two marks reaching down into the next cell (digits set low in their keys).
    fn keys(moved: bool, spilled: bool) -> (GrayImage, Quad) {
        let side = 540u32;
        let mut ink = GrayImage::new(side + 40, side + 40);
        let cell = side / 9;
        for y in 0..side {
            for x in 0..side {
                let border = |v: u32| v % (3 * cell) < 4 || v + 4 > side;
                let in_mark = |v: u32, c: u32| v >= c * cell + 20 && v < c * cell + 40;
                let mark = (0..9).any(|key| {
                    let (mut r, c) = (3 * (key / 3) + 1, 3 * (key % 3) + 1);
                    if moved && key == 4 {
                        r += 1;
                    }
                    let low = spilled && (key == 4 || key == 8);
                    let tall = low && y >= r * cell + 20 && y < (r + 1) * cell + 40;
                    (in_mark(y, r) || tall) && in_mark(x, c)
                });
                if border(x) || border(y) || mark {
                    ink.put_pixel(x + 20, y + 20, image::Luma([255]));
                }
            }
        }
        let (a, b) = (20.0, 20.0 + side as f32);
        (
            ink,
            Quad {
                corners: [(a, a), (b, a), (b, b), (a, b)],
            },
        )
    }

    #[test]
    fn a_keypad_is_not_a_grid() {
        for spilled in [false, true] {
            let (ink, quad) = keys(false, spilled);
            let err = grid_test(&ink, &quad, true, false).expect_err("a keypad");
            assert!(err.contains("keypad"), "{err}");
        }
    }

    #[test]
    fn box_borders_with_marks_off_the_box_centres_pass() {
        let (ink, quad) = keys(true, false);
        assert!(grid_test(&ink, &quad, true, false).is_ok());
    }
}
