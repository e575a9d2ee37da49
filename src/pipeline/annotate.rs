//! Annotate: marks on a game in progress instead of the whole answer. A wrong entry gets a
//! ring in an alarm colour; a cell whose pencil marks leave out its answer a dashed ring in
//! the same colour (the answer itself is not drawn: that would spoil the game); a hint gets
//! its digit drawn like an answer, a ring in the answer colour, and a line of text naming the
//! cell, the digit and the technique on a strip added below the picture (see [`hint_strip`]).
//! Rings are drawn in the square picture's coordinates and carried through the projection,
//! so they follow a tilted grid as the answer digits do. Like the answer, marks are drawn on a
//! [`Canvas`], so a picture with transparent parts keeps them visible.

use ab_glyph::{point, Font, FontRef, OutlineCurve, Point};
use image::RgbImage;

use crate::font::font;
use crate::pipeline::cells::Cells;
use crate::pipeline::picture::{Canvas, Picture};
use crate::pipeline::rectify::Rectified;
use crate::pipeline::render::{self, Coverage};
use crate::puzzle::board::{Board, Pos};
use crate::puzzle::check::{WrongEntry, WrongPencilMarks};
use crate::puzzle::hint::Hint;

/// What to mark on one picture.
pub struct Marks<'a> {
    /// Entries to ring in the alarm colour.
    pub wrong: &'a [WrongEntry],
    /// Cells of pencil marks to ring with a dashed line in the alarm colour.
    pub pencil: &'a [WrongPencilMarks],
    /// Steps to draw, ring and describe.
    pub hints: &'a [Hint],
    /// The hints' colour; `None` picks the answer colour that suits the picture.
    pub colour: Option<[u8; 3]>,
}

/// Red on light pictures, a lighter red on dark ones: no app draws its grid in it, and it
/// reads as "mistake" everywhere.
fn alarm_colour(cells: &Cells) -> [u8; 3] {
    if cells.dark {
        [255, 90, 90]
    } else {
        [225, 20, 30]
    }
}

/// Ring size as fractions of a cell: the ring hugs the cell's border, inside the grid lines,
/// and is thick enough to see on a phone screenshot viewed small.
const RING_OUTER: f32 = 0.47;
const RING_WIDTH: f32 = 0.09;
/// A dashed ring has this many dashes, each filling this share of its stretch: few enough
/// that the gaps show on a small grid.
const DASHES: usize = 10;
const DASH_SHARE: f32 = 0.55;

/// At most this many hint lines are written on the picture; the rest are counted.
const MAX_LABEL_LINES: usize = 4;

/// Draws `marks` onto `image` (an [`RgbImage`], or a
/// [`Picture`](crate::pipeline::picture::Picture) that keeps its transparency).
pub fn draw(image: &mut impl Canvas, rect: &Rectified, cells: &Cells, marks: &Marks<'_>) {
    let hint_colour = hint_colour(cells, marks);
    let mut steps = Board::empty();
    for h in marks.hints {
        steps.set(h.cell, Some(h.digit));
    }
    render::draw_answer(image, rect, cells, &steps, Some(hint_colour));
    for h in marks.hints {
        ring(image, rect, cells, h.cell, hint_colour);
    }
    for w in marks.wrong {
        ring(image, rect, cells, w.cell, alarm_colour(cells));
    }
    for p in marks.pencil {
        dashed_ring(image, rect, cells, p.cell, alarm_colour(cells));
    }
}

/// The colour [`draw`] gives the hints of `marks` on a grid sliced as `cells`.
pub fn hint_colour(cells: &Cells, marks: &Marks<'_>) -> [u8; 3] {
    marks.colour.unwrap_or_else(|| render::answer_colour(cells))
}

