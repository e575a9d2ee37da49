//! Fitting the grid's lines on the full-resolution picture: once a candidate is accepted,
//! each of its 20 lines is looked for on its own, near where the candidate puts it, as a
//! thin line (a pair of opposite steps in grey) or the edge of a fill (one step), and fitted
//! by least squares; the grid's homography is then fitted to the crossings of the lines
//! found. Corners found on the working image, from the extremes of a shape or from the bands
//! that box fills' edges make there, are only known to a few original pixels; the fitted
//! lines are known to about one.

use image::RgbImage;
use rayon::prelude::*;

use super::homography::{apply, solve_homography};
use super::line::{fit_line, intersect, Line, INLIER};
use crate::pipeline::quad::Quad;

/// Points sampled along each line: three per cell, clear of the crossings.
const SAMPLES_PER_CELL: usize = 3;
/// How far from its predicted place a line is looked for, as a fraction of a cell: wider than
/// the error of corners taken from fills' edges (a fifth of a cell), narrower than the space
/// from the line to a digit's nearest stroke.
const SEARCH: f32 = 0.3;
/// The widest line whose two edges are paired, as a fraction of a cell.
const MAX_LINE_WIDTH: f32 = 0.15;
/// The fewest lines each way the homography is fitted to.
const MIN_LINES: usize = 4;
/// The fewest lines each way kept when the lines that disagree are dropped one at a time:
/// a homography fits any four lines each way, so what is left must be most of the grid.
const MIN_LINES_ONE_AT_A_TIME: usize = 6;
/// The most the crossings may stray from the fitted homography, root mean square, as a
/// fraction of a cell: more means the lines found are not one flat grid.
const MAX_RESIDUAL: f32 = 0.05;
/// The farthest a corner may move, as a fraction of a cell: further means a line was fitted
/// to something else.
const MAX_MOVE: f32 = 0.35;
/// The farthest a corner may move, as a fraction of a cell, when further fits from where
/// the first one puts the grid confirm it.
const MAX_CONFIRMED_MOVE: f32 = 1.0;
/// A further fit confirms the last when no corner moves by more than this fraction of a cell.
const CONFIRMED: f32 = 0.1;
/// How many further fits may walk towards a grid before it counts as not confirmed.
const REFITS: usize = 3;

/// Where the corners to be fitted come from.
#[derive(Clone, Copy, Debug)]
pub(super) enum Start {
    /// The extremes of the grid's own lines, right to the width of its border unless pulled
    /// onto something beside the grid: fitted corners replace them only when some corner
    /// moves by at least `least_move` of a cell.
    Lines {
        /// The least move, as a fraction of a cell, worth taking.
        least_move: f32,
    },
    /// Fills' edges, long edges or the digits' lattice, a fifth of a cell off or more: any
    /// fit replaces them, and the lines that disagree with a fit may be dropped one at a
    /// time (a line fitted to a digit or a highlight's edge, searched for from a corner that
    /// far off, pulls the first fit away from the good lines).
    Rough,
}

/// The grid's corners re-fitted to its lines on `image`, or `quad` unchanged when too few
/// lines are found, when the fit moves a corner by more than `MAX_MOVE` of a cell without
/// further fits confirming it (up to `MAX_CONFIRMED_MOVE`), or as `start` says.
pub(super) fn fit_corners(image: &RgbImage, quad: &Quad, start: Start) -> Quad {
    try_fit(image, quad, start).unwrap_or(*quad)
}

