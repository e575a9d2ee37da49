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

use crate::puzzle::board::{Board, Pos};

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

/// The cells of each house: rows 0-8, columns 9-17, boxes 18-26.
pub(crate) static HOUSES: [[u8; 9]; 27] = houses_table();

/// The 20 peers of each cell.
static PEERS: [[u8; 20]; 81] = peers_table();

const fn houses_table() -> [[u8; 9]; 27] {
    let mut table = [[0u8; 9]; 27];
    let mut i = 0;
    while i < 9 {
        let mut j = 0;
        while j < 9 {
            table[i][j] = (i * 9 + j) as u8;
            table[9 + i][j] = (j * 9 + i) as u8;
            table[18 + i][j] = ((i / 3 * 3 + j / 3) * 9 + i % 3 * 3 + j % 3) as u8;
            j += 1;
        }
        i += 1;
    }
    table
}

const fn peers_table() -> [[u8; 20]; 81] {
    let mut table = [[0u8; 20]; 81];
    let mut cell = 0;
    while cell < 81 {
        let mut n = 0;
        let mut other = 0;
        while other < 81 {
            let same_row = cell / 9 == other / 9;
            let same_col = cell % 9 == other % 9;
            let same_box = cell / 27 == other / 27 && cell % 9 / 3 == other % 9 / 3;
            if other != cell && (same_row || same_col || same_box) {
                table[cell][n] = other as u8;
                n += 1;
            }
            other += 1;
        }
        cell += 1;
    }
    table
}

/// Candidates of an unfinished grid: `cand[cell]` is a 9-bit digit mask, 0 once the cell is
/// filled.
pub(crate) struct Grid {
    pub(crate) cand: [u16; 81],
    pub(crate) value: [u8; 81],
    /// Empty cells left.
    pub(crate) open: usize,
    /// `false` once a contradiction showed up (a cell or digit with no place).
    pub(crate) ok: bool,
}

impl Grid {
    pub(crate) fn new(puzzle: &Board) -> Grid {
        let mut grid = Grid {
            cand: [0x1ff; 81],
            value: [0; 81],
            open: 81,
            ok: true,
        };
        for pos in Pos::all() {
            if let Some(d) = puzzle.get(pos) {
                if grid.cand[pos.index()] & d.bit() == 0 {
                    grid.ok = false; // clashing givens
                }
                grid.place(pos.index(), d.get());
            }
        }
        grid
    }

    pub(crate) fn place(&mut self, cell: usize, digit: u8) {
        let bit = 1 << (digit - 1);
        self.value[cell] = digit;
        self.cand[cell] = 0;
        self.open -= 1;
        for &peer in &PEERS[cell] {
            self.cand[peer as usize] &= !bit;
        }
    }

    /// Applies the easiest technique up to `max` that makes progress: which, and how often.
    pub(crate) fn step(&mut self, max: Technique) -> Option<(Technique, u32)> {
        for technique in Technique::ALL.into_iter().take_while(|&t| t <= max) {
            let n = match technique {
                Technique::NakedSingle => self.naked_singles(),
                Technique::HiddenSingle => self.hidden_singles(),
                Technique::Pointing => u32::from(self.pointing()),
                Technique::Claiming => u32::from(self.claiming()),
                Technique::NakedPair => u32::from(self.naked_subset(2)),
                Technique::HiddenPair => u32::from(self.hidden_subset(2)),
                Technique::NakedTriple => u32::from(self.naked_subset(3)),
                Technique::HiddenTriple => u32::from(self.hidden_subset(3)),
                Technique::XWing => u32::from(self.fish(2)),
                Technique::XYWing => u32::from(self.xy_wing()),
                Technique::Swordfish => u32::from(self.fish(3)),
            };
            if !self.ok {
                return None;
            }
            if n > 0 {
                return Some((technique, n));
            }
        }
        None
    }

    /// Fills every cell with one candidate; how many were filled.
    fn naked_singles(&mut self) -> u32 {
        let mut n = 0;
        for cell in 0..81 {
            if self.value[cell] != 0 {
                continue;
            }
            match self.cand[cell] {
                0 => {
                    self.ok = false;
                    return n;
                }
                c if c.is_power_of_two() => {
                    self.place(cell, c.trailing_zeros() as u8 + 1);
                    n += 1;
                }
                _ => {}
            }
        }
        n
    }

