//! Connected components of the ink map, labelled by runs, with each component's extreme
//! points along the diagonals (the corners of a grid-shaped component).

use image::GrayImage;

use super::MIN_GRID_SIDE;
use crate::pipeline::quad::Quad;

/// A connected component's size and its extreme points along both diagonals.
#[derive(Clone, Debug)]
pub(super) struct Component {
    pixels: u32,
    min_x: u32,
    max_x: u32,
    min_y: u32,
    max_y: u32,
    /// Extremes of x+y (min: top-left, max: bottom-right) and x-y (max: top-right,
    /// min: bottom-left), with the point that reached each.
    sum_min: (i64, (u32, u32)),
    sum_max: (i64, (u32, u32)),
    diff_min: (i64, (u32, u32)),
    diff_max: (i64, (u32, u32)),
}

impl Component {
    fn new(x: u32, y: u32) -> Component {
        let s = (x as i64 + y as i64, (x, y));
        let d = (x as i64 - y as i64, (x, y));
        Component {
            pixels: 0,
            min_x: x,
            max_x: x,
            min_y: y,
            max_y: y,
            sum_min: s,
            sum_max: s,
            diff_min: d,
            diff_max: d,
        }
    }

    /// Adds the pixels `x0..x1` of row `y`. Runs come in raster order and each extreme is
    /// replaced only when beaten, so ties go to the first pixel in raster order.
    fn add_run(&mut self, y: u32, x0: u32, x1: u32) {
        let last = x1 - 1;
        self.pixels += x1 - x0;
        self.min_x = self.min_x.min(x0);
        self.max_x = self.max_x.max(last);
        self.min_y = self.min_y.min(y);
        self.max_y = self.max_y.max(y);
        // Along a run, x+y and x-y grow with x: the minima are at its start, maxima at its end.
        let (first, last) = ((x0, y), (last, y));
        let sum = |(x, y): (u32, u32)| x as i64 + y as i64;
        let diff = |(x, y): (u32, u32)| x as i64 - y as i64;
        if sum(first) < self.sum_min.0 {
            self.sum_min = (sum(first), first);
        }
        if sum(last) > self.sum_max.0 {
            self.sum_max = (sum(last), last);
        }
        if diff(first) < self.diff_min.0 {
            self.diff_min = (diff(first), first);
        }
        if diff(last) > self.diff_max.0 {
            self.diff_max = (diff(last), last);
        }
    }

    pub(super) fn area(&self) -> u32 {
        (self.max_x - self.min_x + 1) * (self.max_y - self.min_y + 1)
    }

    /// The bounding box as a quadrilateral: the corners of a shape whose corners are not
    /// its own (the shaded boxes of a grid reach its four sides, not its corners).
    pub(super) fn bounds(&self) -> Quad {
        let (x0, y0, x1, y1) = (
            self.min_x as f32,
            self.min_y as f32,
            self.max_x as f32,
            self.max_y as f32,
        );
        Quad {
            corners: [(x0, y0), (x1, y0), (x1, y1), (x0, y1)],
        }
    }

    pub(super) fn quad(&self) -> Quad {
        let f = |(x, y): (u32, u32)| (x as f32, y as f32);
        Quad {
            corners: [
                f(self.sum_min.1),
                f(self.diff_max.1),
                f(self.sum_max.1),
                f(self.diff_min.1),
            ],
        }
    }
}

/// Components big and square enough to be a grid, largest bounding box first.
pub(super) fn components(ink: &GrayImage) -> Vec<Component> {
    let mut out: Vec<Component> = labelled(ink)
        .into_iter()
        .filter(|c| {
            let (w, h) = (c.max_x - c.min_x + 1, c.max_y - c.min_y + 1);
            w >= MIN_GRID_SIDE && h >= MIN_GRID_SIDE && w <= 2 * h && h <= 2 * w
        })
        .collect();
    out.sort_by_key(|c| std::cmp::Reverse(c.area()));
    out
}

/// A small shape of the ink map: its bounding box and how many pixels it has.
#[derive(Clone, Copy, Debug)]
pub(super) struct Piece {
    pub(super) x0: u32,
    pub(super) y0: u32,
    pub(super) x1: u32,
    pub(super) y1: u32,
    pub(super) pixels: u32,
}

/// Every component of `ink` whose box is at most `max_side` pixels each way (glyphs, not
/// lines or cards).
pub(super) fn pieces(ink: &GrayImage, max_side: u32) -> Vec<Piece> {
    labelled(ink)
        .into_iter()
        .filter(|c| c.max_x - c.min_x < max_side && c.max_y - c.min_y < max_side)
        .map(|c| Piece {
            x0: c.min_x,
            y0: c.min_y,
            x1: c.max_x,
            y1: c.max_y,
            pixels: c.pixels,
        })
        .collect()
}