/// As [`fit_corners`], but `None` where that keeps `quad` for want of a fit it trusts.
pub(super) fn try_fit(image: &RgbImage, quad: &Quad, start: Start) -> Option<Quad> {
    let cell = quad.mean_side() / 9.0;
    if cell < 4.0 {
        return None;
    }
    let rough = matches!(start, Start::Rough);
    let mut corners = fit_once(image, quad, cell, rough)?;
    let moved = largest_move(&corners, quad);
    if !moved.is_finite() || moved > MAX_CONFIRMED_MOVE * cell {
        return None;
    }
    if moved > MAX_MOVE * cell {
        // Far from where the candidate put it: believed only when the lines looked for
        // where a fit puts them give the same grid again (each fit looks a third of a cell
        // around the last, so a few fits walk to a grid the candidate missed by more).
        let mut confirmed = false;
        for _ in 0..REFITS {
            let again = fit_once(image, &corners, cell, rough)?;
            confirmed = largest_move(&again, &corners) <= CONFIRMED * cell;
            corners = again;
            if confirmed {
                break;
            }
        }
        if !confirmed || largest_move(&corners, quad) > MAX_CONFIRMED_MOVE * cell {
            return None;
        }
    }
    match start {
        Start::Lines { least_move } if moved < least_move * cell => Some(*quad),
        _ => Some(corners),
    }
}

/// The largest distance, in pixels, between a corner of `a` and the same corner of `b`.
fn largest_move(a: &Quad, b: &Quad) -> f32 {
    a.corners
        .iter()
        .zip(&b.corners)
        .map(|(a, b)| ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt())
        .fold(0.0f32, f32::max)
}

/// One fit: the 20 lines looked for near where `quad` puts them, the homography fitted to
/// their crossings, and the corners it gives at the outer edges of the outer lines; `None`
/// when too few lines are found or they are not one flat grid. Lines that disagree are
/// dropped all at once, and when that leaves no flat grid, one at a time if the start was
/// `rough`.
fn fit_once(image: &RgbImage, quad: &Quad, cell: f32, rough: bool) -> Option<Quad> {
    let h = crate::pipeline::quad::square_to_quad(&quad.corners, 1.0);
    let map = |u: f64, v: f64| -> (f32, f32) {
        let (x, y) = apply(&h, u, v);
        (x as f32, y as f32)
    };
    // Each line fitted as a point and a unit direction, for the horizontal lines then the
    // vertical ones; `None` where it was not found.
    let mut lines: [[Option<Line>; 10]; 2] = [[None; 10]; 2];
    // Half the width of the outer lines (top, bottom; left, right), in pixels.
    let mut half_widths = [[0.0f32; 2]; 2];
    // The lines are looked for independently: in parallel.
    let found: Vec<(Option<Line>, Vec<f32>)> = (0..20usize)
        .into_par_iter()
        .map(|i| {
            let (points, halves) = line_points(image, &map, i % 10, i < 10, cell);
            (fit_line(&points, 9 * SAMPLES_PER_CELL), halves)
        })
        .collect();
    for (i, (line, mut halves)) in found.into_iter().enumerate() {
        let (axis, k) = (i / 10, i % 10);
        lines[axis][k] = line;
        if (k == 0 || k == 9) && !halves.is_empty() {
            halves.sort_by(f32::total_cmp);
            half_widths[axis][k / 9] = halves[halves.len() / 2];
        }
    }
    // Every line that disagrees dropped at once, down to the fewest a grid is fitted to;
    // failing that, one at a time, the worst first, keeping more of them.
    let flat = |fit: &Fit| fit.residual <= MAX_RESIDUAL * cell;
    let fitted = fit_homography(&lines, Dropping::AllAtOnce)
        .filter(flat)
        .or_else(|| {
            rough
                .then(|| fit_homography(&lines, Dropping::OneAtATime))
                .flatten()
                .filter(flat)
        })?
        .to_image;
    // The corners where the pipeline expects them, at the outer edges of the outer lines
    // (the lines fitted are their middles): out by half their width, in square units.
    let side = f64::from(quad.mean_side());
    let out = half_widths.map(|pair| pair.map(|hw| f64::from(hw) / side));
    let (top, bottom, left, right) = (out[0][0], out[0][1], out[1][0], out[1][1]);
    let corners = [
        (-left, -top),
        (1.0 + right, -top),
        (1.0 + right, 1.0 + bottom),
        (-left, 1.0 + bottom),
    ]
    .map(|(u, v)| {
        let z = fitted[6] * u + fitted[7] * v + 1.0;
        (
            ((fitted[0] * u + fitted[1] * v + fitted[2]) / z) as f32,
            ((fitted[3] * u + fitted[4] * v + fitted[5]) / z) as f32,
        )
    });
    Some(Quad { corners })
}

