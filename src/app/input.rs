//! Reading the INPUT arguments of the text commands (`solve`, `grade`): stdin, a file, a named
//! pipe or character device, or the argument itself as a puzzle.
//!
//! Every input but a puzzle given as the argument itself is read as a stream, on its own
//! thread, line by line: puzzles are handed on in chunks of what has arrived, so results
//! appear while a pipe is still being written and memory stays bounded by a chunk, however
//! long the input.

use std::cell::RefCell;
use std::io::{self, BufReader, Read};
use std::path::Path;
use std::rc::Rc;
use std::sync::mpsc::{self, Receiver, SyncSender, TryRecvError};

use anyhow::Context;
use sudoku_snap::puzzle::text::{Parsed, PuzzleReader};

use super::pool::Pool;
use super::Outcome;

/// Puzzles handed on per batch for each solving thread: enough to keep it busy between
/// hand-offs. Fewer than the cap on few threads keeps the batch's buffers small: on one
/// thread, 1,024 instead of 4,096 took page faults on 17_clue from 1,536 to 677 and the run's
/// task-clock down 2.6-3.8 % (top1465 x10: 0.7-2.5 %).
const CHUNK_PER_THREAD: usize = 1024;

/// Most puzzles handed on per batch, however many threads: the results waiting to be printed
/// stay a few hundred kB.
const MAX_CHUNK: usize = 4096;

/// Read size: a pipe's whole buffer in one call.
const READ_BUFFER: usize = 64 * 1024;

/// One INPUT opened for reading, with the name its messages use.
struct Source {
    name: String,
    reader: Box<dyn Read + Send>,
    /// Whether it is held in memory (a puzzle given as the argument itself): read at once,
    /// with no thread of its own.
    in_memory: bool,
}

/// Reads every INPUT (`-` when there are none) and hands its puzzles to `per_chunk`, with the
/// input's name, in input order, in batches of up to `CHUNK_PER_THREAD` for each of the
/// `threads` that solve them (at most `MAX_CHUNK`); `per_chunk` says whether any puzzle of
/// the batch failed. A batch is handed on as soon as the input has nothing more
/// ready, so a slow pipe gets its answers line by line. An input that cannot be read or holds
/// no puzzle is reported on stderr; either kind of failure makes the outcome `SomeFailed`,
/// and the other inputs go on.
pub fn each_puzzle_chunk(
    inputs: &[String],
    threads: usize,
    mut per_chunk: impl FnMut(&str, &[Parsed]) -> anyhow::Result<bool>,
) -> anyhow::Result<Outcome> {
    let chunk = (CHUNK_PER_THREAD * threads.max(1)).min(MAX_CHUNK);
    let stdin = ["-".to_string()];
    let inputs = if inputs.is_empty() {
        &stdin[..]
    } else {
        inputs
    };
    let mut outcome = Outcome::Success;
    for (n, input) in inputs.iter().enumerate() {
        let failed = match open_input(input, n + 1) {
            Ok(source) => each_chunk_of(source, chunk, &mut per_chunk)?,
            Err(e) => {
                crate::err!("error: {}", super::console::chain_text(&e));
                true
            }
        };
        if failed {
            outcome = outcome.max(Outcome::SomeFailed);
        }
    }
    Ok(outcome)
}

/// Eight puzzles of 81 characters and a line end: inputs of this many bytes or fewer are a
/// job too small to start a thread pool for before it shows its size (see `pool`; eight of
/// the hardest puzzles took as long either way).
const SMALL_INPUT: u64 = 8 * 82;

/// The thread pool of `jobs` threads for the puzzles of `inputs`: started at once unless they
/// are known to be few.
pub fn pool_for(inputs: &[String], jobs: Option<u64>) -> anyhow::Result<Pool> {
    let pool = Pool::new(jobs);
    if !are_small(inputs) {
        pool.start()?;
    }
    Ok(pool)
}

/// Whether `inputs` are known to hold few puzzles: puzzles given as arguments, and regular
/// files of `SMALL_INPUT` bytes or fewer between them. Standard input and streams may hold
/// any number.
fn are_small(inputs: &[String]) -> bool {
    let mut bytes = 0;
    for input in inputs {
        match std::fs::metadata(input) {
            Ok(meta) if meta.is_file() => bytes += meta.len(),
            Err(_) if input != "-" && looks_like_puzzle(input) => bytes += 82,
            _ => return false,
        }
    }
    !inputs.is_empty() && bytes <= SMALL_INPUT
}

/// Hands the puzzles of one input to `per_chunk`; returns whether anything failed.
fn each_chunk_of(
    source: Source,
    size: usize,
    per_chunk: &mut impl FnMut(&str, &[Parsed]) -> anyhow::Result<bool>,
) -> anyhow::Result<bool> {
    let name = source.name;
    let puzzles = if source.in_memory {
        read_now(source.reader, size)
    } else {
        read_in_background(source.reader, size)
    };
    let (mut failed, mut seen) = (false, 0);
    while let Some((chunk, read_error)) = next_chunk(&puzzles, size) {
        seen += chunk.len();
        if !chunk.is_empty() && per_chunk(&name, &chunk)? {
            failed = true;
        }
        if let Some(e) = read_error {
            crate::err!("error: {name}: cannot read further: {e}");
            return Ok(true);
        }
    }
    if seen == 0 {
        crate::err!("error: {name}: no puzzle found");
        failed = true;
    }
    Ok(failed)
}

/// What the reading thread hands on: the puzzles parsed since the last hand-off, in order (a
/// read error, if any, last).
type Batch = Vec<io::Result<Parsed>>;

