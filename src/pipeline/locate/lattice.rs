//! Grids drawn too faintly for their lines or fills to be found: the digits themselves sit on
//! the grid's 9x9 lattice. A puzzle's givens share one size, so glyph-sized shapes of one
//! height whose centres fall on evenly spaced rows and columns, one per cell, place the grid:
//! its tilt and pitch from how the centres line up (then a map refitted to the glyphs found,
//! for a grid in perspective), where it starts from the rows and columns
//! the digits reach (and, when an outer row or column holds no digit, from whatever the
//! faint lines still show).

use image::GrayImage;

use super::components::{pieces, Piece};
use super::grid::LineSampler;
use super::homography::{apply, invert, solve_affine, solve_homography, Pair};
use crate::pipeline::gray::median_f32;
use crate::pipeline::quad::Quad;
use crate::puzzle::board::MIN_GIVENS as MIN_DIGITS;

/// The shortest glyph looked at, in working pixels.
const MIN_HEIGHT: u32 = 5;
/// Glyphs of one class are at most this many times taller than the shortest of them (a `7`
/// and a `4` of one font differ by a pixel or two, a pencil mark by half).
const SIZE_SPREAD: f32 = 1.3;
/// The steepest tilt tried, in degrees, and the step between tilts.
const MAX_TILT: f32 = 5.0;
const TILT_STEP: f32 = 0.25;
/// Two centres are on one row (or column) when they differ across it by less than this
/// fraction of the glyphs' height.
const SAME_LINE: f32 = 0.12;
/// A centre is on the lattice when it is within this fraction of a pitch of a lattice point.
const ON_LATTICE: f32 = 0.15;
/// Digits fill from this to this fraction of a cell's height.
const DIGIT_TO_CELL: (f32, f32) = (0.15, 0.85);
/// Rows and columns the digits must reach: a real puzzle has givens in (nearly) all nine,
/// while a window shifted onto a keypad below the grid leaves two rows between them empty.
const MIN_SPAN: usize = 8;
/// Cells holding two glyphs of one class (text, or a number of two digits) tolerated.
const MAX_CROWDED: usize = 2;
/// How many size classes are tried, tallest first.
const MAX_CLASSES: usize = 12;

/// The grid whose cells the digit-like shapes of one of `inks` sit in, placed by
/// the lines of `edges` where the digits leave that open; `None` when no set of glyphs lies
/// on a 9x9 lattice.
pub(super) fn locate_by_digits(edges: &GrayImage, inks: &[&GrayImage]) -> Option<Quad> {
    inks.iter().find_map(|ink| {
        let glyphs = digit_like(ink);
        size_classes(&glyphs)
            .into_iter()
            .find_map(|class| Lattice::fit(&class)?.place(edges))
    })
}

/// A glyph's centre and height, in working pixels.
#[derive(Clone, Copy, Debug)]
struct Centre {
    x: f32,
    y: f32,
    height: f32,
}

/// The shapes of `ink` sized and proportioned like a digit: taller than wide, at most a
/// ninth of the picture.
fn digit_like(ink: &GrayImage) -> Vec<Centre> {
    let max_side = ink.width().min(ink.height()) / 9;
    pieces(ink, max_side)
        .into_iter()
        .filter(|p: &Piece| {
            let (w, h) = (p.x1 - p.x0 + 1, p.y1 - p.y0 + 1);
            h >= MIN_HEIGHT && w * 10 <= h * 11 && p.pixels * 10 < w * h * 9
        })
        .map(|p| Centre {
            x: (p.x0 + p.x1) as f32 / 2.0,
            y: (p.y0 + p.y1) as f32 / 2.0,
            height: (p.y1 - p.y0 + 1) as f32,
        })
        .collect()
}

/// Sets of glyphs of about one height (see `SIZE_SPREAD`), tallest first, each large enough
/// to be a puzzle's givens.
fn size_classes(glyphs: &[Centre]) -> Vec<Vec<Centre>> {
    let mut heights: Vec<f32> = glyphs.iter().map(|g| g.height).collect();
    heights.sort_by(|a, b| b.total_cmp(a));
    heights.dedup();
    let mut out: Vec<Vec<Centre>> = Vec::new();
    for top in heights {
        let class: Vec<Centre> = glyphs
            .iter()
            .filter(|g| g.height <= top && g.height * SIZE_SPREAD >= top)
            .copied()
            .collect();
        let same_as_last = out.last().is_some_and(|last| last.len() == class.len());
        if class.len() >= MIN_DIGITS && !same_as_last {
            out.push(class);
        }
        if out.len() == MAX_CLASSES {
            break;
        }
    }
    out
}

