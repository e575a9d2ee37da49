//! Things about the tool rather than puzzles: shell completions and the manual page, both
//! generated from the one clap definition so they never drift from the real arguments; and
//! the usage shown when no argument is given.

use std::io::{self, Write};

use clap::CommandFactory;

use super::Outcome;
use crate::cli::Cli;

/// `sudoku-snap completions SHELL`: the completion script on stdout.
pub fn completions(shell: clap_complete::Shell) -> anyhow::Result<Outcome> {
    let mut cmd = Cli::command();
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut cmd, "sudoku-snap", &mut out);
    write_stdout(&out)
}

/// `sudoku-snap man`: the manual page (roff) on stdout: the main page, then each
/// subcommand's synopsis and options under a heading of its own.
pub fn man() -> anyhow::Result<Outcome> {
    let cmd = Cli::command();
    let mut out = Vec::new();
    clap_mangen::Man::new(cmd.clone()).render(&mut out)?;
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
    write_stdout(&out)
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
