//! Things about the tool rather than puzzles: shell completions and the manual page, both
//! generated from the one clap definition so they never drift from the real arguments; and
//! the usage shown when no argument is given.

use std::io::{self, Write};

use clap::CommandFactory;
use clap_mangen::roff::{bold, roman, Roff};

use super::Outcome;
use crate::cli::{Cli, EXAMPLES};

/// `sudoku-snap completions SHELL`: the completion script on stdout.
pub fn completions(shell: clap_complete::Shell) -> anyhow::Result<Outcome> {
    let mut cmd = Cli::command();
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut cmd, "sudoku-snap", &mut out);
    write_stdout(&out)
}

/// `sudoku-snap man`: the manual page (roff) on stdout, one page for the whole tool: its
/// synopsis, description and options, then each subcommand's synopsis and options under a
/// heading of its own (no separate pages, so the page names none), the examples as `--help`
/// shows them, and the exit status.
pub fn man() -> anyhow::Result<Outcome> {
    let cmd = Cli::command();
    let page = clap_mangen::Man::new(cmd.clone());
    let mut out = Vec::new();
    page.render_title(&mut out)?;
    page.render_name_section(&mut out)?;
    page.render_synopsis_section(&mut out)?;
    page.render_description_section(&mut out)?;
    page.render_options_section(&mut out)?;
    for sub in cmd.get_subcommands() {
        let page = clap_mangen::Man::new(
            sub.clone()
                .bin_name(format!("sudoku-snap {}", sub.get_name())),
        );
        writeln!(out, ".SH \"SUDOKU-SNAP {}\"", sub.get_name().to_uppercase())?;
        if let Some(about) = sub.get_about() {
            writeln!(out, "{about}")?;
        }
        page.render_synopsis_section(&mut out)?;
        page.render_options_section(&mut out)?;
    }
    examples_and_exit_status().to_writer(&mut out)?;
    page.render_version_section(&mut out)?;
    write_stdout(&out)
}

/// The manual's EXAMPLES (`--help`'s, line for line, unfilled so the columns stay) and EXIT
/// STATUS sections.
fn examples_and_exit_status() -> Roff {
    let mut roff = Roff::new();
    roff.control("SH", ["EXAMPLES"]).control("nf", []);
    for line in EXAMPLES.lines().skip_while(|l| !l.starts_with(' ')) {
        roff.text([roman(line.strip_prefix("  ").unwrap_or(line))]);
    }
    roff.control("fi", []).control("SH", ["EXIT STATUS"]);
    let codes = [
        ("0", "Every input was solved (or skipped, its output already there) and, with --check, its game holds no mistake; for text puzzles, each has exactly one solution."),
        ("1", "Some input failed (no grid found, unreadable, a doubtful reading, no or several solutions), --check found a mistake, the run was interrupted, or its results could not all be written."),
        ("2", "A usage error, found before any work was done."),
    ];
    for (code, meaning) in codes {
        roff.control("TP", [])
            .text([bold(code)])
            .text([roman(meaning)]);
    }
    roff
}

fn write_stdout(bytes: &[u8]) -> anyhow::Result<Outcome> {
    let mut out = io::stdout().lock();
    out.write_all(bytes)?;
    out.flush()?;
    Ok(Outcome::Success)
}

/// No argument at all: the usage and the examples on stderr, and a usage exit code, as
/// `rg` does; a tool that waits on a terminal's stdin looks hung.
pub fn usage() -> Outcome {
    let mut cmd = Cli::command();
    let usage = cmd.render_usage();
    crate::err!(
        "{usage}\n\n{}\n\nFor more information, try '--help'; for text puzzles, `sudoku-snap solve --help`.",
        cmd.get_after_help().map(ToString::to_string).unwrap_or_default()
    );
    Outcome::Usage
}
