#!/bin/sh
# bench/battops.sh -- where a batt program's ratio to CPython is made,
# statement by statement: each statement's time inside its call, arcrun
# against the tokpidjin reference, side by side in one run.
#
#   bench/battops.sh TOKPIDJIN_CHECKOUT [BATT.py] [TASKS] [ROWS]
#
# BATT defaults to ../shared/corpus/tokpidjin/test_batt.py, TASKS to the
# first 40 tasks of ../shared/arc-agi-1/training (a directory or files;
# CPython takes about 10 s for those 40).  Both sides run -j1, one process,
# every sample with C=None and C=O as bench/batt.sh and the goldens do.
# arcrun's time of a statement is --stats' (the call alone, as
# ARCRUN_SLOWEST lists it); CPython's is the statement timed in place
# (the batt file rewritten so that each assignment in a try block reads
# the clock before and after it, a failing call included), less the
# clock's own cost, measured in the same process.  Neither side counts
# what runs between statements (arcrun's executor and call cache, the
# output): the whole-process ratio is bench/batt.sh's.
#
# Printed: the totals; the statements grouped by what they call (a
# closure's variable shows the line that made it), sorted by `over`: the
# seconds arcrun would have to lose there to run at TARGET times CPython
# (default 60); then the ROWS (default 25) costliest lines for arcrun.
# The Python side needs numpy (a venv with it first on PATH will do).
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
shared=${SHARED:-$here/../shared}
arcrun=${ARCRUN:-$here/arcrun}
ref=${1:?usage: bench/battops.sh TOKPIDJIN_CHECKOUT [BATT.py] [TASKS] [ROWS]}
batt=${2:-$shared/corpus/tokpidjin/test_batt.py}
tasks=${3:-}
rows=${4:-25}
target=${TARGET:-60}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -z "$tasks" ]; then
  tasks=$tmp/tasks
  mkdir "$tasks"
  ls "$shared/arc-agi-1/training" | head -n 40 | while read -r f; do
    ln -s "$shared/arc-agi-1/training/$f" "$tasks/$f"
  done
fi

ARCRUN_SLOWEST=100000000 "$arcrun" -j1 --format=jsonl --stats=json "$batt" "$tasks" \
  2>"$tmp/arc.json" >/dev/null || true

python3 - "$here/tests/batt" "$ref" "$batt" "$tasks" "$tmp/py.json" <<'PY' 2>"$tmp/py.err" >/dev/null ||
import ast, json, sys, time
helpers, ref, batt, tasks, out = sys.argv[1:6]
sys.path.insert(0, helpers)
import ref_batt
ref_batt.install_shims(ref)
clock = time.perf_counter
acc = {}
def note(line, t0):
    dt = clock() - t0
    e = acc.get(line)
    if e is None:
        acc[line] = [1, dt]
    else:
        e[0] += 1
        e[1] += dt

class Timed(ast.NodeTransformer):
    """try: t = f(x) ... becomes try: _t0 = _clock(); try: t = f(x)
    finally: _note(line, _t0) ..."""
    def visit_Try(self, node):
        self.generic_visit(node)
        body = []
        for st in node.body:
            if isinstance(st, ast.Assign):
                start = ast.parse('_t0 = _clock()').body[0]
                timed = ast.Try(body=[st], handlers=[], orelse=[],
                                finalbody=[ast.parse('_note(%d, _t0)' % st.lineno).body[0]])
                body += [start, timed]
            else:
                body.append(st)
        node.body = body
        return node

tree = ast.fix_missing_locations(Timed().visit(ast.parse(open(batt).read(), batt)))
mod = {'__name__': 'battmod', '_clock': clock, '_note': note}
exec(compile(tree, batt, 'exec'), mod)
for path in ref_batt.task_files([tasks]):
    for tid, split, name, cname, S, I, C in ref_batt.calls(path):
        try:
            mod['batt'](tid, S, I, C, 'pile.log')
        except Exception:
            pass
# the clock's own cost in a timed statement: the same wrapper around x = 1
probe = {}
def note_probe(line, t0):
    probe[0] = probe.get(0, 0.0) + (clock() - t0)
n = 200000
code = compile('for _ in range(n):\n    _t0 = _clock()\n    try:\n        x = 1\n'
               '    finally:\n        _note(0, _t0)\n', 'probe', 'exec')
exec(code, {'_clock': clock, '_note': note_probe, 'n': n})
json.dump({'lines': acc, 'clock_s': probe[0] / n}, open(out, 'w'))
PY
  { cat "$tmp/py.err" >&2; echo "bench/battops.sh: the CPython side failed (numpy missing?)" >&2; exit 1; }

python3 - "$tmp/py.json" "$tmp/arc.json" "$batt" "$rows" "$target" <<'PY'
import json, re, sys
py = json.load(open(sys.argv[1]))
arc = [json.loads(l) for l in open(sys.argv[2]) if l.startswith('{')][0]
src = open(sys.argv[3]).read().split('\n')
rows, target = int(sys.argv[4]), float(sys.argv[5])
clock_s = py['clock_s']
cpy = {int(k): (n, max(s - n * clock_s, 0.0)) for k, (n, s) in py['lines'].items()}
made = {}                       # a closure variable's defining statement
for i, l in enumerate(src, 1):
    m = re.match(r'\s+(t\d+) = (\w+\(.*\))\s*$', l)
    if m and not m.group(2).startswith('_get_safe_default'):
        made.setdefault(m.group(1), m.group(2))
def label(op):
    return '%s = %s' % (op, made[op]) if op in made and re.fullmatch(r't\d+', op) else op
groups, lines, ta, tc = {}, [], 0.0, 0.0
for s in arc['statements']:
    if s['line'] not in cpy:
        continue
    pn, ps = cpy[s['line']]
    g = groups.setdefault(label(s['op']), [0, 0, 0.0, 0.0])
    g[0] += 1
    g[1] += s['calls']
    g[2] += ps
    g[3] += s['seconds']
    ta += s['seconds']
    tc += ps
    lines.append((s['seconds'], s['line'], label(s['op']), s['calls'], ps))
print('CPython %.3f s in timed statements (clock cost %.0f ns each, taken off); arcrun %.3f s in '
      'their calls (-j1): %.1fx on statements' % (tc, clock_s * 1e9, ta, tc / ta if ta else 0))
table = sorted(((a - c / target, op, nl, n, c, a) for op, (nl, n, c, a) in groups.items()),
               reverse=True)
print('\n%-40s %5s %7s %10s %10s %8s %9s' % ('calls', 'lines', 'calls', 'CPython s', 'arcrun s',
                                              'ratio', 'over'))
for over, op, nl, n, c, a in table[:rows]:
    print('%-40s %5d %7d %10.4f %10.4f %7.1fx %9.4f'
          % (op[:40], nl, n, c, a, c / a if a else float('inf'), over))
print('\n%6s  %-40s %7s %10s %10s %8s' % ('line', 'calls', 'calls', 'CPython s', 'arcrun s', 'ratio'))
for a, line, op, n, c in sorted(lines, reverse=True)[:rows]:
    print('%6d  %-40s %7d %10.4f %10.4f %7.1fx' % (line, op[:40], n, c, a, c / a if a else float('inf')))
PY
