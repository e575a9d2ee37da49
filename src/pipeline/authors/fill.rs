//! Cell fill: a player's entries told from the givens by the cells they stand on.
//!
//! Some apps draw the givens and the entries in one font and colour and mark the givens'
//! cells instead, with a fill of their own (GNOME Sudoku's grey fixed cells), the entries
//! left on the grid's plain background like the empty cells. A highlight of the selected row,
//! box or digit fills a few cells too, but a puzzle's worth of givens of several digits on one
//! fill other than the plain is the app saying which cells are fixed.

use super::colour::{distance, median};
use super::groups::MIN_SPLIT;
use super::shapes::Shapes;
use crate::pipeline::cells::Author;
use crate::puzzle::board::MIN_GIVENS;

/// The grid's plain fill: the median background of its cells without a glyph (`glyphless`),
/// `None` with fewer than a third of the cells so.
pub(super) fn plain_fill(glyphless: &[[f32; 3]]) -> Option<[f32; 3]> {
    (glyphless.len() * 3 >= 81).then(|| median(glyphless.iter().copied()))
}

/// `authors` with the givens standing on the grid's plain fill `background` (see
/// [`plain_fill`]) made entries, and the entries standing on the givens' fill made givens,
/// when no cell without a glyph (`glyphless`, their backgrounds) has the givens' fill (a
/// highlight of the selected row or box fills empty cells too) and at least `MIN_GIVENS`
/// others stand on one fill of their own (their cells' backgrounds within `MIN_SPLIT` of the
/// median fill, which is `MIN_SPLIT` from the plain), shaped as several digits (not one
/// digit's cells highlighted); givens on other fills (a highlighted row's) stay givens. Where
/// the fill tells the authors it tells them whatever the ink: an app that marks its fixed
/// cells so paints a given red when an entry clashes with it (GNOME Sudoku), and that colour
/// is no player's. `backs` are the glyphs' cells' backgrounds and `shapes` their shapes, in
/// the order of `authors`. Which fill is the givens' is known only by count, so the split is
/// weak: the reading falls back to the colours' authors when the givens so told have no one
/// solution (see `Glyph::sure_author`).
pub(super) fn authors_by_fill(
    mut authors: Vec<Author>,
    backs: &[[f32; 3]],
    (background, glyphless): ([f32; 3], &[[f32; 3]]),
    shapes: &Shapes,
) -> Vec<Author> {
    let givens: Vec<usize> = (0..authors.len())
        .filter(|&i| authors[i] == Author::Given)
        .collect();
    let plain = |i: &usize| distance(backs[*i], background) < MIN_SPLIT;
    let (on_plain, filled): (Vec<usize>, Vec<usize>) = givens.iter().partition(|i| plain(i));
    if on_plain.is_empty() || filled.len() < MIN_GIVENS {
        return authors;
    }
    let fill = median(filled.iter().map(|&i| backs[i]));
    let on_fill = |i: usize| distance(backs[i], fill) < MIN_SPLIT;
    let givens_on_fill: Vec<usize> = filled.iter().copied().filter(|&i| on_fill(i)).collect();
    let fills_empty_cells = glyphless.iter().any(|&b| distance(b, fill) < MIN_SPLIT);
    if givens_on_fill.len() < MIN_GIVENS || !shapes.mixed(&givens_on_fill) || fills_empty_cells {
        return authors;
    }
    let entries_on_fill: Vec<usize> = (0..authors.len())
        .filter(|&i| authors[i] == Author::Entry && on_fill(i))
        .collect();
    on_plain.iter().for_each(|&i| authors[i] = Author::Entry);
    entries_on_fill
        .iter()
        .for_each(|&i| authors[i] = Author::Given);
    authors
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::GrayImage;

    /// Glyph inks of `n` different shapes cycling (bars at different heights), so that the
    /// glyphs are shaped as several digits.
    fn inks(n: usize) -> Vec<GrayImage> {
        (0..n)
            .map(|k| {
                GrayImage::from_fn(10, 16, |_, y| {
                    image::Luma([if y as usize % 5 == k % 5 { 255 } else { 0 }])
                })
            })
            .collect()
    }

    #[test]
    fn the_givens_fill_tells_the_authors_whatever_their_ink() {
        let (white, grey, blue) = ([254.0; 3], [166.0, 170.0, 166.0], [200.0, 210.0, 250.0]);
        let inks = inks(24);
        let refs: Vec<&GrayImage> = inks.iter().collect();
        let shapes = Shapes::new(&refs);
        // 20 givens on grey, 3 glyphs on white, one on the selected row's blue.
        let mut backs = vec![grey; 20];
        backs.extend([white, white, white, blue]);
        let plain = (white, &[white; 40][..]);
        let authors = authors_by_fill(vec![Author::Given; 24], &backs, plain, &shapes);
        assert!(authors[..20].iter().all(|&a| a == Author::Given));
        assert!(authors[20..23].iter().all(|&a| a == Author::Entry));
        assert_eq!(
            authors[23],
            Author::Given,
            "another fill (a highlight) is no entry's"
        );
        // An entry by its colour on the givens' fill (a given painted red for a clash) is a
        // given; on the plain it stays an entry.
        let mut by_colour = vec![Author::Given; 24];
        by_colour[5] = Author::Entry;
        by_colour[21] = Author::Entry;
        let authors = authors_by_fill(by_colour, &backs, plain, &shapes);
        assert_eq!(authors[5], Author::Given);
        assert!(authors[20..23].iter().all(|&a| a == Author::Entry));
        // Fewer than a puzzle's givens on the fill (a highlighted box): nothing moves.
        let authors = authors_by_fill(
            vec![Author::Given; 24],
            &[vec![grey; 9], vec![white; 15]].concat(),
            plain,
            &shapes,
        );
        assert!(authors.iter().all(|&a| a == Author::Given));
        // The fill on empty cells too (the selected row and column highlighted): nothing moves.
        let highlighted = [vec![white; 30], vec![grey; 4]].concat();
        let authors = authors_by_fill(
            vec![Author::Given; 24],
            &backs,
            (white, &highlighted),
            &shapes,
        );
        assert!(authors.iter().all(|&a| a == Author::Given));
    }
}
