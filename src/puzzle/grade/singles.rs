//! Singles: a cell with one candidate left (naked), a digit with one place left in a house
//! (hidden).

use super::grid::{Grid, HOUSES};

impl Grid {
    /// Fills every cell with one candidate; how many were filled.
    pub(super) fn naked_singles(&mut self) -> u32 {
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
    pub(super) fn hidden_singles(&mut self) -> u32 {
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
}
