//! The reduced reader: a PNG decoded one row at a time into a box filter, so a picture of
//! any size is held only at its working size; the same filter scales down pictures decoded
//! whole; and transparency laid over white, as a viewer shows it.

use std::io::{BufRead, Seek};

use image::{DynamicImage, RgbImage};

use super::{Limits, Plan};

/// The smallest whole factor that brings `pixels` down to at most `working` pixels.
pub(super) fn shrink_factor(pixels: u64, working: u64) -> u32 {
    let mut k: u64 = 1;
    while pixels.div_ceil(k * k) > working.max(1) {
        k += 1;
    }
    k as u32
}

/// Decodes a PNG one row at a time into the picture scaled down by `plan.shrink`: memory is
/// one decoded row and the scaled picture, whatever the PNG's size, depth or channels.
/// Interlaced pictures arrive in seven passes, not rows, so they are decoded whole (8 bits a
/// sample, within the byte limit) and scaled afterwards.
pub(super) fn png_rows_scaled<R: BufRead + Seek>(
    reader: R,
    plan: &Plan,
    limits: &Limits,
) -> std::result::Result<RgbImage, png::DecodingError> {
    let bytes = usize::try_from(limits.max_bytes).unwrap_or(usize::MAX);
    let mut decoder = png::Decoder::new_with_limits(reader, png::Limits { bytes });
    decoder.set_transformations(png::Transformations::normalize_to_color8());
    let mut png = decoder.read_info()?;
    let channels = png.output_color_type().0.samples();
    let mut shrinker = Shrinker::new(plan.width, plan.height, plan.shrink);
    let mut rgb_row = vec![0u8; plan.width as usize * 3];
    if png.info().interlaced {
        let size = png
            .output_buffer_size()
            .ok_or(png::DecodingError::LimitsExceeded)?;
        if size as u64 > limits.max_bytes {
            return Err(png::DecodingError::LimitsExceeded);
        }
        let mut frame = vec![0u8; size];
        let info = png.next_frame(&mut frame)?;
        for row in frame
            .chunks_exact(info.line_size)
            .take(plan.height as usize)
        {
            to_rgb(row, channels, &mut rgb_row);
            shrinker.push(&rgb_row);
        }
    } else {
        while let Some(row) = png.next_row()? {
            to_rgb(row.data(), channels, &mut rgb_row);
            shrinker.push(&rgb_row);
        }
    }
    Ok(shrinker.finish())
}

/// One row of 8-bit grey, grey+alpha, RGB or RGBA samples as RGB, transparent parts laid
/// over white (see [`over_white`]).
fn to_rgb(row: &[u8], channels: usize, rgb: &mut [u8]) {
    for (px, out) in row.chunks_exact(channels).zip(rgb.chunks_exact_mut(3)) {
        if channels >= 3 {
            out.copy_from_slice(&px[..3]);
        } else {
            out.fill(px[0]);
        }
        if channels == 2 || channels == 4 {
            let alpha = px[channels - 1];
            out.iter_mut().for_each(|v| *v = over_white(*v, alpha));
        }
    }
}

/// A picture as opaque RGB: one with an alpha channel is laid over white first.
pub(super) fn opaque_rgb(image: DynamicImage) -> RgbImage {
    if !image.color().has_alpha() {
        return image.into_rgb8();
    }
    let rgba = image.into_rgba8();
    RgbImage::from_fn(rgba.width(), rgba.height(), |x, y| {
        let [r, g, b, a] = rgba.get_pixel(x, y).0;
        image::Rgb([r, g, b].map(|v| over_white(v, a)))
    })
}

/// A sample of coverage `alpha` laid over white, as a viewer shows it: a transparent
/// picture's hidden colour (often black) must not become the grid's background.
fn over_white(value: u8, alpha: u8) -> u8 {
    let (v, a) = (u32::from(value), u32::from(alpha));
    ((v * a + 255 * (255 - a) + 127) / 255) as u8
}

/// Scales `image` down by the whole factor `k` (returned as it is for `k <= 1`).
pub(super) fn shrink(image: RgbImage, k: u32) -> RgbImage {
    if k <= 1 {
        return image;
    }
    let mut shrinker = Shrinker::new(image.width(), image.height(), k);
    for row in image.as_raw().chunks_exact(image.width() as usize * 3) {
        shrinker.push(row);
    }
    shrinker.finish()
}

/// A box filter fed one RGB row at a time: every `k` rows (and at the bottom edge) one row of
/// the scaled picture is averaged out of the running sums.
struct Shrinker {
    k: u32,
    width: u32,
    sums: Vec<u32>,
    rows_in_band: u32,
    out: RgbImage,
    out_y: u32,
}

impl Shrinker {
    fn new(width: u32, height: u32, k: u32) -> Shrinker {
        let out_w = width.div_ceil(k);
        Shrinker {
            k,
            width,
            sums: vec![0; out_w as usize * 3],
            rows_in_band: 0,
            out: RgbImage::new(out_w, height.div_ceil(k)),
            out_y: 0,
        }
    }

    fn push(&mut self, row: &[u8]) {
        if self.out_y >= self.out.height() {
            return;
        }
        for (x, px) in row.chunks_exact(3).take(self.width as usize).enumerate() {
            let o = x / self.k as usize * 3;
            for (sum, &sample) in self.sums[o..o + 3].iter_mut().zip(px) {
                *sum += u32::from(sample);
            }
        }
        self.rows_in_band += 1;
        if self.rows_in_band == self.k {
            self.emit();
        }
    }

    fn emit(&mut self) {
        let (k, width, rows) = (self.k, self.width, self.rows_in_band);
        let y = self.out_y;
        for (x, sum) in self.sums.chunks_exact_mut(3).enumerate() {
            let cols = k.min(width - x as u32 * k);
            let n = cols * rows;
            let px = self.out.get_pixel_mut(x as u32, y);
            for (out, sum) in px.0.iter_mut().zip(sum) {
                *out = ((*sum + n / 2) / n) as u8;
                *sum = 0;
            }
        }
        self.rows_in_band = 0;
        self.out_y += 1;
    }

    fn finish(mut self) -> RgbImage {
        if self.rows_in_band > 0 {
            self.emit();
        }
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shrinking_averages_whole_boxes_and_the_partial_ones_at_the_edges() {
        let image = RgbImage::from_fn(5, 3, |x, y| image::Rgb([(10 * x + y) as u8, 0, 255]));
        let small = shrink(image, 2);
        assert_eq!(small.dimensions(), (3, 2));
        // Box (0,0): x 0-1, y 0-1 -> (0 + 10 + 1 + 11) / 4 = 5.5, rounded to 6.
        assert_eq!(small.get_pixel(0, 0).0, [6, 0, 255]);
        // Edge box (2,1): x 4, y 2 alone.
        assert_eq!(small.get_pixel(2, 1).0, [42, 0, 255]);
        assert_eq!(shrink_factor(100, 100), 1);
        assert_eq!(shrink_factor(101, 100), 2);
        assert_eq!(shrink_factor(99_980_001, 40_000_000), 2);
    }
}
