//! Locate: find the 9x9 grid anywhere in a screenshot and return its four corners.
//!
//! The picture is reduced to a working size, turned into an "ink" map by an adaptive
//! threshold (so light and dark themes, highlights and uneven light all work), and split into
//! connected components. The grid's lines form one large component; each large component is
//! a candidate, its corners are its extreme points along the two diagonals, and a candidate is
//! accepted only when, straightened, it shows the lines of a sudoku: ten evenly spaced lines
//! each way (or at least the four box borders each way). Keypads, text and status bars are
//! separate components and fail that test.
//!
//! When neither polarity's ink shows a grid, the long edges (steps in grey along stretches
//! longer than text is tall: both sides of every line however faint, and the edges of box
//! fills) are tried, as ten lines each way, then as boxes that alternate in fill like a
//! chessboard, and last the digits themselves, glyphs of one size on a 9x9 lattice
//! (`lattice`). Corners found that way, or found from ink that misplaces one by a tenth of a
//! cell, are fitted again to the grid's lines on the full picture (`fit`); of the fallbacks,
//! the first whose corners fit is taken.

use image::{GrayImage, RgbImage};
use rayon::prelude::*;

use crate::pipeline::gray::is_dark;
use crate::pipeline::quad::Quad;

mod components;
mod edges;
mod fit;
mod grid;
mod homography;
mod ink;
mod lattice;
mod line;
mod shading;
mod work;

use components::{components, Component};
use fit::Start;
use grid::{background_is_dark, grid_test};
pub use ink::ink_map;
use ink::{local_ink_maps, strong_ink_maps};
use work::working_gray;

/// The working image's longer side, in pixels, unless that takes blocks larger than
/// `MAX_BLOCK`: enough to see the lines of a grid that fills a quarter of a phone screen,
/// small enough to label components in a few milliseconds.
const WORK_SIZE: u32 = 800;
/// The largest block of original pixels one working pixel averages: the smallest grid we
/// read (~250 px) keeps over 60 working pixels, enough for its ten lines, in any picture.
const MAX_BLOCK: usize = 4;
/// A pixel counts as ink when it is this many grey levels darker than its neighbourhood
/// (JPEG noise and paper texture stay below ~10 levels).
const INK_CONTRAST: i32 = 8;
/// The contrast, in grey levels, at which digits stand out and faint lines do not.
const TEXT_CONTRAST: f32 = 40.0;
/// The neighbourhood for the adaptive threshold, as a fraction of the working image's
/// longer side: wider than a grid line, narrower than a cell of a small grid.
const NEIGHBOURHOOD: f32 = 1.0 / 80.0;
/// Smallest grid side on the working image, in pixels (5 px a cell).
const MIN_GRID_SIDE: u32 = 45;
/// The least move, as a fraction of a cell, for which corners found from the ink's lines are
/// replaced by those fitted to the lines on the full picture: more is a corner pulled onto
/// text or a frame beside the grid; less is mostly the width of a border and the bend of a
/// photographed page, where the cell reader does as well or better with the corners at the
/// outer extremes of the lines (photos of paper read worse from 0.05 on).
const MIN_CORRECTION: f32 = 0.2;
/// How many of the largest components are tried as the grid.
pub(super) const CANDIDATES: usize = 8;

/// What locating found, with the intermediate pictures for `--debug`.
pub struct Located {
    /// The grid's corners in the original image.
    pub quad: Quad,
    /// Whether the picture is a dark theme (light ink on a dark background).
    pub dark: bool,
    /// The ink map on the working image (white = ink).
    pub ink: GrayImage,
    /// The working image's scale: original pixels per working pixel.
    pub scale: f32,
}

/// The best of the largest shapes of the long-edge map that shows all of a sudoku's lines
/// (not only its box borders: a keypad of 3x3 buttons draws those too).
fn best_lined(edges: &GrayImage) -> Option<Quad> {
    let components = components(edges);
    let tested = grid_tests(&components, |quad, _| {
        Some(grid_test(edges, quad, false, true))
    });
    highest_scored(tested)
}

/// The grid test of each of the largest `components` (`test` of its quadrilateral and the
/// component; `None` where it is not tested), in their order. The candidates are independent:
/// tested in parallel.
fn grid_tests(
    components: &[Component],
    test: impl Fn(&Quad, &Component) -> Option<Result<f32, String>> + Sync,
) -> Vec<(&Component, Option<Result<f32, String>>)> {
    let candidates = &components[..components.len().min(CANDIDATES)];
    let results: Vec<_> = (candidates.par_iter())
        .map(|c| test(&c.quad(), c))
        .collect();
    candidates.iter().zip(results).collect()
}

