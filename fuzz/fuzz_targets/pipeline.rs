//! Bytes -> decode -> read -> solve -> render, the stages `Snap::process` chains (minus the
//! file writes).
//!
//! An input is a 32-byte damage header followed by the encoded picture. Once the picture
//! decodes, the header's operations are applied to its pixels (fill, invert, noise, contrast,
//! crop, rotate a rectangle or the whole picture), so a seed screenshot is damaged in ways a
//! byte flip in a compressed file never reaches. The custom mutator spends half of its
//! mutations on the header alone, the other half on the whole input (container and pixels
//! alike). Arbitrary bytes are inputs too: a short one is all header and fails to decode.
#![no_main]

use std::path::Path;
use std::sync::OnceLock;

use image::{imageops, RgbImage};
use libfuzzer_sys::{fuzz_mutator, fuzz_target, fuzzer_mutate};
use sudoku_snap::puzzle::solve::Verdict;
use sudoku_snap::stages;
use sudoku_snap::budget::Budget;
use sudoku_snap::{Options, Snap};

/// Bytes of damage header before the picture: a count, then up to 5 six-byte operations.
const HEADER: usize = 32;
const OP_LEN: usize = 6;
/// Small enough that one run stays well under the timeout, large enough for the seeds.
const MAX_PIXELS: u64 = 1_500_000;

fn snap() -> &'static Snap {
    static SNAP: OnceLock<Snap> = OnceLock::new();
    SNAP.get_or_init(|| Snap::new(Options::default()).expect("the bundled templates load"))
}

fuzz_target!(|data: &[u8]| {
    let (header, body) = data.split_at(data.len().min(HEADER));
    let name = Path::new("fuzz-input");
    let mut image = match stages::decode_bytes(body, name, MAX_PIXELS) {
        Ok(picture) => picture.into_rgb(),
        Err(e) => {
            assert!(e.to_string().contains("fuzz-input"), "{e}");
            return;
        }
    };
    damage(&mut image, header);
    let snap = snap();
    let reading = match snap.read(&image, name) {
        Ok(reading) => reading,
        Err(e) => {
            assert!(e.to_string().contains("fuzz-input"), "{e}");
            return;
        }
    };
    let solved = stages::solve_read(
        &reading.givens,
        &reading.evidence,
        snap.options().max_corrections,
        &Budget::unlimited(),
    );
    let (Ok(Verdict::Unique(solution)) | Ok(Verdict::Multiple(solution))) = solved.verdict else {
        return;
    };
    assert!(solution.solves(&solved.givens));
    stages::draw_answer(
        &mut image,
        &reading.rectified,
        &reading.cells,
        &solution,
        None,
    );
});

fuzz_mutator!(|data: &mut [u8], size: usize, max_size: usize, seed: u32| {
    if seed % 2 == 0 || size < HEADER {
        return fuzzer_mutate(data, size, max_size);
    }
    // The header alone, kept at its fixed length so the picture behind it stays intact.
    let mut header = [0u8; HEADER];
    header.copy_from_slice(&data[..HEADER]);
    let kept = fuzzer_mutate(&mut header, HEADER, HEADER);
    header[kept..].fill(0);
    data[..HEADER].copy_from_slice(&header);
    size
});

/// Applies the header's operations to the picture. Positions and sizes are fractions (/256)
/// of the picture's width and height, so one header means the same damage on any seed.
fn damage(image: &mut RgbImage, header: &[u8]) {
    let count = header.first().map_or(0, |c| usize::from(c % 6));
    for op in header
        .get(1..)
        .unwrap_or(&[])
        .chunks_exact(OP_LEN)
        .take(count)
    {
        let (w, h) = image.dimensions();
        let frac = |b: u8, of: u32| (u64::from(b) * u64::from(of) / 256) as u32;
        let (x0, y0) = (frac(op[1], w), frac(op[2], h));
        let x1 = (x0 + frac(op[3], w) + 1).min(w);
        let y1 = (y0 + frac(op[4], h) + 1).min(h);
        let v = op[5];
        match op[0] % 6 {
            0 => each_pixel(image, (x0, y0, x1, y1), |_, _, p| *p = [v; 3]),
            1 => each_pixel(image, (x0, y0, x1, y1), |_, _, p| *p = p.map(|c| !c)),
            2 => each_pixel(image, (x0, y0, x1, y1), |x, y, p| {
                let n = (x.wrapping_mul(0x9E37_79B1) ^ y.wrapping_mul(0x85EB_CA77)) >> 24;
                *p = p.map(|c| c ^ (n as u8 & v));
            }),
            // Contrast: every channel scaled by v/128 around mid-grey.
            3 => each_pixel(image, (x0, y0, x1, y1), |_, _, p| {
                *p = p
                    .map(|c| (128 + (i32::from(c) - 128) * i32::from(v) / 128).clamp(0, 255) as u8);
            }),
            4 => *image = imageops::crop_imm(image, x0, y0, x1 - x0, y1 - y0).to_image(),
            _ => {
                *image = match v % 3 {
                    0 => imageops::rotate90(image),
                    1 => imageops::flip_horizontal(image),
                    _ => imageops::resize(
                        image,
                        (w / 2).max(1),
                        (h / 2).max(1),
                        imageops::FilterType::Triangle,
                    ),
                }
            }
        }
    }
}

fn each_pixel(
    image: &mut RgbImage,
    (x0, y0, x1, y1): (u32, u32, u32, u32),
    mut f: impl FnMut(u32, u32, &mut [u8; 3]),
) {
    for y in y0..y1 {
        for x in x0..x1 {
            let p = image.get_pixel_mut(x, y);
            f(x, y, &mut p.0);
        }
    }
}
