//! Who wrote each digit: the puzzle's givens, or a player's entries, told apart by colour.
//!
//! The givens of one picture share one colour, so the glyphs' colours fall into tight groups.
//! How tight is measured on the picture itself (how far each glyph's colour is from its
//! nearest neighbour's), and groups are split only when they lie much further apart than
//! that: near shades (dark grey entries beside black givens, light blue beside white) split,
//! anti-aliasing and JPEG noise do not. Any number of groups is allowed (givens, entries, a
//! wrong entry in red). Two shades that the glyphs' places in the grid explain are light
//! falling across a photographed page, not two authors; two that the cells' backgrounds
//! explain are one ink on plain and highlighted cells, tinted where thin strokes let the
//! highlight through. The givens are the least colourful group large enough to be the givens,
//! and of groups alike in colourfulness the one standing out most from the background.

use image::GrayImage;

use super::colour::{chroma, distance, dot, mean, sub};
use super::explain::{join_shades_of_backgrounds, without_background_tint};
use super::groups::{
    absorb_lone_glyphs, colour_groups, group_count, members_of, split_mixed_groups,
    split_off_other_inks, MAX_INSTANCES,
};
use super::shapes::Shapes;
use super::{fill, one_ink, weight};
use crate::pipeline::cells::{Author, Glyph};
use crate::pipeline::tuning;
use crate::puzzle::board::MIN_GIVENS;

/// A group is a bolder shade of the givens when its difference from them points this closely
/// (cosine) along the direction from the background to the givens.
const SAME_DIRECTION: f32 = 0.97;
/// Groups large enough to be the givens whose colourfulness (max - min channel) differs by
/// less than this are told apart by contrast instead. Thin strokes never reach their colour,
/// so contrast measured on them misleads: a light weight's grey givens (chroma 5) came out less
/// bright than its near-white blue entries (chroma 31) on a dark theme and lost to them at 30.
/// Neutral inks on tinted cells stay within a few levels of each other; any tie from 3 to 20
/// read tune seeds 1-5 alike.
const GIVENS_CHROMA_TIE: f32 = 12.0;

/// Marks the glyphs outside the givens' colour group as entries; `cell_backgrounds` are the
/// 81 cells' background colours as the glyphs' inks were judged against (the grid's
/// `background` where there is no glyph), `fills` the cells' own backgrounds, both
/// row-major like `glyphs`.
pub(super) fn mark_entries(
    glyphs: &mut [Option<Glyph>],
    background: [u8; 3],
    cell_backgrounds: &[[u8; 3]],
    fills: &[[u8; 3]],
) {
    let colours: Vec<[f32; 3]> = glyphs
        .iter()
        .flatten()
        .map(|g| g.colour.map(f32::from))
        .collect();
    if colours.len() < 2 {
        return;
    }
    let backs: Vec<[f32; 3]> = (glyphs.iter().zip(cell_backgrounds))
        .filter(|(g, _)| g.is_some())
        .map(|(_, b)| b.map(f32::from))
        .collect();
    let colours = without_background_tint(&colours, &backs, background.map(f32::from));
    let places: Vec<(f32, f32)> = (glyphs.iter().enumerate())
        .filter(|(_, g)| g.is_some())
        .map(|(i, _)| ((i / 9) as f32, (i % 9) as f32))
        .collect();
    let inks: Vec<&GrayImage> = glyphs.iter().flatten().map(|g| &g.ink).collect();
    let shapes = Shapes::new(&inks);
    let glyph_colours = GlyphColours {
        colours: &colours,
        backs: &backs,
        places: &places,
        shapes: &shapes,
        background: background.map(f32::from),
    };
    let (authors, weak) = glyph_colours.authors(true);
    let sure = if weak {
        glyph_colours.authors(false).0
    } else {
        authors.clone()
    };
    let flat: Vec<&Glyph> = glyphs.iter().flatten().collect();
    let authors = one_ink::print_apart_from_hand(authors, &shapes);
    let authors = entries_apart_in_weight(authors, &flat, &shapes);
    let glyphless: Vec<[f32; 3]> = (glyphs.iter().zip(fills))
        .filter(|(g, _)| g.is_none())
        .map(|(_, b)| b.map(f32::from))
        .collect();
    let authors = match fill::plain_fill(&glyphless) {
        Some(plain) => fill::authors_by_fill(authors, &backs, (plain, &glyphless), &shapes),
        None => authors,
    };
    for ((glyph, author), sure) in glyphs.iter_mut().flatten().zip(authors).zip(sure) {
        glyph.author = author;
        glyph.sure_author = sure;
    }
}

/// `authors` with the givens of clearly another stroke weight than most givens (see
/// [`weight::apart_in_weight`]) made entries, when both weights hold clearly different shapes
/// (so neither is one digit's shape) and the rest are enough givens for a puzzle. `glyphs`
/// and `shapes` are the glyphs and their shapes, in the order of `authors`.
fn entries_apart_in_weight(
    mut authors: Vec<Author>,
    glyphs: &[&Glyph],
    shapes: &Shapes,
) -> Vec<Author> {
    let givens: Vec<usize> = (0..authors.len())
        .filter(|&i| authors[i] == Author::Given)
        .collect();
    // Only the givens' widths are weighed: entries in another colour are told already.
    let given_widths: Vec<f32> = givens
        .iter()
        .map(|&i| weight::stroke_width(glyphs[i]))
        .collect();
    let Some(apart) = weight::apart_in_weight(&given_widths) else {
        return authors;
    };
    let side = |want: bool| -> Vec<usize> {
        (givens.iter().zip(&apart))
            .filter(|p| *p.1 == want)
            .map(|p| *p.0)
            .collect()
    };
    let (kept, moved) = (side(false), side(true));
    if kept.len() < MIN_GIVENS || !shapes.mixed(&kept) || !shapes.mixed(&moved) {
        return authors;
    }
    moved.iter().for_each(|&i| authors[i] = Author::Entry);
    authors
}

