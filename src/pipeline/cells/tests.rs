//! The cells stage's tests: synthetic grids whose every digit is known (where it was drawn,
//! how tall, in which colour) are sliced, and each glyph must come out in its own cell with
//! the box it was drawn in. [`Sketch`] draws such grids; the render stage's tests use it too.

use ab_glyph::{point, Font, OutlineCurve, Point};
use image::RgbImage;

use super::*;
use crate::font::font;
use crate::pipeline::quad::Quad;
use crate::pipeline::rectify::rectify;
use crate::pipeline::rectify::CELL;
use crate::pipeline::render::Coverage;
use crate::puzzle::board::{Board, Pos};

/// A screenshot-like picture drawn for a test: a plain page and a 9x9 grid whose cells are
/// `cell` pixels wide, the grid's top-left line crossing at `origin`.
pub(crate) struct Sketch {
    pub(crate) image: RgbImage,
    pub(crate) origin: (f32, f32),
    pub(crate) cell: f32,
}

impl Sketch {
    /// A `width` x `height` page of `page` colour with the grid's lines in `ink`: thin lines
    /// 1/28 of a cell wide, box lines twice that, as screenshots draw them.
    pub(crate) fn new(
        (width, height): (u32, u32),
        origin: (f32, f32),
        cell: f32,
        page: [u8; 3],
        ink: [u8; 3],
    ) -> Sketch {
        let mut image = RgbImage::from_pixel(width, height, image::Rgb(page));
        let thin = (cell / 28.0).max(1.0);
        let side = 9.0 * cell;
        for k in 0..10 {
            let w = if k % 3 == 0 { 2.0 * thin } else { thin };
            let at = k as f32 * cell;
            let (x, y) = (origin.0 + at, origin.1 + at);
            fill(
                &mut image,
                (x - w / 2.0, origin.1 - w / 2.0),
                (w, side + w),
                ink,
            );
            fill(
                &mut image,
                (origin.0 - w / 2.0, y - w / 2.0),
                (side + w, w),
                ink,
            );
        }
        Sketch {
            image,
            origin,
            cell,
        }
    }

    /// Draws digit `ch` in the bundled font, its ink `height` (a fraction of the cell) tall
    /// and centred on `at` (fractions of the cell from its top-left corner) in cell `pos`.
    pub(crate) fn digit(
        &mut self,
        pos: Pos,
        ch: char,
        at: (f32, f32),
        height: f32,
        colour: [u8; 3],
    ) {
        let font = font();
        let outline = font
            .outline(font.glyph_id(ch))
            .expect("a digit has an outline");
        let b = outline.bounds;
        let f = height * self.cell / (b.max.y - b.min.y).abs();
        let mid = ((b.min.x + b.max.x) / 2.0, (b.min.y + b.max.y) / 2.0);
        let centre = (
            self.origin.0 + (pos.col() as f32 + at.0) * self.cell,
            self.origin.1 + (pos.row() as f32 + at.1) * self.cell,
        );
        // Font units have y up; the picture has y down.
        let place = |p: Point| point(centre.0 + (p.x - mid.0) * f, centre.1 - (p.y - mid.1) * f);
        let curves = outline.curves.iter().map(|c| moved(c, place)).collect();
        let coverage =
            Coverage::rasterise(curves, &self.image).expect("the digit is in the picture");
        for (x, y, rgb) in coverage.blend_over(&self.image, colour) {
            self.image.put_pixel(x, y, image::Rgb(rgb));
        }
    }

    /// Draws every digit of `board` at the centre of its cell.
    pub(crate) fn board(&mut self, board: &Board, height: f32, colour: [u8; 3]) {
        for pos in Pos::all() {
            if let Some(d) = board.get(pos) {
                self.digit(pos, d.to_char(), (0.5, 0.5), height, colour);
            }
        }
    }

    /// The grid's corners: where its outer lines cross.
    pub(crate) fn quad(&self) -> Quad {
        let (x, y, s) = (self.origin.0, self.origin.1, 9.0 * self.cell);
        Quad {
            corners: [(x, y), (x + s, y), (x + s, y + s), (x, y + s)],
        }
    }

    /// The grid straightened, as the locate stage would hand it on had it found the corners
    /// exactly.
    pub(crate) fn rectified(&self) -> Rectified {
        rectify(&self.image, &self.quad()).expect("the sketch's corners are a square")
    }
}

/// Paints the rectangle at `(x, y)` of size `(w, h)` (pixels whose centres it covers).
fn fill(image: &mut RgbImage, (x, y): (f32, f32), (w, h): (f32, f32), colour: [u8; 3]) {
    let first = |v: f32| (v - 0.5).ceil().max(0.0) as u32;
    let (x1, y1) = (
        first(x + w).min(image.width()),
        first(y + h).min(image.height()),
    );
    for yy in first(y)..y1 {
        for xx in first(x)..x1 {
            image.put_pixel(xx, yy, image::Rgb(colour));
        }
    }
}

fn moved(c: &OutlineCurve, f: impl Fn(Point) -> Point) -> OutlineCurve {
    match *c {
        OutlineCurve::Line(a, b) => OutlineCurve::Line(f(a), f(b)),
        OutlineCurve::Quad(a, b, c) => OutlineCurve::Quad(f(a), f(b), f(c)),
        OutlineCurve::Cubic(a, b, c, d) => OutlineCurve::Cubic(f(a), f(b), f(c), f(d)),
    }
}

