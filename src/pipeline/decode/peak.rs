//! What decoding one picture costs at its peak, told from its header before any pixel is
//! decoded: the decoder's own buffers beside the picture it hands over (a progressive JPEG's
//! coefficients, a lossy WebP's YUV planes, a GIF's frame), the planes the picture is split
//! into, and what the rest of the pipeline holds; and the scale that brings the peak within
//! the limit. The figures per decoder were measured on bombs of each kind (BENCHMARKS.md,
//! "Decoder memory (issue 57)").

use std::io::{Read, Seek, SeekFrom};

use image::ImageFormat;

use super::Limits;

/// What a decoder holds at its peak, apart from what the picture's planes take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Cost {
    /// Bytes held whatever the scale: the decoder's output buffer and its working buffers
    /// (for PNG read row by row, a few rows).
    pub fixed: u64,
    /// Whether the decoder's output becomes the colour plane as it is (8-bit RGB read at full
    /// size), so no plane is made beside it.
    pub moves: bool,
}

/// How a picture will be decoded, decided from its header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Plan {
    pub width: u32,
    pub height: u32,
    /// The whole factor the picture is scaled down by (1: full size).
    pub shrink: u32,
    /// Bytes held at the peak, the larger of two moments: while decoding (the decoder's
    /// buffers and the planes being filled) and after (the planes, and as much again for
    /// the encoded output; for a picture with alpha also the RGBA copy handed to the
    /// encoder and an encoded output as large as that copy). Encoded bytes held in memory
    /// by the caller count at both moments.
    pub peak_bytes: u64,
}

/// The smallest whole factor that brings `pixels` down to at most `working` pixels.
pub(super) fn shrink_factor(pixels: u64, working: u64) -> u32 {
    let mut k: u64 = 1;
    while pixels.div_ceil(k * k) > working.max(1) {
        k += 1;
    }
    k as u32
}

/// The plan for a `width` x `height` picture (`alpha`: whether it declares an alpha
/// channel) whose decoder costs `cost`, with `held` encoded bytes in memory beside it: the
/// working size's scale, or a smaller one when that is what fits `limits.max_bytes`. `Err`
/// holds the bytes needed at the working size when no scale fits (the decoder's own
/// buffers are over the limit).
pub(super) fn plan(
    (width, height): (u32, u32),
    cost: Cost,
    alpha: bool,
    held: u64,
    limits: &Limits,
) -> Result<Plan, u64> {
    let pixels = u64::from(width) * u64::from(height);
    let working = shrink_factor(pixels, limits.working_pixels);
    let peak = |k: u32| {
        let out = u64::from(width.div_ceil(k)) * u64::from(height.div_ceil(k));
        let planes = if k == 1 && cost.moves && !alpha {
            0
        } else {
            (3 + u64::from(alpha)) * out
        };
        // RGB and its encoded output; with alpha 1 byte more for the plane, and 4 + 4 for
        // the RGBA copy the encoder is handed and its output (counted even when every pixel
        // turns out opaque and the plane is dropped: the header cannot tell).
        let after = if alpha { 3 + 1 + 4 + 4 } else { 2 * 3 } * out;
        held + (cost.fixed + planes).max(after)
    };
    let largest = width.max(height).max(1);
    (working..=largest)
        .find(|&k| peak(k) <= limits.max_bytes)
        .map(|shrink| Plan {
            width,
            height,
            shrink,
            peak_bytes: peak(shrink),
        })
        .ok_or_else(|| peak(working))
}

/// The decoder's buffers of a picture decoded whole by the `image` crate, beside the
/// `decoded` bytes of its output; `reader` is at any position and is left anywhere.
pub(super) fn whole_cost<R: Read + Seek>(
    reader: &mut R,
    format: ImageFormat,
    (width, height): (u32, u32),
    decoded: u64,
    eight_bit_rgb: bool,
) -> std::io::Result<Cost> {
    let pixels = u64::from(width) * u64::from(height);
    let own = match format {
        ImageFormat::Jpeg => jpeg_coefficients(reader, (width, height))?,
        ImageFormat::WebP => webp_buffers(reader, (width, height), decoded > 3 * pixels)?,
        // The first frame is decoded into a frame buffer of its own when it does not cover
        // the whole canvas, which the screen descriptor cannot tell: counted always.
        ImageFormat::Gif => 4 * pixels,
        // BMP (RLE included) is decoded into the output buffer itself.
        _ => 0,
    };
    // 16-bit and float layouts go through the image crate's RGBA copy before the planes.
    let widened = if decoded > 4 * pixels { 4 * pixels } else { 0 };
    Ok(Cost {
        fixed: decoded + own + widened,
        moves: eight_bit_rgb,
    })
}

