//! The reading's margins on the template-score scale, as one ladder. A score is a cosine: a
//! glyph's with a template, or with another glyph (1 = the same shape). Every decision that
//! weighs one reading against another compares the difference of their scores with a rung
//! of this ladder. Each rung lists where it is used and the measurement that set it there
//! (with the name the threshold had before the ladder, as BENCHMARKS.md knows it).

/// Two scores this close are a tie: neither is evidence against the other.
///
/// Where it is used, and what set it:
/// - `recognize/calibrate.rs` (`PICKED_MARGIN` before): The margin given to the digit the joint
///   assignment picked over the best other digit of its group, so the ranking puts it first.
/// - `correct/mod.rs` (`TEMPLATES_DIFFER` before): A glyph with a twin may be corrected alone to
///   the digit the templates alone rank first when they rank it this far above the digit read: a
///   tie is no evidence against the calibration (0.05 against 0.02 on tune seeds 1-12: 6 fewer
///   grids exact, no wrong answer more or less; photos 2 fewer).
pub(crate) const TIE: f32 = 0.02;
/// A reading this close to the best is one the picture supports nearly as well: a rival.
///
/// Where it is used, and what set it:
/// - `recognize/calibrate.rs` (`ENTRY_MARGIN` before): An entry is read like the givens of one
///   digit only when it is this much more alike them than the givens of any other digit.
/// - `recognize/calibrate.rs` (`LOOKS_MARGIN` before): A glyph looks more like another digit's
///   glyphs when the nearest of them is this much more alike it than the nearest glyph of its own
///   digit.
/// - `recognize/calibrate.rs` (`RIVAL_LOSS` before): A different assignment losing at most this
///   much score per group it changes is a reading the picture supports nearly as well: a rival.
/// - `correct/mod.rs` (`SEVERAL_MAX_LOSS` before): When the givens as read have several solutions,
///   a correction may lose at most this much template score per digit changed.
pub(crate) const NEAR: f32 = 0.05;
/// A runner-up this close to the best is a close call: the glyph supports it too.
///
/// Where it is used, and what set it:
/// - `correct/doubt.rs` (`CLOSE_SCORE` before): A runner-up scoring within this of the best digit
///   is a reading the glyph supports too.
/// - `correct/entries.rs` (`ENTRY_CLOSE_CALL` before): How close (in score) the solution's digit
///   must come to the digit read at an entry for the entry to be read as the solution's (see
///   `settle_entries`).
pub(crate) const CLOSE: f32 = 0.08;
/// A lead this large is clear: the reading leading by it is sure.
///
/// Where it is used, and what set it:
/// - `recognize/calibrate.rs` (`LOOP_CLOSE` before): How close a runner-up that may close a loop
///   must score to a best digit that never does, for a glyph's closed loop to give it the reading
///   (see `topology::demote_loopless_best`).
/// - `recognize/calibrate.rs` (`NEARER_OWN` before): A glyph whose nearest look-alike read as its
///   own digit is this much more alike it than the nearest glyph read as another digit is not that
///   other digit alone.
/// - `recognize/calibrate.rs` (`OTHER_SHAPE_PENALTY` before): How much a digit's score drops for a
///   group clearly unlike the group holding that digit.
/// - `recognize/calibrate.rs` (`SURE` before): A reading is sure when its digit beats the next by
///   this much.
/// - `recognize/orient.rs` (`TURN_MARGIN` before): How much better a turned grid's glyphs must fit
///   the templates (median of each glyph's best score) than the grid as it stands: digits turned
///   the wrong way still match some template a little (a `1` on its side is a stroke like any), so
///   a turn needs a clear lead.
pub(crate) const CLEAR: f32 = 0.1;
/// The most a reading may lose per glyph changed and still be taken as a repair.
///
/// Where it is used, and what set it:
/// - `correct/loops.rs` (`EXCHANGE_LOSS` before): The most score an exchange of two digits may lose
///   per glyph renamed for the loops to choose it. Measured on round-2 tune pictures: a handwriting
///   face's open `4`s and closed `9`s read into each other lose 0.004-0.11; a small JPEG serif
///   whose `8`s lose their upper counter and whose `6`s close theirs, 0.24.
/// - `correct/mod.rs` (`GROUP_CORRECTION_LOSS` before): A whole group takes another digit as a
///   correction only when that loses at most this much template score per group renamed; readings
///   losing up to `FAR` still make doubts (0.25 drew a wrong answer on a second rendering of the
///   tuning set: a group of 3s relabelled 2 and one of 9s relabelled 3).
/// - `correct/doubt.rs` (`PAIR_SCORE` before): After a correction, how close to its best score a
///   runner-up must come for `rival_pairs` to read it. Set from the two round-3 tune pictures it
///   was made for (a handwriting face's open-looped 8s, runner-ups 0.11 and about 0.13 behind; at
///   0.12 one of the two still drew a wrong answer). On the tune sets (ten renderings, round 3
///   seeds 1-8, round 4 seeds 1-4: 10,215 answers drawn) it refuses those two and one more wrong
///   answer, and no right one.
/// - `recognize/calibrate.rs` (`UNLIKE_GAP` before): A glyph much less like the glyphs surely read
///   as a digit than those are like each other is not that digit either, however alike blur makes
///   all of a photo's glyphs.
pub(crate) const STRETCH: f32 = 0.15;
/// A reading losing more than this per glyph reads another shape: never a correction.
///
/// Where it is used, and what set it:
/// - `recognize/calibrate.rs` (`ALTERNATIVE_LOSS` before): Reassignments losing up to this much
///   score per group changed are kept as alternatives: readings the correction may try when the one
///   chosen has no unique solution (the same bound as a correction of a single cell).
/// - `correct/mod.rs` (`MAX_LOSS` before): A correction never uses a digit scoring more than this
///   below the one read: the glyph looks like another shape, and a change the rules happen to
///   accept is a guess, not a repair (measured on the photos: corrections losing 0.25-0.32 made two
///   wrong answers).
/// - `correct/writer.rs`: A player's entry is a mistake only when the digit read leads the
///   solution's by this much both by the templates and by the writer's own glyphs (cosine).
///   Measured on the games-pen tune part, whose entries are all right: of 399 entries the
///   templates misread, 12 lead so by both, against 114 by the writer's glyphs at `CLEAR`.
pub(crate) const FAR: f32 = 0.25;
