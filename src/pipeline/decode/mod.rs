//! Decode: a path or bytes -> a [`Picture`] (RGB with any transparency laid over white, and
//! the alpha plane kept beside when there is some), upright (EXIF orientation applied),
//! within limits set before any pixel is decoded: a declared-size limit in pixels, a byte
//! limit on the picture's peak memory (each decoder's own buffers counted: a progressive
//! JPEG's coefficients, a GIF's frame, 16-bit samples, alpha), and a working size above which
//! the picture is scaled down (PNG row by row while decoding, so a huge PNG never sits in
//! memory whole). A picture over the byte limit is read smaller when that fits, else refused.
//! A [`MemoryBudget`] shared by concurrent decodes keeps a batch's memory flat in the number
//! of threads. Only regular files are opened: a FIFO would block forever.
//!
//! This file owns the limits, the checks made from the header and the choice of decoding
//! path; `peak` counts a picture's peak memory from its header and picks the scale, `rows`
//! reads PNG row by row and scales pictures down, `budget` holds the shared memory budget.

mod budget;
mod peak;
mod rows;

use std::fs::File;
use std::io::{BufRead, BufReader, Cursor, Read, Seek, SeekFrom};
use std::path::Path;

use image::metadata::Orientation;
use image::{DynamicImage, ImageDecoder, ImageError, ImageFormat, ImageReader};

pub use budget::{MemoryBudget, Reservation};
use peak::{whole_cost, Cost, Plan};
use rows::{planes_of, png_rows_scaled};

use crate::error::{DecodeCause, Error, Result};
use crate::pipeline::picture::Picture;

/// What decoding one picture may cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Pictures declaring more pixels than this are refused before decoding.
    /// Default: 100 million.
    pub max_pixels: u64,
    /// Bytes one picture may take at its peak: the decoder's output in its own layout (a
    /// 16-bit RGBA pixel is 8 bytes) and its working buffers, the planes the picture is
    /// split into and what the pipeline holds after. A picture over it is scaled down
    /// further when that fits (PNG read row by row, other formats after decoding whole),
    /// and refused when its decoder alone is over. Default: 200 MiB.
    pub max_bytes: u64,
    /// Pictures with more pixels are scaled down by a whole factor to at most this many, the
    /// answer drawn on the smaller picture. Default: 40 million (a 7,700 x 5,200 photo).
    pub working_pixels: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_pixels: 100_000_000,
            max_bytes: 200 << 20,
            working_pixels: 40_000_000,
        }
    }
}

/// Reads and decodes the image at `path`, refusing more than `max_pixels` declared pixels.
pub fn decode_file(path: &Path, max_pixels: u64) -> Result<Picture> {
    let limits = Limits {
        max_pixels,
        ..Limits::default()
    };
    decode_file_within(path, &limits, &MemoryBudget::unlimited()).map(|(image, _)| image)
}

/// Decodes an encoded image held in memory; `path` only names it in errors.
pub fn decode_bytes(bytes: &[u8], path: &Path, max_pixels: u64) -> Result<Picture> {
    let limits = Limits {
        max_pixels,
        ..Limits::default()
    };
    let budget = MemoryBudget::unlimited();
    decode_from(Cursor::new(bytes), path, &limits, &budget, 0).map(|(image, _)| image)
}

/// Reads and decodes the image at `path` within `limits`, first reserving from `budget` the
/// memory it will need; the reservation is returned with the picture and lasts as long as
/// the caller keeps it (the picture's whole trip through the pipeline).
pub fn decode_file_within<'b>(
    path: &Path,
    limits: &Limits,
    budget: &'b MemoryBudget,
) -> Result<(Picture, Reservation<'b>)> {
    let file = open_regular(path)?;
    decode_from(BufReader::new(file), path, limits, budget, 0)
}

