//! The picture that travels from decode to encode: its colours as a viewer shows them over
//! white (what every stage reads and draws on), and for a picture with transparent parts its
//! alpha plane, kept so that the written picture is transparent where the input was. Drawing
//! goes through [`Canvas`], which keeps the two in step: a pixel the answer or a mark was
//! drawn on is made opaque enough to be seen over any background.

use image::{DynamicImage, GrayImage, Luma, Rgb, RgbImage, Rgba, RgbaImage};

/// A decoded picture: colours laid over white, and the alpha plane when the picture has
/// transparent parts (one byte a pixel).
///
/// Reading uses the colours alone, so a transparent screenshot reads as a viewer shows it,
/// not as its hidden colour (often black). The alpha plane is kept only when some pixel is
/// less than opaque: an alpha channel that is 255 everywhere tells nothing and is dropped,
/// so such a picture is written exactly like one without it.
///
/// # Examples
///
/// ```
/// use sudoku_snap::image::{DynamicImage, Rgba, RgbaImage};
/// use sudoku_snap::stages::Picture;
/// // Black at half coverage: read as mid-grey, written back as black at half coverage.
/// let rgba = RgbaImage::from_pixel(2, 1, Rgba([0, 0, 0, 128]));
/// let picture = Picture::from(DynamicImage::ImageRgba8(rgba.clone()));
/// assert_eq!(picture.rgb().get_pixel(0, 0).0, [127, 127, 127]);
/// assert_eq!(picture.alpha().unwrap().get_pixel(0, 0).0, [128]);
/// assert_eq!(picture.into_image().into_rgba8(), rgba);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Picture {
    rgb: RgbImage,
    /// Same size as `rgb`. Invariant: every pixel's colour can be shown over white at its
    /// alpha (`alpha >= 255 - darkest channel`), so [`under_white`] finds its true colour.
    alpha: Option<GrayImage>,
}

impl Picture {
    /// Colours laid over white and an alpha plane of the same size, as decode makes them;
    /// the plane is dropped when it holds nothing transparent (or, which decode never
    /// makes, when its size differs).
    pub(crate) fn from_parts(rgb: RgbImage, alpha: Option<GrayImage>) -> Picture {
        let alpha = alpha
            .filter(|a| a.dimensions() == rgb.dimensions() && a.as_raw().iter().any(|&v| v < 255));
        Picture { rgb, alpha }
    }

    /// The colours and the alpha plane, apart.
    pub(crate) fn into_parts(self) -> (RgbImage, Option<GrayImage>) {
        (self.rgb, self.alpha)
    }

    /// The colours as a viewer shows them over white: what is read, and what a format
    /// without transparency (JPEG, BMP) gets.
    pub fn rgb(&self) -> &RgbImage {
        &self.rgb
    }

    /// The alpha plane (255 opaque), `None` for an opaque picture.
    pub fn alpha(&self) -> Option<&GrayImage> {
        self.alpha.as_ref()
    }

    /// Width and height in pixels.
    pub fn dimensions(&self) -> (u32, u32) {
        self.rgb.dimensions()
    }

    /// The picture `rows` taller: opaque rows of `colour` added below it (a strip to write on
    /// that hides nothing of the picture).
    pub(crate) fn extend_below(&mut self, rows: u32, colour: [u8; 3]) {
        let (w, h) = self.rgb.dimensions();
        let grown = |raw: Vec<u8>, pixel: &[u8]| {
            let mut raw = raw;
            // Vec growth reallocates in place where it can (a large block is remapped), so the
            // picture is not held twice.
            raw.reserve_exact(pixel.len() * (w * rows) as usize);
            (0..w * rows).for_each(|_| raw.extend_from_slice(pixel));
            raw
        };
        let rgb = std::mem::take(&mut self.rgb).into_raw();
        self.rgb = RgbImage::from_raw(w, h + rows, grown(rgb, &colour)).expect("sized to fit");
        if let Some(alpha) = self.alpha.take() {
            let alpha = grown(alpha.into_raw(), &[255]);
            self.alpha = Some(GrayImage::from_raw(w, h + rows, alpha).expect("sized to fit"));
        }
    }

