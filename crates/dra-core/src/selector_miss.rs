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
use crate::cel::{Env, Program, Value};
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
                tallies[t].add(read.evaluate(&d.cel).ok().map(|v| shown(&v)));
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

/// Where the devices of a [`SelectorMiss`] are, for its words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// The nodes a cause is about.
    Nodes,
    /// The whole inventory.
    Inventory,
}

impl SelectorMiss {
    /// One line: the selector, the term false on every device, what the
    /// devices hold where it reads, and the likely fix.
    pub fn text(&self, scope: Scope) -> String {
        let place = match scope {
            Scope::Nodes => "on these nodes",
            Scope::Inventory => "in the inventory",
        };
        let (whose, scope) = match (&self.alternative, &self.class) {
            (None, Some(class)) => (
                format!("class {class}, selector #{}", self.index),
                place.to_owned(),
            ),
            (None, None) => (
                format!("the request's selector #{}", self.index),
                format!("of its class {place}"),
            ),
            (Some(a), Some(class)) => (
                format!("alternative {a}: class {class}, selector #{}", self.index),
                place.to_owned(),
            ),
            (Some(a), None) => (
                format!("alternative {a}, its selector #{}", self.index),
                format!("of its class {place}"),
            ),
        };
        let devices = |n: usize| format!("{n} device{}", if n == 1 { "" } else { "s" });
        let all = if self.devices == 1 {
            "the one device".to_owned()
        } else {
            format!("all {}", devices(self.devices))
        };
        let mut text = format!("{whose}: {} is false on {all} {scope}", self.term);
        if let Some(c) = &self.comparison {
            let mut parts: Vec<String> = c
                .held
                .iter()
                .map(|h| format!("{} on {}", h.value, devices(h.devices)))
                .collect();
            if c.other_values > 0 {
                parts.push(format!("{} other values", c.other_values));
            }
            if c.without > 0 {
                parts.push(format!("missing on {}", c.without));
            }
            text.push_str(&format!("; {} is {}", c.read, parts.join(", ")));
            if let Some(l) = &c.likely {
                text.push_str(&format!(": did you mean {l}?"));
            }
        }
        if self.holds_elsewhere > 0 {
            text.push_str(&format!(
                " (it holds on {} of other nodes)",
                devices(self.holds_elsewhere)
            ));
        }
        text
    }
}

/// A held value as CEL would write it, so that it can be pasted into the
/// selector: `quantity("80Gi")`, not the canonical number of bytes.
fn shown(v: &Value) -> String {
    match v {
        Value::Quantity(q) => format!("quantity({:?})", q.human()),
        Value::Semver(s) => format!("semver({:?})", s.to_string()),
        _ => v.to_string(),
    }
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
        // A typo is in a string the term asks to equal; a bound (`>= 8`,
        // `isGreaterThan(quantity("100Gi"))`) one digit from a held value
        // is no misspelling.
        let quoted = c.constant.starts_with(['"', '\'']);
        let likely = (c.op == "==" && quoted)
            .then(|| likely(&c.constant, &held))
            .flatten();
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

/// A held value the constant was likely meant to be: one typo away (a
/// letter's case, two neighbours swapped, a character more or less). A
/// changed character is no typo to suggest: `a100` and `h100`, `v5e` and
/// `v5p` are different devices.
fn likely(constant: &str, held: &[Held]) -> Option<String> {
    let unquoted = |s: &str| -> String {
        let t = s.trim();
        for q in ['"', '\''] {
            if let Some(inner) = t.strip_prefix(q).and_then(|r| r.strip_suffix(q)) {
                return inner.to_owned();
            }
        }
        t.to_owned()
    };
    let want = unquoted(constant);
    held.iter()
        .find(|h| one_typo(&want, &unquoted(&h.value)))
        .map(|h| h.value.clone())
}

fn one_typo(a: &str, b: &str) -> bool {
    if a == b {
        return false;
    }
    if a.eq_ignore_ascii_case(b) {
        return true;
    }
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    match a.len() as isize - b.len() as isize {
        0 => {
            let diff: Vec<usize> = (0..a.len()).filter(|&i| a[i] != b[i]).collect();
            matches!(diff[..], [i, j] if j == i + 1 && a[i] == b[j] && a[j] == b[i])
        }
        1 => dropped_one(&a, &b),
        -1 => dropped_one(&b, &a),
        _ => false,
    }
}

/// `short` is `long` with one character left out.
fn dropped_one(long: &[char], short: &[char]) -> bool {
    let at = long.iter().zip(short).take_while(|(x, y)| x == y).count();
    long[at + 1..] == short[at..]
}

#[cfg(test)]
#[path = "selector_miss_tests.rs"]
mod tests;
