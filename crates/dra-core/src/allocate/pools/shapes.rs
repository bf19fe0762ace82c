//! Nodes alike although their devices are their own: node-local pools
//! (every slice bound to the node by `nodeName`) that differ only in their
//! names and in string attribute values no claim reads give the same
//! search, device for device. Each pool is written once, claim-blind, as
//! bytes (its slices in the index's order, names left out, string attribute
//! values set apart), and the bytes are interned: equal ids are equal
//! bytes, never a hash that could collide. Which attribute values matter
//! is decided per run ([`AttributeUse`]): values a selector reads, exactly;
//! values a constraint compares, only as a pattern of equalities within the
//! pool.

use super::*;
use foldhash::HashSet;

/// No pattern: the attribute's values are not all plain strings.
const NO_PATTERN: u32 = u32::MAX;

/// The claim-blind shapes of the node-local pools of every node whose
/// pools can be compared.
#[derive(Default)]
pub struct Shapes<'a> {
    nodes: HashMap<&'a str, Vec<PoolShape<'a>>>,
    /// Each node's pools (driver, name), in the order of `nodes`.
    keys: HashMap<&'a str, Vec<(&'a str, &'a str)>>,
    attributes: HashMap<String, u32>,
}

struct PoolShape<'a> {
    key: (&'a str, &'a str),
    /// Where the pool sorts among the pools not bound to a node.
    rank: u32,
    shape: u32,
    /// String attributes: (attribute, values, equality pattern).
    attrs: Vec<(u32, u32, u32)>,
}

/// What the claims of a run read of the devices' string attributes.
#[derive(Debug, Default)]
pub struct AttributeUse {
    /// A selector may read any attribute.
    pub all: bool,
    /// Read by a selector, qualified (`domain/name`).
    pub read: Vec<String>,
    /// Compared by a constraint (matchAttribute, distinctAttribute).
    pub compared: Vec<String>,
}

/// One pool written as bytes, before interning.
struct Written<'a> {
    key: (&'a str, &'a str),
    rank: u32,
    shape: Hashed,
    /// Per qualified attribute: (values, pattern or `None`).
    attrs: Vec<(String, Hashed, Option<Hashed>)>,
}

/// Bytes with their hash, computed where they are written (in parallel),
/// so that interning them (in order) only compares.
struct Hashed {
    hash: u64,
    bytes: Vec<u8>,
}

impl From<Vec<u8>> for Hashed {
    fn from(bytes: Vec<u8>) -> Hashed {
        use std::hash::BuildHasher;
        Hashed {
            hash: foldhash::fast::FixedState::with_seed(0).hash_one(&bytes),
            bytes,
        }
    }
}

/// Ids for byte strings: equal ids are equal bytes (the hash only finds
/// the candidates, which are compared).
/// The byte strings of one hash, with their ids.
type Candidates = Vec<(Box<[u8]>, u32)>;

#[derive(Default)]
struct Interner {
    ids: HashMap<u64, Candidates>,
    next: u32,
}

impl Interner {
    fn id(&mut self, h: &Hashed) -> u32 {
        let same = self.ids.entry(h.hash).or_default();
        if let Some((_, id)) = same.iter().find(|(b, _)| **b == *h.bytes) {
            return *id;
        }
        self.next += 1;
        same.push((h.bytes.as_slice().into(), self.next));
        self.next
    }
}

