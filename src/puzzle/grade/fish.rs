//! Fish and wings: X-wing and swordfish over rows or columns, and the XY-wing.

use super::grid::{find_locked_set, Grid, HOUSES, PEERS};

impl Grid {
    /// X-wing (`k` = 2) and swordfish (`k` = 3), with rows or with columns as the base.
    pub(super) fn fish(&mut self, k: u32) -> bool {
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
    pub(super) fn xy_wing(&mut self) -> bool {
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
