//! PNG written in horizontal strips over the thread pool: each strip's rows are filtered and
//! deflated by a task of its own, and the pieces joined into the one zlib stream PNG holds
//! (the scheme of pigz, and of mtpng for PNG).
//!
//! Deflating is the slowest step of writing a phone screenshot (9 MB of pixels), and one
//! stream is inherently serial. A strip's deflate ends with a sync flush (an empty stored
//! block, which leaves the stream byte-aligned), so the next strip's bytes can follow it
//! directly; the Adler-32 checksums of the strips are combined into the whole stream's.
//! Strips are cut by size alone, so the bytes written do not depend on the number of
//! threads. A strip starts without the bytes before it to refer back to: giving it the last
//! 32 KiB as a dictionary saved 95 bytes of 189 KB on the phone sample, for as much time as
//! the strips had saved on one thread.
//!
//! Each row gets the filter whose output has the smallest sum of absolute values (as signed
//! bytes): the heuristic of the PNG specification, and the `png` crate's adaptive filter,
//! which gives no access to its filters on their own.

use flate2::{Compress, Compression, FlushCompress, Status};
use rayon::prelude::*;

use crate::error::EncodeError;

/// The deflate level, through zlib-rs (see `encode`: the best size for the time spent).
const LEVEL: u32 = 2;
/// About how many bytes of pixels one strip holds: enough for deflate's window to fill
/// (32 KiB) many times over, few enough to share a phone screenshot among a few threads.
const STRIP_BYTES: usize = 1 << 20;

/// A PNG of 8-bit `raw` pixels, `channels` per pixel (3: RGB, 4: RGBA), `width` x `height`.
pub(super) fn png(
    raw: &[u8],
    width: u32,
    height: u32,
    channels: usize,
) -> Result<Vec<u8>, EncodeError> {
    png_in_strips(raw, width, height, channels, STRIP_BYTES)
}

fn png_in_strips(
    raw: &[u8],
    width: u32,
    height: u32,
    channels: usize,
    strip_bytes: usize,
) -> Result<Vec<u8>, EncodeError> {
    let stride = width as usize * channels;
    let rows = height as usize;
    assert_eq!(raw.len(), stride * rows, "pixel buffer of the stated size");
    let colour = match channels {
        3 => png::ColorType::Rgb,
        4 => png::ColorType::Rgba,
        _ => unreachable!("RGB or RGBA"),
    };
    let data = zlib_stream(raw, (stride, rows), channels, strip_bytes)?;
    let mut bytes = Vec::with_capacity(data.len() + 128);
    let mut encoder = png::Encoder::new(&mut bytes, width, height);
    encoder.set_color(colour);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().map_err(png_error)?;
    writer
        .write_chunk(png::chunk::IDAT, &data)
        .map_err(png_error)?;
    writer.finish().map_err(png_error)?;
    Ok(bytes)
}

/// The `png` crate's failure as the I/O error it is (writing to memory, nothing else fails).
fn png_error(e: png::EncodingError) -> EncodeError {
    match e {
        png::EncodingError::IoError(e) => EncodeError::Image(image::ImageError::IoError(e)),
        other => io_error(other),
    }
}

/// One strip's share of the stream.
struct Piece {
    deflated: Vec<u8>,
    adler: u32,
    filtered_len: usize,
}

