#!/usr/bin/env python3
"""docs/rules-by-release.md: what every rule reports at each release.

Every manifest the tests hold (release fixtures, conformance lint cases, rule
fixtures, the corpus) is linted at 1.34, 1.35, 1.36 and 1.37 with the gates
it names; for each rule the table shows the field path, error type and
message one witness gets at each release. Run by scripts/readme.py after
`cargo build`; tests/rules_by_release.rs checks that every rule has a row.
"""
import re
import concurrent.futures
import glob
import json
import os
import subprocess
import sys
import tempfile

import yaml

RELEASES = ['1.34', '1.35', '1.36', '1.37']
BIN = './target/debug/kubectl-dra'
ALL = 'AllAlpha=true,AllBeta=true'


def witnesses(tmp):
    """(name, manifest path, extra lint flags, gates per release) of every test manifest."""
    out = []

    def write(name, text):
        p = os.path.join(tmp, name.replace('/', '_') + '.yaml')
        with open(p, 'w') as f:
            f.write(text)
        return p

    for f in sorted(glob.glob('testdata/releases/*.yaml')):
        case = yaml.safe_load(open(f))
        name = 'testdata/releases/' + os.path.basename(f)
        gates = case.get('gates')
        per = {v: (gates.get(v) if isinstance(gates, dict) else gates) for v in RELEASES}
        stored = write(name + '.stored', case['stored']) if case.get('stored') else None
        extra = ['--stored', stored] if stored else []
        if case.get('subresource'):
            extra += ['--subresource', case['subresource']]
        out.append((name, write(name, case['manifest']), extra, per))
    for f in sorted(glob.glob('testdata/conformance/lint/*.yaml')):
        case = yaml.safe_load(open(f))
        gates = case.get('featureGates') or {}
        g = ','.join('%s=%s' % (k, str(v).lower()) for k, v in gates.items()) or None
        # JSON documents: strings stay strings (YAML 1.1 would read `y` as true).
        text = '\n---\n'.join(json.dumps(o) for o in case['objects'])
        name = 'testdata/conformance/lint/' + os.path.basename(f)
        out.append((name, write(name, text), [], {v: g for v in RELEASES}))
    for f in sorted(glob.glob('testdata/fixtures/rules/*.yaml') + glob.glob('testdata/witnesses/*.yaml')):
        first = open(f).read().split('\n', 1)[0]
        args = first[len('# args:'):].split() if first.startswith('# args:') else []
        # Every flag but the release, which the table varies.
        if '--kubernetes-version' in args:
            i = args.index('--kubernetes-version')
            del args[i:i + 2]
        out.append((f, f, args, {v: None for v in RELEASES}))
    for f in sorted(glob.glob('testdata/corpus/**/*.yaml', recursive=True)):
        out.append((f, f, [], {v: None for v in RELEASES}))
    for f in sorted(glob.glob('testdata/rbac-corpus/**/*.yaml', recursive=True)):
        out.append((f, f, [], {v: None for v in RELEASES}))
    return out


def lint(job):
    name, path, extra, version, gates = job
    args = [BIN, 'lint', path, '--kubernetes-version', version, '-o', 'json', '--no-config'] + extra
    if gates:
        args += ['--feature-gates', gates]
    r = subprocess.run(args, capture_output=True, text=True, env={'NO_COLOR': '1', 'PATH': os.environ['PATH']})
    try:
        return job, json.loads(r.stdout)['diagnostics']
    except (ValueError, KeyError):
        # A gate the release does not have: nothing to show at that release.
        return job, None


def cell(d):
    msg = ' '.join(d['message'].split()).replace('|', '\\|')
    if len(msg) > 140:
        msg = msg[:137] + '...'
    field = d.get('field') or '(file)'
    kind = d.get('type') or d['severity']
    return '`%s` %s: %s' % (field.replace('|', '\\|'), kind, msg)


