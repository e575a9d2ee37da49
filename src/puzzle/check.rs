//! Checking a game in progress: a player's entries and pencil marks compared with the
//! puzzle's unique solution, and the board a person has actually reached (givens plus right
//! entries), from which hints start.

use serde::Serialize;

use crate::puzzle::board::{Board, Digit, Pos};

/// A player's entry that differs from the solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct WrongEntry {
    /// The cell, as `r3c5` in JSON.
    #[serde(serialize_with = "crate::puzzle::check::display")]
    pub cell: Pos,
    /// The digit the player entered.
    #[serde(serialize_with = "crate::puzzle::check::digit")]
    pub entered: Digit,
    /// The solution's digit there.
    #[serde(serialize_with = "crate::puzzle::check::digit")]
    pub should_be: Digit,
}

/// `r3c5: entered 4, should be 7`.
impl std::fmt::Display for WrongEntry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: entered {}, should be {}",
            self.cell, self.entered, self.should_be
        )
    }
}

/// A player's entry that differs from the solution but was not read surely as the digit
/// entered: neither called wrong nor right.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct UnreadableEntry {
    /// The cell, as `r3c5` in JSON.
    #[serde(serialize_with = "crate::puzzle::check::display")]
    pub cell: Pos,
    /// The digit the entry reads as most nearly.
    #[serde(serialize_with = "crate::puzzle::check::digit")]
    pub read: Digit,
    /// The solution's digit there.
    #[serde(serialize_with = "crate::puzzle::check::digit")]
    pub should_be: Digit,
}

/// `r3c5: entry not read surely (most like 4, should be 7): not checked`.
impl std::fmt::Display for UnreadableEntry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: entry not read surely (most like {}, should be {}): not checked",
            self.cell, self.read, self.should_be
        )
    }
}

/// Every entry of `entries` that differs from `solution`, in reading order.
///
/// # Examples
///
/// ```
/// use sudoku_snap::{puzzle::check::wrong_entries, Board, Digit, Pos};
/// let solution: Board = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
///     .parse()
///     .unwrap();
/// let mut entries = Board::empty();
/// entries.set(Pos::new(0, 2).unwrap(), Digit::new(4)); // r1c3, right
/// entries.set(Pos::new(2, 4).unwrap(), Digit::new(7)); // r3c5, the solution has 4
/// let wrong = wrong_entries(&entries, &solution);
/// assert_eq!(wrong.len(), 1);
/// assert_eq!(wrong[0].to_string(), "r3c5: entered 7, should be 4");
/// ```
pub fn wrong_entries(entries: &Board, solution: &Board) -> Vec<WrongEntry> {
    Pos::all()
        .filter_map(|cell| {
            let entered = entries.get(cell)?;
            let should_be = solution.get(cell)?;
            (entered != should_be).then_some(WrongEntry {
                cell,
                entered,
                should_be,
            })
        })
        .collect()
}

/// A cell whose pencil marks leave out the solution's digit: the player has ruled out the
/// answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct WrongPencilMarks {
    /// The cell, as `r3c5` in JSON.
    #[serde(serialize_with = "crate::puzzle::check::display")]
    pub cell: Pos,
    /// The digits marked, ascending.
    #[serde(serialize_with = "crate::puzzle::check::digits")]
    pub marks: Vec<Digit>,
    /// The solution's digit there, which no mark names.
    #[serde(serialize_with = "crate::puzzle::check::digit")]
    pub should_be: Digit,
}

/// `r3c5: pencil marks 1 2 4 leave out 7`.
impl std::fmt::Display for WrongPencilMarks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let word = if self.marks.len() == 1 {
            "pencil mark"
        } else {
            "pencil marks"
        };
        write!(f, "{}: {word}", self.cell)?;
        for d in &self.marks {
            write!(f, " {d}")?;
        }
        let verb = if self.marks.len() == 1 {
            "leaves"
        } else {
            "leave"
        };
        write!(f, " {verb} out {}", self.should_be)
    }
}

/// Every cell of `marks` (a cell and its pencil marks, each cell once) whose marks leave out
/// its digit in `solution`, in reading order. A cell the solution leaves empty is skipped.
///
/// # Examples
///
/// ```
/// use sudoku_snap::{puzzle::check::wrong_pencil_marks, Board, Digit, Pos};
/// let solution: Board = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
///     .parse()
///     .unwrap();
/// let digits = |ds: &[u8]| ds.iter().map(|&d| Digit::new(d).unwrap()).collect::<Vec<_>>();
/// let marks = [
///     (Pos::new(0, 2).unwrap(), digits(&[2, 4])),    // r1c3: the solution has 4
///     (Pos::new(2, 4).unwrap(), digits(&[1, 2, 7])), // r3c5: the solution has 4
/// ];
/// let wrong = wrong_pencil_marks(&marks, &solution);
/// assert_eq!(wrong.len(), 1);
/// assert_eq!(wrong[0].to_string(), "r3c5: pencil marks 1 2 7 leave out 4");
/// ```
pub fn wrong_pencil_marks(marks: &[(Pos, Vec<Digit>)], solution: &Board) -> Vec<WrongPencilMarks> {
    let mut wrong: Vec<WrongPencilMarks> = (marks.iter())
        .filter_map(|(cell, marks)| {
            let should_be = solution.get(*cell)?;
            (!marks.contains(&should_be)).then(|| WrongPencilMarks {
                cell: *cell,
                marks: marks.clone(),
                should_be,
            })
        })
        .collect();
    wrong.sort_by_key(|w| w.cell.index());
    wrong
}

/// The givens plus the entries that agree with `solution`: where the player really is.
pub fn reached(givens: &Board, entries: &Board, solution: &Board) -> Board {
    let mut board = *givens;
    for cell in Pos::all() {
        let entry = entries.get(cell);
        if board.get(cell).is_none() && entry.is_some() && entry == solution.get(cell) {
            board.set(cell, entry);
        }
    }
    board
}

pub(crate) fn display<T: std::fmt::Display, S: serde::Serializer>(
    v: &T,
    s: S,
) -> Result<S::Ok, S::Error> {
    s.collect_str(v)
}

pub(crate) fn digit<S: serde::Serializer>(d: &Digit, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_u8(d.get())
}

pub(crate) fn digits<S: serde::Serializer>(ds: &[Digit], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(ds.iter().map(|d| d.get()))
}