/// `decode_file_within` for an encoded image held in memory (a pipe, an upload); `path`
/// only names it in errors.
pub fn decode_bytes_within<'b>(
    bytes: &[u8],
    path: &Path,
    limits: &Limits,
    budget: &'b MemoryBudget,
) -> Result<(Picture, Reservation<'b>)> {
    decode_from(Cursor::new(bytes), path, limits, budget, bytes.len() as u64)
}

/// Opens `path` for reading if it is a regular file (after following links); anything else
/// is an error naming what it is, before it is opened, since opening a FIFO blocks.
pub fn open_regular(path: &Path) -> Result<File> {
    let io_error = |source| Error::Io {
        path: path.to_path_buf(),
        source,
    };
    let not_regular = |meta: &std::fs::Metadata| {
        (!meta.is_file()).then(|| Error::NotAFile {
            path: path.to_path_buf(),
            kind: file_kind(meta),
        })
    };
    let meta = std::fs::metadata(path).map_err(io_error)?;
    if let Some(e) = not_regular(&meta) {
        return Err(e);
    }
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        // Should the path be swapped for a FIFO after the check, the open must not block.
        use std::os::unix::fs::OpenOptionsExt;
        const O_NONBLOCK: i32 = 0o4000;
        options.custom_flags(if cfg!(target_os = "linux") {
            O_NONBLOCK
        } else {
            0
        });
    }
    let file = options.open(path).map_err(io_error)?;
    let meta = file.metadata().map_err(io_error)?;
    match not_regular(&meta) {
        Some(e) => Err(e),
        None => Ok(file),
    }
}

/// What a file system object that is not a regular file is, in words.
pub fn file_kind(meta: &std::fs::Metadata) -> &'static str {
    let kind = meta.file_type();
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a named pipe (FIFO)";
        }
        if kind.is_socket() {
            return "a socket";
        }
        if kind.is_block_device() || kind.is_char_device() {
            return "a device";
        }
    }
    if kind.is_dir() {
        "a folder"
    } else if kind.is_file() {
        "a file"
    } else {
        "not a regular file"
    }
}

fn decode_from<'b, R: BufRead + Seek>(
    mut reader: R,
    path: &Path,
    limits: &Limits,
    budget: &'b MemoryBudget,
    held: u64,
) -> Result<(Picture, Reservation<'b>)> {
    let fail = |reason: String| Error::Decode {
        path: path.to_path_buf(),
        reason,
        source: None,
    };
    let read_failed = |e: std::io::Error| caused(path, describe_io(&e), e.into());
    let head = read_head(&mut reader).map_err(read_failed)?;
    if head.is_empty() {
        return Err(fail("the file is empty".into()));
    }
    let format = image::guess_format(&head)
        .ok()
        .filter(|f| {
            matches!(
                f,
                ImageFormat::Png
                    | ImageFormat::Jpeg
                    | ImageFormat::WebP
                    | ImageFormat::Bmp
                    | ImageFormat::Gif
            )
        })
        .ok_or_else(|| fail("unknown format (expected PNG, JPEG, WebP, BMP or GIF)".into()))?;
    // The PNG decoder reads up to the first data chunk before it tells the size, so a bomb
    // cut after its header would pass as "unexpected end of file": read IHDR ourselves.
    if let Some(e) = png_declared_size(&head).and_then(|size| too_large(path, size, limits)) {
        return Err(e);
    }
    if format == ImageFormat::Jpeg && !has_jpeg_end(&mut reader).map_err(read_failed)? {
        // The JPEG decoder fills a cut-off picture with grey instead of failing.
        return Err(fail("the JPEG is cut off (no end-of-image marker)".into()));
    }
    reader.seek(SeekFrom::Start(0)).map_err(read_failed)?;
    let job = Job {
        path,
        limits,
        budget,
        held,
    };
    if format == ImageFormat::Png {
        job.png(reader)
    } else {
        job.whole(reader, format)
    }
}

