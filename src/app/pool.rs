//! The text commands' thread pool, started only for a job big enough to pay for its threads.
//!
//! A pool's start is not free: its threads are made and get ready while the first work waits,
//! and a single puzzle given on the command line ran in three quarters of the time without
//! it. A job known to be large (a long file, standard input, many puzzles to generate) starts
//! the pool at once ([`Pool::start`]), so its threads get ready while the input is read.
//! Otherwise the job runs on the calling thread until it has taken [`WORTH_THE_POOL`], and
//! only what is left then goes over the pool, started then and kept for the rest of the run:
//! how long a puzzle takes varies a hundredfold between sets, so its count alone cannot tell.

use std::cell::OnceCell;
use std::time::{Duration, Instant};

use rayon::prelude::*;

/// The work a job of unknown size does on the calling thread before the rest of it is spread
/// over the pool: a few hard puzzles (magictour_top1465: 30 us each). Whole processes,
/// against the pool started at once: one puzzle 0.75x the wall time, four hard ones 0.94x,
/// eight hard ones 1.00-1.02x.
const WORTH_THE_POOL: Duration = Duration::from_micros(150);

/// A thread pool, started on first use or by [`Pool::start`].
pub struct Pool {
    /// How many threads it has, or will have once started.
    threads: usize,
    started: OnceCell<rayon::ThreadPool>,
}

impl Pool {
    /// A pool of `jobs` threads (as rayon chooses when `None` or 0), not started yet.
    pub fn new(jobs: Option<u64>) -> Pool {
        let threads = jobs
            .map(|n| n as usize)
            .filter(|&n| n > 0)
            // As rayon itself chooses: `RAYON_NUM_THREADS`, else the cores it may use.
            .or_else(|| {
                let n = std::env::var("RAYON_NUM_THREADS").ok()?.parse().ok()?;
                (n > 0).then_some(n)
            })
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        Pool {
            threads,
            started: OnceCell::new(),
        }
    }

    /// How many threads the pool has, or will have once started.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Starts the pool now, for a job known to be large. A pool of one thread is never
    /// started: the calling thread does the work as well.
    pub fn start(&self) -> anyhow::Result<()> {
        if self.threads > 1 {
            self.get()?;
        }
        Ok(())
    }

    /// `f` of each of `items`, in order. Over the pool once it is started; before that, on
    /// this thread until the items done have taken [`WORTH_THE_POOL`], the rest (two or more)
    /// over the pool.
    pub fn map<T: Sync, R: Send>(
        &self,
        items: &[T],
        f: impl Fn(&T) -> R + Sync + Send,
    ) -> anyhow::Result<Vec<R>> {
        let mut done = Vec::new();
        if self.started.get().is_none() {
            let clock = Instant::now();
            for (i, item) in items.iter().enumerate() {
                done.push(f(item));
                // One item left is done here as fast as anywhere.
                let left = items.len() - i - 1;
                if self.threads > 1 && left >= 2 && clock.elapsed() >= WORTH_THE_POOL {
                    break;
                }
            }
        }
        let rest = &items[done.len()..];
        if rest.is_empty() {
            return Ok(done);
        }
        let rest: Vec<R> = self.get()?.install(|| rest.par_iter().map(f).collect());
        if done.is_empty() {
            return Ok(rest);
        }
        done.extend(rest);
        Ok(done)
    }

    /// The pool, started now if it was not yet.
    fn get(&self) -> anyhow::Result<&rayon::ThreadPool> {
        if let Some(pool) = self.started.get() {
            return Ok(pool);
        }
        // The count found in `new`: rayon would look for it again.
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(self.threads)
            .build()?;
        Ok(self.started.get_or_init(|| pool))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `n`, once the time a job must show has passed, and whether it ran on a pool's thread.
    fn slow(&n: &u64) -> (u64, bool) {
        std::thread::sleep(WORTH_THE_POOL);
        (n, rayon::current_thread_index().is_some())
    }

    #[test]
    fn one_or_two_items_never_start_the_pool() {
        let pool = Pool::new(Some(2));
        assert_eq!(pool.map(&[7], |&n: &u64| n * n).unwrap(), [49]);
        // However long the first takes, one item left is done here as fast as anywhere.
        assert_eq!(pool.map(&[1, 2], slow).unwrap(), [(1, false), (2, false)]);
        assert!(pool.started.get().is_none());
    }

    #[test]
    fn a_slow_job_moves_to_the_pool_and_keeps_its_order() {
        let pool = Pool::new(Some(2));
        let items: Vec<u64> = (0..6).collect();
        let out = pool.map(&items, slow).unwrap();
        assert_eq!(out.iter().map(|o| o.0).collect::<Vec<_>>(), items);
        // The first item alone took the time a job must show: the rest ran in the pool.
        assert!(!out[0].1, "the first item runs on the calling thread");
        assert!(
            out[1..].iter().all(|o| o.1),
            "the rest on the pool: {out:?}"
        );
        assert!(pool.started.get().is_some());
    }

    #[test]
    fn a_started_pool_takes_every_item() {
        let pool = Pool::new(Some(2));
        pool.start().unwrap();
        let out = pool.map(&[5, 6], |&n: &u64| {
            (n, rayon::current_thread_index().is_some())
        });
        assert_eq!(out.unwrap(), [(5, true), (6, true)]);
    }

    #[test]
    fn one_thread_never_starts_a_pool() {
        let pool = Pool::new(Some(1));
        pool.start().unwrap();
        let out = pool.map(&[1, 2, 3], slow).unwrap();
        assert_eq!(out, [(1, false), (2, false), (3, false)]);
        assert!(pool.started.get().is_none());
    }
}
