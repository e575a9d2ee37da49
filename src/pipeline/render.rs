//! Render: draw the answer into the empty cells of the ORIGINAL picture, through the inverse
//! of the rectifying projection, so a tilted grid gets tilted digits. Each digit's outline
//! (from the bundled font) is placed in its cell of the square picture, its points are carried
//! through the projection, and it is rasterised anti-aliased right where it lands: sized like
//! the givens, centred, in a colour that stands out from the givens and suits the background.
//! Nothing outside the drawn glyphs changes. Drawing goes through a [`Canvas`]: on a picture
//! with transparent parts the drawn pixels are also made opaque enough to be seen.

use ab_glyph::{point, Font, Outline, OutlineCurve, Point};
use ab_glyph_rasterizer::Rasterizer;
use image::RgbImage;
use imageproc::geometric_transformations::Projection;
use rayon::prelude::*;

use crate::font::font;
use crate::pipeline::cells::{Author, Cells};
use crate::pipeline::picture::Canvas;
use crate::pipeline::rectify::{Rectified, CELL};
use crate::puzzle::board::{Board, Pos};

/// Answer digits are this fraction of the cell tall when there are no givens to copy.
const DEFAULT_HEIGHT: f32 = 0.6;

/// Draws every digit of `solution` whose cell is empty in the picture (no given, no entry)
/// onto `image` (an [`RgbImage`], or a [`Picture`](crate::pipeline::picture::Picture) that
/// keeps its transparency). Returns how many digits were drawn.
pub fn draw_answer(
    image: &mut impl Canvas,
    rect: &Rectified,
    cells: &Cells,
    solution: &Board,
    colour: Option<[u8; 3]>,
) -> usize {
    let font = font();
    let jobs: Vec<(Pos, Outline)> = Pos::all()
        .filter(|pos| cells.glyphs[pos.index()].is_none())
        .filter_map(|pos| {
            let digit = solution.get(pos)?;
            Some((pos, font.outline(font.glyph_id(digit.to_char()))?))
        })
        .collect();
    let painter = Painter {
        image: image.rgb(),
        back: rect.projection.invert(),
        cells,
        height: digit_height(cells),
        colour: colour.unwrap_or_else(|| answer_colour(cells)),
    };
    // Each digit's new pixels are worked out in parallel from the untouched picture, then
    // written in turn: the digits' boxes do not overlap where they change pixels.
    let patches: Vec<Vec<(u32, u32, [u8; 3])>> = jobs
        .par_iter()
        .map(|(pos, outline)| painter.paint(*pos, outline, cells.marked[pos.index()]))
        .collect();
    for &(x, y, rgb) in patches.iter().flatten() {
        image.set(x, y, rgb);
    }
    jobs.len()
}

/// The givens' median height in square-picture pixels.
fn digit_height(cells: &Cells) -> f32 {
    let mut heights: Vec<u32> = cells
        .glyphs
        .iter()
        .flatten()
        .filter(|g| g.author == Author::Given)
        .map(|g| g.height)
        .collect();
    heights.sort_unstable();
    heights
        .get(heights.len() / 2)
        .map_or(DEFAULT_HEIGHT * CELL as f32, |&h| h as f32)
}

/// The answer's colours on light pictures: blue, orange, green.
const LIGHT_ANSWERS: [[u8; 3]; 3] = [[28, 92, 210], [205, 80, 20], [20, 130, 60]];
/// The same on dark pictures, lighter.
const DARK_ANSWERS: [[u8; 3]; 3] = [[125, 200, 255], [255, 170, 70], [120, 220, 140]];

/// Blue on light pictures, light blue on dark ones; orange instead when the givens are
/// themselves blue, so the answer never looks like a given. Where a player has entered
/// digits, the one of blue, orange and green farthest from both the givens' and the entries'
/// colours, so that what the answer adds is told from what the player wrote.
pub fn answer_colour(cells: &Cells) -> [u8; 3] {
    let palette = if cells.dark {
        DARK_ANSWERS
    } else {
        LIGHT_ANSWERS
    };
    let colour_of = |author: Author| {
        let mut colours: Vec<[u8; 3]> = (cells.glyphs.iter().flatten())
            .filter(|g| g.author == author)
            .map(|g| g.colour)
            .collect();
        colours.sort_unstable_by_key(|c| c.iter().map(|&v| u32::from(v)).sum::<u32>());
        colours.get(colours.len() / 2).copied()
    };
    let givens = (cells.glyphs.iter().flatten())
        .find(|g| g.author == Author::Given)
        .map(|g| g.colour);
    let Some(entries) = colour_of(Author::Entry) else {
        let bluish =
            givens.is_some_and(|[r, g, b]| b > r.saturating_add(40) && b > g.saturating_add(20));
        return palette[usize::from(bluish)];
    };
    let inks: Vec<[u8; 3]> = givens.into_iter().chain([entries]).collect();
    let nearest_ink = |c: &[u8; 3]| {
        (inks.iter())
            .map(|ink| distance(*ink, *c))
            .fold(f32::MAX, f32::min)
    };
    (palette.into_iter())
        .max_by(|a, b| nearest_ink(a).total_cmp(&nearest_ink(b)))
        .unwrap_or(palette[0])
}

