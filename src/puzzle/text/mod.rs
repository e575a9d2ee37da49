//! Text puzzles in and out.
//!
//! Reading accepts what people type and what spreadsheets save: 81-character lines (many per
//! file, `#` comments and blank lines ignored), 9-line grids with or without `|`, `-`, `+`
//! separators, whitespace-separated digits with `0` for empty, and CSV (`,` or `;`, optional
//! UTF-8 BOM, CRLF or LF). Writing produces the `line`, `pretty` and `csv` layouts.
//! [`puzzles`] reads a text held in memory; [`PuzzleReader`] reads a stream line by line.

mod reader;

use std::fmt;
use std::str::FromStr;

use crate::puzzle::board::{Board, Digit, Pos};

pub use reader::{PuzzleReader, MAX_LINE};

/// Characters that mean "empty cell" in every input format.
const EMPTY_MARKS: &[char] = &['.', '0', '_', '-', '*'];

/// A line this long (without whitespace) is read as a one-line puzzle rather than a grid row;
/// grid rows carry 9 cells plus at most a dozen separators.
const ONE_LINE_MIN_LEN: usize = 30;

/// What is wrong with a puzzle's text, with the 1-based line and column where it was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// 1-based line number in the input.
    pub line: usize,
    /// 1-based column (in characters) on that line; 0 when the problem is the whole line or block.
    pub column: usize,
    /// What was wrong.
    pub problem: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.column > 0 {
            write!(
                f,
                "line {}, column {}: {}",
                self.line, self.column, self.problem
            )
        } else {
            write!(f, "line {}: {}", self.line, self.problem)
        }
    }
}

impl ParseError {
    /// The problem for a message that names `line` already (`stdin:2: column 41: bad character
    /// 'x'`): its column, and its own line only when that is another one (a puzzle written
    /// over several lines, named by its first).
    pub fn after_line(&self, line: usize) -> String {
        if self.line != line {
            self.to_string()
        } else if self.column > 0 {
            format!("column {}: {}", self.column, self.problem)
        } else {
            self.problem.clone()
        }
    }
}

impl std::error::Error for ParseError {}

/// One puzzle found in a text, with the line it starts on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parsed {
    /// 1-based line where the puzzle starts.
    pub line: usize,
    /// The puzzle, or why its text could not be read.
    pub board: Result<Board, ParseError>,
}

/// Reads every puzzle in `text`, in order. A malformed puzzle is reported in place and does
/// not stop the ones after it.
pub fn parse_all(text: &str) -> Vec<Parsed> {
    puzzles(text).collect()
}

/// The puzzles in `text`, read lazily so a large file is never held twice in memory.
///
/// For input that arrives over time (stdin, a pipe, a file too large to hold), use
/// [`PuzzleReader`], which reads the same formats line by line.
pub fn puzzles(text: &str) -> Puzzles<'_> {
    Puzzles {
        lines: text.lines().enumerate(),
        assembler: Assembler::default(),
    }
}

/// Iterator over the puzzles of a text; see [`puzzles`].
pub struct Puzzles<'a> {
    lines: std::iter::Enumerate<std::str::Lines<'a>>,
    assembler: Assembler,
}

impl Iterator for Puzzles<'_> {
    type Item = Parsed;

    fn next(&mut self) -> Option<Parsed> {
        if let Some(p) = self.assembler.take_pending() {
            return Some(p);
        }
        for (i, line) in self.lines.by_ref() {
            if let Some(p) = self.assembler.feed(i + 1, line, None) {
                return Some(p);
            }
        }
        self.assembler.finish()
    }
}

/// Turns lines into puzzles: one-line puzzles at once, grid rows collected until the ninth.
/// Shared by [`Puzzles`] (a whole text) and [`PuzzleReader`] (a stream), so both read the
/// formats the same way.
#[derive(Default)]
struct Assembler {
    grid: GridBlock,
    /// A one-line puzzle read while a grid block was still open.
    pending: Option<Parsed>,
}

impl Assembler {
    /// The puzzle held back by the last [`feed`](Self::feed), if any; ask before feeding more.
    fn take_pending(&mut self) -> Option<Parsed> {
        self.pending.take()
    }

