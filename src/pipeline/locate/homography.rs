//! Least-squares homographies: the unit square -> image map that best takes given points
//! of the square to given image points.

/// A point of the unit square and the image point it should map to.
pub(super) type Pair = ((f64, f64), (f32, f32));

/// Least-squares homography from pairs of unit-square points and image points, with the
/// image points centred and scaled for a well-conditioned system.
pub(super) fn solve_homography(pairs: &[Pair]) -> Option<[f64; 8]> {
    if pairs.len() < 4 {
        return None;
    }
    let n = pairs.len() as f64;
    let (cx, cy) = pairs.iter().fold((0.0, 0.0), |(x, y), (_, p)| {
        (x + f64::from(p.0) / n, y + f64::from(p.1) / n)
    });
    let scale = pairs
        .iter()
        .map(|(_, p)| (f64::from(p.0) - cx).abs().max((f64::from(p.1) - cy).abs()))
        .fold(1e-9, f64::max);
    // Normal equations of x (h6 u + h7 v + 1) = h0 u + h1 v + h2, likewise y.
    let mut a = [[0.0f64; 9]; 8];
    for &((u, v), p) in pairs {
        let (x, y) = ((f64::from(p.0) - cx) / scale, (f64::from(p.1) - cy) / scale);
        let rows = [
            [u, v, 1.0, 0.0, 0.0, 0.0, -u * x, -v * x, x],
            [0.0, 0.0, 0.0, u, v, 1.0, -u * y, -v * y, y],
        ];
        for r in &rows {
            for i in 0..8 {
                for j in 0..9 {
                    a[i][j] += r[i] * r[j];
                }
            }
        }
    }
    let g = gauss(a)?;
    // Undo the normalisation: x_image = scale x + cx.
    let mut h = [0.0; 8];
    for k in 0..3 {
        h[k] = scale * g[k] + cx * if k < 2 { g[6 + k] } else { 1.0 };
        h[3 + k] = scale * g[3 + k] + cy * if k < 2 { g[6 + k] } else { 1.0 };
    }
    h[6] = g[6];
    h[7] = g[7];
    Some(h)
}

/// Solves the 8x8 system `a` (augmented with its right-hand side) by Gaussian elimination
/// with partial pivoting.
fn gauss(mut a: [[f64; 9]; 8]) -> Option<[f64; 8]> {
    for col in 0..8 {
        let pivot = (col..8).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if a[pivot][col].abs() < 1e-12 {
            return None;
        }
        a.swap(col, pivot);
        for row in 0..8 {
            if row != col {
                let pivot_row = a[col];
                let f = a[row][col] / pivot_row[col];
                for (v, p) in a[row][col..].iter_mut().zip(&pivot_row[col..]) {
                    *v -= f * p;
                }
            }
        }
    }
    Some(std::array::from_fn(|i| a[i][8] / a[i][i]))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Exact crossings of a projected grid give back its homography.
    #[test]
    fn recovers_a_homography_from_its_points() {
        let truth = crate::pipeline::quad::square_to_quad(
            &[(10.0, 12.0), (400.0, 20.0), (390.0, 410.0), (5.0, 400.0)],
            1.0,
        );
        let map = |u: f64, v: f64| {
            let z = truth[6] * u + truth[7] * v + 1.0;
            (
                ((truth[0] * u + truth[1] * v + truth[2]) / z) as f32,
                ((truth[3] * u + truth[4] * v + truth[5]) / z) as f32,
            )
        };
        let pairs: Vec<Pair> = (0..100)
            .map(|k| {
                let (u, v) = ((k % 10) as f64 / 9.0, (k / 10) as f64 / 9.0);
                ((u, v), map(u, v))
            })
            .collect();
        let h = solve_homography(&pairs).expect("fit");
        for (a, b) in h.iter().zip(&truth) {
            assert!(
                (a - b).abs() < 1e-3 * b.abs().max(1.0),
                "{h:?} vs {truth:?}"
            );
        }
    }
}
