//! The reading's margins on the template-score scale, as one ladder. A score is a cosine: a
//! glyph's with a template, or with another glyph (1 = the same shape). Every decision that
//! weighs one reading against another compares the difference of their scores with a rung
//! of this ladder; the named thresholds in the stages say which rung they stand on and why,
//! and the measurements that set each rung are in BENCHMARKS.md.

/// Two scores this close are a tie: neither is evidence against the other.
pub(crate) const TIE: f32 = 0.02;
/// A reading this close to the best is one the picture supports nearly as well: a rival.
pub(crate) const NEAR: f32 = 0.05;
/// A runner-up this close to the best is a close call: the glyph supports it too.
pub(crate) const CLOSE: f32 = 0.08;
/// A lead this large is clear: the reading leading by it is sure.
pub(crate) const CLEAR: f32 = 0.1;
/// The most a reading may lose per glyph changed and still be taken as a repair.
pub(crate) const STRETCH: f32 = 0.15;
/// A reading losing more than this per glyph reads another shape: never a correction.
pub(crate) const FAR: f32 = 0.25;
