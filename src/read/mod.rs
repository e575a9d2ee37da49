//! Reading a picture's grid: the grid placed (as located, turned upright, re-placed by the
//! digits' lattice; see [`placement`]), its cells sliced, their glyphs recognized, and the
//! decision among that reading and the hypotheses beyond it (see [`hypotheses`], [`decide`]).

mod decide;
pub(crate) mod hypotheses;
mod implied;
mod others;
pub(crate) mod placement;

use std::path::Path;

use image::RgbImage;

use crate::budget::{self, Budget};
use crate::pipeline::cells::{Author, Cells};
use crate::pipeline::recognize::{GridGlyph, Matched, Recognized, Rival};
use crate::pipeline::rectify::{self, Rectified};
use crate::pipeline::{authors, cells, debug, locate, Reading};
use crate::puzzle::board::{Board, Pos};
use crate::{Error, Result, Snap, Stage, Timings};

impl Snap {
    /// A fresh work budget for one reading, cancelled by the options' flag.
    pub(crate) fn budget(&self) -> Budget {
        Budget::new(budget::READING_STEPS, self.options.cancel.clone())
    }

    /// [`Snap::read`], naming debug pictures after `label` (see [`Snap::process_as`]), its
    /// searches spending `budget`.
    pub(crate) fn read_as(
        &self,
        image: &RgbImage,
        (name, label): (&Path, &Path),
        timings: &mut Timings,
        budget: &Budget,
    ) -> Result<Reading> {
        // The stages split their loops over the thread pool many times per picture: run from
        // inside the pool (a no-op there, as in a batch), each split is a cheap push on the
        // worker's own queue instead of a hand-over from a thread outside it.
        rayon::scope(|_| self.read_in_pool(image, (name, label), timings, budget))
    }

    /// [`Snap::read_as`], on a thread of the pool.
    pub(crate) fn read_in_pool(
        &self,
        image: &RgbImage,
        (name, label): (&Path, &Path),
        timings: &mut Timings,
        budget: &Budget,
    ) -> Result<Reading> {
        budget.check(name)?;
        let located = timings.time(Stage::Locate, || locate::locate(image));
        let located = match located {
            Ok(l) => l,
            Err(not_found) => {
                self.debug(|dir| debug::write_ink(dir, name, label, &not_found.ink));
                return Err(Error::NoGrid {
                    path: name.to_path_buf(),
                    reason: not_found.reason,
                });
            }
        };
        self.read_located(image, &located, (name, label), timings, budget)
    }

    /// [`Snap::read_in_pool`] of the grid `located` in `image`.
    pub(crate) fn read_located(
        &self,
        image: &RgbImage,
        located: &locate::Located,
        (name, label): (&Path, &Path),
        timings: &mut Timings,
        budget: &Budget,
    ) -> Result<Reading> {
        budget.check(name)?;
        self.debug(|dir| debug::write_located(dir, name, label, located));
        let rectified = timings
            .time(Stage::Rectify, || rectify::rectify(image, &located.quad))
            .ok_or_else(|| Error::NoGrid {
                path: name.to_path_buf(),
                reason: "the grid's corners are degenerate".into(),
            })?;
        let cells = sliced(&rectified, image, timings);
        let (rectified, cells, matched) =
            self.upright(image, &located.quad, rectified, cells, timings);
        let (rectified, cells, matched) =
            self.registered(image, rectified, cells, matched, timings);
        budget.check(name)?;
        let reading = self.reading_of(rectified, cells, matched, timings, budget);
        budget.check(name)?;
        self.debug(|dir| {
            debug::write_cells(
                dir,
                name,
                label,
                &reading.rectified,
                &reading.cells,
                &reading.evidence,
            )
        });
        Ok(reading)
    }

    /// The reading of the grid straightened as `rectified` and sliced as `cells`; `matched`
    /// is their glyphs matched against the templates, when already done.
    pub(crate) fn reading_of(
        &self,
        rectified: Rectified,
        cells: Cells,
        matched: Option<Matched>,
        timings: &mut Timings,
        budget: &Budget,
    ) -> Reading {
        let recognition =
            timings.time(Stage::Recognize, || self.recognize(&cells, matched, budget));
        Reading::recognized(rectified, cells, recognition)
    }

