//! Long work off the async workers, stopped when nobody waits for it any more.
//!
//! Whole games (Replay, ApplyBatch, StreamReplay, Playout) run on tokio's blocking pool, at
//! most as many at once as the machine has cores (StreamReplay apart). The
//! caller can go away before the answer — it disconnects, cancels the call, or the call's
//! deadline passes and the server has already answered `DEADLINE_EXCEEDED` — and then the
//! request future is dropped. [`blocking`] ties a [`Cancel`] flag to that future: dropping
//! the future sets the flag, and the work checks it between actions (or games) and stops
//! with [`Cancel::stopped`] (`CANCELLED`), so an abandoned call does not keep a core busy.
//!
//! Whole games and streams' producers run on threads of their own, at a lower CPU priority
//! ([`HEAVY_NICE`]): when the cores are busy, the one-state calls (Apply, View, LegalActions,
//! …, [`quick`]) keep their latency and the long work takes what is left (issue #24: honest
//! callers' latency while hostile imports and replays run).
//!
//! [`stream`] does the same for server-streaming calls: the work sends its messages through
//! a bounded channel (it waits while the reader is slow), stops when the reader is gone, and
//! ends the stream with `DEADLINE_EXCEEDED` when the call's deadline passes.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use tokio::sync::{OwnedSemaphorePermit, Semaphore, mpsc};
use tonic::{Code, Status};

/// When a request arrived: the moment the server had read its headers, before its body was
/// read and before it waited for a worker. Set by the server as a request extension; a
/// Playout counts its time budget from it.
#[derive(Clone, Copy, Debug)]
pub struct Arrival(pub Instant);

/// Set when the caller of some blocking work went away. Cheap to clone (one shared flag).
#[derive(Clone, Debug, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    /// A flag nobody has set yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the flag: the work should stop.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether the work should stop (also once the server's shutdown grace is over:
    /// [`referee_engine::interrupt::cancel_all`]).
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed) || referee_engine::interrupt::all_cancelled()
    }

    /// The shared flag, for the engine's own checks ([`referee_engine::interrupt`]).
    pub fn flag(&self) -> Arc<AtomicBool> {
        self.0.clone()
    }

    /// `Err(CANCELLED)` naming how far the work got (`progress`, e.g. `after 12 of 80000
    /// actions`) when the flag is set.
    pub fn check(&self, progress: impl FnOnce() -> String) -> Result<(), Status> {
        if self.is_cancelled() {
            Err(Self::stopped(&progress()))
        } else {
            Ok(())
        }
    }

    /// The status of work stopped because its caller went away.
    pub fn stopped(progress: &str) -> Status {
        Status::cancelled(format!(
            "stopped {progress}: the caller went away (disconnected, cancelled, or its deadline passed)"
        ))
    }
}

/// Sets its [`Cancel`] when dropped, unless disarmed first.
struct CancelOnDrop(Option<Cancel>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        if let Some(cancel) = self.0.take() {
            cancel.cancel();
        }
    }
}

/// Runs `work` on the blocking pool once one of the [`heavy_workers`] is free (waiting in
/// arrival order) and waits for it. When the returned future is dropped
/// before `work` is done (the caller went away), `work`'s [`Cancel`] is set; the engine sees
/// it too ([`referee_engine::interrupt::with_cancel`]: the route optimizer and the import
/// stop at their next check).
///
/// Errors: INTERNAL when the task itself failed (it panicked outside the engine's guard).
pub async fn blocking<T: Send + 'static>(
    work: impl FnOnce(&Cancel) -> T + Send + 'static,
) -> Result<T, Status> {
    // The semaphore is never closed: `acquire` cannot fail.
    let _turn = heavy_workers()
        .acquire()
        .await
        .map_err(|e| Status::internal(format!("worker pool closed: {e}")))?;
    unbounded(heavy_spawner(), work).await
}

