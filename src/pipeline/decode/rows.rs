//! The reduced reader: a PNG decoded one row at a time into a box filter, so a picture of
//! any size is held only at its working size; the same filter scales down pictures decoded
//! whole. Transparency is laid over white, as a viewer shows it, and the alpha kept beside.

use std::io::{BufRead, Seek};

use image::{DynamicImage, ImageBuffer, Luma, Pixel, Rgb};

use super::peak::Plan;
use crate::pipeline::picture::{over_white, Picture};

/// Decodes a PNG, its header already read into `png`, one row at a time into the picture
/// scaled down by `plan.shrink`: memory is one decoded row and the scaled picture (with its
/// alpha plane when the PNG has alpha), whatever the PNG's size, depth or channels.
/// Interlaced pictures arrive in seven passes, not rows, so they are decoded whole (8 bits a
/// sample, as the plan counts them) and scaled afterwards.
pub(super) fn png_rows_scaled<R: BufRead + Seek>(
    mut png: png::Reader<R>,
    plan: &Plan,
) -> std::result::Result<Picture, png::DecodingError> {
    let channels = png.output_color_type().0.samples();
    let mut planes = Planes::new(plan.width, plan.height, plan.shrink, channels);
    if png.info().interlaced {
        let size = png
            .output_buffer_size()
            .ok_or(png::DecodingError::LimitsExceeded)?;
        let mut frame = vec![0u8; size];
        let info = png.next_frame(&mut frame)?;
        for row in frame
            .chunks_exact(info.line_size)
            .take(plan.height as usize)
        {
            planes.push(row);
        }
    } else {
        while let Some(row) = png.next_row()? {
            planes.push(row.data());
        }
    }
    Ok(planes.finish())
}

/// A picture decoded whole by the `image` crate, as the planes the pipeline reads, scaled
/// down by `k`. 8-bit layouts go row by row into the box filter, so the decoder's buffer is
/// the only picture held at full size (8-bit RGB at full size is taken as it is); 16-bit
/// and float layouts go through the image crate's RGBA copy first.
pub(super) fn planes_of(image: DynamicImage, k: u32) -> Picture {
    let channels = match &image {
        DynamicImage::ImageLuma8(_) => 1,
        DynamicImage::ImageLumaA8(_) => 2,
        DynamicImage::ImageRgb8(_) => 3,
        DynamicImage::ImageRgba8(_) => 4,
        _ => return shrink(Picture::from(image), k),
    };
    if k == 1 && channels == 3 {
        return Picture::from(image.into_rgb8());
    }
    let mut planes = Planes::new(image.width(), image.height(), k, channels);
    let row_len = image.width() as usize * channels;
    for row in image.as_bytes().chunks_exact(row_len.max(1)) {
        planes.push(row);
    }
    planes.finish()
}

/// The colour plane and, for samples with alpha, the alpha plane, filled one row of 8-bit
/// grey, grey+alpha, RGB or RGBA samples at a time and scaled down as they come.
struct Planes {
    channels: usize,
    colours: Shrinker<Rgb<u8>>,
    alphas: Option<Shrinker<Luma<u8>>>,
    rgb_row: Vec<u8>,
    alpha_row: Vec<u8>,
}

impl Planes {
    fn new(width: u32, height: u32, k: u32, channels: usize) -> Planes {
        Planes {
            channels,
            colours: Shrinker::new(width, height, k),
            alphas: (channels == 2 || channels == 4).then(|| Shrinker::new(width, height, k)),
            rgb_row: vec![0; width as usize * 3],
            alpha_row: vec![255; width as usize],
        }
    }

    fn push(&mut self, row: &[u8]) {
        split_row(row, self.channels, &mut self.rgb_row, &mut self.alpha_row);
        self.colours.push(&self.rgb_row);
        if let Some(alphas) = &mut self.alphas {
            alphas.push(&self.alpha_row);
        }
    }

    fn finish(self) -> Picture {
        Picture::from_parts(self.colours.finish(), self.alphas.map(Shrinker::finish))
    }
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
fn shrink(picture: Picture, k: u32) -> Picture {
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
    }
}
