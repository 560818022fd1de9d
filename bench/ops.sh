#!/bin/sh
# bench/ops.sh -- where the arc-dsl solvers' ratio to CPython is made, op by
# op: each DSL primitive's time at statement level, arcrun against the
# CPython reference, side by side in one run.
#
#   bench/ops.sh ARC_DSL_CHECKOUT [TASKS] [ROWS]
#
# TASKS defaults to ../shared/arc-agi-1/training (../shared/rearc-100 is
# the large set; a copy cut to fewer samples per task keeps CPython's side
# under a minute).  Both sides run -j1, one process.  CPython's time of an
# op is what a solver's statement calling it takes (a call made inside
# another op, as mapply calls its function, counts towards the outer op),
# measured by a wrapper with the primitive's own signature (lbind and
# rbind read it); arcrun's is --stats' per-op time, which counts the same
# way.  The wrapper adds a fraction of a microsecond to each CPython call,
# so the ratios of the cheapest ops read a little high.
#
# Columns: calls on each side (arcrun's call cache computes a repeated
# call once), seconds, ratio, and `over`: the seconds arcrun would have to
# lose on that op to run it at TARGET times CPython (default 60).  Rows are
# sorted by `over`, the first ROWS (default 40) shown.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
shared=${SHARED:-$here/../shared}
arcrun=${ARCRUN:-$here/arcrun}
solvers=$shared/corpus/arc-dsl/solvers.py
ref=${1:?usage: bench/ops.sh ARC_DSL_CHECKOUT [TASKS] [ROWS]}
tasks=${2:-$shared/arc-agi-1/training}
rows=${3:-40}
target=${TARGET:-60}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ARCRUN_SLOWEST=0 "$arcrun" -j1 -q --stats=json "$solvers" "$tasks" 2>"$tmp/arc.json" >/dev/null || true

python3 - "$ref" "$tasks" "$tmp/py.json" <<'PY'
import inspect, json, os, sys, time
ref, tasks, out = sys.argv[1:4]
sys.path.insert(0, ref)
import dsl, solvers
acc, depth, clock = {}, [0], time.perf_counter
def wrap(name, fn):
    ps = ', '.join(inspect.signature(fn).parameters)
    src = (f'def {name}({ps}):\n'
           f'    if depth[0]:\n'
           f'        return fn({ps})\n'
           f'    depth[0] = 1\n'
           f'    t0 = clock()\n'
           f'    try:\n'
           f'        return fn({ps})\n'
           f'    finally:\n'
           f'        dt = clock() - t0\n'
           f'        depth[0] = 0\n'
           f'        e = acc.setdefault({name!r}, [0, 0.0]); e[0] += 1; e[1] += dt\n')
    g = {'depth': depth, 'fn': fn, 'clock': clock, 'acc': acc}
    exec(src, g)
    return g[name]
for name, fn in list(vars(dsl).items()):
    if inspect.isfunction(fn) and fn.__module__ == 'dsl':
        setattr(solvers, name, wrap(name, fn))
for f in sorted(os.listdir(tasks)):
    solve = getattr(solvers, 'solve_' + f[:-5], None) if f.endswith('.json') else None
    if not solve:
        continue
    t = json.load(open(os.path.join(tasks, f)))
    for p in t['train'] + t['test']:
        try:
            solve(tuple(map(tuple, p['input'])))
        except Exception:
            pass
json.dump(acc, open(out, 'w'))
PY

python3 - "$tmp/py.json" "$tmp/arc.json" "$rows" "$target" <<'PY'
import json, sys
py = json.load(open(sys.argv[1]))
arc = [json.loads(l) for l in open(sys.argv[2]) if l.startswith('{')][0]
rows, target = int(sys.argv[3]), float(sys.argv[4])
ops = {o['op']: (o['calls'], o['seconds']) for o in arc['ops']}
pt = sum(s for _, s in py.values())
at = sum(s for _, s in ops.values())
print('CPython %.3f s in DSL calls; arcrun %.3f s in ops, %.3f s running (-j1): %.1fx on ops'
      % (pt, at, arc['run_s'], pt / at if at else 0))
table = []
for op, (pc, ps) in py.items():
    ac, as_ = ops.get(op, (0, 0.0))
    table.append((as_ - ps / target, op, pc, ac, ps, as_))
table.sort(reverse=True)
print('%-16s %9s %9s %10s %10s %8s %9s' % ('op', 'py calls', 'calls', 'CPython s', 'arcrun s',
                                            'ratio', 'over'))
for over, op, pc, ac, ps, as_ in table[:rows]:
    print('%-16s %9d %9d %10.4f %10.4f %7.1fx %9.4f'
          % (op, pc, ac, ps, as_, ps / as_ if as_ else float('inf'), over))
PY