/// What [`mark_entries`] knows of the glyphs (one entry each, in reading order).
struct GlyphColours<'a> {
    colours: &'a [[f32; 3]],
    /// Each glyph's cell's background colour.
    backs: &'a [[f32; 3]],
    /// Each glyph's cell (row, column).
    places: &'a [(f32, f32)],
    shapes: &'a Shapes<'a>,
    /// The grid's background colour.
    background: [f32; 3],
}

impl GlyphColours<'_> {
    /// Each glyph's author, with weak splits (see [`bisect`]) allowed or not, and whether a
    /// weak split was made.
    fn authors(&self, allow_weak: bool) -> (Vec<Author>, bool) {
        let colours = self.colours;
        let (groups, weak) = split_mixed_groups(
            colours,
            self.background,
            self.places,
            self.shapes,
            allow_weak,
            colour_groups(colours),
        );
        // Off the givens' ink line is judged glyph by glyph, and a thin stroke's hue strays
        // under JPEG: weak, like a split of mixed shapes.
        let (groups, split_off) = if allow_weak {
            split_off_other_inks(colours, self.background, groups)
        } else {
            (groups, false)
        };
        let weak = weak || split_off;
        let groups = absorb_lone_glyphs(colours, self.background, groups);
        let groups = join_shades_of_backgrounds(colours, self.backs, groups);
        let count = group_count(&groups);
        if count < 2 {
            return (vec![Author::Given; colours.len()], weak);
        }
        let hand = self.hands(&groups, count);
        let givens = givens_group(colours, &groups, count, self.background, &hand);
        let (bolder, fainter) = shades_of_givens(colours, &groups, count, givens, self.background);
        // A hand is never a shade of the print: black pen beside grey print is bolder.
        let bolder: Vec<usize> = bolder.into_iter().filter(|&g| !hand[g]).collect();
        // Strokes falling on whole pixels reach a stronger shade in a few glyphs of one shape
        // (a `1`'s stem); glyphs of several shapes in a stronger shade may be a player's
        // entries in a brighter ink (LibreSudoku's on a dark theme): weak, tried as entries
        // while the givens without them have one solution.
        let (bolder, brighter): (Vec<usize>, Vec<usize>) = bolder.into_iter().partition(|&g| {
            let members = members_of(&groups, g);
            members.len() <= MAX_INSTANCES && !self.shapes.mixed(&members) || !allow_weak
        });
        // A fainter shade of the givens' colour in glyphs of one shape may be one digit whose
        // thin strokes never reach the colour (a small, blurred `7`), or a player's entries in
        // a near shade: weak, like a split of mixed shapes.
        let fainter: Vec<usize> = (fainter.into_iter())
            .filter(|&g| {
                let members = members_of(&groups, g);
                members.len() <= MAX_INSTANCES && !self.shapes.mixed(&members)
            })
            .collect();
        let author = |g: &usize| {
            let thin_given = !allow_weak && fainter.contains(g);
            if *g == givens || bolder.contains(g) || thin_given {
                Author::Given
            } else {
                Author::Entry
            }
        };
        let weak = weak || !fainter.is_empty() || !brighter.is_empty();
        (groups.iter().map(author).collect(), weak)
    }
}

impl GlyphColours<'_> {
    /// Which of the `count` colour `groups` are written by hand: large enough to be the givens
    /// and clearly (`tuning::CLEAR`) less near copies of each other (see
    /// [`Shapes::consistency`]) than the most consistent such group. Print draws a digit alike
    /// wherever it stands and a hand never does; a smaller group holds too few repeats to
    /// tell.
    fn hands(&self, groups: &[usize], count: usize) -> Vec<bool> {
        let members: Vec<Vec<usize>> = (0..count).map(|g| members_of(groups, g)).collect();
        let large = MIN_GIVENS.min(members.iter().map(Vec::len).max().unwrap_or(0));
        let consistency: Vec<Option<f32>> = (members.iter())
            .map(|m| (m.len() >= large).then(|| self.shapes.consistency(m)))
            .collect();
        let printed = consistency
            .iter()
            .flatten()
            .copied()
            .fold(f32::MIN, f32::max);
        (consistency.iter())
            .map(|c| c.is_some_and(|c| c < printed - tuning::CLEAR))
            .collect()
    }
}

/// The groups that are the givens' own colour drawn with more contrast (further from the
/// background along the very direction of the givens) and those drawn with less (nearer the
/// background along it). Small digits never reach their full colour except where a stroke
/// falls on whole pixels (a `1`'s stem), so those come out darker than the rest; a player's
/// entries are drawn lighter or in another hue, not in a stronger shade of the givens' colour.
fn shades_of_givens(
    colours: &[[f32; 3]],
    groups: &[usize],
    count: usize,
    givens: usize,
    background: [f32; 3],
) -> (Vec<usize>, Vec<usize>) {
    let mean_of = |g: usize| {
        mean(
            colours
                .iter()
                .zip(groups)
                .filter(|p| *p.1 == g)
                .map(|p| *p.0),
        )
    };
    let towards = sub(mean_of(givens), background);
    let reach = dot(towards, towards).sqrt().max(1e-6);
    let along = |g: usize| {
        let beyond = sub(mean_of(g), mean_of(givens));
        let length = dot(beyond, beyond).sqrt().max(1e-6);
        dot(beyond, towards) / reach / length
    };
    let others = || (0..count).filter(|&g| g != givens);
    (
        others().filter(|&g| along(g) >= SAME_DIRECTION).collect(),
        others().filter(|&g| along(g) <= -SAME_DIRECTION).collect(),
    )
}

