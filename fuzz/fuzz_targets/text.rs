//! Arbitrary bytes -> the text parser, as `sudoku-snap solve` feeds it a file: bytes that are
//! not UTF-8 are refused before parsing (the CLI reports them), so only UTF-8 reaches it.
//! Every puzzle read must survive a round trip through each output layout, and the solver
//! must give a verdict on it.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sudoku_snap::puzzle::{solve, text};

fuzz_target!(|data: &[u8]| {
    let Ok(input) = std::str::from_utf8(data) else {
        return;
    };
    for parsed in text::puzzles(input) {
        assert!(parsed.line >= 1, "line numbers are 1-based");
        let Ok(board) = parsed.board else { continue };
        for layout in [
            text::to_line(&board),
            text::to_pretty(&board),
            text::to_csv(&board),
        ] {
            assert_eq!(
                text::parse_one(&layout),
                Ok(board),
                "round trip of\n{layout}"
            );
        }
        if let Ok(solve::Verdict::Unique(s) | solve::Verdict::Multiple(s)) = solve::check(&board) {
            assert!(s.solves(&board));
        }
    }
});
