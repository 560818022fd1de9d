#!/bin/sh
# bench/arcdsl.sh -- the 400 arc-dsl solvers over ARC-AGI-1 training:
# arcrun vs the CPython reference, side by side in one run, as a ratio.
#
#   bench/arcdsl.sh [ARC_DSL_CHECKOUT]
#
# ARC_DSL_CHECKOUT is a clone of michaelhodel/arc-dsl (dsl.py,
# constants.py, solvers.py); without it only arcrun is timed.  The
# reference loop times the solver calls only (JSON loading excluded), one
# process, one core; arcrun's time is its whole process (loading included),
# and, from --stats, its run alone, for a like-for-like second ratio.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
shared=${SHARED:-$here/../shared}
arcrun=${ARCRUN:-$here/arcrun}
solvers=$shared/corpus/arc-dsl/solvers.py
tasks=$shared/arc-agi-1/training
ref=${1:-}

stats=$(mktemp)
t0=$(date +%s.%N)
"$arcrun" -j1 -q --stats=json "$solvers" "$tasks" 2>"$stats"
t1=$(date +%s.%N)
arc=$(awk "BEGIN { print $t1 - $t0 }")
run=$(sed -n 's/^{.*"run_s": \([0-9.]*\).*/\1/p' "$stats")
rm -f "$stats"
printf 'arcrun:  %.3f s (whole process incl. loading, -j1: one core); %.3f s running the solvers\n' "$arc" "$run"

if [ -n "$ref" ]; then
  py=$(python3 - "$ref" "$tasks" <<'PY'
import json, os, sys, time
ref, tasks = sys.argv[1], sys.argv[2]
sys.path.insert(0, ref)
import solvers
data = []
for f in sorted(os.listdir(tasks)):
    t = json.load(open(os.path.join(tasks, f)))
    pairs = [(tuple(map(tuple, p['input'])), tuple(map(tuple, p['output'])))
             for p in t['train'] + t['test']]
    data.append((getattr(solvers, 'solve_' + f[:-5]), pairs))
ok = 0
t0 = time.perf_counter()
for solve, pairs in data:
    for i, o in pairs:
        ok += solve(i) == o
dt = time.perf_counter() - t0
print('%.3f %d' % (dt, ok))
PY
)
  pyt=${py% *}
  printf 'CPython: %.3f s (%s, solver calls only; %s pairs correct)\n' "$pyt" \
    "$(python3 -c 'import sys; print(sys.version.split()[0])')" "${py#* }"
  printf 'ratio:   %.1fx (whole process); %.1fx (solver runs only, loading excluded on both sides)\n' \
    "$(awk "BEGIN { print $pyt / $arc }")" "$(awk "BEGIN { print $pyt / $run }")"
fi