/// The candidate that passed its grid test with the highest score (the first of equals).
fn highest_scored(tested: Vec<(&Component, Option<Result<f32, String>>)>) -> Option<Quad> {
    let mut best: Option<(f32, &Component)> = None;
    for (c, tested) in tested {
        if let Some(Ok(score)) = tested {
            if best.is_none_or(|(s, _)| score > s) {
                best = Some((score, c));
            }
        }
    }
    best.map(|(_, c)| c.quad())
}

/// Why no grid was accepted.
#[derive(Clone, Debug)]
pub struct NotFound {
    /// A sentence for the user.
    pub reason: String,
    /// The ink map, for `--debug`.
    pub ink: GrayImage,
}

/// Finds the sudoku grid in `image`.
///
/// The picture's own polarity (dark or light background, by its median) is tried first; when
/// no candidate passes, the other one is. A light card on a dark desktop (or a dark card on a
/// light page) has the median of its surroundings, not of the grid, and in that polarity the
/// card is one solid shape with the grid's lines as holes.
pub fn locate(image: &RgbImage) -> Result<Located, NotFound> {
    let (work, scale) = working_gray(image);
    let dark = is_dark(&work);
    let [darker, lighter] = local_ink_maps(&work, NEIGHBOURHOOD);
    let (first, second) = if dark {
        (&lighter, &darker)
    } else {
        (&darker, &lighter)
    };
    let reason = match by_ink_maps(image, (&work, scale), dark, [first, second]) {
        Ok(located) => return Ok(located),
        Err(why) => why,
    };
    // Last, and only then (each costs another labelling): the long edges, which keep
    // faint lines whole where an ink map breaks them and keep text apart from the grid; as
    // lines, then as boxes told apart by their fills alone; then the digits' own lattice.
    let edges = edges::long_edges(&work);
    let lattice = || digits_lattice(&work, &edges, dark, [first, second]);
    // Each finder with its trust when its corners fit no lines: lines found are the grid's
    // own; the digits sit in its cells; fills under a highlight in the page's own colour
    // place a corner a cell off, and a tilted grid's fills shear the outline.
    let finders: [(&dyn Fn() -> Option<Quad>, u8); 3] = [
        (&|| best_lined(&edges), 2),
        (
            &|| shading::locate_shaded(&work, &edges, &darker, &lighter),
            0,
        ),
        (&lattice, 1),
    ];
    // The first grid whose lines fit on the full picture: fills under a highlight place a
    // corner too far for any fit, where the digits' lattice places it near enough. Failing
    // that, the most trusted grid found, as found.
    let mut chosen: Option<(Quad, Quad)> = None;
    let mut unfitted: Option<(u8, Quad, Quad)> = None;
    for (find, trust) in finders {
        let Some(quad) = find() else { continue };
        let found = in_original(&quad, scale);
        if let Some(fitted) = fit::try_fit(image, &found, Start::Rough) {
            chosen = Some((quad, fitted));
            break;
        }
        if unfitted.as_ref().is_none_or(|(t, ..)| trust > *t) {
            unfitted = Some((trust, quad, found));
        }
    }
    let chosen = chosen.or(unfitted.map(|(_, quad, found)| (quad, found)));
    if let Some((quad, corners)) = chosen {
        return Ok(Located {
            quad: corners,
            dark: background_is_dark(&work, &quad),
            ink: edges,
            scale,
        });
    }
    Err(NotFound {
        reason,
        ink: ink_map(&work, dark, NEIGHBOURHOOD),
    })
}

/// The grid found by the first finder alone, the lines of the ink maps (see [`locate`]): what
/// a page's other grids, printed like its first, are looked for with. `None` when it finds
/// none; the finders that follow it cost a labelling each and find grids the first misses.
pub fn locate_lined(image: &RgbImage) -> Option<Located> {
    let w = Working::of(image);
    by_ink_maps(image, (&w.gray, w.scale), w.dark, w.own_first()).ok()
}

/// The working picture every finder starts from: the grey image at the working scale, its
/// polarity, and its two ink maps.
struct Working {
    gray: GrayImage,
    scale: f32,
    dark: bool,
    darker: GrayImage,
    lighter: GrayImage,
}

impl Working {
    fn of(image: &RgbImage) -> Working {
        let (gray, scale) = working_gray(image);
        let dark = is_dark(&gray);
        let [darker, lighter] = local_ink_maps(&gray, NEIGHBOURHOOD);
        Working {
            gray,
            scale,
            dark,
            darker,
            lighter,
        }
    }

