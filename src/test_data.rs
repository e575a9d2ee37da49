//! The unit tests' access to the puzzle sets in `../shared/data/puzzles`, with the rule the
//! integration tests follow (`tests/it/util.rs`): a set that is missing fails the test under
//! CI and is a skip, said on stderr, anywhere else. No test passes silently.

use std::path::Path;

/// Whether this run is CI's (`CI` set to anything but empty, `0` or `false`).
fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !matches!(v.trim(), "" | "0" | "false"))
}

/// The text of `../shared/data/puzzles/NAME`; `None` (with a note on stderr) when it is
/// missing outside CI.
pub(crate) fn shared_puzzles(name: &str) -> Option<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/data/puzzles")
        .join(name);
    match std::fs::read_to_string(&path) {
        Ok(text) => Some(text),
        Err(e) => {
            assert!(
                !in_ci(),
                "{}: {e}; CI needs ../shared beside the repository",
                path.display()
            );
            let test = std::thread::current()
                .name()
                .unwrap_or("a test")
                .to_string();
            eprintln!("skipped: {test}: {} not readable ({e})", path.display());
            None
        }
    }
}