/// A newspaper puzzle: 30 givens spread over every row, column and box.
pub(crate) const GIVENS: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
/// Digits are drawn this fraction of the cell tall, as screenshots typically print them.
pub(crate) const DIGIT: f32 = 0.6;
pub(crate) const WHITE: [u8; 3] = [255, 255, 255];
pub(crate) const BLACK: [u8; 3] = [20, 20, 20];

/// The cell at row `row`, column `col` (0-8).
pub(crate) fn at(row: usize, col: usize) -> Pos {
    Pos::new(row, col).expect("row and column within 0-8")
}

/// The givens of [`GIVENS`] on a grid whose cells are exactly the straightened grid's size,
/// so positions in the sketch and in the square picture differ by the origin only.
fn screenshot() -> Sketch {
    let mut sketch = Sketch::new((544, 544), (20.0, 20.0), CELL as f32, WHITE, BLACK);
    sketch.board(&GIVENS.parse().unwrap(), DIGIT, BLACK);
    sketch
}

#[test]
fn each_given_lands_in_its_own_cell_with_the_box_it_was_drawn_in() {
    let givens: Board = GIVENS.parse().unwrap();
    let sketch = screenshot();
    let cells = slice(&sketch.rectified(), &sketch.image);
    let cell = CELL as f32;
    for k in 0..10 {
        let drawn = k as f32 * cell;
        assert!(
            (cells.lines_x[k] - drawn).abs() <= 1.0,
            "{:?}",
            cells.lines_x
        );
        assert!(
            (cells.lines_y[k] - drawn).abs() <= 1.0,
            "{:?}",
            cells.lines_y
        );
    }
    for pos in Pos::all() {
        let found = &cells.glyphs[pos.index()];
        if givens.get(pos).is_none() {
            assert!(found.is_none(), "{pos}: a glyph in an empty cell");
            assert!(
                cells.marked[pos.index()].is_none(),
                "{pos}: marks in an empty cell"
            );
            continue;
        }
        let glyph = found
            .as_ref()
            .unwrap_or_else(|| panic!("{pos}: the given was not found"));
        assert_eq!(glyph.author, Author::Given, "{pos}");
        // Anti-aliasing may add or drop a faint row or column at each edge.
        let drawn = DIGIT * cell;
        assert!(
            (glyph.height as f32 - drawn).abs() <= 2.0,
            "{pos}: {} px tall",
            glyph.height
        );
        let (w, h) = (glyph.width, glyph.height);
        let centre = (
            glyph.origin.0 as f32 + w as f32 / 2.0,
            glyph.origin.1 as f32 + h as f32 / 2.0,
        );
        let expected = (
            (pos.col() as f32 + 0.5) * cell,
            (pos.row() as f32 + 0.5) * cell,
        );
        assert!(
            (centre.0 - expected.0).abs() <= 1.5 && (centre.1 - expected.1).abs() <= 1.5,
            "{pos}: glyph centred at {centre:?}, drawn at {expected:?}"
        );
        // The box holds the strokes: full ink in it, and the stroke colour the one drawn.
        assert!(
            glyph.ink.pixels().any(|p| p[0] >= 250),
            "{pos}: no full ink"
        );
        assert!(
            glyph.colour.iter().all(|&c| c < 80),
            "{pos}: colour {:?}",
            glyph.colour
        );
    }
    assert!(!cells.dark);
    assert!(
        cells.background.iter().all(|&c| c >= 250),
        "{:?}",
        cells.background
    );
}

#[test]
fn pencil_marks_are_not_a_digit_and_mark_their_cell() {
    let mut sketch = screenshot();
    // Two empty cells of candidates, each written small where a keypad puts it; one of them
    // has a 5 at the very centre, where a digit would be.
    let marked = [(at(0, 2), "1259"), (at(4, 4), "3468")];
    for (pos, digits) in marked {
        for ch in digits.chars() {
            let k = ch.to_digit(10).unwrap() as f32 - 1.0;
            let at = ((k % 3.0) * 0.3 + 0.2, (k / 3.0).floor() * 0.3 + 0.2);
            sketch.digit(pos, ch, at, 0.2, BLACK);
        }
    }
    let cells = slice(&sketch.rectified(), &sketch.image);
    for (pos, _) in marked {
        assert!(
            cells.glyphs[pos.index()].is_none(),
            "{pos}: pencil marks read as a digit"
        );
        let background = cells.marked[pos.index()].unwrap_or_else(|| panic!("{pos} not marked"));
        assert!(
            background.iter().all(|&c| c >= 250),
            "{pos}: {background:?}"
        );
    }
    // The givens are still digits beside them.
    let givens: Board = GIVENS.parse().unwrap();
    let found = Pos::all()
        .filter(|p| cells.glyphs[p.index()].is_some())
        .count();
    assert_eq!(found, givens.filled_count());
}

/// The cells of `sketch`, sliced, their authors told as the reading tells them next.
fn sliced_with_authors(sketch: &Sketch) -> Cells {
    let mut cells = slice(&sketch.rectified(), &sketch.image);
    crate::pipeline::authors::tell(&mut cells);
    cells
}

