//! How deep cel-go's ANTLR parser nests each grammar rule for an
//! expression, as its `recursionListener` counts (parser.go: a rule entered
//! adds one to that rule's depth, a rule left takes one off; the parse
//! fails past `maxRecursionDepth`, "expression recursion limit exceeded:
//! 250"). A step of a left-recursive rule (`relation`, `calc`, `member`)
//! adds nothing: the generated loop (parser/gen/cel_parser.go) triggers an
//! exit event before it pushes each new recursion context, and one more
//! when it unrolls. So `a.b.c...` and `1 + 2 + ...` meet the visitor's
//! limit, not this one (cel-go's parser_test.go: 33 selections, indexes,
//! additions or comparisons at limit 32 are "max recursion depth
//! exceeded"). The expression has parsed
//! already, so the walk follows CEL.g4 on valid input; on anything it does
//! not expect it stops and reports what it has counted.

/// The grammar rules that can nest.
#[derive(Clone, Copy)]
enum Rule {
    Expr,
    Or,
    And,
    Relation,
    Calc,
    Unary,
    Member,
    Primary,
    ExprList,
    ListInit,
    OptExpr,
    MapInit,
    FieldInit,
}

const RULES: usize = 13;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tok<'a> {
    Punct(&'static str),
    Ident(&'a str),
    Literal,
}

fn lex(src: &str) -> Option<Vec<Tok<'_>>> {
    const PUNCTS: [&str; 27] = [
        "==", "!=", "<=", ">=", "&&", "||", "[?", ".?", "<", ">", "[", "]", "{", "}", "(", ")",
        ".", ",", "-", "!", "?", ":", "+", "*", "/", "%", "=",
    ];
    let b = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if src[i..].starts_with("//") {
            i = src[i..].find('\n').map_or(b.len(), |n| i + n);
            continue;
        }
        // Strings and bytes, with r/b prefixes and triple quotes.
        let prefix = src[i..]
            .bytes()
            .take_while(|c| matches!(c, b'r' | b'R' | b'b' | b'B'))
            .count();
        if prefix <= 2 && matches!(b.get(i + prefix), Some(b'"' | b'\'')) {
            let raw = src[i..i + prefix].contains(['r', 'R']);
            let q = b[i + prefix];
            let triple = b.get(i + prefix..i + prefix + 3) == Some(&[q, q, q][..]);
            let mut j = i + prefix + if triple { 3 } else { 1 };
            loop {
                let c = *b.get(j)?;
                if c == b'\\' && !raw {
                    j += 2;
                    continue;
                }
                if c == q && (!triple || b.get(j..j + 3) == Some(&[q, q, q][..])) {
                    j += if triple { 3 } else { 1 };
                    break;
                }
                j += 1;
            }
            out.push(Tok::Literal);
            i = j;
            continue;
        }
        if c.is_ascii_alphabetic() || c == b'_' {
            let n = src[i..]
                .bytes()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == b'_')
                .count();
            let word = &src[i..i + n];
            out.push(match word {
                "true" | "false" | "null" => Tok::Literal,
                "in" => Tok::Punct("in"),
                _ => Tok::Ident(word),
            });
            i += n;
            continue;
        }
        if c == b'`' {
            let n = src[i + 1..].find('`')?;
            out.push(Tok::Ident("`"));
            i += n + 2;
            continue;
        }
        if c.is_ascii_digit() || (c == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_digit)) {
            let mut j = i;
            if src[i..].starts_with("0x") || src[i..].starts_with("0X") {
                j += 2;
                while b.get(j).is_some_and(u8::is_ascii_hexdigit) {
                    j += 1;
                }
            } else {
                while let Some(&d) = b.get(j) {
                    let exp_sign = matches!(d, b'+' | b'-') && matches!(b[j - 1], b'e' | b'E');
                    if d.is_ascii_digit() || matches!(d, b'.' | b'e' | b'E') || exp_sign {
                        j += 1;
                    } else {
                        break;
                    }
                }
            }
            if matches!(b.get(j), Some(b'u' | b'U')) {
                j += 1;
            }
            out.push(Tok::Literal);
            i = j;
            continue;
        }
        let p = PUNCTS.iter().find(|p| src[i..].starts_with(**p))?;
        out.push(Tok::Punct(p));
        i += p.len();
    }
    Some(out)
}

struct Walk<'a> {
    toks: Vec<Tok<'a>>,
    at: usize,
    depth: [usize; RULES],
    deepest: usize,
    /// Gives up past this depth: the answer is known, and the walk recurses.
    stop: usize,
}

