//! Pictures through pipes: a screenshot on stdin (`sudoku-snap - ...`, told from a list of
//! paths by its first bytes) and the drawn picture on stdout (`-o -`), so
//! `wl-paste | sudoku-snap - -o - | wl-copy` works. The picture is held in memory and read
//! within `--max-memory`; the library's in-memory call does the work.

use std::io::{self, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};

use anyhow::Context;
use image::ImageFormat;
use sudoku_snap::error::shown;
use sudoku_snap::output::{self, Inputs};
use sudoku_snap::stages::{self, Picture};
use sudoku_snap::{Report, Snap};

use super::report_file::ReportFile;
use super::show::{explain_doubt, explain_marks, print_report, print_timings};
use super::Outcome;
use crate::cli::ImageArgs;

/// Whether this run goes through memory: the picture goes to stdout, comes from stdin, or
/// one picture is written in a format its name does not say.
pub fn wanted(args: &ImageArgs) -> bool {
    let stdout = args.output.as_deref() == Some(Path::new("-"));
    let single_with_format = args.inputs.len() == 1
        && args.output_format.is_some()
        && args
            .output
            .as_deref()
            .is_some_and(|o| output::format_for(o).is_some());
    stdout || single_with_format || (is_stdin(args) && stdin_holds_a_picture())
}

fn is_stdin(args: &ImageArgs) -> bool {
    args.inputs.len() == 1 && args.inputs[0].as_os_str() == "-" && args.files_from.is_none()
}

/// Whether stdin starts with a picture's magic bytes. The bytes looked at stay readable (see
/// [`super::stdin`]), so a list of paths is still read whole by the batch. Never waits on a
/// terminal.
fn stdin_holds_a_picture() -> bool {
    is_picture(super::stdin::head())
}

/// PNG, JPEG, GIF, WebP and BMP signatures. Text (a list of paths) never holds the bytes
/// 0x89, 0xFF or NUL these need, nor `RIFF....WEBP`; a path starting `BM` is told from a BMP
/// by the BMP header's reserved zero bytes.
fn is_picture(head: &[u8]) -> bool {
    head.starts_with(b"\x89PNG\r\n\x1a\n")
        || head.starts_with(b"\xff\xd8\xff")
        || head.starts_with(b"GIF87a")
        || head.starts_with(b"GIF89a")
        || (head.starts_with(b"RIFF") && head.get(8..12) == Some(b"WEBP"))
        || (head.starts_with(b"BM") && head.get(6..10) == Some(&[0, 0, 0, 0]))
}

/// Runs one picture through memory; returns the outcome for the exit code.
pub fn run(args: ImageArgs) -> anyhow::Result<Outcome> {
    check_usage(&args)?;
    let input = &args.inputs[0];
    let to_stdout = args.output.as_deref() == Some(Path::new("-"));
    let output = args.output.as_deref().filter(|_| !to_stdout);
    if let Some(out) = output {
        output::check_output(out, &Inputs::new([input.as_path()]))?;
        output::check_folder(out)?;
        output::remove_stale_temps_beside(out);
    }
    let report_file = match &args.report {
        Some(path) => Some(ReportFile::create(path, &Inputs::new([input.as_path()]))?),
        None => None,
    };
    let snap = Snap::new(args.options())?;
    let read = read_input(input, args.max_memory << 20);
    let format = read
        .as_ref()
        .map_or(ImageFormat::Png, |b| output_format(&args, b));
    let (mut report, picture) = match read.and_then(|bytes| snap.solve_bytes(&bytes, input)) {
        Ok(solved) => (solved.report, solved.picture),
        Err(e) => {
            let mut report = Report::new(input);
            report.fail(e);
            (report, None)
        }
    };
    // Without -o the report is all that is asked for.
    if let Some(picture) = picture.filter(|_| args.output.is_some()) {
        let encoded = stages::encode(&Picture::from(picture), format, args.jpeg_quality)
            .context("cannot encode the picture")?;
        match output {
            Some(out) => output::write_bytes_atomic(&encoded, out)?,
            None => write_stdout(&encoded)?,
        }
        report.output = Some(output.map_or_else(|| PathBuf::from("-"), Path::to_path_buf));
    }
    finish(&report, &args, to_stdout, report_file)
}

/// Messages on stderr; the report on stdout unless stdout carries the picture.
fn finish(
    report: &Report,
    args: &ImageArgs,
    to_stdout: bool,
    report_file: Option<ReportFile>,
) -> anyhow::Result<Outcome> {
    if let Some(e) = &report.error {
        crate::err!("error: {}", super::show::error_text(e));
        explain_doubt(report, args);
    }
    for c in &report.corrections {
        let (cell, read, used) = (c.cell, c.read, c.used);
        let input = shown(&report.input);
        crate::err!("{input}: corrected {cell}: read {read}, used {used}");
    }
    explain_marks(report, args);
    super::show::explain_other_grids(report, args);
    if args.timings {
        print_timings(report);
    }
    if !to_stdout {
        let format = super::output::resolve_format(args.format);
        let mut out = io::stdout().lock();
        print_report(&mut out, report, format, super::show::marks_only(args))?;
        out.flush()?;
    }
    if let Some(mut file) = report_file {
        file.write(report)?;
        file.finish()?;
    }
    Ok(super::show::outcome(report, args))
}

