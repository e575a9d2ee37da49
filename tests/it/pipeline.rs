//! The image pipeline on every screenshot with ground truth (`samples/` and
//! `../shared/corpus/`): the givens read equal the truth, and the solved picture, read back by
//! our own pipeline, holds the whole solution.

use std::path::{Path, PathBuf};

use rayon::prelude::*;
use sudoku_snap::stages::Cells;
use sudoku_snap::{Board, Options, Pos, Snap, Status};

use super::util::shared;

/// (image, givens, solution) for every `NAME.txt` in `dir` that has an image beside it.
fn truth_set(dir: &Path) -> Vec<(PathBuf, Board, Board)> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    paths.sort();
    for txt in paths
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
    {
        let Some(image) = paths.iter().find(|p| {
            p.file_stem() == txt.file_stem() && p.extension().is_some_and(|e| e != "txt")
        }) else {
            continue;
        };
        let text = std::fs::read_to_string(txt).unwrap();
        let mut lines = text.lines();
        let givens: Board = lines.next().unwrap().parse().unwrap();
        let solution: Board = lines.next().unwrap().parse().unwrap();
        out.push((image.clone(), givens, solution));
    }
    out
}

fn samples() -> Vec<(PathBuf, Board, Board)> {
    let set = truth_set(&Path::new(env!("CARGO_MANIFEST_DIR")).join("samples"));
    assert!(
        set.len() >= 8,
        "samples/ should hold at least 8 screenshots with truth"
    );
    set
}

/// The screenshots of `../shared/corpus`; `None` (the test skipped) where `../shared` is absent
/// outside CI. A corpus folder without a single screenshot with truth is an error, not a skip.
fn corpus() -> Option<Vec<(PathBuf, Board, Board)>> {
    let dir = shared("corpus")?;
    let set = truth_set(&dir);
    assert!(
        !set.is_empty(),
        "{} holds no screenshot with truth",
        dir.display()
    );
    Some(set)
}

/// Reads every image; returns the failures as readable lines.
fn misreads(set: &[(PathBuf, Board, Board)]) -> Vec<String> {
    let snap = Snap::new(Options::default()).unwrap();
    set.par_iter()
        .filter_map(|(image, givens, _)| {
            let report = snap.process(image, None);
            (report.givens != Some(*givens)).then(|| {
                format!(
                    "{}: read {:?} ({:?}, {:?})",
                    image.display(),
                    report.givens,
                    report.status,
                    report.error
                )
            })
        })
        .collect()
}