/// How much lower than the server's own the CPU priority of the threads running whole-game
/// work and streams' producers is: the nice value added (Linux; elsewhere the work runs at
/// the server's priority). At +10 the scheduler gives a thread about a tenth of the share of
/// a thread at the server's priority (CFS weights 110 and 1024), so one-state calls competing
/// with long work for the cores are served first.
pub const HEAVY_NICE: i32 = 10;

/// The runtime whose blocking pool runs whole-game work and streams' producers: its threads
/// start at [`HEAVY_NICE`] (a thread can lower its own priority but not raise it again, so
/// these threads are never shared with the one-state calls). `None` when it could not be
/// built: the work then runs on the server's own blocking pool.
fn heavy_runtime() -> Option<&'static tokio::runtime::Runtime> {
    static RUNTIME: std::sync::OnceLock<Option<tokio::runtime::Runtime>> =
        std::sync::OnceLock::new();
    RUNTIME
        .get_or_init(|| {
            tokio::runtime::Builder::new_multi_thread()
                .worker_threads(1)
                .thread_name("referee-heavy")
                .on_thread_start(lower_priority)
                .enable_time()
                .build()
                .ok()
        })
        .as_ref()
}

/// Where [`unbounded`] runs a piece of work.
#[derive(Clone, Copy)]
enum Spawner {
    /// The server's blocking pool (one-state calls).
    Server,
    /// [`heavy_runtime`]'s blocking pool.
    Heavy(&'static tokio::runtime::Runtime),
}

impl Spawner {
    fn spawn_blocking<R: Send + 'static>(
        self,
        f: impl FnOnce() -> R + Send + 'static,
    ) -> tokio::task::JoinHandle<R> {
        match self {
            Self::Server => tokio::task::spawn_blocking(f),
            Self::Heavy(rt) => rt.spawn_blocking(f),
        }
    }
}

/// The heavy runtime, or the server's pool when it could not be built.
fn heavy_spawner() -> Spawner {
    heavy_runtime().map_or(Spawner::Server, Spawner::Heavy)
}

/// Lowers the calling thread's CPU priority by [`HEAVY_NICE`] (Linux: `setpriority` on the
/// thread id; a failure leaves the priority as it was).
fn lower_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: plain system calls on the calling thread's own id; no memory is passed.
    unsafe {
        let tid = libc::gettid() as libc::id_t;
        // getpriority may legitimately return -1: clear errno first and check it.
        *libc::__errno_location() = 0;
        let now = libc::getpriority(libc::PRIO_PROCESS, tid);
        if now != -1 || *libc::__errno_location() == 0 {
            libc::setpriority(libc::PRIO_PROCESS, tid, (now + HEAVY_NICE).min(19));
        }
    }
}

/// The calling thread's nice value (Linux; 0 elsewhere).
pub fn thread_nice() -> i32 {
    #[cfg(target_os = "linux")]
    // SAFETY: a plain system call on the calling thread's own id.
    unsafe {
        libc::getpriority(libc::PRIO_PROCESS, libc::gettid() as libc::id_t)
    }
    #[cfg(not(target_os = "linux"))]
    0
}

/// Threads that run whole-game work (Replay, ApplyBatch, Playout, ImportGame, ExportGame,
/// SuggestRoutes) at once: the machine's cores (at least 2), apart from the
/// [`quick_workers`]. Calls over it wait their turn in arrival order holding their
/// concurrency slot, so the memory such work holds at once (a route search up to its cap of
/// stored routes, a recorded game, a playout) is bounded by the cores, not by
/// `--max-concurrency` (issue #24: three SuggestRoutes at once held 1.8 GB).
fn heavy_workers() -> &'static tokio::sync::Semaphore {
    static WORKERS: std::sync::OnceLock<tokio::sync::Semaphore> = std::sync::OnceLock::new();
    WORKERS.get_or_init(|| tokio::sync::Semaphore::new(worker_count()))
}

/// The machine's cores (at least 2): the size of each worker pool.
fn worker_count() -> usize {
    std::thread::available_parallelism()
        .map_or(2, std::num::NonZero::get)
        .max(2)
}