/// A least-squares fit of a map to pairs of lattice and image points.
type Solver = fn(&[Pair]) -> Option<[f64; 8]>;

/// Glyph centres placed on a lattice: cell `(col, row)` is centred where `map` takes
/// `(col / 9, row / 9)`. A square lattice, tilted, finds the cells of the glyphs near its
/// middle; a map refitted to them follows a grid in perspective, whose pitch shrinks towards
/// its far side, out to the glyphs a square lattice misses.
#[derive(Clone, Debug)]
struct Lattice {
    /// Lattice coordinates (cell centres at ninths) to working pixels.
    map: [f64; 8],
    /// The glyphs' cells, in lattice steps from the origin.
    cells: Vec<(i32, i32)>,
    /// The glyph in each of `cells` (its index among the glyphs fitted).
    sited: Vec<usize>,
}

impl Lattice {
    /// The lattice most of `glyphs` sit on, when at least `MIN_DIGITS` of them do.
    fn fit(glyphs: &[Centre]) -> Option<Lattice> {
        let height = median_f32(glyphs.iter().map(|g| g.height).collect());
        let angle = best_tilt(glyphs, height);
        let (cos, sin) = (angle.cos(), angle.sin());
        let tilted: Vec<(f32, f32)> = glyphs
            .iter()
            .map(|g| (g.x * cos + g.y * sin, -g.x * sin + g.y * cos))
            .collect();
        let pitch = best_pitch(&tilted, height)?;
        let origin = (
            phase(tilted.iter().map(|t| t.0), pitch),
            phase(tilted.iter().map(|t| t.1), pitch),
        );
        let mut lattice = Lattice::square(cos, sin, pitch, origin).sited(glyphs)?;
        // An affine map first (steadier while the cells found are few and central), kept
        // unless it holds fewer glyphs; then perspective, kept only while it holds more (on
        // a flat grid it would fit the glyphs' noise).
        let refits: [(Solver, usize); 3] = [
            (solve_affine, 0),
            (solve_homography, 1),
            (solve_homography, 1),
        ];
        for (solve, gain) in refits {
            let Some(refit) = lattice.refit(glyphs, solve) else {
                break;
            };
            if refit.cells.len() < lattice.cells.len() + gain {
                break;
            }
            lattice = refit;
        }
        (lattice.cells.len() >= MIN_DIGITS).then_some(lattice)
    }

    /// The square lattice of `pitch`, tilted by the angle of `cos` and `sin`, whose point
    /// (0, 0) is at `origin` in tilted coordinates; no glyphs sited yet.
    fn square(cos: f32, sin: f32, pitch: f32, origin: (f32, f32)) -> Lattice {
        let (cos, sin, side) = (f64::from(cos), f64::from(sin), 9.0 * f64::from(pitch));
        let (u, v) = (f64::from(origin.0), f64::from(origin.1));
        Lattice {
            map: [
                side * cos,
                -side * sin,
                u * cos - v * sin,
                side * sin,
                side * cos,
                u * sin + v * cos,
                0.0,
                0.0,
            ],
            cells: Vec::new(),
            sited: Vec::new(),
        }
    }

    /// This map with the cells of the glyphs within `ON_LATTICE` of one of its points;
    /// `None` when the map cannot be turned back.
    fn sited(self, glyphs: &[Centre]) -> Option<Lattice> {
        let back = invert(&self.map)?;
        let near = |v: f64| {
            let k = v.round();
            ((v - k).abs() <= f64::from(ON_LATTICE)).then_some(k as i32)
        };
        let (sited, cells) = (glyphs.iter().enumerate())
            .filter_map(|(i, g)| {
                let (c, r) = apply(&back, f64::from(g.x), f64::from(g.y));
                Some((i, (near(9.0 * c)?, near(9.0 * r)?)))
            })
            .unzip();
        Some(Lattice {
            cells,
            sited,
            ..self
        })
    }