/// Where line `k` (horizontal or not) shows on `image` at each sample point along it: the
/// predicted point moved along the line's normal to the nearest strong line or edge.
fn line_points(
    image: &RgbImage,
    map: &impl Fn(f64, f64) -> (f32, f32),
    k: usize,
    horizontal: bool,
    cell: f32,
) -> (Vec<(f32, f32)>, Vec<f32>) {
    let n = 9 * SAMPLES_PER_CELL;
    let along = |t: f64| -> (f64, f64) {
        let at = k as f64 / 9.0;
        if horizontal {
            (t, at)
        } else {
            (at, t)
        }
    };
    let reach = (SEARCH * cell).ceil() as i32;
    let max_width = (MAX_LINE_WIDTH * cell).max(2.0);
    // Each sample point and the unit normal there, towards the next line across, in image
    // pixels; none where the normal is degenerate.
    let points: Vec<((f32, f32), (f32, f32))> = (0..n)
        .filter_map(|i| {
            // Cell c, at a quarter, half and three quarters of it.
            let t = ((i / SAMPLES_PER_CELL) as f64 + (i % SAMPLES_PER_CELL + 1) as f64 / 4.0) / 9.0;
            let (u, v) = along(t);
            let p = map(u, v);
            let (du, dv) = if horizontal { (0.0, 0.01) } else { (0.01, 0.0) };
            let q = map(u + du, v + dv);
            let (nx, ny) = (q.0 - p.0, q.1 - p.1);
            let len = (nx * nx + ny * ny).sqrt();
            (len != 0.0).then(|| (p, (nx / len, ny / len)))
        })
        .collect();
    // The profiles' greys, read step by step across all of them: the taps of one step lie
    // along the line, in the same rows of the picture, where a profile's own steps each fall
    // on a new row (a cache miss each, far apart in memory). Where the taps lie first, then
    // their greys: a loop doing little besides its loads keeps many of them in flight.
    let steps = (2 * reach + 1) as usize;
    let taps: Vec<Taps> = (-reach..=reach)
        .flat_map(|s| {
            let s = s as f32;
            (points.iter()).map(move |&(p, n)| Taps::at(image, p.0 + s * n.0, p.1 + s * n.1))
        })
        .collect();
    let greys: Vec<f32> = taps.iter().map(|t| t.grey(image)).collect();
    let mut profile = Vec::with_capacity(steps);
    let mut out = Vec::with_capacity(n);
    let mut halves = Vec::with_capacity(n);
    for (i, &(p, (nx, ny))) in points.iter().enumerate() {
        profile.clear();
        profile.extend((0..steps).map(|step| greys[step * points.len() + i]));
        if let Some((offset, half)) = strongest_crossing(&profile, max_width) {
            let s = offset - reach as f32;
            out.push((p.0 + s * nx, p.1 + s * ny));
            halves.push(half);
        }
    }
    (out, halves)
}