fn check_usage(args: &ImageArgs) -> anyhow::Result<()> {
    if args.inputs.len() != 1 {
        anyhow::bail!("-o - writes one picture to stdout; give one IMAGE (or `-` for stdin)");
    }
    if args.output.as_deref() == Some(Path::new("-")) {
        if args.format.is_some() {
            anyhow::bail!("with -o -, stdout carries the picture; use --report FILE for the JSON");
        }
        if io::stdout().is_terminal() {
            anyhow::bail!("-o - writes a picture to stdout, which is a terminal; redirect it (`> out.png`) or pipe it");
        }
    }
    if args.inputs[0].is_dir() {
        anyhow::bail!(
            "{}: a folder is a batch, and -o - writes one picture; give -o a folder ending in `/`",
            shown(&args.inputs[0])
        );
    }
    if args.recursive || !args.suffix.is_empty() {
        anyhow::bail!("-r and --suffix are for batch mode: give -o a folder (`-o DIR/`)");
    }
    Ok(())
}

/// Bytes of address space set aside at once for a picture on stdin: the budget, up to this.
/// Pages never written are never backed, so a small picture costs only what it holds.
const STDIN_RESERVE: u64 = 1 << 30;

/// The picture's bytes, from stdin (`-`) or the file, refused as soon as they pass `limit`
/// bytes. The buffer is set aside whole at the start (the budget for stdin, the file's
/// length for a file) and read into in blocks: a buffer grown by doubling is copied into
/// one twice as large, which held 1.4 times the budget before the refusal.
fn read_input(input: &Path, limit: u64) -> sudoku_snap::Result<Vec<u8>> {
    let io_error = |source| sudoku_snap::Error::Io {
        path: input.to_path_buf(),
        source,
    };
    let (mut reader, expected): (Box<dyn Read>, u64) = if input.as_os_str() == "-" {
        (Box::new(super::stdin::reader()), STDIN_RESERVE)
    } else {
        let file = sudoku_snap::stages::open_regular(input)?;
        let length = file.metadata().map_err(io_error)?.len();
        (Box::new(file), length)
    };
    let start = usize::try_from(expected.min(limit)).unwrap_or(usize::MAX);
    let limit = usize::try_from(limit).unwrap_or(usize::MAX);
    let mut bytes = Vec::with_capacity(start);
    let mut block = vec![0u8; 64 << 10];
    loop {
        let n = match reader.read(&mut block) {
            Ok(0) => return Ok(bytes),
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(io_error(e)),
        };
        if bytes.len() + n > limit {
            return Err(sudoku_snap::Error::Decode {
                path: input.to_path_buf(),
                reason: format!(
                    "more than {} MB to read, over --max-memory (raise it to read this picture)",
                    limit >> 20
                ),
                source: None,
            });
        }
        if bytes.capacity() < bytes.len() + n {
            let grown = (2 * bytes.capacity()).clamp(bytes.len() + n, limit);
            bytes.reserve_exact(grown - bytes.len());
        }
        bytes.extend_from_slice(&block[..n]);
    }
}

/// `--output-format`, else `-o`'s extension, else the input's own format (lossy stays lossy;
/// GIF, which we do not write, becomes PNG).
fn output_format(args: &ImageArgs, input: &[u8]) -> ImageFormat {
    if let Some(f) = args.output_format {
        return f.image_format();
    }
    if let Some(f) = args.output.as_deref().and_then(output::format_for) {
        return f;
    }
    match image::guess_format(input) {
        Ok(f @ (ImageFormat::Jpeg | ImageFormat::WebP | ImageFormat::Bmp)) => f,
        _ => ImageFormat::Png,
    }
}

fn write_stdout(bytes: &[u8]) -> io::Result<()> {
    let mut out = io::stdout().lock();
    out.write_all(bytes)?;
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn magic_bytes_tell_pictures_from_path_lists() {
        assert!(is_picture(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR"));
        assert!(is_picture(b"\xff\xd8\xff\xe0\0\x10JFIF"));
        assert!(is_picture(b"RIFF\x10\0\0\0WEBPVP8 "));
        assert!(is_picture(b"BM\x36\0\x0c\0\0\0\0\0\x36\0"));
        assert!(is_picture(b"GIF89a\x01\0"));
        assert!(!is_picture(b"shots/a.png\nshots/b.png\n"));
        assert!(!is_picture(b"BMW/photo.png\n"));
        assert!(!is_picture(b"RIFF-notes/x.png\n"));
        assert!(!is_picture(b""));
    }
}