    /// Takes line `number`; returns a puzzle when this line completes one. `flaw` is a
    /// problem found before the text (bytes that are not UTF-8, a line too long): it becomes
    /// the error of the puzzle this line belongs to, while a comment or blank line with a
    /// flaw is still only a comment.
    fn feed(&mut self, number: usize, line: &str, flaw: Option<ParseError>) -> Option<Parsed> {
        let line = if number == 1 {
            line.trim_start_matches('\u{feff}')
        } else {
            line
        };
        let plain = match flaw {
            None => plain_line_puzzle(line),
            Some(_) => None,
        };
        let trimmed = line.trim();
        if plain.is_none() && (trimmed.is_empty() || trimmed.starts_with('#')) {
            return self.grid.finish();
        }
        if plain.is_some() || is_one_line_puzzle(trimmed) {
            let this = Parsed {
                line: number,
                board: match plain {
                    Some(board) => Ok(board),
                    None => flaw.map_or_else(|| parse_line_cells(line, number), Err),
                },
            };
            return match self.grid.finish() {
                Some(open) => {
                    self.pending = Some(this);
                    Some(open)
                }
                None => Some(this),
            };
        }
        if is_separator(trimmed) && flaw.is_none() {
            return None;
        }
        self.grid.push(line, number, flaw)
    }

    /// Ends the input: the grid still open, if any.
    fn finish(&mut self) -> Option<Parsed> {
        self.grid.finish()
    }
}

/// Reads exactly one puzzle from `text` (any input format).
pub fn parse_one(text: &str) -> Result<Board, ParseError> {
    let mut all = parse_all(text).into_iter();
    match (all.next(), all.next()) {
        (Some(p), None) => p.board,
        (None, _) => Err(ParseError {
            line: 1,
            column: 0,
            problem: "no puzzle found".into(),
        }),
        (Some(_), Some(second)) => Err(ParseError {
            line: second.line,
            column: 0,
            problem: "more than one puzzle where one was expected".into(),
        }),
    }
}

impl FromStr for Board {
    type Err = ParseError;

    /// Parses one puzzle in any of the text formats of [`parse_all`].
    fn from_str(s: &str) -> Result<Board, ParseError> {
        parse_one(s)
    }
}

/// The common case read without the general checks: exactly 81 digits, `.` or `0` for empty
/// cells, nothing else on the line. These general checks took longer than solving an easy
/// puzzle; the result is the same as theirs.
fn plain_line_puzzle(line: &str) -> Option<Board> {
    let bytes: &[u8; 81] = line.as_bytes().try_into().ok()?;
    // Branch-free over the line (digits and dots alternate unpredictably), checked at the end.
    let mut cells = [0u8; 81];
    let mut plain = true;
    for (cell, &byte) in cells.iter_mut().zip(bytes) {
        let digit = byte.wrapping_sub(b'0');
        let is_digit = digit <= 9;
        plain &= is_digit | (byte == b'.');
        *cell = if is_digit { digit } else { 0 };
    }
    if !plain {
        return None;
    }
    Board::from_bytes(cells)
}

fn is_one_line_puzzle(trimmed: &str) -> bool {
    let cells = trimmed.chars().filter(|c| !c.is_whitespace()).count();
    // A long rule between grid bands (30+ dashes) is a separator; only 81 dashes are a puzzle,
    // the empty board written with `-`.
    let long_rule = is_separator(trimmed) && cells != 81;
    !trimmed.contains([',', ';']) && cells >= ONE_LINE_MIN_LEN && !long_rule
}

/// A box separator such as `------+-------+------` or `=====`; a row of nine `-` is a row
/// of empty cells, not a separator.
fn is_separator(trimmed: &str) -> bool {
    let only_rules = trimmed
        .chars()
        .all(|c| matches!(c, '-' | '+' | '=' | '|') || c.is_whitespace());
    let dashes = trimmed.chars().filter(|&c| c == '-').count();
    only_rules && (trimmed.contains(['+', '=']) || dashes != 9)
}

/// One cell character, or the reason it is not one.
fn cell_from_char(c: char) -> Result<Option<Digit>, String> {
    if EMPTY_MARKS.contains(&c) {
        return Ok(None);
    }
    match c.to_digit(10).and_then(|d| Digit::new(d as u8)) {
        Some(d) => Ok(Some(d)),
        None => Err(format!(
            "bad character {c:?}: expected a digit 1-9 or one of . 0 _ - * for an empty cell"
        )),
    }
}

fn parse_line_cells(line: &str, number: usize) -> Result<Board, ParseError> {
    let cells: Vec<(usize, char)> = line
        .chars()
        .enumerate()
        .filter(|(_, c)| !c.is_whitespace() && *c != '\u{feff}')
        .map(|(i, c)| (i + 1, c))
        .collect();
    if cells.len() != 81 {
        return Err(ParseError {
            line: number,
            column: 0,
            problem: format!("wrong length: {} cells, expected 81", cells.len()),
        });
    }
    let mut board = Board::empty();
    for (pos, &(column, c)) in Pos::all().zip(cells.iter()) {
        let digit = cell_from_char(c).map_err(|problem| ParseError {
            line: number,
            column,
            problem,
        })?;
        board.set(pos, digit);
    }
    Ok(board)
}