    /// The colours over white, the alpha plane dropped.
    pub fn into_rgb(self) -> RgbImage {
        self.rgb
    }

    /// The picture with its transparency, `None` for an opaque one: each pixel's own colour
    /// (the white it was shown over taken out again) and its alpha. A fully transparent
    /// pixel's colour is lost in reading; it is written white, so a viewer that ignores
    /// alpha shows what was read.
    pub fn to_rgba(&self) -> Option<RgbaImage> {
        let alpha = self.alpha.as_ref()?;
        Some(RgbaImage::from_fn(
            self.rgb.width(),
            self.rgb.height(),
            |x, y| {
                let [r, g, b] = self.rgb.get_pixel(x, y).0;
                let a = alpha.get_pixel(x, y).0[0];
                Rgba([under_white(r, a), under_white(g, a), under_white(b, a), a])
            },
        ))
    }

    /// The picture as the `image` crate holds it: RGB for an opaque picture, RGBA (see
    /// [`Picture::to_rgba`]) for one with transparent parts.
    pub fn into_image(self) -> DynamicImage {
        match self.to_rgba() {
            Some(rgba) => DynamicImage::ImageRgba8(rgba),
            None => DynamicImage::ImageRgb8(self.rgb),
        }
    }
}

/// An opaque picture.
impl From<RgbImage> for Picture {
    fn from(rgb: RgbImage) -> Picture {
        Picture { rgb, alpha: None }
    }
}

/// Any picture of the `image` crate: one with an alpha channel is laid over white and its
/// alpha kept (when some pixel is less than opaque).
impl From<DynamicImage> for Picture {
    fn from(image: DynamicImage) -> Picture {
        if image.color().has_alpha() {
            split(&image.into_rgba8())
        } else {
            Picture::from(image.into_rgb8())
        }
    }
}

/// As from an owned picture, copying what it needs.
impl From<&DynamicImage> for Picture {
    fn from(image: &DynamicImage) -> Picture {
        match image.as_rgba8() {
            Some(rgba) => split(rgba),
            None if image.color().has_alpha() => split(&image.to_rgba8()),
            None => Picture::from(image.to_rgb8()),
        }
    }
}

/// An RGBA picture as colours over white and its alpha.
fn split(rgba: &RgbaImage) -> Picture {
    let (w, h) = rgba.dimensions();
    let rgb = RgbImage::from_fn(w, h, |x, y| {
        let [r, g, b, a] = rgba.get_pixel(x, y).0;
        Rgb([r, g, b].map(|v| over_white(v, a)))
    });
    let alpha = GrayImage::from_fn(w, h, |x, y| Luma([rgba.get_pixel(x, y).0[3]]));
    Picture::from_parts(rgb, Some(alpha))
}

/// A sample of coverage `alpha` laid over white, as a viewer shows it: a transparent
/// picture's hidden colour (often black) must not become the grid's background.
pub(crate) fn over_white(value: u8, alpha: u8) -> u8 {
    let (v, a) = (u32::from(value), u32::from(alpha));
    ((v * a + 255 * (255 - a) + 127) / 255) as u8
}

/// The sample that, at coverage `alpha`, [`over_white`] shows as `seen`: the white taken out
/// again. Exact for every `seen >= 255 - alpha` (the colours [`over_white`] makes); a fully
/// transparent pixel, whose colour is lost, is white.
fn under_white(seen: u8, alpha: u8) -> u8 {
    if alpha == 0 {
        return 255;
    }
    // seen = (v * a + 255 * (255 - a)) / 255, so v = 255 * (seen - (255 - a)) / a.
    let (s, a) = (u32::from(seen), u32::from(alpha));
    ((255 * (s + a).saturating_sub(255) + a / 2) / a).min(255) as u8
}

/// Any channel of a drawn pixel that moved this far (in levels of 255) from what was there
/// makes the pixel opaque. Every ink we draw stands out from a page by more than this in
/// some channel (the blue answer from white by 227 levels in red, the orange and the alarm
/// red by 235), so a stroke's interior becomes opaque; an anti-aliased edge pixel, moved by
/// its coverage times that, gets about its coverage as alpha (1.2 times it for the blue).
const OPAQUE_CHANGE: u32 = 192;

