//! Subsets: `k` cells of a house holding `k` digits between them (naked pairs and triples),
//! or `k` digits whose places in a house are `k` cells (hidden pairs and triples).

use super::grid::{find_locked_set, Grid, HOUSES};

impl Grid {
    /// Naked pairs/triples: `k` cells of a house holding `k` digits between them.
    pub(super) fn naked_subset(&mut self, k: u32) -> bool {
        for house in &HOUSES {
            let by_slot: [u16; 9] = std::array::from_fn(|s| self.cand[house[s] as usize]);
            if let Some((slots, digits)) = find_locked_set(&by_slot, k) {
                return self.eliminate(house, !slots & 0x1ff, digits);
            }
        }
        false
    }

    /// Hidden pairs/triples: `k` digits whose places in a house are `k` cells between them.
    pub(super) fn hidden_subset(&mut self, k: u32) -> bool {
        for house in &HOUSES {
            let (by_digit, _) = self.places(house);
            if let Some((digits, slots)) = find_locked_set(&by_digit, k) {
                return self.eliminate(house, slots, !digits & 0x1ff);
            }
        }
        false
    }
}