/// The zlib stream of the filtered rows of `raw` (`rows` rows of `stride` bytes).
fn zlib_stream(
    raw: &[u8],
    (stride, rows): (usize, usize),
    bpp: usize,
    strip_bytes: usize,
) -> Result<Vec<u8>, EncodeError> {
    let per_strip = (strip_bytes / stride.max(1)).max(1);
    let strips: Vec<(usize, usize)> = (0..rows.div_ceil(per_strip))
        .map(|k| (k * per_strip, ((k + 1) * per_strip).min(rows)))
        .collect();
    let last = strips.len().saturating_sub(1);
    // Each task keeps its compressor and row buffers from strip to strip: made fresh for
    // each, their memory would be new to the process every time, paid for in page faults.
    let pieces: Vec<Piece> = (strips.par_iter().enumerate())
        .map_init(
            || Deflater::new(stride),
            |deflater, (k, &(first, end))| {
                deflater.strip(raw, (stride, bpp), first..end, k == last)
            },
        )
        .collect::<Result<_, _>>()?;
    // zlib's header: deflate with a 32 KiB window, "fast" compression, checked by 31.
    let mut stream = vec![0x78, 0x5e];
    let mut adler = 1;
    for piece in &pieces {
        stream.extend_from_slice(&piece.deflated);
        adler = zlib_rs::adler32::adler32_combine(adler, piece.adler, piece.filtered_len as u64);
    }
    if pieces.is_empty() {
        // No rows: an empty final block.
        stream.extend_from_slice(&[0x03, 0x00]);
    }
    stream.extend_from_slice(&adler.to_be_bytes());
    Ok(stream)
}

/// Filtered bytes handed to the compressor at a time.
const FEED: usize = 64 << 10;

/// A compressor and the buffers of filtering, reused from strip to strip.
struct Deflater {
    compress: Compress,
    /// Filtered rows waiting for the compressor.
    filtered: Vec<u8>,
    trial: Vec<u8>,
    best: Vec<u8>,
    zeros: Vec<u8>,
}

impl Deflater {
    fn new(stride: usize) -> Deflater {
        Deflater {
            compress: Compress::new(Compression::new(LEVEL), false),
            filtered: Vec::with_capacity(FEED + stride + 1),
            trial: vec![0; stride],
            best: vec![0; stride],
            zeros: vec![0; stride],
        }
    }

    /// Rows `rows` of `raw` (rows of `stride` bytes, `bpp` to a pixel) filtered and deflated;
    /// the stream ends there (`last`) or with a sync flush.
    fn strip(
        &mut self,
        raw: &[u8],
        (stride, bpp): (usize, usize),
        rows: std::ops::Range<usize>,
        last: bool,
    ) -> Result<Piece, EncodeError> {
        self.compress.reset();
        let mut deflated = Vec::new();
        let mut adler = 1;
        for y in rows {
            let row = &raw[y * stride..][..stride];
            let above = match y {
                0 => &self.zeros[..],
                _ => &raw[(y - 1) * stride..][..stride],
            };
            let filter = cheapest_filter(bpp, above, row, &mut self.trial, &mut self.best);
            self.filtered.push(filter);
            self.filtered.extend_from_slice(&self.best);
            if self.filtered.len() >= FEED {
                self.feed(&mut deflated, &mut adler, FlushCompress::None)?;
            }
        }
        let flush = if last {
            FlushCompress::Finish
        } else {
            FlushCompress::Sync
        };
        self.feed(&mut deflated, &mut adler, flush)?;
        Ok(Piece {
            adler,
            // Counted from the reset above.
            filtered_len: self.compress.total_in() as usize,
            deflated,
        })
    }

    /// Hands the waiting filtered bytes to the compressor (and to the checksum), with
    /// `flush`, and empties them.
    fn feed(
        &mut self,
        deflated: &mut Vec<u8>,
        adler: &mut u32,
        flush: FlushCompress,
    ) -> Result<(), EncodeError> {
        *adler = zlib_rs::adler32::adler32(*adler, &self.filtered);
        let mut input = &self.filtered[..];
        loop {
            if deflated.capacity() - deflated.len() < 1024 {
                deflated.reserve(deflated.capacity().max(4096));
            }
            let taken = self.compress.total_in();
            let status = (self.compress)
                .compress_vec(input, deflated, flush)
                .map_err(io_error)?;
            input = &input[(self.compress.total_in() - taken) as usize..];
            // Done when all was taken, and for a flush once the output had room to spare
            // (zlib's sign that the flush is complete), or the stream has ended.
            let done = match flush {
                FlushCompress::None => input.is_empty(),
                FlushCompress::Finish => status == Status::StreamEnd,
                _ => input.is_empty() && deflated.len() < deflated.capacity(),
            };
            if done {
                break;
            }
        }
        self.filtered.clear();
        Ok(())
    }
}

