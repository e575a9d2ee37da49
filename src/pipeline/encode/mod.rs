//! Encode: write the solved picture, format from the output's extension, atomically (a
//! temporary file in the same folder, renamed into place), never over the input. A picture
//! with transparent parts is written with its alpha in PNG and WebP; JPEG has no alpha and
//! BMP's is ignored by many viewers, so those get the colours as shown over white.

use std::io::{BufWriter, Write};
use std::path::Path;

use image::codecs::jpeg::JpegEncoder;
use image::codecs::webp::WebPEncoder;
use image::{ExtendedColorType, ImageEncoder, ImageFormat};

mod policy;
mod strips;

pub use policy::{
    check_folder, check_not_input, check_output, check_picture_target, check_suffix, Inputs,
};

use crate::error::{EncodeError, Error, Result};
use crate::pipeline::picture::Picture;

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

/// Encodes `picture` in memory in `format`: RGBA in PNG and WebP when it has transparent
/// parts, else RGB (see the module's introduction).
pub fn encode(
    picture: &Picture,
    format: ImageFormat,
    jpeg_quality: u8,
) -> Result<Vec<u8>, EncodeError> {
    let rgba = match format {
        ImageFormat::Png | ImageFormat::WebP => picture.to_rgba(),
        _ => None,
    };
    let (width, height) = picture.dimensions();
    let rgb = picture.rgb();
    let mut bytes = Vec::new();
    match (format, &rgba) {
        (ImageFormat::Jpeg, _) => {
            JpegEncoder::new_with_quality(&mut bytes, jpeg_quality.clamp(1, 100))
                .encode_image(rgb)?
        }
        // The encoder's default is fast compression, which gave back a 131 KB phone screenshot
        // as 242 KB (issue 12). Deflate through zlib-rs (picked in Cargo.toml) at level 2
        // with adaptive per-row filters: on samples/phone-1170x2532.png with the answer drawn,
        // 184.8 KB in 6.6 ms, against 236.8 KB in 4.2 ms for fast compression and 172.0 KB in
        // 22.8 ms for the miniz_oxide level 4 used before (best of 7 in one loop; four
        // smaller screenshots alike: 5-9 % larger than level 4 was, 20-25 % smaller than
        // fast, 3-4x faster than before). zlib-rs's levels 3-6 save 1-3 % more for 15-100 %
        // more time; its level 1 is larger than fast compression. Written in strips over the
        // thread pool (`strips`).
        (ImageFormat::Png, _) => {
            bytes = match &rgba {
                Some(rgba) => strips::png(rgba.as_raw(), width, height, 4)?,
                None => strips::png(rgb.as_raw(), width, height, 3)?,
            }
        }
        // Lossless, as `write_to` writes the RGB ones.
        (ImageFormat::WebP, Some(rgba)) => WebPEncoder::new_lossless(&mut bytes).write_image(
            rgba.as_raw(),
            width,
            height,
            ExtendedColorType::Rgba8,
        )?,
        (other, _) => rgb.write_to(&mut std::io::Cursor::new(&mut bytes), other)?,
    }
    Ok(bytes)
}

/// Writes `picture` to `path` atomically: a reader sees the old file or the whole new one,
/// never half of it, and an interrupted run leaves no partial file behind.
pub fn write_atomic(picture: &Picture, path: &Path, jpeg_quality: u8) -> Result<()> {
    write_atomic_to(picture, path, jpeg_quality, true)
}

/// [`write_atomic`], replacing an existing `path` only when `overwrite`; otherwise an
/// existing file (even one that appears while encoding) ends in [`Error::OutputExists`].
pub fn write_atomic_to(
    picture: &Picture,
    path: &Path,
    jpeg_quality: u8,
    overwrite: bool,
) -> Result<()> {
    let fail = |source: EncodeError| Error::Encode {
        path: path.to_path_buf(),
        source,
    };
    let format = format_for(path).ok_or_else(|| fail(EncodeError::UnknownExtension))?;
    let bytes = encode(picture, format, jpeg_quality).map_err(fail)?;
    write_bytes_atomic_to(&bytes, path, overwrite)
}