/// The givens' group: of the groups large enough and not written by `hand` (one flag per
/// group, see [`GlyphColours::hands`]: a player's pen, however dark), the least colourful;
/// of groups about as colourful, the one standing out most from the background.
fn givens_group(
    colours: &[[f32; 3]],
    groups: &[usize],
    count: usize,
    background: [f32; 3],
    hand: &[bool],
) -> usize {
    let sizes: Vec<usize> = (0..count)
        .map(|g| groups.iter().filter(|&&k| k == g).count())
        .collect();
    let large = MIN_GIVENS.min(sizes.iter().copied().max().unwrap_or(0));
    let means: Vec<[f32; 3]> = (0..count)
        .map(|g| {
            let members: Vec<&[f32; 3]> = colours
                .iter()
                .zip(groups)
                .filter(|&(_, &k)| k == g)
                .map(|(c, _)| c)
                .collect();
            let n = members.len().max(1) as f32;
            std::array::from_fn(|i| members.iter().map(|c| c[i]).sum::<f32>() / n)
        })
        .collect();
    let eligible = || (0..count).filter(|&g| sizes[g] >= large && !hand[g]);
    let least = eligible()
        .map(|g| chroma(means[g]))
        .fold(f32::MAX, f32::min);
    eligible()
        .filter(|&g| chroma(means[g]) < least + GIVENS_CHROMA_TIE)
        .max_by(|&a, &b| distance(means[a], background).total_cmp(&distance(means[b], background)))
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::super::explain::backgrounds_explain;
    use super::*;

    fn grouped(colours: &[[u8; 3]]) -> Vec<usize> {
        colour_groups(&colours.iter().map(|c| c.map(f32::from)).collect::<Vec<_>>())
    }

    #[test]
    fn noise_within_one_colour_is_one_group() {
        let colours: Vec<[u8; 3]> = (0..30u8).map(|i| [i % 7, i % 5, (i * 3) % 8]).collect();
        assert!(grouped(&colours).iter().all(|&g| g == 0));
    }

    #[test]
    fn near_shades_and_a_red_entry_are_three_groups() {
        let mut colours: Vec<[u8; 3]> = (0..25u8).map(|i| [i % 4, i % 3, i % 5]).collect();
        colours.extend((0..10u8).map(|i| [68 + i % 3, 68 + i % 4, 68 + i % 2]));
        colours.push([220, 30, 30]);
        let colours_f: Vec<[f32; 3]> = colours.iter().map(|c| c.map(f32::from)).collect();
        let groups = absorb_lone_glyphs(&colours_f, [255.0; 3], grouped(&colours));
        assert!(groups[..25].iter().all(|&g| g == groups[0]));
        assert!(groups[25..35].iter().all(|&g| g == groups[25]));
        assert_ne!(groups[0], groups[25]);
        assert_ne!(groups[35], groups[0]);
        assert_ne!(groups[35], groups[25]);
        let colours: Vec<[f32; 3]> = colours.iter().map(|c| c.map(f32::from)).collect();
        // On white, black stands out more than dark grey: black is the givens.
        assert_eq!(
            givens_group(&colours, &groups, 3, [255.0; 3], &[false; 3]),
            groups[0]
        );
    }

    #[test]
    fn dark_givens_on_pink_highlights_under_jpeg_are_one_ink() {
        // Measured on a tune rendering (DM Mono, pink theme, heavy highlights, JPEG q65 after
        // a 0.65 downscale): the five givens on highlighted cells came out redder and less
        // green than the rest, though the highlight is less red than the page.
        let glyphs: [[f32; 3]; 24] = [
            [68.0, 44.0, 50.0],
            [67.0, 45.0, 52.0],
            [66.0, 46.0, 51.0],
            [66.0, 45.0, 52.0],
            [58.0, 37.0, 43.0],
            [64.0, 47.0, 55.0],
            [69.0, 45.0, 57.0],
            [67.0, 47.0, 52.0],
            [82.0, 26.0, 50.0],
            [68.0, 43.0, 52.0],
            [64.0, 42.0, 50.0],
            [66.0, 44.0, 50.0],
            [68.0, 44.0, 49.0],
            [67.0, 49.0, 51.0],
            [71.0, 44.0, 53.0],
            [78.0, 24.0, 51.0],
            [70.0, 44.0, 52.0],
            [71.0, 43.0, 52.0],
            [67.0, 44.0, 53.0],
            [79.0, 24.0, 48.0],
            [68.0, 44.0, 52.0],
            [70.0, 52.0, 56.0],
            [82.0, 26.0, 51.0],
            [81.0, 24.0, 48.0],
        ];
        let backs: [[f32; 3]; 24] = [
            [253.0, 247.0, 244.0],
            [253.0, 248.0, 244.0],
            [253.0, 247.0, 245.0],
            [252.0, 248.0, 245.0],
            [253.0, 248.0, 244.0],
            [252.0, 247.0, 244.0],
            [253.0, 247.0, 245.0],
            [252.0, 248.0, 245.0],
            [246.0, 185.0, 211.0],
            [252.0, 247.0, 245.0],
            [252.0, 247.0, 244.0],
            [253.0, 248.0, 245.0],
            [253.0, 248.0, 244.0],
            [253.0, 248.0, 244.0],
            [253.0, 248.0, 245.0],
            [247.0, 185.0, 209.0],
            [252.0, 247.0, 246.0],
            [252.0, 247.0, 245.0],
            [253.0, 248.0, 245.0],
            [246.0, 185.0, 209.0],
            [253.0, 246.0, 245.0],
            [253.0, 248.0, 245.0],
            [245.0, 185.0, 210.0],
            [246.0, 185.0, 210.0],
        ];
        let part: Vec<bool> = backs.iter().map(|b| b[1] < 220.0).collect();
        assert_eq!(part.iter().filter(|&&p| p).count(), 5);
        assert!(backgrounds_explain(&glyphs, &backs, &part));
        // Blue entries on those highlights are not the givens' ink.
        let mut entries = glyphs;
        for (glyph, &highlighted) in entries.iter_mut().zip(&part) {
            if highlighted {
                *glyph = [63.0, 101.0, 151.0];
            }
        }
        assert!(!backgrounds_explain(&entries, &backs, &part));
    }

    #[test]
    fn one_print_darkened_with_its_paper_towards_a_photos_corners_is_one_ink() {
        // A photographed newspaper's red-brown print (screens-real 045): the corner cells'
        // paper is darker, and their print with it, channel by channel.
        let centre = [
            ([150.0, 111.0, 109.0], [170.0, 169.0, 164.0]),
            ([151.0, 107.0, 105.0], [168.0, 167.0, 162.0]),
            ([152.0, 115.0, 113.0], [173.0, 173.0, 168.0]),
            ([141.0, 103.0, 101.0], [162.0, 160.0, 155.0]),
            ([139.0, 100.0, 99.0], [160.0, 158.0, 153.0]),
            ([143.0, 106.0, 107.0], [162.0, 160.0, 155.0]),
            ([138.0, 100.0, 97.0], [159.0, 157.0, 152.0]),
        ];
        let corners = [
            ([126.0, 105.0, 101.0], [146.0, 153.0, 145.0]),
            ([123.0, 108.0, 107.0], [145.0, 153.0, 146.0]),
            ([107.0, 85.0, 82.0], [117.0, 124.0, 116.0]),
            ([116.0, 80.0, 77.0], [135.0, 131.0, 126.0]),
            ([75.0, 65.0, 58.0], [100.0, 103.0, 96.0]),
            ([83.0, 68.0, 62.0], [104.0, 106.0, 100.0]),
        ];
        let all: Vec<([f32; 3], [f32; 3])> = centre.iter().chain(&corners).copied().collect();
        let (glyphs, backs): (Vec<[f32; 3]>, Vec<[f32; 3]>) = all.into_iter().unzip();
        let part: Vec<bool> = (0..glyphs.len()).map(|i| i >= centre.len()).collect();
        assert!(backgrounds_explain(&glyphs, &backs, &part));
        // A player's blue pen in those corners is another ink, however dim the light there.
        let mut entries = glyphs;
        for (glyph, back) in entries.iter_mut().zip(&backs).skip(centre.len()) {
            *glyph = [0.4 * back[0], 0.5 * back[1], 0.9 * back[2]];
        }
        assert!(!backgrounds_explain(&entries, &backs, &part));
    }

    #[test]
    fn light_grey_givens_beside_near_white_blue_entries_on_dark() {
        // Measured on a tune rendering (Rajdhani Light, dark theme): the givens' thin strokes
        // stand out a little less from the background than the entries', but are grey.
        let mut colours: Vec<[f32; 3]> = (0..22)
            .map(|i| {
                let v = (i % 7) as f32 * 4.0;
                [188.0 + v, 190.0 + v, 194.0 + v]
            })
            .collect();
        colours.extend((0..29).map(|i| {
            let v = (i % 5) as f32 * 2.0;
            [186.0 + v, 198.0 + v, 217.0 + v]
        }));
        let groups: Vec<usize> = (0..colours.len()).map(|i| usize::from(i >= 22)).collect();
        assert_eq!(
            givens_group(&colours, &groups, 2, [37.0, 39.0, 45.0], &[false; 2]),
            0
        );
    }

    #[test]
    fn a_lone_darker_glyph_is_not_the_givens() {
        // Modelled on a newspaper photo: one given in shadow. Light and shadow move all three
        // channels together (measured on the photo set: per-channel spreads of 6-12 levels,
        // correlated 0.7-0.99).
        let mut colours: Vec<[f32; 3]> = (0..24)
            .map(|i| {
                let v = i as f32;
                [86.0 + v, 88.0 + v * 0.9, 82.0 + v * 0.9]
            })
            .collect();
        colours.push([61.0, 74.0, 72.0]);
        // Newsprint under a lamp.
        let paper = [205.0, 200.0, 190.0];
        let groups = clear_splits(&colours, paper, &scattered(colours.len()));
        let groups = absorb_lone_glyphs(&colours, paper, groups);
        assert!(groups.iter().all(|&g| g == 0), "{groups:?}");
    }

    #[test]
    fn white_givens_beside_light_blue_entries_on_dark() {
        let mut colours: Vec<[f32; 3]> = vec![[240.0, 240.0, 240.0]; 20];
        colours[3] = [236.0, 241.0, 238.0];
        colours.extend(vec![[150.0, 190.0, 250.0]; 8]);
        let groups = colour_groups(&colours);
        assert_ne!(groups[0], groups[20]);
        assert_eq!(
            givens_group(&colours, &groups, 2, [18.0; 3], &[false; 2]),
            groups[0]
        );
    }

    #[test]
    fn a_lone_entry_of_another_hue_near_the_givens_is_an_entry() {
        // Modelled on a dark web page: near-white givens, one light blue entry 19 levels
        // from the nearest given, and thin givens that blur pulls toward the background.
        let back = [3u8, 3, 3];
        let mut glyphs: Vec<Option<Glyph>> = (0..24)
            .map(|i| {
                let v = 236 + (i % 4) as u8;
                Some(glyph([v, v, v + (i % 2) as u8]))
            })
            .collect();
        glyphs.extend([[224u8, 224, 225], [228, 227, 228]].map(|c| Some(glyph(c))));
        glyphs.push(Some(glyph([222, 230, 245])));
        mark_entries(&mut glyphs, back, &[back; 27], &[back; 27]);
        let authors: Vec<Author> = glyphs.iter().flatten().map(|g| g.author).collect();
        assert!(
            authors[..26].iter().all(|&a| a == Author::Given),
            "{authors:?}"
        );
        assert_eq!(authors[26], Author::Entry);
    }

    #[test]
    fn a_glyph_off_the_ink_line_of_widely_spread_givens_is_split_off() {
        // Modelled on a JPEG desktop capture: grey-green givens on a pale green card, spread
        // 40 levels along their line by thin strokes and compression, and one entry in a
        // greener shade as bright as the middle of them.
        let card = [236.0, 247.0, 243.0];
        let mut colours: Vec<[f32; 3]> = (0..25)
            .map(|i| {
                let t = (i % 9) as f32 / 8.0;
                [144.0 + 40.0 * t, 163.0 + 36.0 * t, 152.0 + 38.0 * t]
            })
            .collect();
        colours.push([175.0, 207.0, 199.0]);
        let groups = split_off_other_inks(&colours, card, vec![0; colours.len()]).0;
        assert!(groups[..25].iter().all(|&g| g == groups[0]), "{groups:?}");
        assert_ne!(groups[25], groups[0]);
        // A given as bright, on the line, stays.
        colours[25] = [164.0, 181.0, 171.0];
        let groups = split_off_other_inks(&colours, card, vec![0; colours.len()]).0;
        assert!(groups.iter().all(|&g| g == 0), "{groups:?}");
    }

    #[test]
    fn two_shades_chained_by_thin_glyphs_are_split() {
        // Measured on a blurred OLED phone capture: white givens and light blue entries whose
        // thin strokes spread both along their brightness until single linkage joins them.
        let jitter = |i: usize| ((i * 37 % 11) as f32 - 5.0) * 1.5;
        let mut colours: Vec<[f32; 3]> = (0..24)
            .map(|i| {
                let v = 209.0 + i as f32 + jitter(i);
                [v, v + 1.0 + jitter(i + 3) / 2.0, v + 1.0]
            })
            .collect();
        colours.extend((0..20).map(|i| {
            let v = 188.0 + i as f32 * 1.2 + jitter(i + 5);
            [v, v + 10.0, v + 30.0 + jitter(i + 7) / 2.0]
        }));
        // Single linkage alone sees one group.
        assert!(colour_groups(&colours).iter().all(|&g| g == 0));
        assert_split_at(&colours, [0.0; 3], &scattered(colours.len()), 24);
    }

    #[test]
    fn two_shades_of_another_hue_nearer_than_anti_aliasing_moves_are_split() {
        // Measured on a dark desktop page: neutral near-white givens and a player's entries
        // in a faint blue, their means 15 levels apart, 12 of it across the ink's line.
        let mut colours: Vec<[f32; 3]> = (0..24)
            .map(|i| {
                let v = 236.0 + (i % 8) as f32;
                [v, v - (i % 2) as f32, v]
            })
            .collect();
        colours.extend((0..15).map(|i| {
            let v = 223.0 + (i % 7) as f32;
            [v, v + 8.0, v + 17.0]
        }));
        assert_split_at(&colours, [4.0, 0.0, 5.0], &scattered(colours.len()), 24);
        // The same shades, all neutral, are one ink anti-aliased unevenly.
        let grey: Vec<[f32; 3]> = (colours.iter())
            .map(|c| [(c[0] + c[1] + c[2]) / 3.0; 3])
            .collect();
        let groups = clear_splits(&grey, [4.0, 0.0, 5.0], &scattered(grey.len()));
        assert!(groups.iter().all(|&g| g == groups[0]), "{groups:?}");
    }

    #[test]
    fn two_shades_with_a_few_strays_between_are_split() {
        // Measured on a downscaled phone capture: brown givens at about 63 grey, a player's
        // lighter brown entries at about 93, and a few givens on highlighted cells or with
        // thin strokes pulled toward the background between them.
        let shade = |v: f32| [v, v * 0.81, v * 0.62];
        let mut colours: Vec<[f32; 3]> = (0..20).map(|i| shade(60.0 + (i % 5) as f32)).collect();
        colours.extend([66.0, 67.0, 67.0, 74.0, 74.0, 77.0].map(shade));
        colours.extend((0..19).map(|i| shade(91.0 + (i % 6) as f32)));
        colours.push(shade(89.0));
        assert_split_at(&colours, [250.0; 3], &scattered(colours.len()), 26);
    }

    #[test]
    fn many_entries_in_another_hue_split_off_unless_light_explains_them() {
        // Measured on a downscaled JPEG of a dark app: 26 grey givens spread over 23 levels
        // of brightness, 25 blue entries whose thin strokes reach their hue unevenly.
        let jitter = |i: usize| (i * 7 % 11) as f32;
        let mut colours: Vec<[f32; 3]> = (0..26)
            .map(|i| {
                let v = 153.0 + (i * 23 / 25) as f32;
                [v, v + 1.0, v + 4.0 + (i % 3) as f32 * 2.0]
            })
            .collect();
        colours.extend((0..25).map(|i| {
            let v = 126.0 + jitter(i) + (i % 5) as f32;
            [v, v + 10.0 + jitter(i + 3), v + 22.0 + 2.5 * jitter(i + 5)]
        }));
        let dark = [20.0; 3];
        assert_split_at(&colours, dark, &scattered(colours.len()), 26);
        // The same colours, the second shade all in the top rows and the first below: light
        // across a photographed page, one author.
        let places: Vec<(f32, f32)> = (0..colours.len())
            .map(|i| {
                let cell = if i < 26 { 80 - i } else { i - 26 };
                ((cell / 9) as f32, (cell % 9) as f32)
            })
            .collect();
        let groups = clear_splits(&colours, dark, &places);
        assert!(groups.iter().all(|&g| g == groups[0]), "{groups:?}");
    }

    #[test]
    fn one_shade_spread_by_blur_stays_one_group() {
        let colours: Vec<[f32; 3]> = (0..30)
            .map(|i| {
                let v = 180.0 + (i * 7 % 40) as f32;
                [v, v + 2.0, v + 4.0]
            })
            .collect();
        let groups = clear_splits(&colours, [18.0; 3], &scattered(colours.len()));
        assert!(groups.iter().all(|&g| g == groups[0]), "{groups:?}");
    }

    #[test]
    fn two_entries_in_a_near_grey_beside_crisp_givens_are_their_own_group() {
        // A screenshot's givens vary by a level or two; two entries 50 levels lighter are
        // another author, though near in absolute terms.
        let mut colours: Vec<[f32; 3]> = (0..22)
            .map(|i| {
                let v = 30.0 + (i % 3) as f32;
                [v, v, v + 1.0]
            })
            .collect();
        colours.extend([[60.0, 58.0, 62.0], [61.0, 60.0, 62.0]]);
        let groups = absorb_lone_glyphs(&colours, [255.0; 3], colour_groups(&colours));
        assert_eq!(groups[22], groups[23]);
        assert_ne!(groups[0], groups[22]);
    }

    #[test]
    fn two_entries_are_judged_by_their_mean_colour() {
        // Measured on a green desktop theme: crisp givens within a few levels, two entries in
        // a lighter green, the nearer just past the split distance from the givens' extreme.
        let mut colours: Vec<[f32; 3]> = [
            [17u8, 57, 20],
            [19, 58, 22],
            [20, 60, 23],
            [20, 61, 23],
            [20, 62, 24],
            [21, 62, 24],
            [21, 62, 24],
            [21, 62, 25],
            [21, 62, 25],
            [21, 63, 25],
            [22, 62, 25],
            [22, 62, 25],
            [22, 63, 25],
            [22, 63, 25],
            [22, 63, 25],
            [22, 63, 25],
            [22, 63, 26],
            [23, 62, 26],
            [23, 63, 26],
            [23, 64, 26],
            [23, 64, 26],
            [23, 64, 27],
            [24, 65, 27],
            [24, 66, 28],
            [26, 66, 30],
        ]
        .iter()
        .map(|c| c.map(f32::from))
        .collect();
        colours.extend([[39.0, 83.0, 43.0], [47.0, 90.0, 51.0]]);
        let groups = absorb_lone_glyphs(&colours, [255.0; 3], colour_groups(&colours));
        assert_eq!(groups[25], groups[26]);
        assert_ne!(groups[0], groups[25]);
    }

    #[test]
    fn darker_ones_of_a_small_print_are_givens() {
        // Measured on a typeset page (digits 11 px): the 1s reach 45 grey, the curved digits
        // only 80-98. Grey entries would sit on the other side, lighter.
        let mut glyphs: Vec<Option<Glyph>> = (0..24)
            .map(|i| Some(glyph([80 + (i % 19) as u8; 3])))
            .collect();
        // The darker ones are one shape, the 1s' stems.
        let one = |grey: u8| Glyph {
            ink: shape(0),
            ..glyph([grey; 3])
        };
        glyphs.extend((0..3).map(|i| Some(one(44 + i as u8))));
        mark_entries(&mut glyphs, [254; 3], &[[254; 3]; 27], &[[254; 3]; 27]);
        assert!(glyphs.iter().flatten().all(|g| g.author == Author::Given));
        // Lighter ones of the same grey are a player's.
        let mut glyphs: Vec<Option<Glyph>> = (0..24)
            .map(|i| Some(glyph([40 + (i % 5) as u8; 3])))
            .collect();
        glyphs.extend((0..3).map(|i| Some(glyph([120 + i as u8; 3]))));
        mark_entries(&mut glyphs, [254; 3], &[[254; 3]; 27], &[[254; 3]; 27]);
        assert!(glyphs[24..]
            .iter()
            .flatten()
            .all(|g| g.author == Author::Entry));
    }

    /// Measured on a dark web page in a weight-200 face: the givens on plain cells
    /// (background 42,46,49) reach 159-173 grey; four on a highlighted row (64,79,107) come out
    /// tinted blue by it. The backgrounds explain the tint, so all are givens; blue entries
    /// on the same two backgrounds, and a lone glyph tinted like a highlight, are not.
    #[test]
    fn givens_tinted_by_a_highlight_are_givens() {
        let plain = [42u8, 46, 49];
        let highlight = [64u8, 79, 107];
        let grey = |i: usize| {
            [
                159 + (i % 15) as u8,
                164 + (i % 15) as u8,
                167 + (i % 15) as u8,
            ]
        };
        let tinted = [
            [172u8, 185, 211],
            [175, 189, 216],
            [177, 188, 211],
            [179, 193, 217],
        ];
        let mut glyphs: Vec<Option<Glyph>> = (0..19).map(|i| Some(glyph(grey(i)))).collect();
        let mut backs = vec![plain; 19];
        glyphs.extend(tinted.map(|c| Some(glyph(c))));
        backs.extend([highlight; 4]);
        mark_entries(&mut glyphs, plain, &backs, &backs);
        assert!(glyphs.iter().flatten().all(|g| g.author == Author::Given));

        // Light blue entries on plain and highlighted cells alike.
        let mut glyphs: Vec<Option<Glyph>> = (0..19).map(|i| Some(glyph(grey(i)))).collect();
        let mut backs = vec![plain; 19];
        let entries = [
            [138u8, 180, 248],
            [150, 190, 250],
            [140, 182, 246],
            [146, 186, 249],
        ];
        glyphs.extend(entries.map(|c| Some(glyph(c))));
        backs.extend([plain, highlight, plain, highlight]);
        mark_entries(&mut glyphs, plain, &backs, &backs);
        assert!(glyphs[19..]
            .iter()
            .flatten()
            .all(|g| g.author == Author::Entry));

        // One glyph alone on a highlight is not explained by it.
        let mut glyphs: Vec<Option<Glyph>> = (0..19).map(|i| Some(glyph(grey(i)))).collect();
        let mut backs = vec![plain; 19];
        glyphs.push(Some(glyph([179, 193, 217])));
        backs.push(highlight);
        mark_entries(&mut glyphs, plain, &backs, &backs);
        assert_eq!(glyphs[19].as_ref().map(|g| g.author), Some(Author::Entry));
    }

    /// Measured on a JPEG web page in a weight-200 face: grey givens and a player's grey-blue
    /// entries, both on plain cells and on a blue highlight whose hue their thin strokes take
    /// (the givens on it come out bluer than the entries on plain cells). Without the tint
    /// the two authors part cleanly.
    #[test]
    fn a_highlight_tinting_thin_strokes_does_not_hide_the_entries() {
        let plain = [251u8, 251, 251];
        let light = [205u8, 225, 245];
        let givens: [([u8; 3], [u8; 3]); 26] = [
            ([101, 100, 101], plain),
            ([108, 108, 109], plain),
            ([110, 110, 110], plain),
            ([111, 111, 111], plain),
            ([113, 113, 113], plain),
            ([114, 114, 114], plain),
            ([116, 116, 116], plain),
            ([116, 116, 116], plain),
            ([116, 116, 116], plain),
            ([117, 116, 115], plain),
            ([118, 118, 119], plain),
            ([120, 120, 120], plain),
            ([121, 121, 121], plain),
            ([122, 121, 120], plain),
            ([122, 122, 122], plain),
            ([99, 99, 99], plain),
            ([26, 52, 69], [142, 169, 187]),
            ([28, 54, 79], [125, 154, 181]),
            ([76, 94, 112], light),
            ([77, 93, 106], light),
            ([77, 95, 111], light),
            ([80, 97, 112], light),
            ([82, 100, 120], light),
            ([83, 101, 118], light),
            ([83, 101, 118], light),
            ([90, 109, 123], light),
        ];
        let entries: [([u8; 3], [u8; 3]); 11] = [
            ([120, 125, 142], plain),
            ([120, 126, 139], plain),
            ([122, 129, 145], plain),
            ([122, 133, 148], plain),
            ([130, 135, 145], plain),
            ([137, 137, 151], plain),
            ([139, 145, 154], plain),
            ([143, 150, 163], plain),
            ([83, 113, 136], [138, 169, 188]),
            ([92, 111, 141], light),
            ([93, 114, 144], light),
        ];
        // Scattered over the grid, so the glyphs' places explain nothing.
        let mut glyphs = vec![None; 81];
        let mut backs = vec![plain; 81];
        for (i, &(colour, back)) in givens.iter().chain(&entries).enumerate() {
            let ink = shape(i);
            glyphs[i * 37 % 81] = Some(Glyph {
                ink,
                ..glyph(colour)
            });
            backs[i * 37 % 81] = back;
        }
        mark_entries(&mut glyphs, plain, &backs, &backs);
        let author = |i: usize| glyphs[i * 37 % 81].as_ref().map(|g| g.author);
        assert!((0..26).all(|i| author(i) == Some(Author::Given)));
        assert!((26..37).all(|i| author(i) == Some(Author::Entry)));
    }

    /// Crisp glyphs show their own colour on any background: givens on plain and highlighted
    /// cells alike, a player's entries on plain cells only, do not make a tint to take away.
    #[test]
    fn authors_on_different_backgrounds_are_not_a_tint() {
        let plain = [249u8, 248, 254];
        let highlight = [179u8, 216, 246];
        let mut glyphs: Vec<Option<Glyph>> = (0..23).map(|_| Some(glyph([14, 43, 92]))).collect();
        let mut backs = vec![plain; 17];
        backs.extend([highlight; 6]);
        glyphs.extend((0..8).map(|_| Some(glyph([123, 31, 162]))));
        backs.extend([plain; 8]);
        mark_entries(&mut glyphs, plain, &backs, &backs);
        let authors: Vec<Author> = glyphs.iter().flatten().map(|g| g.author).collect();
        assert!(
            authors[..23].iter().all(|&a| a == Author::Given),
            "{authors:?}"
        );
        assert!(
            authors[23..].iter().all(|&a| a == Author::Entry),
            "{authors:?}"
        );
    }

    /// Ink clearly unlike the other kinds (cosine at most `OTHER_SHAPE`): an upright bar, a
    /// level bar, a ring.
    fn shape(kind: usize) -> GrayImage {
        GrayImage::from_fn(12, 16, |x, y| {
            let on = match kind % 3 {
                0 => (5..7).contains(&x),
                1 => (7..9).contains(&y),
                _ => !(2..10).contains(&x) || !(2..14).contains(&y),
            };
            image::Luma([if on { 255 } else { 0 }])
        })
    }

    /// The stroke colours of a green theme's thin givens and a player's near-green entries
    /// (measured on a rendering where the entries were read as givens), as glyphs of the
    /// given shapes, scattered over the grid and marked; the entries are the last five.
    fn near_green_grid(entry_shape: impl Fn(usize) -> usize) -> Vec<Option<Glyph>> {
        let givens: [[u8; 3]; 24] = [
            [19, 61, 22],
            [16, 58, 19],
            [22, 63, 26],
            [17, 59, 21],
            [21, 62, 24],
            [20, 62, 23],
            [9, 51, 12],
            [18, 60, 22],
            [18, 60, 22],
            [13, 55, 16],
            [19, 62, 23],
            [19, 60, 22],
            [28, 69, 32],
            [22, 63, 25],
            [20, 62, 23],
            [10, 52, 13],
            [13, 56, 17],
            [26, 67, 30],
            [18, 58, 21],
            [20, 61, 23],
            [21, 62, 24],
            [21, 62, 24],
            [18, 59, 21],
            [19, 61, 23],
        ];
        let entries: [[u8; 3]; 5] = [
            [42, 86, 46],
            [43, 86, 47],
            [47, 90, 51],
            [48, 91, 52],
            [38, 83, 42],
        ];
        let mut glyphs = vec![None; 81];
        for (i, &colour) in givens.iter().chain(&entries).enumerate() {
            let kind = if i < givens.len() { i } else { entry_shape(i) };
            glyphs[i * 37 % 81] = Some(Glyph {
                ink: shape(kind),
                ..glyph(colour)
            });
        }
        let backs = vec![[243, 250, 243]; 81];
        mark_entries(&mut glyphs, [243, 250, 243], &backs, &backs);
        glyphs
    }

    #[test]
    fn near_entries_of_several_shapes_are_entries_unless_the_givens_need_them() {
        let glyphs = near_green_grid(|i| i);
        let authors: Vec<(Author, Author)> = (0..29)
            .map(|i| {
                glyphs[i * 37 % 81]
                    .as_ref()
                    .map(|g| (g.author, g.sure_author))
            })
            .collect::<Option<_>>()
            .expect("every glyph placed");
        assert!(authors[..24]
            .iter()
            .all(|&a| a == (Author::Given, Author::Given)));
        assert!(authors[24..]
            .iter()
            .all(|&a| a == (Author::Entry, Author::Given)));
    }

    /// Measured on a typeset page (Lora, digits a fifth of the cell, blurred): 21 givens reach
    /// 37-57 grey, its three 7s only 78-82; the page has no entries.
    fn thin_sevens_grid(seven_shapes: impl Fn(usize) -> usize) -> Vec<Option<Glyph>> {
        let givens = [
            56u8, 47, 40, 52, 55, 45, 56, 39, 37, 50, 47, 56, 38, 49, 56, 50, 57, 37, 57, 57, 56,
        ];
        let sevens = [82u8, 78, 82];
        let mut glyphs = vec![None; 81];
        for (i, &grey) in givens.iter().chain(&sevens).enumerate() {
            let kind = if i < givens.len() { i } else { seven_shapes(i) };
            glyphs[i * 37 % 81] = Some(Glyph {
                ink: shape(kind),
                ..glyph([grey; 3])
            });
        }
        mark_entries(&mut glyphs, [250; 3], &[[250; 3]; 81], &[[250; 3]; 81]);
        glyphs
    }

    #[test]
    fn a_fainter_shade_of_the_givens_in_one_shape_is_given_when_the_givens_need_it() {
        let authors = |glyphs: Vec<Option<Glyph>>| -> Vec<(Author, Author)> {
            (21..24)
                .filter_map(|i| {
                    glyphs[i * 37 % 81]
                        .as_ref()
                        .map(|g| (g.author, g.sure_author))
                })
                .collect()
        };
        // Three glyphs of one shape: entries by colour, givens when the givens need them.
        assert_eq!(
            authors(thin_sevens_grid(|_| 0)),
            vec![(Author::Entry, Author::Given); 3]
        );
        // Of three shapes, no one digit's thin strokes explain the shade: a player's entries.
        assert_eq!(
            authors(thin_sevens_grid(|i| i)),
            vec![(Author::Entry, Author::Entry); 3]
        );
    }

    /// Measured on a LibreSudoku screenshot (dark theme, background 24,29,24): the givens
    /// 166-171 grey, the player's entries 190-197 and a little green, further from the
    /// background along the givens' own direction. Of several shapes, no stroke on whole
    /// pixels explains the stronger shade: entries, givens only when the givens need them.
    #[test]
    fn a_stronger_shade_of_several_shapes_is_entries_unless_the_givens_need_them() {
        let mut glyphs = vec![None; 81];
        for i in 0..31 {
            let (colour, kind) = if i < 24 {
                ([168 + (i % 4) as u8, 174, 168], i)
            } else {
                ([194 + (i % 3) as u8, 211, 193], i % 5)
            };
            glyphs[i * 37 % 81] = Some(Glyph {
                ink: shape(kind),
                ..glyph(colour)
            });
        }
        let back = [24, 29, 24];
        mark_entries(&mut glyphs, back, &[back; 81], &[back; 81]);
        for i in 0..31 {
            let g = glyphs[i * 37 % 81].as_ref().unwrap();
            let want = if i < 24 { Author::Given } else { Author::Entry };
            assert_eq!(
                (g.author, g.sure_author),
                (want, Author::Given),
                "glyph {i}"
            );
        }
    }

    #[test]
    fn near_shades_of_one_shape_are_not_split_weakly() {
        let glyphs = near_green_grid(|_| 0);
        assert!(glyphs.iter().flatten().all(|g| g.author == Author::Given));
    }

    /// The colour groups with clear splits only (no weak ones, which need the glyphs' shapes).
    fn clear_splits(
        colours: &[[f32; 3]],
        background: [f32; 3],
        places: &[(f32, f32)],
    ) -> Vec<usize> {
        let shapes = Shapes::new(&[]);
        let groups = colour_groups(colours);
        split_mixed_groups(colours, background, places, &shapes, false, groups).0
    }

    /// Asserts that the colours split into two groups: the first `at` of them, and the rest.
    fn assert_split_at(
        colours: &[[f32; 3]],
        background: [f32; 3],
        places: &[(f32, f32)],
        at: usize,
    ) {
        let groups = clear_splits(colours, background, places);
        assert!(groups[..at].iter().all(|&g| g == groups[0]), "{groups:?}");
        assert!(groups[at..].iter().all(|&g| g == groups[at]), "{groups:?}");
        assert_ne!(groups[0], groups[at]);
    }

    /// Cells spread over the grid, unrelated to the order of the colours.
    fn scattered(n: usize) -> Vec<(f32, f32)> {
        (0..n)
            .map(|i| {
                let cell = i * 37 % 81;
                ((cell / 9) as f32, (cell % 9) as f32)
            })
            .collect()
    }

    fn glyph(colour: [u8; 3]) -> Glyph {
        Glyph {
            ink: image::GrayImage::new(1, 1),
            ..Glyph::sketch(1, 10, colour)
        }
    }
}
