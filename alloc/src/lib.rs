//! # referee-alloc
//!
//! The global allocator of Referee's binaries, benchmarks and measuring examples: the
//! mimalloc library (`libmimalloc-sys`), entered through `mi_malloc` / `mi_zalloc` /
//! `mi_realloc` when the requested alignment is one every mimalloc block has anyway (the
//! word, 8 bytes: block sizes are whole words), and through the `_aligned` entry points
//! otherwise. (Not 16 bytes: a block of 1–8 or 24 bytes may sit on an 8-byte boundary; the
//! test below checks every case.)
//!
//! Why not the `mimalloc` crate's `MiMalloc`: it calls `mi_malloc_aligned` for every
//! allocation, and with mimalloc v3 that path costs ≈ 55 instructions per call where
//! `mi_malloc` costs ≈ 20. The 1841 replay makes ≈ 30,000 allocations; with this allocator
//! it takes 25.7 M → 25.0 M instructions (callgrind, docs/PERFORMANCE.md). The memory
//! management itself is mimalloc's, unchanged: both entry points hand out blocks of the
//! same heaps and `mi_free` takes either.
//!
//! ```
//! #[global_allocator]
//! static GLOBAL: referee_alloc::MiMalloc = referee_alloc::MiMalloc;
//!
//! let names: Vec<String> = ["F8", "SFTG"].iter().map(|s| s.to_string()).collect();
//! assert_eq!(names.concat(), "F8SFTG");
//! ```

use std::alloc::{GlobalAlloc, Layout};
use std::ffi::c_void;

use libmimalloc_sys as mi;

/// The alignment every mimalloc block has, whatever its size: the machine word.
const GUARANTEED_ALIGN: usize = std::mem::size_of::<usize>();

/// mimalloc as the global allocator (see the crate documentation).
#[derive(Clone, Copy, Debug, Default)]
pub struct MiMalloc;

// SAFETY: every method forwards to the mimalloc function with the contract `GlobalAlloc`
// asks for: `mi_malloc`/`mi_zalloc`/`mi_realloc` return blocks aligned to at least
// `GUARANTEED_ALIGN`, used only when the layout asks for no more; larger alignments go to
// the `_aligned` functions; `mi_free` frees blocks of either kind; null on failure.
unsafe impl GlobalAlloc for MiMalloc {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: see the impl.
        unsafe {
            if layout.align() <= GUARANTEED_ALIGN {
                mi::mi_malloc(layout.size()) as *mut u8
            } else {
                mi::mi_malloc_aligned(layout.size(), layout.align()) as *mut u8
            }
        }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: see the impl.
        unsafe {
            if layout.align() <= GUARANTEED_ALIGN {
                mi::mi_zalloc(layout.size()) as *mut u8
            } else {
                mi::mi_zalloc_aligned(layout.size(), layout.align()) as *mut u8
            }
        }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
        // SAFETY: see the impl.
        unsafe { mi::mi_free(ptr as *mut c_void) }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: see the impl.
        unsafe {
            if layout.align() <= GUARANTEED_ALIGN {
                mi::mi_realloc(ptr as *mut c_void, new_size) as *mut u8
            } else {
                mi::mi_realloc_aligned(ptr as *mut c_void, new_size, layout.align()) as *mut u8
            }
        }
    }
}

/// [`MiMalloc`] counting the bytes it hands out: the bytes in use now and the most in use
/// at once since the last [`Counting::reset_peak`]. For tests that assert a memory bound
/// (a search, an import, a request body) in bytes allocated, not in wall-clock time or RSS.
/// Costs two atomic additions per allocation; not for the binaries.
#[derive(Debug, Default)]
pub struct Counting {
    now: std::sync::atomic::AtomicUsize,
    peak: std::sync::atomic::AtomicUsize,
}

impl Counting {
    /// A counter at zero.
    pub const fn new() -> Self {
        Self {
            now: std::sync::atomic::AtomicUsize::new(0),
            peak: std::sync::atomic::AtomicUsize::new(0),
        }
    }

    /// Bytes allocated and not yet freed.
    pub fn in_use(&self) -> usize {
        self.now.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// The most bytes in use at once since the last reset.
    pub fn peak(&self) -> usize {
        self.peak.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Starts a new peak from the bytes in use now.
    pub fn reset_peak(&self) {
        self.peak
            .store(self.in_use(), std::sync::atomic::Ordering::Relaxed);
    }

    fn grew(&self, by: usize) {
        use std::sync::atomic::Ordering::Relaxed;
        let now = self.now.fetch_add(by, Relaxed) + by;
        self.peak.fetch_max(now, Relaxed);
    }

    fn shrank(&self, by: usize) {
        self.now.fetch_sub(by, std::sync::atomic::Ordering::Relaxed);
    }
}

// SAFETY: forwards every call to `MiMalloc` unchanged (see its impl); only counts sizes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: same contract as the caller's.
        let p = unsafe { MiMalloc.alloc(layout) };
        if !p.is_null() {
            self.grew(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: same contract as the caller's.
        let p = unsafe { MiMalloc.alloc_zeroed(layout) };
        if !p.is_null() {
            self.grew(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { MiMalloc.dealloc(ptr, layout) };
        self.shrank(layout.size());
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: same contract as the caller's.
        let p = unsafe { MiMalloc.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            self.grew(new_size);
            self.shrank(layout.size());
        }
        p
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[global_allocator]
    static GLOBAL: MiMalloc = MiMalloc;

    /// Blocks of every alignment come back aligned, zeroed when asked, and keep their
    /// contents through a reallocation.
    #[test]
    fn alignments_contents_and_reallocation() {
        // Sizes of every small class shape (24, 40, 56 bytes are word- but not 16-aligned
        // classes), across page kinds, up to a block of its own (4 MiB).
        for align in [1usize, 2, 4, 8, 16, 32, 64, 4096] {
            for size in [
                1usize,
                7,
                8,
                16,
                24,
                40,
                56,
                100,
                1000,
                5000,
                70_000,
                4 << 20,
            ] {
                let layout = Layout::from_size_align(size, align).expect("layout");
                unsafe {
                    let p = MiMalloc.alloc_zeroed(layout);
                    assert!(!p.is_null());
                    assert_eq!(p as usize % align, 0, "align {align} size {size}");
                    assert!((0..size).all(|i| *p.add(i) == 0));
                    for i in 0..size {
                        *p.add(i) = (i % 251) as u8;
                    }
                    let q = MiMalloc.realloc(p, layout, size * 3);
                    assert!(!q.is_null());
                    assert_eq!(q as usize % align, 0, "realloc align {align} size {size}");
                    assert!((0..size).all(|i| *q.add(i) == (i % 251) as u8));
                    let grown = Layout::from_size_align(size * 3, align).expect("layout");
                    let small = size.div_ceil(3);
                    let r = MiMalloc.realloc(q, grown, small);
                    assert!(!r.is_null());
                    assert_eq!(r as usize % align, 0, "shrink align {align} size {size}");
                    assert!((0..small).all(|i| *r.add(i) == (i % 251) as u8));
                    MiMalloc.dealloc(r, Layout::from_size_align(small, align).expect("layout"));
                    let plain = MiMalloc.alloc(layout);
                    assert_eq!(plain as usize % align, 0, "alloc align {align} size {size}");
                    MiMalloc.dealloc(plain, layout);
                }
            }
        }
        // And through the standard collections.
        let v: Vec<String> = (0..1000).map(|i| i.to_string()).collect();
        assert_eq!(v[999], "999");
    }
}
