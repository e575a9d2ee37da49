//! Locate: find the 9x9 grid anywhere in a screenshot and return its four corners.
//!
//! The picture is reduced to a working size, turned into an "ink" map by an adaptive
//! threshold (so light and dark themes, highlights and uneven light all work), and split into
//! connected components. The grid's lines form one large component; each large component is
//! a candidate, its corners are its extreme points along the two diagonals, and a candidate is
//! accepted only when, straightened, it shows the lines of a sudoku: ten evenly spaced lines
//! each way (or at least the four box borders each way). Keypads, text and status bars are
//! separate components and fail that test.

use image::{GrayImage, Luma, RgbImage};
use imageproc::geometric_transformations::Projection;
use imageproc::region_labelling::{connected_components, Connectivity};

/// The working image's longer side, in pixels: enough to see the lines of a grid that fills a
/// quarter of a phone screen, small enough to label components in a few milliseconds.
const WORK_SIZE: u32 = 1200;
/// A pixel counts as ink when it is this many grey levels darker than its neighbourhood
/// (JPEG noise and paper texture stay below ~10 levels).
const INK_CONTRAST: i32 = 8;
/// The neighbourhood for the adaptive threshold, as a fraction of the working image's
/// longer side: wider than a grid line, narrower than a cell of a small grid.
const NEIGHBOURHOOD: f32 = 1.0 / 80.0;
/// Smallest grid side on the working image, in pixels (5 px a cell).
const MIN_GRID_SIDE: u32 = 45;
/// How many of the largest components are tried as the grid.
const CANDIDATES: usize = 8;

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
}

/// What locating found, with the intermediate pictures for `--debug`.
pub struct Located {
    /// The grid's corners in the original image.
    pub quad: Quad,
    /// Whether the picture is a dark theme (light ink on a dark background).
    pub dark: bool,
    /// The ink map on the working image (white = ink).
    pub ink: GrayImage,
    /// The working image's scale: original pixels per working pixel.
    pub scale: f32,
}

/// Why no grid was accepted.
#[derive(Clone, Debug)]
pub struct NotFound {
    /// A sentence for the user.
    pub reason: String,
    /// The ink map, for `--debug`.
    pub ink: GrayImage,
}

/// Finds the sudoku grid in `image`.
pub fn locate(image: &RgbImage) -> Result<Located, NotFound> {
    let (work, scale) = working_gray(image);
    let dark = is_dark(&work);
    let ink = ink_map(&work, dark, NEIGHBOURHOOD);
    let components = components(&ink);
    let mut best_reason = String::from("no large connected shape in the picture");
    let mut best: Option<(f32, Quad)> = None;
    for c in components.iter().take(CANDIDATES) {
        let quad = c.quad();
        match grid_test(&ink, &quad) {
            // A grid on a card inside a frame passes as well as its frame: keep the candidate
            // whose lines sit best where a sudoku's lines should be.
            Ok(score) if best.is_none_or(|(s, _)| score > s) => best = Some((score, quad)),
            Ok(_) => {}
            Err(reason) if c.area() >= components[0].area() / 2 => best_reason = reason,
            Err(_) => {}
        }
    }
    match best {
        Some((_, quad)) => {
            let corners = quad
                .corners
                .map(|(x, y)| ((x + 0.5) * scale, (y + 0.5) * scale));
            Ok(Located {
                quad: Quad { corners },
                dark,
                ink,
                scale,
            })
        }
        None => Err(NotFound {
            reason: best_reason,
            ink,
        }),
    }
}

/// Greyscale at working size: each working pixel averages a `k x k` block of the original.
fn working_gray(image: &RgbImage) -> (GrayImage, f32) {
    let (w, h) = image.dimensions();
    let k = w.max(h).div_ceil(WORK_SIZE).max(1);
    let (ww, wh) = (w / k, h / k);
    let mut out = GrayImage::new(ww.max(1), wh.max(1));
    let raw = image.as_raw();
    let mut row_sum = vec![0u32; ww as usize];
    for oy in 0..wh {
        row_sum.iter_mut().for_each(|s| *s = 0);
        for y in oy * k..(oy + 1) * k {
            let line = &raw[(y * w * 3) as usize..((y + 1) * w * 3) as usize];
            for (sum, block) in row_sum.iter_mut().zip(line.chunks_exact(k as usize * 3)) {
                for px in block.chunks_exact(3) {
                    *sum += luma_weighted(px);
                }
            }
        }
        for (ox, sum) in row_sum.iter().enumerate() {
            out.put_pixel(ox as u32, oy, Luma([(sum / (1000 * k * k)) as u8]));
        }
    }
    (out, k as f32)
}

/// Rec. 601 luma of an RGB pixel, 0-255.
pub fn luma(px: &[u8]) -> u32 {
    luma_weighted(px) / 1000
}

/// Rec. 601 luma times 1000, so sums of many pixels are divided once.
fn luma_weighted(px: &[u8]) -> u32 {
    u32::from(px[0]) * 299 + u32::from(px[1]) * 587 + u32::from(px[2]) * 114
}