fn distance(a: [u8; 3], b: [u8; 3]) -> f32 {
    (a.iter().zip(b))
        .map(|(&x, y)| (f32::from(x) - f32::from(y)).powi(2))
        .sum::<f32>()
        .sqrt()
}

/// What every digit of one picture is drawn with.
struct Painter<'a> {
    image: &'a RgbImage,
    /// Square picture -> original picture.
    back: Projection,
    cells: &'a Cells,
    /// The digits' ink height in square-picture pixels.
    height: f32,
    colour: [u8; 3],
}

impl Painter<'_> {
    /// The pixels that change when one digit is blended into its cell. With `erase`, the
    /// cell's interior is first painted that colour, clearing pencil marks the answer
    /// replaces.
    fn paint(
        &self,
        pos: Pos,
        outline: &Outline,
        erase: Option<[u8; 3]>,
    ) -> Vec<(u32, u32, [u8; 3])> {
        let cells = self.cells;
        let (x0, x1) = (cells.lines_x[pos.col()], cells.lines_x[pos.col() + 1]);
        let (y0, y1) = (cells.lines_y[pos.row()], cells.lines_y[pos.row() + 1]);
        let centre = ((x0 + x1) / 2.0, (y0 + y1) / 2.0);
        let glyph = self.glyph_coverage(outline, centre);
        let Some(erase) = erase else {
            return glyph.blend_over(self.image, self.colour);
        };
        let (ix0, iy0, ix1, iy1) = crate::pipeline::cells::cell_inside(cells, pos.row(), pos.col());
        let corners = [(ix0, iy0), (ix1, iy0), (ix1, iy1), (ix0, iy1)].map(|p| self.to_picture(p));
        let edges = (0..4).map(|i| OutlineCurve::Line(corners[i], corners[(i + 1) % 4]));
        let Some(interior) = Coverage::rasterise(edges.collect(), self.image) else {
            return Vec::new();
        };
        // The glyph over the erased interior, then the glyph's pixels outside it. Pixels the
        // erasing leaves as they were are not listed.
        let mut changed = Vec::with_capacity(interior.alpha.len());
        interior.for_each_covered(self.image, |x, y, a, under| {
            let p = blend(blend(under, erase, a), self.colour, glyph.at(x, y));
            if p != under {
                changed.push((x, y, p));
            }
        });
        glyph.for_each_covered(self.image, |x, y, a, under| {
            if interior.at(x, y) == 0.0 {
                changed.push((x, y, blend(under, self.colour, a)));
            }
        });
        changed
    }

    /// The digit's outline, scaled to the givens' height and centred on `centre` in the
    /// square picture, rasterised where it lands in the original.
    fn glyph_coverage(&self, outline: &Outline, centre: (f32, f32)) -> Coverage {
        // ab_glyph's unscaled bounds hold y_max in `min.y`: take the height either way.
        let b = outline.bounds;
        let f = self.height / (b.max.y - b.min.y).abs().max(1.0);
        let mid = ((b.min.x + b.max.x) / 2.0, (b.min.y + b.max.y) / 2.0);
        // Font units have y up; the square picture has y down.
        let place = |p: Point| {
            self.to_picture((centre.0 + (p.x - mid.0) * f, centre.1 - (p.y - mid.1) * f))
        };
        let curves = outline
            .curves
            .iter()
            .map(|c| map_points(c, place))
            .collect();
        Coverage::rasterise(curves, self.image).unwrap_or_default()
    }

    fn to_picture(&self, p: (f32, f32)) -> Point {
        let (x, y) = self.back * p;
        point(x, y)
    }
}

/// Anti-aliased coverage (0-1) of a shape over a box of the original picture.
#[derive(Default)]
pub(crate) struct Coverage {
    /// The box's top-left pixel (it may stick out of the picture).
    origin: (i32, i32),
    width: u32,
    height: u32,
    alpha: Vec<f32>,
}

