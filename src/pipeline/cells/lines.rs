//! The grid's lines inside the straightened square: where the ten lines of each direction
//! cross the square, and the area of each cell between them.

use image::GrayImage;

use super::LINE_MARGIN;
use crate::pipeline::rectify::CELL;

/// The fewest cells a row (or column) must cover three quarters of to be a grid line (see
/// [`find_lines`]).
const MIN_CROSSED: usize = 1;
/// Each grid line's position, vertical lines (x) then horizontal (y): the column (or row)
/// within a quarter cell of where it should be that is most covered by ink standing out from
/// its neighbourhood. Coverage, not summed darkness, so a row of bold digits cannot outweigh a
/// faint line: a line crosses the whole grid, digits at most half of it. Highlighted cells are
/// uniform inside and do not count.
///
/// Only a row covering three quarters of a cell somewhere is a line: a full row of wide bold
/// digits with flat tops covers more than half the grid too, in pieces (Sigmar One's digits,
/// 0.65 of the cell wide, beside faint lines: the tops were taken for the line above them,
/// and the digits cut in half). A cell is covered by what the row and its two neighbours
/// hold, so a line tilted or bent in a photo still covers it: a photo's patchy line covers
/// 0.6-0.8 of each cell (asking that of two cells or more lost one photo of the 160).
pub(super) fn find_lines(ink: &GrayImage) -> (Lines, Lines) {
    let (w, h) = (ink.width() as usize, ink.height() as usize);
    let cell = CELL as usize;
    let inked: Vec<u8> = ink.as_raw().iter().map(|&v| u8::from(v > 0)).collect();
    let row_at = |y: usize| &inked[y * w..(y + 1) * w];
    let mut by_row = vec![Crossing::default(); h];
    // The columns' counts, one row of them per cell down (plain slices, so the additions
    // vectorise).
    let mut column_totals = vec![0u32; w];
    let mut column_cells = vec![vec![0u32; w]; 9];
    let mut across_rows = vec![0u8; w];
    let mut across_columns = vec![0u8; w];
    for (y, row) in by_row.iter_mut().enumerate() {
        let (above, here, below) = (
            row_at(y.saturating_sub(1)),
            row_at(y),
            row_at((y + 1).min(h - 1)),
        );
        // Each pixel's own ink or a neighbour's across the line: the row's above and below,
        // the column's left and right.
        for (((out, a), b), c) in across_rows.iter_mut().zip(above).zip(here).zip(below) {
            *out = a | b | c;
        }
        across_columns.copy_from_slice(here);
        for ((out, l), r) in across_columns[1..].iter_mut().zip(here).zip(&here[2..]) {
            *out |= l | r;
        }
        if let (Some(first), Some(&next)) = (across_columns.first_mut(), here.get(1)) {
            *first |= next;
        }
        if let (Some(last), Some(&before)) =
            (across_columns.last_mut(), here.get(w.wrapping_sub(2)))
        {
            *last |= before;
        }
        row.total = here.iter().map(|&v| u32::from(v)).sum();
        for (slot, chunk) in row.per_cell.iter_mut().zip(across_rows.chunks(cell)) {
            *slot = chunk.iter().map(|&v| u32::from(v)).sum();
        }
        for (total, &v) in column_totals.iter_mut().zip(here) {
            *total += u32::from(v);
        }
        let cells = &mut column_cells[(y / cell).min(8)];
        for (count, &v) in cells.iter_mut().zip(&across_columns) {
            *count += u32::from(v);
        }
    }
    let by_column: Vec<Crossing> = (0..w)
        .map(|x| Crossing {
            total: column_totals[x],
            per_cell: std::array::from_fn(|k| column_cells[k][x]),
        })
        .collect();
    (line_peaks(&by_column), line_peaks(&by_row))
}

/// The ten lines of one direction: each one's position, and the first and last pixel row (or
/// column) of its ink, `None` where no line was found and the even spacing stands in.
pub(super) type Lines = ([f32; 10], [Option<(u32, u32)>; 10]);

/// The ink of one row (or column) of the straightened grid: how much of it, and how much of
/// each cell it crosses, with its neighbours' ink, is covered.
#[derive(Clone, Copy, Default)]
struct Crossing {
    total: u32,
    per_cell: [u32; 9],
}

