//! The console examples of README.md and docs/*.md, run as written and compared with the
//! output they show, by trycmd (which reads Markdown's ```console blocks: a `$ ` line is a
//! command, the lines under it its stdout and stderr together, `? N` its exit status, `...`
//! and `[..]` elide). trycmd runs no shell and silently skips a command whose program it does
//! not know, while the examples use pipes and redirections as a reader types them; so each
//! command line is handed to `sh` (through `RUN_EXAMPLE`), with the binary under test first on
//! PATH, in a copy of the file whose line numbers are the original's. Each file runs in a
//! scratch folder of its own (trycmd's `NAME.in/` beside the copy) holding links to
//! `samples/` and `tests/` and the text files the examples read (`tests/data/docs/`), so no
//! example writes into the repository.

use std::fs;
use std::path::{Path, PathBuf};

/// The Markdown files whose console examples are run.
fn documents(root: &Path) -> Vec<PathBuf> {
    let mut docs: Vec<PathBuf> = fs::read_dir(root.join("docs"))
        .expect("docs/ is there")
        .map(|entry| entry.expect("a docs/ entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    docs.insert(0, root.join("README.md"));
    docs
}

/// `text` with every command line of its console blocks turned into `$ sh RUNNER '...'`, and
/// how many there were. Panics on what trycmd would read otherwise than a reader does: a fence
/// without an info string (trycmd takes it for a console block, rustdoc for Rust) or a `> `
/// continuation line.
fn as_shell_commands(text: &str, name: &str, runner: &str) -> (String, usize) {
    let mut out = String::with_capacity(text.len() + 1024);
    let mut fence: Option<(String, bool)> = None; // the fence's backticks, and whether it is console
    let mut commands = 0;
    for (number, line) in text.lines().enumerate() {
        let ticks = line.len() - line.trim_start_matches('`').len();
        let mut line = line.to_string();
        match &fence {
            None if ticks >= 3 => {
                let info = line[ticks..].trim();
                assert!(
                    !info.is_empty(),
                    "{name}:{}: a fence without a language",
                    number + 1
                );
                let lang = info.split(',').next().unwrap_or_default();
                let console = lang == "console" && !info.split(',').any(|i| i == "ignore");
                fence = Some((line[..ticks].to_string(), console));
            }
            Some((ticks, _)) if line.starts_with(ticks.as_str()) => fence = None,
            Some((_, true)) => {
                assert!(
                    !line.starts_with("> "),
                    "{name}:{}: write the command on one line",
                    number + 1
                );
                if let Some(command) = line.strip_prefix("$ ") {
                    line = format!("$ sh {runner} {}", quoted(command.trim()));
                    commands += 1;
                }
            }
            _ => {}
        }
        out.push_str(&line);
        out.push('\n');
    }
    (out, commands)
}

/// Run by `sh`: runs the one command line it is given as `sh` would, its stderr into its stdout, and prints
/// what it printed less the last newline: trycmd drops the newline that ends the expected
/// lines (so that an output without one can be written), and keeps the actual output's.
const RUN_EXAMPLE: &str = r#"#!/bin/sh
out=$( { eval "$1"; } 2>&1; s=$?; echo .; exit $s )
s=$?
out=${out%.}
out=${out%"
"}
printf '%s' "$out"
exit $s
"#;

/// `s` in single quotes for trycmd's shell-like splitting, a `'` inside written `'"'"'`.
fn quoted(s: &str) -> String {
    format!("'{}'", s.replace('\'', r#"'"'"'"#))
}

/// The scratch folder `dir` gets links to the repository's samples and test data, and copies
/// of the text files the examples read.
fn lay_out(dir: &Path, root: &Path) {
    fs::create_dir_all(dir).expect("a scratch folder");
    for linked in ["samples", "tests"] {
        std::os::unix::fs::symlink(root.join(linked), dir.join(linked)).expect("a link");
    }
    for entry in fs::read_dir(root.join("tests/data/docs")).expect("tests/data/docs") {
        let path = entry.expect("an entry").path();
        fs::copy(&path, dir.join(path.file_name().expect("a name"))).expect("a copy");
    }
}

#[test]
fn every_console_example_in_the_docs_runs_as_shown() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let scratch = tempfile::tempdir().expect("a scratch folder");
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_sudoku-snap"))
        .parent()
        .expect("the binary's folder");
    let path = std::env::join_paths(std::iter::once(bin_dir.to_path_buf()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .expect("a PATH");

    // Run by `sh` rather than executed itself: a file just written cannot be executed while
    // any other test's child process still holds it open from its fork.
    let runner = scratch.path().join("run-example.sh");
    fs::write(&runner, RUN_EXAMPLE).expect("the runner written");
    let runner = quoted(&runner.to_string_lossy());

    let cases = trycmd::TestCases::new();
    cases
        .register_bin("sh", Path::new("/bin/sh"))
        .env("PATH", path.to_string_lossy())
        .env("NO_COLOR", "1")
        .timeout(std::time::Duration::from_secs(120));
    let mut total = 0;
    for doc in documents(root) {
        let name = doc.strip_prefix(root).expect("inside the repository");
        let text = fs::read_to_string(&doc).expect("a readable document");
        let (copy, commands) = as_shell_commands(&text, &name.display().to_string(), &runner);
        let target = scratch.path().join(name);
        lay_out(&target.with_extension("in"), root);
        fs::write(&target, copy).expect("the copy written");
        eprintln!("{}: {commands} console commands", name.display());
        total += commands;
        cases.case(&target);
    }
    assert!(total > 0, "no console example found");
    cases.run();
}

#[test]
fn command_lines_survive_the_quoting() {
    let (copy, n) = as_shell_commands(
        "text\n```console\n$ echo 'a b' | tr a-z A-Z\nA B\n```\n```sh\n$ not run\n```\n",
        "t",
        "run.sh",
    );
    assert_eq!(n, 1);
    assert!(
        copy.contains(r#"$ sh run.sh 'echo '"'"'a b'"'"' | tr a-z A-Z'"#),
        "{copy}"
    );
    assert!(copy.contains("$ not run"));
}

/// GitHub's anchor for a Markdown heading: lower case, spaces to `-`, punctuation other than
/// `-` and `_` dropped.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a Markdown file's headings (outside code blocks).
fn anchors(text: &str) -> Vec<String> {
    let mut in_code = false;
    let mut found = Vec::new();
    for line in text.lines() {
        if line.starts_with("```") {
            in_code = !in_code;
        } else if !in_code && line.starts_with('#') {
            found.push(anchor(line.trim_start_matches('#')));
        }
    }
    found
}

#[test]
fn every_link_between_the_docs_leads_somewhere() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut broken = Vec::new();
    for doc in documents(root) {
        let text = fs::read_to_string(&doc).expect("a readable document");
        for (at, _) in text.match_indices("](") {
            let rest = &text[at + 2..];
            let Some(end) = rest.find(')') else { continue };
            let link = &rest[..end];
            if link.contains("://") || link.starts_with("mailto:") {
                continue;
            }
            let (file, fragment) = link.split_once('#').unwrap_or((link, ""));
            let target = if file.is_empty() {
                doc.clone()
            } else {
                doc.parent().expect("a folder").join(file)
            };
            let ok = target.exists()
                && (fragment.is_empty()
                    || target.extension().is_none_or(|e| e != "md")
                    || anchors(&fs::read_to_string(&target).unwrap_or_default())
                        .iter()
                        .any(|a| a == fragment));
            if !ok {
                broken.push(format!(
                    "{}: {link}",
                    doc.strip_prefix(root).unwrap().display()
                ));
            }
        }
    }
    assert!(
        broken.is_empty(),
        "links that lead nowhere:\n{}",
        broken.join("\n")
    );
}
