//! Screenshot in, picture out: one module per stage, in the order the data flows.
//!
//! [`decode`] -> [`locate`] -> [`rectify`] -> [`cells`] -> [`recognize`] -> [`correct`] ->
//! [`render`] (or [`annotate`] for a game in progress) -> [`encode`]; [`debug`] draws the
//! intermediate pictures. What two stages share (the grid's quadrilateral and its projection,
//! grey levels and their histograms) lives in modules of its own that both import, so no
//! stage reaches into another. Only the crate root chains the stages.

pub mod annotate;
pub mod cells;
pub mod correct;
pub mod debug;
pub mod decode;
pub mod encode;
pub mod gray;
pub mod locate;
pub mod quad;
pub mod recognize;
pub mod rectify;
pub mod render;
