#!/usr/bin/env python3
# Extracts the matches cases of kubernetes/dynamic-resource-allocation's cel/compile_test.go
# (data only) for tests/cel_upstream.rs:
#   git -C MIRROR show release-1.36:cel/compile_test.go > /tmp/ct.go
#   python3 scripts/extract-cel-matches.py /tmp/ct.go release-1.36 > testdata/cel-upstream/matches-release-1.36.yaml
import re, sys, json
src = open(sys.argv[1]).read()
start = src.index('var testcases = map[string]struct')
body = src[src.index('}{', start)+2:]
body = body[:body.index('\nfunc TestCEL')]
entries = re.split(r'\n\t"([^"]+)": \{\n', '\n'+body)
def gostr(s):  # a Go double-quoted literal body -> text
    return json.loads('"'+s+'"')
def field(blk, name):
    m = re.search(r'\n\t\t'+name+r':\s+(.*?),\n', blk)
    return m.group(1) if m else None
def parse_map(text, kind):
    # entries "key": {...}
    out = {}
    for key, val in re.findall(r'"([^"]+)":\s*\{([^{}]*(?:\{[^{}]*\}[^{}]*)*)\}', text):
        val = val.strip()
        m = re.fullmatch(r'(Int|Bool|String|Version)Value:\s*(?:new|ptr\.To)\((.*)\)', val)
        if m:
            k, v = m.group(1), m.group(2)
            v = re.sub(r'^int64\((.*)\)$', r'\1', v)
            out[key] = {k.lower() if k != 'Int' else 'int': json.loads(v)}
            continue
        m = re.fullmatch(r'(Int|Bool|String|Version)Values:\s*\[\](?:int64|bool|string)\{(.*)\}', val)
        if m:
            k = {'Int': 'ints', 'Bool': 'bools', 'String': 'strings', 'Version': 'versions'}[m.group(1)]
            out[key] = {k: json.loads('['+m.group(2)+']')}
            continue
        m = re.fullmatch(r'Value:\s*resource\.MustParse\("([^"]*)"\)', val)
        if m and kind == 'capacity':
            out[key] = {'value': m.group(1)}
            continue
        return None
    return out
cases = []
for i in range(1, len(entries), 2):
    name, blk = entries[i], '\n' + entries[i+1]
    m = re.search(r'\n\t\texpression:\s+`([^`]*)`', blk) or re.search(r'\n\t\texpression:\s+"((?:[^"\\]|\\.)*)"', blk)
    if not m: continue
    expr = m.group(1) if m.re.pattern.endswith('`') else gostr(m.group(1))
    case = {'name': name, 'expression': expr}
    ok = True
    for kind in ('attributes', 'capacity'):
        mm = re.search(r'\n\t\t'+kind+r':\s+(map\[[^\]]*\][A-Za-z.]*\{.*?\}),\n\t\t[a-zA-Z]', blk, re.S)
        if re.search(r'\n\t\t'+kind+r':', blk) and not mm:
            ok = False; break
        if mm:
            parsed = parse_map(mm.group(1)[mm.group(1).index('{'):], kind)
            if parsed is None: ok = False; break
            case[kind] = parsed
    if not ok:
        print("skip", name, file=sys.stderr); continue
    d = field(blk, 'driver'); case['driver'] = gostr(d.strip('"')) if d else ''
    a = field(blk, 'allowMultipleAllocations')
    if a and 'true' in a: case['allowMultipleAllocations'] = True
    if a and 'false' in a: case['allowMultipleAllocations'] = False
    lt = re.search(r'enableListTypeAttributes:\s+(?:new|ptr\.To)\((true|false)\)', blk)
    case['listTypes'] = (lt.group(1) == 'true') if lt else 'both'
    case['env'] = 'new' if 'environment.NewExpressions' in blk else 'stored'
    case['consumableCapacity'] = bool(re.search(r'enableConsumableCapacity:\s+true', blk))
    for key, out in (('expectCompileError', 'compileError'), ('expectMatchError', 'matchError')):
        v = field(blk, key)
        if v: case[out] = gostr(v.strip('`"')) if v.startswith('"') else v.strip('`')
    case['match'] = bool(re.search(r'\n\t\texpectMatch:\s+true', blk))
    cases.append(case)
print("# Match results that kubernetes/dynamic-resource-allocation's cel/compile_test.go expects on", sys.argv[2] + ";")
print("# extracted by scripts/extract-cel-matches.py (data only). listTypes: both = the upstream test runs either way.")
print(json.dumps({'cases': sorted(cases, key=lambda c: c['name'])}, indent=1))