/// A dark theme has a dark background: the median grey is below the middle.
pub fn is_dark(gray: &GrayImage) -> bool {
    let mut hist = [0u32; 256];
    gray.pixels().for_each(|p| hist[p[0] as usize] += 1);
    let half = gray.len() as u32 / 2;
    let mut seen = 0;
    let median = hist
        .iter()
        .position(|&n| {
            seen += n;
            seen > half
        })
        .unwrap_or(255);
    median < 110
}

/// White where a pixel stands out from its neighbourhood in the ink direction (darker on a
/// light theme, lighter on a dark one).
/// `radius` is the neighbourhood's half-width as a fraction of the image's longer side.
pub fn ink_map(gray: &GrayImage, dark: bool, radius: f32) -> GrayImage {
    let (w, h) = (gray.width() as usize, gray.height() as usize);
    let r = ((w.max(h) as f32 * radius) as usize).max(2);
    let table = integral(gray);
    let stride = w + 1;
    let src = gray.as_raw();
    let spans: Vec<(usize, usize)> = (0..w)
        .map(|x| (x.saturating_sub(r), (x + r + 1).min(w)))
        .collect();
    let mut out = vec![0u8; w * h];
    for y in 0..h {
        let (y0, y1) = (y.saturating_sub(r), (y + r + 1).min(h));
        let (top, bottom) = (
            &table[y0 * stride..(y0 + 1) * stride],
            &table[y1 * stride..(y1 + 1) * stride],
        );
        let rows = (y1 - y0) as i64;
        let line = &src[y * w..(y + 1) * w];
        for ((o, &v), &(x0, x1)) in out[y * w..(y + 1) * w].iter_mut().zip(line).zip(&spans) {
            let sum = i64::from(bottom[x1] + top[x0] - top[x1] - bottom[x0]);
            let area = rows * (x1 - x0) as i64;
            // Compared as totals over the neighbourhood: no division per pixel.
            let v = i64::from(v) * area;
            let stands_out = if dark { v - sum } else { sum - v };
            if stands_out > i64::from(INK_CONTRAST) * area {
                *o = 255;
            }
        }
    }
    GrayImage::from_raw(w as u32, h as u32, out).expect("buffer sized for the image")
}

/// Summed-area table with a zero first row and column. u32 is enough: 255 x 1200 x 1200 fits.
fn integral(gray: &GrayImage) -> Vec<u32> {
    let (w, h) = (gray.width() as usize, gray.height() as usize);
    let mut table = vec![0u32; (w + 1) * (h + 1)];
    for (y, line) in gray.as_raw().chunks_exact(w).enumerate().take(h) {
        let (above, below) = table.split_at_mut((y + 1) * (w + 1));
        let above = &above[y * (w + 1)..];
        let mut row = 0u32;
        for x in 0..w {
            row += u32::from(line[x]);
            below[x + 1] = above[x + 1] + row;
        }
    }
    table
}

/// A connected component's size and its extreme points along both diagonals.
#[derive(Clone, Debug)]
struct Component {
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

    fn add(&mut self, x: u32, y: u32) {
        self.pixels += 1;
        self.min_x = self.min_x.min(x);
        self.max_x = self.max_x.max(x);
        self.min_y = self.min_y.min(y);
        self.max_y = self.max_y.max(y);
        let (s, d) = (x as i64 + y as i64, x as i64 - y as i64);
        if s < self.sum_min.0 {
            self.sum_min = (s, (x, y));
        }
        if s > self.sum_max.0 {
            self.sum_max = (s, (x, y));
        }
        if d < self.diff_min.0 {
            self.diff_min = (d, (x, y));
        }
        if d > self.diff_max.0 {
            self.diff_max = (d, (x, y));
        }
    }

    fn area(&self) -> u32 {
        (self.max_x - self.min_x + 1) * (self.max_y - self.min_y + 1)
    }

