//! Grading: how hard a puzzle is for a person, measured by a logical solver that never guesses.
//!
//! The solver keeps a candidate set per cell and, at every step, applies the easiest technique
//! that makes progress, then starts again from the easiest. The grade is the hardest technique
//! it needed. When no technique applies before the grid is full the puzzle "needs guessing"
//! (or techniques beyond ours) and is graded [`Difficulty::Expert`].
//!
//! Houses are numbered rows 0-8, columns 9-17, boxes 18-26; a house's nine cells are its
//! "slots" 0-8 (left to right, top to bottom).

use std::fmt;
use std::str::FromStr;

use crate::puzzle::board::Board;

mod fish;
mod grid;
mod locked;
mod singles;
mod subsets;

pub(crate) use grid::{Grid, HOUSES};

/// A solving technique, in increasing order of difficulty.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
#[non_exhaustive]
pub enum Technique {
    /// A cell with one candidate left.
    NakedSingle,
    /// A digit with one place left in a row, column or box.
    HiddenSingle,
    /// Locked candidates, pointing: a digit's places in a box lie in one row or column, so the
    /// rest of that line loses it.
    Pointing,
    /// Locked candidates, claiming: a digit's places in a row or column lie in one box, so the
    /// rest of that box loses it.
    Claiming,
    /// Two cells of a house with the same two candidates.
    NakedPair,
    /// Two digits with the same two places in a house.
    HiddenPair,
    /// Three cells of a house whose candidates together are three digits.
    NakedTriple,
    /// Three digits whose places in a house are together three cells.
    HiddenTriple,
    /// A digit in two rows (columns) whose places are the same two columns (rows).
    XWing,
    /// A bivalue pivot with two bivalue pincers: the pincers' common digit leaves every cell
    /// that sees both.
    XYWing,
    /// An X-wing over three rows (columns) and three columns (rows).
    Swordfish,
}

impl Technique {
    /// Every technique, easiest first.
    pub const ALL: [Technique; 11] = [
        Technique::NakedSingle,
        Technique::HiddenSingle,
        Technique::Pointing,
        Technique::Claiming,
        Technique::NakedPair,
        Technique::HiddenPair,
        Technique::NakedTriple,
        Technique::HiddenTriple,
        Technique::XWing,
        Technique::XYWing,
        Technique::Swordfish,
    ];

    /// The difficulty of a puzzle that needs this technique.
    pub const fn difficulty(self) -> Difficulty {
        match self {
            Technique::NakedSingle | Technique::HiddenSingle => Difficulty::Easy,
            Technique::Pointing | Technique::Claiming => Difficulty::Medium,
            Technique::NakedPair
            | Technique::HiddenPair
            | Technique::NakedTriple
            | Technique::HiddenTriple => Difficulty::Hard,
            Technique::XWing | Technique::XYWing | Technique::Swordfish => Difficulty::Expert,
        }
    }

    /// A snake_case key for machine-readable output, e.g. `hidden_single`.
    pub const fn key(self) -> &'static str {
        match self {
            Technique::NakedSingle => "naked_single",
            Technique::HiddenSingle => "hidden_single",
            Technique::Pointing => "pointing",
            Technique::Claiming => "claiming",
            Technique::NakedPair => "naked_pair",
            Technique::HiddenPair => "hidden_pair",
            Technique::NakedTriple => "naked_triple",
            Technique::HiddenTriple => "hidden_triple",
            Technique::XWing => "x_wing",
            Technique::XYWing => "xy_wing",
            Technique::Swordfish => "swordfish",
        }
    }
}

/// Displays the human name, e.g. `hidden single`, `X-wing`.
impl fmt::Display for Technique {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Technique::XWing => f.write_str("X-wing"),
            Technique::XYWing => f.write_str("XY-wing"),
            other => f.write_str(&other.key().replace('_', " ")),
        }
    }
}