    /// The lattice `solve` fits to the glyphs sited on this one, with its own glyphs sited.
    /// Its cells are counted from the middle of theirs, so perspective is fitted about the
    /// grid rather than about a point cells away.
    fn refit(&self, glyphs: &[Centre], solve: Solver) -> Option<Lattice> {
        let mut middle: Vec<(i32, i32)> = self.cells.clone();
        middle.sort_unstable_by_key(|c| c.0);
        let mid_c = middle.get(middle.len() / 2)?.0;
        middle.sort_unstable_by_key(|c| c.1);
        let mid_r = middle[middle.len() / 2].1;
        let pairs: Vec<Pair> = (self.cells.iter().zip(&self.sited))
            .map(|(&(c, r), &i)| {
                let cell = (f64::from(c - mid_c) / 9.0, f64::from(r - mid_r) / 9.0);
                (cell, (glyphs[i].x, glyphs[i].y))
            })
            .collect();
        let map = solve(&pairs)?;
        Lattice {
            map,
            cells: Vec::new(),
            sited: Vec::new(),
        }
        .sited(glyphs)
    }

    /// The grid: the 9x9 window of the lattice holding the most glyphs (among equals, the
    /// one whose outline the faint lines of `edges` show best), when its glyphs reach
    /// `MIN_SPAN` rows and columns and crowd few cells.
    fn place(&self, edges: &GrayImage) -> Option<Quad> {
        let (cols, rows) = (
            self.cells.iter().map(|c| c.0).collect::<Vec<_>>(),
            self.cells.iter().map(|c| c.1).collect::<Vec<_>>(),
        );
        let (min_c, max_c) = (*cols.iter().min()?, *cols.iter().max()?);
        let (min_r, max_r) = (*rows.iter().min()?, *rows.iter().max()?);
        let mut best: Option<(usize, f32, Quad)> = None;
        for c0 in min_c.min(max_c - 8)..=min_c.max(max_c - 8) {
            for r0 in min_r.min(max_r - 8)..=min_r.max(max_r - 8) {
                let inside: Vec<(i32, i32)> = (self.cells.iter())
                    .filter(|&&(c, r)| (c0..c0 + 9).contains(&c) && (r0..r0 + 9).contains(&r))
                    .copied()
                    .collect();
                if !self.looks_like_givens(&inside) {
                    continue;
                }
                let quad = self.window(c0, r0);
                let lines = line_evidence(edges, &quad);
                let better = best.as_ref().is_none_or(|(n, score, _)| {
                    inside.len() > *n || (inside.len() == *n && lines > *score)
                });
                if better {
                    best = Some((inside.len(), lines, quad));
                }
            }
        }
        best.map(|(.., quad)| quad)
    }

    /// Whether the glyphs in one window are a puzzle's givens: enough of them, reaching
    /// enough rows and columns, at most one per cell but for a few.
    fn looks_like_givens(&self, inside: &[(i32, i32)]) -> bool {
        let mut sorted = inside.to_vec();
        sorted.sort_unstable();
        let crowded = sorted.windows(2).filter(|w| w[0] == w[1]).count();
        sorted.dedup();
        let reached = |axis: fn(&(i32, i32)) -> i32| {
            let mut v: Vec<i32> = sorted.iter().map(axis).collect();
            v.sort_unstable();
            v.dedup();
            v.len()
        };
        sorted.len() >= MIN_DIGITS
            && crowded <= MAX_CROWDED
            && reached(|c| c.0) >= MIN_SPAN
            && reached(|c| c.1) >= MIN_SPAN
    }

    /// The outline of the 9x9 cells from lattice cell (`c0`, `r0`), in working pixels,
    /// clockwise from top-left.
    fn window(&self, c0: i32, r0: i32) -> Quad {
        let corner = |c: i32, r: i32| {
            let (x, y) = apply(
                &self.map,
                (f64::from(c) - 0.5) / 9.0,
                (f64::from(r) - 0.5) / 9.0,
            );
            (x as f32, y as f32)
        };
        Quad {
            corners: [
                corner(c0, r0),
                corner(c0 + 9, r0),
                corner(c0 + 9, r0 + 9),
                corner(c0, r0 + 9),
            ],
        }
    }
}

/// The tilt (radians) that lines the centres up best: the most pairs on one row or one
/// column.
fn best_tilt(glyphs: &[Centre], height: f32) -> f32 {
    let steps = (MAX_TILT / TILT_STEP).round() as i32;
    let aligned = |angle: f32| {
        let (cos, sin) = (angle.cos(), angle.sin());
        let tilted: Vec<(f32, f32)> = glyphs
            .iter()
            .map(|g| (g.x * cos + g.y * sin, -g.x * sin + g.y * cos))
            .collect();
        let near = SAME_LINE * height;
        let mut pairs = 0usize;
        for (i, a) in tilted.iter().enumerate() {
            for b in &tilted[i + 1..] {
                pairs +=
                    usize::from((a.0 - b.0).abs() < near) + usize::from((a.1 - b.1).abs() < near);
            }
        }
        pairs
    };
    (-steps..=steps)
        .map(|k| (k as f32 * TILT_STEP).to_radians())
        .max_by_key(|&a| (aligned(a), std::cmp::Reverse((a.abs() * 1e4) as i32)))
        .unwrap_or(0.0)
}

