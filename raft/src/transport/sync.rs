//! Single-threaded synchronization for the transport's tasks: everything
//! here lives on one shard's runtime, so `Rc<RefCell<..>>` and wakers do,
//! with no atomics (invariant 3).

use std::cell::{Cell, RefCell};
use std::future::{Future, poll_fn};
use std::rc::Rc;
use std::task::{Poll, Waker};

use bytes::Bytes;
use tidemark_storage::local_notify::LocalFlag;

use super::codec::{FrameSink, OutBuf};

/// Wakes every registered waker (waiters re-check their condition).
#[derive(Default)]
pub(crate) struct Wakers(RefCell<Vec<Waker>>);

impl Wakers {
    pub(crate) fn register(&self, w: &Waker) {
        let mut v = self.0.borrow_mut();
        if !v.iter().any(|x| x.will_wake(w)) {
            v.push(w.clone());
        }
    }

    pub(crate) fn wake_all(&self) {
        let v = std::mem::take(&mut *self.0.borrow_mut());
        for w in v {
            w.wake();
        }
    }
}

/// Waiters woken together, registered in O(1): the queue's waiters for
/// space, who can number thousands (every Raft group of a shard sending
/// to one peer). [`Wakers`] scans its list on every registration to
/// skip a waker already in it, which made each registration O(waiters)
/// and a full queue O(waiters²) per write: after a kill -9 at 10,000
/// partitions a survivor spent 23 % of its CPU in that scan (perf, stop
/// 37) while its groups' pre-votes waited for space. Here only the last
/// entry is compared (a waiter polled twice in a row), so a waiter may
/// appear more than once and be woken twice: harmless, since a woken
/// waiter re-checks the queue, and the list is emptied at every wake.
#[derive(Default)]
pub(crate) struct WaitList(Wakers);

impl WaitList {
    pub(crate) fn register(&self, w: &Waker) {
        let mut v = self.0.0.borrow_mut();
        if !v.last().is_some_and(|x| x.will_wake(w)) {
            v.push(w.clone());
        }
    }

    pub(crate) fn wake_all(&self) {
        self.0.wake_all();
    }
}

/// A flag that is set once (stop, closed) and can be awaited, shared
/// between the transport's tasks: a [`LocalFlag`], whose waits forget
/// their wakers when dropped (every connection task `select!`s on the
/// transport's stop flag at each of its events; a plain waker list kept
/// one entry per task that ever waited).
#[derive(Clone, Default)]
pub struct Signal(Rc<LocalFlag>);

impl Signal {
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the flag and wakes every waiter.
    pub fn set(&self) {
        self.0.set();
    }

    pub fn is_set(&self) -> bool {
        self.0.is_set()
    }

    /// Resolves once the flag is set.
    pub fn wait(&self) -> impl Future<Output = ()> + '_ {
        self.0.wait()
    }
}

/// A one-shot result slot: a request's response, filled by the reader
/// task (or with an error when the connection fails).
pub(crate) struct Slot<T> {
    value: RefCell<Option<T>>,
    waker: RefCell<Option<Waker>>,
}

impl<T> Slot<T> {
    pub(crate) fn new() -> Rc<Self> {
        Rc::new(Slot {
            value: RefCell::new(None),
            waker: RefCell::new(None),
        })
    }

    /// Fills the slot (the first value wins) and wakes the waiter.
    pub(crate) fn fill(&self, v: T) {
        {
            let mut value = self.value.borrow_mut();
            if value.is_some() {
                return;
            }
            *value = Some(v);
        }
        if let Some(w) = self.waker.borrow_mut().take() {
            w.wake();
        }
    }

    pub(crate) fn wait(&self) -> impl Future<Output = T> + '_ {
        poll_fn(move |cx| {
            if let Some(v) = self.value.borrow_mut().take() {
                return Poll::Ready(v);
            }
            *self.waker.borrow_mut() = Some(cx.waker().clone());
            Poll::Pending
        })
    }
}

/// The bytes waiting to be written on one connection, bounded.
///
/// Senders encode whole frames straight into `buf` (an [`OutBuf`]: small
/// fields gathered, large record batches kept as their own chunks); the
/// writer task takes everything queued at once and writes it chunk by
/// chunk, so frames that pile up while a write is in flight (say a
/// thousand groups' heartbeats) leave together. `used` counts queued
/// bytes plus the bytes of the write in flight; past `limit`, senders
/// wait (backpressure on whoever produces faster than the peer reads)
/// instead of growing memory.
pub(crate) struct OutQueue {
    pub(crate) buf: RefCell<OutBuf>,
    used: Cell<usize>,
    limit: usize,
    closed: Cell<bool>,
    writer: RefCell<Option<Waker>>,
    space: WaitList,
}

