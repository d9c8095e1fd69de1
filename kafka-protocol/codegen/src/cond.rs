//! Version conditions, kept as the set of versions (within the message's
//! valid range) where they hold, so the generated code tests only what can
//! vary and reads like a person wrote it (`version >= 9`).

use crate::schema::Versions;

/// The set of versions within `valid` where something holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cond {
    valid: Versions,
    /// Bit `i` is version `valid.lo + i`.
    bits: u128,
}

fn mask(valid: Versions) -> u128 {
    let n = (valid.hi - valid.lo + 1) as u32;
    if n >= 128 {
        u128::MAX
    } else {
        (1u128 << n) - 1
    }
}

impl Cond {
    /// "version is in `range`", for a message valid in `valid`.
    pub fn within(range: Option<Versions>, valid: Versions) -> Cond {
        let mut bits = 0u128;
        if let Some(r) = range.and_then(|r| r.intersect(valid)) {
            for v in r.lo..=r.hi {
                bits |= 1 << (v - valid.lo);
            }
        }
        Cond { valid, bits }
    }

    pub fn is_always(&self) -> bool {
        self.bits == mask(self.valid)
    }

    pub fn is_never(&self) -> bool {
        self.bits == 0
    }

    pub fn and(&self, other: &Cond) -> Cond {
        Cond {
            valid: self.valid,
            bits: self.bits & other.bits,
        }
    }

    pub fn not(&self) -> Cond {
        Cond {
            valid: self.valid,
            bits: !self.bits & mask(self.valid),
        }
    }

    /// The contiguous runs of versions where the condition holds.
    fn runs(&self) -> Vec<(i16, i16)> {
        let mut runs = Vec::new();
        let mut start: Option<i16> = None;
        for v in self.valid.lo..=self.valid.hi {
            let on = self.bits & (1 << (v - self.valid.lo)) != 0;
            match (on, start) {
                (true, None) => start = Some(v),
                (false, Some(s)) => {
                    runs.push((s, v - 1));
                    start = None;
                }
                _ => {}
            }
        }
        if let Some(s) = start {
            runs.push((s, self.valid.hi));
        }
        runs
    }

    /// The condition as a boolean expression over `version`.
    pub fn expr(&self) -> String {
        if self.is_always() {
            return "true".into();
        }
        if self.is_never() {
            return "false".into();
        }
        let runs = self.runs();
        if let [(lo, hi)] = runs[..] {
            if lo == hi {
                return format!("version == {lo}");
            }
            if lo == self.valid.lo {
                return format!("version <= {hi}");
            }
            if hi == self.valid.hi {
                return format!("version >= {lo}");
            }
            return format!("({lo}..={hi}).contains(&version)");
        }
        let alts: Vec<String> = runs
            .iter()
            .map(|&(lo, hi)| {
                if lo == hi {
                    lo.to_string()
                } else {
                    format!("{lo}..={hi}")
                }
            })
            .collect();
        format!("matches!(version, {})", alts.join(" | "))
    }

    /// Wraps `body` in an `if` as needed: unconditional for always, nothing
    /// for never.
    pub fn guard(&self, body: &str) -> String {
        if self.is_never() {
            String::new()
        } else if self.is_always() {
            format!("{body}\n")
        } else {
            format!("if {} {{ {body} }}\n", self.expr())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expressions() {
        let valid = Versions { lo: 3, hi: 13 };
        assert!(
            Cond::within(
                Some(Versions {
                    lo: 0,
                    hi: i16::MAX
                }),
                valid
            )
            .is_always()
        );
        assert_eq!(
            Cond::within(
                Some(Versions {
                    lo: 9,
                    hi: i16::MAX
                }),
                valid
            )
            .expr(),
            "version >= 9"
        );
        assert_eq!(
            Cond::within(Some(Versions { lo: 0, hi: 12 }), valid).expr(),
            "version <= 12"
        );
        assert_eq!(
            Cond::within(Some(Versions { lo: 5, hi: 7 }), valid).expr(),
            "(5..=7).contains(&version)"
        );
        let a = Cond::within(Some(Versions { lo: 5, hi: 7 }), valid).not();
        assert_eq!(a.expr(), "matches!(version, 3..=4 | 8..=13)");
        assert!(Cond::within(None, valid).is_never());
    }
}
