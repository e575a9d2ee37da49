//! Ink maps: pixels that stand out from their neighbourhood, by a fixed contrast (`ink_map`,
//! shared with the cell reader) or by a contrast judged from the picture's own noise around
//! each place (`local_ink_maps`, for locating faint grids).

use image::GrayImage;
use rayon::prelude::*;

use super::INK_CONTRAST;

/// White where a pixel stands out from its neighbourhood in the ink direction (darker on a
/// light theme, lighter on a dark one) by at least `INK_CONTRAST` grey levels.
/// `radius` is the neighbourhood's half-width as a fraction of the image's longer side.
pub fn ink_map(gray: &GrayImage, dark: bool, radius: f32) -> GrayImage {
    let fixed = |_: usize, out: &mut [f32]| out.fill(INK_CONTRAST as f32);
    let [darker, lighter] = threshold(gray, radius, fixed, [!dark, dark]);
    if dark {
        lighter
    } else {
        darker
    }
}

/// The ink maps of both polarities, darker ink first, where the contrast a pixel needs is
/// judged from the noise of the picture around it: three times the typical step between
/// neighbouring pixels (JPEG damage, photo grain, a noisy desktop), between `MIN_CONTRAST`
/// (a clean render, where faint lines of a few grey levels are all a grid may have) and
/// `INK_CONTRAST` (never stricter than the fixed map).
pub(super) fn local_ink_maps(gray: &GrayImage, radius: f32) -> [GrayImage; 2] {
    let noise = NoiseTiles::new(gray);
    threshold(gray, radius, |y, out| noise.row(y, out), [true, true])
}

/// The ink maps of both polarities, darker ink first, of pixels standing out from their
/// neighbourhood by at least `contrast` grey levels: text, without the faint lines a lower
/// contrast joins it to.
pub(super) fn strong_ink_maps(gray: &GrayImage, radius: f32, contrast: f32) -> [GrayImage; 2] {
    threshold(gray, radius, |_, out| out.fill(contrast), [true, true])
}

/// The least contrast that makes ink, in grey levels: a faint line on a clean render.
const MIN_CONTRAST: u32 = 3;
/// Side of the square tiles the noise is measured in, in working pixels.
const TILE: usize = 16;
/// The fewest rows of an ink map made by one task of the thread pool.
const BAND: usize = 64;

/// The contrast each tile of the picture needs: from the median absolute step between
/// horizontal neighbours (noise of deviation s steps by about s at the median, while lines
/// and text, a minority of the pairs, do not move it), then the largest of each tile and its
/// eight neighbours, so a quiet tile beside a noisy one does not cut the noise's edge into ink.
pub(super) struct NoiseTiles {
    columns: usize,
    contrast: Vec<f32>,
}

impl NoiseTiles {
    pub(super) fn new(gray: &GrayImage) -> NoiseTiles {
        let (w, h) = (gray.width() as usize, gray.height() as usize);
        let (columns, rows) = (w.div_ceil(TILE).max(1), h.div_ceil(TILE).max(1));
        // Steps of 0, 1 and 2 levels per tile: a median above 2 already needs the cap.
        let counts: Vec<[u32; 4]> = gray
            .as_raw()
            .par_chunks(w.max(1) * TILE)
            .flat_map_iter(|band| {
                let mut tally = vec![[0u32; 4]; columns];
                for line in band.chunks_exact(w.max(1)) {
                    // The pairs of each tile's columns, counted by comparisons summed (which
                    // vectorise) rather than a tally bumped per pair (which does not).
                    let (lefts, rights) =
                        (line[..line.len() - 1].chunks(TILE), line[1..].chunks(TILE));
                    for (counts, (left, right)) in tally.iter_mut().zip(lefts.zip(rights)) {
                        let mut small = [0u32; 3];
                        for (&a, &b) in left.iter().zip(right) {
                            let step = a.abs_diff(b);
                            small[0] += u32::from(step == 0);
                            small[1] += u32::from(step == 1);
                            small[2] += u32::from(step == 2);
                        }
                        counts[0] += small[0];
                        counts[1] += small[1];
                        counts[2] += small[2];
                        counts[3] += left.len() as u32 - small.iter().sum::<u32>();
                    }
                }
                tally
            })
            .collect();
        let own: Vec<u32> = counts
            .iter()
            .map(|c| {
                let half = c.iter().sum::<u32>().div_ceil(2);
                let mut seen = 0;
                let median = c.iter().position(|&n| {
                    seen += n;
                    seen >= half
                });
                median.map_or(0, |m| m as u32)
            })
            .collect();
        let mut contrast = vec![0.0; columns * rows];
        for ty in 0..rows {
            for tx in 0..columns {
                let mut most = 0;
                for ny in ty.saturating_sub(1)..(ty + 2).min(rows) {
                    for nx in tx.saturating_sub(1)..(tx + 2).min(columns) {
                        most = most.max(own[ny * columns + nx]);
                    }
                }
                contrast[ty * columns + tx] =
                    (3 * most).clamp(MIN_CONTRAST, INK_CONTRAST as u32) as f32;
            }
        }
        NoiseTiles { columns, contrast }
    }