    /// The ink maps, the picture's own polarity first (light ink first on a dark theme).
    fn own_first(&self) -> [&GrayImage; 2] {
        if self.dark {
            [&self.lighter, &self.darker]
        } else {
            [&self.darker, &self.lighter]
        }
    }
}

/// The best grid of the ink maps `[first, second]` (the picture's own polarity first, `dark`
/// whether that is a dark theme), its corners fitted on the full picture; else why none was
/// found, in the picture's own polarity, which explains it best.
fn by_ink_maps(
    image: &RgbImage,
    (work, scale): (&GrayImage, f32),
    dark: bool,
    [first, second]: [&GrayImage; 2],
) -> Result<Located, String> {
    let mut reason = String::new();
    for (ink, polarity) in [(first, dark), (second, !dark)] {
        match best_candidate(work, ink, polarity) {
            Ok(quad) => {
                return Ok(Located {
                    quad: fit::fit_corners(
                        image,
                        &in_original(&quad, scale),
                        Start::Lines {
                            least_move: MIN_CORRECTION,
                        },
                    ),
                    dark: polarity,
                    ink: ink.clone(),
                    scale,
                });
            }
            Err(why) if polarity == dark => reason = why,
            Err(_) => {}
        }
    }
    Err(reason)
}

/// The grid placed by the lattice its digits sit on alone (see `lattice`): for a grid whose
/// lines or fills placed it a column off, which shows as digits held off their cells'
/// centres. The placements to try, best first: its corners fitted to its lines on the full
/// picture where they fit, and as the lattice puts them when the fit moved them (a bold
/// face's stems a quarter cell from faint lines are the strongest edges near them, and the
/// fit may take them for the lines).
pub fn locate_by_digits(image: &RgbImage) -> Vec<Located> {
    let w = Working::of(image);
    let (work, scale, dark, own_first) = (&w.gray, w.scale, w.dark, w.own_first());
    let edges = edges::long_edges(work);
    let Some(quad) = digits_lattice(work, &edges, dark, own_first) else {
        return Vec::new();
    };
    let found = in_original(&quad, scale);
    let dark = background_is_dark(work, &quad);
    let mut placements: Vec<Quad> = fit::try_fit(image, &found, Start::Rough)
        .into_iter()
        .collect();
    if placements.first() != Some(&found) {
        placements.push(found);
    }
    placements
        .into_iter()
        .map(|quad| Located {
            quad,
            dark,
            ink: edges.clone(),
            scale,
        })
        .collect()
}

/// The grid the digits' lattice places on the working image `work` (`dark`: its polarity),
/// from the ink maps `inks` (the picture's own polarity first) and then its text alone.
fn digits_lattice(
    work: &GrayImage,
    edges: &GrayImage,
    dark: bool,
    inks: [&GrayImage; 2],
) -> Option<Quad> {
    // Faint lines that are ink at a low contrast join the digits to the grid; at a text's
    // contrast the digits stand alone.
    let [dark_text, light_text] = strong_ink_maps(work, NEIGHBOURHOOD, TEXT_CONTRAST);
    let text = if dark {
        [&light_text, &dark_text]
    } else {
        [&dark_text, &light_text]
    };
    lattice::locate_by_digits(edges, &[inks[0], inks[1], text[0], text[1]])
}

/// `quad`, found on the working image, in the original picture's pixels.
fn in_original(quad: &Quad, scale: f32) -> Quad {
    Quad {
        corners: quad
            .corners
            .map(|(x, y)| ((x + 0.5) * scale, (y + 0.5) * scale)),
    }
}

