import subprocess
ex = subprocess.run(['./target/debug/kubectl-dra','lint','testdata/fixtures/render/slices.yaml'],capture_output=True,text=True,env={'NO_COLOR':'1'}).stdout.rstrip()
rules = subprocess.run(['./target/debug/kubectl-dra','rules','--markdown'],capture_output=True,text=True).stdout.strip()
t = open('scripts/README.tmpl').read()
m = subprocess.run(['./target/debug/kubectl-dra','match','device.attributes["gpu.example.com"].profile == "1g.10gb"','-f','examples/gpu-partitionable.yaml'],capture_output=True,text=True).stdout.rstrip()
t = t.replace('@@MATCH@@', m)
e = subprocess.run(['./target/debug/kubectl-dra','explain','pod','team-a/trainer','-f','testdata/fixtures/explain-fleet/fleet.yaml'],capture_output=True,text=True).stdout.rstrip()
t = t.replace('@@EXPLAIN@@', e)
ep = subprocess.run(['./target/debug/kubectl-dra','explain','pods','-f','testdata/fixtures/explain-pods/cluster.yaml','-n','team-a'],capture_output=True,text=True,env={'NO_COLOR':'1'}).stdout.rstrip()
t = t.replace('@@PODS@@', ep)
cp = subprocess.run(['./target/debug/kubectl-dra','capacity','template','team-a/one-gpu','-f','testdata/fixtures/explain-pods/cluster.yaml'],capture_output=True,text=True,env={'NO_COLOR':'1'}).stdout.rstrip()
t = t.replace('@@CAPACITY@@', cp)
wi = subprocess.run(['./target/debug/kubectl-dra','explain','pods','-n','team-a','-f','testdata/fixtures/explain-pods/cluster.yaml','--delete','devicetaintrule/worker-2-maintenance'],capture_output=True,text=True,env={'NO_COLOR':'1'}).stdout.rstrip()
sm = subprocess.run(['./target/debug/kubectl-dra','devices','-f','testdata/fixtures/explain-pods/cluster.yaml','--summary','-g','node','-g','namespace'],capture_output=True,text=True,env={'NO_COLOR':'1'}).stdout.rstrip()
dr = subprocess.run(['./target/debug/kubectl-dra','doctor','-f','testdata/fixtures/doctor/cluster.yaml'],capture_output=True,text=True,env={'NO_COLOR':'1'}).stdout.rstrip()
dl = dr.splitlines()
t = t.replace('@@DOCTOR_SHORT@@', '\n'.join(dl[:20] + ['...'] + dl[-1:]))
rb = subprocess.run(['./target/debug/kubectl-dra','rbac','--for','driver','--driver','gpu.example.com'],capture_output=True,text=True).stdout.rstrip()
t = t.replace('@@RBAC@@', rb)
rd = subprocess.run(['./target/debug/kubectl-dra','rbac','--for','kubectl-dra'],capture_output=True,text=True).stdout.rstrip()
t = t.replace('@@READER@@', rd)
cv = subprocess.run(['./target/debug/kubectl-dra','convert','--diff','testdata/fixtures/convert/beta.yaml'],capture_output=True,text=True).stdout.rstrip()
t = t.replace('@@CONVERT@@', cv)
fd = subprocess.run(['./target/debug/kubectl-dra','lint','--fix','--diff','testdata/fixtures/fix/dra-a001-deprecated-version.yaml'],capture_output=True,text=True).stdout.rstrip()
t = t.replace('@@FIXDIFF@@', fd)
t = t.replace('@@EXAMPLE@@', ex).replace('@@RULES@@', rules)
open('README.md','w').write(t)
# The manual: docs/*.md from scripts/docs/*.md.tmpl, with the same outputs.
import glob, os
# The per-release behaviours, from the fixtures tests/releases.rs runs.
import yaml
rows = ['| Behaviour | 1.34 | 1.35 | 1.36 | 1.37 | Source |', '| --- | --- | --- | --- | --- | --- |']
for f in sorted(glob.glob('testdata/releases/*.yaml')):
    case = yaml.safe_load(open(f))
    cells = []
    for v in ['1.34', '1.35', '1.36', '1.37']:
        errs = case['expect'].get(v)
        if errs is None:
            cells.append('—')
        elif not errs:
            cells.append('accepted')
        else:
            cells.append('<br>'.join('`%s` %s' % tuple(e.rsplit(' ', 1)) for e in errs))
    name = os.path.basename(f)[:-len('.yaml')]
    about = case['about'].replace('|', '\\|')
    source = case['source'].replace('|', '\\|')
    gates = case.get('gates')
    if isinstance(gates, dict):
        gates = '; '.join('%s: %s' % kv for kv in gates.items())
    g = ' (gates: `%s`)' % gates if gates else ''
    rows.append('| **%s**: %s%s | %s | %s |' % (name, about, g, ' | '.join(cells), source))
releases = '\n'.join(rows)
subs = {'@@MATCH@@': m, '@@EXPLAIN@@': e, '@@PODS@@': ep, '@@CAPACITY@@': cp, '@@WHATIF@@': wi, '@@SUMMARY@@': sm, '@@DOCTOR@@': dr, '@@RBAC@@': rb, '@@READER@@': rd, '@@CONVERT@@': cv,
        '@@FIXDIFF@@': fd, '@@EXAMPLE@@': ex, '@@RULES@@': rules, '@@RELEASES@@': releases}
for tmpl in sorted(glob.glob('scripts/docs/*.md.tmpl')):
    d = open(tmpl).read()
    for k, v in subs.items():
        d = d.replace(k, v)
    open(os.path.join('docs', os.path.basename(tmpl)[:-len('.tmpl')]), 'w').write(d)
# What every rule reports at each release (docs/rules-by-release.md).
subprocess.run(['python3', 'scripts/rules_by_release.py'], check=True)