/// The alpha of a pixel after drawing turned its colour (over white) from `before` to
/// `after`, where it was `alpha`.
///
/// Drawing never makes a pixel more transparent, and it must show what was drawn over any
/// background, not only over the white it was drawn on: a pixel is made as opaque as its
/// change (see [`OPAQUE_CHANGE`]), so an answer digit drawn on a transparent page is solid
/// ink on a dark viewer too, while its edges stay anti-aliased instead of carrying a rim of
/// the white they were blended with. It is also at least as opaque as `after` needs to be
/// shown over white at all (a colour darker than white by `d` needs alpha `d`), so the
/// picture over white is exactly what was drawn: what a viewer on white shows, and what is
/// read back, is what an opaque picture would have got.
///
/// Drawing cannot tell ink from a pixel cleared back to the page's colour (pencil marks
/// under an answer, whatever lies under the plate of a hint's words), so a cleared pixel is
/// made opaque too: on a transparent page it shows the page's colour, not what is behind.
fn drawn_alpha(before: [u8; 3], after: [u8; 3], alpha: u8) -> u8 {
    let change = (0..3)
        .map(|c| u32::from(before[c].abs_diff(after[c])))
        .max()
        .unwrap_or(0);
    let visible = (change * 255 / OPAQUE_CHANGE).min(255) as u8;
    let showable = 255 - after.into_iter().min().unwrap_or(255);
    alpha.max(visible).max(showable)
}

/// What the answer and the marks are drawn on: a picture's colours over white, changed one
/// pixel at a time. A plain [`RgbImage`] is one; a [`Picture`] also updates its alpha.
pub trait Canvas {
    /// The colours over white, as drawn so far.
    fn rgb(&self) -> &RgbImage;
    /// Sets pixel (x, y), inside the picture, to `rgb` as seen over white.
    fn set(&mut self, x: u32, y: u32, rgb: [u8; 3]);
}

impl Canvas for RgbImage {
    fn rgb(&self) -> &RgbImage {
        self
    }

    fn set(&mut self, x: u32, y: u32, rgb: [u8; 3]) {
        self.put_pixel(x, y, Rgb(rgb));
    }
}

impl Canvas for Picture {
    fn rgb(&self) -> &RgbImage {
        &self.rgb
    }

