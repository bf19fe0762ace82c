#!/usr/bin/env python3
# Extracts the costs cases of kubernetes/dynamic-resource-allocation's cel/compile_test.go
# (data only) for tests/cel_upstream.rs:
#   git -C MIRROR show release-1.36:cel/compile_test.go > /tmp/ct.go
#   python3 scripts/extract-cel-costs.py /tmp/ct.go release-1.36 > testdata/cel-upstream/costs-release-1.36.yaml
import re, sys, json
src = open(sys.argv[1]).read()
start = src.index('var testcases = map[string]struct')
body = src[src.index('}{', start)+2:]
end = body.index('\nfunc TestCEL')
body = body[:end]
# split top-level entries: lines starting with \t"name": {
entries = re.split(r'\n\t"([^"]+)": \{\n', '\n'+body)
consts = {'maxElementsListTypeEnabled': 64}
out = []
for i in range(1, len(entries), 2):
    name, blk = entries[i], '\n' + entries[i+1]
    if 'expectCompileError' in blk: continue
    m = re.search(r'\n\t\texpression:\s+`([^`]*)`', blk) or re.search(r'\n\t\texpression:\s+"((?:[^"\\]|\\.)*)"', blk)
    if not m:
        print("skip (expression)", name, file=sys.stderr); continue
    expr = m.group(1)
    if m.re.pattern.endswith('"'):
        expr = json.loads('"'+expr+'"')
    c = re.search(r'\n\t\texpectCost:\s+([^\n]*),', blk)
    cost = 0
    if c:
        text = re.sub(r'/\*.*?\*/', '', c.group(1)).split('//')[0].strip().rstrip(',')
        for k, v in consts.items(): text = text.replace(k, str(v))
        try: cost = eval(text)
        except Exception as e:
            print("skip (cost)", name, text, file=sys.stderr); continue
    lt = re.search(r'enableListTypeAttributes:\s+(?:new|ptr\.To)\((true|false)\)', blk)
    env = 'new' if 'environment.NewExpressions' in blk else 'stored'
    cc = bool(re.search(r'enableConsumableCapacity:\s+true', blk))
    out.append((name, expr, cost, lt.group(1) if lt else 'both', env, cc))
print("# Estimated costs (CompilationResult.MaxCost) that kubernetes/dynamic-resource-allocation's")
print("# cel/compile_test.go expects (expectCost) on " + sys.argv[2] + "; extracted by scripts/extract-cel-costs.py, data only.")
print("# listTypes: the DRAListTypeAttributes feature (both: the upstream test runs either way).")
print("cases:")
for name, expr, cost, lt, env, cc in sorted(out):
    print(f"- name: {json.dumps(name)}")
    print(f"  expression: {json.dumps(expr)}")
    print(f"  cost: {cost}")
    print(f"  listTypes: {lt}")
    print(f"  env: {env}")
    print(f"  consumableCapacity: {str(cc).lower()}")
