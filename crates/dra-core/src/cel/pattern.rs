//! A constant `matches` pattern, compiled when the program is built, as
//! cel-go's `OptimizeRegex` plans it (the Kubernetes base environment
//! enables it: `apiserver/pkg/cel/environment/base.go`).
//!
//! A selector meets the same few attribute values on thousands of devices
//! (one model string per GPU type), so each thread remembers the last answers
//! by value: a repeated subject costs a hash and a comparison, as `==` does,
//! not a regex search (issue 37: `matches()` no slower per device than `==`).
//! The memo is a fixed table of slots: no allocation, and a subject never
//! seen before (a UUID) costs only the store.

use std::cell::RefCell;
use std::hash::BuildHasher;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use super::{cost, functions};

/// Slots per thread; a power of two.
const SLOTS: usize = 256;

/// Patterns are told apart by a number no other pattern gets, so a memo
/// entry cannot outlive its pattern into another one's.
static NEXT_ID: AtomicU64 = AtomicU64::new(0);

struct Slot {
    pattern: u64,
    subject: Arc<str>,
    matched: bool,
    cost: u64,
}

thread_local! {
    static MEMO: RefCell<Vec<Option<Slot>>> = RefCell::new((0..SLOTS).map(|_| None).collect());
}

#[derive(Debug)]
pub(crate) struct Pattern {
    id: u64,
    regex: Arc<regex::Regex>,
    /// Code points, for the cost.
    size: u64,
}

impl Pattern {
    /// `None` when the pattern does not compile: the general path then
    /// reports the error as it would without planning.
    pub(crate) fn new(pattern: &str) -> Option<Pattern> {
        Some(Pattern {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            regex: functions::regex(pattern).ok()?,
            size: pattern.chars().count() as u64,
        })
    }

    /// Whether the pattern matches anywhere in `subject` (Go's
    /// `regexp.MatchString`, unanchored), and what cel-go charges for it.
    pub(crate) fn is_match(&self, subject: &Arc<str>) -> (bool, u64) {
        let slot = foldhash::fast::FixedState::with_seed(0).hash_one((self.id, &**subject))
            as usize
            & (SLOTS - 1);
        MEMO.with(|memo| {
            let mut memo = memo.borrow_mut();
            match &memo[slot] {
                Some(s) if s.pattern == self.id && *s.subject == **subject => (s.matched, s.cost),
                _ => {
                    let matched = self.regex.is_match(subject);
                    let cost =
                        cost::matches_cost_of_sizes(subject.chars().count() as u64, self.size);
                    memo[slot] = Some(Slot {
                        pattern: self.id,
                        subject: Arc::clone(subject),
                        matched,
                        cost,
                    });
                    (matched, cost)
                }
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remembered_answers_are_the_pattern_s_own() {
        let gpu = Pattern::new("^A100-").unwrap();
        let mig = Pattern::new("g\\.[0-9]+gb$").unwrap();
        let subjects = ["A100-SXM4-80GB", "1g.10gb", "H100", "A100-", ""];
        // Twice, so the second round is answered from the memo; with
        // interleaved patterns, so a slot shared by two would show.
        for _ in 0..2 {
            for s in subjects {
                let s: Arc<str> = s.into();
                assert_eq!(gpu.is_match(&s).0, s.starts_with("A100-"), "{s}");
                assert_eq!(mig.is_match(&s).0, &*s == "1g.10gb", "{s}");
                // cel-go: ceil((1 + |s|) * 0.1) * ceil(|re| * 0.25).
                let text = ((1 + s.chars().count()) as f64 * 0.1).ceil() as u64;
                assert_eq!(gpu.is_match(&s).1, text * 2, "{s}");
                assert_eq!(mig.is_match(&s).1, text * 3, "{s}");
            }
        }
        // Many distinct subjects evict each other and stay right.
        for i in 0..5 * SLOTS {
            let s: Arc<str> = format!("A100-{i}").into();
            assert!(gpu.is_match(&s).0);
            assert!(!mig.is_match(&s).0);
        }
    }

    #[test]
    fn a_pattern_that_does_not_compile_is_not_planned() {
        assert!(Pattern::new("(").is_none());
    }
}
