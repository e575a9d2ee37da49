//! What a reading found about single cells, as the report and the errors list them: a digit
//! corrected, a cell left in doubt.

use serde::Serialize;

use crate::puzzle::board::{Digit, Pos};

/// One digit read as `read` but used as `used`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Correction {
    /// The cell, as `r3c5`.
    #[serde(serialize_with = "crate::puzzle::check::display")]
    pub cell: Pos,
    /// What recognition read.
    #[serde(serialize_with = "crate::puzzle::check::digit")]
    pub read: Digit,
    /// What the solver used.
    #[serde(serialize_with = "crate::puzzle::check::digit")]
    pub used: Digit,
}

/// A cell whose reading is in doubt, and what it could be instead.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Doubt {
    /// The cell, as `r3c5`.
    #[serde(serialize_with = "crate::puzzle::check::display")]
    pub cell: Pos,
    /// The digit read there; `None` when the cell was read as empty.
    #[serde(serialize_with = "serialize_digit_or_null")]
    pub read: Option<Digit>,
    /// The other digits the picture and the rules allow there, best first.
    #[serde(serialize_with = "serialize_digits")]
    pub could_be: Vec<Digit>,
}

impl std::fmt::Display for Doubt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let others: Vec<String> = self.could_be.iter().map(|d| d.to_string()).collect();
        match self.read {
            Some(read) => write!(
                f,
                "{}: read {read}, could be {}",
                self.cell,
                others.join(" or ")
            ),
            None => write!(f, "{}: could be {}", self.cell, others.join(" or ")),
        }
    }
}

fn serialize_digit_or_null<S: serde::Serializer>(
    d: &Option<Digit>,
    s: S,
) -> Result<S::Ok, S::Error> {
    match d {
        Some(d) => s.serialize_u8(d.get()),
        None => s.serialize_none(),
    }
}

fn serialize_digits<S: serde::Serializer>(ds: &[Digit], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(ds.iter().map(|d| d.get()))
}
