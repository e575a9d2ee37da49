//! Output choices decided once per run: the text layout (TTY-dependent default).

use std::io::IsTerminal;

use crate::cli::Format;

/// The layout to print: the user's choice, else pretty on a terminal and line when piped.
pub fn resolve_format(choice: Option<Format>) -> Format {
    choice.unwrap_or_else(|| {
        if std::io::stdout().is_terminal() {
            Format::Pretty
        } else {
            Format::Line
        }
    })
}
