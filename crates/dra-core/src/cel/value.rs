//! Runtime values of the DRA CEL environment, and the `device` variable
//! built once per device.

use std::cmp::Ordering;
use std::fmt;
use std::sync::Arc;

use super::semver::Semver;
use crate::quantity::Quantity;
use crate::tree::Node;

#[derive(Clone, Debug)]
pub enum Value {
    Null,
    Bool(bool),
    Int(i64),
    Uint(u64),
    Double(f64),
    String(Arc<str>),
    Bytes(Arc<[u8]>),
    List(Arc<Vec<Value>>),
    Map(Arc<MapValue>),
    /// `device.attributes` / `device.capacity`: an unknown domain reads as an empty map.
    Domains(Arc<MapValue>),
    Quantity(Quantity),
    Semver(Arc<Semver>),
    Optional(Option<Box<Value>>),
    Ip(std::net::IpAddr),
    Cidr(std::net::IpAddr, u8),
    /// A format from the Kubernetes format library (`format.dns1123Label()`).
    Format(&'static str),
    /// `url()` (Kubernetes URL library).
    Url(Arc<super::url::Url>),
    /// Nanoseconds.
    Duration(i128),
    /// Nanoseconds since the Unix epoch, and the offset east of UTC (in
    /// seconds) the time was written with: Go's time.Time keeps its zone,
    /// and `string()` prints it; getters read UTC (DefaultUTCTimeZone).
    Timestamp(i128, i32),
    Type(&'static str),
    Device(Arc<Device>),
}

/// A small map, searched linearly (attribute maps hold at most 32 entries).
#[derive(Debug, Default)]
pub struct MapValue {
    pub entries: Vec<(Value, Value)>,
}

impl MapValue {
    pub fn get(&self, key: &Value) -> Option<&Value> {
        self.entries
            .iter()
            .find(|(k, _)| key_eq(k, key))
            .map(|(_, v)| v)
    }
    pub fn get_str(&self, key: &str) -> Option<&Value> {
        self.entries
            .iter()
            .find(|(k, _)| matches!(k, Value::String(s) if &**s == key))
            .map(|(_, v)| v)
    }
}

/// A map literal as cel-go's evalMap fills a Go map: a repeated key takes
/// the later value, an absent optional entry (`None`) removes an earlier
/// one; keys are the same when their type and value are (1 and 1u differ).
/// Large literals find keys by hash, so building one stays linear.
#[derive(Default)]
pub(crate) struct MapBuilder {
    /// Entries in first-written order; a removed one is `None`.
    slots: Vec<(Value, Option<Value>)>,
    /// Slot of each string, int, uint or bool key, once there are many.
    index: Option<std::collections::HashMap<HashKey, usize>>,
}

#[derive(PartialEq, Eq, Hash)]
enum HashKey {
    String(Arc<str>),
    Int(i64),
    Uint(u64),
    Bool(bool),
}

impl HashKey {
    fn of(v: &Value) -> Option<HashKey> {
        Some(match v {
            Value::String(s) => HashKey::String(s.clone()),
            Value::Int(i) => HashKey::Int(*i),
            Value::Uint(u) => HashKey::Uint(*u),
            Value::Bool(b) => HashKey::Bool(*b),
            _ => return None,
        })
    }
}

impl MapBuilder {
    const LINEAR: usize = 16;

    pub(crate) fn set(&mut self, key: Value, value: Option<Value>) {
        let hashed = HashKey::of(&key);
        if self.index.is_none() && self.slots.len() >= Self::LINEAR {
            let index = self
                .slots
                .iter()
                .enumerate()
                .filter_map(|(i, (k, _))| HashKey::of(k).map(|h| (h, i)))
                .collect();
            self.index = Some(index);
        }
        let at = match (&self.index, &hashed) {
            (Some(index), Some(h)) => index.get(h).copied(),
            _ => self
                .slots
                .iter()
                .position(|(have, _)| have.type_name() == key.type_name() && key_eq(have, &key)),
        };
        match at {
            Some(i) => self.slots[i].1 = value,
            None if value.is_some() => {
                if let (Some(index), Some(h)) = (&mut self.index, hashed) {
                    index.insert(h, self.slots.len());
                }
                self.slots.push((key, value));
            }
            None => {}
        }
    }

    pub(crate) fn build(self) -> MapValue {
        MapValue {
            entries: self
                .slots
                .into_iter()
                .filter_map(|(k, v)| v.map(|v| (k, v)))
                .collect(),
        }
    }
}

fn key_eq(a: &Value, b: &Value) -> bool {
    matches!(equals(a, b), Some(true))
}

/// The `device` variable.
#[derive(Debug)]
pub struct Device {
    pub driver: Value,
    pub attributes: Value,
    pub capacity: Value,
    pub allow_multiple_allocations: bool,
    /// Upstream's `DeviceMatches` fails before evaluating when an attribute
    /// has no supported value (or an unparsable version): the first such.
    pub attribute_error: Option<String>,
}

/// Qualified names grouped by domain, each name's key already a CEL string:
/// the view is built for every device a selector is evaluated on, so it is
/// built without intermediate strings.
type ByDomain = Vec<(Arc<str>, Vec<(Value, Value)>)>;

fn domains(by_domain: ByDomain) -> Value {
    let entries = by_domain
        .into_iter()
        .map(|(d, entries)| (Value::String(d), Value::Map(Arc::new(MapValue { entries }))))
        .collect();
    Value::Domains(Arc::new(MapValue { entries }))
}

fn insert(by_domain: &mut ByDomain, driver: &Arc<str>, name: &str, value: Value) {
    // A bare name falls under the driver's domain; the split is at the first '/'.
    let (domain, id) = name.split_once('/').unwrap_or((driver, name));
    let key = Value::String(id.into());
    match by_domain.iter_mut().find(|(d, _)| **d == *domain) {
        Some((_, entries)) => entries.push((key, value)),
        None => {
            let domain = match domain == &**driver {
                true => Arc::clone(driver),
                false => domain.into(),
            };
            by_domain.push((domain, vec![(key, value)]));
        }
    }
}

/// An attribute's value as upstream's `getAttributeValue` reads it: with
/// DRAListTypeAttributes the first list type that is set, then the first of
/// int, bool, string and version (which must parse); none is an error (so a
/// list with the gate off is one: upstream stops scheduling rather than
/// misread it).
fn attribute_value(n: &Node, list_types: bool) -> Result<Value, String> {
    let get = |k: &str| n.get(k).filter(|v| !v.is_null());
    if list_types {
        if let Some(list) = list_value(n)? {
            return Ok(list);
        }
    }
    if let Some(v) = get("int").and_then(Node::as_i64) {
        return Ok(Value::Int(v));
    }
    if let Some(v) = get("bool").and_then(Node::as_bool) {
        return Ok(Value::Bool(v));
    }
    if let Some(v) = get("string").and_then(Node::as_str) {
        return Ok(Value::String(v.into()));
    }
    if let Some(v) = get("version").and_then(Node::as_str) {
        return Semver::parse(v)
            .map(|s| Value::Semver(Arc::new(s)))
            .map_err(|e| format!("parse semantic version: {e}"));
    }
    Err("unsupported attribute value".to_owned())
}

/// The attribute's list value, if a list type is set (every version of a
/// version list must parse).
fn list_value(n: &Node) -> Result<Option<Value>, String> {
    let get = |k: &str| n.get(k).filter(|v| !v.is_null()).and_then(Node::as_seq);
    let list = |items: Vec<Value>| Ok(Some(Value::List(Arc::new(items))));
    if let Some(l) = get("ints") {
        return list(
            l.iter()
                .filter_map(|x| x.as_i64().map(Value::Int))
                .collect(),
        );
    }
    if let Some(l) = get("bools") {
        return list(
            l.iter()
                .filter_map(|x| x.as_bool().map(Value::Bool))
                .collect(),
        );
    }
    if let Some(l) = get("strings") {
        return list(
            l.iter()
                .filter_map(|x| x.as_str().map(|s| Value::String(s.into())))
                .collect(),
        );
    }
    if let Some(l) = get("versions") {
        let mut items = Vec::with_capacity(l.len());
        for x in l {
            let v = Semver::parse(x.as_str().unwrap_or_default())
                .map_err(|e| format!("parse semantic version: {e}"))?;
            items.push(Value::Semver(Arc::new(v)));
        }
        return list(items);
    }
    Ok(None)
}

impl Device {
    /// Builds the CEL view of a ResourceSlice device entry of `driver`;
    /// `list_types`: DRAListTypeAttributes is on.
    pub fn from_node(driver: &str, device: &Node, list_types: bool) -> Device {
        let driver: Arc<str> = driver.into();
        let mut attrs = Vec::new();
        let mut attribute_error = None;
        for e in device
            .get("attributes")
            .and_then(Node::as_map)
            .unwrap_or_default()
        {
            match attribute_value(&e.value, list_types) {
                Ok(v) => insert(&mut attrs, &driver, &e.key, v),
                Err(why) => {
                    attribute_error.get_or_insert_with(|| format!("attribute {}: {why}", e.key));
                }
            }
        }
        let mut caps = Vec::new();
        for e in device
            .get("capacity")
            .and_then(Node::as_map)
            .unwrap_or_default()
        {
            let q = e
                .value
                .get("value")
                .and_then(Node::scalar_text)
                .and_then(|t| Quantity::parse_field(&t).ok());
            if let Some(q) = q {
                insert(&mut caps, &driver, &e.key, Value::Quantity(q));
            }
        }
        Device {
            driver: Value::String(driver),
            attributes: domains(attrs),
            capacity: domains(caps),
            allow_multiple_allocations: device
                .get("allowMultipleAllocations")
                .and_then(Node::as_bool)
                .unwrap_or(false),
            attribute_error,
        }
    }
}

impl Value {
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Null => "null_type",
            Value::Bool(_) => "bool",
            Value::Int(_) => "int",
            Value::Uint(_) => "uint",
            Value::Double(_) => "double",
            Value::String(_) => "string",
            Value::Bytes(_) => "bytes",
            Value::List(_) => "list",
            Value::Map(_) | Value::Domains(_) => "map",
            Value::Quantity(_) => "kubernetes.Quantity",
            Value::Semver(_) => "kubernetes.Semver",
            Value::Optional(_) => "optional_type",
            Value::Ip(_) => "net.IP",
            Value::Cidr(..) => "net.CIDR",
            Value::Format(_) => "kubernetes.NamedFormat",
            Value::Url(_) => "kubernetes.URL",
            Value::Duration(_) => "google.protobuf.Duration",
            Value::Timestamp(..) => "google.protobuf.Timestamp",
            Value::Type(_) => "type",
            Value::Device(_) => "kubernetes.DRADevice",
        }
    }

