//! The grid's quadrilateral and its projection, shared by the stages that find the grid
//! ([`locate`](super::locate)) and straighten it ([`rectify`](super::rectify)).

/// The grid's corners in the original image, clockwise from top-left.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Quad {
    /// Top-left, top-right, bottom-right, bottom-left as (x, y).
    pub corners: [(f32, f32); 4],
}

impl Quad {
    /// The mean length of the four sides, in pixels.
    pub fn mean_side(&self) -> f32 {
        let c = &self.corners;
        (0..4)
            .map(|i| {
                let (a, b) = (c[i], c[(i + 1) % 4]);
                ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt()
            })
            .sum::<f32>()
            / 4.0
    }

    /// The mean of the four corners.
    pub fn centre(&self) -> (f32, f32) {
        let c = &self.corners;
        let mean = |f: fn(&(f32, f32)) -> f32| c.iter().map(f).sum::<f32>() / 4.0;
        (mean(|p| p.0), mean(|p| p.1))
    }

    /// The quadrilateral scaled by `factor` about its [centre](Quad::centre).
    pub fn scaled(&self, factor: f32) -> Quad {
        let (cx, cy) = self.centre();
        Quad {
            corners: (self.corners).map(|(x, y)| (cx + (x - cx) * factor, cy + (y - cy) * factor)),
        }
    }

    /// Whether `point` lies inside (a convex quadrilateral, its corners in order): on the same
    /// side of every edge.
    pub fn contains(&self, (x, y): (f32, f32)) -> bool {
        let c = &self.corners;
        let sides: Vec<f32> = (0..4)
            .map(|i| {
                let ((ax, ay), (bx, by)) = (c[i], c[(i + 1) % 4]);
                (bx - ax) * (y - ay) - (by - ay) * (x - ax)
            })
            .collect();
        sides.iter().all(|&s| s >= 0.0) || sides.iter().all(|&s| s <= 0.0)
    }

    /// The same quadrilateral with its corners named as they stand once the grid's content is
    /// turned upright by `turn`: a grid photographed with the phone on its side has its first
    /// row along the picture's left or right edge.
    pub fn turned(&self, turn: Turn) -> Quad {
        let c = &self.corners;
        // The upright top-left corner is the picture's corner this many steps clockwise on.
        let shift = match turn {
            Turn::None => 0,
            Turn::Quarter => 3,
            Turn::Half => 2,
            Turn::ThreeQuarters => 1,
        };
        Quad {
            corners: std::array::from_fn(|i| c[(i + shift) % 4]),
        }
    }
}

/// How far the grid's content is turned clockwise to stand upright.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turn {
    /// Upright as it is.
    None,
    /// A quarter turn clockwise (the digits' tops point left in the picture).
    Quarter,
    /// Upside down.
    Half,
    /// Three quarters clockwise, a quarter anticlockwise (the digits' tops point right).
    ThreeQuarters,
}

impl Turn {
    /// All four, no turn first.
    pub const ALL: [Turn; 4] = [Turn::None, Turn::Quarter, Turn::Half, Turn::ThreeQuarters];
}

/// The homography (row-major, `h[8] = 1`) taking the square `[0, side]^2` to the quadrilateral
/// `corners` (clockwise from top-left), by the classic closed form for a unit square.
pub fn square_to_quad(corners: &[(f32, f32); 4], side: f64) -> [f64; 8] {
    let [(x0, y0), (x1, y1), (x2, y2), (x3, y3)] =
        corners.map(|(x, y)| (f64::from(x), f64::from(y)));
    let (dx1, dx2, dx3) = (x1 - x2, x3 - x2, x0 - x1 + x2 - x3);
    let (dy1, dy2, dy3) = (y1 - y2, y3 - y2, y0 - y1 + y2 - y3);
    let det = dx1 * dy2 - dx2 * dy1;
    let (g, hh) = if det.abs() < 1e-12 {
        (0.0, 0.0)
    } else {
        ((dx3 * dy2 - dx2 * dy3) / det, (dx1 * dy3 - dx3 * dy1) / det)
    };
    let (a, b, c) = (x1 - x0 + g * x1, x3 - x0 + hh * x3, x0);
    let (d, e, f) = (y1 - y0 + g * y1, y3 - y0 + hh * y3, y0);
    // Scale the input from [0, side] to [0, 1].
    [
        a / side,
        b / side,
        c,
        d / side,
        e / side,
        f,
        g / side,
        hh / side,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quad_contains_its_centre_and_not_what_lies_beyond_a_border() {
        let quad = Quad {
            corners: [(10.0, 10.0), (100.0, 12.0), (98.0, 100.0), (8.0, 98.0)],
        };
        assert!(quad.contains(quad.centre()));
        assert!(!quad.contains((105.0, 50.0)));
        assert!(!quad.contains((50.0, 5.0)));
        assert!(quad.scaled(1.2).contains((105.0, 50.0)));
    }

    #[test]
    fn a_turned_quad_names_the_upright_top_left_corner_first() {
        // Corners named by where they stand in the picture: top-left, top-right, ...
        let quad = Quad {
            corners: [(0.0, 0.0), (9.0, 0.0), (9.0, 9.0), (0.0, 9.0)],
        };
        // Tops pointing right (the content needs a quarter turn anticlockwise): the upright
        // first row runs down the picture's right edge, from its top-right corner.
        assert_eq!(
            quad.turned(Turn::ThreeQuarters).corners,
            [(9.0, 0.0), (9.0, 9.0), (0.0, 9.0), (0.0, 0.0)]
        );
        // Tops pointing left: the first row runs up the left edge, from the bottom-left.
        assert_eq!(
            quad.turned(Turn::Quarter).corners,
            [(0.0, 9.0), (0.0, 0.0), (9.0, 0.0), (9.0, 9.0)]
        );
        assert_eq!(
            quad.turned(Turn::Half).corners,
            [(9.0, 9.0), (0.0, 9.0), (0.0, 0.0), (9.0, 0.0)]
        );
        assert_eq!(quad.turned(Turn::None), quad);
    }
}