    /// Places every digit that has one place left in a house; how many were placed.
    fn hidden_singles(&mut self) -> u32 {
        let mut n = 0;
        for house in &HOUSES {
            // Bit-sliced counting over the house's nine masks: which digits have exactly one
            // slot, which have none, without listing every digit's slots (the hot loop of grading).
            let by_slot: [u16; 9] = std::array::from_fn(|s| self.cand[house[s] as usize]);
            let (mut once, mut twice, mut placed) = (0u16, 0u16, 0u16);
            for (&mask, &cell) in by_slot.iter().zip(house) {
                twice |= once & mask;
                once |= mask;
                if self.value[cell as usize] != 0 {
                    placed |= 1 << (self.value[cell as usize] - 1);
                }
            }
            if !(once | placed) & 0x1ff != 0 {
                self.ok = false; // a digit with no place left in this house
                return n;
            }
            let mut singles = once & !twice;
            while singles != 0 {
                let digit = singles.trailing_zeros();
                singles &= singles - 1;
                let slot = by_slot.iter().position(|&m| m & 1 << digit != 0);
                let cell = house[slot.expect("a single digit has a slot")] as usize;
                // `by_slot` predates this house's earlier placements: two digits left with the
                // same one cell is a contradiction, not two placements
                if self.cand[cell] & 1 << digit == 0 {
                    self.ok = false;
                    return n;
                }
                self.place(cell, digit as u8 + 1);
                n += 1;
            }
        }
        n
    }

    /// For one house: each digit's slots (9-bit masks) and the digits already placed.
    fn places(&self, house: &[u8; 9]) -> ([u16; 9], u16) {
        let mut pos = [0u16; 9];
        let mut placed = 0u16;
        for (slot, &cell) in house.iter().enumerate() {
            let cell = cell as usize;
            if self.value[cell] != 0 {
                placed |= 1 << (self.value[cell] - 1);
            }
            let mut c = self.cand[cell];
            while c != 0 {
                pos[c.trailing_zeros() as usize] |= 1 << slot;
                c &= c - 1;
            }
        }
        (pos, placed)
    }

    /// Removes `digits` from the cells of `house` in `slots`; whether anything changed.
    fn eliminate(&mut self, house: &[u8; 9], slots: u16, digits: u16) -> bool {
        let mut changed = false;
        for (slot, &cell) in house.iter().enumerate() {
            let cell = cell as usize;
            if slots & 1 << slot != 0 && self.cand[cell] & digits != 0 {
                self.cand[cell] &= !digits;
                changed = true;
            }
        }
        changed
    }

    /// Pointing: a digit confined to one line inside a box leaves the rest of that line.
    fn pointing(&mut self) -> bool {
        for b in 0..9 {
            let (pos, _) = self.places(&HOUSES[18 + b]);
            for (digit, &slots) in pos.iter().enumerate() {
                let line = if slots == 0 {
                    continue;
                } else if slots & !0o7 == 0 || slots & !0o70 == 0 || slots & !0o700 == 0 {
                    // one row of the box: slot / 3 is the row inside the box
                    b / 3 * 3 + slots.trailing_zeros() as usize / 3
                } else if slots & !0o111 == 0 || slots & !0o222 == 0 || slots & !0o444 == 0 {
                    9 + b % 3 * 3 + slots.trailing_zeros() as usize % 3
                } else {
                    continue;
                };
                if self.eliminate_outside_box(line, b, 1 << digit) {
                    return true;
                }
            }
        }
        false
    }

    /// Removes `digits` from the cells of `line` that are not in box `b`.
    fn eliminate_outside_box(&mut self, line: usize, b: usize, digits: u16) -> bool {
        let house = &HOUSES[line];
        let outside = (0..9)
            .filter(|&s| Pos::from_index(house[s] as usize).map(Pos::box_index) != Some(b))
            .fold(0u16, |m, s| m | 1 << s);
        self.eliminate(house, outside, digits)
    }

    /// Claiming: a digit confined to one box inside a line leaves the rest of that box.
    fn claiming(&mut self) -> bool {
        for house in &HOUSES[..18] {
            let (pos, _) = self.places(house);
            for (digit, &slots) in pos.iter().enumerate() {
                let third = match slots {
                    0 => continue,
                    s if s & !0o7 == 0 => 0,
                    s if s & !0o70 == 0 => 1,
                    s if s & !0o700 == 0 => 2,
                    _ => continue,
                };
                let cell = house[third * 3] as usize;
                let b = cell / 27 * 3 + cell % 9 / 3;
                let box_house = &HOUSES[18 + b];
                let outside = (0..9)
                    .filter(|&s| !house.contains(&box_house[s]))
                    .fold(0u16, |m, s| m | 1 << s);
                if self.eliminate(box_house, outside, 1 << digit) {
                    return true;
                }
            }
        }
        false
    }

    /// Naked pairs/triples: `k` cells of a house holding `k` digits between them.
    fn naked_subset(&mut self, k: u32) -> bool {
        for house in &HOUSES {
            let by_slot: [u16; 9] = std::array::from_fn(|s| self.cand[house[s] as usize]);
            if let Some((slots, digits)) = find_locked_set(&by_slot, k) {
                return self.eliminate(house, !slots & 0x1ff, digits);
            }
        }
        false
    }