/// Parses `reader` on a thread of its own, so the puzzles already read can be solved while it
/// waits for more. Puzzles go over in batches, each sent just before the thread asks the input
/// for more bytes (see [`SendBeforeRead`]) or when it reaches `size`: one hand-off per 64 kB
/// of a file instead of one per puzzle. The channel holds one batch besides the one being
/// filled, which bounds memory when reading is faster than solving; when the consumer stops
/// early (stdout closed), the process ends and takes the thread with it.
fn read_in_background(reader: Box<dyn Read + Send>, size: usize) -> Receiver<Batch> {
    let (sender, receiver) = mpsc::sync_channel(1);
    std::thread::spawn(move || {
        let batch = Rc::new(RefCell::new(Vec::new()));
        let source = SendBeforeRead {
            inner: reader,
            batch: Rc::clone(&batch),
            sender: sender.clone(),
        };
        let puzzles = PuzzleReader::new(BufReader::with_capacity(READ_BUFFER, source));
        for item in puzzles {
            let mut pending = batch.borrow_mut();
            pending.push(item);
            if pending.len() >= size && sender.send(std::mem::take(&mut *pending)).is_err() {
                return;
            }
        }
        let last = batch.take();
        if !last.is_empty() {
            let _ = sender.send(last);
        }
    });
    receiver
}

/// Parses `reader`, which never waits (it is held in memory), on this thread, into batches
/// of `size` made ready at once: a thread started for it would cost more than the reading.
fn read_now(reader: Box<dyn Read + Send>, size: usize) -> Receiver<Batch> {
    let (sender, receiver) = mpsc::channel();
    let mut batch = Vec::new();
    for item in PuzzleReader::new(BufReader::new(reader)) {
        batch.push(item);
        if batch.len() >= size {
            let _ = sender.send(std::mem::take(&mut batch));
        }
    }
    if !batch.is_empty() {
        let _ = sender.send(batch);
    }
    receiver
}

/// The input under the reading thread's buffer: before each read from it (which may wait, on a
/// pipe), the puzzles parsed so far are sent on, so a slow pipe still gets its answers line by
/// line while a file is handed on a buffer at a time.
struct SendBeforeRead {
    inner: Box<dyn Read + Send>,
    batch: Rc<RefCell<Batch>>,
    sender: SyncSender<Batch>,
}

impl Read for SendBeforeRead {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let ready = self.batch.take();
        if !ready.is_empty() && self.sender.send(ready).is_err() {
            // Nobody takes puzzles any more: end the input here.
            return Ok(0);
        }
        self.inner.read(buf)
    }
}

/// Waits for the next batch, then takes those already waiting behind it while the chunk is
/// under `size`. `None` once the input has ended; a read error ends the chunk and comes with it.
fn next_chunk(batches: &Receiver<Batch>, size: usize) -> Option<(Vec<Parsed>, Option<io::Error>)> {
    let mut chunk = Vec::new();
    let mut batch = batches.recv().ok()?;
    loop {
        for item in batch {
            match item {
                Ok(parsed) => chunk.push(parsed),
                Err(e) => return Some((chunk, Some(e))),
            }
        }
        if chunk.len() >= size {
            break;
        }
        batch = match batches.try_recv() {
            Ok(next) => next,
            Err(TryRecvError::Empty | TryRecvError::Disconnected) => break,
        };
    }
    Some((chunk, None))
}

/// Opens one INPUT: `-` is stdin; a file, named pipe (`<(...)`) or character device is read
/// as a stream; anything else that looks like a puzzle is the puzzle itself.
fn open_input(input: &str, position: usize) -> anyhow::Result<Source> {
    if input == "-" {
        super::stdin::note_if_terminal("puzzles");
        return Ok(Source {
            name: "stdin".into(),
            reader: Box::new(io::stdin()),
            in_memory: false,
        });
    }
    let path = Path::new(input);
    match std::fs::metadata(path) {
        Ok(meta) => {
            check_readable_kind(input, &meta.file_type())?;
            let file =
                std::fs::File::open(path).with_context(|| format!("{input}: cannot open"))?;
            Ok(Source {
                name: input.to_string(),
                reader: Box::new(file),
                in_memory: false,
            })
        }
        Err(_) if looks_like_puzzle(input) => Ok(Source {
            name: format!("argument {position}"),
            reader: Box::new(io::Cursor::new(input.as_bytes().to_vec())),
            in_memory: true,
        }),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            anyhow::bail!("{input}: no such file, and not an 81-character puzzle")
        }
        Err(e) => Err(e).with_context(|| format!("{input}: cannot read")),
    }
}

/// Files and streams are read; folders, sockets and block devices are not puzzle text.
fn check_readable_kind(input: &str, kind: &std::fs::FileType) -> anyhow::Result<()> {
    if kind.is_file() || is_stream(kind) {
        return Ok(());
    }
    let what = if kind.is_dir() {
        "a folder"
    } else {
        "not a file, pipe or terminal"
    };
    anyhow::bail!("{input}: {what}; give a file of puzzles, `-` for stdin, or a puzzle")
}

/// A named pipe (what `<(cmd)` passes) or a character device (`/dev/stdin` on a terminal).
#[cfg(unix)]
fn is_stream(kind: &std::fs::FileType) -> bool {
    use std::os::unix::fs::FileTypeExt;
    kind.is_fifo() || kind.is_char_device()
}

#[cfg(not(unix))]
fn is_stream(_: &std::fs::FileType) -> bool {
    false
}

/// An argument that is no file but has enough cells to be a puzzle (17 is the fewest givens
/// a proper puzzle can have) and no path separator.
fn looks_like_puzzle(input: &str) -> bool {
    input.chars().filter(|c| !c.is_whitespace()).count() >= 17 && !input.contains(['/', '\\'])
}