    /// Each cell's recognized digit (`None` for empty cells), the rivals, and the digits read
    /// as givens and entries: all glyphs of the grid matched against all templates in one
    /// matrix product, then calibrated on each other.
    pub(crate) fn recognize(
        &self,
        cells: &Cells,
        matched: Option<Matched>,
        budget: &Budget,
    ) -> Recognition {
        let found = grid_glyphs(cells);
        let (recognized, rivals) = self.templates.recognize_grid(&found, matched, budget);
        recognition(cells, &found, recognized, rivals)
    }

    /// [`Snap::recognize`] against templates blurred as much as the glyphs are; `None` when no
    /// blur fits them better than none (the reading would be the same).
    pub(crate) fn recognize_blurred(&self, cells: &Cells, budget: &Budget) -> Option<Recognition> {
        let found = grid_glyphs(cells);
        let (recognized, rivals) = self.templates.recognize_grid_blurred(&found, budget)?;
        Some(recognition(cells, &found, recognized, rivals))
    }

    /// Runs `write` on the debug folder when one is configured; debug output is best effort
    /// and never fails the run.
    pub(crate) fn debug(&self, write: impl FnOnce(&debug::Folder<'_>) -> std::io::Result<()>) {
        if let Some(dir) = &self.options.debug_dir {
            let folder = debug::Folder {
                path: dir,
                overwrite: self.options.debug_overwrite,
            };
            let _ = std::fs::create_dir_all(dir).and_then(|_| write(&folder));
        }
    }
}

/// The cells of the grid straightened as `rectified` from `image`: sliced, then their glyphs'
/// authors told.
pub(crate) fn sliced(rectified: &Rectified, image: &RgbImage, timings: &mut Timings) -> Cells {
    timings.time(Stage::Cells, || {
        let mut cells = cells::slice(rectified, image);
        authors::tell(&mut cells);
        cells
    })
}

/// What recognition makes of a grid's cells: the evidence, the rivals, the givens and the
/// entries (see [`Reading`]).
pub(crate) type Recognition = (Vec<Option<Recognized>>, Vec<Rival>, Board, Board);

/// The glyphs of `cells`, for recognition.
fn grid_glyphs(cells: &Cells) -> Vec<GridGlyph<'_>> {
    let apart = cells.entries_coloured_apart();
    Pos::all()
        .filter_map(|cell| {
            let glyph = cells.glyphs[cell.index()].as_ref()?;
            let given = glyph.author == Author::Given;
            Some(GridGlyph {
                ink: &glyph.ink,
                cell,
                given,
                may_be_hand: !given && !apart[cell.index()],
            })
        })
        .collect()
}

/// The recognition of `cells` from what `found` (their glyphs) were recognized as: a glyph
/// joined to other ink is marked misshapen, and the digits are split by author.
fn recognition(
    cells: &Cells,
    found: &[GridGlyph<'_>],
    recognized: Vec<Recognized>,
    rivals: Vec<Rival>,
) -> Recognition {
    let mut evidence = vec![None; cells.glyphs.len()];
    for (g, r) in found.iter().zip(recognized) {
        let misshapen = cells.glyphs[g.cell.index()]
            .as_ref()
            .is_some_and(|glyph| glyph.outsized);
        evidence[g.cell.index()] = Some(Recognized { misshapen, ..r });
    }
    let (givens, entries) = split_by_author(cells, &evidence);
    (evidence, rivals, givens, entries)
}

impl Reading {
    /// The reading of the grid straightened as `rectified` and sliced as `cells`, whose
    /// glyphs were recognized as `recognition`.
    pub(crate) fn recognized(
        rectified: Rectified,
        cells: Cells,
        recognition: Recognition,
    ) -> Reading {
        let (evidence, rivals, givens, entries) = recognition;
        Reading {
            givens,
            entries,
            evidence,
            rivals,
            rectified,
            cells,
        }
    }
}

/// Splits the recognized digits into givens and a player's entries by their author.
fn split_by_author(cells: &Cells, evidence: &[Option<Recognized>]) -> (Board, Board) {
    let mut givens = Board::empty();
    let mut entries = Board::empty();
    for pos in Pos::all() {
        let (Some(glyph), Some(r)) = (&cells.glyphs[pos.index()], &evidence[pos.index()]) else {
            continue;
        };
        match glyph.author {
            Author::Given => givens.set(pos, Some(r.digit())),
            Author::Entry => entries.set(pos, Some(r.digit())),
        }
    }
    (givens, entries)
}