/// One picture to decode: its name, the limits and the budget, and the encoded bytes the
/// caller holds in memory beside it (0 for a file).
struct Job<'a, 'b> {
    path: &'a Path,
    limits: &'a Limits,
    budget: &'b MemoryBudget,
    held: u64,
}

impl<'b> Job<'_, 'b> {
    /// A PNG through the `png` crate, row by row: its ICC profile and text chunks are skipped
    /// unread (one can inflate to gigabytes), and what else it keeps (EXIF) is held within
    /// [`METADATA_BYTES`].
    fn png<R: BufRead + Seek>(&self, reader: R) -> Result<(Picture, Reservation<'b>)> {
        let failed = |e: png::DecodingError| caused(self.path, describe_png(&e), e.into());
        let mut decoder = png::Decoder::new_with_limits(
            reader,
            png::Limits {
                bytes: METADATA_BYTES,
            },
        );
        decoder.set_ignore_iccp_chunk(true);
        decoder.set_ignore_text_chunk(true);
        decoder.set_transformations(png::Transformations::normalize_to_color8());
        let png = decoder.read_info().map_err(failed)?;
        let info = png.info();
        let size = (info.width, info.height);
        if let Some(e) = too_large(self.path, size, self.limits) {
            return Err(e);
        }
        let channels = png.output_color_type().0.samples() as u64;
        let pixels = u64::from(info.width) * u64::from(info.height);
        // A decoded row, the raw and previous rows it is unfiltered from (up to 8 bytes a
        // pixel each), the colour and alpha rows and the filter's sums; interlaced, the
        // whole 8-bit picture.
        let rows = u64::from(info.width) * (channels + 2 * 8 + 4 + 4 * 4);
        let fixed = if info.interlaced {
            channels * pixels
        } else {
            0
        };
        let cost = Cost {
            fixed: rows + fixed,
            moves: false,
        };
        let alpha = channels == 2 || channels == 4;
        let orientation = info
            .exif_metadata
            .as_deref()
            .and_then(Orientation::from_exif_chunk);
        let (plan, reservation) = self.reserve(size, cost, alpha)?;
        let picture = png_rows_scaled(png, &plan).map_err(failed)?;
        Ok((upright(picture, orientation), reservation))
    }

    /// A picture the `image` crate decodes whole, its decoder's buffers counted from the
    /// header (see [`peak`]).
    fn whole<R: BufRead + Seek>(
        &self,
        mut reader: R,
        format: ImageFormat,
    ) -> Result<(Picture, Reservation<'b>)> {
        let image_failed = |e: ImageError| caused(self.path, describe(&e), e.into());
        let read_failed = |e: std::io::Error| caused(self.path, describe_io(&e), e.into());
        let mut io_limits = image::Limits::default();
        io_limits.max_alloc = Some(self.limits.max_bytes);
        let mut image_reader = ImageReader::with_format(&mut reader, format);
        image_reader.limits(io_limits.clone());
        let mut decoder = image_reader.into_decoder().map_err(image_failed)?;
        let size = decoder.dimensions();
        if let Some(e) = too_large(self.path, size, self.limits) {
            return Err(e);
        }
        let colour = decoder.color_type();
        let rgb8 = colour == image::ColorType::Rgb8;
        let decoded = decoder.total_bytes();
        let orientation = decoder.orientation().ok();
        // The header is read again after the reservation: holding the decoder while waiting
        // for the budget would hold what it read.
        drop(decoder);
        let cost = whole_cost(&mut reader, format, size, decoded, rgb8).map_err(read_failed)?;
        let (plan, reservation) = self.reserve(size, cost, colour.has_alpha())?;
        reader.seek(SeekFrom::Start(0)).map_err(read_failed)?;
        let mut image_reader = ImageReader::with_format(&mut reader, format);
        image_reader.limits(io_limits);
        let decoder = image_reader.into_decoder().map_err(image_failed)?;
        let image = DynamicImage::from_decoder(decoder).map_err(image_failed)?;
        Ok((
            upright(planes_of(image, plan.shrink), orientation),
            reservation,
        ))
    }

    /// The plan for a picture of `size` costing `cost`, and its bytes reserved from the
    /// budget; refused when no scale brings it within the limit.
    fn reserve(
        &self,
        size: (u32, u32),
        cost: Cost,
        alpha: bool,
    ) -> Result<(Plan, Reservation<'b>)> {
        let plan = peak::plan(size, cost, alpha, self.held, self.limits).map_err(|needed| {
            Error::TooMuchMemory {
                path: self.path.to_path_buf(),
                needed,
                limit: self.limits.max_bytes,
            }
        })?;
        Ok((plan, self.budget.reserve(plan.peak_bytes)))
    }
}

