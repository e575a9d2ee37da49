//! Smudges taken for givens. A photo's shadow or a fold can stand out from its cell's
//! background just enough to pass the ink threshold, in a blob of a digit's size; print
//! stands out much more. The givens of one picture are printed alike, so a given whose
//! strokes are much fainter than the picture's other givens is no given.

use crate::pipeline::cells::{core_ink, Author, Glyph, MIN_POPULATION};

/// A given whose strongest stroke (see [`core_ink`]: not a quantile of its box, which a
/// blurred glyph found at its own cell's lower cut fills with more of its edge) stands out
/// less than this fraction of the givens' typical one is a smudge.
const FAINT: f32 = 0.6;

/// Removes the givens much fainter than the others from `glyphs`; `room[i]` is how much of
/// the grid's contrast cell `i`'s background leaves ink (1 on the grid's own background, less
/// on a highlighted cell), so a given on a highlight is judged by what it could reach.
/// Returns the cells emptied.
pub(super) fn drop_faint_givens(glyphs: &mut [Option<Glyph>], room: &[f32]) -> Vec<usize> {
    let strength: Vec<Option<f32>> = (glyphs.iter().zip(room))
        .map(|(g, &room)| {
            let g = g.as_ref().filter(|g| g.author == Author::Given)?;
            Some(core_ink(g)? / room.max(0.1))
        })
        .collect();
    let mut typical: Vec<f32> = strength.iter().flatten().copied().collect();
    if typical.len() < MIN_POPULATION {
        return Vec::new();
    }
    typical.sort_by(f32::total_cmp);
    let median = typical[typical.len() / 2];
    let faint: Vec<usize> = (strength.iter().enumerate())
        .filter(|(_, s)| s.is_some_and(|s| s < FAINT * median))
        .map(|(i, _)| i)
        .collect();
    for &i in &faint {
        glyphs[i] = None;
    }
    faint
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::GrayImage;

    /// A given whose strokes reach `stroke` (and whose edges half of it).
    fn given(stroke: u8) -> Option<Glyph> {
        let ink = GrayImage::from_fn(12, 20, |x, _| {
            image::Luma([match x {
                4..=7 => stroke,
                3 | 8 => stroke / 2,
                _ => 0,
            }])
        });
        Some(Glyph {
            ink,
            ..Glyph::sketch(12, 20, [20, 20, 20])
        })
    }

    /// A grid of `n` printed givens (every fourth cell) and a smudge in cell 1, a shadow just
    /// over the ink threshold.
    fn printed_with_a_smudge(n: usize) -> Vec<Option<Glyph>> {
        let mut glyphs: Vec<Option<Glyph>> = vec![None; 81];
        for i in 0..n {
            glyphs[i * 4] = given(230);
        }
        glyphs[1] = given(110);
        glyphs
    }

    #[test]
    fn a_smudge_much_fainter_than_the_printed_givens_is_dropped() {
        let mut glyphs = printed_with_a_smudge(20);
        // A printed given on a cell highlighted so that only half the grid's contrast is
        // left to it.
        glyphs[2] = given(120);
        let mut room = vec![1.0; 81];
        room[2] = 0.5;
        let dropped = drop_faint_givens(&mut glyphs, &room);
        assert_eq!(dropped, vec![1]);
        assert!(glyphs[1].is_none());
        assert!(glyphs[2].is_some());
        assert_eq!(glyphs.iter().flatten().count(), 21);
    }

    #[test]
    fn a_few_givens_are_no_population_to_judge_by() {
        let mut glyphs = printed_with_a_smudge(5);
        assert!(drop_faint_givens(&mut glyphs, &[1.0; 81]).is_empty());
    }
}
