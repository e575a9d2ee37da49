//! The work budget of one reading: a count of search steps shared by every search the reading
//! runs (shape grouping, digit assignment and its alternatives, corrections, rival readings),
//! and the caller's cancel flag, looked at as the steps are spent and between stages.
//!
//! A step is one node of a search: a partial digit assignment tried, two shape groups merged,
//! a candidate board solved (that one weighs [`SOLVE_STEPS`], being a search of its own). The
//! count depends on nothing but the picture, so whether a reading runs out is the same on
//! every machine and every run; a reading that does ends in a doubt, never in the answer a
//! search cut short would have guessed.

use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering};
use std::sync::Arc;

use crate::error::{Error, Result};

/// The steps one reading may spend. Measured with `examples/work_steps.rs` (BENCHMARKS.md,
/// "Work budget"): the most any picture of `samples/`, `tests/data/`, `../shared/corpus` and
/// `../shared/data/photos/train` spends is 172,668 steps (train `image77.jpg`; the median
/// train photo 1,757), so this leaves a factor of 2.9 over the hungriest real picture, while
/// a reading that spends it all (a lattice of thin lines) still ends in well under a second.
pub const READING_STEPS: u64 = 500_000;

/// What one candidate board solved costs, in steps: a solver check (counting to two
/// solutions) takes about as long as this many assignment-search nodes of a photo's grid.
pub const SOLVE_STEPS: u64 = 64;

/// How many steps are spent between two looks at the cancel flag: often enough that a
/// cancelled reading stops within milliseconds, rarely enough that the look costs nothing.
const CANCEL_EVERY: u64 = 1024;

/// Why a reading stopped before its end, as `Budget::stopped` holds it: still running.
const RUNNING: u8 = 0;
/// The steps ran out.
const EXHAUSTED: u8 = 1;
/// The caller's cancel flag was raised.
const CANCELLED: u8 = 2;

/// The steps one reading has left, and the flag that cancels it. Made once per reading and
/// passed by reference to every search in it. The searches run one after another (the
/// reading may move to a thread of the pool, hence atomics, each only ever used by one
/// thread at a time, so relaxed order suffices and the count stays the picture's own).
#[derive(Debug)]
pub struct Budget {
    limit: u64,
    spent: AtomicU64,
    /// `spent` at which the cancel flag is looked at next.
    next_look: AtomicU64,
    stopped: AtomicU8,
    cancel: Option<Arc<AtomicBool>>,
}

impl Budget {
    /// A budget of `limit` steps, cancelled when `cancel` (if any) becomes true.
    pub fn new(limit: u64, cancel: Option<Arc<AtomicBool>>) -> Budget {
        Budget {
            limit,
            spent: AtomicU64::new(0),
            next_look: AtomicU64::new(CANCEL_EVERY),
            stopped: AtomicU8::new(RUNNING),
            cancel,
        }
    }

    /// A budget no search reaches, for running one stage on its own (and for tests).
    pub fn unlimited() -> Budget {
        Budget::new(u64::MAX, None)
    }

    /// Spends `steps`; false when the reading must stop (the steps ran out, now or before, or
    /// the reading was cancelled), and the search spending them should return at once.
    pub fn spend(&self, steps: u64) -> bool {
        if self.is_stopped() {
            return false;
        }
        let spent = self.spent().saturating_add(steps);
        self.spent.store(spent, Ordering::Relaxed);
        if spent > self.limit {
            self.stopped.store(EXHAUSTED, Ordering::Relaxed);
            return false;
        }
        if spent >= self.next_look.load(Ordering::Relaxed) {
            (self.next_look).store(spent.saturating_add(CANCEL_EVERY), Ordering::Relaxed);
            return !self.look_at_cancel();
        }
        true
    }

    /// Whether the reading must stop (see [`Budget::spend`]).
    pub fn is_stopped(&self) -> bool {
        self.stopped.load(Ordering::Relaxed) != RUNNING
    }

    /// The steps spent so far.
    pub fn spent(&self) -> u64 {
        self.spent.load(Ordering::Relaxed)
    }