impl Coverage {
    /// Rasterises the closed `curves`, given in picture coordinates; `None` when the shape is
    /// not a sensible size for `image` (a degenerate projection can throw points far away, or
    /// make them NaN, which fails these comparisons).
    pub(crate) fn rasterise(curves: Vec<OutlineCurve>, image: &RgbImage) -> Option<Coverage> {
        let (mut lo, mut hi) = (point(f32::MAX, f32::MAX), point(f32::MIN, f32::MIN));
        for p in curves.iter().flat_map(curve_points) {
            (lo.x, lo.y) = (lo.x.min(p.x), lo.y.min(p.y));
            (hi.x, hi.y) = (hi.x.max(p.x), hi.y.max(p.y));
        }
        let (w, h) = (image.width() as f32, image.height() as f32);
        let sane =
            |lo: f32, hi: f32, limit: f32| lo > -limit && hi < 2.0 * limit && hi - lo < limit;
        if !(sane(lo.x, hi.x, w) && sane(lo.y, hi.y, h)) {
            return None;
        }
        let origin = (lo.x.floor() as i32, lo.y.floor() as i32);
        let width = (hi.x.ceil() as i32 - origin.0).max(1) as u32;
        let height = (hi.y.ceil() as i32 - origin.1).max(1) as u32;
        let mut raster = Rasterizer::new(width as usize, height as usize);
        let local = |p: Point| point(p.x - origin.0 as f32, p.y - origin.1 as f32);
        for c in &curves {
            match map_points(c, local) {
                OutlineCurve::Line(a, b) => raster.draw_line(a, b),
                OutlineCurve::Quad(a, b, c) => raster.draw_quad(a, b, c),
                OutlineCurve::Cubic(a, b, c, d) => raster.draw_cubic(a, b, c, d),
            }
        }
        let mut alpha = vec![0f32; (width * height) as usize];
        raster.for_each_pixel(|i, a| alpha[i] = a.min(1.0));
        Some(Coverage {
            origin,
            width,
            height,
            alpha,
        })
    }

    /// The coverage at picture pixel (x, y); 0 outside the box.
    fn at(&self, x: u32, y: u32) -> f32 {
        let (x, y) = (
            x as i64 - i64::from(self.origin.0),
            y as i64 - i64::from(self.origin.1),
        );
        if (0..i64::from(self.width)).contains(&x) && (0..i64::from(self.height)).contains(&y) {
            self.alpha[(y as u32 * self.width + x as u32) as usize]
        } else {
            0.0
        }
    }

    /// The covered pixels inside the picture, with `colour` blended over the picture's.
    pub(crate) fn blend_over(&self, image: &RgbImage, colour: [u8; 3]) -> Vec<(u32, u32, [u8; 3])> {
        let mut out = Vec::with_capacity(self.alpha.iter().filter(|&&a| a > 0.0).count());
        self.for_each_covered(image, |x, y, a, under| {
            out.push((x, y, blend(under, colour, a)))
        });
        out
    }

    /// Calls `f(x, y, coverage, colour there)` for each covered pixel inside the picture.
    fn for_each_covered(&self, image: &RgbImage, mut f: impl FnMut(u32, u32, f32, [u8; 3])) {
        let (w, h) = (i64::from(image.width()), i64::from(image.height()));
        let raw = image.as_raw();
        let rows = self.alpha.chunks_exact(self.width as usize);
        for (row, y) in rows
            .zip(i64::from(self.origin.1)..)
            .filter(|(_, y)| (0..h).contains(y))
        {
            for (&a, x) in row.iter().zip(i64::from(self.origin.0)..) {
                if a > 0.0 && (0..w).contains(&x) {
                    let i = (y * w + x) as usize * 3;
                    f(x as u32, y as u32, a, [raw[i], raw[i + 1], raw[i + 2]]);
                }
            }
        }
    }
}

/// The same curve with every point moved by `f`.
fn map_points(c: &OutlineCurve, f: impl Fn(Point) -> Point) -> OutlineCurve {
    match *c {
        OutlineCurve::Line(a, b) => OutlineCurve::Line(f(a), f(b)),
        OutlineCurve::Quad(a, b, c) => OutlineCurve::Quad(f(a), f(b), f(c)),
        OutlineCurve::Cubic(a, b, c, d) => OutlineCurve::Cubic(f(a), f(b), f(c), f(d)),
    }
}

