//! Command-line arguments (clap derive). Turned into plain values before any work starts;
//! nothing in the library sees these types.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};
use sudoku_snap::{Mode, Options};

/// Reads a screenshot of a sudoku, solves it and draws the answer into the picture.
#[derive(Parser, Debug)]
#[command(name = "sudoku-snap", version, about, long_about = None)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
#[command(max_term_width = 100)]
#[command(after_help = EXAMPLES)]
pub struct Cli {
    /// A subcommand for text puzzles; without one, the arguments are screenshots.
    #[command(subcommand)]
    pub command: Option<Command>,

    /// Screenshot arguments (the default command).
    #[command(flatten)]
    pub image: ImageArgs,

    /// When to colour the tool's messages and help: auto (on a terminal, unless NO_COLOR is
    /// set), always, never.
    #[arg(long, global = true, value_enum, value_name = "WHEN", default_value_t = ColorWhen::Auto)]
    pub color: ColorWhen,
}

/// When to colour what the tool writes on stderr (`--color`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum ColorWhen {
    /// On a terminal, unless the `NO_COLOR` environment variable is set (and not empty).
    #[default]
    Auto,
    /// Always, even into a pipe or a file.
    Always,
    /// Never.
    Never,
}

impl ColorWhen {
    /// The `--color` the arguments ask for, read before clap parses them, so that clap's own
    /// help and errors follow it too; the last one given wins, as clap takes it, and a value
    /// clap will refuse counts as `auto` until it does.
    pub fn from_args(args: impl IntoIterator<Item = std::ffi::OsString>) -> ColorWhen {
        let mut when = ColorWhen::Auto;
        let mut args = args.into_iter().map(|a| a.to_string_lossy().into_owned());
        while let Some(arg) = args.next() {
            let value = match arg.strip_prefix("--color") {
                Some("") => args.next(),
                Some(v) if v.starts_with('=') => Some(v[1..].to_string()),
                _ if arg == "--" => break,
                _ => continue,
            };
            if let Some(v) = value.and_then(|v| ColorWhen::from_str(&v, false).ok()) {
                when = v;
            }
        }
        when
    }

    /// Whether to colour a stream of which `is_terminal` says whether it is a terminal, with
    /// `no_color` the `NO_COLOR` variable's value (see <https://no-color.org>).
    pub fn colours(self, is_terminal: bool, no_color: Option<std::ffi::OsString>) -> bool {
        match self {
            ColorWhen::Always => true,
            ColorWhen::Never => false,
            ColorWhen::Auto => is_terminal && no_color.is_none_or(|v| v.is_empty()),
        }
    }
}

/// Shown under `--help` (and in the manual's EXAMPLES): the commands people start with.
pub const EXAMPLES: &str = "\
Examples:
  sudoku-snap shot.png -o solved.png          draw the answer into the screenshot
  sudoku-snap shot.png --check -o marked.png  ring the player's wrong entries
  sudoku-snap shot.png --hint -o hint.png     draw only the next logical step
  cat shot.png | sudoku-snap - -o - > out.png a picture through a pipe
  sudoku-snap shots/ -o solved/ --report run.jsonl
                                              a folder, with a JSON Lines report
  sudoku-snap solve puzzles.txt               text puzzles (see `sudoku-snap solve --help`)
  sudoku-snap generate -n 5 -d hard           five hard puzzles
  sudoku-snap completions bash > ~/.local/share/bash-completion/completions/sudoku-snap";

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Solve text puzzles: 81-char lines, 9-line grids, whitespace digits or CSV.
    Solve(SolveArgs),
    /// Generate puzzles with one solution, by hole count or difficulty.
    Generate(GenerateArgs),
    /// Grade text puzzles by the techniques a person needs (same INPUT as solve).
    Grade(GradeArgs),
    /// Print a shell completion script (bash, zsh, fish, powershell, elvish) on stdout.
    #[command(
        after_help = "Examples:\n  sudoku-snap completions bash > ~/.local/share/bash-completion/completions/sudoku-snap\n  sudoku-snap completions zsh > ~/.zfunc/_sudoku-snap\n  sudoku-snap completions fish > ~/.config/fish/completions/sudoku-snap.fish"
    )]
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff) on stdout: `sudoku-snap man | man -l -`.
    Man,
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

/// A difficulty grade, by the hardest technique needed.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum DifficultyArg {
    /// Naked and hidden singles.
    Easy,
    /// Plus locked candidates (pointing, claiming).
    Medium,
    /// Plus naked and hidden pairs and triples.
    Hard,
    /// X-wing and beyond, or guessing.
    Expert,
}

/// Arguments of `sudoku-snap generate`.
#[derive(Args, Debug)]
pub struct GenerateArgs {
    /// How many puzzles.
    #[arg(short = 'n', long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    pub count: u64,

    /// Seed: the same seed and options give the same puzzles on any machine and thread count
    /// [default: from the clock, printed in the output].
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,

    /// Exactly this many empty cells (0-64) [default: as many as uniqueness and --difficulty allow].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(0..=64))]
    pub holes: Option<u8>,

