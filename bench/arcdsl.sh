#!/bin/sh
# bench/arcdsl.sh -- the 400 arc-dsl solvers over ARC-AGI-1 training:
# arcrun vs the CPython reference, side by side in one run, as a ratio.
#
#   bench/arcdsl.sh [ARC_DSL_CHECKOUT]
#
# Each side runs several times and its least time counts (per solver
# too): CPython REPEATS times (default 3), arcrun ARC_REPEATS times
# (default 10: a run of a tenth of a second does not average a busy
# moment of a shared host away, as CPython's runs of seconds do; single
# runs wander by up to 1.5x).
#
# ARC_DSL_CHECKOUT is a clone of michaelhodel/arc-dsl (dsl.py,
# constants.py, solvers.py); without it only arcrun is timed.  The
# reference loop times the solver calls only (JSON loading excluded), one
# process, one core; arcrun's time is its whole process (loading included,
# as a user runs it: no --stats), and, from --stats runs beside those, its
# run alone, for a like-for-like second ratio.
# Then solver by solver: each solver's time in arcrun's run (--stats,
# ARCRUN_SLOWEST) against its time in the reference loop, as percentiles
# of the ratio, and the ratio of the 399 solvers besides a64e4611, which
# is most of CPython's time.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
shared=${SHARED:-$here/../shared}
arcrun=${ARCRUN:-$here/arcrun}
solvers=$shared/corpus/arc-dsl/solvers.py
tasks=$shared/arc-agi-1/training
ref=${1:-}

reps=${REPEATS:-3}
arc_reps=${ARC_REPEATS:-10}
stats=$(mktemp)
pys=$(mktemp)
trap 'rm -f "$stats" "$pys"' EXIT
arc=
for r in $(seq "$arc_reps"); do
  t0=$(date +%s.%N)
  if [ "$r" -eq 1 ]; then out=/dev/stdout; else out=/dev/null; fi
  "$arcrun" -j1 -q "$solvers" "$tasks" >"$out"
  t1=$(date +%s.%N)
  arc=$(awk "BEGIN { t = $t1 - $t0; b = \"$arc\"; print (b == \"\" || t < b + 0) ? t : b }")
  # the per-solver and run-only figures from a run of their own: --stats
  # times every batch, which a plain run does not pay
  ARCRUN_SLOWEST=1000 "$arcrun" -j1 -q --stats=json "$solvers" "$tasks" 2>>"$stats" >/dev/null
done
run=$(sed -n 's/^{.*"run_s": \([0-9.]*\).*/\1/p' "$stats" | sort -g | head -1)
printf 'arcrun:  %.3f s (whole process incl. loading, -j1: one core); %.3f s running the solvers (least of %s runs)\n' "$arc" "$run" "$arc_reps"

if [ -n "$ref" ]; then
  py=$(python3 - "$ref" "$tasks" "$pys" "$reps" <<'PY'
import json, os, sys, time
ref, tasks, per, reps = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
sys.path.insert(0, ref)
import solvers
data = []
for f in sorted(os.listdir(tasks)):
    t = json.load(open(os.path.join(tasks, f)))
    pairs = [(tuple(map(tuple, p['input'])), tuple(map(tuple, p['output'])))
             for p in t['train'] + t['test']]
    data.append((f[:-5], getattr(solvers, 'solve_' + f[:-5]), pairs))
times, dt = {}, None
for r in range(reps):
    ok = 0
    t0 = time.perf_counter()
    for task, solve, pairs in data:
        s0 = time.perf_counter()
        for i, o in pairs:
            ok += solve(i) == o
        s1 = time.perf_counter() - s0
        times[task] = min(times.get(task, s1), s1)
    t1 = time.perf_counter() - t0
    dt = t1 if dt is None else min(dt, t1)
json.dump(times, open(per, 'w'))
print('%.3f %d' % (dt, ok))
PY
)
  pyt=${py% *}
  printf 'CPython: %.3f s (%s, solver calls only, least of %s runs; %s pairs correct)\n' "$pyt" \
    "$(python3 -c 'import sys; print(sys.version.split()[0])')" "$reps" "${py#* }"
  printf 'ratio:   %.1fx (whole process); %.1fx (solver runs only, loading excluded on both sides)\n' \
    "$(awk "BEGIN { print $pyt / $arc }")" "$(awk "BEGIN { print $pyt / $run }")"
  python3 - "$stats" "$pys" <<'PY'
import json, sys
arc = {}
for l in open(sys.argv[1]):
    if l.startswith('{'):
        for p in json.loads(l)['slowest']:
            arc[p['task']] = min(arc.get(p['task'], p['seconds']), p['seconds'])
py = json.load(open(sys.argv[2]))
rs = sorted(py[t] / arc[t] for t in arc if t in py and arc[t] > 0)
pick = lambda q: rs[min(len(rs) - 1, int(q * len(rs)))]
print('per solver (arcrun in-run time vs CPython, %d solvers): p10 %.1fx, p25 %.1fx, median %.1fx, '
      'p75 %.1fx, p90 %.1fx' % (len(rs), pick(.1), pick(.25), pick(.5), pick(.75), pick(.9)))
big = 'a64e4611'
if big in arc and big in py:
    rest_a = sum(v for t, v in arc.items() if t != big)
    rest_p = sum(v for t, v in py.items() if t != big and t in arc)
    print('solve_%s: arcrun %.3f s, CPython %.3f s (%.0fx); the other solvers: arcrun %.3f s, '
          'CPython %.3f s (%.1fx)' % (big, arc[big], py[big], py[big] / arc[big], rest_a, rest_p,
                                      rest_p / rest_a))
PY
fi