impl<'a> Shapes<'a> {
    /// The shapes of every node's node-local pools. A node is left out (it
    /// is then searched on its own) when one of its pools has a slice not
    /// bound to it, a device some claim holds, or a name that could not be
    /// told apart in the outcome's text; no node is compared when a
    /// DeviceTaintRule exists (rules select by pool name).
    pub fn new(index: &PoolIndex<'a>, held: &(dyn Fn(&(&'a str, &'a str)) -> bool + Sync)) -> Self {
        use rayon::prelude::*;
        if !index.taint_rules.is_empty() {
            return Shapes::default();
        }
        let mut nodes: Vec<(&'a str, &Vec<(&'a str, &'a str)>)> =
            index.by_node.iter().map(|(n, k)| (*n, k)).collect();
        nodes.sort_unstable_by_key(|(n, _)| *n);
        let mut shapes = Shapes::default();
        let (mut structure, mut values, mut patterns) = (
            Interner::default(),
            Interner::default(),
            Interner::default(),
        );
        // Written in parallel a chunk at a time, interned in order, so that
        // only a chunk's bytes are held at once.
        for chunk in nodes.chunks(256) {
            let written: Vec<Option<Vec<Written<'a>>>> = chunk
                .par_iter()
                .map(|(node, keys)| {
                    if !plain_name(node) {
                        return None;
                    }
                    let mut keys: Vec<(&str, &str)> = keys.to_vec();
                    keys.sort_unstable();
                    keys.iter()
                        .map(|k| {
                            if held(k) {
                                return None;
                            }
                            write_pool(index, node, *k)
                        })
                        .collect()
                })
                .collect();
            for ((node, _), pools) in chunk.iter().zip(written) {
                let Some(pools) = pools else { continue };
                let pools = pools
                    .into_iter()
                    .map(|w| PoolShape {
                        key: w.key,
                        rank: w.rank,
                        shape: structure.id(&w.shape),
                        attrs: w
                            .attrs
                            .into_iter()
                            .map(|(name, v, p)| {
                                let next = shapes.attributes.len() as u32;
                                let a = *shapes.attributes.entry(name).or_insert(next);
                                let p = p.map_or(NO_PATTERN, |p| patterns.id(&p));
                                (a, values.id(&v), p)
                            })
                            .collect(),
                    })
                    .collect();
                let pools: Vec<PoolShape<'a>> = pools;
                shapes
                    .keys
                    .insert(node, pools.iter().map(|p| p.key).collect());
                shapes.nodes.insert(node, pools);
            }
        }
        shapes
    }

    /// Whether the node's devices are all in pools that can be compared.
    pub fn has(&self, node: &str) -> bool {
        self.nodes.contains_key(node)
    }

    /// The node's pools as a key: nodes with equal keys (and equal
    /// answers for the pools not bound to a node) get the same search.
    /// `alone`: the node sees no device outside its own pools, so a
    /// constraint compares only values within them.
    pub fn key(&self, node: &str, uses: &ResolvedUse, alone: bool, out: &mut Vec<u32>) -> bool {
        let Some(pools) = self.nodes.get(node) else {
            return false;
        };
        let single = alone && pools.len() == 1;
        // Counts before what they count, so that no two different nodes
        // can write the same sequence.
        out.push(pools.len() as u32);
        for p in pools {
            out.extend([p.rank, p.shape]);
            let count_at = out.len();
            out.push(0);
            for &(a, v, pattern) in &p.attrs {
                if uses.all || uses.read.contains(&a) {
                    out.extend([a, 1, v]);
                } else if uses.compared.contains(&a) {
                    match single && pattern != NO_PATTERN {
                        true => out.extend([a, 2, pattern]),
                        false => out.extend([a, 1, v]),
                    }
                }
            }
            out[count_at] = ((out.len() - count_at - 1) / 3) as u32;
        }
        true
    }

    /// The node's own pools (driver, name), in the order of its key.
    pub fn pool_keys(&self, node: &str) -> &[(&'a str, &'a str)] {
        self.keys.get(node).map(Vec::as_slice).unwrap_or_default()
    }

    /// The attribute ids a run's use names.
    pub fn resolve(&self, uses: &AttributeUse) -> ResolvedUse {
        let ids = |names: &[String]| -> HashSet<u32> {
            names
                .iter()
                .filter_map(|n| self.attributes.get(n).copied())
                .collect()
        };
        ResolvedUse {
            all: uses.all,
            read: ids(&uses.read),
            compared: ids(&uses.compared),
        }
    }

    /// The text only this node's search could write: its name, its pools'
    /// and slices' names, and its compared attributes' values. An outcome
    /// that holds any of it outside the fields renamed is not shared.
    pub fn private_text<'s>(
        &'s self,
        index: &'s PoolIndex<'a>,
        node: &'s str,
        compared: &[String],
    ) -> Vec<&'s str> {
        let mut out = vec![node];
        for p in self.nodes.get(node).map(Vec::as_slice).unwrap_or_default() {
            out.push(p.key.1);
            for s in index
                .pools
                .get(&p.key)
                .map(Vec::as_slice)
                .unwrap_or_default()
            {
                out.push(s.name);
                for d in s.device_nodes() {
                    for e in d
                        .get("attributes")
                        .and_then(Node::as_map)
                        .unwrap_or_default()
                    {
                        if compared.contains(&qualified(p.key.0, &e.key)) {
                            out.extend(string_attribute(&e.value));
                        }
                    }
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }
}

/// [`AttributeUse`] as attribute ids.
#[derive(Debug, Default)]
pub struct ResolvedUse {
    all: bool,
    read: HashSet<u32>,
    compared: HashSet<u32>,
}

/// A name the outcome's text shows as it is (so that it can be found there):
/// letters, digits and `-._/:+`, not empty.
pub fn plain_name(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-._/:+".contains(&b))
}

/// Text that Rust's debug format prints as it is: printable ASCII but `"`
/// and `\\`.
fn verbatim(s: &str) -> bool {
    s.bytes()
        .all(|b| (b' '..=b'~').contains(&b) && b != b'"' && b != b'\\')
}

fn qualified(driver: &str, name: &str) -> String {
    match name.contains('/') {
        true => name.to_owned(),
        false => format!("{driver}/{name}"),
    }
}

/// The value of an attribute written `{string: ...}` and nothing else.
fn string_attribute(v: &Node) -> Option<&'static str> {
    match v.as_map()? {
        [e] if e.key == "string" => match &e.value.value {
            crate::tree::Value::Str(s) => Some(s.as_str()),
            _ => None,
        },
        _ => None,
    }
}

/// One pool of the node as bytes, or `None` when a slice of the pool is
/// not bound to the node or a name is not plain.
fn write_pool<'a>(
    index: &PoolIndex<'a>,
    node: &str,
    key: (&'a str, &'a str),
) -> Option<Written<'a>> {
    let slices = index.pools.get(&key)?;
    if !plain_name(key.1) {
        return None;
    }
    let rank = index.elsewhere.partition_point(|k| *k < key) as u32;
    let mut shape = Vec::with_capacity(4096);
    // Per attribute as written: values and the pattern of equal values, by
    // device (maps: a hostile pool may have thousands of either).
    let mut attrs: Vec<(&str, Values<'_>)> = Vec::new();
    let mut attr_at: HashMap<&str, usize> = HashMap::new();
    let mut device = 0u32;
    for s in slices {
        if !plain_name(s.name) {
            return None;
        }
        // Written as it is: the bytes compare every field, including those
        // no reader models.
        let spec = s.object.spec()?;
        if spec.get("nodeName").and_then(Node::as_str) != Some(node) {
            return None;
        }
        // Selection by labels (even beside nodeName, which validation
        // refuses) would make the node's labels part of the answer.
        if ["perDeviceNodeSelection", "nodeSelector", "allNodes"]
            .iter()
            .any(|k| spec.get(k).is_some())
        {
            return None;
        }
        // Every map and list with its length first, as write_node does, so
        // that different trees never write the same bytes.
        let spec_map = spec.as_map()?;
        write_len(&mut shape, spec_map.len());
        for e in spec_map {
            write_str(&mut shape, e.key.as_str());
            match e.key.as_str() {
                // The node's own name, the same for every slice here.
                "nodeName" => {}
                "pool" => {
                    let pool = e.value.as_map()?;
                    write_len(&mut shape, pool.len());
                    for p in pool {
                        write_str(&mut shape, p.key.as_str());
                        if p.key != "name" {
                            write_node(&mut shape, &p.value);
                        }
                    }
                }
                "devices" => {
                    let list = e.value.as_seq()?;
                    write_len(&mut shape, list.len());
                    for d in list {
                        let fields = d.as_map()?;
                        write_len(&mut shape, fields.len());
                        for f in fields {
                            write_str(&mut shape, f.key.as_str());
                            if f.key != "attributes" {
                                write_node(&mut shape, &f.value);
                                continue;
                            }
                            let map = f.value.as_map()?;
                            write_len(&mut shape, map.len());
                            for a in map {
                                write_str(&mut shape, a.key.as_str());
                                let at = *attr_at.entry(a.key.as_str()).or_insert_with(|| {
                                    attrs.push((a.key.as_str(), Values::default()));
                                    attrs.len() - 1
                                });
                                let entry = &mut attrs[at].1;
                                match string_attribute(&a.value) {
                                    Some(v) => {
                                        shape.push(b'$');
                                        // By address: strings of a tree are
                                        // interned (`tree::Text`), so equal
                                        // values are one address, and a
                                        // node's UUIDs cost 8 bytes each
                                        // here, not their text (issue 37).
                                        entry.values.extend(device.to_le_bytes());
                                        entry.values.extend((v.as_ptr() as u64).to_le_bytes());
                                        let next = entry.seen.len();
                                        let at = *entry.seen.entry(v).or_insert(next);
                                        // A value the answer's debug text would
                                        // escape could not be found there: such
                                        // an attribute is compared by value.
                                        if !verbatim(v) {
                                            entry.pattern = None;
                                        }
                                        if let Some(p) = entry.pattern.as_mut() {
                                            p.push((device, at as u32));
                                        }
                                    }
                                    None => {
                                        write_node(&mut shape, &a.value);
                                        entry.pattern = None;
                                    }
                                }
                            }
                        }
                        device += 1;
                    }
                }
                _ => write_node(&mut shape, &e.value),
            }
        }
    }
    let mut named: Vec<(String, Hashed, Option<Hashed>)> = Vec::with_capacity(attrs.len());
    for (name, v) in attrs {
        let name = qualified(key.0, name);
        // One attribute written two ways (`model`, `driver/model`): not
        // compared, rather than merged.
        if named.iter().any(|(n, _, _)| *n == name) {
            return None;
        }
        let pattern: Option<Vec<u8>> = v.pattern.map(|p| {
            p.iter()
                .flat_map(|(d, i)| d.to_le_bytes().into_iter().chain(i.to_le_bytes()))
                .collect()
        });
        named.push((name, v.values.into(), pattern.map(Hashed::from)));
    }
    named.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    Some(Written {
        key,
        rank,
        shape: shape.into(),
        attrs: named,
    })
}