/// The coefficients a progressive JPEG is decoded through, 2 bytes a sample of every
/// component over whole MCUs (a baseline JPEG is decoded one row of MCUs at a time: none).
/// A header without a frame marker counts as progressive with full-size components, the
/// most a JPEG can hold; the decoder then fails on it anyway.
fn jpeg_coefficients<R: Read + Seek>(
    reader: &mut R,
    (width, height): (u32, u32),
) -> std::io::Result<u64> {
    let frame = jpeg_frame(reader)?.unwrap_or(JpegFrame {
        progressive: true,
        sampling: vec![(1, 1); 3],
    });
    if !frame.progressive {
        return Ok(0);
    }
    let max = |factor: fn(&(u8, u8)) -> u8| {
        let most = frame.sampling.iter().map(factor).max().unwrap_or(1);
        u32::from(most.max(1))
    };
    let mcus_x = u64::from(width.div_ceil(8 * max(|s| s.0)));
    let mcus_y = u64::from(height.div_ceil(8 * max(|s| s.1)));
    Ok(frame
        .sampling
        .iter()
        .map(|&(h, v)| 2 * mcus_x * u64::from(h) * 8 * mcus_y * u64::from(v) * 8)
        .sum())
}

/// What a JPEG's start-of-frame marker says of its decoding.
struct JpegFrame {
    progressive: bool,
    /// Each component's sampling factors, horizontal and vertical.
    sampling: Vec<(u8, u8)>,
}

/// The JPEG's start-of-frame marker, read; `None` when a scan or the end comes first.
fn jpeg_frame<R: Read + Seek>(reader: &mut R) -> std::io::Result<Option<JpegFrame>> {
    reader.seek(SeekFrom::Start(2))?;
    let mut byte = [0u8; 1];
    // Markers before the frame are few (APPn, DQT, DHT, COM); a file of nothing else ends.
    for _ in 0..4096 {
        reader.read_exact(&mut byte)?;
        if byte[0] != 0xFF {
            continue;
        }
        let mut marker = 0xFF;
        while marker == 0xFF {
            reader.read_exact(&mut byte)?;
            marker = byte[0];
        }
        match marker {
            0x00 | 0x01 | 0xD0..=0xD8 => continue,
            0xD9 | 0xDA => return Ok(None),
            _ => {}
        }
        let mut length = [0u8; 2];
        reader.read_exact(&mut length)?;
        let length = u16::from_be_bytes(length);
        let is_frame = matches!(marker, 0xC0..=0xCF) && !matches!(marker, 0xC4 | 0xC8 | 0xCC);
        if !is_frame {
            reader.seek(SeekFrom::Current(i64::from(length) - 2))?;
            continue;
        }
        let mut head = [0u8; 6];
        reader.read_exact(&mut head)?;
        let mut components = vec![0u8; 3 * usize::from(head[5])];
        reader.read_exact(&mut components)?;
        let sampling = components
            .chunks_exact(3)
            .map(|c| ((c[1] >> 4).max(1), (c[1] & 0x0F).max(1)))
            .collect();
        let progressive = matches!(marker, 0xC2 | 0xC6 | 0xCA | 0xCE);
        return Ok(Some(JpegFrame {
            progressive,
            sampling,
        }));
    }
    Ok(None)
}

