//! Encode: write the solved picture, format from the output's extension, atomically (a
//! temporary file in the same folder, renamed into place), never over the input.

use std::io::{BufWriter, Write};
use std::path::Path;

use image::codecs::jpeg::JpegEncoder;
use image::{ImageFormat, RgbImage};

use crate::error::{Error, Result};

/// The image format for `path`'s extension (png, jpg/jpeg, webp, bmp), if supported.
pub fn format_for(path: &Path) -> Option<ImageFormat> {
    let ext = path.extension()?.to_str()?.to_ascii_lowercase();
    match ext.as_str() {
        "png" => Some(ImageFormat::Png),
        "jpg" | "jpeg" => Some(ImageFormat::Jpeg),
        "webp" => Some(ImageFormat::WebP),
        "bmp" => Some(ImageFormat::Bmp),
        _ => None,
    }
}

/// Refuses an output path that is (or links to) the input.
pub fn check_not_input(input: &Path, output: &Path) -> Result<()> {
    let same = match (input.canonicalize(), output.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => input == output,
    };
    if same {
        return Err(Error::OutputIsInput {
            path: output.to_path_buf(),
        });
    }
    Ok(())
}

/// Encodes `image` in memory in `format`.
pub fn encode(image: &RgbImage, format: ImageFormat, jpeg_quality: u8) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    match format {
        ImageFormat::Jpeg => JpegEncoder::new_with_quality(&mut bytes, jpeg_quality.clamp(1, 100))
            .encode_image(image)
            .map_err(|e| e.to_string())?,
        other => image
            .write_to(&mut std::io::Cursor::new(&mut bytes), other)
            .map_err(|e| e.to_string())?,
    }
    Ok(bytes)
}

/// Writes `image` to `path` atomically: a reader sees the old file or the whole new one,
/// never half of it, and an interrupted run leaves no partial file behind.
pub fn write_atomic(image: &RgbImage, path: &Path, jpeg_quality: u8) -> Result<()> {
    let fail = |reason: String| Error::Encode {
        path: path.to_path_buf(),
        reason,
    };
    let format = format_for(path)
        .ok_or_else(|| fail("unknown output extension (use .png, .jpg, .webp or .bmp)".into()))?;
    let bytes = encode(image, format, jpeg_quality).map_err(fail)?;
    write_bytes_atomic(&bytes, path)
}

/// Writes `bytes` to `path` through a temporary file in the same folder and a rename.
pub fn write_bytes_atomic(bytes: &[u8], path: &Path) -> Result<()> {
    let fail = |reason: String| Error::Encode {
        path: path.to_path_buf(),
        reason,
    };
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let tmp = tempfile::Builder::new()
        .prefix(".sudoku-snap-")
        .suffix(".tmp")
        .tempfile_in(dir)
        .map_err(|e| fail(e.to_string()))?;
    {
        let mut w = BufWriter::new(tmp.as_file());
        w.write_all(bytes).map_err(|e| fail(e.to_string()))?;
        w.flush().map_err(|e| fail(e.to_string()))?;
    }
    tmp.as_file().sync_all().map_err(|e| fail(e.to_string()))?;
    tmp.persist(path).map_err(|e| fail(e.error.to_string()))?;
    Ok(())
}
