//! What a completed game's entries say of its givens: where every other cell of a given's
//! row, column and box is filled (givens and entries alike) with eight different digits, the
//! given can only be the ninth, if the player is right. Entries are the player's and may be
//! wrong, or misread; either leaves a digit twice in each of its houses, so none of them
//! implies anything, and a given is taken as implied only when all three houses agree.

use crate::puzzle::board::{Board, Digit, Pos};

/// `givens` with each given the filled houses around it imply otherwise (see the module's
/// comment) replaced by the digit implied, repeated while one more is implied (a given
/// mended completes the houses it lies in); the cells changed, in the order they were. The
/// `entries` are the player's as read; a cell holding both counts as its given.
pub(crate) fn implied_givens(givens: &Board, entries: &Board) -> (Board, Vec<Pos>) {
    let mut mended = *givens;
    let mut changed = Vec::new();
    while let Some((cell, digit)) = next_implied(&mended, entries) {
        mended.set(cell, Some(digit));
        changed.push(cell);
    }
    (mended, changed)
}

/// The first given that its houses, filled around it, imply to be another digit.
fn next_implied(givens: &Board, entries: &Board) -> Option<(Pos, Digit)> {
    let filled = |p: Pos| givens.get(p).or_else(|| entries.get(p));
    Pos::all().find_map(|cell| {
        let read = givens.get(cell)?;
        let implied = houses_of(cell).map(|house| ninth_digit(house, cell, &filled));
        let [Some(a), Some(b), Some(c)] = implied else {
            return None;
        };
        (a == b && b == c && a != read).then_some((cell, a))
    })
}

/// The row, the column and the box of `cell`, each as its nine cells.
fn houses_of(cell: Pos) -> [[Pos; 9]; 3] {
    let at = |r: usize, c: usize| Pos::new(r, c).expect("inside the grid");
    let (row, col) = (cell.row(), cell.col());
    let (top, left) = (row / 3 * 3, col / 3 * 3);
    [
        std::array::from_fn(|k| at(row, k)),
        std::array::from_fn(|k| at(k, col)),
        std::array::from_fn(|k| at(top + k / 3, left + k % 3)),
    ]
}

/// The one digit missing from `house` around `cell`, when its eight other cells are filled
/// with eight different digits.
fn ninth_digit(
    house: [Pos; 9],
    cell: Pos,
    filled: &impl Fn(Pos) -> Option<Digit>,
) -> Option<Digit> {
    let mut seen = 0u16;
    for p in house.into_iter().filter(|&p| p != cell) {
        let bit = filled(p)?.bit();
        if seen & bit != 0 {
            return None;
        }
        seen |= bit;
    }
    Digit::all().find(|d| seen & d.bit() == 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SOLUTION: &str =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

    /// A game completed right: `givens` printed (`.` elsewhere), the rest of the solution
    /// entered.
    fn completed(givens: &str) -> (Board, Board) {
        let solution: Board = SOLUTION.parse().unwrap();
        let givens: Board = givens.parse().unwrap();
        let mut entries = Board::empty();
        for p in Pos::all().filter(|&p| givens.get(p).is_none()) {
            entries.set(p, solution.get(p));
        }
        (givens, entries)
    }

    const GIVENS: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

    #[test]
    fn a_misread_given_is_what_the_completed_game_around_it_leaves() {
        let (mut givens, entries) = completed(GIVENS);
        let true_givens = givens;
        let r1c1 = Pos::new(0, 0).unwrap();
        let r5c4 = Pos::new(4, 3).unwrap();
        givens.set(r1c1, Digit::new(3));
        givens.set(r5c4, Digit::new(6));
        let (mended, changed) = implied_givens(&givens, &entries);
        assert_eq!(mended, true_givens);
        assert_eq!(changed, [r1c1, r5c4]);
        // Read right, nothing is changed.
        assert_eq!(
            implied_givens(&true_givens, &entries),
            (true_givens, vec![])
        );
    }

    #[test]
    fn a_wrong_entry_implies_nothing_in_its_houses() {
        let (mut givens, mut entries) = completed(GIVENS);
        let r1c1 = Pos::new(0, 0).unwrap();
        givens.set(r1c1, Digit::new(3));
        // The player wrote r1c3's 4 as a 5 (the row now holds 5 twice, and no 4).
        entries.set(Pos::new(0, 2).unwrap(), Digit::new(5));
        let (mended, changed) = implied_givens(&givens, &entries);
        assert_eq!(mended, givens);
        assert!(changed.is_empty());
    }

    #[test]
    fn an_open_house_implies_nothing() {
        let (mut givens, mut entries) = completed(GIVENS);
        let r1c1 = Pos::new(0, 0).unwrap();
        givens.set(r1c1, Digit::new(3));
        entries.set(Pos::new(1, 1).unwrap(), None);
        assert!(implied_givens(&givens, &entries).1.is_empty());
    }
}