/// A curve's end and control points.
fn curve_points(c: &OutlineCurve) -> Vec<Point> {
    match *c {
        OutlineCurve::Line(a, b) => vec![a, b],
        OutlineCurve::Quad(a, b, c) => vec![a, b, c],
        OutlineCurve::Cubic(a, b, c, d) => vec![a, b, c, d],
    }
}

/// `colour` over `p` at coverage `alpha` (0-1), in 1/256 steps.
fn blend(p: [u8; 3], colour: [u8; 3], alpha: f32) -> [u8; 3] {
    // Nothing to blend, or all colour (as the sum below gives): most of an erased cell lies
    // outside its answer's glyph, and all of it inside the erased interior.
    if alpha <= 0.0 {
        return p;
    }
    if alpha >= 1.0 {
        return colour;
    }
    // alpha >= 0: + 0.5 then truncation rounds to nearest
    let a = ((alpha * 256.0 + 0.5) as u32).min(256);
    std::array::from_fn(|c| {
        ((u32::from(p[c]) * (256 - a) + u32::from(colour[c]) * a + 128) >> 8) as u8
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::cells::slice;
    use crate::pipeline::cells::tests::{at, Sketch, BLACK, DIGIT, GIVENS, WHITE};
    use crate::puzzle::solve::solve;

    /// The puzzle on a grid smaller than the straightened one and away from the page's corner,
    /// so the answer goes back through a real scaling and shift.
    fn screenshot(page: [u8; 3], ink: [u8; 3]) -> (Sketch, Board) {
        let mut sketch = Sketch::new((460, 430), (25.0, 12.0), 45.0, page, ink);
        let givens: Board = GIVENS.parse().unwrap();
        sketch.board(&givens, DIGIT, ink);
        (sketch, givens)
    }

    /// The cell of the sketch's grid holding pixel (x, y), `None` outside the grid.
    fn cell_of(sketch: &Sketch, x: u32, y: u32) -> Option<Pos> {
        let cell = |v: u32, origin: f32| {
            let k = (v as f32 + 0.5 - origin) / sketch.cell;
            (0.0..9.0).contains(&k).then_some(k as usize)
        };
        Pos::new(cell(y, sketch.origin.1)?, cell(x, sketch.origin.0)?)
    }

    /// Whether `p` is `colour` blended over `under` at some coverage: each channel between the
    /// two (1 level of rounding either way).
    fn is_blend(p: [u8; 3], under: [u8; 3], colour: [u8; 3]) -> bool {
        (0..3).all(|c| {
            let (lo, hi) = (under[c].min(colour[c]), under[c].max(colour[c]));
            (lo.saturating_sub(1)..=hi.saturating_add(1)).contains(&p[c])
        })
    }

    /// Draws the answer on a copy of the sketch: (picture, digits drawn, colour used).
    fn solved(
        sketch: &Sketch,
        givens: &Board,
        colour: Option<[u8; 3]>,
    ) -> (RgbImage, usize, [u8; 3]) {
        let rect = sketch.rectified();
        let cells = slice(&rect, &sketch.image);
        let solution = solve(givens).unwrap().expect("the puzzle has a solution");
        let mut out = sketch.image.clone();
        let drawn = draw_answer(&mut out, &rect, &cells, &solution, colour);
        (out, drawn, colour.unwrap_or_else(|| answer_colour(&cells)))
    }

    #[test]
    fn the_answer_changes_the_empty_cells_only() {
        let (sketch, givens) = screenshot(WHITE, BLACK);
        let (out, drawn, _) = solved(&sketch, &givens, None);
        assert_eq!(drawn, 81 - givens.filled_count());
        let mut changed = [0u32; 81];
        for (x, y, p) in out.enumerate_pixels() {
            if p != sketch.image.get_pixel(x, y) {
                let pos = cell_of(&sketch, x, y)
                    .unwrap_or_else(|| panic!("({x}, {y}) changed outside the grid"));
                changed[pos.index()] += 1;
            }
        }
        // A digit 0.6 of a 45 px cell tall inks well over 5 % of the cell.
        let least = (0.05 * sketch.cell * sketch.cell) as u32;
        for pos in Pos::all() {
            let n = changed[pos.index()];
            if givens.get(pos).is_some() {
                assert_eq!(n, 0, "{pos}: a given's cell changed");
            } else {
                assert!(n > least, "{pos}: only {n} pixels drawn");
            }
        }
    }

    #[test]
    fn the_answer_reads_back_as_entries_sized_like_the_givens() {
        let (sketch, givens) = screenshot(WHITE, BLACK);
        let (out, _, _) = solved(&sketch, &givens, None);
        let again = Sketch {
            image: out,
            ..sketch
        };
        let mut cells = slice(&again.rectified(), &again.image);
        crate::pipeline::authors::tell(&mut cells);
        let given_height = |author| {
            let mut h: Vec<u32> = (cells.glyphs.iter().flatten())
                .filter(|g| g.author == author)
                .map(|g| g.height)
                .collect();
            h.sort_unstable();
            h[h.len() / 2]
        };
        for pos in Pos::all() {
            let glyph = cells.glyphs[pos.index()].as_ref();
            let expected = if givens.get(pos).is_some() {
                Author::Given
            } else {
                Author::Entry
            };
            assert_eq!(glyph.map(|g| g.author), Some(expected), "{pos}");
        }
        // The answer copies the givens' height (within the anti-aliased edge rows).
        let (g, e) = (given_height(Author::Given), given_height(Author::Entry));
        assert!(g.abs_diff(e) <= 2, "givens {g} px, answers {e} px");
    }

    #[test]
    fn the_answer_is_drawn_apart_from_a_players_blue_pen() {
        let (sketch, _) = screenshot(WHITE, BLACK);
        let mut cells = slice(&sketch.rectified(), &sketch.image);
        crate::pipeline::authors::tell(&mut cells);
        assert_eq!(answer_colour(&cells), LIGHT_ANSWERS[0], "no entries: blue");
        let pen = [40, 70, 190];
        for g in cells.glyphs.iter_mut().flatten().step_by(3) {
            (g.author, g.colour) = (Author::Entry, pen);
        }
        let colour = answer_colour(&cells);
        assert!(distance(colour, pen) > 150.0, "{colour:?}");
        assert!(distance(colour, BLACK) > 150.0, "{colour:?}");
    }

    #[test]
    fn the_digits_are_drawn_in_the_answer_colour() {
        let dark = ([30, 32, 36], [225, 225, 225]);
        for ((page, ink), asked) in [
            ((WHITE, BLACK), None),
            (dark, None),
            (dark, Some([200, 30, 140])),
        ] {
            let (sketch, givens) = screenshot(page, ink);
            let (out, drawn, colour) = solved(&sketch, &givens, asked);
            if let Some(asked) = asked {
                assert_eq!(colour, asked);
            }
            // Never the givens' ink, or an answer would pass for a given.
            assert!(
                colour.iter().zip(ink).any(|(&c, i)| c.abs_diff(i) > 60),
                "{colour:?}"
            );
            let mut full = 0;
            for (x, y, p) in out.enumerate_pixels() {
                let under = sketch.image.get_pixel(x, y).0;
                if p.0 != under {
                    assert!(
                        is_blend(p.0, under, colour),
                        "({x}, {y}): {:?} over {under:?}",
                        p.0
                    );
                    full += u32::from(p.0 == colour);
                }
            }
            // Inside the strokes coverage is whole: the very colour, in every digit.
            assert!(full as usize > 20 * drawn, "{full} pixels in {colour:?}");
        }
    }

    #[test]
    fn pencil_marks_under_an_answer_are_cleared() {
        let (mut sketch, givens) = screenshot(WHITE, BLACK);
        let pos = at(0, 2);
        for (ch, spot) in [
            ('1', (0.2, 0.2)),
            ('2', (0.5, 0.2)),
            ('5', (0.5, 0.5)),
            ('9', (0.8, 0.8)),
            // Against the line above, as a 3x3 layout's top row sits: nearer the line than
            // the cells' margin for line remnants.
            ('3', (0.8, 0.11)),
        ] {
            sketch.digit(pos, ch, spot, 0.2, BLACK);
        }
        let (out, _, colour) = solved(&sketch, &givens, None);
        // All but the lines' own pixels: only the page and the answer's blends are left.
        let inside = |v: u32, origin: f32, k: usize| {
            let f = (v as f32 + 0.5 - origin) / sketch.cell - k as f32;
            (0.06..0.94).contains(&f)
        };
        let mut seen = 0;
        for (x, y, p) in out.enumerate_pixels() {
            if inside(x, sketch.origin.0, pos.col()) && inside(y, sketch.origin.1, pos.row()) {
                assert!(is_blend(p.0, WHITE, colour), "({x}, {y}): {:?} left", p.0);
                seen += 1;
            }
        }
        assert!(seen > 0);
    }
}
