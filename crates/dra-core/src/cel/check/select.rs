//! Field selection, checked: `x.f`, `x.?f`, and the fields of an
//! optional value (cel-go checker.go checkSelectField), with the sizes the
//! DRA size estimator gives what it reads.

use cel::common::ast::IdedExpr;

use super::sizes::sized_as;
use super::{
    c, Checked, Checker, CompileError, CompileErrorKind, Holds, Type, MAX_ATTRS, MAX_DOMAIN,
    MAX_STRING_ATTR,
};

impl Checker<'_> {
    /// cel-go's checkSelectField: a field of an optional value is read
    /// from the value inside, and the result is optional when the operand
    /// was or the selection is (`x.?f`).
    pub(super) fn select_field(
        &self,
        e: &IdedExpr,
        operand: &Checked,
        field: &str,
        optional: bool,
    ) -> Result<Checked, CompileError> {
        let Type::Optional(inner) = &operand.ty else {
            let r = self.select(e, operand, field)?;
            return Ok(if optional { r.optional() } else { r });
        };
        let target = Checked {
            ty: (**inner).clone(),
            ..operand.clone()
        };
        Ok(self.select(e, &target, field)?.optional())
    }

    fn select(
        &self,
        e: &IdedExpr,
        operand: &Checked,
        field: &str,
    ) -> Result<Checked, CompileError> {
        let attribute = if self.env.attributes_dyn {
            Type::Dyn
        } else {
            Type::Any
        };
        match &operand.ty {
            Type::Device => match field {
                "driver" => Ok(c(Type::String, 0.0, MAX_DOMAIN)),
                "attributes" => Ok(sized_as(
                    Type::Map(
                        Box::new(Type::String),
                        Box::new(Type::Map(Box::new(Type::String), Box::new(attribute))),
                    ),
                    0.0,
                    MAX_ATTRS,
                    Holds::DeviceDomains,
                )),
                "capacity" => Ok(sized_as(
                    Type::Map(
                        Box::new(Type::String),
                        Box::new(Type::Map(Box::new(Type::String), Box::new(Type::Quantity))),
                    ),
                    0.0,
                    MAX_ATTRS,
                    Holds::DeviceDomains,
                )),
                "allowMultipleAllocations" if self.env.allow_multiple_allocations => {
                    Ok(c(Type::Bool, 0.0, 1.0))
                }
                "allowMultipleAllocations" => Err(self.err(
                    e,
                    CompileErrorKind::Gated,
                    format!("undefined field '{field}'"),
                )),
                _ => Err(self.err(
                    e,
                    CompileErrorKind::Type,
                    format!("undefined field '{field}'"),
                )),
            },
            // compile.go sizeEstimator: a name under an attribute map is
            // an attribute value; any other selected field has no path the
            // estimator knows (a domain selected with a dot included).
            Type::Map(_, v) => Ok(self.selected((**v).clone(), &operand.holds)),
            Type::Dyn | Type::Any | Type::Error | Type::Free => {
                Ok(self.selected(Type::Dyn, &operand.holds))
            }
            other => Err(self.err(
                e,
                CompileErrorKind::Type,
                format!("type '{}' does not support field selection", other.name()),
            )),
        }
    }

    fn selected(&self, ty: Type, from: &Holds) -> Checked {
        match from {
            Holds::DeviceNames => sized_as(ty, 0.0, MAX_STRING_ATTR, Holds::Unknown),
            _ => sized_as(ty, 0.0, f64::INFINITY, Holds::Unknown),
        }
    }
}
