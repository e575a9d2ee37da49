//! Who wrote each digit: the puzzle's givens, or a player's entries, told apart by colour.
//!
//! The givens of one picture share one colour, so the glyphs' colours fall into tight groups.
//! How tight is measured on the picture itself (how far each glyph's colour is from its
//! nearest neighbour's), and groups are split only when they lie much further apart than
//! that: near shades (dark grey entries beside black givens, light blue beside white) split,
//! anti-aliasing and JPEG noise do not. Any number of groups is allowed (givens, entries, a
//! wrong entry in red). The givens are the least colourful group large enough to be the
//! givens, and of groups alike in colourfulness the one standing out most from the background.

use super::{Author, Glyph};

/// Groups closer than this (RGB distance) are one group, however tight each is: small and
/// thin glyphs never reach their full colour, and how close they come varies with the digit.
const MIN_SPLIT: f32 = 24.0;
/// A group of fewer glyphs than this is a lone glyph: light and shadow across a photo make one
/// glyph darker or lighter than the rest, so a lone glyph splits off only when it is far away
/// (`LONE_SPLIT`) or of another colourfulness (a red wrong entry).
const LONE: usize = 3;
/// How far a lone glyph's colour must be from the nearest group to be a group of its own.
const LONE_SPLIT: f32 = 60.0;
/// A real puzzle has at least this many givens, so a smaller group is not the givens (unless
/// no group is this large).
const MIN_GIVENS: usize = 17;
/// Groups are split when they lie this many times further apart than the typical distance
/// between a glyph's colour and its nearest neighbour's.
const SPLIT_FACTOR: f32 = 5.0;
/// Groups whose colourfulness differs by less than this are told apart by contrast instead.
const CHROMA_TIE: f32 = 30.0;

/// Marks the glyphs outside the givens' colour group as entries.
pub(super) fn mark_entries(glyphs: &mut [Option<Glyph>], background: [u8; 3]) {
    let colours: Vec<[f32; 3]> = glyphs
        .iter()
        .flatten()
        .map(|g| g.colour.map(f32::from))
        .collect();
    if colours.len() < 2 {
        return;
    }
    let groups = absorb_lone_glyphs(&colours, colour_groups(&colours));
    let count = groups.iter().max().map_or(0, |&g| g + 1);
    if count < 2 {
        return;
    }
    let givens = givens_group(&colours, &groups, count, background.map(f32::from));
    for (glyph, &group) in glyphs.iter_mut().flatten().zip(&groups) {
        if group != givens {
            glyph.author = Author::Entry;
        }
    }
}

fn distance(a: [f32; 3], b: [f32; 3]) -> f32 {
    (0..3).map(|i| (a[i] - b[i]).powi(2)).sum::<f32>().sqrt()
}

fn chroma(c: [f32; 3]) -> f32 {
    c.iter().cloned().fold(f32::MIN, f32::max) - c.iter().cloned().fold(f32::MAX, f32::min)
}

/// Each colour's group (0, 1, …): colours closer than the picture's split distance are
/// linked, and a group is what links together.
fn colour_groups(colours: &[[f32; 3]]) -> Vec<usize> {
    let split = split_distance(colours);
    let n = colours.len();
    let mut group = vec![usize::MAX; n];
    let mut next = 0;
    for start in 0..n {
        if group[start] != usize::MAX {
            continue;
        }
        group[start] = next;
        let mut stack = vec![start];
        while let Some(i) = stack.pop() {
            for j in 0..n {
                if group[j] == usize::MAX && distance(colours[i], colours[j]) < split {
                    group[j] = next;
                    stack.push(j);
                }
            }
        }
        next += 1;
    }
    group
}

