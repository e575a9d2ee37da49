//! Writing to stdout and stderr when their readers may go away.
//!
//! Results go to stdout through ordinary `io::Write` calls whose errors propagate with `?`;
//! when the reader of stdout has gone (`head`, a closed pager), the write fails with
//! `BrokenPipe` and [`stdout_gone`] lets `main` end the run quietly with exit 0, the way `rg`
//! and `fd` do. Messages go to stderr through [`err!`](crate::err), which never panics (unlike
//! `crate::err!`): a failed write is remembered, and the commands stop starting new work once
//! [`stderr_closed`] says nobody is listening.

use std::fmt;
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};

static STDERR_CLOSED: AtomicBool = AtomicBool::new(false);

/// Prints a line on stderr, like `crate::err!`, without panicking when stderr is closed.
#[macro_export]
macro_rules! err {
    ($($arg:tt)*) => {
        $crate::app::console::err_line(format_args!($($arg)*))
    };
}

/// Writes one line on stderr; a failure is remembered for [`stderr_closed`], never raised.
pub fn err_line(args: fmt::Arguments<'_>) {
    let mut stderr = io::stderr().lock();
    if writeln!(stderr, "{args}").is_err() {
        STDERR_CLOSED.store(true, Ordering::Relaxed);
    }
}

/// Whether a write to stderr has failed: its reader is gone, so the run should wind down.
pub fn stderr_closed() -> bool {
    STDERR_CLOSED.load(Ordering::Relaxed)
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
