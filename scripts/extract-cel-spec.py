#!/usr/bin/env python3
# Extracts the closed-expression cases of google/cel-spec's conformance suite
# (tests/simple/testdata/*.textproto, data only) for tests/cel_spec.rs:
#   python3 scripts/extract-cel-spec.py MIRROR v0.24.0 testdata/cel-spec/v0.24.0
# MIRROR is a git clone of google/cel-spec; v0.24.0 is the cel.dev/expr that
# cel-go v0.26.0 (Kubernetes 1.34-1.36) runs its conformance tests with,
# v0.25.1 the one of cel-go v0.27.0 (Kubernetes 1.37).
#
# A case is kept when Kubernetes' DRA environment can run it: its variables,
# if any, plain identifiers of primitive, list or map types (the runner binds
# them to their values with cel.bind), no container, checked and with macros,
# and an expected value or error that is not a protocol buffer message or
# enum.
# The reasons for leaving the others out are counted in each file's header.
import json, os, subprocess, sys

FILES = ['basic', 'comparisons', 'conversions', 'dynamic', 'fields', 'fp_math',
         'integer_math', 'lists', 'logic', 'macros', 'macros2', 'optionals',
         'parse', 'plumbing', 'string', 'string_ext', 'timestamps',
         'bindings_ext']
# Not extracted: math_ext and encoders_ext (extensions Kubernetes does not
# load: apiserver/pkg/cel/environment/base.go), block_ext (cel.@block, an
# optimizer's internal), proto2/proto3/enums/wrappers/unknowns (protocol
# buffer messages and unknowns), type_deduction (types only).

ESC = {'n': b'\n', 't': b'\t', 'r': b'\r', 'a': b'\a', 'b': b'\b', 'f': b'\f',
       'v': b'\v', '\\': b'\\', "'": b"'", '"': b'"', '?': b'?'}


def tokens(text):
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c.isspace():
            i += 1
        elif c == '#':
            while i < n and text[i] != '\n':
                i += 1
        elif c in '{}<>:[],;':
            yield ('p', c)
            i += 1
        elif c in '"\'':
            q, i, out = c, i + 1, bytearray()
            while text[i] != q:
                if text[i] == '\\':
                    e = text[i + 1]
                    if e in ESC:
                        out += ESC[e]
                        i += 2
                    elif e in '01234567':
                        j = i + 1
                        while j < i + 4 and text[j] in '01234567':
                            j += 1
                        out.append(int(text[i + 1:j], 8) & 0xff)
                        i = j
                    elif e in 'xX':
                        j = i + 2
                        while j < i + 4 and text[j] in '0123456789abcdefABCDEF':
                            j += 1
                        out.append(int(text[i + 2:j], 16))
                        i = j
                    elif e in 'uU':
                        w = 4 if e == 'u' else 8
                        out += chr(int(text[i + 2:i + 2 + w], 16)).encode('utf-8', 'surrogatepass')
                        i += 2 + w
                    else:
                        raise ValueError('escape \\' + e)
                else:
                    out += text[i].encode('utf-8')
                    i += 1
            i += 1
            yield ('s', bytes(out))
        else:
            j = i
            while j < n and not text[j].isspace() and text[j] not in '{}<>:[],;#"\'':
                j += 1
            yield ('w', text[i:j])
            i = j


def parse(text):
    toks = list(tokens(text))
    pos = 0

    def message(close):
        nonlocal pos
        fields = {}
        while pos < len(toks) and toks[pos] != ('p', close):
            kind, name = toks[pos]
            pos += 1
            if (kind, name) == ('p', '['):  # an Any's type URL or an extension
                name = ''
                while toks[pos] != ('p', ']'):
                    name += toks[pos][1]
                    pos += 1
                pos += 1
            else:
                assert kind == 'w', toks[pos - 1]
            if toks[pos] == ('p', ':'):
                pos += 1
            fields.setdefault(name, []).extend(values())
            if pos < len(toks) and toks[pos] in (('p', ','), ('p', ';')):
                pos += 1
        pos += 1
        return fields

    def values():
        nonlocal pos
        t = toks[pos]
        if t == ('p', '['):
            pos += 1
            out = []
            while toks[pos] != ('p', ']'):
                out.extend(values())
                if toks[pos] == ('p', ','):
                    pos += 1
            pos += 1
            return out
        if t in (('p', '{'), ('p', '<')):
            pos += 1
            return [message('}' if t[1] == '{' else '>')]
        if t[0] == 's':
            out = b''
            while pos < len(toks) and toks[pos][0] == 's':
                out += toks[pos][1]
                pos += 1
            return [out]
        pos += 1
        if t == ('w', '-'):
            t2 = toks[pos]
            pos += 1
            return ['-' + t2[1]]
        return [t[1]]

    toks.append(('p', '}'))
    return message('}')


def one(m, k, default=None):
    v = m.get(k)
    return v[0] if v else default


def number(w):
    w = w.lower()
    if w.endswith('f') and not w.endswith('inf'):  # a float suffix, 1.5f
        w = w[:-1]
    if w in ('inf', 'infinity'):
        return 'inf'
    if w in ('-inf', '-infinity'):
        return '-inf'
    if w == 'nan':
        return 'nan'
    return w