/// Joins each lone glyph's group to the nearest large group unless it is far from it or of
/// another colourfulness; returns the groups renumbered 0, 1, ….
fn absorb_lone_glyphs(colours: &[[f32; 3]], mut groups: Vec<usize>) -> Vec<usize> {
    let count = groups.iter().max().map_or(0, |&g| g + 1);
    let size = |groups: &[usize], g: usize| groups.iter().filter(|&&k| k == g).count();
    for g in 0..count {
        let members: Vec<usize> = (0..colours.len()).filter(|&i| groups[i] == g).collect();
        if members.is_empty() || members.len() >= LONE {
            continue;
        }
        let nearest = members
            .iter()
            .flat_map(|&i| {
                (0..colours.len())
                    .filter(|&j| groups[j] != g && size(&groups, groups[j]) >= LONE)
                    .map(move |j| (distance(colours[i], colours[j]), i, j))
            })
            .min_by(|a, b| a.0.total_cmp(&b.0));
        if let Some((d, i, j)) = nearest {
            let alike = (chroma(colours[i]) - chroma(colours[j])).abs() < CHROMA_TIE;
            if d < LONE_SPLIT && alike {
                let target = groups[j];
                members.iter().for_each(|&m| groups[m] = target);
            }
        }
    }
    let mut renumber: Vec<usize> = groups.clone();
    renumber.sort_unstable();
    renumber.dedup();
    groups
        .iter()
        .map(|g| renumber.binary_search(g).expect("a group of the list"))
        .collect()
}

/// How far apart two colours must be to belong to different groups: several times the
/// typical nearest-neighbour distance (the noise within a group), and never less than
/// `MIN_SPLIT`.
fn split_distance(colours: &[[f32; 3]]) -> f32 {
    let mut nearest: Vec<f32> = colours
        .iter()
        .enumerate()
        .map(|(i, &a)| {
            colours
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .map(|(_, &b)| distance(a, b))
                .fold(f32::MAX, f32::min)
        })
        .collect();
    nearest.sort_by(f32::total_cmp);
    // The upper quartile: most glyphs have a same-group neighbour, a lone red entry does not.
    let noise = nearest[nearest.len() * 3 / 4];
    (SPLIT_FACTOR * noise).max(MIN_SPLIT)
}

/// The givens' group: of the groups large enough, the least colourful; of groups about as
/// colourful, the one standing out most from the background.
fn givens_group(
    colours: &[[f32; 3]],
    groups: &[usize],
    count: usize,
    background: [f32; 3],
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
    let eligible = || (0..count).filter(|&g| sizes[g] >= large);
    let least = eligible()
        .map(|g| chroma(means[g]))
        .fold(f32::MAX, f32::min);
    eligible()
        .filter(|&g| chroma(means[g]) < least + CHROMA_TIE)
        .max_by(|&a, &b| distance(means[a], background).total_cmp(&distance(means[b], background)))
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
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
        let groups = absorb_lone_glyphs(&colours_f, grouped(&colours));
        assert!(groups[..25].iter().all(|&g| g == groups[0]));
        assert!(groups[25..35].iter().all(|&g| g == groups[25]));
        assert_ne!(groups[0], groups[25]);
        assert_ne!(groups[35], groups[0]);
        assert_ne!(groups[35], groups[25]);
        let colours: Vec<[f32; 3]> = colours.iter().map(|c| c.map(f32::from)).collect();
        // On white, black stands out more than dark grey: black is the givens.
        assert_eq!(givens_group(&colours, &groups, 3, [255.0; 3]), groups[0]);
    }

    #[test]
    fn a_lone_darker_glyph_is_not_the_givens() {
        // Measured on a newspaper photo: one given in shadow.
        let mut colours: Vec<[f32; 3]> = (0..24).map(|i| [86.0 + i as f32, 100.0, 95.0]).collect();
        colours.push([61.0, 74.0, 72.0]);
        let groups = absorb_lone_glyphs(&colours, colour_groups(&colours));
        assert!(groups.iter().all(|&g| g == 0), "{groups:?}");
    }

    #[test]
    fn white_givens_beside_light_blue_entries_on_dark() {
        let mut colours: Vec<[f32; 3]> = vec![[240.0, 240.0, 240.0]; 20];
        colours[3] = [236.0, 241.0, 238.0];
        colours.extend(vec![[150.0, 190.0, 250.0]; 8]);
        let groups = colour_groups(&colours);
        assert_ne!(groups[0], groups[20]);
        assert_eq!(givens_group(&colours, &groups, 2, [18.0; 3]), groups[0]);
    }
}