/// The position in `profile` of its strongest line or edge, to a fraction of a sample: the
/// largest step in grey, paired with an opposite step of at least half its size within
/// `max_width` (both sides of a line; the middle is the line's), or alone (the edge of a
/// fill); with half the distance between the pair (0 for an edge). `None` when no step
/// stands out of the profile's own noise.
fn strongest_crossing(profile: &[f32], max_width: f32) -> Option<(f32, f32)> {
    let n = profile.len();
    if n < 5 {
        return None;
    }
    // Centred steps: d[i] is the step across sample i + 1.
    let d: Vec<f32> = (1..n - 1)
        .map(|i| profile[i + 1] - profile[i - 1])
        .collect();
    let mut sorted: Vec<f32> = d.iter().map(|v| v.abs()).collect();
    sorted.sort_by(f32::total_cmp);
    let noise = sorted[sorted.len() / 2];
    let (best, &peak) = d
        .iter()
        .enumerate()
        .max_by(|a, b| a.1.abs().total_cmp(&b.1.abs()))?;
    if peak.abs() < (3.0 * noise).max(4.0) {
        return None;
    }
    let at = |i: usize| -> f32 {
        // Parabola through the peak and its neighbours, for the sub-sample place.
        let (l, c, r) = (
            d.get(i.wrapping_sub(1)).map_or(0.0, |v| v.abs()),
            d[i].abs(),
            d.get(i + 1).map_or(0.0, |v| v.abs()),
        );
        let den = l - 2.0 * c + r;
        let shift = if den.abs() > 1e-6 {
            (0.5 * (l - r) / den).clamp(-0.5, 0.5)
        } else {
            0.0
        };
        i as f32 + 1.0 + shift
    };
    let width = max_width.ceil() as usize;
    let partner = (best.saturating_sub(width)..(best + width + 1).min(d.len()))
        .filter(|&j| j != best && d[j] * peak < 0.0 && d[j].abs() >= 0.5 * peak.abs())
        .filter(|&j| j.abs_diff(best) >= 2)
        .max_by(|&a, &b| d[a].abs().total_cmp(&d[b].abs()));
    Some(match partner {
        Some(j) => ((at(best) + at(j)) / 2.0, (at(best) - at(j)).abs() / 2.0),
        None => (at(best), 0.0),
    })
}

/// The four pixels a bilinear read of a point takes: the top left one's place in the
/// picture's bytes, and the point's place between them.
struct Taps {
    at: usize,
    fx: f32,
    fy: f32,
}

impl Taps {
    /// The taps of `(x, y)`; the nearest edge pixels outside the picture.
    fn at(image: &RgbImage, x: f32, y: f32) -> Taps {
        let (w, h) = (image.width() as f32, image.height() as f32);
        let x = x.clamp(0.0, w - 1.001);
        let y = y.clamp(0.0, h - 1.001);
        // Both are clamped to at least 0, where truncating is flooring, with no call to the
        // library's `floor` (the baseline x86-64 target has no rounding instruction).
        let (x0, y0) = (x as u32, y as u32);
        Taps {
            at: y0 as usize * image.width() as usize * 3 + x0 as usize * 3,
            fx: x - x0 as f32,
            fy: y - y0 as f32,
        }
    }

    /// The grey (Rec. 601 luma) at the point, bilinear.
    fn grey(&self, image: &RgbImage) -> f32 {
        let (raw, stride) = (image.as_raw(), image.width() as usize * 3);
        let g = |i: usize| {
            let p = &raw[i..i + 3];
            0.299 * f32::from(p[0]) + 0.587 * f32::from(p[1]) + 0.114 * f32::from(p[2])
        };
        let (i, fx, fy) = (self.at, self.fx, self.fy);
        let top = g(i) * (1.0 - fx) + g(i + 3) * fx;
        let bottom = g(i + stride) * (1.0 - fx) + g(i + stride + 3) * fx;
        top * (1.0 - fy) + bottom * fy
    }
}

/// How `fit_homography` drops the lines that disagree with its fit.
#[derive(Clone, Copy, PartialEq)]
enum Dropping {
    /// Every line off by more than `INLIER` on average, then one fit more, down to
    /// `MIN_LINES` each way.
    AllAtOnce,
    /// The line off the most, one at a time, refitting each time, down to
    /// `MIN_LINES_ONE_AT_A_TIME` each way: a line fitted to a digit or a highlight's edge
    /// pulls the whole fit, so that the good lines beside it disagree too.
    OneAtATime,
}

