//! A first-come, first-served turnstile for tasks of one shard: they pass
//! one at a time, in the order in which they arrived.
//!
//! Why: the appends of one partition must check and record idempotent
//! producers' sequences in the order their requests arrived. A new leader
//! first rebuilds that state from its log (an await); the appends that
//! arrive meanwhile queued on a `futures_util` mutex, which wakes waiters
//! in no particular order, so a producer's later batch could be checked
//! before its earlier one and was refused as out of order, which
//! librdkafka treats as fatal (found by the cluster soak).

use std::cell::{Cell, RefCell};
use std::collections::BTreeSet;

use crate::notify::LocalNotify;

#[derive(Default)]
pub struct Turnstile {
    /// The ticket the next arrival takes.
    next: Cell<u64>,
    /// The ticket whose holder may pass now.
    serving: Cell<u64>,
    /// Tickets whose holders gave up before their turn came.
    abandoned: RefCell<BTreeSet<u64>>,
    turn_changed: LocalNotify,
}

/// The right to pass; the next in line goes when it is dropped. Dropped
/// before its turn came (the waiting task was cancelled), it gives the
/// turn up.
pub struct Turn<'a> {
    gate: &'a Turnstile,
    ticket: u64,
}

impl Turnstile {
    /// Takes a ticket at once (on the first poll, so arrival order is
    /// the order of first polls) and waits for its turn.
    pub async fn enter(&self) -> Turn<'_> {
        let ticket = self.next.get();
        self.next.set(ticket + 1);
        // Made before waiting, so a cancelled wait still gives the turn up.
        let turn = Turn { gate: self, ticket };
        while self.serving.get() != ticket {
            let changed = self.turn_changed.notified();
            if self.serving.get() == ticket {
                break;
            }
            changed.await;
        }
        turn
    }

    fn advance(&self) {
        let mut serving = self.serving.get() + 1;
        let mut abandoned = self.abandoned.borrow_mut();
        while abandoned.remove(&serving) {
            serving += 1;
        }
        drop(abandoned);
        self.serving.set(serving);
        self.turn_changed.notify_all();
    }
}

impl Drop for Turn<'_> {
    fn drop(&mut self) {
        if self.gate.serving.get() == self.ticket {
            self.gate.advance();
        } else {
            self.gate.abandoned.borrow_mut().insert(self.ticket);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::rc::Rc;
    use std::time::Duration;

    use super::*;

    #[test]
    fn tasks_pass_in_arrival_order_and_a_cancelled_one_gives_up_its_turn() {
        let mut rt = monoio::RuntimeBuilder::<monoio::LegacyDriver>::new()
            .enable_timer()
            .build()
            .unwrap();
        rt.block_on(async {
            let gate = Rc::new(Turnstile::default());
            let order = Rc::new(RefCell::new(Vec::new()));
            // The first holder keeps the turn across an await.
            let first = gate.enter().await;
            let mut tasks = Vec::new();
            for i in 0..5u32 {
                let (gate, order) = (gate.clone(), order.clone());
                tasks.push(monoio::spawn(async move {
                    // Later arrivals would finish their wait sooner.
                    let turn = gate.enter().await;
                    monoio::time::sleep(Duration::from_millis(u64::from(5 - i))).await;
                    order.borrow_mut().push(i);
                    drop(turn);
                }));
            }
            // One more arrives and is cancelled while it waits.
            let cancelled = {
                let gate = gate.clone();
                monoio::time::timeout(Duration::from_millis(1), async move {
                    let _t = gate.enter().await;
                })
                .await
            };
            assert!(cancelled.is_err());
            monoio::time::sleep(Duration::from_millis(5)).await;
            assert!(
                order.borrow().is_empty(),
                "nobody passes while the turn is held"
            );
            drop(first);
            for t in tasks {
                t.await;
            }
            assert_eq!(*order.borrow(), vec![0, 1, 2, 3, 4]);
            // The abandoned ticket did not block the gate.
            let _t = gate.enter().await;
        });
    }
}
