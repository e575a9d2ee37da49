//! Three-channel colour statistics for telling authors apart: vector arithmetic, means and
//! covariances, a 3x3 solve, the main axis of a cloud of colours and the best cut along a
//! direction.

pub(super) fn distance(a: [f32; 3], b: [f32; 3]) -> f32 {
    (0..3).map(|i| (a[i] - b[i]).powi(2)).sum::<f32>().sqrt()
}

pub(super) fn chroma(c: [f32; 3]) -> f32 {
    c.iter().cloned().fold(f32::MIN, f32::max) - c.iter().cloned().fold(f32::MAX, f32::min)
}

pub(super) fn dot(a: [f32; 3], b: [f32; 3]) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

pub(super) fn sub(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

/// The squared length of the part of `v` across `direction` (at right angles to it); `None`
/// when `direction` has no length to speak of.
pub(super) fn across_squared(v: [f32; 3], direction: [f32; 3]) -> Option<f32> {
    let length = dot(direction, direction).sqrt();
    if length < 1e-3 {
        return None;
    }
    let unit = direction.map(|d| d / length);
    let along = dot(v, unit);
    let rest = sub(v, unit.map(|u| u * along));
    Some(dot(rest, rest))
}

/// Each channel's median over `points` (the upper one for an even count); 0 for none.
pub(super) fn median(points: impl Iterator<Item = [f32; 3]>) -> [f32; 3] {
    let points: Vec<[f32; 3]> = points.collect();
    std::array::from_fn(|c| {
        let mut channel: Vec<f32> = points.iter().map(|p| p[c]).collect();
        channel.sort_by(f32::total_cmp);
        channel.get(channel.len() / 2).copied().unwrap_or(0.0)
    })
}

pub(super) fn mean(points: impl Iterator<Item = [f32; 3]>) -> [f32; 3] {
    let (mut sum, mut n) = ([0.0f32; 3], 0.0f32);
    for p in points {
        (0..3).for_each(|i| sum[i] += p[i]);
        n += 1.0;
    }
    sum.map(|s| s / n.max(1.0))
}

/// The covariance of `points`, each around its own `centre(i)`, plus `noise` squared on the
/// diagonal (so a cloud of identical colours still has a spread).
pub(super) fn covariance(
    points: &[[f32; 3]],
    centre: impl Fn(usize) -> [f32; 3],
    noise: f32,
) -> [[f32; 3]; 3] {
    let mut c = [[0.0f32; 3]; 3];
    for (k, p) in points.iter().enumerate() {
        let d = sub(*p, centre(k));
        for i in 0..3 {
            for j in 0..3 {
                c[i][j] += d[i] * d[j];
            }
        }
    }
    let n = points.len().max(1) as f32;
    for (i, row) in c.iter_mut().enumerate() {
        row.iter_mut().for_each(|v| *v /= n);
        row[i] += noise * noise;
    }
    c
}

/// The direction of greatest spread of the points (power iteration on their covariance, with
/// `noise` added on its diagonal).
pub(super) fn main_axis(points: &[[f32; 3]], noise: f32) -> [f32; 3] {
    let m = mean(points.iter().copied());
    let c = covariance(points, |_| m, noise);
    let mut v = [1.0f32, 1.0, 1.0];
    for _ in 0..30 {
        let w = [dot(c[0], v), dot(c[1], v), dot(c[2], v)];
        let norm = dot(w, w).sqrt().max(1e-9);
        v = w.map(|x| x / norm);
    }
    v
}

/// The cut of the points' projections on `direction` into a low and a high part that leaves
/// the least spread within the parts (Otsu's criterion); `true` marks the high part.
pub(super) fn best_cut(points: &[[f32; 3]], direction: [f32; 3]) -> Vec<bool> {
    let along: Vec<f32> = points.iter().map(|&p| dot(p, direction)).collect();
    let mut order: Vec<usize> = (0..along.len()).collect();
    order.sort_by(|&a, &b| along[a].total_cmp(&along[b]));
    let total: f32 = along.iter().sum();
    let n = along.len() as f32;
    let (mut best, mut cut, mut low_sum) = (f32::MIN, 1, 0.0f32);
    for (k, &i) in order.iter().enumerate().take(order.len() - 1) {
        low_sum += along[i];
        let (nl, nh) = ((k + 1) as f32, n - (k + 1) as f32);
        let (ml, mh) = (low_sum / nl, (total - low_sum) / nh);
        // Between-part spread: maximal where the within-part spread is least.
        let between = nl * nh * (ml - mh).powi(2);
        if between > best {
            (best, cut) = (between, k + 1);
        }
    }
    let mut part = vec![false; along.len()];
    order[cut..].iter().for_each(|&i| part[i] = true);
    part
}

/// Solves `m x = b` for a symmetric positive definite 3x3 `m` (Cramer's rule).
pub(super) fn solve3(m: [[f32; 3]; 3], b: [f32; 3]) -> Option<[f32; 3]> {
    let det3 = |m: [[f32; 3]; 3]| {
        m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
            - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
    };
    let det = det3(m);
    if det.abs() < 1e-12 {
        return None;
    }
    Some(std::array::from_fn(|k| {
        let mut mk = m;
        (0..3).for_each(|i| mk[i][k] = b[i]);
        det3(mk) / det
    }))
}