/// Bytes the PNG decoder may hold beside the pixels: chunks it keeps whole (EXIF), its
/// row buffers. A legitimate screenshot's metadata is a few kilobytes.
const METADATA_BYTES: usize = 16 << 20;

/// A decode error naming the file, with people's sentence and the decoder's own cause (the
/// decoders' words name their internals: people get our sentence, callers the cause).
fn caused(path: &Path, reason: String, cause: DecodeCause) -> Error {
    Error::Decode {
        path: path.to_path_buf(),
        reason,
        source: Some(cause),
    }
}

/// The refusal of a picture declaring more than `limits.max_pixels`.
fn too_large(path: &Path, (width, height): (u32, u32), limits: &Limits) -> Option<Error> {
    (u64::from(width) * u64::from(height) > limits.max_pixels).then(|| Error::TooLarge {
        path: path.to_path_buf(),
        width,
        height,
        limit: limits.max_pixels,
    })
}

fn upright(picture: Picture, orientation: Option<Orientation>) -> Picture {
    match orientation {
        None | Some(Orientation::NoTransforms) => picture,
        Some(o) => {
            let (rgb, alpha) = picture.into_parts();
            let mut rgb = DynamicImage::ImageRgb8(rgb);
            rgb.apply_orientation(o);
            let alpha = alpha.map(|alpha| {
                let mut alpha = DynamicImage::ImageLuma8(alpha);
                alpha.apply_orientation(o);
                alpha.into_luma8()
            });
            Picture::from_parts(rgb.into_rgb8(), alpha)
        }
    }
}

/// The first bytes of the file (fewer when it is shorter), for guessing its format.
fn read_head(reader: &mut impl Read) -> std::io::Result<Vec<u8>> {
    let mut head = Vec::with_capacity(32);
    reader.take(32).read_to_end(&mut head)?;
    Ok(head)
}

/// A decoder's error as a sentence for people: what is wrong with the file, without the
/// decoder's internal names.
fn describe(error: &ImageError) -> String {
    match error {
        ImageError::IoError(e) => describe_io(e),
        ImageError::Limits(_) => "it needs more memory to decode than allowed".into(),
        ImageError::Unsupported(e) => format!("it uses a feature we cannot read ({e})"),
        ImageError::Decoding(e) => describe_damage(&e.to_string()),
        other => describe_damage(&other.to_string()),
    }
}

fn describe_png(error: &png::DecodingError) -> String {
    match error {
        png::DecodingError::IoError(e) => describe_io(e),
        png::DecodingError::LimitsExceeded => "it needs more memory to decode than allowed".into(),
        other => describe_damage(&other.to_string()),
    }
}

fn describe_io(error: &std::io::Error) -> String {
    match error.kind() {
        std::io::ErrorKind::UnexpectedEof => "the file is cut off (it ends too early)".into(),
        _ => format!("the file cannot be read ({error})"),
    }
}