/// Any other failure of the encoder, as an I/O error of the image crate's.
fn io_error(e: impl std::error::Error + Send + Sync + 'static) -> EncodeError {
    EncodeError::Image(image::ImageError::IoError(std::io::Error::other(e)))
}

/// The filter whose output for `row` has the least [`signed_sum`], that output left in
/// `best` (`trial` is scratch). Up is tried first: a screenshot repeats many rows whole, and
/// a row of zeros cannot be beaten. Unfiltered bytes are not tried (never the least on the
/// screenshots measured: the same file either way, for a fifth less work).
fn cheapest_filter(
    bpp: usize,
    above: &[u8],
    row: &[u8],
    trial: &mut Vec<u8>,
    best: &mut Vec<u8>,
) -> u8 {
    let mut chosen = (u64::MAX, 0u8);
    for filter in [2, 1, 3, 4] {
        apply_filter(filter, bpp, above, row, trial);
        let cost = signed_sum(trial);
        if cost < chosen.0 {
            chosen = (cost, filter);
            std::mem::swap(best, trial);
            if cost == 0 {
                break;
            }
        }
    }
    chosen.1
}

/// PNG filter `filter` (0 none, 1 sub, 2 up, 3 average, 4 Paeth) of `row` under `above`.
fn apply_filter(filter: u8, bpp: usize, above: &[u8], row: &[u8], out: &mut [u8]) {
    let bpp = bpp.min(out.len());
    let (first, rest) = out.split_at_mut(bpp);
    // The first pixel has no left neighbour: left and upper left count as 0.
    for (i, o) in first.iter_mut().enumerate() {
        let (x, b) = (row[i], above[i]);
        *o = match filter {
            0 | 1 => x,
            2 | 4 => x.wrapping_sub(b),
            _ => x.wrapping_sub(b / 2),
        };
    }
    let n = rest.len();
    let sources = Sources {
        x: &row[bpp..],
        a: &row[..n],
        b: &above[bpp..],
        c: &above[..n],
    };
    match filter {
        0 => rest.copy_from_slice(sources.x),
        1 => sources.each(rest, |x, a, _, _| x.wrapping_sub(a)),
        2 => sources.each(rest, |x, _, b, _| x.wrapping_sub(b)),
        3 => sources.each(rest, |x, a, b, _| {
            x.wrapping_sub(((u16::from(a) + u16::from(b)) / 2) as u8)
        }),
        _ => sources.each(rest, |x, a, b, c| x.wrapping_sub(paeth(a, b, c))),
    }
}

/// A row's bytes past its first pixel (`x`), with their left (`a`), upper (`b`) and upper
/// left (`c`) neighbours, all of one length.
struct Sources<'a> {
    x: &'a [u8],
    a: &'a [u8],
    b: &'a [u8],
    c: &'a [u8],
}

/// Bytes per block of the filters' loops: a fixed length the compiler turns into vector code.
const BLOCK: usize = 32;

impl Sources<'_> {
    /// `out[i] = f(x[i], a[i], b[i], c[i])`, in blocks of `BLOCK`.
    fn each(&self, out: &mut [u8], f: impl Fn(u8, u8, u8, u8) -> u8) {
        let blocks = out.len() / BLOCK * BLOCK;
        for (k, o) in out[..blocks].chunks_exact_mut(BLOCK).enumerate() {
            let at = k * BLOCK;
            let (x, a) = (&self.x[at..at + BLOCK], &self.a[at..at + BLOCK]);
            let (b, c) = (&self.b[at..at + BLOCK], &self.c[at..at + BLOCK]);
            for i in 0..BLOCK {
                o[i] = f(x[i], a[i], b[i], c[i]);
            }
        }
        for (i, o) in out.iter_mut().enumerate().skip(blocks) {
            *o = f(self.x[i], self.a[i], self.b[i], self.c[i]);
        }
    }
}