impl Crossing {
    /// Whether it runs like a grid line: across more than half the grid, and over at least
    /// three quarters of `MIN_CROSSED` cells, which digits never cover.
    fn is_line_like(&self, len: usize) -> bool {
        let crossed = (self.per_cell.iter())
            .filter(|&&c| c * 4 >= CELL * 3)
            .count();
        self.total as usize * 2 > len && crossed >= MIN_CROSSED
    }
}

/// The ten line positions along one axis from its rows' (or columns') ink, with each found
/// line's ink: the rows around its peak at least half as covered as the peak, where a
/// line's anti-aliased edge, which covers less, ends.
fn line_peaks(profile: &[Crossing]) -> Lines {
    let n = profile.len();
    let mut out = [0.0; 10];
    let mut spans = [None; 10];
    for (k, slot) in out.iter_mut().enumerate() {
        let expected = k as u32 * CELL;
        let window = CELL / 4;
        let lo = expected.saturating_sub(window) as usize;
        let hi = ((expected + window) as usize).min(n - 1);
        // Only trust a peak that runs like a line; otherwise keep the even spacing.
        let best = (lo..=hi)
            .max_by_key(|&i| profile[i].total)
            .filter(|&i| profile[i].is_line_like(n));
        *slot = best.map_or(expected as f32, |i| i as f32);
        spans[k] = best.map(|i| {
            let inked = |j: usize| profile[j].total * 2 >= profile[i].total;
            let first = (lo..i).rev().take_while(|&j| inked(j)).last().unwrap_or(i);
            let last = (i + 1..=hi).take_while(|&j| inked(j)).last().unwrap_or(i);
            (first as u32, last as u32)
        });
    }
    (out, spans)
}

/// The rows of `gray` within `area` (x0, y0, x1, y1).
pub(super) fn area_rows(
    gray: &GrayImage,
    (x0, y0, x1, y1): (u32, u32, u32, u32),
) -> impl Iterator<Item = &[u8]> {
    let w = gray.width() as usize;
    (y0 as usize..y1 as usize)
        .map(move |y| &gray.as_raw()[y * w + x0 as usize..y * w + x1 as usize])
}

/// The whole inside of a cell (x0, y0, x1, y1, as pixel edges) but for a pixel's gap along
/// each line found (the erase's anti-aliased edge then never reaches the line, or the cell
/// across it), else `cell_area`'s edge, which keeps clear of a line too faint to be found:
/// what a cell of pencil marks is cleaned over before an answer is drawn there. Marks reach
/// nearer the lines than `LINE_MARGIN` (a 3x3 layout's top row sits against the line above).
pub(crate) fn cell_inside(cells: &super::Cells, row: usize, col: usize) -> (f32, f32, f32, f32) {
    let (ax0, ay0, ax1, ay1) = cell_area(&cells.lines_x, &cells.lines_y, row, col);
    let after = |span: Option<(u32, u32)>, or: u32| span.map_or(or, |(_, last)| last + 2);
    let before = |span: Option<(u32, u32)>, or: u32| span.map_or(or, |(first, _)| first - 1);
    let (sx, sy) = (&cells.line_spans_x, &cells.line_spans_y);
    (
        after(sx[col], ax0).min(ax0) as f32,
        after(sy[row], ay0).min(ay0) as f32,
        before(sx[col + 1], ax1).max(ax1) as f32,
        before(sy[row + 1], ay1).max(ay1) as f32,
    )
}

/// The cell's interior (x0, y0, x1, y1), line remnants cut away.
pub(crate) fn cell_area(
    xs: &[f32; 10],
    ys: &[f32; 10],
    row: usize,
    col: usize,
) -> (u32, u32, u32, u32) {
    let mx = (xs[col + 1] - xs[col]) * LINE_MARGIN;
    let my = (ys[row + 1] - ys[row]) * LINE_MARGIN;
    (
        (xs[col] + mx).round() as u32,
        (ys[row] + my).round() as u32,
        (xs[col + 1] - mx).round() as u32,
        (ys[row + 1] - my).round() as u32,
    )
}