/// Rows of a 9-line grid (plain, with separators, whitespace-separated or CSV) being collected.
#[derive(Default)]
struct GridBlock {
    first_line: usize,
    rows: Vec<[Option<Digit>; 9]>,
    error: Option<ParseError>,
}

impl GridBlock {
    /// Adds a row (or its `flaw`, which stands for the row); returns the finished puzzle
    /// after the ninth.
    fn push(&mut self, line: &str, number: usize, flaw: Option<ParseError>) -> Option<Parsed> {
        if self.rows.is_empty() && self.error.is_none() {
            self.first_line = number;
        }
        if self.error.is_none() {
            match flaw.map_or_else(|| parse_grid_row(line, number), Err) {
                Ok(row) => self.rows.push(row),
                Err(e) => self.error = Some(e),
            }
        }
        if self.rows.len() == 9 {
            return self.finish();
        }
        None
    }

    /// Ends the block at a blank line or the end of input.
    fn finish(&mut self) -> Option<Parsed> {
        let block = std::mem::take(self);
        if let Some(error) = block.error {
            return Some(Parsed {
                line: block.first_line,
                board: Err(error),
            });
        }
        if block.rows.is_empty() {
            return None;
        }
        let board = if block.rows.len() == 9 {
            let mut board = Board::empty();
            for (pos, digit) in Pos::all().zip(block.rows.iter().flatten()) {
                board.set(pos, *digit);
            }
            Ok(board)
        } else {
            Err(ParseError {
                line: block.first_line,
                column: 0,
                problem: format!("{} rows instead of 9", block.rows.len()),
            })
        };
        Some(Parsed {
            line: block.first_line,
            board,
        })
    }
}

fn parse_grid_row(line: &str, number: usize) -> Result<[Option<Digit>; 9], ParseError> {
    let cells = if line.contains([',', ';']) {
        csv_cells(line)
    } else {
        plain_cells(line)
    };
    if cells.len() != 9 {
        return Err(ParseError {
            line: number,
            column: 0,
            problem: format!("{} cells in this row, expected 9", cells.len()),
        });
    }
    let mut row = [None; 9];
    for (slot, (column, text)) in row.iter_mut().zip(cells) {
        let cell = match text {
            Ok(None) => Ok(None),
            Ok(Some(c)) => cell_from_char(c),
            Err(field) => Err(format!(
                "field {field:?} is not one cell: expected a digit 1-9, or 0, . or nothing for an empty cell"
            )),
        };
        *slot = cell.map_err(|problem| ParseError {
            line: number,
            column,
            problem,
        })?;
    }
    Ok(row)
}

/// Cells of a typed row: every character but whitespace and `|`/`+` separators.
fn plain_cells(line: &str) -> Vec<(usize, CellText)> {
    line.chars()
        .enumerate()
        .filter(|(_, c)| !c.is_whitespace() && !matches!(c, '|' | '+'))
        .map(|(i, c)| (i + 1, Ok(Some(c))))
        .collect()
}

/// One cell's text in a row: nothing, one character, or a CSV field too long to be a cell.
type CellText = Result<Option<char>, String>;

/// Cells of a CSV row: fields split on `,` or `;`, quotes and spaces trimmed, empty = empty cell.
/// A field with more than one character is kept whole so the error can quote it.
fn csv_cells(line: &str) -> Vec<(usize, CellText)> {
    let separator = if line.contains(',') { ',' } else { ';' };
    let mut out = Vec::new();
    let mut column = 1;
    for field in line.split(separator) {
        let value = field.trim().trim_matches('"').trim();
        // The value's column, past leading spaces and an opening quote.
        let start = field.find(value).map_or(0, |b| field[..b].chars().count());
        let mut chars = value.chars();
        let cell = match (chars.next(), chars.next()) {
            (None, _) => Ok(None),
            (Some(c), None) => Ok(Some(c)),
            (Some(_), Some(_)) => Err(value.to_string()),
        };
        out.push((column + start, cell));
        column += field.chars().count() + 1;
    }
    out
}

/// The 81-character line, `.` for empty cells.
pub fn to_line(board: &Board) -> String {
    board.to_string()
}