type Step = Option<()>;

impl Walk<'_> {
    fn peek(&self) -> Option<Tok<'_>> {
        self.toks.get(self.at).copied()
    }
    fn peek_at(&self, n: usize) -> Option<Tok<'_>> {
        self.toks.get(self.at + n).copied()
    }
    fn is(&self, p: &str) -> bool {
        matches!(self.peek(), Some(Tok::Punct(q)) if q == p)
    }
    fn eat(&mut self, p: &str) -> Step {
        self.is(p).then(|| self.at += 1)
    }
    fn enter(&mut self, r: Rule) -> Step {
        let d = &mut self.depth[r as usize];
        *d += 1;
        self.deepest = self.deepest.max(*d);
        (self.deepest <= self.stop).then_some(())
    }
    fn exit(&mut self, r: Rule, n: usize) {
        self.depth[r as usize] -= n;
    }

    fn expr(&mut self) -> Step {
        self.enter(Rule::Expr)?;
        self.or()?;
        if self.eat("?").is_some() {
            self.or()?;
            self.eat(":")?;
            self.expr()?;
        }
        self.exit(Rule::Expr, 1);
        Some(())
    }

    fn or(&mut self) -> Step {
        self.enter(Rule::Or)?;
        self.and()?;
        while self.eat("||").is_some() {
            self.and()?;
        }
        self.exit(Rule::Or, 1);
        Some(())
    }

    fn and(&mut self) -> Step {
        self.enter(Rule::And)?;
        self.relation(0)?;
        while self.eat("&&").is_some() {
            self.relation(0)?;
        }
        self.exit(Rule::And, 1);
        Some(())
    }

    /// `relation: calc | relation op relation` (one binary level: the
    /// right operand is `relation[2]`).
    fn relation(&mut self, prec: u8) -> Step {
        self.enter(Rule::Relation)?;
        self.calc(0)?;
        while prec <= 1
            && ["<", "<=", ">=", ">", "==", "!=", "in"]
                .iter()
                .any(|op| self.is(op))
        {
            self.at += 1;
            self.relation(2)?;
        }
        self.exit(Rule::Relation, 1);
        Some(())
    }

    /// `calc: unary | calc ('*'|'/'|'%') calc | calc ('+'|'-') calc`.
    fn calc(&mut self, prec: u8) -> Step {
        self.enter(Rule::Calc)?;
        self.unary()?;
        loop {
            let next = if ["*", "/", "%"].iter().any(|op| self.is(op)) && prec <= 2 {
                3
            } else if ["+", "-"].iter().any(|op| self.is(op)) && prec <= 1 {
                2
            } else {
                break;
            };
            self.at += 1;
            self.calc(next)?;
        }
        self.exit(Rule::Calc, 1);
        Some(())
    }

    fn unary(&mut self) -> Step {
        self.enter(Rule::Unary)?;
        while self.eat("!").is_some() {}
        // `-1` is a literal with its sign (the first viable alternative);
        // `-x` a negation: either way `member` comes next.
        while self.is("-") && !matches!(self.peek_at(1), Some(Tok::Literal)) {
            self.at += 1;
        }
        self.member()?;
        self.exit(Rule::Unary, 1);
        Some(())
    }

    /// `member: primary | member '.' id | member '.' id '(' args ')' |
    /// member '[' expr ']'`: a step does not nest the rule (see the module
    /// comment); its arguments, in brackets, do.
    fn member(&mut self) -> Step {
        self.enter(Rule::Member)?;
        self.primary()?;
        loop {
            if self.is(".") || self.is(".?") {
                self.at += 1;
                if !matches!(self.peek(), Some(Tok::Ident(_))) {
                    return None;
                }
                self.at += 1;
                if self.eat("(").is_some() {
                    if !self.is(")") {
                        self.expr_list()?;
                    }
                    self.eat(")")?;
                }
            } else if self.is("[") || self.is("[?") {
                self.at += 1;
                self.expr()?;
                self.eat("]")?;
            } else {
                break;
            }
        }
        self.exit(Rule::Member, 1);
        Some(())
    }

    fn primary(&mut self) -> Step {
        self.enter(Rule::Primary)?;
        let _ = self.eat(".");
        match self.peek()? {
            Tok::Ident(_) => {
                self.at += 1;
                if self.eat("(").is_some() {
                    if !self.is(")") {
                        self.expr_list()?;
                    }
                    self.eat(")")?;
                } else {
                    // `a.b.C{...}`: a message literal.
                    let mut n = 0;
                    while matches!(self.peek_at(n), Some(Tok::Punct(".")))
                        && matches!(self.peek_at(n + 1), Some(Tok::Ident(_)))
                    {
                        n += 2;
                    }
                    if matches!(self.peek_at(n), Some(Tok::Punct("{"))) {
                        self.at += n + 1;
                        if !self.is("}") {
                            self.field_init()?;
                        }
                        let _ = self.eat(",");
                        self.eat("}")?;
                    }
                }
            }
            Tok::Punct("(") => {
                self.at += 1;
                self.expr()?;
                self.eat(")")?;
            }
            Tok::Punct("[") => {
                self.at += 1;
                if !self.is("]") {
                    self.list_init()?;
                }
                let _ = self.eat(",");
                self.eat("]")?;
            }
            Tok::Punct("{") => {
                self.at += 1;
                if !self.is("}") {
                    self.map_init()?;
                }
                let _ = self.eat(",");
                self.eat("}")?;
            }
            Tok::Punct("-") | Tok::Literal => {
                let _ = self.eat("-");
                self.at += 1;
            }
            Tok::Punct(_) => return None,
        }
        self.exit(Rule::Primary, 1);
        Some(())
    }

    fn expr_list(&mut self) -> Step {
        self.enter(Rule::ExprList)?;
        self.expr()?;
        while self.eat(",").is_some() {
            self.expr()?;
        }
        self.exit(Rule::ExprList, 1);
        Some(())
    }

    fn opt_expr(&mut self) -> Step {
        self.enter(Rule::OptExpr)?;
        let _ = self.eat("?");
        self.expr()?;
        self.exit(Rule::OptExpr, 1);
        Some(())
    }

    fn list_init(&mut self) -> Step {
        self.enter(Rule::ListInit)?;
        self.opt_expr()?;
        while self.is(",") && !matches!(self.peek_at(1), Some(Tok::Punct("]"))) {
            self.at += 1;
            self.opt_expr()?;
        }
        self.exit(Rule::ListInit, 1);
        Some(())
    }

    fn map_init(&mut self) -> Step {
        self.enter(Rule::MapInit)?;
        loop {
            self.opt_expr()?;
            self.eat(":")?;
            self.expr()?;
            if self.is(",") && !matches!(self.peek_at(1), Some(Tok::Punct("}"))) {
                self.at += 1;
            } else {
                break;
            }
        }
        self.exit(Rule::MapInit, 1);
        Some(())
    }

    fn field_init(&mut self) -> Step {
        self.enter(Rule::FieldInit)?;
        loop {
            let _ = self.eat("?");
            if !matches!(self.peek(), Some(Tok::Ident(_))) {
                return None;
            }
            self.at += 1;
            self.eat(":")?;
            self.expr()?;
            if self.is(",") && !matches!(self.peek_at(1), Some(Tok::Punct("}"))) {
                self.at += 1;
            } else {
                break;
            }
        }
        self.exit(Rule::FieldInit, 1);
        Some(())
    }
}

