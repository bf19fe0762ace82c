//! Which attributes and capacities an expression reads, and whether each read
//! is guarded (`has()`, `in`, optional syntax), for the lint rules.

use cel::common::ast::{operators as op, Expr, IdedExpr, LiteralValue};

use super::Program;

/// `device.attributes["gpu.example.com"].model` and its kin.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lookup {
    /// `attributes` or `capacity`.
    pub map: &'static str,
    pub domain: String,
    pub key: String,
    /// Read without a `has()`/`in` guard for the same key, or optional syntax.
    pub guarded: bool,
    /// Read with optional syntax (`.?key`, `[?"key"]`): never an error.
    pub optional: bool,
}

fn string_lit(e: &IdedExpr) -> Option<&str> {
    match &e.expr {
        Expr::Literal(LiteralValue::String(s)) => Some(s.inner()),
        _ => None,
    }
}

/// `device.attributes["d"]` -> ("attributes", "d").
fn domain_of(e: &IdedExpr) -> Option<(&'static str, String)> {
    let Expr::Call(c) = &e.expr else { return None };
    if c.func_name != op::INDEX || c.args.len() != 2 {
        return None;
    }
    let Expr::Select(s) = &c.args[0].expr else {
        return None;
    };
    if !matches!(&s.operand.expr, Expr::Ident(d) if d == "device") {
        return None;
    }
    let map = match s.field.as_str() {
        "attributes" => "attributes",
        "capacity" => "capacity",
        _ => return None,
    };
    Some((map, string_lit(&c.args[1])?.to_owned()))
}

struct Walk {
    reads: Vec<Lookup>,
    guards: Vec<(&'static str, String, String)>,
}

impl Walk {
    fn visit(&mut self, e: &IdedExpr) {
        match &e.expr {
            Expr::Select(s) => {
                if let Some((map, domain)) = domain_of(&s.operand) {
                    if s.test {
                        self.guards.push((map, domain, s.field.clone()));
                    } else {
                        self.reads.push(Lookup {
                            map,
                            domain,
                            key: s.field.clone(),
                            guarded: false,
                            optional: false,
                        });
                    }
                }
            }
            Expr::Call(c) => match (c.func_name.as_str(), c.args.as_slice()) {
                (op::INDEX, [container, key]) => {
                    if let (Some((map, domain)), Some(k)) = (domain_of(container), string_lit(key))
                    {
                        self.reads.push(Lookup {
                            map,
                            domain,
                            key: k.to_owned(),
                            guarded: false,
                            optional: false,
                        });
                    }
                }
                (op::OPT_INDEX | op::OPT_SELECT, [container, key]) => {
                    let k = string_lit(key)
                        .map(str::to_owned)
                        .or_else(|| match &key.expr {
                            Expr::Ident(i) => Some(i.clone()),
                            _ => None,
                        });
                    if let (Some((map, domain)), Some(k)) = (domain_of(container), k) {
                        self.reads.push(Lookup {
                            map,
                            domain,
                            key: k,
                            guarded: true,
                            optional: true,
                        });
                    }
                }
                (op::IN, [key, container]) => {
                    if let (Some((map, domain)), Some(k)) = (domain_of(container), string_lit(key))
                    {
                        self.guards.push((map, domain, k.to_owned()));
                    }
                }
                _ => {}
            },
            _ => {}
        }
        for child in super::children(e) {
            self.visit(child);
        }
    }
}

impl Program {
    /// Every attribute and capacity the expression reads with a literal
    /// domain and key. A read counts as guarded when the expression also tests
    /// the same key with `has()` or `in` (order is not checked).
    pub fn lookups(&self) -> Vec<Lookup> {
        let mut w = Walk {
            reads: Vec::new(),
            guards: Vec::new(),
        };
        w.visit(&self.expr);
        let mut out: Vec<Lookup> = Vec::new();
        for mut r in w.reads {
            if w.guards
                .iter()
                .any(|(m, d, k)| *m == r.map && *d == r.domain && *k == r.key)
            {
                r.guarded = true;
            }
            if !out.contains(&r) {
                out.push(r);
            }
        }
        out
    }

