//! Kafka's `Rate` over a `SampledStat` (org.apache.kafka.common.metrics):
//! `samples` windows of `window_ms` each; a value is added to the current
//! window, a new window starts once the current one is `window_ms` old,
//! windows older than `samples * window_ms` are reset, and the rate is
//! the sum over the windows divided by the elapsed time since the oldest
//! one, counted as at least `samples - 1` full windows (so a first burst
//! is measured over ~10 s, not over the few milliseconds it took).
//!
//! The throttle time of a rate above its bound is Kafka's
//! (`QuotaUtils.throttleTime`): the delay X that brings the observed rate
//! O over the window W down to the bound T, O * W / (W + X) = T, so
//! X = (O - T) / T * W.

/// The sample windows (`quota.window.num`, `quota.window.size.seconds`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WindowConfig {
    pub samples: usize,
    pub window_ms: i64,
}

#[derive(Debug, Clone, Copy)]
struct Sample {
    start_ms: i64,
    value: f64,
}

/// One sampled rate (per second).
#[derive(Debug, Clone)]
pub struct Rate {
    samples: Vec<Sample>,
    current: usize,
}

impl Default for Rate {
    fn default() -> Self {
        Self::new()
    }
}

impl Rate {
    pub fn new() -> Self {
        Rate {
            samples: Vec::new(),
            current: 0,
        }
    }

    /// Adds `value` at `now_ms` (a negative value takes back an earlier
    /// record, as Kafka's `unrecordQuotaSensor`).
    pub fn record(&mut self, cfg: WindowConfig, value: f64, now_ms: i64) {
        if self.samples.is_empty() {
            self.samples.push(Sample {
                start_ms: now_ms,
                value: 0.0,
            });
            self.current = 0;
        }
        if now_ms - self.samples[self.current].start_ms >= cfg.window_ms {
            self.current = (self.current + 1) % cfg.samples.max(1);
            let fresh = Sample {
                start_ms: now_ms,
                value: 0.0,
            };
            if self.current >= self.samples.len() {
                self.samples.push(fresh);
            } else {
                self.samples[self.current] = fresh;
            }
        }
        self.samples[self.current].value += value;
    }

    /// Resets windows older than all the windows together
    /// (`purgeObsoleteSamples`).
    fn purge(&mut self, cfg: WindowConfig, now_ms: i64) {
        let expire_ms = cfg.samples as i64 * cfg.window_ms;
        for s in &mut self.samples {
            if now_ms - s.start_ms >= expire_ms {
                *s = Sample {
                    start_ms: now_ms,
                    value: 0.0,
                };
            }
        }
    }

    /// The time the rate is measured over, in ms (`Rate.windowSize`).
    pub fn window_size_ms(&mut self, cfg: WindowConfig, now_ms: i64) -> i64 {
        self.purge(cfg, now_ms);
        let oldest = self
            .samples
            .iter()
            .map(|s| s.start_ms)
            .min()
            .unwrap_or(now_ms);
        let mut elapsed = now_ms - oldest;
        let full = elapsed / cfg.window_ms;
        let min_full = cfg.samples as i64 - 1;
        if full < min_full {
            elapsed += (min_full - full) * cfg.window_ms;
        }
        elapsed.max(1)
    }

    /// The rate per second at `now_ms`.
    pub fn measure(&mut self, cfg: WindowConfig, now_ms: i64) -> f64 {
        let window_ms = self.window_size_ms(cfg, now_ms);
        let total: f64 = self.samples.iter().map(|s| s.value).sum();
        total / (window_ms as f64 / 1000.0)
    }

    /// How long (ms) the client must wait for the rate to come back to
    /// `bound`: 0 while within it.
    pub fn throttle_ms(&mut self, cfg: WindowConfig, bound: f64, now_ms: i64) -> i64 {
        let observed = self.measure(cfg, now_ms);
        if observed <= bound || bound <= 0.0 {
            return 0;
        }
        let window_ms = self.window_size_ms(cfg, now_ms) as f64;
        ((observed - bound) / bound * window_ms).round() as i64
    }

    /// Records `value` then answers the throttle time, as Kafka's
    /// `Sensor.record` with a quota followed by `QuotaUtils.throttleTime`.
    pub fn record_and_throttle_ms(
        &mut self,
        cfg: WindowConfig,
        value: f64,
        bound: f64,
        now_ms: i64,
    ) -> i64 {
        self.record(cfg, value, now_ms);
        self.throttle_ms(cfg, bound, now_ms)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CFG: WindowConfig = WindowConfig {
        samples: 11,
        window_ms: 1000,
    };

    #[test]
    fn a_first_burst_is_measured_over_ten_windows() {
        let mut r = Rate::new();
        r.record(CFG, 10_000.0, 0);
        assert_eq!(r.window_size_ms(CFG, 0), 10_000);
        assert!((r.measure(CFG, 0) - 1000.0).abs() < 1e-9);
    }

    #[test]
    fn throttle_is_kafkas_formula() {
        let mut r = Rate::new();
        // 2000 B/s observed over 10 s against 1000 B/s: wait 10 s.
        let t = r.record_and_throttle_ms(CFG, 20_000.0, 1000.0, 0);
        assert_eq!(t, 10_000);
        let mut r = Rate::new();
        assert_eq!(r.record_and_throttle_ms(CFG, 5_000.0, 1000.0, 0), 0);
    }

    #[test]
    fn old_windows_expire() {
        let mut r = Rate::new();
        r.record(CFG, 50_000.0, 0);
        for s in 1..=12 {
            r.record(CFG, 0.0, s * 1000);
        }
        assert_eq!(r.measure(CFG, 12_000), 0.0);
    }
}
