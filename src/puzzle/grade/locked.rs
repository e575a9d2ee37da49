//! Locked candidates: a digit confined to one line inside a box (pointing) or to one box
//! inside a line (claiming) leaves the rest of that line or box.

use crate::puzzle::board::Pos;

use super::grid::{Grid, HOUSES};

impl Grid {
    /// Pointing: a digit confined to one line inside a box leaves the rest of that line.
    pub(super) fn pointing(&mut self) -> bool {
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
    pub(super) fn eliminate_outside_box(&mut self, line: usize, b: usize, digits: u16) -> bool {
        let house = &HOUSES[line];
        let outside = (0..9)
            .filter(|&s| Pos::from_index(house[s] as usize).map(Pos::box_index) != Some(b))
            .fold(0u16, |m, s| m | 1 << s);
        self.eliminate(house, outside, digits)
    }

    /// Claiming: a digit confined to one box inside a line leaves the rest of that box.
    pub(super) fn claiming(&mut self) -> bool {
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
}