/// Work running on the blocking pool now ([`blocking`], [`quick`], [`stream`]).
static RUNNING: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Counts one piece of work in [`RUNNING`] until dropped (also when the work panics).
struct Running;

impl Running {
    fn start() -> Self {
        RUNNING.fetch_add(1, Ordering::SeqCst);
        Self
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        RUNNING.fetch_sub(1, Ordering::SeqCst);
    }
}

/// How many pieces of work run on the blocking pool now (whole games, calls on one state,
/// streams' producers).
pub fn running() -> usize {
    RUNNING.load(Ordering::SeqCst)
}

/// Waits until no work runs on the blocking pool, at most `within` (checking every 10 ms);
/// returns how many still run then. The server calls it at the end of its shutdown grace,
/// after [`referee_engine::interrupt::cancel_all`], so that work stopped at its next check
/// has ended (and is counted in [`crate::api::calls_cancelled`]) before the server reports
/// and exits.
pub async fn wait_until_stopped(within: std::time::Duration) -> usize {
    let until = tokio::time::Instant::now() + within;
    loop {
        let now = running();
        if now == 0 || tokio::time::Instant::now() >= until {
            return now;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
}

/// [`blocking`] without waiting for a worker of a pool (the pools' own work), on `spawner`.
async fn unbounded<T: Send + 'static>(
    spawner: Spawner,
    work: impl FnOnce(&Cancel) -> T + Send + 'static,
) -> Result<T, Status> {
    let cancel = Cancel::new();
    let mut guard = CancelOnDrop(Some(cancel.clone()));
    let result = spawner
        .spawn_blocking(move || {
            let _running = Running::start();
            referee_engine::interrupt::with_cancel(cancel.flag(), || work(&cancel))
        })
        .await;
    guard.0 = None;
    result.map_err(|e| Status::internal(format!("task failed: {e}")))
}

/// Threads that run one-state calls (Apply, View, LegalActions, Describe, DefaultAction,
/// NewGame) at once: the machine's cores (at least 2). Calls over it wait their turn in
/// arrival order, each holding its concurrency slot while it waits, so the slots count the
/// work queued as well as the work running and the server sheds (RESOURCE_EXHAUSTED) as soon
/// as the queue is full instead of letting calls pile up on the async workers.
fn quick_workers() -> &'static tokio::sync::Semaphore {
    static WORKERS: std::sync::OnceLock<tokio::sync::Semaphore> = std::sync::OnceLock::new();
    WORKERS.get_or_init(|| tokio::sync::Semaphore::new(worker_count()))
}

/// [`blocking`] for a call on one state: waits (in arrival order) for one of the
/// [`quick_workers`], then runs `work` on the blocking pool. The async workers only read
/// requests, shed and answer; no engine work runs on them.
///
/// Errors: as [`blocking`].
pub async fn quick<T: Send + 'static>(
    work: impl FnOnce(&Cancel) -> T + Send + 'static,
) -> Result<T, Status> {
    // The semaphore is never closed: `acquire` cannot fail.
    let _turn = quick_workers()
        .acquire()
        .await
        .map_err(|e| Status::internal(format!("worker pool closed: {e}")))?;
    unbounded(Spawner::Server, work).await
}

/// Messages a stream buffers while its reader is slow (the work waits when they are full).
pub const STREAM_BUFFER: usize = 16;

/// Bytes of messages a stream buffers while its reader is slow, besides the message the
/// reader is taking (one message larger than this passes alone). Counted as the stream's
/// source gives them (`size` of [`stream`]: a StreamReplay message's encoded length, an
/// NDJSON batch's bytes). Sixteen messages of a state with a custom Autobahn board (about
/// 260 KB each, twice that sealed with the caller's view) were 4–9 MB per stream, on every
/// stream a reader left unread (review of issue #24, sixth round).
pub const STREAM_BUFFER_BYTES: usize = 64 * 1024;

/// The status of a stream whose deadline passed.
pub fn stream_deadline_exceeded() -> Status {
    Status::deadline_exceeded(
        "the stream did not finish within the call's deadline (grpc-timeout, at most the server's request timeout)",
    )
}

