//! Sizes in the cost estimate, as cel-go's estimator knows them
//! (checker/cost.go computeSize, sizeOrUnknown, entry sizes) with the DRA
//! size estimator's paths (dynamic-resource-allocation cel/compile.go).

use super::{Checked, Type, MAX_ATTRS, MAX_DOMAIN, MAX_ID, MAX_STRING_ATTR};

/// Where the sizes of a collection's keys and elements come from in
/// cel-go's estimate (checker/cost.go): the DRA size estimator, which
/// knows the maps under `device.attributes` and `device.capacity` by path
/// (compile.go sizeEstimator), or a literal's entry sizes
/// (costCreateList, costCreateMap). Anything else holds elements of
/// unknown size: a list attribute's items, a split's pieces, a selected
/// field of a literal map.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) enum Holds {
    #[default]
    Unknown,
    /// `device.attributes`, `device.capacity`: domains to attribute maps.
    DeviceDomains,
    /// `device.attributes["d"]`: attribute names to values.
    DeviceNames,
    /// A literal list (key 1) or map: its largest key and value.
    Literal { key: f64, value: f64 },
}

impl Holds {
    /// A key's size and what it holds (an iteration variable over a map).
    pub(super) fn key(&self) -> f64 {
        match self {
            Holds::DeviceDomains => MAX_DOMAIN,
            Holds::DeviceNames => MAX_ID,
            Holds::Literal { key, .. } => *key,
            Holds::Unknown => f64::INFINITY,
        }
    }

    /// An element's or value's size and what it holds (an index, a
    /// list's iteration variable, a map's second one).
    pub(super) fn value(&self) -> (f64, Holds) {
        match self {
            Holds::DeviceDomains => (MAX_ATTRS, Holds::DeviceNames),
            Holds::DeviceNames => (MAX_STRING_ATTR, Holds::Unknown),
            Holds::Literal { value, .. } => (*value, Holds::Unknown),
            Holds::Unknown => (f64::INFINITY, Holds::Unknown),
        }
    }

    /// cel-go's entry size union (`+` on lists, `?:`).
    pub(super) fn union(&self, other: &Holds) -> Holds {
        match (self, other) {
            (Holds::Literal { key: k1, value: v1 }, Holds::Literal { key: k2, value: v2 }) => {
                Holds::Literal {
                    key: k1.max(*k2),
                    value: v1.max(*v2),
                }
            }
            (a, b) if a == b => a.clone(),
            _ => Holds::Unknown,
        }
    }
}

/// The iteration variables of a comprehension over `range` (cel-go's
/// pushIterSingle, pushIterKey, pushIterValue): a list's element, or a
/// map's key; with two variables a list's index and element, a map's key
/// and value.
pub(crate) fn iteration_vars(range: &Checked, t1: Type, t2: Type, two: bool) -> (Checked, Checked) {
    let is_map = matches!(range.ty, Type::Map(..))
        || matches!(range.holds, Holds::DeviceDomains | Holds::DeviceNames);
    let (value_size, value_holds) = range.holds.value();
    let first = if is_map {
        sized_as(t1, 0.0, range.holds.key(), Holds::Unknown)
    } else if two {
        sized_as(t1, 0.0, 1.0, Holds::Unknown)
    } else {
        sized_as(t1, 0.0, value_size, value_holds.clone())
    };
    let second = sized_as(t2, 0.0, value_size, value_holds);
    (first, second)
}

/// cel-go's computeTypeSize: only scalars have a size of their own.
pub(super) fn sized(ty: &Type) -> bool {
    !matches!(
        ty,
        Type::Bool | Type::Int | Type::Uint | Type::Double | Type::Duration | Type::Timestamp
    )
}

/// A node of type `ty` whose size is `size` when it is sized at all.
pub(super) fn sized_as(ty: Type, cost: f64, size: f64, holds: Holds) -> Checked {
    let size = if sized(&ty) { size } else { 1.0 };
    Checked {
        ty,
        cost,
        size,
        holds,
    }
}

/// cel-go's saturating products: nothing times an unbounded size is
/// nothing (f64 would say NaN).
pub(crate) fn times(a: f64, b: f64) -> f64 {
    if a == 0.0 || b == 0.0 {
        0.0
    } else {
        a * b
    }
}

/// Functions whose string, bytes, list, map or dyn result has no size in
/// cel-go's estimate: no estimator gives one (checker/cost.go functionCost
/// sizes only bytes(string), string(bytes), strings.quote, `+`, `?:`;
/// library/cost.go the string library's and `find`; ext lists theirs), and
/// a call has no path for the DRA size estimator. The conversions are
/// unsized even as identities (`string('a')`); so are `format`,
/// `charAt`, the URL getters and the optional library's `value` and
/// `orValue`.
pub(super) fn unsized_result(name: &str, member: bool, args: &[&Type]) -> bool {
    let arg = |t: &Type| args.first().is_some_and(|a| a.as_dyn() == t);
    match name {
        "string" => !member && !arg(&Type::Bytes),
        "bytes" => !member && !arg(&Type::String),
        "format" | "charAt" | "getScheme" | "getHost" | "getHostname" | "getPort"
        | "getEscapedPath" | "getQuery" => member,
        "value" | "orValue" => member,
        _ => false,
    }
}
