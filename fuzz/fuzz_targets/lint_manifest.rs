//! Structure-aware: valid manifests (seeds from testdata/corpus and
//! examples/) mutated on their parsed tree (a value replaced by one of
//! another type, a key dropped or renamed, a list item duplicated, a string
//! turned into a limit-sized one) and written back as YAML, then linted.
#![no_main]

mod common;

use dra_core::tree::{Entry, Node, Value};
use libfuzzer_sys::{fuzz_mutator, fuzz_target};

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        common::lint_text(text);
    }
});

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

fn count(n: &Node) -> usize {
    1 + match &n.value {
        Value::Seq(items) => items.iter().map(count).sum(),
        Value::Map(es) => es.iter().map(|e| count(&e.value)).sum(),
        _ => 0,
    }
}

/// The `k`-th node in pre-order.
fn nth<'a>(n: &'a mut Node, k: &mut usize) -> Option<&'a mut Node> {
    if *k == 0 {
        return Some(n);
    }
    *k -= 1;
    match &mut n.value {
        Value::Seq(items) => {
            for c in dra_core::tree::items_mut(items).iter_mut() {
                if let Some(x) = nth(c, k) {
                    return Some(x);
                }
            }
            None
        }
        Value::Map(es) => {
            for e in dra_core::tree::items_mut(es).iter_mut() {
                if let Some(x) = nth(&mut e.value, k) {
                    return Some(x);
                }
            }
            None
        }
        _ => None,
    }
}

const KEYS: &[&str] = &[
    "devices",
    "name",
    "driver",
    "pool",
    "nodeName",
    "allNodes",
    "nodeSelector",
    "sharedCounters",
    "consumesCounters",
    "counters",
    "counterSet",
    "capacity",
    "attributes",
    "requests",
    "exactly",
    "firstAvailable",
    "count",
    "allocationMode",
    "selectors",
    "cel",
    "expression",
    "constraints",
    "matchAttribute",
    "config",
    "tolerations",
    "taints",
    "compatibilityGroups",
    "perDeviceNodeSelection",
    "allowMultipleAllocations",
    "bindingConditions",
    "extendedResourceName",
    "deviceClassName",
];

fn mutate(root: &mut Node, rng: &mut Rng) {
    let total = count(root);
    let mut k = rng.below(total);
    let Some(node) = nth(root, &mut k) else {
        return;
    };
    let s = |t: &str| Node::string(t);
    match rng.below(8) {
        0 => *node = Node::new(Value::Int(rng.next() as i64 % 1000 - 10), node.span),
        1 => {
            *node = s([
                "",
                "-",
                "a.b",
                "ÄÖ",
                "1Gi",
                "true",
                "x".repeat(300).as_str(),
            ][rng.below(7)])
        }
        2 => {
            *node = Node::new(
                Value::Seq(vec![node.clone(), node.clone()].into()),
                node.span,
            )
        }
        3 => *node = Node::new(Value::Null, node.span),
        4 => {
            if let Value::Map(es) = &mut node.value {
                if !es.is_empty() {
                    let i = rng.below(es.len());
                    dra_core::tree::edit(es, |es| es.remove(i));
                }
            }
        }
        5 => {
            if let Value::Map(es) = &mut node.value {
                let key = KEYS[rng.below(KEYS.len())];
                dra_core::tree::edit(es, |es| {
                    es.push(Entry {
                        key: key.into(),
                        key_span: Default::default(),
                        value: s("x"),
                    })
                });
            }
        }
        6 => {
            if let Value::Seq(items) = &mut node.value {
                if let Some(first) = items.first().cloned() {
                    let n = rng.below(200);
                    dra_core::tree::edit(items, |items| {
                        items.extend(std::iter::repeat_n(first, n))
                    });
                }
            }
        }
        _ => {
            if let Value::Map(es) = &mut node.value {
                if !es.is_empty() {
                    let i = rng.below(es.len());
                    let key = KEYS[rng.below(KEYS.len())];
                    dra_core::tree::items_mut(es)[i].key = key.into();
                }
            }
        }
    }
}

fuzz_mutator!(|data: &mut [u8], size: usize, max_size: usize, seed: u32| {
    let parsed = std::str::from_utf8(&data[..size])
        .ok()
        .map(|t| dra_core::yaml::load(t, dra_core::yaml::Limits::default()));
    if let Some(loaded) = parsed.filter(|l| l.errors.is_empty() && !l.documents.is_empty()) {
        let mut rng = Rng(u64::from(seed) | 1);
        let mut out = String::new();
        for mut doc in loaded.documents {
            for _ in 0..=rng.below(3) {
                mutate(&mut doc.root, &mut rng);
            }
            out.push_str("---\n");
            out.push_str(&doc.root.to_yaml());
        }
        if out.len() <= max_size {
            data[..out.len()].copy_from_slice(out.as_bytes());
            return out.len();
        }
    }
    libfuzzer_sys::fuzzer_mutate(data, size, max_size)
});