    /// Hidden pairs/triples: `k` digits whose places in a house are `k` cells between them.
    fn hidden_subset(&mut self, k: u32) -> bool {
        for house in &HOUSES {
            let (by_digit, _) = self.places(house);
            if let Some((digits, slots)) = find_locked_set(&by_digit, k) {
                return self.eliminate(house, slots, !digits & 0x1ff);
            }
        }
        false
    }

    /// X-wing (`k` = 2) and swordfish (`k` = 3), with rows or with columns as the base.
    fn fish(&mut self, k: u32) -> bool {
        for digit in 0..9 {
            let bit = 1u16 << digit;
            for base in [0, 9] {
                let cover = 9 - base;
                // by_line[line] = slots of the line where the digit may go; a line's slot is
                // the index of the crossing line
                let by_line: [u16; 9] = std::array::from_fn(|line| {
                    let house = &HOUSES[base + line];
                    (0..9)
                        .filter(|&s| self.cand[house[s] as usize] & bit != 0)
                        .fold(0, |m, s| m | 1 << s)
                });
                let Some((lines, crossing)) = find_locked_set(&by_line, k) else {
                    continue;
                };
                let mut changed = false;
                for c in (0..9).filter(|c| crossing & 1 << c != 0) {
                    changed |= self.eliminate(&HOUSES[cover + c], !lines & 0x1ff, bit);
                }
                return changed;
            }
        }
        false
    }

    /// XY-wing: pivot {a,b}, pincers {a,c} and {b,c} that see the pivot; c leaves every cell
    /// that sees both pincers.
    fn xy_wing(&mut self) -> bool {
        for (pivot, peers) in PEERS.iter().enumerate() {
            let p = self.cand[pivot];
            if p.count_ones() != 2 {
                continue;
            }
            let wings: Vec<usize> = peers
                .iter()
                .map(|&c| c as usize)
                .filter(|&c| {
                    let w = self.cand[c];
                    w.count_ones() == 2 && (w & p).count_ones() == 1
                })
                .collect();
            for (i, &x) in wings.iter().enumerate() {
                for &y in &wings[i + 1..] {
                    let (wx, wy) = (self.cand[x], self.cand[y]);
                    let c = wx & wy & !p;
                    if c == 0 || wx & p == wy & p {
                        continue;
                    }
                    let mut changed = false;
                    for &t in &PEERS[x] {
                        let t = t as usize;
                        if t != y && PEERS[y].contains(&(t as u8)) && self.cand[t] & c != 0 {
                            self.cand[t] &= !c;
                            changed = true;
                        }
                    }
                    if changed {
                        return true;
                    }
                }
            }
        }
        false
    }
}

/// Among the non-empty `masks` (indexed 0-8), `k` whose union has exactly `k` bits and that
/// lets something be eliminated: another index shares a bit of the union. Returns the chosen
/// indices and the union. This one search is naked subsets (slots -> digits), hidden subsets
/// (digits -> slots) and fish (lines -> crossing lines).
fn find_locked_set(masks: &[u16; 9], k: u32) -> Option<(u16, u16)> {
    debug_assert!(k == 2 || k == 3, "pairs and triples only");
    let mut live = [0usize; 9];
    let mut n = 0;
    for (i, m) in masks.iter().enumerate() {
        if *m != 0 && m.count_ones() <= k {
            live[n] = i;
            n += 1;
        }
    }
    let live = &live[..n];
    let found = |subset: u16, union: u16| {
        let others = (0..9).any(|i| subset & 1 << i == 0 && masks[i] & union != 0);
        others.then_some((subset, union))
    };
    for (a, &x) in live.iter().enumerate() {
        for (b, &y) in live.iter().enumerate().skip(a + 1) {
            let union = masks[x] | masks[y];
            // a pair already spanning more than `k` digits is in no locked set of size `k`
            if union.count_ones() > k {
                continue;
            }
            let subset = 1 << x | 1 << y;
            if k == 2 {
                if union.count_ones() == k {
                    if let Some(hit) = found(subset, union) {
                        return Some(hit);
                    }
                }
                continue;
            }
            for &z in &live[b + 1..] {
                let union = union | masks[z];
                if union.count_ones() == k {
                    if let Some(hit) = found(subset | 1 << z, union) {
                        return Some(hit);
                    }
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::solve;

    const NEWSPAPER: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

    /// A puzzle file of `../shared/data/puzzles`; `None` (test skipped) when absent outside CI.
    fn shared(name: &str) -> Option<String> {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../shared/data/puzzles")
            .join(name);
        let text = std::fs::read_to_string(&path).ok();
        assert!(
            text.is_some() || std::env::var_os("CI").is_none(),
            "{path:?} missing"
        );
        text
    }

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
        let Some(text) = shared("forum_hardest_1106.txt") else {
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
        let Some(text) = shared("magictour_top1465.txt") else {
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
        let Some(text) = shared("magictour_top1465.txt") else {
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