/// How hard a puzzle is for a person.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
#[non_exhaustive]
pub enum Difficulty {
    /// Naked and hidden singles are enough.
    Easy,
    /// Locked candidates (pointing, claiming) are needed too.
    Medium,
    /// Naked or hidden pairs or triples are needed.
    Hard,
    /// Singles, locked candidates and subsets are not enough: X-wing or harder, or guessing.
    Expert,
}

impl Difficulty {
    /// All four, easiest first.
    pub const ALL: [Difficulty; 4] = [
        Difficulty::Easy,
        Difficulty::Medium,
        Difficulty::Hard,
        Difficulty::Expert,
    ];

    /// The lowercase name, as accepted by [`FromStr`].
    pub const fn name(self) -> &'static str {
        match self {
            Difficulty::Easy => "easy",
            Difficulty::Medium => "medium",
            Difficulty::Hard => "hard",
            Difficulty::Expert => "expert",
        }
    }

    /// The next easier difficulty, `None` for `Easy`.
    pub const fn easier(self) -> Option<Difficulty> {
        match self {
            Difficulty::Easy => None,
            Difficulty::Medium => Some(Difficulty::Easy),
            Difficulty::Hard => Some(Difficulty::Medium),
            Difficulty::Expert => Some(Difficulty::Hard),
        }
    }

    /// The hardest technique that still belongs to this difficulty.
    pub const fn hardest_technique(self) -> Technique {
        match self {
            Difficulty::Easy => Technique::HiddenSingle,
            Difficulty::Medium => Technique::Claiming,
            Difficulty::Hard => Technique::HiddenTriple,
            Difficulty::Expert => Technique::Swordfish,
        }
    }
}

impl fmt::Display for Difficulty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The text is not one of `easy`, `medium`, `hard`, `expert`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownDifficulty(pub String);

impl fmt::Display for UnknownDifficulty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown difficulty {:?}: expected easy, medium, hard or expert",
            self.0
        )
    }
}

impl std::error::Error for UnknownDifficulty {}

impl FromStr for Difficulty {
    type Err = UnknownDifficulty;

    fn from_str(s: &str) -> Result<Difficulty, UnknownDifficulty> {
        Difficulty::ALL
            .into_iter()
            .find(|d| d.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownDifficulty(s.to_string()))
    }
}

/// The result of grading a puzzle.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Grade {
    /// The hardest technique's difficulty; `Expert` when the logic stalled.
    pub difficulty: Difficulty,
    /// Each technique used and how often (placements for singles, eliminating steps for the
    /// others), easiest first; unused techniques are left out.
    pub techniques: Vec<(Technique, u32)>,
    /// Whether the techniques alone filled the grid; `false` means the puzzle needs guessing
    /// (or techniques beyond ours).
    pub solved_logically: bool,
}

impl Grade {
    /// The hardest technique used, `None` for a full grid.
    pub fn hardest(&self) -> Option<Technique> {
        self.techniques.last().map(|&(t, _)| t)
    }
}

/// Grades `puzzle` with every technique.
///
/// Meant for puzzles with one solution: on a puzzle with several the logic stalls (graded
/// `Expert`, not solved logically); on one with none the result means nothing.
///
/// # Examples
///
/// ```
/// use sudoku_snap::puzzle::grade::{grade, Difficulty};
/// let puzzle = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
///     .parse()
///     .unwrap();
/// let g = grade(&puzzle);
/// assert_eq!(g.difficulty, Difficulty::Easy);
/// assert!(g.solved_logically);
/// ```
pub fn grade(puzzle: &Board) -> Grade {
    grade_up_to(puzzle, Difficulty::Expert)
}