    /// The grade every puzzle must have [default: any].
    #[arg(short, long, value_enum)]
    pub difficulty: Option<DifficultyArg>,

    /// Givens symmetric under a 180-degree turn.
    #[arg(long)]
    pub symmetric: bool,

    /// No given can be removed without losing uniqueness.
    #[arg(long)]
    pub minimal: bool,

    /// New grids to try per puzzle before giving up on a rare request.
    #[arg(long, value_name = "N", default_value_t = 2000,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub max_attempts: u32,

    /// Output layout [default: pretty on a terminal, line otherwise].
    #[arg(short, long, value_enum)]
    pub format: Option<Format>,

    /// Worker threads [default: all cores]; the output does not depend on it.
    #[arg(short, long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub jobs: Option<u64>,

    /// Also draw each puzzle as a printable PNG in DIR (created if missing), named
    /// `puzzle-<seed>-<index>.png` (`solution-<seed>-<index>.png` with --solution).
    #[arg(long, value_name = "DIR", conflicts_with = "output")]
    pub png: Option<PathBuf>,

    /// Also draw the puzzle (with -n 1) as a printable picture in FILE; its extension picks the
    /// format (png, jpg, webp, bmp).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Draw the solved grid instead: the solution's digits in dark blue in the empty cells
    /// (needs --png or -o).
    #[arg(long)]
    pub solution: bool,
}

/// Arguments of `sudoku-snap grade`.
#[derive(Args, Debug)]
pub struct GradeArgs {
    /// Puzzles: an 81-character puzzle, a file of puzzles, or `-` for stdin (the default).
    #[arg(value_name = "INPUT")]
    pub inputs: Vec<String>,

    /// Output layout [default: pretty on a terminal, line otherwise].
    #[arg(short, long, value_enum)]
    pub format: Option<Format>,

    /// Worker threads [default: all cores]; 1 runs sequentially.
    #[arg(short, long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub jobs: Option<u64>,
}

/// Arguments of the default command: screenshots in, solved pictures out.
#[derive(Args, Debug)]
pub struct ImageArgs {
    /// Screenshot(s) of a sudoku (PNG, JPEG, WebP, BMP, GIF).
    #[arg(value_name = "IMAGE")]
    pub inputs: Vec<PathBuf>,

    /// Where to write the solved picture (format from its extension: png, jpg, webp, bmp);
    /// `-` writes it to stdout (format from --output-format, else the input's own).
    #[arg(short, long, value_name = "OUT")]
    pub output: Option<PathBuf>,

    /// Output layout [default: pretty on a terminal, line otherwise].
    #[arg(short, long, value_enum)]
    pub format: Option<Format>,

    /// Print the time of each stage on stderr.
    #[arg(long)]
    pub timings: bool,

    /// Write intermediate pictures (ink, corners, rectified grid, cells) into DIR.
    #[arg(long, value_name = "DIR")]
    pub debug: Option<PathBuf>,

    /// Also match against the glyph templates in DIR/<name>/<digit>.png (handwriting in
    /// DIR/handwritten/<name>/<digit>.png, matched for a player's entries only).
    #[arg(long, value_name = "DIR")]
    pub templates: Option<PathBuf>,

    /// Refuse images with more pixels than this (decompression bombs).
    #[arg(long, value_name = "N", default_value_t = 100_000_000)]
    pub max_pixels: u64,

