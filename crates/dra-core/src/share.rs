//! Identical subtrees of an inventory made one (issue 37).
//!
//! A cluster's ResourceSlices repeat themselves: every partition of a GPU
//! consumes the same counters, every device of a model has the same
//! capacity, and each attribute is a one-entry map (`{string: A100}`) that
//! thousands of devices write alike. Readers of an inventory (the
//! allocator, `explain`, `capacity`, `devices`) never point into an
//! object's lines, so its nodes can drop their spans, as a cluster's
//! objects have none, and then each list that equals one already seen is
//! that one: at 20,000 nodes this is most of the memory. The loader shares
//! lists as it ends them ([`crate::yaml::Limits::share`]), so a repeated
//! list is never allocated. `lint`, which points at lines, never shares;
//! nor does a reader that tells nodes apart by their address (the RBAC
//! rules compare roles' rules so), since equal nodes of two objects may
//! now be one.

use std::hash::{BuildHasher, Hash, Hasher};

use hashbrown::HashTable;

use crate::tree::{Entry, List, Node, Span, Value};

type State = foldhash::fast::FixedState;
type FoldHasher = foldhash::fast::FoldHasher<'static>;

/// The lists seen so far, each once.
#[derive(Default)]
pub struct Sharing {
    seqs: HashTable<List<Node>>,
    maps: HashTable<List<Entry>>,
    hasher: State,
}

thread_local! {
    /// A worker's tables, kept between the parts it loads: fresh tables
    /// growing to a part's lists are fresh pages each time.
    static SPARE: std::cell::Cell<Option<Sharing>> = const { std::cell::Cell::new(None) };
}

impl Sharing {
    /// This thread's tables, empty.
    pub fn reused() -> Sharing {
        SPARE.with(|s| s.take()).unwrap_or_default()
    }

    /// Empties the tables and keeps them for this thread's next
    /// [`Sharing::reused`] (what is shared stays shared).
    pub fn give_back(mut self) {
        self.seqs.clear();
        self.maps.clear();
        SPARE.with(|s| s.set(Some(self)));
    }

    /// The entries `stack[mark..]` as a list, taken off the stack: their
    /// spans dropped, and the list seen before when an equal one was. Their
    /// own lists must be shared already.
    pub fn entries(&mut self, stack: &mut Vec<Entry>, mark: usize) -> List<Entry> {
        for e in &mut stack[mark..] {
            e.key_span = Span::default();
            e.value.span = Span::default();
        }
        share(
            &mut self.maps,
            &self.hasher,
            stack,
            mark,
            shallow_entry,
            same_entry,
        )
    }

    /// [`Sharing::entries`] for the items of a sequence.
    pub fn items(&mut self, stack: &mut Vec<Node>, mark: usize) -> List<Node> {
        for n in &mut stack[mark..] {
            n.span = Span::default();
        }
        share(
            &mut self.seqs,
            &self.hasher,
            stack,
            mark,
            shallow_node,
            same_node,
        )
    }

    /// Shares a tree already built (by the general loader): every list
    /// under `node`, and `node`'s own, which keeps its span.
    pub fn share_below(&mut self, node: &mut Node) {
        let mut stack = Vec::new();
        match &mut node.value {
            Value::Seq(items) => {
                stack.extend(std::mem::take(items).iter().cloned());
                for n in &mut stack {
                    self.share_below(n);
                }
                *items = self.items(&mut stack, 0);
            }
            Value::Map(entries) => {
                let mut stack: Vec<Entry> = std::mem::take(entries).iter().cloned().collect();
                for e in &mut stack {
                    self.share_below(&mut e.value);
                }
                *entries = self.entries(&mut stack, 0);
            }
            _ => {}
        }
    }
}

/// `stack[mark..]` as a list, taken off the stack: the one in `seen` that
/// equals it, or a new one, then kept there.
fn share<T>(
    seen: &mut HashTable<List<T>>,
    state: &State,
    stack: &mut Vec<T>,
    mark: usize,
    // Generic, not `fn` pointers: each list's hash and comparison are
    // inlined on the loader's hot path.
    shallow: impl Fn(&T, &mut FoldHasher) + Copy,
    same: impl Fn(&T, &T) -> bool + Copy,
) -> List<T> {
    let hash = hash_with(state, &stack[mark..], shallow);
    if let Some(list) = seen.find(hash, |l| same_list(l, &stack[mark..], same)) {
        stack.truncate(mark);
        return list.clone();
    }
    let list: List<T> = stack.drain(mark..).collect();
    seen.insert_unique(hash, list.clone(), |l| hash_with(state, l, shallow));
    list
}