/// The cell pitch: the largest spacing that explains (nearly) as many distances between
/// glyphs on one row or column as any spacing does; a half pitch explains them too.
fn best_pitch(tilted: &[(f32, f32)], height: f32) -> Option<f32> {
    let near = SAME_LINE * height;
    // Distances along rows and along columns between glyphs on one row or column.
    let mut gaps = Vec::new();
    for (i, a) in tilted.iter().enumerate() {
        for b in &tilted[i + 1..] {
            if (a.1 - b.1).abs() < near {
                gaps.push((a.0 - b.0).abs());
            }
            if (a.0 - b.0).abs() < near {
                gaps.push((a.1 - b.1).abs());
            }
        }
    }
    let (lo, hi) = (height / DIGIT_TO_CELL.1, height / DIGIT_TO_CELL.0);
    let explained = |pitch: f32| {
        (gaps.iter())
            .filter(|&&g| {
                let k = (g / pitch).round();
                (1.0..=8.0).contains(&k) && (g - k * pitch).abs() <= ON_LATTICE * pitch
            })
            .count()
    };
    let mut candidates: Vec<f32> = (gaps.iter())
        .flat_map(|&g| (1..=8).map(move |k| g / k as f32))
        .filter(|p| (lo..=hi).contains(p))
        .collect();
    candidates.sort_by(|a, b| b.total_cmp(a));
    candidates.dedup_by(|a, b| (*a - *b).abs() < 0.25);
    let scored: Vec<(f32, usize)> = candidates.iter().map(|&p| (p, explained(p))).collect();
    let most = scored.iter().map(|s| s.1).max()?;
    if most < MIN_DIGITS {
        return None;
    }
    // Largest first: the first to explain nearly all that any pitch explains.
    scored
        .iter()
        .find(|s| s.1 * 10 >= most * 9)
        .map(|s| refine_pitch(&gaps, s.0))
}

/// The pitch refitted to the distances it explains (least squares through zero).
fn refine_pitch(gaps: &[f32], pitch: f32) -> f32 {
    let (mut num, mut den) = (0.0f32, 0.0f32);
    for &g in gaps {
        let k = (g / pitch).round();
        if (1.0..=8.0).contains(&k) && (g - k * pitch).abs() <= ON_LATTICE * pitch {
            num += g * k;
            den += k * k;
        }
    }
    if den > 0.0 {
        num / den
    } else {
        pitch
    }
}

/// Where the lattice's points fall along one axis: the circular mean of the positions modulo
/// the pitch, around the most common position.
fn phase(values: impl Iterator<Item = f32>, pitch: f32) -> f32 {
    let (mut s, mut c) = (0.0f32, 0.0f32);
    let values: Vec<f32> = values.collect();
    for &v in &values {
        let a = v / pitch * std::f32::consts::TAU;
        s += a.sin();
        c += a.cos();
    }
    let first = s.atan2(c) / std::f32::consts::TAU * pitch;
    // Again with only the values near that phase, so stray glyphs pull it less.
    let (mut s2, mut c2) = (0.0f32, 0.0f32);
    for &v in &values {
        let off = (v - first) / pitch;
        if (off - off.round()).abs() <= ON_LATTICE {
            let a = v / pitch * std::f32::consts::TAU;
            s2 += a.sin();
            c2 += a.cos();
        }
    }
    if s2 == 0.0 && c2 == 0.0 {
        first
    } else {
        s2.atan2(c2) / std::f32::consts::TAU * pitch
    }
}

