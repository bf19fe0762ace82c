//! Why no device passes a request's selectors, named as the defect: the
//! first selector (the class's, then the request's own, in the order the
//! allocator applies them) that none of the devices left passes, the first
//! of its `&&` terms that none passes alone, and, when that term compares
//! what a device holds with a constant, what the devices hold there
//! instead (`model == "H100"`: they hold "h100"). Pure: explain gathers the
//! devices and renders the answer.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::cel::terms::{terms, Comparison};
use crate::cel::{Env, Program};
use crate::inventory::InventoryDevice;

/// The selector term that keeps every device out, and what the devices
/// hold where it looks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SelectorMiss {
    /// For a `firstAvailable` request none of whose alternatives fits: the
    /// alternative (`request/sub`) this is about.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alternative: Option<String>,
    /// The DeviceClass whose selector it is; `None`: the request's own.
    pub class: Option<String>,
    /// The selector's index in its list.
    pub index: usize,
    /// The term no device passes: the whole selector when it has one term,
    /// or when no one term rules out every device alone.
    pub term: String,
    /// Devices it was tried on: those the selectors before it let through.
    pub devices: usize,
    /// Devices outside those (of other nodes) on which the term holds: the
    /// value exists, it is elsewhere (no typo to suggest then).
    pub holds_elsewhere: usize,
    /// What the term compares, when it compares one read of the device
    /// with a constant: the read, the operator and the constant as written.
    pub comparison: Option<Compared>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Compared {
    pub read: String,
    pub op: String,
    pub constant: String,
    /// What the devices hold at `read` (CEL's notation), most devices
    /// first, at most [`SHOWN`].
    pub held: Vec<Held>,
    /// Further distinct values not listed.
    pub other_values: usize,
    /// Devices on which reading it fails (`no such key`).
    pub without: usize,
    /// A held value the constant likely meant (equal but for case, or
    /// close): the fix.
    pub likely: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Held {
    pub value: String,
    pub devices: usize,
}

/// Values listed before "and N more".
pub const SHOWN: usize = 5;

/// Distinct values tallied per term; past it, further values are counted
/// as devices only (a per-device UUID would otherwise be kept for each).
const MAX_DISTINCT: usize = 10_000;

/// Streams the devices to look at, each with whether it is on the nodes the
/// cause is about (`true`) or elsewhere: called once per pass, in the same
/// order each time, so that no device's CEL view is kept between passes
/// (a fleet has hundreds of thousands).
pub type DeviceStream<'a> = &'a dyn Fn(&mut dyn FnMut(&InventoryDevice, bool));

/// The selectors' miss on the devices of the cause's nodes, or `None` when
/// some device passes them all, a selector does not compile, or one raises
/// a runtime error on a device (the allocator's error is then the cause,
/// told elsewhere). `class`: the class's name and selectors.
pub fn diagnose(
    class: Option<(&str, &[String])>,
    request: &[String],
    devices: DeviceStream<'_>,
    env: &Env,
) -> Option<SelectorMiss> {
    let mut selectors: Vec<(bool, usize, &String)> = Vec::new();
    if let Some((_, s)) = class {
        selectors.extend(s.iter().enumerate().map(|(i, e)| (true, i, e)));
    }
    selectors.extend(request.iter().enumerate().map(|(i, e)| (false, i, e)));
    let programs: Vec<Program> = selectors
        .iter()
        .map(|(_, _, e)| Program::compile(e, env).ok())
        .collect::<Option<_>>()?;
    // How far a device gets: the first selector it fails, `Err` when one
    // raises. Every device of the cause's nodes failing, the miss is the
    // selector the furthest of them fail.
    let first_fail = |d: &InventoryDevice| -> Result<Option<usize>, ()> {
        for (i, p) in programs.iter().enumerate() {
            match p.matches(&d.cel) {
                Ok(true) => {}
                Ok(false) => return Ok(Some(i)),
                Err(_) => return Err(()),
            }
        }
        Ok(None)
    };
    let (mut furthest, mut left, mut raised, mut passed) = (None::<usize>, 0usize, false, false);
    devices(&mut |d, here| {
        if !here || raised || passed {
            return;
        }
        match first_fail(d) {
            Err(()) => raised = true,
            Ok(None) => passed = true,
            Ok(Some(i)) if Some(i) > furthest => (furthest, left) = (Some(i), 1),
            Ok(Some(i)) if Some(i) == furthest => left += 1,
            Ok(Some(_)) => {}
        }
    });
    let k = furthest.filter(|_| !raised && !passed)?;
    let (of_class, index, expr) = selectors[k];
    // The terms of that selector, on the devices that reach it.
    let parts = terms(expr).unwrap_or_default();
    let compiled: Vec<Option<Program>> = parts
        .iter()
        .map(|t| Program::compile(&t.text, env).ok())
        .collect();
    let reads: Vec<Option<Program>> = parts
        .iter()
        .map(|t| {
            t.comparison
                .as_ref()
                .and_then(|c| Program::compile_any(&c.read, env).ok())
        })
        .collect();
    let mut holds = vec![false; parts.len()];
    let mut tallies: Vec<Tally> = vec![Tally::default(); parts.len()];
    devices(&mut |d, here| {
        if !here || first_fail(d) != Ok(Some(k)) {
            return;
        }
        for (t, p) in compiled.iter().enumerate() {
            // Alone, a term may raise where the selector's guard before it
            // would have stopped (`has(x) && x == ...`): no pass either.
            if p.as_ref().is_some_and(|p| p.matches(&d.cel) == Ok(true)) {
                holds[t] = true;
            }
            if let Some(read) = &reads[t] {
                tallies[t].add(read.evaluate(&d.cel).ok().map(|v| v.to_string()));
            }
        }
    });
    let found = (0..parts.len()).find(|&t| compiled[t].is_some() && !holds[t]);
    let (term, term_program, mut comparison) = match found {
        Some(t) => (
            parts[t].text.clone(),
            compiled[t].as_ref(),
            parts[t]
                .comparison
                .as_ref()
                .filter(|_| reads[t].is_some())
                .map(|c| std::mem::take(&mut tallies[t]).compared(c)),
        ),
        None => (expr.trim().to_owned(), Some(&programs[k]), None),
    };
    // Where the term holds on devices of other nodes that reach it.
    let mut holds_elsewhere = 0;
    devices(&mut |d, here| {
        let reaches = !here && programs[..k].iter().all(|p| p.matches(&d.cel) == Ok(true));
        if reaches && term_program.is_some_and(|p| p.matches(&d.cel) == Ok(true)) {
            holds_elsewhere += 1;
        }
    });
    if holds_elsewhere > 0 {
        if let Some(c) = comparison.as_mut() {
            c.likely = None;
        }
    }
    Some(SelectorMiss {
        alternative: None,
        class: of_class.then(|| class.map(|(n, _)| n.to_owned())).flatten(),
        index,
        term,
        devices: left,
        holds_elsewhere,
        comparison,
    })
}

/// What the devices hold at a term's read.
#[derive(Clone, Default)]
struct Tally {
    counts: BTreeMap<String, usize>,
    /// Devices whose value came past [`MAX_DISTINCT`] distinct ones.
    untallied: usize,
    without: usize,
}

impl Tally {
    fn add(&mut self, value: Option<String>) {
        match value {
            None => self.without += 1,
            Some(v) => {
                let room = self.counts.len() < MAX_DISTINCT;
                match self.counts.get_mut(&v) {
                    Some(n) => *n += 1,
                    None if room => {
                        self.counts.insert(v, 1);
                    }
                    None => self.untallied += 1,
                }
            }
        }
    }

    fn compared(self, c: &Comparison) -> Compared {
        let mut held: Vec<Held> = self
            .counts
            .into_iter()
            .map(|(value, devices)| Held { value, devices })
            .collect();
        held.sort_by(|a, b| {
            b.devices
                .cmp(&a.devices)
                .then_with(|| a.value.cmp(&b.value))
        });
        let likely = likely(&c.constant, &held);
        let other_values = held.len().saturating_sub(SHOWN) + usize::from(self.untallied > 0);
        held.truncate(SHOWN);
        Compared {
            read: c.read.clone(),
            op: c.op.to_owned(),
            constant: c.constant.clone(),
            held,
            other_values,
            without: self.without,
            likely,
        }
    }
}

/// A held value the constant was likely meant to be: the same but for
/// case, else the closest by Jaro-Winkler (as `did you mean`).
fn likely(constant: &str, held: &[Held]) -> Option<String> {
    if let Some(h) = held.iter().find(|h| h.value.eq_ignore_ascii_case(constant)) {
        return Some(h.value.clone());
    }
    crate::suggest::did_you_mean(constant, held.iter().map(|h| h.value.as_str())).map(str::to_owned)
}

#[cfg(test)]
#[path = "selector_miss_tests.rs"]
mod tests;
