//! The static types of the checker, shared by the checker (`check`) and
//! the function library (`functions`) without either importing the other's
//! internals.

/// A static CEL type.
#[derive(Clone, Debug, PartialEq)]
pub enum Type {
    Dyn,
    /// `any`: what Kubernetes declares an attribute value as (the DRA
    /// environment's `map(string, any)`); checked as `dyn`, named `any` in
    /// messages.
    Any,
    Null,
    Bool,
    Int,
    Uint,
    Double,
    String,
    Bytes,
    List(Box<Type>),
    Map(Box<Type>, Box<Type>),
    Quantity,
    Semver,
    Optional(Box<Type>),
    Ip,
    Cidr,
    Url,
    Format,
    Duration,
    Timestamp,
    TypeT,
    Device,
    /// What the checker gives an expression that failed to check, so that
    /// it goes on and reports the other errors (cel-go's ErrorType: checked
    /// as `dyn`, named `*error*` in messages).
    Error,
    /// A type parameter cel-go has not bound yet: the element of `[]` and
    /// `{}`, the value of `optional.none()`. Checked as `dyn` and named
    /// `dyn` (cel-go substitutes a parameter left free with dyn); in a
    /// literal or a join it takes the other side's type, as cel-go's
    /// isAssignable binds it (`[[], [1]]` is a `list(list(int))`).
    Free,
}

impl Type {
    pub fn name(&self) -> String {
        match self {
            Type::Dyn => "dyn".into(),
            Type::Any => "any".into(),
            Type::Null => "null_type".into(),
            Type::Bool => "bool".into(),
            Type::Int => "int".into(),
            Type::Uint => "uint".into(),
            Type::Double => "double".into(),
            Type::String => "string".into(),
            Type::Bytes => "bytes".into(),
            Type::List(t) => format!("list({})", t.name()),
            Type::Map(k, v) => format!("map({}, {})", k.name(), v.name()),
            Type::Quantity => "kubernetes.Quantity".into(),
            Type::Semver => "kubernetes.Semver".into(),
            Type::Optional(t) => format!("optional_type({})", t.name()),
            Type::Ip => "net.IP".into(),
            Type::Cidr => "net.CIDR".into(),
            Type::Url => "kubernetes.URL".into(),
            Type::Format => "kubernetes.NamedFormat".into(),
            Type::Duration => "google.protobuf.Duration".into(),
            Type::Timestamp => "google.protobuf.Timestamp".into(),
            Type::TypeT => "type".into(),
            Type::Device => "kubernetes.DRADevice".into(),
            Type::Error => "*error*".into(),
            Type::Free => "dyn".into(),
        }
    }
    pub(crate) fn is_dyn(&self) -> bool {
        matches!(self, Type::Dyn | Type::Any | Type::Error | Type::Free)
    }

    /// The type two sides agree on, binding free type parameters (and
    /// letting an error pass), or `None` when they differ: cel-go's
    /// IsEquivalentType after substitution, as the homogeneous-literal
    /// validator compares a literal's elements. `dyn` and `any` equal only
    /// themselves.
    pub(crate) fn unify(&self, other: &Type) -> Option<Type> {
        match (self, other) {
            (Type::Free | Type::Error, t) | (t, Type::Free | Type::Error) => Some(t.clone()),
            (Type::List(a), Type::List(b)) => a.unify(b).map(Type::list),
            (Type::Optional(a), Type::Optional(b)) => {
                a.unify(b).map(|t| Type::Optional(Box::new(t)))
            }
            (Type::Map(ak, av), Type::Map(bk, bv)) => {
                Some(Type::Map(Box::new(ak.unify(bk)?), Box::new(av.unify(bv)?)))
            }
            (a, b) if a == b => Some(a.clone()),
            _ => None,
        }
    }

    /// What one type parameter becomes when both sides are passed for it
    /// (`?:`'s branches, the lists of `+`, `orValue`): cel-go's isAssignable
    /// followed by mostGeneral, or `None` when neither fits the other (no
    /// matching overload: `true ? 1 : "a"`). `dyn` and `any` fit anything
    /// and win; `null` fits the legacy nullable types (isLegacyNullable).
    pub(crate) fn join(&self, other: &Type) -> Option<Type> {
        let nullable = |t: &Type| {
            matches!(
                t,
                Type::Optional(_)
                    | Type::Quantity
                    | Type::Semver
                    | Type::Ip
                    | Type::Cidr
                    | Type::Url
                    | Type::Format
                    | Type::Device
                    | Type::Duration
                    | Type::Timestamp
            )
        };
        match (self, other) {
            (Type::Free | Type::Error, t) | (t, Type::Free | Type::Error) => Some(t.clone()),
            // mostGeneral(second, first): the second side wins when it is
            // dyn or any (`cond ? dyn(x) : attr` is `any`), else the first.
            (_, Type::Dyn | Type::Any) => Some(other.clone()),
            (Type::Dyn | Type::Any, _) => Some(self.clone()),
            (Type::List(a), Type::List(b)) => a.join(b).map(Type::list),
            (Type::Optional(a), Type::Optional(b)) => {
                a.join(b).map(|t| Type::Optional(Box::new(t)))
            }
            (Type::Map(ak, av), Type::Map(bk, bv)) => {
                Some(Type::Map(Box::new(ak.join(bk)?), Box::new(av.join(bv)?)))
            }
            (Type::Null, t) | (t, Type::Null) if nullable(t) => Some(self.clone()),
            (a, b) if a == b => Some(a.clone()),
            _ => None,
        }
    }

    /// `any` reads as `dyn` everywhere but in messages.
    pub(crate) fn as_dyn(&self) -> &Type {
        match self {
            Type::Any | Type::Error | Type::Free => &Type::Dyn,
            t => t,
        }
    }
    pub(crate) fn is_num(&self) -> bool {
        matches!(self, Type::Int | Type::Uint | Type::Double)
    }
    pub(crate) fn list(t: Type) -> Type {
        Type::List(Box::new(t))
    }
    /// `map(K, V)` with both parameters still free.
    pub(crate) fn free_map() -> Type {
        Type::Map(Box::new(Type::Free), Box::new(Type::Free))
    }
}

pub(crate) fn is_num(t: &Type) -> bool {
    t.is_num()
}