    pub fn string(s: &str) -> Value {
        Value::String(s.into())
    }
}

/// CEL equality: `None` when the types cannot be compared (heterogeneous `==`
/// is then `false`, as cel-go's dyn equality).
pub fn equals(a: &Value, b: &Value) -> Option<bool> {
    use Value::*;
    Some(match (a, b) {
        (Null, Null) => true,
        (Bool(x), Bool(y)) => x == y,
        (String(x), String(y)) => x == y,
        (Bytes(x), Bytes(y)) => x == y,
        (Int(_) | Uint(_) | Double(_), Int(_) | Uint(_) | Double(_)) => {
            numeric_cmp(a, b) == Some(Ordering::Equal)
        }
        (List(x), List(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y.iter())
                    .all(|(p, q)| equals(p, q) == Some(true))
        }
        (Map(x) | Domains(x), Map(y) | Domains(y)) => {
            x.entries.len() == y.entries.len()
                && x.entries
                    .iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| equals(v, w) == Some(true)))
        }
        (Quantity(x), Quantity(y)) => x == y,
        (Semver(x), Semver(y)) => x == y,
        (Optional(x), Optional(y)) => match (x, y) {
            (None, None) => true,
            (Some(p), Some(q)) => equals(p, q) == Some(true),
            _ => false,
        },
        (Ip(x), Ip(y)) => x == y,
        (Cidr(x, p), Cidr(y, q)) => x == y && p == q,
        (Url(x), Url(y)) => x.text == y.text,
        (Duration(x), Duration(y)) | (Timestamp(x, _), Timestamp(y, _)) => x == y,
        (Type(x), Type(y)) => x == y,
        // apiserver/pkg/cel Format.Equal: by name.
        (Format(x), Format(y)) => x == y,
        _ => return None,
    })
}