/// A decoder's message about damaged data, with its debug-printed internals (PNG chunk types
/// such as `ChunkType { type: IDAT, critical: true, .. }`) reduced to their names.
fn describe_damage(message: &str) -> String {
    if message.contains("CRC error") {
        let chunk = chunk_name(message)
            .map(|c| format!(" in its {c} chunk"))
            .unwrap_or_default();
        return format!("the file is damaged: a checksum does not match{chunk}");
    }
    let mut cleaned = String::with_capacity(message.len());
    let mut rest = message;
    while let Some(at) = rest.find("ChunkType {") {
        cleaned.push_str(&rest[..at]);
        let end = rest[at..].find('}').map_or(rest.len(), |e| at + e + 1);
        cleaned.push_str(chunk_name(&rest[at..end]).unwrap_or("a"));
        rest = &rest[end..];
    }
    cleaned.push_str(rest);
    format!("the file is damaged ({})", cleaned.trim_end_matches('.'))
}

/// The four-letter chunk type inside a debug-printed `ChunkType { type: IDAT, .. }`.
fn chunk_name(message: &str) -> Option<&str> {
    let after = &message[message.find("type: ")? + 6..];
    let name = after.get(..4)?;
    name.chars()
        .all(|c| c.is_ascii_alphabetic())
        .then_some(name)
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

/// Whether a JPEG holds an end-of-image marker (FF D9) after its first start-of-scan
/// (FF DA), read in blocks. Entropy-coded data never holds FF D9 (an FF there is followed by
/// 00 or a restart marker), so a cut-off file lacks it. An EXIF thumbnail's own markers can
/// hide a cut in the main picture; that case still decodes to a partly grey picture.
fn has_jpeg_end(reader: &mut impl Read) -> std::io::Result<bool> {
    let mut block = [0u8; 64 * 1024];
    let mut previous = 0u8;
    let mut in_scan = false;
    loop {
        let n = match reader.read(&mut block) {
            Ok(0) => return Ok(false),
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        for &byte in &block[..n] {
            if previous == 0xFF {
                match byte {
                    0xDA => in_scan = true,
                    0xD9 if in_scan => return Ok(true),
                    _ => {}
                }
            }
            previous = byte;
        }
    }
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
        // Refused for its declared size, not as the cut-off file it also is.
        assert!(
            matches!(
                &e,
                Error::TooLarge {
                    path,
                    width: 50_000,
                    height: 50_000,
                    limit: 100_000_000,
                } if path.as_path() == Path::new("bomb.png")
            ),
            "{e}"
        );
    }

    #[test]
    fn a_cut_off_png_is_told_as_cut_off_and_keeps_the_readers_error() {
        let picture = image::RgbImage::from_fn(64, 64, |x, y| {
            image::Rgb([((x * 7) ^ (y * 13)) as u8, 0, 0])
        });
        let mut bytes = Cursor::new(Vec::new());
        picture.write_to(&mut bytes, ImageFormat::Png).unwrap();
        let cut = &bytes.get_ref()[..bytes.get_ref().len() / 2];
        let e = decode_bytes(cut, Path::new("cut.png"), 10_000).unwrap_err();
        let Error::Decode {
            reason,
            source: Some(cause),
            ..
        } = &e
        else {
            panic!("not a decode error with a cause: {e:?}");
        };
        assert_eq!(reason, "the file is cut off (it ends too early)");
        // Every PNG is read by the png crate (its ancillary chunks skipped), so the cause is its.
        assert!(
            matches!(cause, DecodeCause::Png(png::DecodingError::IoError(io))
                if io.kind() == std::io::ErrorKind::UnexpectedEof),
            "{cause:?}"
        );
    }

    #[test]
    fn transparency_is_laid_over_white() {
        // A transparent picture whose hidden colour is black, one opaque black pixel and one
        // half-covered one: read as a viewer shows them, not as a black page.
        let mut rgba = image::RgbaImage::from_pixel(4, 2, image::Rgba([0, 0, 0, 0]));
        rgba.put_pixel(1, 0, image::Rgba([0, 0, 0, 255]));
        rgba.put_pixel(2, 1, image::Rgba([0, 0, 0, 128]));
        for format in [ImageFormat::Png, ImageFormat::WebP] {
            let mut bytes = Cursor::new(Vec::new());
            rgba.write_to(&mut bytes, format).unwrap();
            let picture = decode_bytes(bytes.get_ref(), Path::new("a.png"), 1000).unwrap();
            let rgb = picture.rgb();
            assert_eq!(rgb.get_pixel(0, 0).0, [255, 255, 255], "{format:?}");
            assert_eq!(rgb.get_pixel(1, 0).0, [0, 0, 0], "{format:?}");
            assert_eq!(rgb.get_pixel(2, 1).0, [127, 127, 127], "{format:?}");
        }
    }

    fn encoded(image: impl Into<DynamicImage>, format: ImageFormat) -> Vec<u8> {
        let mut bytes = Cursor::new(Vec::new());
        image.into().write_to(&mut bytes, format).unwrap();
        bytes.into_inner()
    }

    #[test]
    fn the_alpha_plane_is_kept_beside_the_colours() {
        let rgba =
            image::RgbaImage::from_fn(5, 3, |x, y| image::Rgba([0, 100, 200, (x * 60 + y) as u8]));
        let alpha = image::GrayImage::from_fn(5, 3, |x, y| image::Luma([rgba.get_pixel(x, y)[3]]));
        for format in [ImageFormat::Png, ImageFormat::WebP] {
            let bytes = encoded(rgba.clone(), format);
            let picture = decode_bytes(&bytes, Path::new("a"), 1000).unwrap();
            assert_eq!(picture.alpha(), Some(&alpha), "{format:?}");
        }
        // Nothing transparent, nothing kept: written like a picture without alpha.
        let opaque = image::RgbaImage::from_pixel(5, 3, image::Rgba([9, 9, 9, 255]));
        let picture = decode_bytes(&encoded(opaque, ImageFormat::Png), Path::new("a"), 1000);
        assert_eq!(picture.unwrap().alpha(), None);
        let rgb = image::RgbImage::from_pixel(5, 3, image::Rgb([9, 9, 9]));
        let picture = decode_bytes(&encoded(rgb, ImageFormat::Png), Path::new("a"), 1000);
        assert_eq!(picture.unwrap().alpha(), None);
    }

    #[test]
    fn a_png_read_row_by_row_keeps_its_alpha_scaled_down() {
        // Left half transparent, right half opaque black; halved, the middle column is half
        // of each. A grey+alpha PNG with an odd width, so the rows' layout is exercised too.
        let la = image::GrayAlphaImage::from_fn(7, 4, |x, _| {
            image::LumaA(if x < 3 { [0, 0] } else { [0, 255] })
        });
        let limits = Limits {
            working_pixels: 8,
            ..Limits::default()
        };
        let budget = MemoryBudget::unlimited();
        let bytes = encoded(la, ImageFormat::Png);
        let (picture, _) = decode_bytes_within(&bytes, Path::new("a"), &limits, &budget).unwrap();
        assert_eq!(picture.dimensions(), (4, 2));
        let alpha = picture.alpha().expect("alpha kept");
        let row: Vec<u8> = (0..4).map(|x| alpha.get_pixel(x, 1)[0]).collect();
        assert_eq!(row, [0, 128, 255, 255]);
        let grey: Vec<u8> = (0..4).map(|x| picture.rgb().get_pixel(x, 1)[0]).collect();
        assert_eq!(grey, [255, 128, 0, 0]);
    }

    #[test]
    fn decoder_internals_become_words() {
        let crc = "CRC error: expected 0x1 have 0x2 while decoding ChunkType { type: IDAT, critical: true, private: false, reserved: false, safecopy: false } chunk.";
        assert_eq!(
            describe_damage(crc),
            "the file is damaged: a checksum does not match in its IDAT chunk"
        );
        let other = "Invalid ChunkType { type: tEXt, critical: false } length.";
        assert_eq!(
            describe_damage(other),
            "the file is damaged (Invalid tEXt length)"
        );
    }
}
