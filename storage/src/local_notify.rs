//! A single-threaded "wake everyone" notification, for waiters on one
//! shard (consumers long-polling a partition, shutdown, a connection's
//! close, the Raft transport's stop).
//!
//! A waiter deregisters when its future is dropped. That matters: a
//! long poll races its notification against a timeout and against
//! shutdown, so most `Notified` futures are dropped unfired. Before this
//! was done, every long poll left its waker (and with it its whole task)
//! in the shutdown notifier's list until the broker stopped: memory grew
//! with every fetch and each poll scanned the ever longer list (30% of the
//! broker's CPU at 20,000 msg/s). The Raft transport's stop flag had the
//! same leak (every connection task's `select!` left a waker; 6-8 % of a
//! survivor's CPU after a kill -9 at 10,000 partitions) until it was
//! built on [`LocalFlag`].
//!
//! Here, in the lowest crate that needs it, so that the raft crate and
//! the broker share one implementation (the log's own `notify::Notify`
//! serves short waits that a `notify_all` always ends).

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll, Waker};

/// Wakes every waiter when something changes; a waiter that registered
/// before the change is always woken (no lost wake-ups).
#[derive(Default)]
pub struct LocalNotify {
    version: Cell<u64>,
    next_id: Cell<u64>,
    waiters: RefCell<HashMap<u64, Waker>>,
}

impl LocalNotify {
    pub fn notify_all(&self) {
        self.version.set(self.version.get() + 1);
        // Take the map first: a woken waker may drop a `Notified` of this
        // notifier, which borrows `waiters` again.
        let waiters = std::mem::take(&mut *self.waiters.borrow_mut());
        for (_, w) in waiters {
            w.wake();
        }
    }

    /// A future that completes at the next `notify_all`.
    pub fn notified(&self) -> Notified<'_> {
        Notified {
            notify: self,
            start: self.version.get(),
            id: None,
        }
    }

    /// Waiters registered now (for tests).
    #[cfg(test)]
    fn waiting(&self) -> usize {
        self.waiters.borrow().len()
    }
}

pub struct Notified<'a> {
    notify: &'a LocalNotify,
    start: u64,
    /// The key of this future's waker in `waiters`, once registered.
    id: Option<u64>,
}

impl Future for Notified<'_> {
    type Output = ();
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if self.notify.version.get() != self.start {
            self.id = None;
            return Poll::Ready(());
        }
        let id = match self.id {
            Some(id) => id,
            None => {
                let id = self.notify.next_id.get();
                self.notify.next_id.set(id + 1);
                self.id = Some(id);
                id
            }
        };
        let mut waiters = self.notify.waiters.borrow_mut();
        match waiters.get_mut(&id) {
            Some(w) if w.will_wake(cx.waker()) => {}
            Some(w) => *w = cx.waker().clone(),
            None => {
                waiters.insert(id, cx.waker().clone());
            }
        }
        Poll::Pending
    }
}

impl Drop for Notified<'_> {
    fn drop(&mut self) {
        if let Some(id) = self.id
            && let Ok(mut waiters) = self.notify.waiters.try_borrow_mut()
        {
            waiters.remove(&id);
        }
    }
}

/// A one-way switch for waiters on one shard: once set it stays set, and
/// everyone waiting (or who waits later) goes on.
#[derive(Default)]
pub struct LocalFlag {
    set: Cell<bool>,
    notify: LocalNotify,
}

impl LocalFlag {
    pub fn set(&self) {
        if !self.set.replace(true) {
            self.notify.notify_all();
        }
    }

    pub fn is_set(&self) -> bool {
        self.set.get()
    }

    /// Completes once the flag is set.
    pub async fn wait(&self) {
        while !self.set.get() {
            self.notify.notified().await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::task::Wake;

    struct Flag(std::sync::atomic::AtomicBool);
    impl Wake for Flag {
        fn wake(self: Arc<Self>) {
            self.0.store(true, std::sync::atomic::Ordering::SeqCst);
        }
    }

    #[test]
    fn a_flag_forgets_ended_waits_and_wakes_the_live_ones() {
        let flag = LocalFlag::default();
        let woken = Arc::new(Flag(false.into()));
        let waker = Waker::from(woken.clone());
        let mut cx = Context::from_waker(&waker);
        // Many waits that end unresolved (a select! whose other branch
        // won), each polled several times: none stays registered.
        for _ in 0..1000 {
            let mut w = Box::pin(flag.wait());
            for _ in 0..3 {
                assert!(w.as_mut().poll(&mut cx).is_pending());
            }
            assert_eq!(flag.notify.waiting(), 1);
        }
        assert_eq!(flag.notify.waiting(), 0);
        // Live waits are woken by `set` and then resolve.
        let mut a = Box::pin(flag.wait());
        let mut b = Box::pin(flag.wait());
        assert!(a.as_mut().poll(&mut cx).is_pending());
        assert!(b.as_mut().poll(&mut cx).is_pending());
        assert_eq!(flag.notify.waiting(), 2);
        flag.set();
        assert!(woken.0.load(std::sync::atomic::Ordering::SeqCst));
        assert!(a.as_mut().poll(&mut cx).is_ready());
        assert!(b.as_mut().poll(&mut cx).is_ready());
        assert!(flag.is_set());
        // A wait begun after the set resolves at once.
        assert!(Box::pin(flag.wait()).as_mut().poll(&mut cx).is_ready());
    }

    #[test]
    fn dropped_waiters_leave_no_trace_and_live_ones_are_woken() {
        let n = LocalNotify::default();
        let flag = Arc::new(Flag(false.into()));
        let waker = Waker::from(flag.clone());
        let mut cx = Context::from_waker(&waker);
        for _ in 0..1000 {
            let mut f = Box::pin(n.notified());
            assert!(f.as_mut().poll(&mut cx).is_pending());
        }
        assert_eq!(n.waiting(), 0, "dropped futures must deregister");
        let mut live = Box::pin(n.notified());
        assert!(live.as_mut().poll(&mut cx).is_pending());
        assert!(live.as_mut().poll(&mut cx).is_pending());
        assert_eq!(n.waiting(), 1);
        n.notify_all();
        assert!(flag.0.load(std::sync::atomic::Ordering::SeqCst));
        assert!(live.as_mut().poll(&mut cx).is_ready());
        assert_eq!(n.waiting(), 0);
        // A future created before a notification but polled after it is
        // ready at once (no lost wake-up).
        let mut late = Box::pin(n.notified());
        n.notify_all();
        assert!(late.as_mut().poll(&mut cx).is_ready());
    }
}
