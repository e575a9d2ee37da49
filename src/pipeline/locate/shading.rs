//! Shading-only grids: boxes told apart by alternating fills, with no lines or lines too
//! faint to see. The edges between the fills are the cue: in the ink of either polarity
//! (a darker box's edge is darker than its surroundings, a lighter one's lighter) they draw
//! the two box borders each way across the whole grid.

use image::GrayImage;

use super::components::components;
use super::grid::{LineSampler, LINE_FILL};
use super::homography::apply;
use super::CANDIDATES;
use crate::pipeline::quad::Quad;

/// The least difference, in grey levels, between the fills of the two sets of boxes.
const MIN_FILL_CONTRAST: i32 = 4;
/// The least fill of any one inner box border of a shaded grid (see `best_shaded`).
const MIN_BORDER_FILL: f32 = 0.25;
/// How many of the 81 cells must side with their box's fill: all but a selected cell's row,
/// column and box (21 cells) and a few more cells highlighted for holding its digit.
const MIN_CONSISTENT: usize = 54;

/// The grid among the largest shapes of the two ink maps together whose boxes alternate in
/// fill like a chessboard and whose box borders are drawn by the fills' edges; `None` when
/// no shape is.
pub(super) fn locate_shaded(
    work: &GrayImage,
    edges: &GrayImage,
    darker: &GrayImage,
    lighter: &GrayImage,
) -> Option<Quad> {
    // The long edges keep text apart from the grid and place the box borders to a pixel;
    // the ink of either polarity (whose halos join text to the grid) still joins the fills'
    // edges into one shape under highlights that break the long edges apart.
    best_shaded(work, edges).or_else(|| {
        let both = GrayImage::from_fn(work.width(), work.height(), |x, y| {
            image::Luma([darker.get_pixel(x, y)[0].max(lighter.get_pixel(x, y)[0])])
        });
        best_shaded(work, &both)
    })
}

/// The best-placed candidate among the largest shapes of `edges` that shows a chessboard of
/// box fills and the box borders.
fn best_shaded(work: &GrayImage, edges: &GrayImage) -> Option<Quad> {
    let mut best: Option<(f32, Quad)> = None;
    for c in components(edges).iter().take(CANDIDATES) {
        for quad in [c.quad(), c.bounds()] {
            if !chessboard(work, &quad) {
                continue;
            }
            let quad = refine(edges, quad);
            let sampler = LineSampler::new(edges, &quad);
            // A highlighted row, column or box in one set's fill hides a third of a border or
            // more; the chessboard already vouches for the boxes, so the borders need only be
            // drawn on the whole, and each in part.
            let fills =
                [(3, true), (6, true), (3, false), (6, false)].map(|(k, h)| sampler.fill(k, h));
            let borders_drawn = fills.iter().sum::<f32>() / 4.0 >= LINE_FILL
                && fills.iter().all(|&f| f >= MIN_BORDER_FILL);
            let score = line_score(edges, &quad);
            if borders_drawn && chessboard(work, &quad) && best.is_none_or(|(s, _)| score > s) {
                best = Some((score, quad));
            }
        }
    }
    best.map(|(_, quad)| quad)
}

/// The median grey of `n` x `n` points spread evenly over the square of side `size` at
/// `origin` (in the unit square the homography `h` maps onto the picture); `None` when none
/// falls inside the picture.
fn inset_median(
    work: &GrayImage,
    h: &[f64; 8],
    origin: (f64, f64),
    size: f64,
    n: usize,
) -> Option<i32> {
    let (w, ht) = (work.width() as f64, work.height() as f64);
    let mut values = Vec::with_capacity(n * n);
    for i in 0..n {
        for j in 0..n {
            let u = origin.0 + (j as f64 + 0.5) / n as f64 * size;
            let v = origin.1 + (i as f64 + 0.5) / n as f64 * size;
            let (x, y) = apply(h, u, v);
            if x >= 0.0 && y >= 0.0 && x < w && y < ht {
                values.push(work.get_pixel(x as u32, y as u32)[0]);
            }
        }
    }
    values.sort_unstable();
    values.get(values.len() / 2).map(|&v| i32::from(v))
}

/// Whether the boxes of `quad` alternate in fill like a chessboard, judged box by box (a
/// highlight that changes many cells a little) or cell by cell (one that changes a few boxes
/// a lot).
fn chessboard(work: &GrayImage, quad: &Quad) -> bool {
    boxes_alternate(work, quad) || cells_alternate(work, quad)
}