fn hash_with<T>(state: &State, list: &[T], item: impl Fn(&T, &mut FoldHasher)) -> u64 {
    let mut h = state.build_hasher();
    list.len().hash(&mut h);
    for i in list {
        item(i, &mut h);
    }
    h.finish()
}

/// A node's hash, its lists by identity: they are already shared, so two
/// equal lists are the same list.
fn shallow_node(n: &Node, h: &mut FoldHasher) {
    match &n.value {
        Value::Null => 0u8.hash(h),
        Value::Bool(b) => (1u8, b).hash(h),
        Value::Int(i) => (2u8, i).hash(h),
        Value::Float(f) => (3u8, f.to_bits()).hash(h),
        // Interned: equal strings are one string.
        Value::Str(t) => (4u8, t.as_str().as_ptr(), t.len(), t.style() as u8).hash(h),
        Value::Seq(l) => (5u8, l.as_ptr()).hash(h),
        Value::Map(l) => (6u8, l.as_ptr()).hash(h),
    }
}

fn shallow_entry(e: &Entry, h: &mut FoldHasher) {
    (e.key.as_str().as_ptr(), e.key.len()).hash(h);
    shallow_node(&e.value, h);
}

/// Equal as shared subtrees are: scalars by value (floats by their bits,
/// strings with their style), lists by identity, spans all empty.
fn same_node(a: &Node, b: &Node) -> bool {
    a.span == b.span
        && match (&a.value, &b.value) {
            (Value::Null, Value::Null) => true,
            (Value::Bool(x), Value::Bool(y)) => x == y,
            (Value::Int(x), Value::Int(y)) => x == y,
            (Value::Float(x), Value::Float(y)) => x.to_bits() == y.to_bits(),
            (Value::Str(x), Value::Str(y)) => x == y && x.style() == y.style(),
            (Value::Seq(x), Value::Seq(y)) => List::ptr_eq(x, y),
            (Value::Map(x), Value::Map(y)) => List::ptr_eq(x, y),
            _ => false,
        }
}

fn same_entry(a: &Entry, b: &Entry) -> bool {
    a.key == b.key && a.key_span == b.key_span && same_node(&a.value, &b.value)
}

