//! Stdin, read once, with its first bytes looked at before anything consumes it: a picture
//! on stdin is told from a list of paths by its magic bytes however the writer splits its
//! writes (a pipe may hand over the first bytes in pieces, and one peek at the buffer would
//! see only the first piece).

use std::io::{self, BufRead, IsTerminal, Read};
use std::sync::OnceLock;

/// Bytes enough for every signature a picture is recognised by (WebP's needs 12).
const HEAD: u64 = 12;

static HEAD_BYTES: OnceLock<Vec<u8>> = OnceLock::new();

/// The first bytes of stdin: `HEAD` of them, or fewer when the input ends sooner. Read once
/// (later calls return the same bytes); empty for a terminal, which is never waited on.
pub fn head() -> &'static [u8] {
    HEAD_BYTES.get_or_init(|| {
        let stdin = io::stdin();
        if stdin.is_terminal() {
            return Vec::new();
        }
        let mut head = Vec::new();
        // A read error here shows again, with its context, when the rest is read.
        let _ = stdin.lock().take(HEAD).read_to_end(&mut head);
        head
    })
}

/// Says on stderr what the tool waits for when stdin is a terminal (`what`: "puzzles", say),
/// and how to end it: a tool that reads a terminal without a word looks hung.
pub fn note_if_terminal(what: &str) {
    if io::stdin().is_terminal() {
        crate::err!("note: reading {what} from the terminal, one per line; Ctrl-D ends the input");
    }
}

/// All of stdin from its first byte: the bytes [`head`] took, then the rest.
pub fn reader() -> impl BufRead {
    io::Cursor::new(head()).chain(io::stdin().lock())
}
