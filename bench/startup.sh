#!/bin/sh
# bench/startup.sh -- what a run costs before its first call: parsing
# solvers.py and reading the 400 ARC-AGI-1 training tasks, at -j1 (one
# core: the tasks load after the parse, not beside it), against CPython
# compiling the same file and json-loading the same tasks, side by side
# in one run, as a ratio.
#
#   bench/startup.sh [PROGRAM [TASKS]]
#
# arcrun's figures are its own --stats parse_s and load_s, from RUNS
# whole processes (default 21) that run one task only (--task), so each
# parse and load is a process's first; the median and the range count.
# CPython's are compile() of the source (no .pyc: what a first import
# does) and json.load of every task file, timed inside one process,
# RUNS times, the median counting.  Reference point for the issue: under
# 5 ms together.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
shared=${SHARED:-$here/../shared}
arcrun=${ARCRUN:-$here/arcrun}
prog=${1:-$shared/corpus/arc-dsl/solvers.py}
tasks=${2:-$shared/arc-agi-1/training}
runs=${RUNS:-21}
# one task of a directory runs (the load is still the whole set's)
only=
if [ -d "$tasks" ]; then
  only=--task=$(ls "$tasks" | sed -n 's/\.json$//p' | head -1)
fi
stats=$(mktemp)
trap 'rm -f "$stats"' EXIT
for r in $(seq "$runs"); do
  "$arcrun" -j1 -q --stats=json $only "$prog" "$tasks" 2>>"$stats" >/dev/null || true
done
python3 - "$stats" "$prog" "$tasks" "$runs" <<'PY'
import json, os, statistics, sys, time
stats, prog, tasks, runs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
rows = [json.loads(l) for l in open(stats) if l.startswith('{')]
if not rows:
    sys.exit('bench/startup.sh: arcrun gave no --stats')
ms = lambda xs: [1e3 * x for x in xs]
p = ms(d['parse_s'] for d in rows)
l = ms(d['load_s'] for d in rows)
s = [a + b for a, b in zip(p, l)]
med = statistics.median
print('arcrun -j1 (%d processes): parse %.2f ms, load %.2f ms, together %.2f ms median '
      '(%.2f..%.2f)' % (len(rows), med(p), med(l), med(s), min(s), max(s)))
src = open(prog).read()
files = (sorted(os.path.join(tasks, f) for f in os.listdir(tasks) if f.endswith('.json'))
         if os.path.isdir(tasks) else [tasks])
cp, cl = [], []
for r in range(runs):
    t0 = time.perf_counter()
    compile(src, prog, 'exec')
    t1 = time.perf_counter()
    for f in files:
        with open(f) as fh:
            json.load(fh)
    t2 = time.perf_counter()
    cp.append(1e3 * (t1 - t0))
    cl.append(1e3 * (t2 - t1))
print('CPython %s: compile %.2f ms, json.load %.2f ms, together %.2f ms median'
      % (sys.version.split()[0], med(cp), med(cl), med(cp) + med(cl)))
print('ratio: %.1fx (parse + load, medians)' % ((med(cp) + med(cl)) / med(s)))
PY