/// What the WebP decoder holds beside its output: a lossy picture's YUV planes over whole
/// macroblocks (1.5 bytes a pixel) and its alpha plane; a lossless picture without alpha is
/// decoded as RGBA and then copied; an animation's canvas and frame are RGBA each.
fn webp_buffers<R: Read + Seek>(
    reader: &mut R,
    (width, height): (u32, u32),
    alpha: bool,
) -> std::io::Result<u64> {
    let pixels = u64::from(width) * u64::from(height);
    let macroblocks = u64::from(width.div_ceil(16)) * u64::from(height.div_ceil(16));
    let lossy = macroblocks * 256 * 3 / 2 + if alpha { pixels } else { 0 };
    let lossless = if alpha { 0 } else { 4 * pixels };
    Ok(match webp_kind(reader)? {
        Some(WebpKind::Lossy) => lossy,
        Some(WebpKind::Lossless) => lossless,
        Some(WebpKind::Animated) => 8 * pixels + lossy.max(lossless),
        None => lossy.max(lossless),
    })
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum WebpKind {
    Lossy,
    Lossless,
    Animated,
}

/// The kind of WebP, from its chunks (`VP8 `, `VP8L`, or `VP8X` flags and the chunks after
/// it); `None` when no image chunk is found among the first ones.
fn webp_kind<R: Read + Seek>(reader: &mut R) -> std::io::Result<Option<WebpKind>> {
    let mut at = 12u64;
    for _ in 0..64 {
        reader.seek(SeekFrom::Start(at))?;
        let mut header = [0u8; 9];
        reader.read_exact(&mut header)?;
        let size = u32::from_le_bytes([header[4], header[5], header[6], header[7]]);
        match &header[..4] {
            b"VP8 " => return Ok(Some(WebpKind::Lossy)),
            b"VP8L" => return Ok(Some(WebpKind::Lossless)),
            b"ANMF" => return Ok(Some(WebpKind::Animated)),
            // The animation flag of the extended header (its first byte after the size).
            b"VP8X" if header[8] & 0x02 != 0 => return Ok(Some(WebpKind::Animated)),
            _ => {}
        }
        at += 8 + u64::from(size) + u64::from(size % 2);
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    const MEGA: u64 = 1_000_000;

    #[test]
    fn the_shrink_factor_is_the_smallest_that_fits() {
        assert_eq!(shrink_factor(100, 100), 1);
        assert_eq!(shrink_factor(101, 100), 2);
        assert_eq!(shrink_factor(99_980_001, 40_000_000), 2);
    }

    #[test]
    fn the_planes_and_what_follows_are_counted_and_the_larger_moment_is_the_peak() {
        let limits = Limits::default();
        let rgb = Cost {
            fixed: 3 * MEGA,
            moves: true,
        };
        // Handed over as the colour plane: the peak is the RGB plane and its encoded output.
        let opaque = plan((1000, 1000), rgb, false, 0, &limits).unwrap();
        assert_eq!((opaque.shrink, opaque.peak_bytes), (1, 6 * MEGA));
        let rgba = Cost {
            fixed: 4 * MEGA,
            moves: false,
        };
        let clear = plan((1000, 1000), rgba, true, 0, &limits).unwrap();
        assert_eq!(clear.peak_bytes, 12 * MEGA);
        // A progressive JPEG's coefficients make the decoding the larger moment.
        let coefficients = Cost {
            fixed: 9 * MEGA,
            moves: true,
        };
        let progressive = plan((1000, 1000), coefficients, false, 2 * MEGA, &limits).unwrap();
        assert_eq!(progressive.peak_bytes, 11 * MEGA);
    }

    #[test]
    fn a_picture_is_read_smaller_to_fit_and_refused_when_its_decoder_alone_is_over() {
        let limits = Limits {
            max_bytes: 5 * MEGA,
            ..Limits::default()
        };
        let streamed = Cost {
            fixed: 0,
            moves: false,
        };
        let fitted = plan((1000, 1000), streamed, false, 0, &limits).unwrap();
        assert_eq!(fitted.shrink, 2);
        assert!(fitted.peak_bytes <= limits.max_bytes);
        let whole = Cost {
            fixed: 6 * MEGA,
            moves: true,
        };
        assert_eq!(plan((1000, 1000), whole, false, 0, &limits), Err(6 * MEGA));
    }

    #[test]
    fn a_progressive_jpegs_frame_is_told_from_a_baseline_one() {
        let picture = image::RgbImage::from_pixel(40, 24, image::Rgb([200, 10, 10]));
        let mut bytes = std::io::Cursor::new(Vec::new());
        picture.write_to(&mut bytes, ImageFormat::Jpeg).unwrap();
        let frame = jpeg_frame(&mut bytes).unwrap().unwrap();
        assert!(!frame.progressive);
        assert_eq!(jpeg_coefficients(&mut bytes, (40, 24)).unwrap(), 0);
        // A progressive frame (SOF2) of 16 x 16, luma 2x2 and two chroma 1x1 (4:2:0), after
        // an APP0 segment: one MCU of 16 x 16, 256 + 64 + 64 samples of 2 bytes.
        let mut sof2 = vec![
            0xFF, 0xD8, 0xFF, 0xE0, 0, 4, 0, 0, 0xFF, 0xC2, 0, 17, 8, 0, 16, 0, 16, 3,
        ];
        sof2.extend_from_slice(&[1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
        let mut sof2 = std::io::Cursor::new(sof2);
        assert_eq!(jpeg_coefficients(&mut sof2, (16, 16)).unwrap(), 2 * 384);
    }
}