/// The deepest any rule nests while cel-go parses `src`; it stops counting
/// once past `stop`.
pub fn rule_depth(src: &str, stop: usize) -> usize {
    let Some(toks) = lex(src) else {
        return 0;
    };
    let mut w = Walk {
        toks,
        at: 0,
        depth: [0; RULES],
        deepest: 0,
        stop,
    };
    let _ = w.expr();
    w.deepest
}

#[cfg(test)]
mod tests {
    use super::rule_depth;

    #[test]
    fn depths_as_the_listener_counts_them() {
        let d = |s: &str| rule_depth(s, 10_000);
        // `a == b`: relation entered, its right operand entered again.
        assert_eq!(d("a == b"), 2);
        // A left-recursive step adds nothing: chains are not deep here.
        assert_eq!(d(&format!("device{} == 1", ".a".repeat(249))), 2);
        assert_eq!(d(&vec!["1"; 249].join("+")), 2);
        assert_eq!(
            d(&format!("{}true{}", "(".repeat(249), ")".repeat(249))),
            250
        );
        // A method call's arguments nest `expr` and `member` once a level.
        let nested = |n: usize| format!("{}true{}", "[1].all(x, ".repeat(n), ")".repeat(n));
        assert_eq!(d(&nested(124)), 125);
        assert_eq!(d(&nested(250)), 251);
        // Strings, comments and numbers do not confuse the count.
        assert_eq!(d("'a(b' == \"[\" // (((\n && 1.5e-3 < 0x1Fu"), 2);
    }
}
