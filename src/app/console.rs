//! Writing to stdout and stderr when their readers may go away.
//!
//! Results go to stdout through ordinary `io::Write` calls whose errors propagate with `?`;
//! when the reader of stdout has gone (`head`, a closed pager), the write fails with
//! `BrokenPipe` and [`stdout_gone`] lets `main` end the run quietly with exit 0, the way `rg`
//! and `fd` do. Messages go to stderr through [`err!`](crate::err), which never panics (unlike
//! `eprintln!`): a message that cannot be written is counted ([`messages_lost`]) and the work
//! goes on, since the pictures and results are still worth making; the exit code then says
//! that something was not reported.

use std::fmt;
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

static LOST: AtomicUsize = AtomicUsize::new(0);
static COLOUR: AtomicBool = AtomicBool::new(false);

/// Colours the tool's own messages from now on (`--color`): the `error:`, `warning:` and
/// `note:` that start a line, as cargo and rustc colour theirs.
pub fn set_colour(on: bool) {
    COLOUR.store(on, Ordering::Relaxed);
}

/// The styles of the words that start a message, in the colours cargo gives them.
const LABELS: [(&str, anstyle::Style); 3] = [
    ("error:", anstyle::AnsiColor::Red.on_default().bold()),
    ("warning:", anstyle::AnsiColor::Yellow.on_default().bold()),
    ("note:", anstyle::AnsiColor::Cyan.on_default().bold()),
];

/// Prints a line on stderr, like `eprintln!`, without panicking when stderr is closed.
#[macro_export]
macro_rules! err {
    ($($arg:tt)*) => {
        $crate::app::console::err_line(format_args!($($arg)*))
    };
}

/// Writes one line on stderr; a failure is counted for [`messages_lost`], never raised.
pub fn err_line(args: fmt::Arguments<'_>) {
    let mut stderr = io::stderr().lock();
    let written = if COLOUR.load(Ordering::Relaxed) {
        writeln!(stderr, "{}", coloured(&args.to_string()))
    } else {
        writeln!(stderr, "{args}")
    };
    if written.is_err() {
        LOST.fetch_add(1, Ordering::Relaxed);
    }
}

/// `line` with the label that starts it (`error:`, `warning:`, `note:`) in its colour.
fn coloured(line: &str) -> String {
    for (label, style) in LABELS {
        if let Some(rest) = line.strip_prefix(label) {
            return format!("{style}{label}{style:#}{rest}");
        }
    }
    line.to_string()
}

/// How many messages could not be written on stderr (its reader gone, say).
pub fn messages_lost() -> usize {
    LOST.load(Ordering::Relaxed)
}

/// Whether `error` comes from writing to a stdout whose reader has gone.
pub fn stdout_gone(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}

/// `error` and its causes joined by `: `, each said once. The library's messages already
/// carry their cause's words (a report's `error` is one sentence), so a cause whose words
/// are in the text so far is not repeated, as a plain `{:#}` would.
pub fn chain_text(error: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in error.chain() {
        let words = cause.to_string();
        if text.contains(&words) {
            continue;
        }
        if !text.is_empty() {
            text.push_str(": ");
        }
        text.push_str(&words);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_leading_label_is_coloured() {
        let red = "\u{1b}[1m\u{1b}[31merror:\u{1b}[0m bad.png: no grid";
        assert_eq!(coloured("error: bad.png: no grid"), red);
        assert!(coloured("note: x").starts_with("\u{1b}[1m\u{1b}[36mnote:"));
        assert_eq!(
            coloured("bad.png: corrected r1c1"),
            "bad.png: corrected r1c1"
        );
        assert_eq!(coloured("shot: error: x"), "shot: error: x");
    }
}
