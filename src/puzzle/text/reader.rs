//! Reading puzzles from a stream as its lines arrive, in every format of [`super::puzzles`],
//! with memory bounded by one line of at most [`MAX_LINE`] bytes, whatever the input's size.
//!
//! Bytes are read per line, so a line that is not UTF-8 text or is far too long spoils only
//! the puzzle it belongs to: it becomes that puzzle's [`ParseError`] with the line (and, for a
//! bad byte, the column), and the puzzles after it are read as usual.

use std::borrow::Cow;
use std::io::{self, BufRead};

use super::{Assembler, ParseError, Parsed};

/// The longest line kept, in bytes. A puzzle line is 81 cells plus some spacing and a grid row
/// far less, so anything longer is not a puzzle; its bytes past this are skipped unread into
/// memory, so one endless line (a binary file, `yes` without newlines) cannot fill it.
pub const MAX_LINE: usize = 64 * 1024;

/// The UTF-8 byte order mark that spreadsheets put before a CSV file's first line.
const BOM: &[u8] = "\u{feff}".as_bytes();

/// Reads the puzzles of a stream in order, each as soon as its last line has arrived.
///
/// Yields `Ok` for every puzzle found, readable or not (a malformed puzzle carries its own
/// [`ParseError`] and does not stop the ones after it), and `Err` once when reading fails,
/// after which the iterator ends.
///
/// # Examples
///
/// ```
/// use sudoku_snap::puzzle::text::PuzzleReader;
///
/// let input = "# two puzzles\n\
///     53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79\n\
///     53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..7x\n";
/// let read: Vec<_> = PuzzleReader::new(input.as_bytes()).collect::<Result<_, _>>()?;
/// assert_eq!((read[0].line, read[1].line), (2, 3));
/// assert!(read[0].board.is_ok());
/// assert_eq!(read[1].board.as_ref().unwrap_err().column, 81);
/// # Ok::<(), std::io::Error>(())
/// ```
pub struct PuzzleReader<R> {
    input: R,
    /// The current line's bytes (at most `MAX_LINE`), reused from line to line.
    line: Vec<u8>,
    /// Lines read so far: the 1-based number of the current line.
    number: usize,
    assembler: Assembler,
    /// The input has ended or failed; only the last open grid may still come out.
    done: bool,
}

impl<R: BufRead> PuzzleReader<R> {
    /// A reader of the puzzles in `input`. Wrap a plain `Read` in a `BufReader`.
    pub fn new(input: R) -> PuzzleReader<R> {
        PuzzleReader {
            input,
            line: Vec::new(),
            number: 0,
            assembler: Assembler::default(),
            done: false,
        }
    }

    /// Feeds the next line to the assembler; `Ok(None)` at the end of the input.
    fn next_line(&mut self) -> io::Result<Option<Option<Parsed>>> {
        let Some(length) = read_capped_line(&mut self.input, &mut self.line)? else {
            return Ok(None);
        };
        self.number += 1;
        let number = self.number;
        if number == 1 && self.line.starts_with(BOM) {
            self.line.drain(..BOM.len());
        }
        let (text, flaw) = decode(&self.line, number);
        let flaw = if length > MAX_LINE {
            Some(too_long(number, length))
        } else {
            flaw
        };
        Ok(Some(self.assembler.feed(number, &text, flaw)))
    }
}

impl<R: BufRead> Iterator for PuzzleReader<R> {
    type Item = io::Result<Parsed>;

    fn next(&mut self) -> Option<io::Result<Parsed>> {
        if let Some(p) = self.assembler.take_pending() {
            return Some(Ok(p));
        }
        while !self.done {
            match self.next_line() {
                Ok(Some(Some(p))) => return Some(Ok(p)),
                Ok(Some(None)) => {}
                Ok(None) => self.done = true,
                Err(e) => {
                    self.done = true;
                    return Some(Err(e));
                }
            }
        }
        self.assembler.finish().map(Ok)
    }
}

/// Reads one line into `line` without its line end (`\n` or `\r\n`), keeping at most
/// [`MAX_LINE`] bytes of it; returns the line's full length, or `None` at the end of input.
fn read_capped_line(input: &mut impl BufRead, line: &mut Vec<u8>) -> io::Result<Option<usize>> {
    line.clear();
    let mut length = 0;
    let mut consumed_any = false;
    loop {
        let available = match input.fill_buf() {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            break;
        }
        consumed_any = true;
        let newline = available.iter().position(|&b| b == b'\n');
        let content = &available[..newline.unwrap_or(available.len())];
        let room = MAX_LINE.saturating_sub(line.len());
        line.extend_from_slice(&content[..content.len().min(room)]);
        length += content.len();
        let used = newline.map_or(available.len(), |at| at + 1);
        input.consume(used);
        if newline.is_some() {
            break;
        }
    }
    if !consumed_any {
        return Ok(None);
    }
    if line.last() == Some(&b'\r') && length <= MAX_LINE {
        line.pop();
        length -= 1;
    }
    Ok(Some(length))
}

