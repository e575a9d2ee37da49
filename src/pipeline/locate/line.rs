//! A grid line fitted to the points found along it: the line through most of them (a
//! consensus of pairs), refitted by least squares to those it holds, and where two lines
//! cross.

/// A point lies on a fitted line when it is this close, in pixels.
pub(super) const INLIER: f32 = 1.5;

/// A line counts as found when this fraction of its samples lie on its fit: the outer line of
/// a shaded grid whose corner boxes have the page's fill shows along its middle box only.
const MIN_INLIERS: f32 = 0.3;

/// A fitted line: a point on it and its unit direction.
#[derive(Clone, Copy, Debug)]
pub(super) struct Line {
    pub(super) point: (f32, f32),
    pub(super) dir: (f32, f32),
}

/// The line through most of `points` (within `INLIER` px), refitted by least squares to
/// those; `None` when fewer than `MIN_INLIERS` of `expected` points lie on any line.
pub(super) fn fit_line(points: &[(f32, f32)], expected: usize) -> Option<Line> {
    let need = ((expected as f32 * MIN_INLIERS).ceil() as usize).max(3);
    if points.len() < need {
        return None;
    }
    let on = |line: &Line, p: &(f32, f32)| distance(line, *p) <= INLIER;
    // Every pair of points proposes a line; the one most points lie on wins.
    let mut best: Option<(usize, Line)> = None;
    for i in 0..points.len() {
        for j in i + 1..points.len() {
            let Some(line) = through(points[i], points[j]) else {
                continue;
            };
            let count = points.iter().filter(|p| on(&line, p)).count();
            if best.is_none_or(|(c, _)| count > c) {
                best = Some((count, line));
            }
        }
    }
    let (count, line) = best?;
    if count < need {
        return None;
    }
    let inliers: Vec<(f32, f32)> = points.iter().filter(|p| on(&line, p)).copied().collect();
    Some(least_squares(&inliers).unwrap_or(line))
}

fn through(a: (f32, f32), b: (f32, f32)) -> Option<Line> {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len = (dx * dx + dy * dy).sqrt();
    (len > 1e-3).then(|| Line {
        point: a,
        dir: (dx / len, dy / len),
    })
}

fn distance(line: &Line, p: (f32, f32)) -> f32 {
    let (rx, ry) = (p.0 - line.point.0, p.1 - line.point.1);
    (rx * line.dir.1 - ry * line.dir.0).abs()
}

/// The total-least-squares line of `points`: through their centroid, along the principal
/// axis of their spread.
fn least_squares(points: &[(f32, f32)]) -> Option<Line> {
    let n = points.len() as f64;
    if n < 2.0 {
        return None;
    }
    let (mx, my) = points.iter().fold((0.0, 0.0), |(x, y), p| {
        (x + f64::from(p.0) / n, y + f64::from(p.1) / n)
    });
    let (mut sxx, mut sxy, mut syy) = (0.0, 0.0, 0.0);
    for p in points {
        let (dx, dy) = (f64::from(p.0) - mx, f64::from(p.1) - my);
        sxx += dx * dx;
        sxy += dx * dy;
        syy += dy * dy;
    }
    let angle = 0.5 * (2.0 * sxy).atan2(sxx - syy);
    Some(Line {
        point: (mx as f32, my as f32),
        dir: (angle.cos() as f32, angle.sin() as f32),
    })
}

/// Where two lines cross; `None` for (nearly) parallel lines.
pub(super) fn intersect(a: &Line, b: &Line) -> Option<(f32, f32)> {
    let cross = a.dir.0 * b.dir.1 - a.dir.1 * b.dir.0;
    if cross.abs() < 1e-3 {
        return None;
    }
    let (rx, ry) = (b.point.0 - a.point.0, b.point.1 - a.point.1);
    let t = (rx * b.dir.1 - ry * b.dir.0) / cross;
    Some((a.point.0 + t * a.dir.0, a.point.1 + t * a.dir.1))
}