/// Writes `bytes` to `path` through a temporary file in the same folder and a rename.
pub fn write_bytes_atomic(bytes: &[u8], path: &Path) -> Result<()> {
    write_bytes_atomic_to(bytes, path, true)
}

/// [`write_bytes_atomic`], replacing an existing `path` only when `overwrite`.
pub fn write_bytes_atomic_to(bytes: &[u8], path: &Path, overwrite: bool) -> Result<()> {
    let fail = |source: std::io::Error| Error::Write {
        path: path.to_path_buf(),
        source,
    };
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let tmp = temp_file_in(dir).map_err(fail)?;
    {
        let mut w = BufWriter::new(tmp.as_file());
        w.write_all(bytes).map_err(fail)?;
        w.flush().map_err(fail)?;
    }
    tmp.as_file().sync_all().map_err(fail)?;
    // Checked before the work too; again here, as the name may have changed hands since.
    policy::check_kind(path)?;
    let persisted = if overwrite {
        tmp.persist(path)
    } else {
        tmp.persist_noclobber(path)
    };
    match persisted {
        Ok(_) => Ok(()),
        Err(e) if !overwrite && e.error.kind() == std::io::ErrorKind::AlreadyExists => {
            Err(Error::OutputExists {
                path: path.to_path_buf(),
            })
        }
        Err(e) => Err(fail(e.error)),
    }
}

/// The prefix of our temporary files; the process id after it tells a later run whether the
/// writer is still alive (see [`remove_stale_temps`]).
const TEMP_PREFIX: &str = ".sudoku-snap-";

/// A temporary file in `dir` named `.sudoku-snap-<pid>-<random>.tmp`, deleted on drop.
pub fn temp_file_in(dir: &Path) -> std::io::Result<tempfile::NamedTempFile> {
    let prefix = format!("{TEMP_PREFIX}{}-", std::process::id());
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp");
    // Temporary files are private (0600) by default; the finished picture should get the
    // ordinary permissions of a new file (0666 less the umask), as any other tool's output.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    builder.tempfile_in(dir)
}

/// Deletes, under `dir` (recursively), the temporary files a killed run of ours left behind:
/// those whose writing process is gone (or, where that cannot be told, older than a day).
/// Returns how many were removed; unreadable entries are passed over.
pub fn remove_stale_temps(dir: &Path) -> usize {
    remove_stale_temps_to(dir, usize::MAX)
}

/// [`remove_stale_temps`] in `dir` itself, not its sub-folders: for a folder that is not the
/// tool's own (the folder of `--report` or `-o FILE`, which may be a home folder).
pub fn remove_stale_temps_in(dir: &Path) -> usize {
    remove_stale_temps_to(dir, 1)
}

/// [`remove_stale_temps_in`] the folder of the output `path`.
pub fn remove_stale_temps_beside(path: &Path) -> usize {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    remove_stale_temps_in(dir)
}

fn remove_stale_temps_to(dir: &Path, depth: usize) -> usize {
    walkdir::WalkDir::new(dir)
        .max_depth(depth)
        .into_iter()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_file() && is_stale_temp(e.path()))
        .filter(|e| std::fs::remove_file(e.path()).is_ok())
        .count()
}

fn is_stale_temp(path: &Path) -> bool {
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
        return false;
    };
    let Some(rest) = name
        .strip_prefix(TEMP_PREFIX)
        .filter(|_| name.ends_with(".tmp"))
    else {
        return false;
    };
    let pid = rest.split('-').next().and_then(|p| p.parse::<u32>().ok());
    let proc_fs = Path::new("/proc/self");
    match pid {
        Some(pid) if pid == std::process::id() => false,
        // Linux: the writer is alive exactly when /proc/<pid> exists.
        Some(pid) if proc_fs.exists() => !Path::new(&format!("/proc/{pid}")).exists(),
        _ => std::fs::metadata(path)
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age.as_secs() > 24 * 3600),
    }
}