/// The Paeth predictor: of left, above and upper left, the one nearest left + above - upper
/// left, ties to left, then above. Written with selects, not branches, for vector code.
fn paeth(a: u8, b: u8, c: u8) -> u8 {
    let (a16, b16, c16) = (i16::from(a), i16::from(b), i16::from(c));
    let pa = (b16 - c16).abs();
    let pb = (a16 - c16).abs();
    let pc = (a16 + b16 - 2 * c16).abs();
    let (nearer, distance) = if pb < pa { (b, pb) } else { (a, pa) };
    if pc < distance {
        c
    } else {
        nearer
    }
}

/// The sum of the bytes' magnitudes read as signed: small for rows of small differences.
fn signed_sum(bytes: &[u8]) -> u64 {
    // Each block summed straight into 64 bits, which the compiler does with a
    // sum-of-absolute-differences instruction, eight bytes to a lane.
    let magnitude = |v: u8| u64::from((v as i8).unsigned_abs());
    let mut blocks = bytes.chunks_exact(BLOCK);
    let mut sum: u64 = 0;
    for block in &mut blocks {
        sum += block.iter().map(|&v| magnitude(v)).sum::<u64>();
    }
    sum + blocks
        .remainder()
        .iter()
        .map(|&v| magnitude(v))
        .sum::<u64>()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decoded(bytes: &[u8]) -> image::DynamicImage {
        image::load_from_memory_with_format(bytes, image::ImageFormat::Png).expect("valid PNG")
    }

    /// Pixels with flat runs, gradients and noise, so every filter wins somewhere.
    fn pixels(width: u32, height: u32, channels: usize) -> Vec<u8> {
        let mut state = 12345u32;
        (0..height as usize * width as usize * channels)
            .map(|i| {
                state = state.wrapping_mul(1_103_515_245).wrapping_add(12345);
                let (x, y) = (
                    (i / channels) % width as usize,
                    (i / channels) / width as usize,
                );
                match (y / 3) % 3 {
                    0 => 200,
                    1 => (x * 3 + y) as u8,
                    _ => (state >> 16) as u8,
                }
            })
            .collect()
    }

    #[test]
    fn pictures_read_back_the_same_in_one_strip_and_in_many() {
        for (width, height) in [(1, 1), (1, 9), (9, 1), (37, 23), (64, 64)] {
            for channels in [3, 4] {
                let raw = pixels(width, height, channels);
                for strip_bytes in [1, 200, 1 << 20] {
                    let bytes = png_in_strips(&raw, width, height, channels, strip_bytes).unwrap();
                    let back = decoded(&bytes);
                    let got = if channels == 3 {
                        back.into_rgb8().into_raw()
                    } else {
                        back.into_rgba8().into_raw()
                    };
                    assert_eq!(
                        got, raw,
                        "{width}x{height}x{channels}, strips of {strip_bytes}"
                    );
                }
            }
        }
    }

    #[test]
    fn strips_cost_little_size_against_one_stream() {
        let (width, height) = (300, 400);
        let raw = pixels(width, height, 3);
        let one = png_in_strips(&raw, width, height, 3, usize::MAX).unwrap();
        let many = png_in_strips(&raw, width, height, 3, 30_000).unwrap();
        assert!(
            many.len() as f64 <= one.len() as f64 * 1.02,
            "{} bytes in strips against {} in one",
            many.len(),
            one.len()
        );
    }

    #[test]
    fn each_filter_inverts() {
        let above: Vec<u8> = (0..30).map(|i| (i * 37 % 256) as u8).collect();
        let row: Vec<u8> = (0..30).map(|i| (i * 91 % 256) as u8).collect();
        for filter in 0..5u8 {
            let mut out = vec![0; 30];
            apply_filter(filter, 3, &above, &row, &mut out);
            // Undo it as a decoder does, left to right.
            let mut back = vec![0u8; 30];
            for i in 0..30 {
                let a = if i >= 3 { back[i - 3] } else { 0 };
                let b = above[i];
                let c = if i >= 3 { above[i - 3] } else { 0 };
                let predicted = match filter {
                    0 => 0,
                    1 => a,
                    2 => b,
                    3 => ((u16::from(a) + u16::from(b)) / 2) as u8,
                    _ => paeth(a, b, c),
                };
                back[i] = out[i].wrapping_add(predicted);
            }
            assert_eq!(back, row, "filter {filter}");
        }
    }
}