    /// Memory in MB the pictures in work may take at once, each counted at its decoder's
    /// peak; a picture that needs more is read at a reduced size when that fits, else
    /// refused.
    #[arg(long, value_name = "MB", default_value_t = 200,
          value_parser = clap::value_parser!(u64).range(16..=1 << 30))]
    pub max_memory: u64,

    /// Pictures with more pixels are scaled down to at most this many before reading; the
    /// answer is drawn on the smaller picture.
    #[arg(long, value_name = "N", default_value_t = 40_000_000,
          value_parser = clap::value_parser!(u64).range(1_000_000..))]
    pub max_working_pixels: u64,

    /// How many single misread digits the solver may correct (0 turns all correction off;
    /// a correction of a whole group of look-alike givens may change more).
    #[arg(long, value_name = "N", default_value_t = 2)]
    pub max_corrections: usize,

    /// Draw the answer even when the reading is doubtful (several solutions, or a cell that
    /// reads as well as another digit giving another answer); by default no picture is
    /// written and the doubtful cells are named.
    #[arg(long)]
    pub draw_doubtful: bool,

    /// Check a game in progress: name each wrong entry of the player (stderr, JSON
    /// `wrong_entries`) and ring it in red on the picture instead of drawing the answer. Exits
    /// 1 when it found a mistake, as `rustfmt --check` does.
    #[arg(long, conflicts_with = "hint")]
    pub check: bool,

    /// Give a hint, not the answer: the next N logical steps (default 1), each with its
    /// technique, on stderr, in JSON (`hints`) and drawn on the picture (the words on a strip
    /// added below it); wrong entries are ringed as with --check.
    #[arg(long, value_name = "N", num_args = 0..=1, default_missing_value = "1",
          value_parser = clap::value_parser!(u64).range(1..=81))]
    pub hint: Option<u64>,

    /// Batch: descend into sub-folders of folder inputs.
    #[arg(short, long, help_heading = "Batch (folders, lists, -o DIR/)")]
    pub recursive: bool,

    /// Batch: read input paths from FILE, one per line (`-` for stdin; an IMAGE of `-` too).
    #[arg(
        long,
        value_name = "FILE",
        help_heading = "Batch (folders, lists, -o DIR/)"
    )]
    pub files_from: Option<PathBuf>,

    /// Batch: add SUFFIX to each output's stem (`a.png` -> `a.solved.png` with `.solved`).
    #[arg(
        long,
        value_name = "SUFFIX",
        default_value = "",
        help_heading = "Batch (folders, lists, -o DIR/)"
    )]
    pub suffix: String,

    /// Format of the written picture(s) [default: -o's extension, else the input's own, so a
    /// JPEG stays a JPEG].
    #[arg(long, value_enum, value_name = "FMT")]
    pub output_format: Option<OutputFormat>,

    /// JPEG quality (1-100) of JPEG outputs.
    #[arg(long, value_name = "Q", default_value_t = 90,
          value_parser = clap::value_parser!(u8).range(1..=100))]
    pub jpeg_quality: u8,

    /// Colour of the drawn answer, as `#rrggbb` or `rrggbb` [default: blue, or orange when
    /// the givens are blue; lighter on dark themes].
    #[arg(long, value_name = "COLOUR", value_parser = parse_colour)]
    pub answer_color: Option<[u8; 3]>,

    /// Batch: replace existing outputs (otherwise their inputs are reported `skipped`); with
    /// --debug, replace debug pictures already in its folder (otherwise they are kept).
    #[arg(long, help_heading = "Batch (folders, lists, -o DIR/)")]
    pub overwrite: bool,

    /// Batch: allow -o DIR inside an input folder (it is then never read as input).
    #[arg(long, help_heading = "Batch (folders, lists, -o DIR/)")]
    pub allow_inside_input: bool,

    /// Batch: worker threads [default: all cores]; 1 runs sequentially, in input order.
    #[arg(short, long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1024),
          help_heading = "Batch (folders, lists, -o DIR/)")]
    pub jobs: Option<u64>,

    /// Batch: process only shard I of N (0-based): the inputs whose relative path hashes
    /// there, so N workers (a job array, `parallel`, an Indexed Job) split a batch without a
    /// scheduler. Adding files never moves the others.
    #[arg(
        long,
        value_name = "I/N",
        help_heading = "Batch (folders, lists, -o DIR/)"
    )]
    pub shard: Option<sudoku_snap::batch::Shard>,

    /// Batch: no progress bar and no summary.
    #[arg(short, long, help_heading = "Batch (folders, lists, -o DIR/)")]
    pub quiet: bool,

    /// Also write the JSON object of each picture, one line each (JSON Lines), to FILE,
    /// atomically at the end of the run: for one picture as for a batch.
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,
}

/// `#rrggbb` or `rrggbb` as RGB.
fn parse_colour(s: &str) -> Result<[u8; 3], String> {
    let hex = s.strip_prefix('#').unwrap_or(s);
    let bad = || format!("`{s}` is not a colour; write it as #rrggbb, e.g. #1c5cd2");
    if hex.len() != 6 || !hex.is_ascii() {
        return Err(bad());
    }
    let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).map_err(|_| bad());
    Ok([byte(0)?, byte(2)?, byte(4)?])
}

/// Formats the screenshot command can write.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputFormat {
    /// PNG.
    Png,
    /// JPEG (quality 90).
    Jpg,
    /// WebP (lossless).
    Webp,
    /// BMP.
    Bmp,
}

impl OutputFormat {
    /// The `image` crate's format.
    pub fn image_format(self) -> image::ImageFormat {
        match self {
            OutputFormat::Png => image::ImageFormat::Png,
            OutputFormat::Jpg => image::ImageFormat::Jpeg,
            OutputFormat::Webp => image::ImageFormat::WebP,
            OutputFormat::Bmp => image::ImageFormat::Bmp,
        }
    }
}

impl ImageArgs {
    /// The library options these arguments ask for.
    pub fn options(&self) -> Options {
        Options {
            max_pixels: self.max_pixels,
            max_memory: self.max_memory << 20,
            max_working_pixels: self.max_working_pixels,
            templates_dir: self.templates.clone(),
            debug_dir: self.debug.clone(),
            debug_overwrite: self.overwrite,
            max_corrections: self.max_corrections,
            draw_doubtful: self.draw_doubtful,
            mode: self.mode(),
            jpeg_quality: self.jpeg_quality,
            answer_color: self.answer_color,
            ..Options::default()
        }
    }

    fn mode(&self) -> Mode {
        match (self.check, self.hint) {
            (_, Some(n)) => Mode::Hint(n as usize),
            (true, None) => Mode::Check,
            (false, None) => Mode::Answer,
        }
    }
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