#[test]
fn a_digit_in_another_colour_is_an_entry() {
    let mut sketch = screenshot();
    let entries = [(at(0, 2), '4'), (at(8, 0), '3'), (at(4, 4), '5')];
    for (pos, ch) in entries {
        sketch.digit(pos, ch, (0.5, 0.5), DIGIT, [30, 90, 220]);
    }
    let cells = sliced_with_authors(&sketch);
    for (pos, _) in entries {
        let glyph = cells.glyphs[pos.index()].as_ref();
        assert_eq!(glyph.map(|g| g.author), Some(Author::Entry), "{pos}");
    }
    let givens: Board = GIVENS.parse().unwrap();
    for pos in Pos::all().filter(|&p| givens.get(p).is_some()) {
        let glyph = cells.glyphs[pos.index()].as_ref();
        assert_eq!(glyph.map(|g| g.author), Some(Author::Given), "{pos}");
    }
}

#[test]
fn faint_ink_is_cut_at_its_own_contrast() {
    // Grid threshold 40 (pen of contrast 115 at 0.35): print of contrast 45 whose strongest
    // pixel passes it is cut at 0.35 of its own, down to the noise floor.
    assert_eq!(own_threshold(40, 45, 50, 0.35, 0.6), MIN_INK);
    assert_eq!(own_threshold(100, 150, 190, 0.35, 0.6), 52);
    // Ink near the grid's strength keeps the grid's cut, and so does a cell where nothing
    // passes the grid's cut (shading, noise).
    assert_eq!(own_threshold(40, 100, 120, 0.35, 0.6), 40);
    assert_eq!(own_threshold(53, 30, 32, 0.35, 0.6), 53);
}

#[test]
fn a_cells_own_contrast_is_its_strokes_not_its_background() {
    let mut hist = Histogram::new();
    // 900 background pixels at 5, 95 stroke pixels at 60, 5 at 80.
    hist.add(&[5; 900], |v| v);
    hist.add(&[60; 95], |v| v);
    hist.add(&[80; 5], |v| v);
    assert_eq!(own_contrast(&hist), (60, 80));
    assert_eq!(own_contrast(&Histogram::new()), (0, 0));
}

#[test]
fn a_highlighted_cell_needs_less_contrast() {
    // Light theme, page 250, threshold 80: on a cell highlighted to 125 ink has half the
    // room to stand out, so half the threshold; a plain cell keeps it, and a dark theme
    // measures the room up to white.
    assert_eq!(cell_threshold(80, 250, 125, false), 40);
    assert_eq!(cell_threshold(80, 250, 250, false), 80);
    assert_eq!(cell_threshold(80, 20, 137, true), 40);
    // Never below the least ink.
    assert_eq!(cell_threshold(80, 250, 10, false), MIN_INK);
}

/// A typeset page: digits a fifth of a 150 px cell tall, about 11 px in the straightened grid.
/// Each is read again from the original, where it is 30 px tall.
#[test]
fn small_digits_are_read_at_the_original_resolution() {
    let cell = 150.0;
    let mut sketch = Sketch::new((1400, 1400), (25.0, 25.0), cell, WHITE, BLACK);
    let givens: Board = GIVENS.parse().unwrap();
    sketch.board(&givens, 0.2, BLACK);
    let cells = slice(&sketch.rectified(), &sketch.image);
    for pos in Pos::all().filter(|p| givens.get(*p).is_some()) {
        let glyph = cells.glyphs[pos.index()]
            .as_ref()
            .expect("a given is found");
        let (square, read) = (glyph.height as f32, glyph.ink.height() as f32);
        assert!(
            (10.0..=13.0).contains(&square),
            "{pos}: {square} px in the square"
        );
        // Up to 40 px, as far as the original goes: 30 px (plus a row of anti-aliasing).
        assert!((28.0..=33.0).contains(&read), "{pos}: read {read} px tall");
    }
}

/// Fills that place a grid a column off stretch eight columns over nine cells: where no line
/// shows where the cells really are, the digits then sit off their cells' centres across,
/// and the lattice the digits sit on places the grid again.
#[test]
fn a_grid_located_a_column_off_holds_its_digits_off_centre() {
    // Lines in the page's own colour: none to be seen.
    let mut sketch = Sketch::new((544, 544), (20.0, 20.0), CELL as f32, WHITE, WHITE);
    sketch.board(&GIVENS.parse().unwrap(), DIGIT, BLACK);
    let right = slice(&sketch.rectified(), &sketch.image);
    let centred = right.offset_across().expect("the grid has digits");
    assert!(
        centred < crate::read::placement::MISREGISTERED / 2.0,
        "{centred}"
    );
    let mut quad = sketch.quad();
    for corner in [0, 3] {
        quad.corners[corner].0 += sketch.cell;
    }
    let stretched = rectify(&sketch.image, &quad).expect("a rectangle");
    let off = slice(&stretched, &sketch.image).offset_across();
    assert!(
        off.is_some_and(|o| o > crate::read::placement::MISREGISTERED),
        "{off:?}"
    );
    let again = (crate::pipeline::locate::locate_by_digits(&sketch.image)
        .into_iter()
        .next())
    .expect("on a lattice");
    for (found, drawn) in again.quad.corners.iter().zip(sketch.quad().corners) {
        let miss = (found.0 - drawn.0).hypot(found.1 - drawn.1);
        assert!(miss < sketch.cell / 4.0, "{found:?} against {drawn:?}");
    }
}

