//! Who wrote each digit: the puzzle's givens, a player's entries, or neither (a smudge a
//! photo's shadow left). The step after slicing: the cells' glyphs come in all givens and go
//! out each with its author, and with the author clear shades alone would give it, which the
//! reading's author hypotheses fall back to (see `crate::read::hypotheses`).

mod colour;
mod colours;
mod explain;
mod faint;
mod fill;
mod groups;
mod one_ink;
mod shapes;
mod weight;

use crate::pipeline::cells::{Author, Cells};
use groups::LONE_SPLIT;

/// The fewest entries whose median colour is theirs.
const MIN_ENTRIES_FOR_COLOUR: usize = 3;

/// Tells the authors of `cells`' glyphs, as [`slice`](crate::stages::slice) left them (all
/// givens): by colour, a group of glyphs apart from the givens' being a player's entries; then
/// the givens much fainter than the picture's other givens are dropped as smudges, their cells
/// cleaned like cells of pencil marks before an answer is drawn.
pub fn tell(cells: &mut Cells) {
    let backs: Vec<[u8; 3]> = (cells.glyphs.iter())
        .map(|g| g.as_ref().map_or(cells.background, |g| g.cell_background))
        .collect();
    colours::mark_entries(
        &mut cells.glyphs,
        cells.background,
        &backs,
        &cells.cell_backgrounds,
    );
    let room: Vec<f32> = (cells.glyphs.iter())
        .map(|g| g.as_ref().map_or(1.0, |g| g.room))
        .collect();
    for i in faint::drop_faint_givens(&mut cells.glyphs, &room) {
        cells.marked[i] = Some(backs[i]);
    }
}

impl Cells {
    /// Which cells (row-major) hold an entry drawn in a colour of its own, as far from the
    /// median colour of the picture's entries as a lone glyph must be from a group to be a group
    /// of its own (`LONE_SPLIT`): an app that paints a wrong entry red has judged it already. `false` everywhere with fewer than `MIN_ENTRIES_FOR_COLOUR` entries.
    pub(crate) fn entries_coloured_apart(&self) -> [bool; 81] {
        let mut apart = [false; 81];
        let entries: Vec<(usize, [f32; 3])> = (self.glyphs.iter().enumerate())
            .filter_map(|(i, g)| g.as_ref().map(|g| (i, g)))
            .filter(|(_, g)| g.author == Author::Entry)
            .map(|(i, g)| (i, g.colour.map(f32::from)))
            .collect();
        if entries.len() < MIN_ENTRIES_FOR_COLOUR {
            return apart;
        }
        let median = colour::median(entries.iter().map(|e| e.1));
        for (i, colour) in entries {
            apart[i] = colour::distance(colour, median) > LONE_SPLIT;
        }
        apart
    }

    /// The cells (row-major) whose glyph's author a weak shade alone decided (its `author`
    /// differs from its `sure_author`), the one whose colour is nearest the givens' mean
    /// colour first.
    pub(crate) fn unsure_nearest_givens_first(&self) -> Vec<usize> {
        let givens = colour::mean(
            (self.glyphs.iter().flatten())
                .filter(|g| g.author == Author::Given)
                .map(|g| g.colour.map(f32::from)),
        );
        let mut unsure: Vec<(usize, f32)> = (self.glyphs.iter().enumerate())
            .filter_map(|(i, g)| g.as_ref().map(|g| (i, g)))
            .filter(|(_, g)| g.author != g.sure_author)
            .map(|(i, g)| (i, colour::distance(g.colour.map(f32::from), givens)))
            .collect();
        unsure.sort_by(|a, b| a.1.total_cmp(&b.1));
        unsure.into_iter().map(|(i, _)| i).collect()
    }
}