/// A 9x9 grid with `|` between boxes and `------+-------+------` between bands.
pub fn to_pretty(board: &Board) -> String {
    let mut out = String::with_capacity(9 * 22 + 2 * 22);
    for row in 0..9 {
        if row == 3 || row == 6 {
            out.push_str("------+-------+------\n");
        }
        for col in 0..9 {
            if col == 3 || col == 6 {
                out.push_str("| ");
            }
            let cell = Pos::new(row, col).and_then(|p| board.get(p));
            out.push(cell.map_or('.', Digit::to_char));
            out.push(if col == 8 { '\n' } else { ' ' });
        }
    }
    out
}

/// Nine CSV rows of nine fields, an empty field for an empty cell.
pub fn to_csv(board: &Board) -> String {
    let mut out = String::with_capacity(9 * 18);
    for row in 0..9 {
        for col in 0..9 {
            if let Some(d) = Pos::new(row, col).and_then(|p| board.get(p)) {
                out.push(d.to_char());
            }
            out.push(if col == 8 { '\n' } else { ',' });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINE: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

    fn one(text: &str) -> Board {
        parse_one(text).unwrap()
    }

    #[test]
    fn every_empty_mark_reads_the_same() {
        let b = one(LINE);
        for mark in ['0', '_', '-', '*'] {
            assert_eq!(one(&LINE.replace('.', &mark.to_string())), b);
        }
    }

    #[test]
    fn pretty_grid_round_trips() {
        let b = one(LINE);
        let pretty = to_pretty(&b);
        assert!(pretty.contains("------+-------+------"));
        assert_eq!(one(&pretty), b);
    }

    #[test]
    fn whitespace_digits_and_plain_grid() {
        let b = one(LINE);
        let spaced: String = (0..9)
            .map(|r| {
                let row: Vec<String> = (0..9)
                    .map(|c| b.to_bytes()[r * 9 + c].to_string())
                    .collect();
                row.join(" ") + "\n"
            })
            .collect();
        assert_eq!(one(&spaced), b);
        let plain: String = LINE
            .as_bytes()
            .chunks(9)
            .map(|c| String::from_utf8_lossy(c).into_owned() + "\n")
            .collect();
        assert_eq!(one(&plain), b);
    }

    #[test]
    fn csv_with_bom_and_crlf() {
        let b = one(LINE);
        let csv = format!("\u{feff}{}", to_csv(&b).replace('\n', "\r\n"));
        assert_eq!(one(&csv), b);
        assert_eq!(one(&to_csv(&b).replace(',', ";")), b);
    }

    #[test]
    fn many_puzzles_with_comments() {
        let text = format!("# a comment\n{LINE}\n\n{}\n", LINE.replace('5', "."));
        let all = parse_all(&text);
        assert_eq!(all.len(), 2);
        assert_eq!(all[1].line, 4);
        assert!(all.iter().all(|p| p.board.is_ok()));
    }

    #[test]
    fn wrong_length_names_the_line() {
        let text = format!("{LINE}\n{}\n", &LINE[..80]);
        let all = parse_all(&text);
        let err = all[1].board.clone().unwrap_err();
        assert_eq!(err.line, 2);
        assert!(err.problem.contains("80 cells"), "{err}");
    }

    #[test]
    fn bad_character_names_line_and_column() {
        let bad = format!("{}x{}", &LINE[..10], &LINE[11..]);
        let err = parse_one(&bad).unwrap_err();
        assert_eq!((err.line, err.column), (1, 11));
        assert!(err.problem.contains("'x'"));
    }

    #[test]
    fn eight_rows_is_an_error() {
        let b = one(LINE);
        let pretty = to_pretty(&b);
        let eight: Vec<&str> = pretty.lines().take(10).collect();
        let err = parse_one(&eight.join("\n")).unwrap_err();
        assert!(err.problem.contains("8 rows instead of 9"), "{err}");
    }

    #[test]
    fn csv_bad_field_names_column() {
        let text = "5,3,,,7,,,,\n6,,,1,9,5,,,\n,9,8,,,,,6,\n8,,,,6,,,,3\n4,,,8,ab,3,,,1\n7,,,,2,,,,6\n,6,,,,,2,8,\n,,,4,1,9,,,5\n,,,,8,,,7,9\n";
        let err = parse_one(text).unwrap_err();
        // The field "ab" starts at column 7 and is quoted whole.
        assert_eq!((err.line, err.column), (5, 7));
        assert!(err.problem.contains("\"ab\""), "{err}");
    }

    #[test]
    fn row_of_dashes_is_a_row_not_a_separator() {
        let mut rows: Vec<String> = LINE
            .as_bytes()
            .chunks(9)
            .map(|c| String::from_utf8_lossy(c).into_owned())
            .collect();
        rows[0] = "---------".into();
        let b = one(&rows.join("\n"));
        assert_eq!(b.filled_count(), one(LINE).filled_count() - 3);
    }
}