/// Strokes beside where the lattice puts a line can pass for the line: faint lines beside
/// bold digits, whose stems are the strongest edges near the lines (a bold serif's stems a
/// quarter cell from its faint cell lines moved the fitted grid a quarter cell). So the
/// lattice's own placement is offered too when the fit moved it, for the digits to judge.
#[test]
fn the_digits_lattice_is_offered_as_placed_when_lines_beside_it_move_the_fit() {
    let (origin, shift) = (20.0, 0.25 * CELL as f32);
    // Lines a quarter cell right of the cells the digits are centred in.
    let mut sketch = Sketch::new(
        (560, 544),
        (origin + shift, origin),
        CELL as f32,
        WHITE,
        BLACK,
    );
    sketch.origin = (origin, origin);
    sketch.board(&GIVENS.parse().unwrap(), DIGIT, BLACK);
    let placements = crate::pipeline::locate::locate_by_digits(&sketch.image);
    let miss = |quad: &crate::pipeline::quad::Quad, right: f32| {
        (quad.corners.iter().zip(sketch.quad().corners))
            .map(|(found, drawn)| (found.0 - drawn.0 - right).hypot(found.1 - drawn.1))
            .fold(0.0f32, f32::max)
    };
    assert_eq!(placements.len(), 2, "fitted and as placed");
    let cell = sketch.cell;
    assert!(
        miss(&placements[0].quad, shift) < cell / 8.0,
        "fitted to the lines"
    );
    assert!(
        miss(&placements[1].quad, 0.0) < cell / 4.0,
        "the digits' lattice"
    );
}

/// A didone `5` whose hairline between flag and bowl has vanished: the bowl alone is tall
/// enough to pass for a digit, and the flag is left beside it as a mark. The bowl, shorter
/// than the grid's digits, reaches for the flag in its own cell.
#[test]
fn a_five_whose_flag_came_apart_is_joined_whole() {
    let mut sketch = screenshot();
    let pos = at(0, 2);
    sketch.digit(pos, '5', (0.5, 0.5), DIGIT, BLACK);
    let (cell, h) = (sketch.cell, DIGIT * sketch.cell);
    let top = sketch.origin.1 + pos.row() as f32 * cell + (cell - h) / 2.0;
    let left = sketch.origin.0 + pos.col() as f32 * cell;
    fill(
        &mut sketch.image,
        (left + 0.1 * cell, top + 0.22 * h),
        (0.8 * cell, 0.15 * h),
        WHITE,
    );
    assert_found_whole(&sketch, pos, h, "the flag was left out");
}

/// Slices `sketch` and asserts the glyph in `pos` is found at least 0.9 of its drawn height
/// `h` tall; `missing` says what a shorter glyph lost.
fn assert_found_whole(sketch: &Sketch, pos: Pos, h: f32, missing: &str) {
    let cells = slice(&sketch.rectified(), &sketch.image);
    let glyph = cells.glyphs[pos.index()].as_ref().expect("a digit");
    assert!(
        glyph.height as f32 >= 0.9 * h,
        "{} of {h} px: {missing}",
        glyph.height
    );
}

/// A shadow down the side of a cell (a photo's fold, the grid's edge in shade) spans the
/// cell from top to bottom: alone it is no digit, and beside a digit it is left out of it.
#[test]
fn a_shadow_spanning_its_cell_is_no_digit_and_no_part_of_one() {
    let mut sketch = screenshot();
    let cell = sketch.cell;
    let shade = |sketch: &mut Sketch, pos: Pos, from: f32| {
        let left = sketch.origin.0 + (pos.col() as f32 + from) * cell;
        let top = sketch.origin.1 + pos.row() as f32 * cell;
        fill(
            &mut sketch.image,
            (left, top),
            (0.15 * cell, cell),
            [90, 90, 90],
        );
    };
    let (empty, given) = (at(0, 2), at(0, 0));
    shade(&mut sketch, empty, 0.25);
    shade(&mut sketch, given, 0.1);
    let cells = slice(&sketch.rectified(), &sketch.image);
    assert!(
        cells.glyphs[empty.index()].is_none(),
        "the shadow read as a digit"
    );
    let five = cells.glyphs[given.index()]
        .as_ref()
        .expect("the 5 is found");
    assert!(
        five.height as f32 <= 1.1 * DIGIT * cell && five.width as f32 <= 0.5 * cell,
        "the 5 came out {}x{}",
        five.width,
        five.height
    );
}

/// An old-style given's descender reaches into the cell below, beside a player's entry there
/// and near enough to be joined to it. The entry keeps its own colour: the colour is read
/// from the glyph's largest piece.
#[test]
fn a_descender_reaching_in_does_not_lend_an_entry_its_colour() {
    let mut sketch = screenshot();
    let blue = [30, 90, 220];
    let entry = at(1, 2);
    sketch.digit(entry, '4', (0.5, 0.5), DIGIT, blue);
    let cell = sketch.cell;
    let left = sketch.origin.0 + (entry.col() as f32 + 0.3) * cell;
    let top = sketch.origin.1 + (entry.row() as f32 - 0.2) * cell;
    fill(
        &mut sketch.image,
        (left, top),
        (0.12 * cell, 0.36 * cell),
        BLACK,
    );
    let cells = sliced_with_authors(&sketch);
    let glyph = cells.glyphs[entry.index()]
        .as_ref()
        .expect("the entry is found");
    assert!(
        glyph.origin.1 as f32 <= (entry.row() as f32 + 0.12) * cell,
        "the descender was not joined: the test draws nothing to tell"
    );
    assert_eq!(glyph.author, Author::Entry, "colour {:?}", glyph.colour);
}

