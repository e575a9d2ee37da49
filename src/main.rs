//! The `sudoku-snap` binary: parses arguments, calls the library, prints results and the
//! error chain, and maps the outcome to the exit code.
// Denied, not forbidden: the allocator (app/huge_pages.rs) is the one place allowed it.
#![deny(unsafe_code)]

mod app;
mod cli;

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches};

use app::Outcome;
use cli::{Cli, ColorWhen, Command};

#[global_allocator]
static ALLOCATOR: app::huge_pages::HugePages = app::huge_pages::HugePages;

fn main() -> ExitCode {
    let when = ColorWhen::from_args(std::env::args_os());
    let no_color = std::env::var_os("NO_COLOR");
    let stderr = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let stdout = std::io::IsTerminal::is_terminal(&std::io::stdout());
    app::console::set_colour(when.colours(stderr, no_color.clone()));
    // Help goes to stdout and errors to stderr: clap colours each when that stream may be.
    let clap_colour = match when {
        ColorWhen::Always => clap::ColorChoice::Always,
        ColorWhen::Never => clap::ColorChoice::Never,
        ColorWhen::Auto if when.colours(stderr || stdout, no_color) => clap::ColorChoice::Auto,
        ColorWhen::Auto => clap::ColorChoice::Never,
    };
    let parsed = Cli::command()
        .color(clap_colour)
        .try_get_matches()
        .and_then(|m| Cli::from_arg_matches(&m));
    let cli = match parsed {
        Ok(cli) => cli,
        Err(e) => {
            let usage = e.use_stderr();
            let _ = e.print();
            return if usage {
                Outcome::Usage
            } else {
                Outcome::Success
            }
            .into();
        }
    };
    let outcome = match run(cli) {
        Ok(outcome) => outcome,
        // The reader of our results has gone (`| head`): nothing left to do, and no error.
        Err(e) if app::console::stdout_gone(&e) => Outcome::Success,
        // Results that could not be written (`> /dev/full`): the work was done, not used.
        Err(e) if is_stdout_error(&e) => {
            let e = e.context("cannot write the results to stdout");
            err!("error: {}", app::console::chain_text(&e));
            Outcome::SomeFailed
        }
        Err(e) => {
            err!("error: {}", app::console::chain_text(&e));
            Outcome::Usage
        }
    };
    // A message nobody could read (stderr's reader gone) is something not reported.
    if app::console::messages_lost() > 0 {
        outcome.max(Outcome::SomeFailed).into()
    } else {
        outcome.into()
    }
}

/// Every write but stdout's carries its file's name as context, so a bare I/O error is one of
/// stdout's (`solve f > /dev/full`), to be said so rather than only "No space left on device".
fn is_stdout_error(e: &anyhow::Error) -> bool {
    e.chain().count() == 1 && e.downcast_ref::<std::io::Error>().is_some()
}

fn run(cli: Cli) -> anyhow::Result<Outcome> {
    match cli.command {
        Some(Command::Solve(args)) => app::solve::run(args),
        Some(Command::Generate(args)) => app::generate::run(args),
        Some(Command::Grade(args)) => app::grade::run(args),
        Some(Command::Completions { shell }) => app::meta::completions(shell),
        Some(Command::Man) => app::meta::man(),
        None => app::image::run(cli.image),
    }
}
