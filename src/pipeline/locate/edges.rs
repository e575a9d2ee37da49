//! Long edges: where the grey steps across a horizontal or vertical stretch longer than a
//! glyph is tall. The edges of box fills and both sides of every grid line, however faint,
//! are long; text and digits make only short ones. The map they make joins a shading-only
//! grid into one shape, apart from the paragraphs around it (which an ink map with its halos
//! merges with the grid).

use image::GrayImage;

use super::ink::NoiseTiles;

/// The shortest edge kept, as a fraction of the working image's longer side: longer than a
/// line of body text is tall, shorter than a box of the smallest grid is wide.
const MIN_EDGE: f32 = 1.0 / 90.0;

/// White where the grey steps, across the pixel, by more than the local noise allows (the
/// same contrast as the ink maps: three times the typical neighbour step, 3-8 levels), on a
/// run of such steps at least `MIN_EDGE` long in the direction of the edge.
pub(super) fn long_edges(gray: &GrayImage) -> GrayImage {
    let (w, h) = (gray.width() as usize, gray.height() as usize);
    let noise = NoiseTiles::new(gray);
    let min_run = ((w.max(h) as f32 * MIN_EDGE) as usize).max(6);
    let g = gray.as_raw();
    let mut limits = vec![0f32; w];
    // Horizontal edges (the grey steps from the row above to the row below), kept on
    // horizontal runs; vertical edges likewise by columns.
    let mut across = vec![false; w * h];
    let mut down = vec![false; w * h];
    for y in 1..h.saturating_sub(1) {
        noise.row(y, &mut limits);
        for (x, &limit) in limits.iter().enumerate().take(w.saturating_sub(1)).skip(1) {
            let i = y * w + x;
            let limit = limit as i32;
            across[i] = (i32::from(g[i + w]) - i32::from(g[i - w])).abs() >= limit;
            down[i] = (i32::from(g[i + 1]) - i32::from(g[i - 1])).abs() >= limit;
        }
    }
    // A tilted edge steps to the next row (or column) every so often: runs are measured
    // with each edge widened by a pixel across, so the steps do not cut them short, and
    // only the edge pixels themselves are kept (the steps join them diagonally).
    let widen = |edge: &[bool], step: usize| -> Vec<bool> {
        (0..w * h)
            .map(|i| {
                edge[i] || (i >= step && edge[i - step]) || (i + step < w * h && edge[i + step])
            })
            .collect()
    };
    let (wide_across, wide_down) = (widen(&across, w), widen(&down, 1));
    let mut out = vec![0u8; w * h];
    for y in 0..h {
        keep_runs((0..w).map(|x| y * w + x), &wide_across, &mut out, min_run);
    }
    for x in 0..w {
        keep_runs((0..h).map(|y| y * w + x), &wide_down, &mut out, min_run);
    }
    for (o, (&a, &d)) in out.iter_mut().zip(across.iter().zip(&down)) {
        if !a && !d {
            *o = 0;
        }
    }
    GrayImage::from_raw(w as u32, h as u32, out).expect("buffer sized for the image")
}

/// Marks in `out` the runs of `edge` along `line` (pixel indices in order) at least
/// `min_run` long.
fn keep_runs(line: impl Iterator<Item = usize>, edge: &[bool], out: &mut [u8], min_run: usize) {
    let mut run: Vec<usize> = Vec::new();
    let flush = |run: &mut Vec<usize>, out: &mut [u8]| {
        if run.len() >= min_run {
            run.iter().for_each(|&i| out[i] = 255);
        }
        run.clear();
    };
    for i in line {
        if edge[i] {
            run.push(i);
        } else {
            flush(&mut run, out);
        }
    }
    flush(&mut run, out);
}