/// Whether the nine boxes of `quad` alternate in fill, box by box: each box's median grey (digits are a
/// minority of its pixels) sides with the boxes of its colour on a chessboard, all but one
/// (a highlighted box), and the two sets differ by `MIN_FILL_CONTRAST` or more.
fn boxes_alternate(work: &GrayImage, quad: &Quad) -> bool {
    let h = crate::pipeline::quad::square_to_quad(&quad.corners, 1.0);
    let mut medians = [0i32; 9];
    for (b, median) in medians.iter_mut().enumerate() {
        let (bx, by) = ((b % 3) as f64, (b / 3) as f64);
        // Inset a sixth of the box: clear of its edges and the lines.
        let origin = ((bx + 1.0 / 6.0) / 3.0, (by + 1.0 / 6.0) / 3.0);
        let Some(m) = inset_median(work, &h, origin, 2.0 / 9.0, 12) else {
            return false;
        };
        *median = m;
    }
    // All but one box (a highlighted one) side with their colour.
    consistent_with_chessboard(&medians, |b| (b % 3 + b / 3) % 2 == 1).is_some_and(|n| n >= 8)
}

/// Whether the boxes of `quad` alternate in fill, judged cell by cell: each
/// cell's median grey (a digit is a minority of its pixels) must side with the cells of its
/// box's colour for `MIN_CONSISTENT` of the 81 cells, so the highlights of a selected
/// cell's row, column and box, and of the cells holding the same digit, do not undo it; the
/// two sets' typical fills must differ by `MIN_FILL_CONTRAST` or more.
fn cells_alternate(work: &GrayImage, quad: &Quad) -> bool {
    let h = crate::pipeline::quad::square_to_quad(&quad.corners, 1.0);
    let mut medians = [0i32; 81];
    for (c, median) in medians.iter_mut().enumerate() {
        let (cx, cy) = ((c % 9) as f64, (c / 9) as f64);
        // Inset a fifth of the cell: clear of its edges and the lines.
        let origin = ((cx + 0.2) / 9.0, (cy + 0.2) / 9.0);
        let Some(m) = inset_median(work, &h, origin, 0.6 / 9.0, 4) else {
            return false;
        };
        *median = m;
    }
    let odd_box = |c: usize| (c % 9 / 3 + c / 27) % 2 == 1;
    consistent_with_chessboard(&medians, odd_box).is_some_and(|n| n >= MIN_CONSISTENT)
}

/// How many of the `medians` (boxes or cells) side with their own colour of a chessboard
/// (`odd` tells which colour each is): nearer the typical fill of their own set than the
/// other's. `None` when the two sets' typical fills differ by less than `MIN_FILL_CONTRAST`.
fn consistent_with_chessboard(medians: &[i32], odd: impl Fn(usize) -> bool) -> Option<usize> {
    let typical = |want: bool| -> i32 {
        let mut v: Vec<i32> = (0..medians.len())
            .filter(|&k| odd(k) == want)
            .map(|k| medians[k])
            .collect();
        v.sort_unstable();
        v[v.len() / 2]
    };
    let (even, odd_fill) = (typical(false), typical(true));
    if (even - odd_fill).abs() < MIN_FILL_CONTRAST {
        return None;
    }
    let consistent = (0..medians.len())
        .filter(|&k| {
            let (own, other) = if odd(k) {
                (odd_fill, even)
            } else {
                (even, odd_fill)
            };
            (medians[k] - own).abs() < (medians[k] - other).abs()
        })
        .count();
    Some(consistent)
}

/// How much ink lies exactly on the 20 lines of `quad`.
fn line_score(ink: &GrayImage, quad: &Quad) -> f32 {
    let sampler = LineSampler::new(ink, quad);
    (0..10)
        .flat_map(|k| [(k, true), (k, false)])
        .map(|(k, h)| sampler.exact(k, h))
        .sum()
}

/// Moves each corner, a few pixels at a time, while that puts more ink exactly on the grid's
/// lines: the bounding box of a tilted grid overshoots its corners, and the fills' edges
/// fix where the box borders are, so the lines they draw pull the corners into place.
fn refine(ink: &GrayImage, mut quad: Quad) -> Quad {
    let mut score = line_score(ink, &quad);
    let side = quad.mean_side();
    let mut step = (side / 60.0).max(1.0);
    while step >= 1.0 {
        let mut moved = true;
        let mut rounds = 0;
        while moved && rounds < 12 {
            moved = false;
            rounds += 1;
            for corner in 0..4 {
                for (dx, dy) in [(step, 0.0), (-step, 0.0), (0.0, step), (0.0, -step)] {
                    let mut tried = quad;
                    tried.corners[corner].0 += dx;
                    tried.corners[corner].1 += dy;
                    let s = line_score(ink, &tried);
                    if s > score {
                        (quad, score, moved) = (tried, s, true);
                    }
                }
            }
        }
        step /= 2.0;
    }
    quad
}
