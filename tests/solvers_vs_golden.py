#!/usr/bin/env python3
"""TAP: compare arcrun's per-instance jsonl (--format=jsonl) with the golden
arc-dsl traces: each solver's output repr on each sample must equal
CPython's value of O (or its sha256 when the golden hashed a long repr).

    solvers_vs_golden.py GOLDEN.jsonl.gz RUN.jsonl [TAP_OFFSET]

Solvers listed in tests/solvers_todo.txt are reported as TAP TODO: known
gaps, visible in the summary, not hidden."""
import gzip, hashlib, json, os, sys

golden, run = sys.argv[1], sys.argv[2]
n = int(sys.argv[3]) if len(sys.argv) > 3 else 0
todo_file = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'solvers_todo.txt')
todo = set()
if os.path.exists(todo_file):
    todo = {l.split()[0] for l in open(todo_file) if l.strip() and not l.startswith('#')}

want = {}          # (solver, sample) -> ('repr', s) | ('sha256', h)
order = []
for line in gzip.open(golden, 'rt'):
    r = json.loads(line)
    if r.get('var') != 'O':
        continue
    key = (r['solver'], r['sample'])
    want[key] = ('repr', r['repr']) if 'repr' in r else ('sha256', r['sha256'])
    if r['solver'] not in order:
        order.append(r['solver'])

got = {}
for line in open(run):
    r = json.loads(line)
    got[(r['program'], r['sample'])] = r

solved = 0
for solver in order:
    keys = [k for k in want if k[0] == solver]
    bad = []
    for k in keys:
        g = got.get(k)
        kind, val = want[k]
        if g is None:
            bad.append('%s: missing' % k[1])
        elif g['error']:
            bad.append('%s: %s' % (k[1], g['error']))
        elif kind == 'repr' and g['output'] != val:
            bad.append('%s: output differs' % k[1])
        elif kind == 'sha256' and hashlib.sha256(g['output'].encode()).hexdigest() != val:
            bad.append('%s: output differs (hashed)' % k[1])
    n += 1
    directive = ' # TODO known gap' if solver in todo else ''
    if bad:
        print('not ok %d - %s equals CPython on %d samples%s' % (n, solver, len(keys), directive))
        for b in bad[:3]:
            print('#   ' + b[:300])
    else:
        solved += 1
        print('ok %d - %s equals CPython on %d samples%s' % (n, solver, len(keys), directive))
print('# %d/%d solvers give CPython\'s output on every sample' % (solved, len(order)))
print('1..%d' % n)