/// A blurred `7` printed in red came apart into its bar and its stem, each as short as the
/// specks a photo's grain left in other cells, which pass for pencil marks. The bar, twice as
/// wide as tall, is no pencil mark: it reaches for its stem. A mark-shaped piece does not.
#[test]
fn a_bar_as_short_as_a_pencil_mark_reaches_for_the_rest_of_its_digit() {
    let sizes = Sizes {
        digit: 31.0,
        mark: Some(9.5),
        whole_mark: Some(9.5),
        hand: None,
        bottoms: Vec::new(),
    };
    let piece = |width: u32, height: u32| CellInk {
        glyph: Some(Glyph::sketch(width, height, [200, 60, 60])),
        off_centre: 0.22,
        off_across: 0.01,
        bottom: 0.4,
        marks: vec![14],
        pieces: 1,
        stacked: None,
        row_mates: 0,
        faint_pixels: 0,
    };
    assert!(sizes.broken_digit_join(&piece(20, 10)).is_some());
    assert!(sizes.broken_digit_join(&piece(7, 10)).is_none());
}

/// A `5` on a highlighted row, whose thin joins fell under the cell's lowered ink threshold,
/// came apart into four pieces besides specks: its bowl, its flag's stem and bar, and a
/// sliver of its join (Gloock, 20 px of its 31 found at first). Joined again, sized and shaped
/// like the grid's digits, it is one digit; a fifth piece makes it pencil marks.
#[test]
fn a_digit_joined_from_four_pieces_is_whole() {
    let sizes = sizes_of(30.0, Some(12.0));
    let joined = |pieces: usize| CellInk {
        glyph: Some(Glyph::sketch(18, 30, [20, 20, 20])),
        off_centre: 0.02,
        off_across: 0.01,
        bottom: 0.75,
        marks: Vec::new(),
        pieces,
        stacked: None,
        row_mates: 0,
        faint_pixels: 0,
    };
    assert!(sizes.is_whole_digit(&joined(4)));
    assert!(!sizes.is_whole_digit(&joined(5)));
}

/// A photo's digit washed out by light: only its bar is as dark as the other givens, its
/// diagonal under the grid's ink threshold. The bar alone is no digit; a second look at a
/// lower threshold finds the whole `7`.
#[test]
fn a_digit_whose_faint_strokes_fell_under_the_threshold_is_found_whole() {
    let mut seven = FaintDigit::new('7');
    let (top, h) = (seven.top, seven.h);
    seven.keep_dark(top..top + 0.3 * h, |_| true);
    seven.assert_found_whole("only the bar was found");
}

/// A screenshot with one digit drawn faint (grey 180, under the grid's ink threshold) in r1c3,
/// beside the same screenshot with it drawn black: parts of it are made dark again to leave
/// what a washed-out or hairline digit keeps.
struct FaintDigit {
    faint: Sketch,
    dark: Sketch,
    pos: Pos,
    /// The digit's drawn height, its top and its cell's left, in pixels.
    h: f32,
    top: f32,
    left: f32,
}

impl FaintDigit {
    fn new(ch: char) -> FaintDigit {
        FaintDigit::in_greys(ch, [180, 180, 180], BLACK)
    }

    /// As [`FaintDigit::new`], the digit drawn `faint`, and `dark` where kept dark.
    fn in_greys(ch: char, faint_grey: [u8; 3], dark_grey: [u8; 3]) -> FaintDigit {
        let pos = at(0, 2);
        let mut faint = screenshot();
        faint.digit(pos, ch, (0.5, 0.5), DIGIT, faint_grey);
        let mut dark = screenshot();
        dark.digit(pos, ch, (0.5, 0.5), DIGIT, dark_grey);
        let (cell, h) = (faint.cell, DIGIT * faint.cell);
        let top = faint.origin.1 + pos.row() as f32 * cell + (cell - h) / 2.0;
        let left = faint.origin.0 + pos.col() as f32 * cell;
        FaintDigit {
            faint,
            dark,
            pos,
            h,
            top,
            left,
        }
    }

    /// Makes the rows `ys` of the digit's cell dark again, in the columns `keep` chooses.
    fn keep_dark(&mut self, ys: std::ops::Range<f32>, keep: impl Fn(u32) -> bool) {
        let xs = self.left as u32..(self.left + self.faint.cell) as u32;
        for x in xs.filter(|&x| keep(x)) {
            for y in ys.start as u32..ys.end as u32 {
                let ink = *self.dark.image.get_pixel(x, y);
                self.faint.image.put_pixel(x, y, ink);
            }
        }
    }

    fn assert_found_whole(&self, missing: &str) {
        assert_found_whole(&self.faint, self.pos, self.h, missing);
    }

    /// How wide the glyph found in the digit's cell is, in pixels.
    fn found_width(&self) -> u32 {
        let cells = slice(&self.faint.rectified(), &self.faint.image);
        let glyph = cells.glyphs[self.pos.index()].as_ref().expect("a digit");
        glyph.width
    }
}

