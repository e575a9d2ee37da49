//! The grader's working grid: candidates per cell, the houses and peers tables, placing a
//! digit, and one step of the easiest technique that makes progress (the techniques
//! themselves live in one module per family).

use crate::puzzle::board::{Board, Pos};

use super::Technique;

/// The cells of each house: rows 0-8, columns 9-17, boxes 18-26.
pub(crate) static HOUSES: [[u8; 9]; 27] = houses_table();

/// The 20 peers of each cell.
pub(super) static PEERS: [[u8; 20]; 81] = peers_table();

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

    /// For one house: each digit's slots (9-bit masks) and the digits already placed.
    pub(super) fn places(&self, house: &[u8; 9]) -> ([u16; 9], u16) {
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
    pub(super) fn eliminate(&mut self, house: &[u8; 9], slots: u16, digits: u16) -> bool {
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
}

/// Among the non-empty `masks` (indexed 0-8), `k` whose union has exactly `k` bits and that
/// lets something be eliminated: another index shares a bit of the union. Returns the chosen
/// indices and the union. This one search is naked subsets (slots -> digits), hidden subsets
/// (digits -> slots) and fish (lines -> crossing lines).
pub(super) fn find_locked_set(masks: &[u16; 9], k: u32) -> Option<(u16, u16)> {
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