    /// Looks at the cancel flag, then fails with the reason the reading of `path` must stop,
    /// if it must: [`Error::OutOfSteps`] or [`Error::Interrupted`]. Called between stages,
    /// so a reading whose search ran out never goes on to draw what it found.
    pub fn check(&self, path: &Path) -> Result<()> {
        self.look_at_cancel();
        match self.stopped.load(Ordering::Relaxed) {
            RUNNING => Ok(()),
            EXHAUSTED => Err(Error::OutOfSteps {
                path: path.to_path_buf(),
                limit: self.limit,
            }),
            _ => Err(Error::Interrupted {
                path: path.to_path_buf(),
            }),
        }
    }

    /// A budget for one part of the reading that may not take the whole of what is left: at
    /// most half of this budget's remaining steps, cancelled with it. Spend what it spent
    /// back with [`Budget::close`].
    pub fn share(&self) -> Budget {
        let left = self.limit.saturating_sub(self.spent());
        let mut share = Budget::new(left / 2, self.cancel.clone());
        if self.is_stopped() {
            share.stopped = AtomicU8::new(self.stopped.load(Ordering::Relaxed));
        }
        share
    }

    /// Spends what `share` (see [`Budget::share`]) spent; true when the share ran out of its
    /// steps (what it found was cut short), though this budget may go on.
    pub fn close(&self, share: Budget) -> bool {
        let cancelled = share.stopped.load(Ordering::Relaxed) == CANCELLED;
        if cancelled {
            self.stopped.store(CANCELLED, Ordering::Relaxed);
        }
        self.spend(share.spent().min(share.limit));
        share.is_stopped()
    }

    /// Whether the cancel flag is raised; a raised flag stops the reading.
    fn look_at_cancel(&self) -> bool {
        let cancelled = (self.cancel.as_ref()).is_some_and(|c| c.load(Ordering::Relaxed));
        if cancelled && !self.is_stopped() {
            self.stopped.store(CANCELLED, Ordering::Relaxed);
        }
        cancelled
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spending_past_the_limit_stops_for_good() {
        let budget = Budget::new(10, None);
        assert!(budget.spend(10));
        assert!(budget.check(Path::new("a.png")).is_ok());
        assert!(!budget.spend(1));
        assert!(!budget.spend(0), "a stopped reading stays stopped");
        let error = budget.check(Path::new("a.png")).unwrap_err();
        assert!(matches!(error, Error::OutOfSteps { limit: 10, .. }));
        let text = error.to_string();
        assert!(
            text.starts_with("a.png: ") && text.contains("work budget"),
            "{text}"
        );
    }

    #[test]
    fn a_share_runs_out_at_half_of_what_is_left_and_the_budget_goes_on() {
        let budget = Budget::new(100, None);
        assert!(budget.spend(20));
        let share = budget.share();
        assert!(share.spend(40));
        assert!(!share.spend(1), "half of the 80 steps left");
        assert!(budget.close(share), "the share ran out");
        assert_eq!(budget.spent(), 60);
        assert!(!budget.is_stopped());
        let share = budget.share();
        assert!(share.spend(5));
        assert!(!budget.close(share));
        assert_eq!(budget.spent(), 65);
    }

    #[test]
    fn a_raised_cancel_flag_stops_the_reading_within_a_look() {
        let flag = Arc::new(AtomicBool::new(false));
        let budget = Budget::new(u64::MAX, Some(flag.clone()));
        assert!(budget.spend(5));
        flag.store(true, Ordering::Relaxed);
        let spent_until_stopped = (0..).take_while(|_| budget.spend(1)).count() as u64;
        assert!(spent_until_stopped <= CANCEL_EVERY);
        assert!(matches!(
            budget.check(Path::new("b.png")),
            Err(Error::Interrupted { .. })
        ));
        // Between stages the flag is looked at whatever was spent.
        let fresh = Budget::new(u64::MAX, Some(flag));
        assert!(fresh.check(Path::new("b.png")).is_err());
    }
}
