//! The other grids of one picture (a page of several puzzles, a screenshot of two games): each
//! found by locating again with the grids already found painted over in the page's colour,
//! then read and decided as the first one is, with a budget of its own.

use std::path::{Path, PathBuf};

use image::{Rgb, RgbImage};

use crate::pipeline::picture::Picture;
use crate::pipeline::quad::Quad;
use crate::pipeline::{correct, gray, locate, render, Reading};
use crate::puzzle::board::MIN_GIVENS;
use crate::read::decide;
use crate::report::OtherGrid;
use crate::{Snap, Timings};

/// The most givens a grid may hold to be a puzzle: the most any minimal puzzle is known to
/// have is 40, and printed puzzles are near minimal; a grid fuller than that beside a puzzle is
/// a printed solution (a newspaper's "yesterday's solution", cut by the picture's edge).
const MAX_PUZZLE_GIVENS: usize = 40;

/// The least side another grid has, as a share of the first's: one page prints its puzzles at
/// one size, and a grid much smaller beside a puzzle is a printed solution or a thumbnail.
const SAME_SIZE: f32 = 0.75;

/// Whether `image` leaves room beside the grid `first` for another of at least [`SAME_SIZE`]
/// its side: a strip left, right, above or below the grid's bounding box that wide and tall.
fn room_for_another(image: &RgbImage, first: &Quad) -> bool {
    let xs = first.corners.map(|c| c.0);
    let ys = first.corners.map(|c| c.1);
    let (w, h) = (image.width() as f32, image.height() as f32);
    let need = SAME_SIZE * first.mean_side();
    let strips = [
        (min(&xs), h),
        (w - max(&xs), h),
        (w, min(&ys)),
        (w, h - max(&ys)),
    ];
    strips.iter().any(|&(sw, sh)| sw >= need && sh >= need)
}

/// The most grids looked for beside the first: a newspaper page prints a few puzzles, and each
/// search costs a location of the whole picture.
const MAX_OTHER_GRIDS: usize = 3;

impl Snap {
    /// The puzzles of `image` other than the one at `first`, each with its decision, in the
    /// order found. A grid read with fewer givens than a puzzle has (a keypad, a table of
    /// text) or more than [`MAX_PUZZLE_GIVENS`] (a printed solution) is passed over; a grid
    /// found where one was found already ends the search. `name` labels errors, `label` debug
    /// pictures (with the grid's number added).
    pub(crate) fn other_grids(
        &self,
        image: &RgbImage,
        first: &Quad,
        (name, label): (&Path, &Path),
    ) -> Vec<(Reading, correct::Decision, OtherGrid)> {
        let mut out = Vec::new();
        if !room_for_another(image, first) {
            return out;
        }
        let page = page_colour(image);
        let mut masked = image.clone();
        let mut found = vec![*first];
        while out.len() < MAX_OTHER_GRIDS {
            let last = found[found.len() - 1];
            paint_over(&mut masked, &last, page);
            let Some(located) = locate::locate_lined(&masked) else {
                break;
            };
            let quad = located.quad;
            let overlaps = found.iter().any(|q| q.contains(quad.centre()));
            if overlaps || quad.mean_side() < SAME_SIZE * first.mean_side() {
                break;
            }
            found.push(quad);
            let budget = self.budget();
            let mut timings = Timings::default();
            let label = numbered(label, found.len());
            let read =
                |t: &mut Timings| self.read_located(&masked, &located, (name, &label), t, &budget);
            let Ok(reading) = rayon::scope(|_| read(&mut timings)) else {
                continue;
            };
            let givens = reading.givens.filled_count();
            if !(MIN_GIVENS..=MAX_PUZZLE_GIVENS).contains(&givens) {
                continue;
            }
            let (mut reading, mut decision) = self.decide(&masked, reading, &mut timings, &budget);
            if !budget.is_stopped() {
                let grid = checked(&mut reading, &mut decision);
                out.push((reading, decision, grid));
            }
        }
        out
    }
}