    fn quad(&self) -> Quad {
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
fn components(ink: &GrayImage) -> Vec<Component> {
    let labels = connected_components(ink, Connectivity::Eight, Luma([0u8]));
    let mut found: Vec<Option<Component>> = Vec::new();
    for (x, y, l) in labels.enumerate_pixels() {
        let l = l[0] as usize;
        if l == 0 {
            continue;
        }
        if found.len() <= l {
            found.resize(l + 1, None);
        }
        found[l]
            .get_or_insert_with(|| Component::new(x, y))
            .add(x, y);
    }
    let mut out: Vec<Component> = found
        .into_iter()
        .flatten()
        .filter(|c| {
            let (w, h) = (c.max_x - c.min_x + 1, c.max_y - c.min_y + 1);
            w >= MIN_GRID_SIDE && h >= MIN_GRID_SIDE && w <= 2 * h && h <= 2 * w
        })
        .collect();
    out.sort_by_key(|c| std::cmp::Reverse(c.area()));
    out
}

/// Accepts a quadrilateral when, straightened, its ink shows a sudoku's lines; the score is
/// the summed fill of the 20 lines.
fn grid_test(ink: &GrayImage, quad: &Quad) -> Result<f32, String> {
    let unit = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)];
    let to_image = Projection::from_control_points(unit, quad.corners)
        .ok_or_else(|| "the shape's corners do not form a quadrilateral".to_string())?;
    let rows = line_strengths(ink, &to_image, quad.mean_side(), true);
    let cols = line_strengths(ink, &to_image, quad.mean_side(), false);
    let strong = |s: &[f32]| s.iter().filter(|&&v| v >= LINE_FILL).count();
    let borders = |s: &[f32]| [0, 3, 6, 9].iter().all(|&i| s[i] >= LINE_FILL);
    let full = strong(&rows) >= 8 && strong(&cols) >= 8;
    if full || (borders(&rows) && borders(&cols)) {
        Ok(rows.iter().chain(&cols).sum())
    } else {
        Err(format!(
            "the largest shape has {} of 10 horizontal and {} of 10 vertical grid lines",
            strong(&rows),
            strong(&cols)
        ))
    }
}

/// A line must cover this fraction of the grid's width to count (dashed or anti-aliased lines
/// still do; a row of digits does not).
const LINE_FILL: f32 = 0.6;
/// Points sampled along each candidate line.
const SAMPLES: usize = 120;

/// For each of the 10 expected lines, the best fill fraction within a quarter cell of its
/// place. Lines are sampled in the ink map itself (through `to_image`, which maps the unit
/// square onto the grid), every pixel across the window, so a 1-pixel line is never stepped
/// over, whatever the grid's size.
fn line_strengths(
    ink: &GrayImage,
    to_image: &Projection,
    side: f32,
    horizontal: bool,
) -> [f32; 10] {
    let window = 1.0 / 36.0;
    let steps = ((side * window).ceil() as i32).max(1);
    let is_ink = |u: f32, v: f32| -> bool {
        let (x, y) = if horizontal {
            *to_image * (u, v)
        } else {
            *to_image * (v, u)
        };
        let (x, y) = (x.round(), y.round());
        x >= 0.0
            && y >= 0.0
            && (x as u32) < ink.width()
            && (y as u32) < ink.height()
            && ink.get_pixel(x as u32, y as u32)[0] > 0
    };
    let mut out = [0.0; 10];
    for (k, slot) in out.iter_mut().enumerate() {
        let centre = k as f32 / 9.0;
        for s in -steps..=steps {
            let v = centre + window * s as f32 / steps as f32;
            let hits = (0..SAMPLES)
                .filter(|&i| is_ink((i as f32 + 0.5) / SAMPLES as f32, v))
                .count();
            *slot = f32::max(*slot, hits as f32 / SAMPLES as f32);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A synthetic 9x9 grid: thin lines every `cell` px, thick every third, on white.
    fn grid_picture(cell: u32, margin: u32) -> RgbImage {
        let side = 9 * cell + 2 * margin;
        RgbImage::from_fn(side + 40, side, |x, y| {
            let on_line = |v: u32| -> bool {
                if v < margin || v > margin + 9 * cell + 2 {
                    return false;
                }
                let o = v - margin;
                let k = (o + 1) / cell;
                let thick = k % 3 == 0;
                o % cell <= if thick { 2 } else { 0 } || (o + 1) % cell == 0
            };
            let inside = |v: u32| v >= margin && v <= margin + 9 * cell + 2;
            if inside(x) && inside(y) && (on_line(x) || on_line(y)) {
                image::Rgb([30, 30, 30])
            } else {
                image::Rgb([250, 250, 250])
            }
        })
    }

    #[test]
    fn finds_a_plain_grid() {
        let img = grid_picture(40, 30);
        let found = locate(&img).expect("grid");
        let [tl, _, br, _] = found.quad.corners;
        assert!(
            (tl.0 - 30.0).abs() < 3.0 && (tl.1 - 30.0).abs() < 3.0,
            "{tl:?}"
        );
        assert!((br.0 - 392.0).abs() < 4.0, "{br:?}");
        assert!(!found.dark);
    }

    #[test]
    fn blank_picture_has_no_grid() {
        let img = RgbImage::from_pixel(300, 300, image::Rgb([255, 255, 255]));
        assert!(locate(&img).is_err());
    }

    #[test]
    fn a_plain_rectangle_is_not_a_grid() {
        let img = RgbImage::from_fn(300, 300, |x, y| {
            let edge = (40..=42).contains(&x)
                || (258..=260).contains(&x)
                || (40..=42).contains(&y)
                || (258..=260).contains(&y);
            let inside = (40..=260).contains(&x) && (40..=260).contains(&y);
            if edge && inside {
                image::Rgb([0, 0, 0])
            } else {
                image::Rgb([255, 255, 255])
            }
        });
        let err = locate(&img).err().expect("no grid");
        assert!(err.reason.contains("grid lines"), "{}", err.reason);
    }
}