/// Grades `puzzle` using only the techniques of `ceiling` and easier: a cheap way to ask "is
/// this at most `ceiling`?" (then `solved_logically` is `true`).
pub fn grade_up_to(puzzle: &Board, ceiling: Difficulty) -> Grade {
    let mut grid = Grid::new(puzzle);
    let max = ceiling.hardest_technique();
    let mut counts = [0u32; Technique::ALL.len()];
    while grid.ok && grid.open > 0 {
        let Some((technique, n)) = grid.step(max) else {
            break;
        };
        counts[technique as usize] += n;
    }
    let solved_logically = grid.ok && grid.open == 0;
    let techniques: Vec<(Technique, u32)> = Technique::ALL
        .into_iter()
        .zip(counts)
        .filter(|&(_, n)| n > 0)
        .collect();
    let difficulty = match techniques.last() {
        Some(&(t, _)) if solved_logically => t.difficulty(),
        None if solved_logically => Difficulty::Easy,
        _ => Difficulty::Expert,
    };
    Grade {
        difficulty,
        techniques,
        solved_logically,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::board::Pos;
    use crate::puzzle::solve;
    use crate::test_data::shared_puzzles;

    const NEWSPAPER: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

    fn board(s: &str) -> Board {
        s.parse().unwrap()
    }

    /// Runs the logic to its end and checks every placement and every candidate left against
    /// the unique solution: no technique may remove a true candidate.
    fn assert_sound(puzzle: &Board) -> Grade {
        let solution = solve::solve(puzzle).unwrap().unwrap();
        let mut grid = Grid::new(puzzle);
        while grid.ok && grid.open > 0 && grid.step(Technique::Swordfish).is_some() {
            for pos in Pos::all() {
                let truth = solution.get(pos).unwrap();
                let (v, c) = (grid.value[pos.index()], grid.cand[pos.index()]);
                assert!(
                    v == truth.get() || (v == 0 && c & truth.bit() != 0),
                    "{puzzle} {pos}"
                );
            }
        }
        assert!(grid.ok);
        grade(puzzle)
    }

    #[test]
    fn newspaper_puzzle_is_easy() {
        let g = assert_sound(&board(NEWSPAPER));
        assert_eq!(g.difficulty, Difficulty::Easy);
        assert!(g.solved_logically);
        assert_eq!(g.techniques.iter().map(|t| t.1).sum::<u32>(), 51);
    }

    #[test]
    fn forum_hardest_needs_guessing() {
        let Some(text) = shared_puzzles("forum_hardest_1106.txt") else {
            return;
        };
        for line in text.lines().take(40) {
            let g = assert_sound(&board(line));
            assert_eq!(g.difficulty, Difficulty::Expert, "{line}");
            assert!(!g.solved_logically, "{line}");
        }
    }

    #[test]
    fn hard_lists_are_graded_soundly() {
        let Some(text) = shared_puzzles("magictour_top1465.txt") else {
            return;
        };
        let mut seen = std::collections::HashSet::new();
        for line in text.lines().step_by(7) {
            let g = assert_sound(&board(line));
            seen.extend(g.techniques.iter().map(|t| t.0));
        }
        // the list is hard enough to exercise every elimination technique
        for t in [Technique::Pointing, Technique::NakedPair, Technique::XWing] {
            assert!(seen.contains(&t), "{t} never used");
        }
    }

    #[test]
    fn ceiling_stops_the_logic() {
        let Some(text) = shared_puzzles("magictour_top1465.txt") else {
            return;
        };
        let line = text.lines().next().unwrap();
        let g = grade_up_to(&board(line), Difficulty::Easy);
        assert!(!g.solved_logically);
        assert!(g.hardest().unwrap() <= Technique::HiddenSingle);
    }

    #[test]
    fn difficulty_names_round_trip() {
        for d in Difficulty::ALL {
            assert_eq!(d.name().parse::<Difficulty>(), Ok(d));
        }
        assert!("extreme".parse::<Difficulty>().is_err());
        assert_eq!(Technique::XWing.to_string(), "X-wing");
        assert_eq!(Technique::HiddenPair.to_string(), "hidden pair");
    }

    #[test]
    fn full_grid_is_easy() {
        let solution = solve::solve(&board(NEWSPAPER)).unwrap().unwrap();
        let g = grade(&solution);
        assert_eq!((g.difficulty, g.solved_logically), (Difficulty::Easy, true));
        assert!(g.techniques.is_empty());
    }
}