/// The homography (unit square -> image, as `square_to_quad` returns) that best takes each
/// crossing of a found horizontal line `i` and vertical line `j` to `(j / 9, i / 9)`, with
/// the lines that disagree with it dropped as `dropping` says. `None` with fewer than
/// `MIN_LINES` lines found each way.
fn fit_homography(lines: &[[Option<Line>; 10]; 2], dropping: Dropping) -> Option<Fit> {
    let mut keep = lines.map(|axis| axis.map(|l| l.is_some()));
    let mut fitted = None;
    let mut round = 0;
    loop {
        let mut pairs = Vec::new();
        for i in 0..10 {
            for j in 0..10 {
                if let (true, true, Some(a), Some(b)) =
                    (keep[0][i], keep[1][j], &lines[0][i], &lines[1][j])
                {
                    if let Some(p) = intersect(a, b) {
                        pairs.push(((j as f64 / 9.0, i as f64 / 9.0), p, (i, j)));
                    }
                }
            }
        }
        let count = |axis: usize| keep[axis].iter().filter(|&&k| k).count();
        if count(0) < MIN_LINES || count(1) < MIN_LINES {
            return fitted;
        }
        let fit = solve_homography(&pairs.iter().map(|&(uv, p, _)| (uv, p)).collect::<Vec<_>>())?;
        // Each line's mean distance from where the fit puts its crossings.
        let mut error = [[(0.0f32, 0usize); 10]; 2];
        let mut squares = 0.0;
        for &((u, v), p, (i, j)) in &pairs {
            let z = fit[6] * u + fit[7] * v + 1.0;
            let x = (fit[0] * u + fit[1] * v + fit[2]) / z;
            let y = (fit[3] * u + fit[4] * v + fit[5]) / z;
            let e = ((x as f32 - p.0).powi(2) + (y as f32 - p.1).powi(2)).sqrt();
            squares += e * e;
            for (axis, k) in [(0, i), (1, j)] {
                error[axis][k].0 += e;
                error[axis][k].1 += 1;
            }
        }
        fitted = Some(Fit {
            to_image: fit,
            residual: (squares / pairs.len() as f32).sqrt(),
        });
        let off: [[f32; 10]; 2] = std::array::from_fn(|axis| {
            std::array::from_fn(|k| match error[axis][k] {
                (sum, n) if keep[axis][k] && n > 0 => sum / n as f32,
                _ => 0.0,
            })
        });
        match dropping {
            Dropping::AllAtOnce => {
                let mut dropped = false;
                for axis in 0..2 {
                    for k in 0..10 {
                        if off[axis][k] > INLIER {
                            keep[axis][k] = false;
                            dropped = true;
                        }
                    }
                }
                if !dropped || round == 1 {
                    return fitted;
                }
                round += 1;
            }
            Dropping::OneAtATime => {
                let (worst, axis, k) = (0..2)
                    .flat_map(|axis| (0..10).map(move |k| (axis, k)))
                    .map(|(axis, k)| (off[axis][k], axis, k))
                    .max_by(|a, b| a.0.total_cmp(&b.0))?;
                if worst <= INLIER || count(axis) <= MIN_LINES_ONE_AT_A_TIME {
                    return fitted;
                }
                keep[axis][k] = false;
            }
        }
    }
}

/// A homography fitted to the grid's lines.
struct Fit {
    /// Unit square -> image, as `square_to_quad` returns.
    to_image: [f64; 8],
    /// The root mean square distance, in pixels, of the crossings from where it puts them.
    residual: f32,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_thin_line_is_placed_at_its_middle_and_an_edge_at_its_step() {
        let mut line = vec![200.0f32; 21];
        line[10] = 150.0;
        line[11] = 150.0;
        let (at, half) = strongest_crossing(&line, 4.0).expect("line");
        assert!((at - 10.5).abs() < 0.3 && half > 0.5, "{at} {half}");
        let edge: Vec<f32> = (0..21).map(|i| if i < 8 { 60.0 } else { 80.0 }).collect();
        let (at, half) = strongest_crossing(&edge, 4.0).expect("edge");
        assert!((at - 7.5).abs() < 0.6 && half == 0.0, "{at} {half}");
        assert!(strongest_crossing(&[90.0; 21], 4.0).is_none());
    }

