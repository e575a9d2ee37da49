//! Real app screenshots (`../shared/data/screens-real`, each app's licence in its README):
//! causes seen there, read exactly.

use sudoku_snap::{Board, Options, Snap, Status};

use super::util::shared;

/// GNOME Sudoku draws the givens and the player's entries in one font and colour, the givens
/// on grey cells and the entries on the plain white of the empty ones (a cell's fill, not its
/// ink, tells the author; with the entries taken for givens the answer came out right but
/// the game's givens did not).
#[test]
fn entries_on_the_plain_fill_beside_givens_on_a_fill_of_their_own_are_entries() {
    let Some(dir) = shared("data/screens-real") else {
        return;
    };
    let snap = Snap::new(Options::default()).unwrap();
    for name in ["009-gnome-sudoku", "012-gnome-sudoku"] {
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