/// Writes the hints' lines (cell, digit, technique) on a strip added below `picture`, in the
/// grid's background colour, so the text hides nothing of the picture: neither the grid's
/// last rows nor an app's own controls under it. At most `MAX_LABEL_LINES` lines; the rest are
/// counted on the last.
pub fn hint_strip(
    picture: &mut Picture,
    rect: &Rectified,
    cells: &Cells,
    hints: &[Hint],
    colour: [u8; 3],
) {
    if hints.is_empty() {
        return;
    }
    let mut lines: Vec<String> = hints.iter().map(Hint::to_string).collect();
    if lines.len() > MAX_LABEL_LINES {
        let more = lines.len() - (MAX_LABEL_LINES - 1);
        lines.truncate(MAX_LABEL_LINES - 1);
        lines.push(format!("... and {more} more"));
    }
    label(picture, rect, cells, &lines, colour);
}

/// A ring around `pos`, through the grid's projection.
fn ring(image: &mut impl Canvas, rect: &Rectified, cells: &Cells, pos: Pos, colour: [u8; 3]) {
    let arc = Arc::around(rect, cells, pos);
    // Opposite windings: the inner circle cancels the outer one's coverage, leaving a ring.
    let outer = arc.points(RING_OUTER, 0.0, 1.0);
    let mut inner = arc.points(RING_OUTER - RING_WIDTH, 0.0, 1.0);
    inner.reverse();
    fill_outlines(image, &[outer, inner], colour);
}

/// A dashed ring around `pos`, through the grid's projection: each dash a closed band.
fn dashed_ring(
    image: &mut impl Canvas,
    rect: &Rectified,
    cells: &Cells,
    pos: Pos,
    colour: [u8; 3],
) {
    let arc = Arc::around(rect, cells, pos);
    let stretch = 1.0 / DASHES as f32;
    let dashes: Vec<Vec<Point>> = (0..DASHES)
        .map(|k| {
            let (from, to) = (k as f32 * stretch, (k as f32 + DASH_SHARE) * stretch);
            let mut band = arc.points(RING_OUTER, from, to);
            let mut back = arc.points(RING_OUTER - RING_WIDTH, from, to);
            back.reverse();
            band.extend(back);
            band.push(band[0]);
            band
        })
        .collect();
    fill_outlines(image, &dashes, colour);
}

/// Circles around one cell's centre, in the square picture, drawn through the projection.
struct Arc {
    centre: (f32, f32),
    /// The cell's side in the square picture.
    size: f32,
    back: imageproc::geometric_transformations::Projection,
}

impl Arc {
    fn around(rect: &Rectified, cells: &Cells, pos: Pos) -> Arc {
        let (x0, x1) = (cells.lines_x[pos.col()], cells.lines_x[pos.col() + 1]);
        let (y0, y1) = (cells.lines_y[pos.row()], cells.lines_y[pos.row() + 1]);
        Arc {
            centre: ((x0 + x1) / 2.0, (y0 + y1) / 2.0),
            size: (x1 - x0).min(y1 - y0),
            back: rect.projection.invert(),
        }
    }

    /// Points in the picture along the circle of `radius` (a fraction of the cell) from turn
    /// `from` to turn `to` (0-1, clockwise from the right).
    fn points(&self, radius: f32, from: f32, to: f32) -> Vec<Point> {
        const STEPS_PER_TURN: f32 = 64.0;
        let steps = ((to - from) * STEPS_PER_TURN).ceil().max(2.0) as usize;
        let r = radius * self.size;
        (0..=steps)
            .map(|i| {
                let turn = from + (to - from) * i as f32 / steps as f32;
                let a = std::f32::consts::TAU * turn;
                let (x, y) = self.back * (self.centre.0 + r * a.cos(), self.centre.1 + r * a.sin());
                point(x, y)
            })
            .collect()
    }
}

/// Fills the closed outlines (polylines in picture coordinates) in `colour`.
fn fill_outlines(image: &mut impl Canvas, outlines: &[Vec<Point>], colour: [u8; 3]) {
    let curves = (outlines.iter())
        .flat_map(|pts| pts.windows(2).map(|w| OutlineCurve::Line(w[0], w[1])))
        .collect();
    if let Some(coverage) = Coverage::rasterise(curves, image.rgb()) {
        let pixels = coverage.blend_over(image.rgb(), colour);
        paint(image, &pixels);
    }
}

