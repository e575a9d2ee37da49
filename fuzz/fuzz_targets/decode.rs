//! Arbitrary bytes -> the image decoder path. The pixel limit is small (4 MP) so the fuzzer
//! spends its time on the decoders' parsing, not on big allocations; the limit itself is part
//! of what is tested (nothing larger may come out).
#![no_main]

use std::path::Path;

use libfuzzer_sys::fuzz_target;

const MAX_PIXELS: u64 = 4_000_000;

fuzz_target!(|data: &[u8]| {
    let name = Path::new("fuzz-input");
    match sudoku_snap::stages::decode_bytes(data, name, MAX_PIXELS) {
        Ok(picture) => {
            let (width, height) = picture.dimensions();
            assert!(u64::from(width) * u64::from(height) <= MAX_PIXELS);
        }
        Err(e) => assert!(e.to_string().contains("fuzz-input"), "{e}"),
    }
});
