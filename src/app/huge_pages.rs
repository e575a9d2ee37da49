//! The process's allocator: the system's, asking the kernel for 2 MiB pages under large
//! blocks.
//!
//! A phone screenshot's pixels are 9 MB, written once into memory fresh from the kernel, and
//! every 4 KiB page of it costs a page fault on first touch: 1.7 us each on this machine (a
//! loop touching 64 MiB), some 2,200 faults for the decoded phone picture alone and 4,400 in
//! a whole run. Advising the kernel to back a large block with transparent huge pages
//! (`madvise(MADV_HUGEPAGE)`, the same advice glibc's own `glibc.malloc.hugetlb=1` tunable
//! gives, which a program cannot set for itself once started) makes that a few faults per
//! block. Measured as whole processes on `samples/phone-1170x2532.png` (21 runs of each in
//! turn, the binary without this allocator the other side): 2,700 faults instead of 4,400, 0.87x the
//! wall time (28 against 34 ms). Pictures of under 2 MiB of pixels have no block large enough
//! and run as before.
//!
//! Only blocks of at least [`HUGE`] bytes are advised, and only the whole 2 MiB pages inside
//! them, so no memory is backed that the block does not own. Memory stays the system
//! allocator's in every other way.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};

/// The system allocator, advising huge pages for large blocks (see the module's introduction).
pub struct HugePages;

/// The size of a transparent huge page on x86-64 and most aarch64 kernels.
const HUGE: usize = 2 << 20;

/// Advises huge pages for the whole 2 MiB pages inside the block at `ptr` of `len` bytes.
/// Advice is a hint: a kernel without transparent huge pages refuses it, and nothing changes.
#[cfg(target_os = "linux")]
fn advise(ptr: *mut u8, len: usize) {
    if ptr.is_null() || len < HUGE {
        return;
    }
    let start = (ptr as usize).next_multiple_of(HUGE);
    let end = (ptr as usize + len) / HUGE * HUGE;
    if end > start {
        // SAFETY: `start..end` lies inside the block just handed out, which this process
        // owns; MADV_HUGEPAGE changes how its pages are backed, never their contents.
        unsafe {
            libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise(_ptr: *mut u8, _len: usize) {}

// SAFETY: every call is forwarded to `System` with the caller's own arguments; the advice
// given afterwards does not change the block's size, place or contents.
unsafe impl GlobalAlloc for HugePages {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded as received.
        let ptr = unsafe { System.alloc(layout) };
        advise(ptr, layout.size());
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded as received.
        let ptr = unsafe { System.alloc_zeroed(layout) };
        advise(ptr, layout.size());
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded as received.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: forwarded as received.
        let moved = unsafe { System.realloc(ptr, layout, new_size) };
        advise(moved, new_size);
        moved
    }
}