/// How much of the 20 lines of `quad` the long edges show.
fn line_evidence(edges: &GrayImage, quad: &Quad) -> f32 {
    let sampler = LineSampler::new(edges, quad);
    (0..10)
        .flat_map(|k| [(k, true), (k, false)])
        .map(|(k, horizontal)| sampler.fill(k, horizontal))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Centres of digits in the cells `cells` of a grid at (`x0`, `y0`) with `pitch`, tilted
    /// by `degrees`, `height` tall.
    fn givens(cells: &[(i32, i32)], x0: f32, y0: f32, pitch: f32, degrees: f32) -> Vec<Centre> {
        let (s, c) = degrees.to_radians().sin_cos();
        cells
            .iter()
            .map(|&(col, row)| {
                let (u, v) = ((col as f32 + 0.5) * pitch, (row as f32 + 0.5) * pitch);
                Centre {
                    x: x0 + u * c - v * s,
                    y: y0 + u * s + v * c,
                    height: pitch * 0.5,
                }
            })
            .collect()
    }

    /// 25 cells of a puzzle, reaching all nine rows and columns.
    const CELLS: [(i32, i32); 25] = [
        (0, 0),
        (3, 0),
        (7, 0),
        (1, 1),
        (5, 1),
        (2, 2),
        (8, 2),
        (0, 3),
        (4, 3),
        (6, 3),
        (2, 4),
        (5, 4),
        (8, 4),
        (1, 5),
        (3, 5),
        (7, 5),
        (0, 6),
        (4, 6),
        (6, 7),
        (8, 7),
        (2, 8),
        (5, 8),
        (3, 2),
        (7, 6),
        (1, 8),
    ];

    #[test]
    fn digits_on_a_lattice_place_the_grid() {
        let glyphs = givens(&CELLS, 40.0, 60.0, 20.0, 0.0);
        let lattice = Lattice::fit(&glyphs).expect("a lattice");
        let blank = GrayImage::new(300, 300);
        let quad = lattice.place(&blank).expect("a grid");
        let [tl, _, br, _] = quad.corners;
        assert!(
            (tl.0 - 40.0).abs() < 1.0 && (tl.1 - 60.0).abs() < 1.0,
            "{tl:?}"
        );
        assert!(
            (br.0 - 220.0).abs() < 1.0 && (br.1 - 240.0).abs() < 1.0,
            "{br:?}"
        );
    }

    #[test]
    fn a_tilted_lattice_is_found() {
        let glyphs = givens(&CELLS, 80.0, 40.0, 24.0, 3.0);
        let lattice = Lattice::fit(&glyphs).expect("a lattice");
        let quad = lattice.place(&GrayImage::new(400, 400)).expect("a grid");
        let [tl, tr, ..] = quad.corners;
        assert!(
            (tl.0 - 80.0).abs() < 1.5 && (tl.1 - 40.0).abs() < 1.5,
            "{tl:?}"
        );
        let angle = (tr.1 - tl.1).atan2(tr.0 - tl.0).to_degrees();
        assert!((angle - 3.0).abs() < 0.3, "{angle}");
    }

    #[test]
    fn a_lattice_in_perspective_is_followed_to_its_far_side() {
        // A grid 300 px wide at the top and 264 at the bottom (a phone held tilted back).
        let corners = [(50.0, 40.0), (350.0, 40.0), (332.0, 300.0), (68.0, 300.0)];
        let map = crate::pipeline::quad::square_to_quad(&corners, 1.0);
        let glyphs: Vec<Centre> = CELLS
            .iter()
            .map(|&(col, row)| {
                let (u, v) = ((f64::from(col) + 0.5) / 9.0, (f64::from(row) + 0.5) / 9.0);
                let (x, y) = apply(&map, u, v);
                Centre {
                    x: x as f32,
                    y: y as f32,
                    height: 14.0,
                }
            })
            .collect();
        let lattice = Lattice::fit(&glyphs).expect("a lattice");
        assert_eq!(lattice.cells.len(), CELLS.len());
        let quad = lattice.place(&GrayImage::new(400, 400)).expect("a grid");
        for (found, truth) in quad.corners.iter().zip(&corners) {
            let off = (found.0 - truth.0).hypot(found.1 - truth.1);
            assert!(off < 3.0, "{:?} vs {corners:?}", quad.corners);
        }
    }

    #[test]
    fn too_few_digits_or_rows_are_no_grid() {
        let few = givens(&CELLS[..12], 40.0, 60.0, 20.0, 0.0);
        assert!(Lattice::fit(&few).is_none());
        // Two lines of text: many glyphs, evenly spaced, but only two rows.
        let text: Vec<(i32, i32)> = (0..9).flat_map(|c| [(c, 0), (c, 1)]).collect();
        let glyphs = givens(&text, 40.0, 60.0, 20.0, 0.0);
        let placed = Lattice::fit(&glyphs).and_then(|l| l.place(&GrayImage::new(300, 300)));
        assert!(placed.is_none());
    }
}
