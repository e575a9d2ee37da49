//! Grey levels shared by the stages: luma, the dark-theme test, medians and histograms of grey
//! levels ([`locate`](super::locate) judges a picture's theme by them, [`cells`](super::cells) a
//! cell's background).

use image::GrayImage;

/// Rec. 601 luma of an RGB pixel, 0-255.
pub fn luma(px: &[u8]) -> u32 {
    (u32::from(px[0]) * 299 + u32::from(px[1]) * 587 + u32::from(px[2]) * 114) / 1000
}

/// How far `rgb` stands out from `background`: `grey` (its grey distance towards the ink,
/// negative away from it), or its distance in hue, whichever is more. A coloured mark on a
/// highlighted cell differs from it more in hue than in grey.
pub(crate) fn grey_or_hue(grey: i32, rgb: [u8; 3], background: [u8; 3]) -> i32 {
    let d: [i32; 3] = std::array::from_fn(|i| i32::from(rgb[i]) - i32::from(background[i]));
    let m = (d[0] + d[1] + d[2]) / 3;
    let hue_squared = (d[0] - m).pow(2) + (d[1] - m).pow(2) + (d[2] - m).pow(2);
    // The hue's root only when it can be the larger (most pixels are grey on grey: a square
    // root's latency was a fifth of sampling a glyph again). Below 2^24 the root of a whole
    // number truncates to its whole root, as the comparison takes it; a hue under
    // `at_least + 1` roots to at most `at_least`, and to 0 when `grey` is below 0 (then it is
    // 0 itself).
    let at_least = grey.max(0);
    if hue_squared < (at_least + 1) * (at_least + 1) {
        return at_least;
    }
    grey.max((hue_squared as f32).sqrt() as i32)
}

/// A dark theme has a dark background: the median grey is below the middle.
pub fn is_dark(gray: &GrayImage) -> bool {
    is_dark_background(median(gray.as_raw()))
}

/// Whether a picture whose median grey is `median` is a dark theme.
pub(crate) fn is_dark_background(median: u8) -> bool {
    median < 110
}

/// The median of `values` (the upper one for an even count); 255 for none.
pub(crate) fn median(values: &[u8]) -> u8 {
    let mut hist = Histogram::new();
    hist.add(values, |v| v);
    hist.median().unwrap_or(255)
}

/// The median of `values` (the upper one for an even count); 0 for none.
pub(crate) fn median_f32(mut values: Vec<f32>) -> f32 {
    values.sort_by(f32::total_cmp);
    values.get(values.len() / 2).copied().unwrap_or(0.0)
}

/// Counts of grey levels, kept in four interleaved parts: in a plain background, where one
/// level follows another, a single table would make every count wait for the one before.
pub(crate) struct Histogram([[u32; 256]; 4]);

impl Histogram {
    pub(crate) fn new() -> Histogram {
        Histogram([[0; 256]; 4])
    }

    /// Counts the level `level(v)` of each of `values`.
    pub(crate) fn add(&mut self, values: &[u8], level: impl Fn(u8) -> u8) {
        let mut quads = values.chunks_exact(4);
        for quad in &mut quads {
            for (part, &v) in self.0.iter_mut().zip(quad) {
                part[level(v) as usize] += 1;
            }
        }
        for &v in quads.remainder() {
            self.0[0][level(v) as usize] += 1;
        }
    }

    /// The count of each level.
    pub(crate) fn counts(&self) -> [u32; 256] {
        std::array::from_fn(|i| self.0.iter().map(|part| part[i]).sum())
    }

    /// The median level (the upper one for an even count); `None` when nothing was counted.
    pub(crate) fn median(&self) -> Option<u8> {
        let counts = self.counts();
        let half = counts.iter().sum::<u32>() / 2;
        Self::level_after(&counts, half)
    }

    /// The level of the `q`-quantile (0-1: the value at index `(n - 1) * q` of the sorted
    /// levels); `None` when nothing was counted.
    pub(crate) fn quantile(&self, q: f64) -> Option<u8> {
        let counts = self.counts();
        let n = counts.iter().sum::<u32>();
        let index = (f64::from(n.checked_sub(1)?) * q) as u32;
        Self::level_after(&counts, index)
    }

    /// The first level whose running count passes `index`.
    fn level_after(counts: &[u32; 256], index: u32) -> Option<u8> {
        let mut seen = 0;
        let level = counts.iter().position(|&n| {
            seen += n;
            seen > index
        })?;
        Some(level as u8)
    }

    /// Whether the levels counted are light ink on a dark background: the median lies nearer
    /// the lightest tail than the darkest. Not against a fixed level: a photo of paper in dim
    /// light is darker than the middle, yet its lines and digits are the dark ones. The tails
    /// are the lightest and darkest half percent: small thin digits in a grid drawn by shading
    /// alone, with no lines, cover little more than one percent of it.
    pub(crate) fn light_on_dark(&self) -> bool {
        match (self.quantile(0.005), self.median(), self.quantile(0.995)) {
            (Some(low), Some(mid), Some(high)) => {
                i32::from(high) - i32::from(mid) > i32::from(mid) - i32::from(low)
            }
            _ => false,
        }
    }
}
