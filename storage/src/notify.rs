//! A tiny single-threaded broadcast: tasks wait for "something changed"
//! (a flush finished, the I/O role was released). No locks: a log lives
//! on one thread (DESIGN.md invariant 3).

use std::cell::{Cell, RefCell};
use std::future::poll_fn;
use std::task::{Poll, Waker};

#[derive(Default)]
pub struct Notify {
    generation: Cell<u64>,
    wakers: RefCell<Vec<Waker>>,
}

impl Notify {
    pub fn notify_all(&self) {
        self.generation.set(self.generation.get() + 1);
        for w in self.wakers.borrow_mut().drain(..) {
            w.wake();
        }
    }

    /// Resolves at the next `notify_all` after this call.
    pub async fn wait(&self) {
        let start = self.generation.get();
        poll_fn(|cx| {
            if self.generation.get() != start {
                Poll::Ready(())
            } else {
                self.wakers.borrow_mut().push(cx.waker().clone());
                Poll::Pending
            }
        })
        .await
    }
}
