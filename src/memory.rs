//! One call from a picture in memory to the result: for programs that already hold the
//! screenshot (an upload, the clipboard, a pipe) and want the report and the drawn picture
//! back without touching files.

use std::path::Path;

use image::DynamicImage;

use crate::pipeline::decode;
use crate::pipeline::picture::Picture;
use crate::report::{Report, Stage};
use crate::{Error, Result, Snap};

/// A screenshot read and solved in memory.
#[derive(Debug)]
#[non_exhaustive]
pub struct Solved {
    /// What was read, the solution, corrections, doubts, wrong entries, hints and timings
    /// (`output` is `None`: nothing was written).
    pub report: Report,
    /// The picture with the answer (or, by [`Options::mode`](crate::Options::mode), the
    /// marks) drawn in; `None` when nothing may be drawn (the reading is in doubt, or the
    /// puzzle has no unique solution: see `report.status`).
    ///
    /// RGB, or RGBA when the input has transparent parts: transparent where the input was,
    /// and what was drawn opaque enough to show on any background. For a format without
    /// alpha, lay it over white first (`Picture::from(picture).into_rgb()`, see [`Picture`]),
    /// or write it with [`encode`](crate::pipeline::encode::encode), which does so for JPEG.
    pub picture: Option<DynamicImage>,
}

impl Snap {
    /// Reads, solves and draws a picture already decoded. Transparent parts are read as laid
    /// over white, and kept in the drawn picture.
    ///
    /// Errors when there is no grid in the picture; a grid read in doubt, or with no unique
    /// solution, is `Ok` with that status in the report and no picture.
    ///
    /// # Examples
    ///
    /// ```
    /// use sudoku_snap::{image, Options, Snap, Status};
    /// let shot = image::open("samples/classic-dejavu-light.png").unwrap();
    /// let snap = Snap::new(Options::default())?;
    /// let solved = snap.solve_image(&shot)?;
    /// assert_eq!(solved.report.status, Status::Solved);
    /// let picture = solved.picture.expect("a solved grid is drawn");
    /// assert_eq!((picture.width(), picture.height()), (shot.width(), shot.height()));
    /// # Ok::<(), sudoku_snap::Error>(())
    /// ```
    pub fn solve_image(&self, image: &DynamicImage) -> Result<Solved> {
        let name = Path::new("<image>");
        let mut report = Report::new(name);
        let started = std::time::Instant::now();
        let mut picture = report.timings.time(Stage::Decode, || Picture::from(image));
        let drew = self.finish(&mut picture, name, &mut report, started)?;
        Ok(Solved {
            picture: drew.then(|| picture.into_image()),
            report,
        })
    }

    /// Decodes an encoded picture (PNG, JPEG, WebP, BMP, GIF) within the options' limits,
    /// then does what [`Snap::solve_image`] does; `name` labels the report and errors
    /// (`-` for stdin, say).
    ///
    /// # Examples
    ///
    /// ```
    /// use sudoku_snap::{Options, Snap, Status};
    /// let bytes = std::fs::read("samples/classic-dejavu-light.png").unwrap();
    /// let snap = Snap::new(Options::default())?;
    /// let solved = snap.solve_bytes(&bytes, "upload".as_ref())?;
    /// assert_eq!(solved.report.status, Status::Solved);
    /// assert!(solved.picture.is_some());
    /// # Ok::<(), sudoku_snap::Error>(())
    /// ```
    pub fn solve_bytes(&self, bytes: &[u8], name: &Path) -> Result<Solved> {
        let mut report = Report::new(name);
        let started = std::time::Instant::now();
        let limits = self.limits();
        let (mut picture, _memory) = report.timings.time(Stage::Decode, || {
            decode::decode_bytes_within(bytes, name, &limits, &self.memory)
        })?;
        let drew = self.finish(&mut picture, name, &mut report, started)?;
        Ok(Solved {
            picture: drew.then(|| picture.into_image()),
            report,
        })
    }

    /// Solves and draws `picture`; whether it drew.
    fn finish(
        &self,
        picture: &mut Picture,
        name: &Path,
        report: &mut Report,
        started: std::time::Instant,
    ) -> Result<bool> {
        let label = name.file_name().map_or(name, Path::new);
        let budget = self.budget();
        let drew = match self.solve_picture(picture, (name, label), report, true, &budget) {
            // A reading in doubt is no error here (see `solve_image`), nor one that ran out.
            Err(e @ Error::OutOfSteps { .. }) => {
                report.fail(e);
                Ok(false)
            }
            drew => drew,
        };
        report.steps = budget.spent();
        report.timings.total = started.elapsed().as_secs_f64() * 1000.0;
        drew
    }
}
