//! The comparison frame: a glyph (ink as brightness, 255 = ink) fitted into a small fixed
//! frame without changing its aspect ratio, centred, as a zero-mean unit-length vector, so
//! two glyphs compare by one dot product (their cosine). Plain `std` only: the build script
//! includes this file too, to turn the bundled templates into features at build time.

/// Width of the comparison frame in pixels.
pub const FRAME_W: u32 = 24;
/// Height of the comparison frame: enough to tell a `6` from an `8` in any of our fonts.
pub const FRAME_H: u32 = 32;
/// Values in one feature.
pub const FRAME_LEN: usize = (FRAME_W * FRAME_H) as usize;
/// Glyphs (or groups of glyphs, on average) whose frames are at most this alike (cosine)
/// are clearly different shapes: one font draws a digit one way, so they are not one digit,
/// and a glyph unlike every glyph given a digit is unlikely to be that digit too.
pub const OTHER_SHAPE: f32 = 0.6;

/// Fits `ink` (`width` x `height`, row-major, 255 = ink) into the frame, keeping its aspect
/// ratio, centred. Each frame pixel averages the source pixels under it (bilinear when
/// enlarging), so thin strokes survive shrinking.
pub fn fit(ink: &[u8], width: u32, height: u32) -> Vec<f32> {
    let (w, h) = (width.max(1) as f32, height.max(1) as f32);
    let s = (FRAME_H as f32 / h).min(FRAME_W as f32 / w);
    let (nw, nh) = (
        ((w * s).round() as u32).clamp(1, FRAME_W),
        ((h * s).round() as u32).clamp(1, FRAME_H),
    );
    let (ox, oy) = ((FRAME_W - nw) / 2, (FRAME_H - nh) / 2);
    let columns = BoxWeights::new(width, nw);
    let rows = BoxWeights::new(height, nh);
    // The box average is separable: each source row is first reduced to the frame's
    // width, then the reduced rows are averaged down to its height.
    let (row_len, nw) = (width.max(1) as usize, nw as usize);
    let mut narrowed = vec![0f32; height as usize * nw];
    for (line, out) in ink.chunks_exact(row_len).zip(narrowed.chunks_exact_mut(nw)) {
        for (x, o) in out.iter_mut().enumerate() {
            let (first, weights) = columns.taps(x);
            let sum: f32 = (line[first..].iter().zip(weights))
                .map(|(&v, w)| f32::from(v) * w)
                .sum();
            *o = sum;
        }
    }
    let mut v = vec![0f32; (FRAME_W * FRAME_H) as usize];
    for (y, out) in v
        .chunks_exact_mut(FRAME_W as usize)
        .skip(oy as usize)
        .take(nh as usize)
        .enumerate()
    {
        let (first, weights) = rows.taps(y);
        let out = &mut out[ox as usize..ox as usize + nw];
        for (row, &w) in narrowed.chunks_exact(nw).skip(first).zip(weights) {
            out.iter_mut().zip(row).for_each(|(o, &r)| *o += r * w);
        }
    }
    let norm = centre(&mut v);
    v.iter_mut().for_each(|x| *x /= norm);
    v
}