    fn set(&mut self, x: u32, y: u32, rgb: [u8; 3]) {
        if let Some(alpha) = &mut self.alpha {
            let before = self.rgb.get_pixel(x, y).0;
            let a = &mut alpha.get_pixel_mut(x, y).0[0];
            *a = drawn_alpha(before, rgb, *a);
        }
        self.rgb.put_pixel(x, y, Rgb(rgb));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_strip_below_is_opaque_and_keeps_the_picture_above_it() {
        let rgba = RgbaImage::from_fn(3, 2, |x, y| Rgba([10 * x as u8, 20 * y as u8, 30, 100]));
        let mut picture = Picture::from(DynamicImage::ImageRgba8(rgba.clone()));
        let before = picture.clone();
        picture.extend_below(4, [250, 240, 230]);
        assert_eq!(picture.dimensions(), (3, 6));
        let alpha = picture.alpha().unwrap();
        for (x, y, p) in picture.rgb().enumerate_pixels() {
            if y < 2 {
                assert_eq!(p, before.rgb().get_pixel(x, y));
                assert_eq!(alpha.get_pixel(x, y).0, [100]);
            } else {
                assert_eq!(p.0, [250, 240, 230]);
                assert_eq!(alpha.get_pixel(x, y).0, [255]);
            }
        }
        let mut opaque = Picture::from(RgbImage::new(2, 2));
        opaque.extend_below(1, [1, 2, 3]);
        assert_eq!(opaque.rgb().get_pixel(1, 2).0, [1, 2, 3]);
        assert!(opaque.alpha().is_none());
    }

    #[test]
    fn the_white_comes_out_exactly_as_it_went_in() {
        for a in 0..=255u8 {
            for v in 0..=255u8 {
                let seen = over_white(v, a);
                // What over_white makes can be shown over white at its alpha.
                assert!(seen >= 255 - a, "{v} at {a}");
                assert_eq!(over_white(under_white(seen, a), a), seen, "{v} at {a}");
            }
        }
        assert_eq!(under_white(255, 0), 255);
        assert_eq!(under_white(77, 255), 77);
    }

    #[test]
    fn an_opaque_alpha_channel_is_dropped() {
        let rgba = RgbaImage::from_pixel(3, 2, Rgba([10, 20, 30, 255]));
        let picture = Picture::from(DynamicImage::ImageRgba8(rgba));
        assert_eq!(picture.alpha(), None);
        assert_eq!(picture.rgb().get_pixel(2, 1).0, [10, 20, 30]);
        assert!(matches!(picture.into_image(), DynamicImage::ImageRgb8(_)));
    }

    #[test]
    fn a_picture_goes_back_to_the_image_it_came_from() {
        let rgba = RgbaImage::from_fn(16, 16, |x, y| {
            let a = (x * 17) as u8;
            // The colour of a transparent pixel is lost: white comes back.
            let v = if a == 0 { 255 } else { (y * 16) as u8 };
            Rgba([v, 255 - v, v / 2, a])
        });
        let picture = Picture::from(DynamicImage::ImageRgba8(rgba.clone()));
        let back = picture.clone().into_image();
        // Colours at low alpha come back within what the alpha can tell apart.
        for (x, y, p) in back.to_rgba8().enumerate_pixels() {
            let q = rgba.get_pixel(x, y);
            assert_eq!(p[3], q[3]);
            let step = 255 / u32::from(q[3]).max(1);
            for c in 0..3 {
                assert!(
                    u32::from(p[c].abs_diff(q[c])) <= step,
                    "({x}, {y}): {p:?} {q:?}"
                );
            }
        }
        assert_eq!(Picture::from(back), picture);
    }

    #[test]
    fn drawing_on_a_transparent_pixel_makes_it_as_opaque_as_the_ink_is_strong() {
        let blue = [28, 92, 210];
        let mut picture = Picture::from(DynamicImage::ImageRgba8(RgbaImage::from_fn(
            4,
            1,
            |x, _| Rgba([0, 0, 0, if x == 3 { 200 } else { 0 }]),
        )));
        let white = [255; 3];
        picture.set(0, 0, blue);
        // Quarter coverage: blue blended over white, as render blends it.
        let edge = std::array::from_fn(|c| ((3 * 255 + u32::from(blue[c])) / 4) as u8);
        picture.set(1, 0, edge);
        picture.set(2, 0, white);
        let under = picture.rgb().get_pixel(3, 0).0;
        picture.set(3, 0, under);
        let alpha = |x| picture.alpha().unwrap().get_pixel(x, 0).0[0];
        assert_eq!(alpha(0), 255, "a stroke's interior is opaque");
        assert!(
            (64..=90).contains(&alpha(1)),
            "an edge gets about its coverage"
        );
        assert_eq!(alpha(2), 0, "set to what it was: unchanged");
        assert_eq!(alpha(3), 200, "never more transparent");
        // Over white the picture is what was drawn.
        let rgba = picture.to_rgba().unwrap();
        for (x, want) in [(0, blue), (1, edge), (2, white)] {
            let p = rgba.get_pixel(x, 0).0;
            let seen: [u8; 3] = std::array::from_fn(|c| over_white(p[c], p[3]));
            assert_eq!(seen, want, "pixel {x}");
        }
    }

    #[test]
    fn drawing_on_an_opaque_picture_only_sets_colours() {
        let mut rgb = RgbImage::from_pixel(2, 2, Rgb([200, 200, 200]));
        let mut picture = Picture::from(rgb.clone());
        picture.set(1, 1, [1, 2, 3]);
        rgb.set(1, 1, [1, 2, 3]);
        assert_eq!(picture.alpha(), None);
        assert_eq!(picture.into_rgb(), rgb);
    }
}
