//! The pipeline's stages one at a time, for benches, examples, fuzz targets and programs
//! that want one stage on its own: decode -> [`locate`] -> [`rectify`] -> [`slice()`] ->
//! [`tell_authors`] -> read ([`Snap::read`](crate::Snap::read)) -> [`solve_reading`] -> [`draw_answer`] ->
//! [`encode`]. [`Snap`](crate::Snap) chains them; the types here are what passes between
//! them.

pub use crate::pipeline::authors::tell as tell_authors;
pub use crate::pipeline::cells::{slice, Author, Cells, Glyph};
pub use crate::pipeline::correct::{solve_read, solve_reading, Decision};
pub use crate::pipeline::decode::{decode_bytes, decode_bytes_within, decode_file, open_regular};
pub use crate::pipeline::decode::{Limits, MemoryBudget, Reservation};
pub use crate::pipeline::encode::encode;
pub use crate::pipeline::locate::{locate, Located};
pub use crate::pipeline::pencil::PencilMarks;
pub use crate::pipeline::picture::Picture;
pub use crate::pipeline::quad::Quad;
pub use crate::pipeline::recognize::{GlyphFeatures, Recognized, Rival, Templates};
pub use crate::pipeline::rectify::{rectify, Rectified, SIDE};
pub use crate::pipeline::render::draw_answer;