/// How alike two frames (see [`fit`]) are: their cosine, since both are zero-mean and of
/// unit length (1 = the same shape).
pub fn likeness(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Takes `v`'s mean away from it; returns its length then (at least 1e-6).
fn centre(v: &mut [f32]) -> f32 {
    let mean = v.iter().sum::<f32>() / v.len() as f32;
    v.iter_mut().for_each(|x| *x -= mean);
    v.iter().map(|x| x * x).sum::<f32>().sqrt().max(1e-6)
}

/// Crops away rows and columns without ink (none above 64), so a padded template fits like a
/// tight one; returns the cropped pixels and their width and height.
pub fn trim(ink: &[u8], width: u32, height: u32) -> (Vec<u8>, u32, u32) {
    let (w, h) = (width as usize, height as usize);
    let has_ink = |x: usize, y: usize| ink[y * w + x] > 64;
    let xs: Vec<usize> = (0..w).filter(|&x| (0..h).any(|y| has_ink(x, y))).collect();
    let ys: Vec<usize> = (0..h).filter(|&y| (0..w).any(|x| has_ink(x, y))).collect();
    match (xs.first(), xs.last(), ys.first(), ys.last()) {
        (Some(&x0), Some(&x1), Some(&y0), Some(&y1)) => {
            let cropped = (y0..=y1)
                .flat_map(|y| ink[y * w + x0..=y * w + x1].iter().copied())
                .collect();
            (cropped, (x1 - x0 + 1) as u32, (y1 - y0 + 1) as u32)
        }
        _ => (ink.to_vec(), width, height),
    }
}

/// Box-filter weights along one axis: for each of `frame` pixels spread evenly over `source`
/// pixels, the source pixels its span [k * step, (k + 1) * step) covers and by how much. A
/// span reaching past the last pixel gives the last pixel the weight beyond it.
struct BoxWeights {
    /// Per frame pixel: its first source pixel and where its weights sit in `weights`.
    spans: Vec<(usize, std::ops::Range<usize>)>,
    /// Each frame pixel's weights sum to 1.
    weights: Vec<f32>,
}

impl BoxWeights {
    fn new(source: u32, frame: u32) -> BoxWeights {
        let last = source.max(1) - 1;
        let step = source.max(1) as f32 / frame as f32;
        let mut out = BoxWeights {
            spans: Vec::with_capacity(frame as usize),
            weights: Vec::new(),
        };
        for k in 0..frame {
            let (start, end) = (k as f32 * step, k as f32 * step + step);
            // start >= 0: truncation is floor, without a libm call
            let first = (start as u32).min(last);
            let at = out.weights.len();
            let mut p = first as f32;
            while p < end {
                let w = (p + 1.0).min(end) - p.max(start);
                if p as u32 > last {
                    *out.weights.last_mut().expect("the first pixel is inside") += w;
                } else {
                    out.weights.push(w);
                }
                p += 1.0;
            }
            let total: f32 = out.weights[at..].iter().sum();
            out.weights[at..]
                .iter_mut()
                .for_each(|w| *w /= total.max(1e-6));
            out.spans.push((first as usize, at..out.weights.len()));
        }
        out
    }

    /// Frame pixel `k`'s first source pixel and weights.
    fn taps(&self, k: usize) -> (usize, &[f32]) {
        let (first, range) = &self.spans[k];
        (*first, &self.weights[range.clone()])
    }
}

/// The blurs, in frame pixels (Gaussian sigmas), a picture's glyphs may be matched at besides
/// none. A photo's print is soft: the lens, focus and the enlargement of a 15-pixel digit
/// into the frame spread every edge over several frame pixels, and sharp templates then find
/// a blurred 8 nearer a sharp 6 than a sharp 8. Each picture's glyphs are compared with the
/// templates blurred as much as fits them best (see `Templates::recognize_grid_blurred`).
/// Past 1.2 the digits' own differences blur away: with every photo read blurred (a trial),
/// 136 of 160 were read exactly at 0.6 + 1.2 and at 1.2 alone, 128 with 1.8 and 2.4 added.
pub const BLUR_LEVELS: [f32; 2] = [0.6, 1.2];

/// `feature` (a frame, see [`fit`]) blurred by a Gaussian of `sigma` frame pixels, with
/// nothing beyond the frame's edges. The blur is linear and symmetric, so for a zero-mean
/// glyph `g` and a template `t`, `g · blur(t) = blur(g) · t`: blurring a picture's few
/// glyphs stands for blurring every template (see [`blurred_norm`]).
pub fn blur(feature: &[f32], sigma: f32) -> Vec<f32> {
    let radius = (sigma * 3.0).ceil() as usize;
    let kernel: Vec<f32> = (0..=2 * radius)
        .map(|k| {
            let d = k as f32 - radius as f32;
            (-(d * d) / (2.0 * sigma * sigma)).exp()
        })
        .collect();
    let total: f32 = kernel.iter().sum();
    let kernel: Vec<f32> = kernel.iter().map(|k| k / total).collect();
    let (w, h) = (FRAME_W as usize, FRAME_H as usize);
    // One pass along rows (`step` 1, `len` w) or columns (`step` w, `len` h).
    let pass = |src: &[f32], step: usize, len: usize, lines: usize, line_step: usize| {
        let mut out = vec![0f32; src.len()];
        for line in 0..lines {
            let base = line * line_step;
            for i in 0..len {
                let lo = i.saturating_sub(radius);
                let hi = (i + radius).min(len - 1);
                out[base + i * step] = (lo..=hi)
                    .map(|j| kernel[j + radius - i] * src[base + j * step])
                    .sum();
            }
        }
        out
    };
    let across = pass(feature, 1, w, h, w);
    pass(&across, w, h, w, 1)
}

/// The length of `template` blurred by `sigma` (see [`blur`]) once its mean is taken away:
/// what a blurred glyph's dot product with the sharp template is divided by to be the
/// cosine with the blurred template.
pub fn blurred_norm(template: &[f32], sigma: f32) -> f32 {
    centre(&mut blur(template, sigma))
}