/// One string attribute of a pool: its values by device, which devices
/// share a value, and the distinct values seen.
struct Values<'n> {
    values: Vec<u8>,
    pattern: Option<Vec<(u32, u32)>>,
    seen: HashMap<&'n str, usize>,
}

impl Default for Values<'_> {
    fn default() -> Self {
        Values {
            values: Vec::new(),
            pattern: Some(Vec::new()),
            seen: HashMap::new(),
        }
    }
}

fn write_len(out: &mut Vec<u8>, n: usize) {
    out.extend((n as u64).to_le_bytes());
}

/// A key or string of a tree, by address and length: they are interned
/// (`tree::Key`, `tree::Text`), so equal strings are one address and the
/// bytes compare them exactly without holding their text (issue 37).
fn write_str(out: &mut Vec<u8>, s: &'static str) {
    out.extend((s.as_ptr() as u64).to_le_bytes());
    out.extend((s.len() as u64).to_le_bytes());
}

/// A node's value and style, unambiguously (tags and lengths).
fn write_node(out: &mut Vec<u8>, n: &Node) {
    use crate::tree::Value;
    out.push(n.style() as u8);
    match &n.value {
        Value::Null => out.push(0),
        Value::Bool(b) => out.extend([1, u8::from(*b)]),
        Value::Int(i) => {
            out.push(2);
            out.extend(i.to_le_bytes());
        }
        Value::Float(f) => {
            out.push(3);
            out.extend(f.to_bits().to_le_bytes());
        }
        Value::Str(s) => {
            out.push(4);
            write_str(out, s.as_str());
        }
        Value::Seq(items) => {
            out.push(5);
            out.extend((items.len() as u64).to_le_bytes());
            for i in items.iter() {
                write_node(out, i);
            }
        }
        Value::Map(entries) => {
            out.push(6);
            out.extend((entries.len() as u64).to_le_bytes());
            for e in entries.iter() {
                write_str(out, e.key.as_str());
                write_node(out, &e.value);
            }
        }
    }
}
