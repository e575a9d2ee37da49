//! Command-line arguments (clap derive). Turned into plain values before any work starts;
//! nothing in the library sees these types.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

/// Reads a screenshot of a sudoku, solves it and draws the answer into the picture.
#[derive(Parser, Debug)]
#[command(name = "sudoku-snap", version, about, long_about = None)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct Cli {
    /// A subcommand for text puzzles; without one, the arguments are screenshots.
    #[command(subcommand)]
    pub command: Option<Command>,

    /// Screenshot arguments (the default command).
    #[command(flatten)]
    pub image: ImageArgs,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Solve text puzzles: 81-char lines, 9-line grids, whitespace digits or CSV.
    Solve(SolveArgs),
}

/// Output layout of text results.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// A 9x9 grid with box separators (default on a terminal).
    Pretty,
    /// One 81-character line per puzzle (default when piped).
    Line,
    /// Nine CSV rows per puzzle.
    Csv,
    /// One JSON object per puzzle per line.
    Json,
}

/// Arguments of `sudoku-snap solve`.
#[derive(Args, Debug)]
pub struct SolveArgs {
    /// Puzzles: an 81-character puzzle, a file of puzzles, or `-` for stdin (the default).
    #[arg(value_name = "INPUT")]
    pub inputs: Vec<String>,

    /// Output layout [default: pretty on a terminal, line otherwise].
    #[arg(short, long, value_enum)]
    pub format: Option<Format>,

    /// Print every solution, up to --limit (default 100).
    #[arg(long, conflicts_with = "count")]
    pub all: bool,

    /// Count solutions up to --limit (default 2: the uniqueness check) and print the count.
    #[arg(long)]
    pub count: bool,

    /// Upper bound for --count and --all.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub limit: Option<u64>,

    /// Worker threads [default: all cores]; 1 runs sequentially.
    #[arg(short, long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub jobs: Option<u64>,
}

/// Arguments of the default command: screenshots in, solved pictures out.
#[derive(Args, Debug)]
pub struct ImageArgs {
    /// Screenshot(s) of a sudoku.
    #[arg(value_name = "IMAGE")]
    pub inputs: Vec<PathBuf>,

    /// Where to write the solved picture (format from its extension: png, jpg, webp).
    #[arg(short, long, value_name = "OUT")]
    pub output: Option<PathBuf>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn clap_definition_is_consistent() {
        Cli::command().debug_assert();
    }
}