/// A message of a [`stream`] and its bytes of the stream's buffer (given back when the
/// reader takes the message; the error at the end holds none).
type Buffered<T> = (Result<T, Status>, Option<OwnedSemaphorePermit>);

/// The messages of a [`stream`], in order, as its reader takes them.
#[derive(Debug)]
pub struct Messages<T> {
    rx: mpsc::Receiver<Buffered<T>>,
}

impl<T> Messages<T> {
    /// The next message, once there is one (`None`: the stream has ended).
    pub fn poll_recv(
        &mut self,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Result<T, Status>>> {
        self.rx.poll_recv(cx).map(|m| m.map(|(item, _bytes)| item))
    }

    /// The next message if one is waiting now.
    pub fn try_recv(&mut self) -> Option<Result<T, Status>> {
        self.rx.try_recv().ok().map(|(item, _bytes)| item)
    }
}

impl<T> tokio_stream::Stream for Messages<T> {
    type Item = Result<T, Status>;

    fn poll_next(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Self::Item>> {
        self.get_mut().poll_recv(cx)
    }
}

/// Runs `produce` on the blocking pool as the source of a stream: every message it hands to
/// its `send` goes through a buffer of at most [`STREAM_BUFFER`] messages and
/// [`STREAM_BUFFER_BYTES`] bytes (a message's bytes are `size(&message)`; `send` waits while
/// the buffer is full). `send` fails — and `produce` should return that error — with
/// `CANCELLED` once the reader has gone away, and with `DEADLINE_EXCEEDED` once `deadline`
/// has passed (checked before every message, and while waiting for room).
///
/// The stream ends after the last message; when `produce` fails, with its error as the last
/// item (room for it is kept aside, so it arrives even behind a full buffer), except for a
/// reader that has gone away.
pub fn stream<T: Send + 'static>(
    deadline: Instant,
    size: fn(&T) -> usize,
    produce: impl FnOnce(&mut dyn FnMut(T) -> Result<(), Status>) -> Result<(), Status> + Send + 'static,
) -> Messages<T> {
    let (tx, rx) = mpsc::channel::<Buffered<T>>(STREAM_BUFFER + 1);
    // A fresh channel has room: this cannot fail. The permit keeps one slot for the error.
    let last = tx.clone().try_reserve_owned().ok();
    let bytes = Arc::new(Semaphore::new(STREAM_BUFFER_BYTES));
    let handle = tokio::runtime::Handle::current();
    // Dropping the handle detaches the producer; it stops when the reader is gone.
    drop(heavy_spawner().spawn_blocking(move || {
        let _running = Running::start();
        let deadline_at = tokio::time::Instant::from_std(deadline);
        let mut send = |item: T| -> Result<(), Status> {
            if Instant::now() >= deadline {
                return Err(stream_deadline_exceeded());
            }
            // Its bytes of the buffer first (given back as the reader takes messages; all
            // of them once the reader has gone, its messages dropped with it).
            let n = size(&item).clamp(1, STREAM_BUFFER_BYTES) as u32;
            let held = match bytes.clone().try_acquire_many_owned(n) {
                Ok(p) => p,
                // The timer is the server runtime's: the future is made inside `block_on`.
                Err(_) => match handle.block_on(async {
                    tokio::time::timeout_at(deadline_at, bytes.clone().acquire_many_owned(n)).await
                }) {
                    Ok(Ok(p)) => p,
                    Ok(Err(_)) => return Err(Cancel::stopped("streaming")),
                    Err(_) => return Err(stream_deadline_exceeded()),
                },
            };
            // Room in the buffer (the usual case): no waiting, no timer.
            let item = match tx.try_send((Ok(item), Some(held))) {
                Ok(()) => return Ok(()),
                Err(mpsc::error::TrySendError::Closed(_)) => {
                    return Err(Cancel::stopped("streaming"));
                }
                Err(mpsc::error::TrySendError::Full(item)) => item,
            };
            match handle
                .block_on(async { tokio::time::timeout_at(deadline_at, tx.send(item)).await })
            {
                Ok(Ok(())) => Ok(()),
                Ok(Err(_)) => Err(Cancel::stopped("streaming")),
                Err(_) => Err(stream_deadline_exceeded()),
            }
        };
        if let Err(status) = produce(&mut send)
            && status.code() != Code::Cancelled
            && let Some(last) = last
        {
            last.send((Err(status), None));
        }
    }));
    Messages { rx }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;
    use tokio_stream::StreamExt;

    /// Dropping the future of `blocking` (the caller went away) sets the flag the work sees;
    /// a future that runs to its end leaves it unset.
    #[tokio::test]
    async fn dropping_the_call_cancels_its_work() {
        let (seen_tx, seen_rx) = std::sync::mpsc::channel();
        let (started_tx, started_rx) = tokio::sync::oneshot::channel();
        let call = tokio::spawn(blocking(move |cancel| {
            let _ = started_tx.send(());
            let mut spins = 0u64;
            while !cancel.is_cancelled() && spins < 50_000 {
                std::thread::sleep(Duration::from_millis(1));
                spins += 1;
            }
            let _ = seen_tx.send(cancel.is_cancelled());
        }));
        started_rx.await.unwrap();
        call.abort();
        let cancelled = tokio::task::spawn_blocking(move || seen_rx.recv().unwrap())
            .await
            .unwrap();
        assert!(cancelled, "the work ran to its end after its caller left");

        let kept = blocking(|cancel| cancel.clone()).await.unwrap();
        assert!(!kept.is_cancelled());
    }

    /// A stream delivers its messages in order; a failure after the first is the last item,
    /// even when the reader let the buffer fill up.
    #[tokio::test]
    async fn a_failure_ends_the_stream_behind_a_full_buffer() {
        let far = Instant::now() + Duration::from_secs(60);
        let mut s = stream(
            far,
            |_| 1,
            |send| {
                for i in 0..(STREAM_BUFFER as u32) {
                    send(i)?;
                }
                Err(Status::invalid_argument("entry 16 is bad"))
            },
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
        let mut got = Vec::new();
        while let Some(item) = s.next().await {
            got.push(item);
        }
        assert_eq!(got.len(), STREAM_BUFFER + 1);
        for (i, item) in got.iter().take(STREAM_BUFFER).enumerate() {
            assert_eq!(item.as_ref().ok(), Some(&(i as u32)));
        }
        let last = got.last().unwrap().as_ref().unwrap_err();
        assert_eq!(last.code(), Code::InvalidArgument);
        assert_eq!(last.message(), "entry 16 is bad");
    }

    /// A reader that goes away stops the producer (its `send` fails with CANCELLED); a
    /// deadline that passed fails `send` with DEADLINE_EXCEEDED, before the first message.
    #[tokio::test]
    async fn a_stream_stops_when_its_reader_leaves_or_its_deadline_passes() {
        let (done_tx, done_rx) = tokio::sync::oneshot::channel();
        let far = Instant::now() + Duration::from_secs(60);
        let mut s = stream(
            far,
            |_| 8,
            move |send| {
                let mut sent = 0u64;
                let r = loop {
                    if let Err(e) = send(sent) {
                        break e;
                    }
                    sent += 1;
                };
                let _ = done_tx.send((sent, r.code()));
                Err(r)
            },
        );
        assert_eq!(s.next().await.unwrap().unwrap(), 0);
        drop(s);
        let (sent, code) = done_rx.await.unwrap();
        assert_eq!(code, Code::Cancelled);
        assert!(sent <= STREAM_BUFFER as u64 + 2, "sent {sent}");

        let mut s = stream(Instant::now(), |_| 1, |send| send(1u8));
        let only = s.next().await.unwrap().unwrap_err();
        assert_eq!(only.code(), Code::DeadlineExceeded);
        assert!(s.next().await.is_none());
    }

    /// A stream buffers at most [`STREAM_BUFFER_BYTES`] of messages for a reader that does
    /// not take them: messages of 10 KiB, a reader that reads nothing until the producer's
    /// deadline has passed, then everything: 6 messages (60 KiB of the 64 KiB) and the
    /// deadline. One message larger than the buffer passes alone.
    #[tokio::test]
    async fn a_stream_buffers_a_bounded_number_of_bytes() {
        let soon = Instant::now() + Duration::from_millis(300);
        let mut s = stream(soon, Vec::len, |send| {
            for _ in 0..100 {
                send(vec![0u8; 10 * 1024])?;
            }
            Ok(())
        });
        tokio::time::sleep(Duration::from_millis(600)).await;
        let mut got = Vec::new();
        while let Some(item) = s.next().await {
            got.push(item);
        }
        assert_eq!(
            got.len(),
            7,
            "{:?}",
            got.iter().map(|g| g.is_ok()).collect::<Vec<_>>()
        );
        assert!(got[..6].iter().all(Result::is_ok));
        assert_eq!(got[6].as_ref().unwrap_err().code(), Code::DeadlineExceeded);

        let far = Instant::now() + Duration::from_secs(60);
        let mut s = stream(far, Vec::len, |send| send(vec![0u8; 1 << 20]));
        assert_eq!(s.next().await.unwrap().unwrap().len(), 1 << 20);
        assert!(s.next().await.is_none());
    }

    /// Whole-game work and streams' producers run at [`HEAVY_NICE`] below the server's
    /// priority, one-state calls at the server's own (Linux), so that cheap calls are served
    /// first when long work fills the cores (issue #24).
    #[cfg(target_os = "linux")]
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn long_work_runs_at_a_lower_priority_than_one_state_calls() {
        let server = tokio::task::spawn_blocking(thread_nice).await.unwrap();
        let heavy = (server + HEAVY_NICE).min(19);
        assert_eq!(quick(|_| thread_nice()).await.unwrap(), server);
        assert_eq!(blocking(|_| thread_nice()).await.unwrap(), heavy);
        // A one-state call after whole-game work still runs at the server's priority: the
        // lowered threads are never lent to it.
        assert_eq!(quick(|_| thread_nice()).await.unwrap(), server);
        let far = Instant::now() + Duration::from_secs(60);
        let mut s = stream(far, |_: &i32| 4, |send| send(thread_nice()));
        assert_eq!(s.next().await.unwrap().unwrap(), heavy);
        assert!(s.next().await.is_none());
    }

    /// Whole-game work runs on at most [`worker_count`] threads at once (issue #24: three
    /// SuggestRoutes at once held 1.8 GB; with `--max-concurrency` 256 nothing else bounded
    /// how many ran): three times as many calls as workers, each holding its thread until
    /// released, never run more than the workers at once. Counted, not timed.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn whole_game_work_runs_on_at_most_the_heavy_workers() {
        use std::sync::atomic::AtomicUsize;
        let workers = worker_count();
        let running = Arc::new(AtomicUsize::new(0));
        let most = Arc::new(AtomicUsize::new(0));
        let release = Arc::new(AtomicBool::new(false));
        let mut calls = Vec::new();
        for _ in 0..3 * workers {
            let (running, most, release) = (running.clone(), most.clone(), release.clone());
            calls.push(tokio::spawn(blocking(move |_| {
                let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                most.fetch_max(now, Ordering::SeqCst);
                // Hold the thread until released (bounded: 10 s).
                for _ in 0..10_000 {
                    if release.load(Ordering::SeqCst) {
                        break;
                    }
                    std::thread::sleep(Duration::from_millis(1));
                }
                running.fetch_sub(1, Ordering::SeqCst);
            })));
        }
        // Wait (bounded) until the pool is full, then let everything finish.
        for _ in 0..2_000 {
            if running.load(Ordering::SeqCst) >= workers {
                break;
            }
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
        release.store(true, Ordering::SeqCst);
        for c in calls {
            c.await.unwrap().unwrap();
        }
        let most = most.load(Ordering::SeqCst);
        assert!(
            (1..=workers).contains(&most),
            "{most} whole-game calls ran at once on {workers} workers"
        );
    }
}
