//! The working image: the picture in grey, reduced by block averaging to about
//! `WORK_SIZE` on its longer side.

use image::{GrayImage, RgbImage};
use rayon::prelude::*;

use super::{MAX_BLOCK, WORK_SIZE};

/// Greyscale at working size: each working pixel averages a `k x k` block of the original
/// (the right and bottom edges' leftover pixels are dropped). The `k` rows of a block are
/// first summed byte by byte (a loop the compiler vectorises: this reads every byte of the
/// picture, the largest cost of locating), then each block's channel sums are weighted once.
pub(super) fn working_gray(image: &RgbImage) -> (GrayImage, f32) {
    let (w, h) = (image.width() as usize, image.height() as usize);
    let k = w.max(h).div_ceil(WORK_SIZE as usize).clamp(1, MAX_BLOCK);
    let (ww, wh) = (w / k, h / k);
    let mut out = vec![0u8; ww.max(1) * wh.max(1)];
    let raw = image.as_raw();
    let used = ww * k * 3;
    let block_rows = |oy: usize| (oy * k..(oy + 1) * k).map(move |y| &raw[y * w * 3..][..used]);
    // Working rows are independent: split over the thread pool, one sum buffer per task.
    // u16 sums (4 rows of 255 fit) take twice the bytes per instruction of u32 ones.
    let rows = out.par_chunks_exact_mut(ww.max(1)).enumerate().take(wh);
    rows.for_each_init(
        || vec![0u16; used],
        |sums, (oy, out_row)| match k {
            1 => blocks_to_gray::<1>(column_sums::<1>(block_rows(oy), sums), out_row),
            2 => blocks_to_gray::<2>(column_sums::<2>(block_rows(oy), sums), out_row),
            3 => blocks_to_gray::<3>(column_sums::<3>(block_rows(oy), sums), out_row),
            _ => {
                blocks_to_gray::<MAX_BLOCK>(column_sums::<MAX_BLOCK>(block_rows(oy), sums), out_row)
            }
        },
    );
    let gray = GrayImage::from_raw(ww.max(1) as u32, wh.max(1) as u32, out)
        .expect("buffer sized for the working image");
    (gray, k as f32)
}

/// The byte-wise sums of `K` rows, in one pass.
fn column_sums<'r, 's, const K: usize>(
    rows: impl Iterator<Item = &'r [u8]>,
    sums: &'s mut [u16],
) -> &'s [u16] {
    let mut rows = rows.map(|r| &r[..sums.len()]);
    let rows: [&[u8]; K] = std::array::from_fn(|_| rows.next().expect("K rows"));
    for (i, sum) in sums.iter_mut().enumerate() {
        *sum = rows.iter().map(|r| u16::from(r[i])).sum();
    }
    sums
}

/// One working row from the column sums of its block rows: each `K`-pixel block's channel
/// sums weighted to luma. `K` known at compile time lets the common sizes unroll.
fn blocks_to_gray<const K: usize>(sums: &[u16], out: &mut [u8]) {
    // floor(weighted / (1000 K^2)) as a multiply and shift: with the divisor's reciprocal
    // rounded up at 40 bits, the error stays below 2^-19 (weighted < 2^22), far less than
    // the 1 / (1000 K^2) gap from the next whole number, so the floor is exact.
    const SHIFT: u32 = 40;
    let divisor = (1000 * K * K) as u64;
    let reciprocal = (1u64 << SHIFT).div_ceil(divisor);
    for (o, block) in out.iter_mut().zip(sums.chunks_exact(K * 3)) {
        let mut rgb = [0u32; 3];
        for j in 0..K {
            rgb[0] += u32::from(block[3 * j]);
            rgb[1] += u32::from(block[3 * j + 1]);
            rgb[2] += u32::from(block[3 * j + 2]);
        }
        let weighted = u64::from(rgb[0] * 299 + rgb[1] * 587 + rgb[2] * 114);
        *o = ((weighted * reciprocal) >> SHIFT) as u8;
    }
}
