//! A single-threaded "wake everyone" notification, for waiters on one
//! shard (consumers long-polling a partition, shutdown).

use std::cell::{Cell, RefCell};
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll, Waker};

/// Wakes every waiter when something changes; a waiter that registered
/// before the change is always woken (no lost wake-ups).
#[derive(Default)]
pub struct LocalNotify {
    version: Cell<u64>,
    waiters: RefCell<Vec<Waker>>,
}

impl LocalNotify {
    pub fn notify_all(&self) {
        self.version.set(self.version.get() + 1);
        for w in self.waiters.borrow_mut().drain(..) {
            w.wake();
        }
    }

    /// A future that completes at the next `notify_all`.
    pub fn notified(&self) -> Notified<'_> {
        Notified {
            notify: self,
            start: self.version.get(),
        }
    }
}

pub struct Notified<'a> {
    notify: &'a LocalNotify,
    start: u64,
}

impl Future for Notified<'_> {
    type Output = ();
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if self.notify.version.get() != self.start {
            return Poll::Ready(());
        }
        let mut w = self.notify.waiters.borrow_mut();
        if !w.iter().any(|x| x.will_wake(cx.waker())) {
            w.push(cx.waker().clone());
        }
        Poll::Pending
    }
}