/// The best of the largest components of `ink` (ink of polarity `dark`) that passes the
/// grid test, or why none did.
fn best_candidate(work: &GrayImage, ink: &GrayImage, dark: bool) -> Result<Quad, String> {
    let components = components(ink);
    // Whether a candidate's rejection is worth telling: it is at least half the largest.
    let explain = |c: &Component| c.area() >= components[0].area() / 2;
    // The grid's own background decides which ink its lines are: in the other polarity a
    // card's edge, or the halo beside every line, makes a grid-like frame.
    let tested = grid_tests(&components, |quad, c| {
        (background_is_dark(work, quad) == dark).then(|| grid_test(ink, quad, explain(c), false))
    });
    let mut reason = String::from("no large connected shape in the picture");
    for (c, tested) in &tested {
        if let Some(Err(why)) = tested.as_ref().filter(|_| explain(c)) {
            reason = why.clone();
        }
    }
    // A grid on a card inside a frame passes as well as its frame: the candidate whose lines
    // sit best where a sudoku's lines should be is kept.
    highest_scored(tested).ok_or(reason)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A synthetic 9x9 grid: thin lines every `cell` px, thick every third, on white.
    fn grid_picture(cell: u32, margin: u32) -> RgbImage {
        let side = 9 * cell + 2 * margin;
        RgbImage::from_fn(side + 40, side, |x, y| {
            let on_line = |v: u32| -> bool {
                if v < margin || v > margin + 9 * cell + 2 {
                    return false;
                }
                let o = v - margin;
                let k = (o + 1) / cell;
                let thick = k.is_multiple_of(3);
                o % cell <= if thick { 2 } else { 0 } || (o + 1).is_multiple_of(cell)
            };
            let inside = |v: u32| v >= margin && v <= margin + 9 * cell + 2;
            if inside(x) && inside(y) && (on_line(x) || on_line(y)) {
                image::Rgb([30, 30, 30])
            } else {
                image::Rgb([250, 250, 250])
            }
        })
    }

    #[test]
    fn finds_a_plain_grid() {
        let img = grid_picture(40, 30);
        let found = locate(&img).expect("grid");
        let [tl, _, br, _] = found.quad.corners;
        assert!(
            (tl.0 - 30.0).abs() < 3.0 && (tl.1 - 30.0).abs() < 3.0,
            "{tl:?}"
        );
        assert!((br.0 - 392.0).abs() < 4.0, "{br:?}");
        assert!(!found.dark);
    }

    #[test]
    fn blank_picture_has_no_grid() {
        let img = RgbImage::from_pixel(300, 300, image::Rgb([255, 255, 255]));
        assert!(locate(&img).is_err());
    }

    #[test]
    fn a_plain_rectangle_is_not_a_grid() {
        let img = RgbImage::from_fn(300, 300, |x, y| {
            let edge = (40..=42).contains(&x)
                || (258..=260).contains(&x)
                || (40..=42).contains(&y)
                || (258..=260).contains(&y);
            let inside = (40..=260).contains(&x) && (40..=260).contains(&y);
            if edge && inside {
                image::Rgb([0, 0, 0])
            } else {
                image::Rgb([255, 255, 255])
            }
        });
        let err = locate(&img).err().expect("no grid");
        assert!(err.reason.contains("grid lines"), "{}", err.reason);
    }

    /// A grid drawn with imageproc: `lines` (colour) every `cell` px from `(x0, y0)`, box
    /// borders `thick` px, on a `grid` fill, with optional fills for the odd boxes.
    fn draw_grid(
        img: &mut RgbImage,
        (x0, y0): (i32, i32),
        cell: i32,
        grid: [u8; 3],
        lines: Option<[u8; 3]>,
        odd_boxes: Option<[u8; 3]>,
    ) {
        use imageproc::drawing::draw_filled_rect_mut;
        use imageproc::rect::Rect;
        let side = 9 * cell as u32;
        draw_filled_rect_mut(img, Rect::at(x0, y0).of_size(side, side), image::Rgb(grid));
        if let Some(fill) = odd_boxes {
            for b in (0..9).filter(|b| (b % 3 + b / 3) % 2 == 1) {
                let (bx, by) = (x0 + 3 * cell * (b % 3), y0 + 3 * cell * (b / 3));
                let r = Rect::at(bx, by).of_size(3 * cell as u32, 3 * cell as u32);
                draw_filled_rect_mut(img, r, image::Rgb(fill));
            }
        }
        if let Some(colour) = lines {
            for k in 0..10 {
                let width = if k % 3 == 0 { 3 } else { 1 };
                let p = k * cell - width as i32 / 2;
                draw_filled_rect_mut(
                    img,
                    Rect::at(x0 + p, y0).of_size(width, side),
                    image::Rgb(colour),
                );
                draw_filled_rect_mut(
                    img,
                    Rect::at(x0, y0 + p).of_size(side, width),
                    image::Rgb(colour),
                );
            }
        }
    }

    /// Asserts the located corners lie within `tolerance` px of the square at `(x0, y0)`.
    fn assert_corners(found: &Located, (x0, y0): (f32, f32), side: f32, tolerance: f32) {
        let expected = [
            (x0, y0),
            (x0 + side, y0),
            (x0 + side, y0 + side),
            (x0, y0 + side),
        ];
        for (c, e) in found.quad.corners.iter().zip(expected) {
            assert!(
                (c.0 - e.0).abs() <= tolerance && (c.1 - e.1).abs() <= tolerance,
                "corners {:?}, expected {expected:?}",
                found.quad.corners
            );
        }
    }

    /// Lines of 10 grey levels (#e6e6e6 on #f0f0f0; #2a2a2a on #202020): below the fixed
    /// contrast of 8 once a 1 px line is averaged with its neighbours, above the local one.
    #[test]
    fn finds_faint_lines_on_both_themes() {
        for (page, line) in [([240u8; 3], [230u8; 3]), ([32u8; 3], [42u8; 3])] {
            let mut img = RgbImage::from_pixel(1200, 1600, image::Rgb(page));
            draw_grid(&mut img, (150, 300), 100, page, Some(line), None);
            let found = locate(&img).expect("faint grid");
            assert_corners(&found, (150.0, 300.0), 900.0, 8.0);
        }
    }

    /// A light card holding the grid, on a dark noisy desktop: the card is the largest bright
    /// rectangle, the grid is what must be found.
    #[test]
    fn finds_the_grid_not_its_card_on_a_busy_desktop() {
        use imageproc::drawing::draw_filled_rect_mut;
        use imageproc::rect::Rect;
        let mut state = 7u32;
        let mut img = RgbImage::from_fn(1920, 1080, |x, y| {
            state = state.wrapping_mul(1_103_515_245).wrapping_add(12345);
            let n = ((state >> 16) % 24) as u8;
            // Blotches of colour, as on a photo wallpaper, with grain.
            let blotch = (((x / 90) * 7 + (y / 70) * 13) % 5) as u8 * 18;
            image::Rgb([20 + blotch + n, 60 + n, 90 - blotch / 2 + n])
        });
        draw_filled_rect_mut(
            &mut img,
            Rect::at(600, 90).of_size(700, 900),
            image::Rgb([250, 250, 250]),
        );
        draw_grid(&mut img, (680, 220), 60, [250; 3], Some([60, 70, 90]), None);
        let found = locate(&img).expect("grid on a card");
        assert_corners(&found, (680.0, 220.0), 540.0, 8.0);
    }

    /// Boxes told apart by fill alone, no lines at all: found by the chessboard of fills, and
    /// the corners fitted to the fills' edges on the full picture to a pixel.
    #[test]
    fn finds_a_grid_of_shaded_boxes() {
        for (page, fill) in [([255u8; 3], [236u8; 3]), ([43u8; 3], [64u8; 3])] {
            let mut img = RgbImage::from_pixel(1080, 1600, image::Rgb(page));
            draw_grid(&mut img, (90, 350), 100, page, None, Some(fill));
            let found = locate(&img).expect("shaded grid");
            assert_corners(&found, (90.0, 350.0), 900.0, 1.0);
        }
    }

    /// A faint grid beside paragraphs of text on a wide desktop capture: the 1 px lines are
    /// a quarter as strong once 4x4 blocks are averaged, and an ink map's halos join the
    /// text to the grid; the long edges keep the grid whole and apart.
    #[test]
    fn finds_a_faint_grid_beside_text_on_a_wide_capture() {
        use imageproc::drawing::draw_filled_rect_mut;
        use imageproc::rect::Rect;
        let mut img = RgbImage::from_pixel(2560, 1440, image::Rgb([255; 3]));
        // "Text": rows of short dark words just above and below the grid.
        for (row, y) in [(0, 150), (1, 185), (2, 1220), (3, 1255)] {
            for word in 0..30 {
                let x = 700 + word * 40 + (row * 7) % 13;
                draw_filled_rect_mut(
                    &mut img,
                    Rect::at(x, y).of_size(30, 18),
                    image::Rgb([40; 3]),
                );
            }
        }
        draw_grid(&mut img, (820, 260), 100, [255; 3], Some([225; 3]), None);
        let found = locate(&img).expect("faint grid");
        assert_corners(&found, (820.0, 260.0), 900.0, 2.0);
    }

    /// A light card on a dark page is not a grid in either polarity: solid in one, a plain
    /// frame in the other.
    #[test]
    fn a_card_alone_is_not_a_grid() {
        use imageproc::drawing::draw_filled_rect_mut;
        use imageproc::rect::Rect;
        let mut img = RgbImage::from_pixel(800, 800, image::Rgb([30, 30, 30]));
        draw_filled_rect_mut(
            &mut img,
            Rect::at(150, 150).of_size(500, 500),
            image::Rgb([250; 3]),
        );
        assert!(locate(&img).is_err());
    }
}
