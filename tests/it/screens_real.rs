//! Real app screenshots (`../shared/data/screens-real`, each app's licence in its README):
//! causes seen there, read exactly.

use sudoku_snap::{Board, Options, Snap, Status};

use super::util::shared;

/// GNOME Sudoku draws the givens and the player's entries in one font and colour, the givens
/// on grey cells and the entries on the plain white of the empty ones (a cell's fill, not its
/// ink, tells the author; with the entries taken for givens the answer came out right but
/// the game's givens did not). Where a player's entry clashes with a given, GNOME paints both
/// red: the red given stays on its grey cell, and the fill, not the red, tells it is a given
/// (001, 013: read as entries, the givens left had several solutions).
#[test]
fn entries_on_the_plain_fill_beside_givens_on_a_fill_of_their_own_are_entries() {
    let Some(dir) = shared("data/screens-real") else {
        return;
    };
    let snap = Snap::new(Options::default()).unwrap();
    for name in [
        "001-gnome-sudoku",
        "009-gnome-sudoku",
        "012-gnome-sudoku",
        "013-gnome-sudoku",
    ] {
        let picture = dir.join(format!("{name}.png"));
        let text = std::fs::read_to_string(picture.with_extension("txt")).unwrap();
        let lines: Vec<Board> = text.lines().map(|l| l.trim().parse().unwrap()).collect();
        let report = snap.process(&picture, None);
        assert_eq!(report.status, Status::Solved, "{name}: {:?}", report.error);
        assert_eq!(report.givens, Some(lines[0]), "{name}: givens");
        assert_eq!(report.solution, Some(lines[1]), "{name}: solution");
        assert_eq!(report.entries, Some(lines[2]), "{name}: entries");
    }
}

/// An app's own dark `8` on its light selection disc is isolated with the disc, so its colour
/// stands apart from the other entries' as an app's marked mistake would; the templates read it
/// only barely (`9` by 0.03 over `6`), so it is not surely wrong: listed as not read surely,
/// never called a mistake (SudokuSlayer, every entry right).
#[test]
fn an_entry_coloured_apart_but_not_read_clearly_is_not_called_wrong() {
    let Some(dir) = shared("data/screens-real") else {
        return;
    };
    let snap = Snap::new(Options::default()).unwrap();
    let picture = dir.join("035-sudokuslayer.png");
    let report = snap.process(&picture, None);
    assert_eq!(report.status, Status::Solved, "{:?}", report.error);
    let text = std::fs::read_to_string(picture.with_extension("txt")).unwrap();
    let solution: Board = text.lines().nth(1).unwrap().trim().parse().unwrap();
    assert_eq!(report.solution, Some(solution));
    assert!(
        report.wrong_entries.is_empty(),
        "{:?}",
        report.wrong_entries
    );
    let cells: Vec<String> = (report.unreadable_entries.iter())
        .map(|u| u.cell.to_string())
        .collect();
    assert_eq!(cells, ["r5c2"]);
}

/// The report of `name` of `../shared/data/screens-real` read as a solve, beside its truth's
/// lines (givens, solution, entries); `None` (the test skipped) without `../shared`.
fn read_with_truth(name: &str) -> Option<(sudoku_snap::Report, Vec<Board>)> {
    let picture = shared("data/screens-real")?.join(name);
    let text = std::fs::read_to_string(picture.with_extension("txt")).unwrap();
    let lines: Vec<Board> = text.lines().map(|l| l.trim().parse().unwrap()).collect();
    let report = Snap::new(Options::default())
        .unwrap()
        .process(&picture, None);
    assert_eq!(report.status, Status::Solved, "{name}: {:?}", report.error);
    Some((report, lines))
}

/// A photographed newspaper darker towards its corners: the corner givens' print darkens with
/// the paper around it, channel by channel, and is one ink with the centre's (read as a
/// player's entries, the givens left had several solutions).
#[test]
fn print_darkened_with_its_paper_in_a_photos_corners_is_given() {
    let Some((report, lines)) = read_with_truth("045-photo-snapsudoku.jpg") else {
        return;
    };
    assert_eq!(report.givens, Some(lines[0]));
    assert_eq!(report.solution, Some(lines[1]));
}

/// A camera shot whose printed 5 (r1c6) is fainter than the other givens: the strength a
/// smudge is told by is its strongest stroke's, so the lower cut its own cell's contrast gives
/// it (a box taking in more of its blurred edge) does not make it a smudge.
#[test]
fn a_faint_printed_given_is_no_smudge() {
    let Some((report, lines)) = read_with_truth("040-photo-snapsudoku.jpg") else {
        return;
    };
    assert_eq!(report.givens, Some(lines[0]));
}

/// A camera shot of a folded page: the folds' shading stands out from the empty cells' paper
/// about as much as faint print would (own contrast 9-32 against the print's 111-168), and
/// cut at those cells' own contrast it was read as three entries. A cell is cut at its own
/// contrast only where the grid's cut sees ink at all.
#[test]
fn a_folds_shading_is_no_entry() {
    let Some((report, lines)) = read_with_truth("042-photo-snapsudoku.jpg") else {
        return;
    };
    assert_eq!(report.givens, Some(lines[0]));
    assert_eq!(report.entries, Some(lines[2]), "no entry is written");
}