/// A digit drawn wholly under the grid's ink threshold, as hairline givens are beside a
/// player's entries in a regular weight whose contrast sets the threshold (Aleo Thin beside
/// Aleo Regular): nothing of it passes but specks, yet its strokes reach the fainter look's
/// threshold, and it is found whole.
#[test]
fn a_digit_wholly_under_the_threshold_is_found_by_a_fainter_look() {
    let three = FaintDigit::new('3');
    three.assert_found_whole("nothing was found");
}

/// As above, but the foot of the `7`'s stem kept its ink too, and is left beside the bar as a
/// mark: too far below the bar to be joined to it as a broken digit's piece, and found whole
/// by the second look all the same (a blurred didone `7` on a JPEG web page).
#[test]
fn a_faint_digit_whose_pieces_lie_too_far_apart_to_join_is_found_whole() {
    let mut seven = FaintDigit::new('7');
    let (top, h) = (seven.top, seven.h);
    seven.keep_dark(top..top + 0.3 * h, |_| true);
    seven.keep_dark(top + 0.7 * h..top + h + 1.0, |_| true);
    seven.assert_found_whole("only the bar was found");
}

/// A hairline `4` whose diagonal and bar fell under the threshold (on a highlighted cell of
/// a dark theme), leaving its stem alone, a digit-tall stroke two pixels wide: looked at
/// fainter, it is found whole, not read as `1`.
#[test]
fn a_digit_reduced_to_its_stem_is_found_whole() {
    let mut four = FaintDigit::new('4');
    let (cell_top, h) = (four.top - (four.faint.cell - four.h) / 2.0, four.h);
    let rows = cell_top as u32..(cell_top + four.faint.cell) as u32;
    // The stem: the columns dark over most of the digit's height.
    let dark = four.dark.image.clone();
    let stem = |x: u32| {
        rows.clone()
            .filter(|&y| dark.get_pixel(x, y)[0] < 128)
            .count() as f32
            >= 0.8 * h
    };
    four.keep_dark(cell_top..cell_top + four.faint.cell, stem);
    let width = four.found_width();
    assert!(
        width as f32 >= 0.4 * h,
        "{width} px wide: only the stem was found"
    );
}

/// A player's `6` in a mid grey beside black givens, blurred so that only its thick left side
/// reaches its full grey and the rest stays under the grid's ink threshold (though well over
/// a threshold scaled to the entry's own strength): wider than a bare stem, a digit-tall
/// piece a quarter of the digit wide (a didone entry read `1`). Looked at with its own
/// strength, it is found whole.
#[test]
fn a_faint_entry_reduced_to_its_thick_side_is_found_whole() {
    let mut six = FaintDigit::in_greys('6', [195, 195, 195], [130, 130, 130]);
    let (cell_top, h) = (six.top - (six.faint.cell - six.h) / 2.0, six.h);
    let rows = cell_top as u32..(cell_top + six.faint.cell) as u32;
    // The digit's columns: where the two drawings differ.
    let (dark, faint) = (six.dark.image.clone(), six.faint.image.clone());
    let inked = |x: u32| {
        rows.clone()
            .any(|y| dark.get_pixel(x, y) != faint.get_pixel(x, y))
    };
    let left = (six.left as u32..).find(|&x| inked(x)).unwrap();
    let side = left..left + (0.27 * h).round() as u32;
    six.keep_dark(cell_top..cell_top + six.faint.cell, |x| side.contains(&x));
    let width = six.found_width();
    assert!(
        width as f32 >= 0.45 * h,
        "{width} px wide of {h}: only the thick side was found"
    );
}

/// Old-style figures beside pencil marks: a `1` is x-height, 13 px beside the other digits'
/// 19 and the marks' 9, nearer the marks on a log scale. Alone at its cell's centre and
/// clearly taller than the marks, it is a digit; a mark's height there (a lone candidate `5`)
/// or a mark's place in the 3x3 layout is not.
#[test]
fn a_lone_x_height_digit_at_the_centre_is_a_digit_beside_pencil_marks() {
    let sizes = sizes_of(19.0, Some(9.0));
    let lone = |height: u32, off_centre: f32| {
        let glyph = Glyph::sketch(9, height, [200, 200, 200]);
        let cell = CellInk {
            glyph: Some(glyph.clone()),
            off_centre,
            off_across: off_centre,
            bottom: 0.6,
            marks: Vec::new(),
            pieces: 1,
            stacked: None,
            row_mates: 0,
            faint_pixels: 0,
        };
        sizes.is_digit(&glyph, &cell)
    };
    assert!(lone(13, 0.03));
    assert!(!lone(9, 0.03));
    assert!(!lone(13, 0.3));
}

#[test]
fn a_row_of_bold_flat_topped_digits_is_no_grid_line() {
    // A straightened grid's ink: every line but the faint one above the third row (not
    // inked), the line above the fourth row two pixels low, and eight bold digits' flat tops
    // 0.64 of a cell wide, 12 px under the missing line.
    let size = 9 * CELL;
    let tops = 2 * CELL + 12;
    let ink = GrayImage::from_fn(size, size, |x, y| {
        let line_row = (y % CELL == 0 && y != 2 * CELL && y != 3 * CELL) || y == 3 * CELL + 2;
        let line = line_row || x % CELL == 0;
        let top = y == tops && (10..46).contains(&(x % CELL)) && x / CELL != 5;
        image::Luma([if line || top { 255 } else { 0 }])
    });
    let ((xs, x_spans), (ys, y_spans)) = find_lines(&ink);
    assert_eq!(
        ys[2],
        (2 * CELL) as f32,
        "the digits' tops taken for a line"
    );
    assert_eq!(ys[3], (3 * CELL + 2) as f32);
    assert_eq!(xs[4], (4 * CELL) as f32);
    // A line's ink is its own pixel row alone; the missing line has none.
    assert_eq!(y_spans[2], None);
    assert_eq!(y_spans[3], Some((3 * CELL + 2, 3 * CELL + 2)));
    assert_eq!(x_spans[4], Some((4 * CELL, 4 * CELL)));
}

