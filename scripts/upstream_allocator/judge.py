import sys, os, json, yaml, subprocess, glob
BIN = os.environ.get("KUBECTL_DRA", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "target", "debug", "kubectl-dra"))
def qnorm(v):
    return str(v)
def sel_norm(s):
    if s is None: return None
    terms = []
    for t in s.get("nodeSelectorTerms", []):
        terms.append(tuple(sorted((k, tuple(sorted((r["key"], r["operator"], tuple(sorted(r.get("values", [])))) for r in t.get(k, []) or []))) for k in ("matchExpressions", "matchFields"))))
    return sorted(terms)
def judge(path):
    case = yaml.safe_load(open(path))
    objs = case["objects"]
    f = os.path.join(os.environ.get("TMPDIR", "/tmp"), "upstream-allocator-objs.json")
    json.dump({"apiVersion": "v1", "kind": "List", "items": objs}, open(f, "w"))
    args = [BIN, "explain", "claim", *case["allocate"]["claims"], "--node", case["allocate"]["node"], "-o", "json", "-f", f]
    for g, v in (case.get("featureGates") or {}).items():
        args += ["--feature-gates", f"{g}={'true' if v else 'false'}"]
    if case.get("kubernetesVersion"):
        args += ["--kubernetes-version", case["kubernetesVersion"]]
    p = subprocess.run(args, capture_output=True, text=True, timeout=60)
    try:
        rep = json.loads(p.stdout)
    except Exception:
        return f"no json: {p.stderr[:300]}"
    res = rep.get("result"); exp = case["expect"]
    if "error" in exp:
        if res == "error" and exp["error"] in (rep.get("error") or ""): return None
        return f"want error {exp['error']!r}, got {res}: {rep.get('error')!r}"
    if exp.get("unsatisfiable"):
        if res == "unsatisfiable" and exp.get("reason"):
            reasons = [r for c in rep.get("claims", []) for r in (c.get("explanation") or {}).get("reasons", [])]
            if not any(exp["reason"] in r for r in reasons):
                return f"want reason {exp['reason']!r}, got {reasons}"
        return None if res == "unsatisfiable" else f"want unsatisfiable, got {res} {rep.get('error')!r} {[c.get('allocation') for c in rep.get('claims', [])]}"
    if res != "allocated":
        return f"want allocation, got {res}: {rep.get('error')!r}"
    for w in exp["allocation"]:
        got = [c for c in rep["claims"] if f"{c.get('namespace')}/{c.get('name')}" == w["claim"]][0]
        gr = got["allocation"]["devices"]["results"]
        keyf = lambda r: (r["request"], r["driver"], r["pool"], r["device"])
        wr = w["results"]
        if exp.get("anyOrder"):
            gr2 = sorted(gr, key=keyf); wr = sorted(wr, key=keyf)
        else:
            gr2 = gr
        if [keyf(r) for r in gr2] != [keyf(r) for r in wr]:
            return f"{w['claim']}: want {[keyf(r) for r in wr]}, got {[keyf(r) for r in gr2]}"
        for a, b in zip(wr, gr2):
            for k in ("adminAccess", "tolerations", "bindingConditions", "bindingFailureConditions"):
                if k in a and a[k] != b.get(k): return f"{k}: want {a[k]} got {b.get(k)}"
            if "shareID" in a and not b.get("shareID"): return "shareID missing"
            if "consumedCapacity" in a and {k: str(v) for k, v in a["consumedCapacity"].items()} != {k: str(v) for k, v in (b.get("consumedCapacity") or {}).items()}:
                return f"consumedCapacity: want {a['consumedCapacity']} got {b.get('consumedCapacity')}"
        if "config" in w:
            gc = got["allocation"]["devices"].get("config") or []
            norm = lambda cs: [(c.get("source"), tuple(c.get("requests") or []), json.dumps(c.get("opaque"), sort_keys=True)) for c in cs]
            if norm(w["config"]) != norm(gc):
                return f"config: want {w['config']} got {gc}"
        if "nodeSelector" in w and sel_norm(w["nodeSelector"]) != sel_norm(got["allocation"].get("nodeSelector")):
            return f"nodeSelector: want {w['nodeSelector']} got {got['allocation'].get('nodeSelector')}"
    return None
fails = 0; n = 0
for path in sorted(glob.glob(sys.argv[1] + "/*.yaml")):
    n += 1
    why = judge(path)
    if why:
        fails += 1
        print(os.path.basename(path), "->", why)
print(f"{n - fails}/{n}")