    /// The contrast each pixel of row `y` needs.
    pub(super) fn row(&self, y: usize, out: &mut [f32]) {
        let tiles = &self.contrast[(y / TILE) * self.columns..][..self.columns];
        for (chunk, &c) in out.chunks_mut(TILE).zip(tiles) {
            chunk.fill(c);
        }
    }
}

/// A map's rows, or `None` for each row of a map not wanted (written to a scratch row).
fn output_rows(out: &mut [u8], w: usize, h: usize) -> Vec<Option<&mut [u8]>> {
    if out.is_empty() {
        (0..h).map(|_| None).collect()
    } else {
        out.chunks_exact_mut(w).map(Some).collect()
    }
}

/// The ink maps of a picture, darker ink then lighter ink (each only when `wanted`): a
/// pixel is ink when it differs from the mean of its neighbourhood, a square of half-width
/// `radius` (a fraction of the longer side), by more than the contrast `contrast(y, row)`
/// gives for it.
fn threshold(
    gray: &GrayImage,
    radius: f32,
    contrast: impl Fn(usize, &mut [f32]) + Sync,
    wanted: [bool; 2],
) -> [GrayImage; 2] {
    let (w, h) = (gray.width() as usize, gray.height() as usize);
    let r = ((w.max(h) as f32 * radius) as usize).max(2);
    let stride = w + 1;
    // Compared as totals over the neighbourhood, signed so lighter ink stands out positively:
    // no division and no branch per pixel.
    // In f32, whose 24-bit mantissa holds every product and total here exactly (255 x the
    // area stays below 2^24), because SSE2 has no vector multiply for i32.
    let is_ink = move |v: u8, sum: i32, area: f32, limit: f32| -> (u8, u8) {
        let d = f32::from(v) * area - sum as f32;
        (
            if -d > limit { 255 } else { 0 },
            if d > limit { 255 } else { 0 },
        )
    };
    let size = |want: bool| if want { w * h } else { 0 };
    let (mut darker, mut lighter) = (vec![0u8; size(wanted[0])], vec![0u8; size(wanted[1])]);
    // Where the neighbourhood lies wholly inside the row; the loop over it vectorises.
    let (inner_start, inner_end) = (r.min(w), w.saturating_sub(r).max(r.min(w)));
    let (mut rows_d, mut rows_l) = (
        output_rows(&mut darker, w, h),
        output_rows(&mut lighter, w, h),
    );
    // Bands of rows over the thread pool, each sliding its neighbourhood down its rows. A row's
    // running sums are worked out twice, as the window takes it in and lets it go (w adds
    // each time, against a table of the whole picture's memory), and a band's first window
    // once more, so bands are a few windows tall.
    let band = (4 * r).max(BAND);
    let line_of = |y: usize| &gray.as_raw()[y * w..(y + 1) * w];
    let bands = rows_d.par_chunks_mut(band).zip(rows_l.par_chunks_mut(band));
    bands.enumerate().for_each(|(b, (outs_d, outs_l))| {
        // `columns`: for each column boundary, the sum of the window's rows' running sums
        // (what a summed-area table's two rows subtract to, without the table's memory);
        // `limits`: each pixel's contrast, then times its area; then two scratch rows.
        let mut columns = vec![0i32; stride];
        let mut limits = vec![0f32; w];
        let (mut spare_d, mut spare_l) = (vec![0u8; w], vec![0u8; w]);
        // The rows summed into `columns`: `window.0..window.1`.
        let mut window = (b * band, b * band);
        let add_row = |columns: &mut [i32], y: usize, sign: i32| {
            let mut run = 0i32;
            for (c, &v) in columns[1..].iter_mut().zip(line_of(y)) {
                run += i32::from(v);
                *c += sign * run;
            }
        };
        for (k, (out_d, out_l)) in outs_d.iter_mut().zip(outs_l.iter_mut()).enumerate() {
            let y = b * band + k;
            let line = line_of(y);
            let out_d = out_d.as_deref_mut().unwrap_or(&mut spare_d);
            let out_l = out_l.as_deref_mut().unwrap_or(&mut spare_l);
            let (y0, y1) = (y.saturating_sub(r), (y + r + 1).min(h));
            if window.0 == window.1 {
                window = (y0, y0);
            }
            while window.1 < y1 {
                add_row(&mut columns, window.1, 1);
                window.1 += 1;
            }
            while window.0 < y0 {
                add_row(&mut columns, window.0, -1);
                window.0 += 1;
            }
            contrast(y, &mut limits);
            let rows = (y1 - y0) as i32;
            for x in (0..inner_start).chain(inner_end..w) {
                let (x0, x1) = (x.saturating_sub(r), (x + r + 1).min(w));
                let area = (rows * (x1 - x0) as i32) as f32;
                (out_d[x], out_l[x]) =
                    is_ink(line[x], columns[x1] - columns[x0], area, limits[x] * area);
            }
            if inner_start == inner_end {
                continue;
            }
            let area = (rows * (2 * r + 1) as i32) as f32;
            let inner = inner_start..inner_end;
            let lefts = &columns[inner_start - r..inner_end - r];
            let rights = &columns[inner_start + r + 1..inner_end + r + 1];
            for (((((d, l), &v), &left), &right), &limit) in out_d[inner.clone()]
                .iter_mut()
                .zip(&mut out_l[inner.clone()])
                .zip(&line[inner.clone()])
                .zip(lefts)
                .zip(rights)
                .zip(&limits[inner])
            {
                (*d, *l) = is_ink(v, right - left, area, limit * area);
            }
        }
    });
    let image = |out: Vec<u8>| {
        let (iw, ih) = if out.is_empty() { (0, 0) } else { (w, h) };
        GrayImage::from_raw(iw as u32, ih as u32, out).expect("buffer sized for the image")
    };
    [image(darker), image(lighter)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ink_maps_slid_down_bands_match_sums_taken_pixel_by_pixel() {
        // Tall enough for several bands of rows, with a neighbourhood reaching past the edges.
        let (w, h) = (37u32, 301u32);
        let gray = GrayImage::from_fn(w, h, |x, y| {
            image::Luma([((x * 37 + y * 11 + (x * y) % 23) % 256) as u8])
        });
        let (radius, contrast) = (4.0 / 301.0, 6.0f32);
        let maps = threshold(&gray, radius, |_, row| row.fill(contrast), [true, true]);
        let r = ((w.max(h) as f32 * radius) as usize).max(2);
        for (x, y) in (0..h).flat_map(|y| (0..w).map(move |x| (x, y))) {
            let (x, y) = (x as usize, y as usize);
            let (x0, x1) = (x.saturating_sub(r), (x + r + 1).min(w as usize));
            let (y0, y1) = (y.saturating_sub(r), (y + r + 1).min(h as usize));
            let sum: i32 = (y0..y1)
                .flat_map(|v| (x0..x1).map(move |u| (u, v)))
                .map(|(u, v)| i32::from(gray.get_pixel(u as u32, v as u32)[0]))
                .sum();
            let area = ((y1 - y0) * (x1 - x0)) as f32;
            let v = f32::from(gray.get_pixel(x as u32, y as u32)[0]);
            let d = v * area - sum as f32;
            let expect = [-d > contrast * area, d > contrast * area];
            for (map, want) in maps.iter().zip(expect) {
                assert_eq!(
                    map.get_pixel(x as u32, y as u32)[0] == 255,
                    want,
                    "pixel {x},{y}"
                );
            }
        }
    }
}