/// The line as text, and the first byte that is not UTF-8 as a [`ParseError`]. The text then
/// holds U+FFFD in place of bad bytes, which is enough to tell a comment from a puzzle line.
fn decode(bytes: &[u8], number: usize) -> (Cow<'_, str>, Option<ParseError>) {
    match std::str::from_utf8(bytes) {
        Ok(text) => (Cow::Borrowed(text), None),
        Err(e) => {
            let good = &bytes[..e.valid_up_to()];
            let column = String::from_utf8_lossy(good).chars().count() + 1;
            let flaw = ParseError {
                line: number,
                column,
                problem: format!(
                    "byte 0x{:02X} is not UTF-8 text; save the file as UTF-8",
                    bytes[e.valid_up_to()]
                ),
            };
            (String::from_utf8_lossy(bytes), Some(flaw))
        }
    }
}

fn too_long(number: usize, length: usize) -> ParseError {
    ParseError {
        line: number,
        column: 0,
        problem: format!(
            "line of {length} bytes, longer than any puzzle (at most {MAX_LINE} are read); skipped"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINE: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

    fn read_all(input: &[u8]) -> Vec<Parsed> {
        PuzzleReader::new(input)
            .collect::<io::Result<_>>()
            .expect("reading a slice never fails")
    }

    /// The stream reader and the whole-text reader agree on every format.
    #[test]
    fn reads_like_parse_all() {
        let board = super::super::parse_one(LINE).unwrap();
        let texts = [
            format!("# c\n{LINE}\n\n{LINE}\r\n"),
            super::super::to_pretty(&board),
            format!(
                "\u{feff}{}",
                super::super::to_csv(&board).replace('\n', "\r\n")
            ),
            format!("{}\n{LINE}\n", &super::super::to_pretty(&board)[..60]),
            LINE.to_string(),
        ];
        for text in texts {
            assert_eq!(
                read_all(text.as_bytes()),
                super::super::parse_all(&text),
                "{text}"
            );
        }
    }

    #[test]
    fn a_bad_byte_spoils_only_its_puzzle() {
        let mut input = format!("{LINE}\n{LINE}\n{LINE}\n").into_bytes();
        input[82 + 74] = 0xE9;
        let read = read_all(&input);
        assert_eq!(read.len(), 3);
        let err = read[1].board.clone().unwrap_err();
        assert_eq!((err.line, err.column), (2, 75));
        assert!(err.problem.contains("0xE9"), "{err}");
        assert!(read[0].board.is_ok() && read[2].board.is_ok());
    }

    #[test]
    fn a_bad_byte_in_a_comment_is_ignored() {
        let input = [b"# caf\xE9\n".as_slice(), LINE.as_bytes()].concat();
        let read = read_all(&input);
        assert_eq!(read.len(), 1);
        assert!(read[0].board.is_ok());
    }

    #[test]
    fn a_bad_byte_in_a_grid_row_names_the_row() {
        let board = super::super::parse_one(LINE).unwrap();
        let mut input = super::super::to_csv(&board).into_bytes();
        let second_line_end = input.iter().enumerate().filter(|(_, &b)| b == b'\n').nth(1);
        let third_row = second_line_end.unwrap().0 + 1;
        input[third_row] = 0xFF;
        let err = read_all(&input)[0].board.clone().unwrap_err();
        assert_eq!((err.line, err.column), (3, 1));
    }

    #[test]
    fn an_endless_line_is_rejected_and_reading_goes_on() {
        let long = "5".repeat(3 * MAX_LINE);
        let input = format!("{long}\n{LINE}\n");
        let read = read_all(input.as_bytes());
        assert_eq!(read.len(), 2);
        let err = read[0].board.clone().unwrap_err();
        assert!(
            err.problem.contains(&format!("{} bytes", 3 * MAX_LINE)),
            "{err}"
        );
        assert_eq!(read[1].line, 2);
        assert!(read[1].board.is_ok());
    }

    #[test]
    fn a_long_line_is_never_held_whole() {
        let mut line = Vec::new();
        let long = vec![b'#'; 5 * MAX_LINE];
        let mut input = io::BufReader::new(long.as_slice());
        let length = read_capped_line(&mut input, &mut line).unwrap();
        assert_eq!(length, Some(5 * MAX_LINE));
        assert_eq!(line.len(), MAX_LINE);
        assert!(line.capacity() < 2 * MAX_LINE);
    }

    #[test]
    fn a_long_comment_is_still_a_comment() {
        let input = format!("#{}\n{LINE}\n", "x".repeat(2 * MAX_LINE));
        let read = read_all(input.as_bytes());
        assert_eq!(read.len(), 1);
        assert!(read[0].board.is_ok());
    }

    #[test]
    fn a_read_error_ends_the_puzzles() {
        struct Failing;
        impl io::Read for Failing {
            fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
                Err(io::Error::other("disk gone"))
            }
        }
        let mut reader = PuzzleReader::new(io::BufReader::new(Failing));
        assert!(reader.next().unwrap().is_err());
        assert!(reader.next().is_none());
    }
}
