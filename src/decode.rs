//! Decode: a path or bytes -> an RGB image, upright (EXIF orientation applied), with the
//! declared size checked against a pixel limit before any pixel is decoded.

use std::io::Cursor;
use std::path::Path;

use image::{DynamicImage, ImageDecoder, ImageFormat, ImageReader, Limits, RgbImage};

use crate::error::{Error, Result};

/// Reads and decodes the image at `path`.
pub fn decode_file(path: &Path, max_pixels: u64) -> Result<RgbImage> {
    let bytes = std::fs::read(path).map_err(|source| Error::Io {
        path: path.to_path_buf(),
        source,
    })?;
    decode_bytes(&bytes, path, max_pixels)
}

/// Decodes an encoded image held in memory; `path` only names it in errors.
pub fn decode_bytes(bytes: &[u8], path: &Path, max_pixels: u64) -> Result<RgbImage> {
    let fail = |reason: String| Error::Decode {
        path: path.to_path_buf(),
        reason,
    };
    if bytes.is_empty() {
        return Err(fail("the file is empty".into()));
    }
    let reader = ImageReader::new(Cursor::new(bytes))
        .with_guessed_format()
        .map_err(|e| fail(e.to_string()))?;
    if reader.format().is_none() {
        return Err(fail(
            "unknown format (expected PNG, JPEG, WebP, BMP or GIF)".into(),
        ));
    }
    if reader.format() == Some(ImageFormat::Jpeg) && !has_jpeg_end(bytes) {
        // The JPEG decoder fills a cut-off picture with grey instead of failing.
        return Err(fail("truncated JPEG (no end-of-image marker)".into()));
    }
    let too_large = |(width, height): (u32, u32)| {
        (u64::from(width) * u64::from(height) > max_pixels).then(|| Error::TooLarge {
            path: path.to_path_buf(),
            width,
            height,
            limit: max_pixels,
        })
    };
    // The PNG decoder reads up to the first data chunk before it tells the size, so a bomb
    // cut after its header would pass as "unexpected end of file": read IHDR ourselves.
    if let Some(e) = png_declared_size(bytes).and_then(too_large) {
        return Err(e);
    }
    let mut decoder = reader.into_decoder().map_err(|e| fail(e.to_string()))?;
    if let Some(e) = too_large(decoder.dimensions()) {
        return Err(e);
    }
    let mut limits = Limits::default();
    // RGBA at 4 bytes a pixel plus the decoder's own buffers.
    limits.max_alloc = Some(max_pixels.saturating_mul(8));
    decoder
        .set_limits(limits)
        .map_err(|e| fail(e.to_string()))?;
    let orientation = decoder.orientation().ok();
    let mut image = DynamicImage::from_decoder(decoder).map_err(|e| fail(e.to_string()))?;
    if let Some(o) = orientation {
        image.apply_orientation(o);
    }
    Ok(image.into_rgb8())
}

/// Width and height from a PNG's IHDR chunk, which must come first (PNG spec 5.6): the
/// 8-byte signature, the chunk length and type (8 bytes), then width and height.
fn png_declared_size(bytes: &[u8]) -> Option<(u32, u32)> {
    if bytes.len() < 24 || !bytes.starts_with(b"\x89PNG\r\n\x1a\n") || &bytes[12..16] != b"IHDR" {
        return None;
    }
    let be = |i: usize| u32::from_be_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
    Some((be(16), be(20)))
}

/// Whether a JPEG's bytes hold an end-of-image marker (FF D9) after the first start-of-scan
/// (FF DA). Entropy-coded data never holds FF D9 (an FF there is followed by 00 or a restart
/// marker), so a cut-off file lacks it. An EXIF thumbnail's own markers can hide a cut in the
/// main picture; that case still decodes to a partly grey picture.
fn has_jpeg_end(bytes: &[u8]) -> bool {
    let Some(sos) = bytes.windows(2).position(|w| w == [0xFF, 0xDA]) else {
        return false;
    };
    bytes[sos..].windows(2).any(|w| w == [0xFF, 0xD9])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_and_garbage_are_clear_errors() {
        let p = Path::new("x.png");
        let e = decode_bytes(b"", p, 1000).unwrap_err();
        assert!(e
            .to_string()
            .contains("x.png: not a readable image: the file is empty"));
        let e = decode_bytes(b"hello, I am text", p, 1000).unwrap_err();
        assert!(e.to_string().contains("unknown format"), "{e}");
    }

    #[test]
    fn huge_declared_size_is_refused_before_decoding() {
        // A PNG header declaring 50,000 x 50,000 pixels and nothing else.
        let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
        png.extend_from_slice(&50_000u32.to_be_bytes());
        png.extend_from_slice(&50_000u32.to_be_bytes());
        png.extend_from_slice(&[8, 2, 0, 0, 0]);
        let crc = 0u32; // wrong on purpose: the size check must come first
        png.extend_from_slice(&crc.to_be_bytes());
        let e = decode_bytes(&png, Path::new("bomb.png"), 100_000_000).unwrap_err();
        assert!(
            matches!(e, Error::TooLarge { width: 50_000, .. })
                || e.to_string().contains("bomb.png"),
            "{e}"
        );
    }
}