impl Snap {
    /// Draws the answer of each of `others` whose reading is trusted, as the first grid's is.
    pub(crate) fn draw_other_answers(
        &self,
        picture: &mut Picture,
        others: &[(Reading, correct::Decision, OtherGrid)],
    ) {
        for (reading, decision, _) in others {
            if let Some(solution) = decision.trusted() {
                let (rect, cells) = (&reading.rectified, &reading.cells);
                render::draw_answer(picture, rect, cells, &solution, self.options.answer_color);
            }
        }
    }
}

/// `label` with `-grid<k>` before its extension, so the debug pictures of a picture's `k`th
/// grid do not overwrite its first's.
/// The grid `reading` and `decision` leave, its entries weighed against the decision and
/// checked as the first grid's are (see [`decide::weigh_entries`]).
fn checked(reading: &mut Reading, decision: &mut correct::Decision) -> OtherGrid {
    let apart = reading.cells.entries_coloured_apart();
    let refuting = decide::weigh_entries(reading, decision, &apart);
    let mut grid = OtherGrid::new(reading.rectified.quad.corners, reading, decision, refuting);
    if let Some(solution) = decision.trusted() {
        (grid.wrong_entries, grid.unreadable_entries) =
            decide::checked_entries(reading, &solution, &apart);
    }
    grid
}

fn numbered(label: &Path, k: usize) -> PathBuf {
    let stem = label
        .file_stem()
        .map_or_else(Default::default, |s| s.to_os_string());
    let mut name = stem;
    name.push(format!("-grid{k}"));
    if let Some(ext) = label.extension() {
        name.push(".");
        name.push(ext);
    }
    label.with_file_name(name)
}

/// The page's colour: each channel's median over a sparse sample of the picture (grids cover
/// less than the page around them, or there would be no room for another).
fn page_colour(image: &RgbImage) -> [u8; 3] {
    let step = (image.width() * image.height() / SAMPLES).max(1) as usize;
    let sample: Vec<[u8; 3]> = image.pixels().step_by(step).map(|p| p.0).collect();
    [0, 1, 2].map(|k| gray::median(&sample.iter().map(|p| p[k]).collect::<Vec<u8>>()))
}

/// About how many pixels [`page_colour`] samples.
const SAMPLES: u32 = 10_000;

/// Paints the grid `quad` over in `colour`, with a margin of a cell all round, so that no line
/// of it is left to be found again.
fn paint_over(image: &mut RgbImage, quad: &Quad, colour: [u8; 3]) {
    let grown = grown_by_a_cell(quad);
    let xs = grown.corners.map(|c| c.0);
    let ys = grown.corners.map(|c| c.1);
    let clamp = |v: f32, max: u32| v.clamp(0.0, max as f32) as u32;
    let (x0, x1) = (
        clamp(min(&xs), image.width()),
        clamp(max(&xs) + 1.0, image.width()),
    );
    let (y0, y1) = (
        clamp(min(&ys), image.height()),
        clamp(max(&ys) + 1.0, image.height()),
    );
    for y in y0..y1 {
        for x in x0..x1 {
            if grown.contains((x as f32 + 0.5, y as f32 + 0.5)) {
                image.put_pixel(x, y, Rgb(colour));
            }
        }
    }
}

/// `quad` grown about its centre by a ninth of itself each way: a cell beyond each border.
fn grown_by_a_cell(quad: &Quad) -> Quad {
    quad.scaled(1.0 + 2.0 / 9.0)
}

fn min(values: &[f32; 4]) -> f32 {
    values.iter().copied().fold(f32::INFINITY, f32::min)
}

fn max(values: &[f32; 4]) -> f32 {
    values.iter().copied().fold(f32::NEG_INFINITY, f32::max)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_grids_debug_pictures_are_numbered() {
        assert_eq!(
            numbered(Path::new("a__x.png"), 2),
            PathBuf::from("a__x-grid2.png")
        );
        assert_eq!(numbered(Path::new("x"), 3), PathBuf::from("x-grid3"));
    }
}