/// Pencil marks one above another in an old-style face: the `5` descends into the `8` below
/// it, and the two join into a glyph as tall as a digit and as thin as a `1` (EB Garamond:
/// 6 x 26 px beside 37 px digits and 11 px marks, read as an entry `1`). Stacked in tiers
/// no taller than the marks, beside other marks, it is no digit; a didone `7` whose hairline
/// stem broke apart under its bar is as wide as a digit, and stays one.
#[test]
fn a_column_of_pencil_marks_is_no_digit() {
    let sizes = sizes_of(37.0, Some(11.0));
    let cell = |width: u32, height: u32, stacked: Option<u32>| {
        let glyph = Glyph::sketch(width, height, [120, 120, 120]);
        let cell = CellInk {
            pieces: 2,
            stacked,
            ..cell_with(&glyph, vec![11, 8, 11])
        };
        sizes.is_digit(&glyph, &cell)
    };
    assert!(!cell(6, 26, Some(12)));
    // The same glyph in one piece, or with a piece half a digit tall, is judged by its size.
    assert!(cell(6, 26, None));
    assert!(cell(6, 26, Some(19)));
    // A `7`'s bar over the foot of its stem.
    assert!(cell(21, 32, Some(10)));
}

/// A pencil mark beside others is not what is left of a faint digit: looked at fainter, the
/// marks one above another touch and pass for one (Headland One: a `5` over an `8`, read as a
/// `1`). A bar as short as the marks still is: no mark is that wide (a didone `7`'s bar).
#[test]
fn a_pencil_mark_is_no_faint_digits_fragment() {
    let sizes = sizes_of(32.0, Some(10.0));
    let cell = |width: u32, height: u32, marks: Vec<u32>| {
        cell_with(&Glyph::sketch(width, height, [120, 120, 120]), marks)
    };
    assert!(!sizes.is_fragment(&cell(6, 12, vec![12, 11])));
    assert!(sizes.is_fragment(&cell(21, 9, vec![12])));
    assert!(sizes.is_fragment(&cell(6, 12, Vec::new())));
}

/// Pencil marks written in a row across the cell ("2568") lie too far apart to join; on a
/// dark highlight a thin face's marks also come apart into specks half their height, which
/// pull the marks' typical height down (Zilla Slab: marks 10-12 px, pieces 4-6 px, the marks'
/// median 5 px), so one mark alone passes for a digit by its size. A glyph smaller than the
/// digits with a mark beside it in its row is one of the marks; a digit-sized one is not.
#[test]
fn a_mark_beside_marks_in_its_row_is_no_digit() {
    let sizes = sizes_of(27.0, Some(5.0));
    let cell = |height: u32, row_mates: usize| {
        let glyph = Glyph::sketch(8, height, [200, 200, 200]);
        let cell = CellInk {
            row_mates,
            ..cell_with(&glyph, vec![6])
        };
        sizes.is_digit(&glyph, &cell)
    };
    assert!(!cell(12, 1));
    assert!(cell(12, 0));
    assert!(cell(25, 1));
}

/// The picture's sizes: its digit height and, with pencil marks, theirs.
fn sizes_of(digit: f32, mark: Option<f32>) -> Sizes {
    Sizes {
        digit,
        mark,
        whole_mark: mark,
        hand: None,
        bottoms: Vec::new(),
    }
}

/// A player who writes small in pen (games-pen image1004: 18-20 px entries beside 34 px print)
/// leaves glyphs too short for the print's font and off their cells' centres: alone in their
/// cells, and sized like each other, they are one hand's digits. A lone small glyph among print
/// alone is not.
#[test]
fn small_handwriting_alone_in_its_cells_is_read_as_digits() {
    let small = Glyph::sketch(17, 19, [190, 60, 60]);
    let lone = |glyph: &Glyph| CellInk {
        off_centre: 0.2,
        off_across: 0.2,
        ..cell_with(glyph, Vec::new())
    };
    let print = Glyph::sketch(20, 34, [30, 30, 30]);
    let mut cells: Vec<CellInk> = (0..20).map(|_| lone(&print)).collect();
    cells.push(lone(&small));
    let print_only = Sizes::of(&cells);
    assert_eq!(print_only.hand, None);
    assert!(!print_only.is_digit(&small, &lone(&small)));
    cells.extend((0..9).map(|_| lone(&small)));
    let with_hand = Sizes::of(&cells);
    assert_eq!(with_hand.hand, Some(19.0));
    assert!(with_hand.is_digit(&small, &lone(&small)));
    let beside_marks = CellInk {
        off_centre: 0.2,
        off_across: 0.2,
        ..cell_with(&small, vec![8])
    };
    assert!(!with_hand.is_digit(&small, &beside_marks));
}