pub fn numeric_cmp(a: &Value, b: &Value) -> Option<Ordering> {
    use Value::*;
    match (a, b) {
        (Int(x), Int(y)) => Some(x.cmp(y)),
        (Uint(x), Uint(y)) => Some(x.cmp(y)),
        (Double(x), Double(y)) => x.partial_cmp(y),
        (Int(x), Uint(y)) => Some(if *x < 0 {
            Ordering::Less
        } else {
            (*x as u64).cmp(y)
        }),
        (Uint(x), Int(y)) => Some(if *y < 0 {
            Ordering::Greater
        } else {
            x.cmp(&(*y as u64))
        }),
        (Int(x), Double(y)) => (*x as f64).partial_cmp(y),
        (Double(x), Int(y)) => x.partial_cmp(&(*y as f64)),
        (Uint(x), Double(y)) => (*x as f64).partial_cmp(y),
        (Double(x), Uint(y)) => x.partial_cmp(&(*y as f64)),
        _ => None,
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Null => f.write_str("null"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Int(i) => write!(f, "{i}"),
            Value::Uint(u) => write!(f, "{u}u"),
            Value::Double(d) => write!(f, "{d}"),
            Value::String(s) => write!(f, "{s:?}"),
            Value::Bytes(b) => write!(f, "b{:?}", String::from_utf8_lossy(b)),
            Value::List(l) => {
                f.write_str("[")?;
                for (i, v) in l.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{v}")?;
                }
                f.write_str("]")
            }
            Value::Map(m) | Value::Domains(m) => {
                f.write_str("{")?;
                for (i, (k, v)) in m.entries.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{k}: {v}")?;
                }
                f.write_str("}")
            }
            Value::Quantity(q) => write!(f, "quantity({q})"),
            Value::Semver(s) => write!(f, "semver({s})"),
            Value::Optional(None) => f.write_str("optional.none()"),
            Value::Optional(Some(v)) => write!(f, "optional.of({v})"),
            Value::Ip(ip) => write!(f, "ip({ip})"),
            Value::Cidr(ip, p) => write!(f, "cidr({ip}/{p})"),
            Value::Format(n) => write!(f, "format.{n}()"),
            Value::Url(u) => write!(f, "url({:?})", u.text),
            Value::Duration(d) => write!(f, "duration({:?})", super::time::format_duration(*d)),
            Value::Timestamp(t, offset) => write!(
                f,
                "timestamp({:?})",
                super::time::format_timestamp(*t, *offset)
            ),
            Value::Type(t) => f.write_str(t),
            Value::Device(_) => f.write_str("device"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Device;

    fn device(yaml: &str, list_types: bool) -> Device {
        let node = crate::yaml::load(yaml, Default::default())
            .documents
            .remove(0)
            .root;
        Device::from_node("x.example.com", &node, list_types)
    }

    /// `getAttributeValue` (k8s.io/dynamic-resource-allocation/cel): no
    /// supported value, an unparsable version, or a list with
    /// DRAListTypeAttributes off fail the evaluation, naming the attribute.
    #[test]
    fn unsupported_attribute_values_fail_evaluation() {
        let cases = [
            (
                "attributes: {a: {}}",
                true,
                Some("attribute a: unsupported attribute value"),
            ),
            (
                "attributes: {a: {version: '1.0'}}",
                true,
                Some("attribute a: parse semantic version"),
            ),
            (
                "attributes: {a: {strings: [x]}}",
                false,
                Some("attribute a: unsupported attribute value"),
            ),
            ("attributes: {a: {strings: [x]}}", true, None),
            ("attributes: {a: {int: 1, strings: [x]}}", false, None),
        ];
        for (yaml, lists, want) in cases {
            let got = device(yaml, lists).attribute_error;
            match want {
                Some(w) => assert!(
                    got.as_deref().is_some_and(|g| g.starts_with(w)),
                    "{yaml}: {got:?}"
                ),
                None => assert_eq!(got, None, "{yaml}"),
            }
        }
    }
}