    /// Every domain the expression indexes `device.attributes` or
    /// `device.capacity` with a literal (`device.attributes["d"]`), read,
    /// tested or used whole, once each, in order.
    pub fn indexed_domains(&self) -> Vec<(&'static str, String)> {
        fn visit(e: &IdedExpr, out: &mut Vec<(&'static str, String)>) {
            if let Some(d) = domain_of(e) {
                if !out.contains(&d) {
                    out.push(d);
                }
            }
            for child in super::children(e) {
                visit(child, out);
            }
        }
        let mut out = Vec::new();
        visit(&self.expr, &mut out);
        out
    }

    /// Every attribute the expression can read, as qualified names
    /// (`domain/name`), or `None` when it uses the device in a way that
    /// could read any attribute (`device.attributes` or a domain's map as a
    /// value, a computed key, `device` itself). Capacity, driver and
    /// allowMultipleAllocations reads are not listed. The allocator uses
    /// this to know which attribute values can change a selector's answer.
    pub fn attribute_reads(&self) -> Option<Vec<String>> {
        fn visit(e: &IdedExpr, out: &mut Vec<String>) -> bool {
            let mut read = |domain: String, key: &str| {
                let name = format!("{domain}/{key}");
                if !out.contains(&name) {
                    out.push(name);
                }
            };
            match &e.expr {
                Expr::Select(s) => {
                    if let Some(("attributes", domain)) = domain_of(&s.operand) {
                        read(domain, &s.field);
                        return true;
                    }
                    if matches!(&s.operand.expr, Expr::Ident(d) if d == "device")
                        && matches!(
                            s.field.as_str(),
                            "driver" | "capacity" | "allowMultipleAllocations"
                        )
                    {
                        return true;
                    }
                }
                Expr::Call(c) => {
                    let key = |k: &IdedExpr| match &k.expr {
                        Expr::Literal(LiteralValue::String(s)) => Some(s.inner().to_owned()),
                        Expr::Ident(i) if c.func_name == op::OPT_SELECT => Some(i.clone()),
                        _ => None,
                    };
                    match (c.func_name.as_str(), c.args.as_slice()) {
                        (op::INDEX | op::OPT_INDEX | op::OPT_SELECT, [container, k]) => {
                            if let (Some(("attributes", domain)), Some(k)) =
                                (domain_of(container), key(k))
                            {
                                read(domain, &k);
                                return true;
                            }
                        }
                        (op::IN, [k, container]) => {
                            if let (Some(("attributes", domain)), Some(k)) =
                                (domain_of(container), string_lit(k))
                            {
                                read(domain, k);
                                return true;
                            }
                        }
                        _ => {}
                    }
                }
                Expr::Ident(d) if d == "device" => return false,
                _ => {}
            }
            super::children(e)
                .into_iter()
                .all(|child| visit(child, out))
        }
        let mut out = Vec::new();
        visit(&self.expr, &mut out).then_some(out)
    }

    /// The driver names the expression compares `device.driver` with (`==`).
    pub fn driver_literals(&self) -> Vec<String> {
        fn visit(e: &IdedExpr, out: &mut Vec<String>) {
            if let Expr::Call(c) = &e.expr {
                if c.func_name == op::EQUALS && c.args.len() == 2 {
                    for (a, b) in [(&c.args[0], &c.args[1]), (&c.args[1], &c.args[0])] {
                        if let (Expr::Select(s), Some(lit)) = (&a.expr, string_lit(b)) {
                            if s.field == "driver"
                                && matches!(&s.operand.expr, Expr::Ident(d) if d == "device")
                            {
                                out.push(lit.to_owned());
                            }
                        }
                    }
                }
            }
            for child in super::children(e) {
                visit(child, out);
            }
        }
        let mut out = Vec::new();
        visit(&self.expr, &mut out);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Env, Program};

    fn lookups(expr: &str) -> Vec<(String, bool)> {
        let env = Env {
            allow_multiple_allocations: true,
            list_type_attributes: true,
            ext_lists: true,
            attributes_dyn: true,
        };
        Program::compile(expr, &env)
            .unwrap()
            .lookups()
            .into_iter()
            .map(|l| (l.key, l.guarded))
            .collect()
    }

    fn reads(expr: &str) -> Option<Vec<String>> {
        let env = Env {
            allow_multiple_allocations: true,
            list_type_attributes: true,
            ext_lists: true,
            attributes_dyn: true,
        };
        Program::compile(expr, &env).unwrap().attribute_reads()
    }

    #[test]
    fn attribute_reads_are_listed_or_refused() {
        let d = r#"device.attributes["d.example.com"]"#;
        assert_eq!(
            reads(&format!(
                r#"{d}.model == "a" && has({d}.x) && "y" in {d} && {d}["z"] > 1 && {d}.?w.orValue(1) == 1 && device.capacity["d.example.com"].mem.isGreaterThan(quantity("1")) && device.driver == "d""#
            )),
            Some(
                ["model", "x", "y", "z", "w"]
                    .iter()
                    .map(|k| format!("d.example.com/{k}"))
                    .collect()
            )
        );
        // The domain's map as a value, a computed key, the device itself:
        // any attribute could be read.
        for e in [
            format!("{d}.size() > 0"),
            format!(r#"{d}["mo" + "del"] == "a""#),
            r#"device.attributes.exists(k, k == "x")"#.to_owned(),
            r#"cel.bind(a, device.attributes["d"], a.model == "x")"#.to_owned(),
            "[device].size() == 1".to_owned(),
        ] {
            assert_eq!(reads(&e), None, "{e}");
        }
    }

    #[test]
    fn driver_comparisons_are_found_anywhere() {
        let env = Env {
            allow_multiple_allocations: true,
            list_type_attributes: true,
            ext_lists: true,
            attributes_dyn: true,
        };
        let p = Program::compile(r#"[device.driver == "a.example.com"].all(x, x)"#, &env).unwrap();
        assert_eq!(p.driver_literals(), vec!["a.example.com".to_owned()]);
    }

    #[test]
    fn guards_are_recognised() {
        assert_eq!(
            lookups(r#"device.attributes["d"].model == "a""#),
            vec![("model".into(), false)]
        );
        assert_eq!(
            lookups(r#"has(device.attributes["d"].model) && device.attributes["d"].model == "a""#),
            vec![("model".into(), true)]
        );
        assert_eq!(
            lookups(
                r#""model" in device.attributes["d"] && device.attributes["d"]["model"] == "a""#
            ),
            vec![("model".into(), true)]
        );
        assert_eq!(
            lookups(r#"device.attributes["d"].?model.orValue("") == "a""#),
            vec![("model".into(), true)]
        );
        assert_eq!(
            lookups(r#"device.capacity["d"].memory.compareTo(quantity("1Gi")) > 0"#),
            vec![("memory".into(), false)]
        );
    }
}
