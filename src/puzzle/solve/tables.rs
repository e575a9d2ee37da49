//! Constants and lookup tables of the band representation, all computed at compile time.

/// One bit for each of the 27 masks of a state.
pub(super) const ALL_MASKS: u32 = (1 << 27) - 1;

/// All 27 cells of a band.
pub(super) const BAND_FULL: u32 = (1 << 27) - 1;

/// Copies a 9-bit column mask into all three rows of a band.
pub(super) const ROWS_OF_COLUMNS: u32 = 1 | 1 << 9 | 1 << 18;

/// For a row's 9 bits, which of its three boxes hold a bit (3 bits).
pub(super) static ROW_BOXES: [u16; 512] = row_boxes_table();

/// The columns (9 bits) in which a band mask has a cell.
pub(super) fn columns_of(mask: u32) -> u32 {
    (mask | mask >> 9 | mask >> 18) & 0x1ff
}

/// For a 9-bit mini-row set (bit `row * 3 + box`), the cells (27-bit band mask) of the
/// mini-rows that lie on a one-to-one matching of the three rows to the three boxes; 0 when
/// there is no matching.
pub(super) static MATCHABLE_CELLS: [u32; 512] = matchable_cells_table();

/// For a band's 9-bit column set of one digit, the columns that are the only one of their box:
/// the digit's place in that box is in that column, so the other bands lose the column.
pub(super) static LOCKED_COLUMNS: [u16; 512] = locked_columns_table();

/// For each of a band's 27 cells, its other cells in the same row, box or column of the band.
pub(super) static BAND_PEERS: [u32; 27] = band_peers_table();

const fn row_boxes_table() -> [u16; 512] {
    let mut table = [0u16; 512];
    let mut row = 0;
    while row < 512 {
        let mut bx = 0;
        while bx < 3 {
            if row >> (3 * bx) & 7 != 0 {
                table[row] |= 1 << bx;
            }
            bx += 1;
        }
        row += 1;
    }
    table
}

const fn matchable_cells_table() -> [u32; 512] {
    let matchable = matchable_table();
    let cells = minirow_cells_table();
    let mut table = [0u32; 512];
    let mut set = 0;
    while set < 512 {
        table[set] = cells[matchable[set] as usize];
        set += 1;
    }
    table
}

const fn matchable_table() -> [u16; 512] {
    // The six ways to give rows 0, 1, 2 distinct boxes.
    const MATCHINGS: [[usize; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut table = [0u16; 512];
    let mut set = 0;
    while set < 512 {
        let mut m = 0;
        while m < 6 {
            let boxes = MATCHINGS[m];
            let used = 1 << boxes[0] | 1 << (3 + boxes[1]) | 1 << (6 + boxes[2]);
            if set & used == used {
                table[set] |= used as u16;
            }
            m += 1;
        }
        set += 1;
    }
    table
}

const fn minirow_cells_table() -> [u32; 512] {
    let mut table = [0u32; 512];
    let mut set = 0;
    while set < 512 {
        let mut minirow = 0;
        while minirow < 9 {
            if set >> minirow & 1 != 0 {
                let (row, bx) = (minirow / 3, minirow % 3);
                table[set] |= 7 << (row * 9 + bx * 3);
            }
            minirow += 1;
        }
        set += 1;
    }
    table
}

const fn locked_columns_table() -> [u16; 512] {
    let mut table = [0u16; 512];
    let mut columns: usize = 0;
    while columns < 512 {
        let mut bx = 0;
        while bx < 3 {
            let in_box = (columns >> (3 * bx)) & 7;
            if in_box.count_ones() == 1 {
                table[columns] |= (in_box << (3 * bx)) as u16;
            }
            bx += 1;
        }
        columns += 1;
    }
    table
}

const fn band_peers_table() -> [u32; 27] {
    let mut table = [0u32; 27];
    let mut cell = 0;
    while cell < 27 {
        let mut other = 0;
        while other < 27 {
            let same_row = cell / 9 == other / 9;
            let same_col = cell % 9 == other % 9;
            let same_box = cell % 9 / 3 == other % 9 / 3;
            if other != cell && (same_row || same_col || same_box) {
                table[cell] |= 1 << other;
            }
            other += 1;
        }
        cell += 1;
    }
    table
}