def value(v):
    """A cel.expr.Value as tagged JSON, or None for a message or enum."""
    if 'null_value' in v:
        return {'null': None}
    if 'bool_value' in v:
        return {'bool': one(v, 'bool_value') in ('true', 't', 'True', '1')}
    if 'int64_value' in v:
        return {'int': str(int(one(v, 'int64_value'), 0))}
    if 'uint64_value' in v:
        return {'uint': str(int(one(v, 'uint64_value'), 0))}
    if 'double_value' in v:
        return {'double': number(one(v, 'double_value'))}
    if 'string_value' in v:
        return {'string': one(v, 'string_value').decode('utf-8')}
    if 'bytes_value' in v:
        return {'bytes': one(v, 'bytes_value').hex()}
    if 'type_value' in v:
        return {'type': one(v, 'type_value').decode()}
    if 'list_value' in v:
        items = [value(x) for x in one(v, 'list_value').get('values', [])]
        return None if None in items else {'list': items}
    if 'map_value' in v:
        entries = []
        for e in one(v, 'map_value').get('entries', []):
            k, x = value(one(e, 'key')), value(one(e, 'value'))
            if k is None or x is None:
                return None
            entries.append([k, x])
        return {'map': entries}
    if not v:
        return None
    return None


def literal(tagged):
    """The CEL literal of a tagged value (for a variable's binding)."""
    (tag, v), = tagged.items()
    if tag == 'null':
        return 'null'
    if tag == 'bool':
        return 'true' if v else 'false'
    if tag == 'int':
        return v
    if tag == 'uint':
        return v + 'u'
    if tag == 'double':
        if v in ('inf', '-inf', 'nan'):
            return 'double("%s")' % {'inf': 'Infinity', '-inf': '-Infinity', 'nan': 'NaN'}[v]
        return repr(float(v))
    if tag == 'string':
        return json.dumps(v, ensure_ascii=False)
    if tag == 'bytes':
        return 'b"' + ''.join('\\x%02x' % b for b in bytes.fromhex(v)) + '"'
    if tag == 'list':
        return '[' + ', '.join(literal(x) for x in v) + ']'
    if tag == 'map':
        return '{' + ', '.join('%s: %s' % (literal(k), literal(x)) for k, x in v) + '}'
    raise ValueError(tag)


def plain_type(t):
    """Whether a declared type is one a literal of the value has: primitives,
    null, and lists and maps of them (no dyn, messages or well-known types)."""
    if 'primitive' in t or 'null' in t:
        return True
    if 'list_type' in t:
        return plain_type(one(one(t, 'list_type'), 'elem_type', {}))
    if 'map_type' in t:
        m = one(t, 'map_type')
        return plain_type(one(m, 'key_type', {})) and plain_type(one(m, 'value_type', {}))
    return False


def variables(test):
    """The test's variables as (name, CEL literal), when each is a plain
    identifier declared with a plain type and bound to a plain value; else
    None. The runner binds them with cel.bind, which gives each the
    literal's type, the declared one."""
    declared = {one(d, 'name').decode(): one(one(d, 'ident', {}), 'type', {}) for d in test.get('type_env', [])}
    out = []
    for b in test.get('bindings', []):
        name = one(b, 'key').decode()
        if not name.isidentifier() or name in ('true', 'false', 'null') or name not in declared:
            return None
        if not plain_type(declared[name]):
            return None
        tagged = value(one(one(b, 'value'), 'value', {}))
        if tagged is None:
            return None
        out.append({'name': name, 'literal': literal(tagged)})
    return out if len(out) == len(declared) else None


def cases(name, fields):
    kept, left = [], {}
    for section in fields.get('section', []):
        for test in section.get('test', []):
            tid = '%s/%s/%s' % (name, one(section, 'name').decode(), one(test, 'name').decode())
            why = None
            bound = variables(test) if 'bindings' in test else None
            for k, reason in (('bindings', 'variables'), ('type_env', 'variables'),
                              ('container', 'container'), ('disable_check', 'unchecked'),
                              ('disable_macros', 'no macros'), ('check_only', 'type only'),
                              ('typed_result', 'type only'), ('locale', 'locale'),
                              ('unknown', 'unknowns'), ('any_unknowns', 'unknowns')):
                if k in test and one(test, k) not in ('false', b''):
                    if k in ('bindings', 'type_env') and bound is not None:
                        continue
                    why = reason
                    break
            expect = None
            if why is None:
                if 'eval_error' in test or 'any_eval_errors' in test:
                    errs = one(test, 'eval_error') or {}
                    msgs = [one(e, 'message', b'').decode() for s in errs.get('errors', [])
                            for e in [s]]
                    expect = {'error': msgs[0] if msgs else ''}
                else:
                    v = one(test, 'value')
                    if v is None:
                        expect = {'value': {'bool': True}}
                    else:
                        tagged = value(v)
                        if tagged is None:
                            why = 'message value'
                        else:
                            expect = {'value': tagged}
            if why:
                left[why] = left.get(why, 0) + 1
                continue
            case = {'id': tid, 'expr': one(test, 'expr').decode('utf-8'), **expect}
            if bound:
                case['vars'] = bound
            kept.append(case)
    return kept, left


def main():
    mirror, tag, out = sys.argv[1:4]
    os.makedirs(out, exist_ok=True)
    for name in FILES:
        path = 'tests/simple/testdata/%s.textproto' % name
        text = subprocess.run(['git', '-C', mirror, 'show', '%s:%s' % (tag, path)],
                              capture_output=True, check=True).stdout.decode('utf-8')
        kept, left = cases(name, parse(text))
        doc = {'source': 'google/cel-spec %s %s (extracted by scripts/extract-cel-spec.py)' % (tag, path),
               'leftOut': left, 'cases': kept}
        with open(os.path.join(out, name + '.json'), 'w') as f:
            json.dump(doc, f, indent=1, ensure_ascii=False)
            f.write('\n')
        print(name, len(kept), left, file=sys.stderr)


main()