/// The queue was closed (connection gone) while waiting.
#[derive(Debug)]
pub(crate) struct Closed;

impl OutQueue {
    pub(crate) fn new(limit: usize) -> Self {
        OutQueue {
            buf: RefCell::new(OutBuf::default()),
            used: Cell::new(0),
            limit,
            closed: Cell::new(false),
            writer: RefCell::new(None),
            space: WaitList::default(),
        }
    }

    /// Waits until `n` more bytes fit (a frame larger than the limit gets
    /// through alone when the queue is empty, so it cannot wait forever).
    pub(crate) async fn reserve(&self, n: usize) -> Result<(), Closed> {
        poll_fn(|cx| {
            if self.closed.get() {
                return Poll::Ready(Err(Closed));
            }
            let used = self.used.get();
            if used == 0 || used + n <= self.limit {
                Poll::Ready(Ok(()))
            } else {
                self.space.register(cx.waker());
                Poll::Pending
            }
        })
        .await
    }

    /// Appends with `f` (which writes whole frames) and wakes the writer.
    /// Call right after [`OutQueue::reserve`], with no await in between.
    pub(crate) fn push<R>(&self, f: impl FnOnce(&mut OutBuf) -> R) -> R {
        let mut buf = self.buf.borrow_mut();
        let before = buf.encoded_len();
        let r = f(&mut buf);
        self.used
            .set(self.used.get() + (buf.encoded_len() - before));
        drop(buf);
        if let Some(w) = self.writer.borrow_mut().take() {
            w.wake();
        }
        r
    }

    pub(crate) fn is_closed(&self) -> bool {
        self.closed.get()
    }

    /// For the writer: everything queued, once there is something (or
    /// `None` once closed). The bytes count as used until
    /// [`OutQueue::written`].
    pub(crate) async fn take(&self) -> Option<Vec<Bytes>> {
        poll_fn(|cx| {
            if self.closed.get() {
                return Poll::Ready(None);
            }
            let mut buf = self.buf.borrow_mut();
            if buf.is_empty() {
                *self.writer.borrow_mut() = Some(cx.waker().clone());
                Poll::Pending
            } else {
                Poll::Ready(Some(buf.take()))
            }
        })
        .await
    }

    /// For the writer: `n` bytes taken have been written.
    pub(crate) fn written(&self, n: usize) {
        self.used.set(self.used.get().saturating_sub(n));
        self.space.wake_all();
    }

    /// Closes the queue: drops what is queued, fails waiting senders.
    pub(crate) fn close(&self) {
        self.closed.set(true);
        self.buf.borrow_mut().clear();
        self.used.set(0);
        if let Some(w) = self.writer.borrow_mut().take() {
            w.wake();
        }
        self.space.wake_all();
    }

    pub(crate) fn used(&self) -> usize {
        self.used.get()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::task::Wake;

    /// A waker that counts its wakes.
    struct Count(AtomicUsize);

    impl Wake for Count {
        fn wake(self: Arc<Self>) {
            self.0.fetch_add(1, Ordering::Relaxed);
        }
    }

    #[test]
    fn a_wait_list_wakes_every_waiter_once_per_wake_and_empties() {
        let list = WaitList::default();
        let counts: Vec<Arc<Count>> = (0..1000)
            .map(|_| Arc::new(Count(AtomicUsize::new(0))))
            .collect();
        let wakers: Vec<Waker> = counts.iter().map(|c| Waker::from(c.clone())).collect();
        for w in &wakers {
            list.register(w);
            // Polled again before any wake: not listed twice.
            list.register(w);
        }
        assert_eq!(list.0.0.borrow().len(), 1000);
        list.wake_all();
        assert!(counts.iter().all(|c| c.0.load(Ordering::Relaxed) == 1));
        assert!(list.0.0.borrow().is_empty());
        // Nothing registered: a wake wakes no one.
        list.wake_all();
        assert!(counts.iter().all(|c| c.0.load(Ordering::Relaxed) == 1));
    }
}