/// Every connected component of `ink`, in the order their first pixels appear.
fn labelled(ink: &GrayImage) -> Vec<Component> {
    let runs = ink_runs(ink);
    let roots = connect_runs(&runs);
    // A set's root is its first run in raster order.
    let mut found: Vec<Component> = Vec::new();
    let mut slot = vec![u32::MAX; runs.len()];
    for (i, (run, &root)) in runs.iter().zip(&roots).enumerate() {
        if root as usize == i {
            slot[i] = found.len() as u32;
            found.push(Component::new(run.x0, run.y));
        }
        found[slot[root as usize] as usize].add_run(run.y, run.x0, run.x1);
    }
    found
}

/// A horizontal stretch of ink pixels `x0..x1` in row `y`.
#[derive(Clone, Copy, Debug)]
struct Run {
    y: u32,
    x0: u32,
    x1: u32,
}

/// The ink map's runs, in raster order.
fn ink_runs(ink: &GrayImage) -> Vec<Run> {
    let mut runs = Vec::new();
    for (y, row) in ink.as_raw().chunks_exact(ink.width() as usize).enumerate() {
        let mut x = 0;
        while let Some(start) = row[x..].iter().position(|&v| v != 0) {
            let x0 = x + start;
            let len = row[x0..]
                .iter()
                .position(|&v| v == 0)
                .unwrap_or(row.len() - x0);
            runs.push(Run {
                y: y as u32,
                x0: x0 as u32,
                x1: (x0 + len) as u32,
            });
            x = x0 + len;
        }
    }
    runs
}

/// 8-connected labelling of runs: for each run, the index of the first run (in raster order)
/// of its component. Labelling runs instead of pixels keeps the union-find a few thousand
/// entries for a whole screenshot.
fn connect_runs(runs: &[Run]) -> Vec<u32> {
    let mut parent: Vec<u32> = (0..runs.len() as u32).collect();
    fn find(parent: &mut [u32], mut i: u32) -> u32 {
        while parent[i as usize] != i {
            let up = parent[parent[i as usize] as usize];
            parent[i as usize] = up; // path halving
            i = up;
        }
        i
    }
    let (mut above, mut row_start) = (0..0, 0);
    for i in 0..runs.len() {
        if i == 0 || runs[i].y != runs[i - 1].y {
            let previous_row = runs[i].y.checked_sub(1);
            above = if i > 0 && Some(runs[i - 1].y) == previous_row {
                row_start..i
            } else {
                i..i
            };
            row_start = i;
        }
        let run = runs[i];
        // Runs of the row above that touch this one, diagonals included. Those ending before
        // it end before every later run of this row too.
        while above.start < above.end && runs[above.start].x1 < run.x0 {
            above.start += 1;
        }
        for j in above.clone() {
            if runs[j].x0 > run.x1 {
                break;
            }
            let (a, b) = (find(&mut parent, i as u32), find(&mut parent, j as u32));
            let (low, high) = (a.min(b), a.max(b));
            parent[high as usize] = low;
        }
    }
    (0..runs.len() as u32)
        .map(|i| find(&mut parent, i))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Run labelling groups pixels exactly as imageproc's 8-connected pixel labelling does.
    #[test]
    fn run_labels_match_pixel_labels() {
        use imageproc::region_labelling::{connected_components, Connectivity};
        let mut state = 12345u32;
        for density in [20, 45, 60] {
            let ink = GrayImage::from_fn(97, 61, |_, _| {
                state = state.wrapping_mul(1_103_515_245).wrapping_add(12345);
                image::Luma([if (state >> 16) % 100 < density {
                    255
                } else {
                    0
                }])
            });
            let runs = ink_runs(&ink);
            let roots = connect_runs(&runs);
            let mut ours = vec![u32::MAX; ink.len()];
            for (run, &root) in runs.iter().zip(&roots) {
                for x in run.x0..run.x1 {
                    ours[(run.y * ink.width() + x) as usize] = root;
                }
            }
            let theirs = connected_components(&ink, Connectivity::Eight, image::Luma([0u8]));
            let mut pairs = std::collections::HashMap::new();
            let mut reverse = std::collections::HashMap::new();
            for (i, label) in theirs.pixels().enumerate() {
                let label = label[0];
                assert_eq!(label == 0, ours[i] == u32::MAX, "pixel {i}");
                if label != 0 {
                    assert_eq!(*pairs.entry(label).or_insert(ours[i]), ours[i]);
                    assert_eq!(*reverse.entry(ours[i]).or_insert(label), label);
                }
            }
            assert!(
                pairs.len() > 5,
                "density {density}: {} components",
                pairs.len()
            );
        }
    }
}