/// Writes changed pixels into the picture.
fn paint(image: &mut impl Canvas, pixels: &[(u32, u32, [u8; 3])]) {
    for &(x, y, rgb) in pixels {
        image.set(x, y, rgb);
    }
}

/// `lines` of text on a strip of the grid's background colour added below `picture`, sized as
/// a bit under half a cell of the grid (readable beside its own digits) unless the picture is
/// too narrow for the widest line, and starting under the grid's left edge.
fn label(
    picture: &mut Picture,
    rect: &Rectified,
    cells: &Cells,
    lines: &[String],
    colour: [u8; 3],
) {
    let font = font();
    let c = &rect.quad.corners;
    let left = c.iter().map(|p| p.0).fold(f32::MAX, f32::min).max(0.0);
    let right = c.iter().map(|p| p.0).fold(f32::MIN, f32::max);
    let (w, h) = picture.dimensions();
    let w = w as f32;
    let mut px = ((right - left) / 9.0 * 0.42).max(11.0);
    let widest = lines
        .iter()
        .map(|l| text_width(&font, l, 1.0))
        .fold(0.0, f32::max);
    let pad = px * 0.4;
    px = px.min((w - 2.0 * pad) / widest.max(1.0));
    let line_h = px * 1.35;
    let block_h = line_h * lines.len() as f32 + pad;
    picture.extend_below((block_h + pad).ceil() as u32, cells.background);
    let y = h as f32 + pad * 0.5;
    let x = left.min(w - widest * px - 2.0 * pad).max(0.0);
    for (i, line) in lines.iter().enumerate() {
        let baseline = y + pad * 0.5 + line_h * (i as f32 + 0.8);
        text(picture, &font, line, (x + pad, baseline), px, colour);
    }
}

/// Draws `s` in the bundled font, baseline starting at `origin`, `px` pixels per em (for
/// the debug pictures' labels).
pub(crate) fn draw_text(
    image: &mut RgbImage,
    s: &str,
    origin: (f32, f32),
    px: f32,
    colour: [u8; 3],
) {
    let font = font();
    text(image, &font, s, origin, px, colour);
}

/// The advance width of `s` at `px` pixels per em.
fn text_width(font: &FontRef<'_>, s: &str, px: f32) -> f32 {
    let f = px / font.units_per_em().unwrap_or(2048.0);
    s.chars()
        .map(|ch| font.h_advance_unscaled(font.glyph_id(ch)) * f)
        .sum()
}

/// Draws `s` with its baseline starting at `origin`, `px` pixels per em.
fn text(
    image: &mut impl Canvas,
    font: &FontRef<'_>,
    s: &str,
    origin: (f32, f32),
    px: f32,
    colour: [u8; 3],
) {
    let f = px / font.units_per_em().unwrap_or(2048.0);
    let mut pen = origin.0;
    for ch in s.chars() {
        let id = font.glyph_id(ch);
        if let Some(outline) = font.outline(id) {
            // Font units have y up; the picture has y down.
            let place = |p: Point| point(pen + p.x * f, origin.1 - p.y * f);
            let curves = outline.curves.iter().map(|c| map(c, place)).collect();
            if let Some(coverage) = Coverage::rasterise(curves, image.rgb()) {
                let pixels = coverage.blend_over(image.rgb(), colour);
                paint(image, &pixels);
            }
        }
        pen += font.h_advance_unscaled(id) * f;
    }
}

fn map(c: &OutlineCurve, f: impl Fn(Point) -> Point) -> OutlineCurve {
    match *c {
        OutlineCurve::Line(a, b) => OutlineCurve::Line(f(a), f(b)),
        OutlineCurve::Quad(a, b, c) => OutlineCurve::Quad(f(a), f(b), f(c)),
        OutlineCurve::Cubic(a, b, c, d) => OutlineCurve::Cubic(f(a), f(b), f(c), f(d)),
    }
}
