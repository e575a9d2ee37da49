//! The font bundled in the binary, DejaVu Sans (Bitstream Vera licence, see `assets/fonts/`):
//! answers drawn on screenshots, marks on a game in progress, and printable puzzles.

use ab_glyph::FontRef;

static DEJAVU_SANS: &[u8] = include_bytes!("../assets/fonts/DejaVuSans.ttf");

/// The bundled font, parsed (cheap: parsing reads only the font's table directory).
pub(crate) fn font() -> FontRef<'static> {
    FontRef::try_from_slice(DEJAVU_SANS).expect("the bundled font is valid")
}