def main():
    table = subprocess.run([BIN, 'rules', '--markdown'], capture_output=True, text=True, check=True).stdout
    rules = []
    for line in table.splitlines():
        cols = [c.strip() for c in line.strip().strip('|').split('|')]
        if len(cols) > 2 and cols[0].startswith('DRA-'):
            rules.append({'id': cols[0], 'name': cols[1].strip('`')})
    with tempfile.TemporaryDirectory() as tmp:
        ws = witnesses(tmp)
        jobs = [(n, p, s, v, g[v]) for (n, p, s, g) in ws for v in RELEASES]
        # Again with every alpha and beta gate on: a rule of a gated field
        # shows at a release where the gate exists but is off by default.
        jobs += [(n, p, s, v, ALL + (',' + g[v] if g[v] else '')) for (n, p, s, g) in ws for v in RELEASES]
        with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as ex:
            results = list(ex.map(lint, jobs))
    # found[rule][witness][version] = first finding of that rule
    found = {}
    order = {n: i for i, (n, _, _, _) in enumerate(ws)}
    gated = {}
    for (name, _, _, version, gates), diags in results:
        into = gated if gates and gates.startswith(ALL) else found
        for d in diags or []:
            into.setdefault(d['rule'], {}).setdefault(name, {}).setdefault(version, d)
    rows = ['| Rule | 1.34 | 1.35 | 1.36 | 1.37 | Witness |', '| --- | --- | --- | --- | --- | --- |']
    missing = []
    for r in rules:
        rid = r['id']
        per = found.get(rid) or {}
        on = gated.get(rid) or {}
        if not per and not on:
            missing.append(rid)
            continue
        # The witness that shows the rule at the most releases, then the one
        # whose message changes most between releases, then the first.
        pool = per or on
        def variety(n):
            ds = list(pool[n].values()) + list(on.get(n, {}).values())
            return len({re.sub(r'1\.3\d', '1.x', cell(d)) for d in ds})
        best = max(pool, key=lambda n: (len(pool[n]) + len(on.get(n, {})), variety(n), -order[n]))
        cells = []
        for v in RELEASES:
            if v in per.get(best, {}):
                cells.append(cell(per[best][v]))
            elif v in on.get(best, {}):
                cells.append(cell(on[best][v]) + ' (only with its gate on: not at the default gates)')
            else:
                other = [n for n in sorted(per, key=order.get) if v in per[n]]
                other_on = [n for n in sorted(on, key=order.get) if v in on[n]]
                if other:
                    cells.append(cell(per[other[0]][v]) + ' (from %s)' % other[0])
                elif other_on:
                    cells.append(cell(on[other_on[0]][v]) + ' (only with its gate on; from %s)' % other_on[0])
                else:
                    cells.append('not reported')
        rows.append('| %s `%s` | %s | %s |' % (rid, r['name'], ' | '.join(cells), best))
    body = '\n'.join(rows)
    note = ('Rules with no witness in the test data (their per-release behaviour is in their docs, '
            '`kubectl dra rules ID`): ' + ', '.join(missing) + '.') if missing else 'Every rule has a witness.'
    doc = open('scripts/docs/rules-by-release.md.in').read().replace('@@TABLE@@', body).replace('@@MISSING@@', note)
    if '--check' in sys.argv:
        # CI: the committed table must be what lint reports now (messages too).
        if open('docs/rules-by-release.md').read() != doc:
            old = open('docs/rules-by-release.md').read().splitlines()
            new = doc.splitlines()
            changed = [n for o, n in zip(old, new) if o != n][:5]
            print('docs/rules-by-release.md is not what lint reports now; run `cargo build && '
                  'python3 scripts/readme.py`. First changed rows:', file=sys.stderr)
            for line in changed:
                print('  ' + line[:300], file=sys.stderr)
            sys.exit(1)
        return
    with open('docs/rules-by-release.md', 'w') as f:
        f.write(doc)
    print('docs/rules-by-release.md: %d rules, %d without a witness' % (len(rules) - len(missing), len(missing)), file=sys.stderr)


if __name__ == '__main__':
    main()