/// Grey pencil marks on a tinted cell come apart under the threshold into pieces of 4-7 px
/// beside whole 13 px marks (Anonymous Pro on a blue page), so the marks' typical height is 6
/// px, and two marks joined into one 15x13 glyph at a cell's centre passed for a digit beside
/// 21 px digits. Beside other marks in its cell it is weighed against the cells' tallest
/// marks; alone at the centre, a glyph that size (an old-style x-height `1`) is still a digit.
#[test]
fn a_glyph_beside_marks_is_weighed_against_whole_marks() {
    let sizes = Sizes {
        whole_mark: Some(13.0),
        ..sizes_of(21.0, Some(6.0))
    };
    let glyph = Glyph::sketch(15, 13, [120, 120, 120]);
    assert!(!sizes.is_digit(&glyph, &cell_with(&glyph, vec![5])));
    let alone = CellInk {
        off_centre: 0.05,
        ..cell_with(&glyph, Vec::new())
    };
    assert!(sizes.is_digit(&glyph, &alone));
    let without_whole = sizes_of(21.0, Some(6.0));
    assert!(without_whole.is_digit(&glyph, &cell_with(&glyph, vec![5])));
}

/// A cell holding `glyph` (one piece, a little off centre) beside `marks`.
fn cell_with(glyph: &Glyph, marks: Vec<u32>) -> CellInk {
    CellInk {
        glyph: Some(glyph.clone()),
        off_centre: 0.1,
        off_across: 0.1,
        bottom: 0.6,
        marks,
        pieces: 1,
        stacked: None,
        row_mates: 0,
        faint_pixels: 0,
    }
}

/// Specks 3 px tall (under `MIN_MARK_HEIGHT` of the cell) beside pencil marks are no marks:
/// counted as marks, they pulled the marks' typical height down to theirs, and a candidate
/// `5` written large (0.27 of the cell) at the very centre of its cell then passed for a
/// digit.
#[test]
fn specks_do_not_set_the_pencil_marks_height() {
    let mut sketch = screenshot();
    let givens: Board = GIVENS.parse().unwrap();
    let mut empty = Pos::all().filter(|p| givens.get(*p).is_none());
    let mark = |sketch: &mut Sketch, pos: Pos, ch: char| {
        let k = ch.to_digit(10).unwrap() as f32 - 1.0;
        let at = ((k % 3.0) * 0.3 + 0.2, (k / 3.0).floor() * 0.3 + 0.2);
        sketch.digit(pos, ch, at, 0.27, BLACK);
    };
    // Four cells of candidates around an empty centre, each with eight specks in the gaps.
    for pos in empty.by_ref().take(4) {
        "2468".chars().for_each(|ch| mark(&mut sketch, pos, ch));
        let corner = (
            sketch.origin.0 + pos.col() as f32 * sketch.cell,
            sketch.origin.1 + pos.row() as f32 * sketch.cell,
        );
        let corners = [(0.15, 0.15), (0.85, 0.15), (0.15, 0.85), (0.85, 0.85)];
        let middle = [(0.42, 0.42), (0.58, 0.42), (0.42, 0.58), (0.58, 0.58)];
        for (fx, fy) in corners.into_iter().chain(middle) {
            let (x, y) = (corner.0 + fx * sketch.cell, corner.1 + fy * sketch.cell);
            fill(&mut sketch.image, (x.round(), y.round()), (3.0, 3.0), BLACK);
        }
    }
    let centred = empty.next().unwrap();
    "157".chars().for_each(|ch| mark(&mut sketch, centred, ch));
    let cells = slice(&sketch.rectified(), &sketch.image);
    assert!(
        cells.glyphs[centred.index()].is_none(),
        "{centred}: the centred candidate 5 read as a digit"
    );
    assert!(
        cells.marked[centred.index()].is_some(),
        "{centred} not marked"
    );
}

/// A heavy display face's digit drawn at nearly the whole cell covers more than half of the
/// band along the cell's edges, but not its corners: the background is the page's, not the
/// ink's (Sigmar One's 6, 8 and 9 were read against their own ink and taken for a player's
/// entries). Pencil marks in the corners still leave the band's median the page's, and a
/// highlight fills corners and band alike.
#[test]
fn a_digit_covering_most_of_the_cells_edges_is_not_its_background() {
    let (page, ink, highlight) = (250u8, 30u8, 200u8);
    // A 50 px area: the band is 6 px wide. The glyph is a rounded blob reaching the cell's
    // sides (|x|^4 + |y|^4 <= 24.5^4 about the centre): 70 % of the band, a sixth of its
    // corners.
    let cell = |fill: u8, inked: &dyn Fn(u32, u32) -> bool| {
        GrayImage::from_fn(50, 50, |x, y| {
            image::Luma([if inked(x, y) { ink } else { fill }])
        })
    };
    let block = |x: u32, y: u32| {
        let off = |v: u32| ((v as f32 - 24.5) / 24.5).powi(4);
        off(x) + off(y) <= 1.0
    };
    let area = (0, 0, 50, 50);
    assert_eq!(
        cell_background(&cell(page, &block), area, page, false),
        page
    );
    assert_eq!(
        cell_background(&cell(highlight, &block), area, page, false),
        highlight
    );
    // Marks 1, 3, 7 and 9 of a 3x3 layout: each fills a corner square of the band.
    let marks = |x: u32, y: u32| !(12..38).contains(&x) && !(12..38).contains(&y);
    assert_eq!(
        cell_background(&cell(page, &marks), area, page, false),
        page
    );
}
