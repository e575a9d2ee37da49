//! The reduced reader: a PNG decoded one row at a time into a box filter, so a picture of
//! any size is held only at its working size; the same filter scales down pictures decoded
//! whole. Transparency is laid over white, as a viewer shows it, and the alpha kept beside.

use std::io::{BufRead, Seek};

use image::{ImageBuffer, Luma, Pixel, Rgb};

use super::{Limits, Plan};
use crate::pipeline::picture::{over_white, Picture};

/// The smallest whole factor that brings `pixels` down to at most `working` pixels.
pub(super) fn shrink_factor(pixels: u64, working: u64) -> u32 {
    let mut k: u64 = 1;
    while pixels.div_ceil(k * k) > working.max(1) {
        k += 1;
    }
    k as u32
}

/// Decodes a PNG one row at a time into the picture scaled down by `plan.shrink`: memory is
/// one decoded row and the scaled picture (with its alpha plane when the PNG has alpha),
/// whatever the PNG's size, depth or channels. Interlaced pictures arrive in seven passes,
/// not rows, so they are decoded whole (8 bits a sample, within the byte limit) and scaled
/// afterwards.
pub(super) fn png_rows_scaled<R: BufRead + Seek>(
    reader: R,
    plan: &Plan,
    limits: &Limits,
) -> std::result::Result<Picture, png::DecodingError> {
    let bytes = usize::try_from(limits.max_bytes).unwrap_or(usize::MAX);
    let mut decoder = png::Decoder::new_with_limits(reader, png::Limits { bytes });
    decoder.set_transformations(png::Transformations::normalize_to_color8());
    let mut png = decoder.read_info()?;
    let channels = png.output_color_type().0.samples();
    let mut colours = Shrinker::<Rgb<u8>>::new(plan.width, plan.height, plan.shrink);
    let mut alphas = (channels == 2 || channels == 4)
        .then(|| Shrinker::<Luma<u8>>::new(plan.width, plan.height, plan.shrink));
    let mut rgb_row = vec![0u8; plan.width as usize * 3];
    let mut alpha_row = vec![255u8; plan.width as usize];
    let mut push = |row: &[u8]| {
        split_row(row, channels, &mut rgb_row, &mut alpha_row);
        colours.push(&rgb_row);
        if let Some(alphas) = &mut alphas {
            alphas.push(&alpha_row);
        }
    };
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
            push(row);
        }
    } else {
        while let Some(row) = png.next_row()? {
            push(row.data());
        }
    }
    Ok(Picture::from_parts(
        colours.finish(),
        alphas.map(Shrinker::finish),
    ))
}

/// One row of 8-bit grey, grey+alpha, RGB or RGBA samples as RGB, transparent parts laid
/// over white, and its alpha (left as it is for samples without alpha).
fn split_row(row: &[u8], channels: usize, rgb: &mut [u8], alpha: &mut [u8]) {
    let pixels = row.chunks_exact(channels).zip(rgb.chunks_exact_mut(3));
    for ((px, out), a) in pixels.zip(alpha) {
        if channels >= 3 {
            out.copy_from_slice(&px[..3]);
        } else {
            out.fill(px[0]);
        }
        if channels == 2 || channels == 4 {
            *a = px[channels - 1];
            out.iter_mut().for_each(|v| *v = over_white(*v, *a));
        }
    }
}

/// Scales `picture` down by the whole factor `k` (returned as it is for `k <= 1`), its
/// colours and its alpha alike. Averaging the colours over white and the alpha apart is
/// averaging the premultiplied pixels, so edges against transparency stay right.
pub(super) fn shrink(picture: Picture, k: u32) -> Picture {
    if k <= 1 {
        return picture;
    }
    let (rgb, alpha) = picture.into_parts();
    Picture::from_parts(shrink_plane(&rgb, k), alpha.map(|a| shrink_plane(&a, k)))
}

/// Scales one picture of 8-bit samples down by the whole factor `k`.
fn shrink_plane<P: Pixel<Subpixel = u8>>(
    image: &ImageBuffer<P, Vec<u8>>,
    k: u32,
) -> ImageBuffer<P, Vec<u8>> {
    let mut shrinker = Shrinker::<P>::new(image.width(), image.height(), k);
    let row_len = image.width() as usize * usize::from(P::CHANNEL_COUNT);
    for row in image.as_raw().chunks_exact(row_len.max(1)) {
        shrinker.push(row);
    }
    shrinker.finish()
}

/// A box filter fed one row at a time (RGB colours or an alpha plane): every `k` rows (and at
/// the bottom edge) one row of the scaled picture is averaged out of the running sums.
struct Shrinker<P: Pixel<Subpixel = u8>> {
    k: u32,
    width: u32,
    sums: Vec<u32>,
    rows_in_band: u32,
    out: ImageBuffer<P, Vec<u8>>,
    out_y: u32,
}

impl<P: Pixel<Subpixel = u8>> Shrinker<P> {
    const CHANNELS: usize = P::CHANNEL_COUNT as usize;

    fn new(width: u32, height: u32, k: u32) -> Shrinker<P> {
        let out_w = width.div_ceil(k);
        Shrinker {
            k,
            width,
            sums: vec![0; out_w as usize * Self::CHANNELS],
            rows_in_band: 0,
            out: ImageBuffer::new(out_w, height.div_ceil(k)),
            out_y: 0,
        }
    }

    fn push(&mut self, row: &[u8]) {
        if self.out_y >= self.out.height() {
            return;
        }
        let n = Self::CHANNELS;
        for (x, px) in row.chunks_exact(n).take(self.width as usize).enumerate() {
            let o = x / self.k as usize * n;
            for (sum, &sample) in self.sums[o..o + n].iter_mut().zip(px) {
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
        for (x, sum) in self.sums.chunks_exact_mut(Self::CHANNELS).enumerate() {
            let cols = k.min(width - x as u32 * k);
            let n = cols * rows;
            let px = self.out.get_pixel_mut(x as u32, y);
            for (out, sum) in px.channels_mut().iter_mut().zip(sum) {
                *out = ((*sum + n / 2) / n) as u8;
                *sum = 0;
            }
        }
        self.rows_in_band = 0;
        self.out_y += 1;
    }

    fn finish(mut self) -> ImageBuffer<P, Vec<u8>> {
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
        let image = image::RgbImage::from_fn(5, 3, |x, y| Rgb([(10 * x + y) as u8, 0, 255]));
        let small = shrink_plane(&image, 2);
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
