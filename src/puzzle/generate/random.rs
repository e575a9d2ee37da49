//! Randomness for generation: a splitmix64 stream, and a random full grid drawn from it.

use crate::puzzle::board::{Board, Digit, Pos};

/// A random full grid: the three diagonal boxes (which never constrain each other) filled with
/// random permutations, completed by [`complete`], then rows, columns, bands and stacks
/// shuffled within the moves that keep a grid valid, so the completion's fixed order leaves no
/// trace.
pub(super) fn random_grid(rng: &mut SplitMix64) -> Board {
    let mut seeded = Board::empty();
    for b in [0, 4, 8] {
        let mut digits: Vec<u8> = (1..=9).collect();
        rng.shuffle(&mut digits);
        for (k, d) in digits.into_iter().enumerate() {
            let pos = Pos::new(b / 3 * 3 + k / 3, b % 3 * 3 + k % 3).expect("inside the grid");
            seeded.set(pos, Digit::new(d));
        }
    }
    let full = complete(seeded).expect("diagonal boxes always complete to a grid");
    let rows = rng.line_permutation();
    let cols = rng.line_permutation();
    let transpose = rng.below(2) == 1;
    let mut out = Board::empty();
    for pos in Pos::all() {
        let (r, c) = (rows[pos.row()], cols[pos.col()]);
        let (r, c) = if transpose { (c, r) } else { (r, c) };
        out.set(pos, full.get(Pos::new(r, c).expect("permuted index 0-8")));
    }
    out
}

/// The first completion of `board` in reading order, each empty cell taking its smallest
/// digit that still leads to a full grid. Its own small search, not the solver's: the
/// puzzles of a seed must not change when the solver's guessing changes (the screenshot
/// benchmark and the test pictures are rendered from `generate --seed 1`).
fn complete(mut board: Board) -> Option<Board> {
    if board.first_conflict().is_some() {
        return None;
    }
    let house_masks = |board: &Board| {
        let mut used = [[0u16; 9]; 3]; // rows, columns, boxes
        for pos in Pos::all() {
            if let Some(d) = board.get(pos) {
                let bit = 1u16 << d.get();
                used[0][pos.row()] |= bit;
                used[1][pos.col()] |= bit;
                used[2][pos.row() / 3 * 3 + pos.col() / 3] |= bit;
            }
        }
        used
    };
    let mut used = house_masks(&board);
    let empty: Vec<Pos> = Pos::all().filter(|&p| board.get(p).is_none()).collect();
    fill(&mut board, &mut used, &empty).then_some(board)
}

/// Fills `cells` in order by backtracking; `used[house][i]` holds the digits (bit d) there.
fn fill(board: &mut Board, used: &mut [[u16; 9]; 3], cells: &[Pos]) -> bool {
    let Some((&pos, rest)) = cells.split_first() else {
        return true;
    };
    let houses = [pos.row(), pos.col(), pos.row() / 3 * 3 + pos.col() / 3];
    let taken = used[0][houses[0]] | used[1][houses[1]] | used[2][houses[2]];
    for d in (1..=9u8).filter(|d| taken & (1 << d) == 0) {
        houses
            .iter()
            .zip(used.iter_mut())
            .for_each(|(&h, u)| u[h] |= 1 << d);
        board.set(pos, Digit::new(d));
        if fill(board, used, rest) {
            return true;
        }
        houses
            .iter()
            .zip(used.iter_mut())
            .for_each(|(&h, u)| u[h] &= !(1 << d));
    }
    board.set(pos, None);
    false
}

/// splitmix64 (Steele, Lea, Flood 2014): tiny, fast, and identical on every platform, which is
/// all a puzzle generator needs; it is not for cryptography.
pub(super) struct SplitMix64(u64);

impl SplitMix64 {
    /// The stream of puzzle `index` of `seed`: the index is mixed in before the first draw so
    /// neighbouring indices start far apart.
    pub(super) fn for_puzzle(seed: u64, index: u64) -> SplitMix64 {
        let mut base = SplitMix64(seed);
        let start = base.next() ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03);
        SplitMix64(SplitMix64(start).next())
    }

    pub(super) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `n` (multiply-shift; the bias is under n / 2^64, far below notice).
    pub(super) fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next()) * n as u128) >> 64) as usize
    }

    /// Fisher-Yates.
    pub(super) fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }

    /// A permutation of 0-8 that keeps lines within their band: bands shuffled, and the three
    /// lines inside each band.
    pub(super) fn line_permutation(&mut self) -> [usize; 9] {
        let mut bands = [0, 1, 2];
        self.shuffle(&mut bands);
        let mut out = [0; 9];
        for (i, band) in bands.into_iter().enumerate() {
            let mut lines = [0, 1, 2];
            self.shuffle(&mut lines);
            for (j, line) in lines.into_iter().enumerate() {
                out[i * 3 + j] = band * 3 + line;
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn completion_keeps_the_digits_placed_and_fills_a_valid_grid() {
        let mut seeded = Board::empty();
        seeded.set(Pos::new(0, 0).unwrap(), Digit::new(5));
        seeded.set(Pos::new(4, 4).unwrap(), Digit::new(1));
        let full = complete(seeded).unwrap();
        assert_eq!(full.filled_count(), 81);
        assert!(full.solves(&seeded));
        // Two 5s in one row cannot be completed (and are told at once, before any search).
        seeded.set(Pos::new(0, 8).unwrap(), Digit::new(5));
        assert_eq!(complete(seeded), None);
    }

    #[test]
    fn random_grids_are_valid_and_differ() {
        let mut rng = SplitMix64::for_puzzle(1, 2);
        let (a, b) = (random_grid(&mut rng), random_grid(&mut rng));
        assert!(a.solves(&Board::empty()) && b.solves(&Board::empty()));
        assert_ne!(a, b);
    }
}