fn same_list<T>(a: &[T], b: &[T], same: impl Fn(&T, &T) -> bool) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| same(x, y))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::yaml::{load, Limits};

    fn tree(text: &str) -> Node {
        load(text, Limits::default()).documents.remove(0).root
    }

    #[test]
    fn equal_subtrees_become_one_and_read_the_same() {
        let text = "devices:\n- name: a\n  capacity: {memory: {value: 10Gi}}\n  attributes: {model: {string: A100}, idx: {int: 1}}\n- name: b\n  capacity: {memory: {value: 10Gi}}\n  attributes: {model: {string: A100}, idx: {int: 2}}\n- name: c\n  capacity: {memory: {value: '10Gi'}}\n  attributes: {model: {string: A100}, idx: {int: 1.0}}\n";
        let mut node = tree(text);
        let before = node.to_json();
        Sharing::default().share_below(&mut node);
        // The same document, every span empty.
        assert_eq!(node.to_json(), before);
        let devices = node.get("devices").unwrap().as_seq().unwrap();
        let list = |d: &Node, path: &[&str]| {
            let mut n = d;
            for k in path {
                n = n.get(k).unwrap();
            }
            match &n.value {
                Value::Map(l) => l.clone(),
                _ => panic!("not a map"),
            }
        };
        let (a, b, c) = (&devices[0], &devices[1], &devices[2]);
        assert!(List::ptr_eq(
            &list(a, &["capacity"]),
            &list(b, &["capacity"])
        ));
        assert!(List::ptr_eq(
            &list(a, &["attributes", "model"]),
            &list(c, &["attributes", "model"])
        ));
        // What differs stays apart: a quoted quantity (its style), an
        // integer and a float, the attribute maps that hold them.
        assert!(!List::ptr_eq(
            &list(a, &["capacity"]),
            &list(c, &["capacity"])
        ));
        assert!(!List::ptr_eq(
            &list(a, &["attributes", "idx"]),
            &list(c, &["attributes", "idx"])
        ));
        assert!(!List::ptr_eq(
            &list(a, &["attributes"]),
            &list(b, &["attributes"])
        ));
        assert_eq!(a.span, Span::default());
        assert_eq!(devices[2].get("name").unwrap().span, Span::default());
    }

    /// A shared list changed through one of its holders changes only there.
    #[test]
    fn an_edit_of_a_shared_list_copies_it() {
        let mut node = tree("a: {x: {v: 1}}\nb: {x: {v: 1}}\n");
        Sharing::default().share_below(&mut node);
        let b = node.get_mut("b").unwrap();
        *b.get_mut("x").unwrap().get_mut("v").unwrap() = Node::new(Value::Int(2), Span::default());
        assert_eq!(
            node.get("a").unwrap().to_json(),
            serde_json::json!({"x": {"v": 1}})
        );
        assert_eq!(
            node.get("b").unwrap().to_json(),
            serde_json::json!({"x": {"v": 2}})
        );
    }

    fn spans_below_root_are_empty(n: &Node) -> bool {
        let empty = |n: &Node| n.span == Span::default() && spans_below_root_are_empty(n);
        match &n.value {
            Value::Seq(items) => items.iter().all(empty),
            Value::Map(entries) => entries
                .iter()
                .all(|e| e.key_span == Span::default() && empty(&e.value)),
            _ => true,
        }
    }

    /// Loaded shared, a stream reads as it does loaded for `lint`: the
    /// same documents and values, the roots' spans (the objects' lines),
    /// through the block fast path and through saphyr (flow style, anchors).
    /// The fleet has enough devices that the loader stops looking up the
    /// values of keys that never repeat (`attributes`, a UUID) and goes on
    /// finding those that do (yaml::block's `Tries`).
    #[test]
    fn a_shared_load_reads_as_a_plain_load() {
        let fleet = crate::fleet::generate(crate::fleet::FleetSpec {
            nodes: 10,
            gpus_per_node: 4,
            partitions_per_gpu: 3,
        });
        let general = "a: &x {k: [1, 2, {v: '10Gi'}]}\nb: *x\nc: {k: [1, 2, {v: '10Gi'}]}\n---\n- [x, y]\n- [x, y]\n- !!str 3\n";
        let shared = Limits {
            share: true,
            ..Limits::default()
        };
        for text in [fleet.as_str(), general, "a: 1\n---\n---\nb: [{}, {}, []]\n"] {
            let plain = load(text, Limits::default());
            let got = load(text, shared);
            assert_eq!(got.errors, plain.errors);
            assert_eq!(got.documents.len(), plain.documents.len());
            for (g, p) in got.documents.iter().zip(&plain.documents) {
                assert_eq!(g.root.to_json(), p.root.to_json(), "{text}");
                assert_eq!(g.root.span, p.root.span);
                assert!(spans_below_root_are_empty(&g.root), "{text}");
            }
        }
    }

    /// The fleet's devices repeat their capacity, counters and attribute
    /// values: most of its lists are one.
    #[test]
    fn a_fleet_keeps_a_fraction_of_its_lists() {
        let fleet = crate::fleet::generate(crate::fleet::FleetSpec {
            nodes: 20,
            gpus_per_node: 8,
            partitions_per_gpu: 7,
        });
        let loaded = load(
            &fleet,
            Limits {
                share: true,
                ..Limits::default()
            },
        );
        let (mut lists, mut distinct) = (0, std::collections::HashSet::new());
        let mut stack: Vec<&Node> = loaded.documents.iter().map(|d| &d.root).collect();
        while let Some(n) = stack.pop() {
            match &n.value {
                Value::Seq(items) => {
                    lists += 1;
                    if distinct.insert(items.as_ptr() as usize) {
                        stack.extend(items.iter());
                    }
                }
                Value::Map(entries) => {
                    lists += 1;
                    if distinct.insert(entries.as_ptr() as usize) {
                        stack.extend(entries.iter().map(|e| &e.value));
                    }
                }
                _ => {}
            }
        }
        assert!(distinct.len() * 3 < lists, "{} of {lists}", distinct.len());
    }
}