    /// A shaded grid (a 540 px square turned 2 degrees, boxes alternating in fill), with
    /// faint 1 px lines between the cells or none, and its true corners.
    fn tilted_shaded_grid(faint_lines: bool) -> (RgbImage, [(f32, f32); 4]) {
        let (cx, cy, side) = (400.0f32, 420.0f32, 540.0f32);
        let angle = 2.0f32.to_radians();
        let (sin, cos) = angle.sin_cos();
        // Grid coordinates (0..side) of a picture pixel.
        let to_grid = |x: f32, y: f32| {
            let (dx, dy) = (x - cx, y - cy);
            (
                cos * dx + sin * dy + side / 2.0,
                -sin * dx + cos * dy + side / 2.0,
            )
        };
        let to_image = |u: f32, v: f32| {
            let (du, dv) = (u - side / 2.0, v - side / 2.0);
            (cx + cos * du - sin * dv, cy + sin * du + cos * dv)
        };
        // Supersampled so the fills' edges are anti-aliased, as rendered.
        let img = RgbImage::from_fn(800, 840, |x, y| {
            let mut sum = 0.0;
            for sy in 0..4 {
                for sx in 0..4 {
                    let (u, v) = to_grid(
                        x as f32 + (sx as f32 + 0.5) / 4.0,
                        y as f32 + (sy as f32 + 0.5) / 4.0,
                    );
                    let inside = (0.0..side).contains(&u) && (0.0..side).contains(&v);
                    let box_index = (u / (side / 3.0)) as i32 + (v / (side / 3.0)) as i32;
                    let on_line = |t: f32| (t + 0.5).rem_euclid(side / 9.0) < 1.0;
                    let line = faint_lines && inside && (on_line(u) || on_line(v));
                    sum += if inside && box_index % 2 == 1 {
                        225.0
                    } else {
                        250.0
                    } - if line { 15.0 } else { 0.0 };
                }
            }
            image::Rgb([(sum / 16.0) as u8; 3])
        });
        let truth =
            [(0.0, 0.0), (side, 0.0), (side, side), (0.0, side)].map(|(u, v)| to_image(u, v));
        (img, truth)
    }

    fn assert_within(fitted: &Quad, truth: [(f32, f32); 4], pixels: f32) {
        for (c, t) in fitted.corners.iter().zip(truth) {
            assert!(
                (c.0 - t.0).abs() <= pixels && (c.1 - t.1).abs() <= pixels,
                "fitted {:?}, truth {truth:?}",
                fitted.corners
            );
        }
    }

    /// From corners a fifth of a cell off, the fitted corners are within a pixel of the true
    /// ones.
    #[test]
    fn fitted_corners_of_a_tilted_shaded_grid_are_within_a_pixel() {
        let (img, truth) = tilted_shaded_grid(false);
        let off = 60.0 / 5.0;
        let start = Quad {
            corners: [
                (truth[0].0 - off, truth[0].1 + off),
                (truth[1].0 + off, truth[1].1 + off),
                (truth[2].0 - off, truth[2].1 - off),
                (truth[3].0 + off, truth[3].1 - off),
            ],
        };
        assert_within(&fit_corners(&img, &start, Start::Rough), truth, 1.0);
    }

    /// One corner of a rough start (the bounding shape of fills under a highlight) 0.6 of a
    /// cell off, on a shaded grid with faint lines: the first fit moves it further than one
    /// fit is trusted to, and the fits from there confirm the grid (to the width of the
    /// outer line, whose outer edge the corners are put on).
    #[test]
    fn a_corner_far_off_is_fitted_when_further_fits_confirm_it() {
        let (img, truth) = tilted_shaded_grid(true);
        let mut corners = truth;
        corners[2] = (truth[2].0 - 0.6 * 60.0, truth[2].1 + 0.2 * 60.0);
        let start = Quad { corners };
        assert_within(&fit_corners(&img, &start, Start::Rough), truth, 2.0);
    }
}
