//! The memory budget shared by the pictures decoded at the same time: a decode reserves
//! what it will need and holds the reservation for the picture's whole trip.

use std::sync::{Condvar, Mutex};

/// Memory shared by the pictures decoded at the same time: each decode reserves what it will
/// need and waits while the others hold too much, so a batch on 16 threads holds no more than
/// on one. A single picture larger than the whole budget still runs, alone.
#[derive(Debug)]
pub struct MemoryBudget {
    capacity: u64,
    used: Mutex<u64>,
    freed: Condvar,
}

impl MemoryBudget {
    /// A budget of `bytes`.
    pub fn new(bytes: u64) -> MemoryBudget {
        MemoryBudget {
            capacity: bytes.max(1),
            used: Mutex::new(0),
            freed: Condvar::new(),
        }
    }

    /// A budget that never makes anyone wait.
    pub fn unlimited() -> MemoryBudget {
        MemoryBudget::new(u64::MAX)
    }

    /// Reserves `bytes` (at most the whole budget), waiting until they are free.
    pub fn reserve(&self, bytes: u64) -> Reservation<'_> {
        let bytes = bytes.min(self.capacity);
        let mut used = self.used.lock().unwrap_or_else(|e| e.into_inner());
        while *used + bytes > self.capacity {
            used = self.freed.wait(used).unwrap_or_else(|e| e.into_inner());
        }
        *used += bytes;
        Reservation {
            budget: self,
            bytes,
        }
    }
}

/// Memory held from a [`MemoryBudget`] until dropped.
#[derive(Debug)]
pub struct Reservation<'b> {
    budget: &'b MemoryBudget,
    bytes: u64,
}

impl Drop for Reservation<'_> {
    fn drop(&mut self) {
        let mut used = self.budget.used.lock().unwrap_or_else(|e| e.into_inner());
        *used -= self.bytes;
        self.budget.freed.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_budget_makes_the_second_reservation_wait_for_the_first() {
        let budget = MemoryBudget::new(100);
        let first = budget.reserve(80);
        let done = std::sync::atomic::AtomicBool::new(false);
        std::thread::scope(|s| {
            s.spawn(|| {
                let _second = budget.reserve(80);
                done.store(true, std::sync::atomic::Ordering::SeqCst);
            });
            std::thread::sleep(std::time::Duration::from_millis(50));
            assert!(!done.load(std::sync::atomic::Ordering::SeqCst));
            drop(first);
        });
        assert!(done.load(std::sync::atomic::Ordering::SeqCst));
        // More than the whole budget still runs, alone.
        drop(budget.reserve(1000));
    }
}
