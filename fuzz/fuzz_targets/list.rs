//! Arbitrary bytes -> `batch::read_list`, as `-` or `--files-from` feeds it, through a small
//! buffer so lines arrive in pieces. No line may be held past the cap, every line is a path,
//! a bad line or blank, and the paths read back the same when listed again (CRLF, as a Windows editor saves).
#![no_main]

use std::io::BufReader;

use libfuzzer_sys::fuzz_target;
use sudoku_snap::batch::{read_list, MAX_LIST_LINE};

fuzz_target!(|data: &[u8]| {
    let capacity = 1 + data.first().copied().unwrap_or(0) as usize;
    let list = read_list(BufReader::with_capacity(capacity, data)).expect("bytes in memory");
    let lines = data.split(|&b| b == b'\n').count();
    assert!(list.paths.len() + list.bad.len() <= lines);
    let mut numbers = list.bad.iter().map(|b| b.line);
    assert!(numbers.all(|n| (1..=lines).contains(&n)), "line numbers within the list");
    let mut again = Vec::new();
    for path in &list.paths {
        let bytes = path.as_os_str().as_encoded_bytes();
        assert!(!bytes.is_empty() && bytes.len() <= MAX_LIST_LINE);
        assert!(!bytes.contains(&0) && !bytes.contains(&b'\n'));
        again.extend_from_slice(bytes);
        // CRLF: a name that ends in `\r` keeps it only when the line's own `\r` is dropped.
        again.extend_from_slice(b"\r\n");
    }
    let reread = read_list(&again[..]).expect("bytes in memory");
    assert_eq!(reread.paths, list.paths, "a list of the paths read reads the same");
});
