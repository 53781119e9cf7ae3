//! Cooperative cancellation of long engine work (route searches, imports, playouts).
//!
//! The engine has no I/O and no async; a caller that may go away before the answer (a
//! service call whose client disconnected, whose deadline passed, or a server shutting down)
//! runs the work inside [`with_cancel`] with a shared flag, and the long loops of the engine
//! ask [`cancelled`] between units of work (the route optimizer every
//! [`CHECK_EVERY`] work units, the import every action). When the flag is set the work stops
//! at once with what it has (documented per function), and the caller throws the answer away.
//! Outside [`with_cancel`] nothing is ever cancelled.

use std::cell::RefCell;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// How many work units a search runs between two looks at the flag.
pub const CHECK_EVERY: u64 = 4096;

thread_local! {
    static FLAG: RefCell<Option<Arc<AtomicBool>>> = const { RefCell::new(None) };
}

/// Restores the flag that was in place before [`with_cancel`], also when `work` panics.
struct Restore(Option<Arc<AtomicBool>>);

impl Drop for Restore {
    fn drop(&mut self) {
        let previous = self.0.take();
        FLAG.with(|f| *f.borrow_mut() = previous);
    }
}

/// Runs `work` on this thread with `flag` as its cancellation flag: while it runs,
/// [`cancelled`] is `true` as soon as someone sets `flag`.
pub fn with_cancel<T>(flag: Arc<AtomicBool>, work: impl FnOnce() -> T) -> T {
    let previous = FLAG.with(|f| f.borrow_mut().replace(flag));
    let _restore = Restore(previous);
    work()
}

/// Set once for the whole process by [`cancel_all`].
static ALL: AtomicBool = AtomicBool::new(false);

/// Stops all work running inside [`with_cancel`], on every thread, for good (a server whose
/// shutdown grace is over).
pub fn cancel_all() {
    ALL.store(true, Ordering::Relaxed);
}

/// Whether [`cancel_all`] was called.
pub fn all_cancelled() -> bool {
    ALL.load(Ordering::Relaxed)
}

/// Whether the work running on this thread should stop (its caller went away, or the
/// process is stopping: [`cancel_all`]). `false` outside [`with_cancel`].
pub fn cancelled() -> bool {
    FLAG.with(|f| {
        f.borrow()
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed) || all_cancelled())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_flag_is_seen_inside_and_forgotten_after() {
        assert!(!cancelled());
        let flag = Arc::new(AtomicBool::new(false));
        let seen = with_cancel(flag.clone(), || {
            let before = cancelled();
            flag.store(true, Ordering::Relaxed);
            (before, cancelled())
        });
        assert_eq!(seen, (false, true));
        assert!(!cancelled());
        let r = std::panic::catch_unwind(|| with_cancel(flag.clone(), || panic!("x")));
        assert!(r.is_err());
        assert!(!cancelled());
    }
}
