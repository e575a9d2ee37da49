//! Which way up the grid stands, from its glyphs: a newspaper photographed with the phone on
//! its side shows every digit turned a quarter, and nothing in the grid's lines tells which
//! side is the top. The digits do: turned the right way they fit the templates, turned any
//! other way they fit them poorly.

use image::{imageops, GrayImage};

use crate::pipeline::cells::MIN_POPULATION;
use crate::pipeline::gray::median_f32;
use crate::pipeline::quad::Turn;
use crate::pipeline::tuning;

use super::{Matched, Templates};

impl Templates {
    /// The turn that makes the glyphs (`inks`: 255 = ink, cropped) stand upright:
    /// `Turn::None` unless another fits the templates clearly better. `matched` is
    /// [`Templates::match_glyphs`] of `inks` as they stand.
    pub fn upright_turn(&self, inks: &[&GrayImage], matched: &Matched) -> Turn {
        if inks.len() < MIN_POPULATION {
            return Turn::None;
        }
        let upright = median_f32(matched.best_scores().collect());
        if upright + tuning::CLEAR >= 1.0 {
            // No turn can lead by the margin (scores are cosines, at most 1): a crisp screenshot
            // stops here, before three more matchings (2.2 ms of 7.5 on the phone bench).
            return Turn::None;
        }
        Turn::ALL[1..]
            .iter()
            .map(|&turn| (turn, self.fit(inks, turn)))
            .filter(|&(_, fit)| fit > upright + tuning::CLEAR)
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .map_or(Turn::None, |(turn, _)| turn)
    }

    /// The median over the glyphs, turned by `turn`, of each one's best template score.
    fn fit(&self, inks: &[&GrayImage], turn: Turn) -> f32 {
        let turned: Vec<GrayImage> = match turn {
            Turn::None => inks.iter().map(|&i| i.clone()).collect(),
            Turn::Quarter => inks.iter().map(|&i| imageops::rotate90(i)).collect(),
            Turn::Half => inks.iter().map(|&i| imageops::rotate180(i)).collect(),
            Turn::ThreeQuarters => inks.iter().map(|&i| imageops::rotate270(i)).collect(),
        };
        let matched = self.match_glyphs(&turned.iter().collect::<Vec<_>>());
        median_f32(matched.best_scores().collect())
    }
}