#[test]
fn samples_are_read_exactly() {
    let failures = misreads(&samples());
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn corpus_is_read_exactly() {
    let Some(corpus) = corpus() else {
        return;
    };
    let failures = misreads(&corpus);
    assert!(failures.is_empty(), "{failures:#?}");
}

/// Writes the solved picture, reads it back, and checks givens + entries = the solution.
fn round_trip_failures(set: &[(PathBuf, Board, Board)]) -> Vec<String> {
    let snap = Snap::new(Options::default()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    set.par_iter()
        .filter_map(|(image, _, solution)| {
            let out = dir.path().join(format!(
                "{}.png",
                image.file_stem().unwrap().to_string_lossy()
            ));
            let first = snap.process(image, Some(&out));
            if first.status != Status::Solved || first.output.as_deref() != Some(out.as_path()) {
                return Some(format!(
                    "{}: {:?} {:?}",
                    image.display(),
                    first.status,
                    first.error
                ));
            }
            let back = snap.process(&out, None);
            let (Some(g), Some(e)) = (back.givens, back.entries) else {
                return Some(format!(
                    "{}: read back {:?} {:?}",
                    out.display(),
                    back.status,
                    back.error
                ));
            };
            let wrong: Vec<String> = Pos::all()
                .filter(|&p| g.get(p).or(e.get(p)) != solution.get(p))
                .map(|p| {
                    format!(
                        "{p}: {:?}/{:?} != {:?}",
                        g.get(p),
                        e.get(p),
                        solution.get(p)
                    )
                })
                .collect();
            (!wrong.is_empty()).then(|| format!("{}: {}", image.display(), wrong.join(", ")))
        })
        .collect()
}

#[test]
fn solved_samples_read_back_as_the_solution() {
    let failures = round_trip_failures(&samples());
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn solved_corpus_reads_back_as_the_solution() {
    let Some(corpus) = corpus() else {
        return;
    };
    let failures = round_trip_failures(&corpus);
    assert!(failures.is_empty(), "{failures:#?}");
}

/// The cell of `cells`' grid holding square-picture point (u, v), `None` outside the grid.
fn cell_at(cells: &Cells, u: f32, v: f32) -> Option<Pos> {
    let index = |lines: &[f32; 10], t: f32| lines.windows(2).position(|w| w[0] <= t && t < w[1]);
    Pos::new(index(&cells.lines_y, v)?, index(&cells.lines_x, u)?)
}

/// Regression: this test once only counted the pixels that changed. Now every pixel of a
/// given's cell must come out as it went in. PNG in and PNG out is lossless, so identical
/// means identical, with no tolerance.
#[test]
fn rendering_leaves_givens_untouched() {
    let snap = Snap::new(Options::default()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let pngs: Vec<_> = (samples().into_iter())
        .filter(|s| s.0.extension().is_some_and(|e| e == "png"))
        .collect();
    assert!(pngs.len() >= 5, "samples/ should hold PNG screenshots");
    let failures: Vec<String> = pngs
        .par_iter()
        .filter_map(|(image, givens, _)| {
            let out = dir.path().join(image.file_name().unwrap());
            assert_eq!(snap.process(image, Some(&out)).status, Status::Solved);
            let before = image::open(image).unwrap().into_rgb8();
            let after = image::open(&out).unwrap().into_rgb8();
            assert_eq!(before.dimensions(), after.dimensions());
            // Where the cells are in the input, as the pipeline itself found them.
            let reading = snap.read(&before, image).unwrap();
            assert_eq!(reading.givens, *givens, "{}", image.display());
            let (mut in_givens, mut changed_in_givens, mut drawn) = (0, 0, 0);
            for (x, y, p) in before.enumerate_pixels() {
                let (u, v) = reading.rectified.projection * (x as f32 + 0.5, y as f32 + 0.5);
                let Some(pos) = cell_at(&reading.cells, u, v) else {
                    continue;
                };
                let same = p == after.get_pixel(x, y);
                if givens.get(pos).is_some() {
                    in_givens += 1;
                    changed_in_givens += u32::from(!same);
                } else {
                    drawn += u32::from(!same);
                }
            }
            assert!(
                in_givens > 0 && drawn > 0,
                "{}: nothing compared",
                image.display()
            );
            (changed_in_givens > 0).then(|| {
                format!(
                    "{}: {changed_in_givens} of the givens' {in_givens} pixels changed",
                    image.display()
                )
            })
        })
        .collect();
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn a_small_grid_in_a_huge_picture_is_read() {
    // The 340 px sample placed in an 8000 x 6000 white picture: the working image averages
    // blocks of at most 4 x 4 pixels, so the grid keeps enough pixels to show its lines.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples");
    let small = image::open(dir.join("small-cantarell.png"))
        .unwrap()
        .into_rgb8();
    let truth = std::fs::read_to_string(dir.join("small-cantarell.txt")).unwrap();
    let givens: Board = truth.lines().next().unwrap().parse().unwrap();
    let mut huge = image::RgbImage::from_pixel(8000, 6000, image::Rgb([255, 255, 255]));
    image::imageops::overlay(&mut huge, &small, 5100, 3900);
    let snap = Snap::new(Options::default()).unwrap();
    let reading = snap.read(&huge, Path::new("huge.png")).unwrap();
    assert_eq!(reading.givens, givens);
}

#[test]
fn a_grid_on_its_side_or_upside_down_is_read_upright() {
    // A newspaper photographed with the phone turned: the grid's lines look the same every
    // way round, so only the digits can tell which side is the top.
    let snap = Snap::new(Options::default()).unwrap();
    let failures: Vec<String> = samples()
        .par_iter()
        .flat_map(|(image, givens, _)| {
            let upright = image::open(image).unwrap().into_rgb8();
            let turns = [
                ("a quarter", image::imageops::rotate90(&upright)),
                ("a half", image::imageops::rotate180(&upright)),
                ("three quarters", image::imageops::rotate270(&upright)),
            ];
            turns
                .into_iter()
                .filter_map(|(turn, turned)| {
                    let reading = snap.read(&turned, image);
                    match reading {
                        Ok(r) if r.givens == *givens => None,
                        other => Some(format!(
                            "{} turned {turn}: {:?}",
                            image.display(),
                            other.map(|r| r.givens)
                        )),
                    }
                })
                .collect::<Vec<_>>()
        })
        .collect();
    assert!(failures.is_empty(), "{failures:#?}");
}
