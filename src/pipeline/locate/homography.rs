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

/// Least-squares affine map (a homography without perspective) from pairs: where the points
/// cover a small part of the square, perspective fitted to them would be noise.
pub(super) fn solve_affine(pairs: &[Pair]) -> Option<[f64; 8]> {
    if pairs.len() < 3 {
        return None;
    }
    // Normal equations of x = a u + b v + c (and likewise y): one 3x3 matrix for both.
    let (mut m, mut bx, mut by) = ([[0.0f64; 3]; 3], [0.0f64; 3], [0.0f64; 3]);
    for &((u, v), p) in pairs {
        let row = [u, v, 1.0];
        for i in 0..3 {
            for j in 0..3 {
                m[i][j] += row[i] * row[j];
            }
            bx[i] += row[i] * f64::from(p.0);
            by[i] += row[i] * f64::from(p.1);
        }
    }
    let det = det3(&m);
    if det.abs() < 1e-12 {
        return None;
    }
    // Cramer's rule: each unknown is the determinant with its column replaced, over det.
    let solve = |b: &[f64; 3]| -> [f64; 3] {
        std::array::from_fn(|k| {
            let mut mk = m;
            for (row, &bi) in mk.iter_mut().zip(b) {
                row[k] = bi;
            }
            det3(&mk) / det
        })
    };
    let ([a, b, c], [d, e, f]) = (solve(&bx), solve(&by));
    Some([a, b, c, d, e, f, 0.0, 0.0])
}

fn det3(m: &[[f64; 3]; 3]) -> f64 {
    m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
        - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
        + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
}

/// Where the homography `h` takes the point (`u`, `v`).
pub(super) fn apply(h: &[f64; 8], u: f64, v: f64) -> (f64, f64) {
    let z = h[6] * u + h[7] * v + 1.0;
    (
        (h[0] * u + h[1] * v + h[2]) / z,
        (h[3] * u + h[4] * v + h[5]) / z,
    )
}

/// The homography taking back what `h` takes forth; `None` when `h` flattens the plane.
pub(super) fn invert(h: &[f64; 8]) -> Option<[f64; 8]> {
    let m = [[h[0], h[1], h[2]], [h[3], h[4], h[5]], [h[6], h[7], 1.0]];
    let det = det3(&m);
    if det.abs() < 1e-12 {
        return None;
    }
    // The adjugate, scaled so its last entry is 1.
    let cofactor = |i: usize, j: usize| {
        let (r0, r1) = ((i + 1) % 3, (i + 2) % 3);
        let (c0, c1) = ((j + 1) % 3, (j + 2) % 3);
        m[r0][c0] * m[r1][c1] - m[r0][c1] * m[r1][c0]
    };
    let inv: [[f64; 3]; 3] = std::array::from_fn(|i| std::array::from_fn(|j| cofactor(j, i)));
    let last = inv[2][2];
    if last.abs() < 1e-12 {
        return None;
    }
    Some(std::array::from_fn(|k| inv[k / 3][k % 3] / last))
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
        // Its inverse takes the points back.
        let back = invert(&h).expect("invertible");
        for &((u, v), (x, y)) in &pairs {
            let (bu, bv) = apply(&back, f64::from(x), f64::from(y));
            assert!((bu - u).abs() < 1e-4 && (bv - v).abs() < 1e-4, "{u},{v}");
        }
    }

    #[test]
    fn recovers_an_affine_map_from_its_points() {
        let truth = [3.0, -0.5, 10.0, 0.25, 2.0, -4.0, 0.0, 0.0];
        let pairs: Vec<Pair> = [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (0.5, 0.7), (0.9, 0.2)]
            .iter()
            .map(|&(u, v)| {
                let (x, y) = apply(&truth, u, v);
                ((u, v), (x as f32, y as f32))
            })
            .collect();
        let h = solve_affine(&pairs).expect("fit");
        for (a, b) in h.iter().zip(&truth) {
            assert!((a - b).abs() < 1e-4, "{h:?} vs {truth:?}");
        }
    }
}
