#!/bin/sh
# bench/allpairs.sh -- every arc-dsl solver on every ARC-AGI-1 training task
# (400 x 400 programs x tasks): arcrun's wall time and share of calls saved
# by shared work, and, given an arc-dsl checkout, CPython's time on a sample
# of pairs (every solver on SAMPLE_PAIRS / 400 random tasks, at least one)
# in the same run, extrapolated to all pairs.  Both sides stop a pair at its
# first failed sample; arcrun tries the sample with the smallest input first,
# and the CPython figure is given both ways: in sample order, and in
# arcrun's order.  arcrun also skips pairs whose output shape cannot match
# (src/run/shape.h); its time running every pair is given too.
#
#   bench/allpairs.sh [ARC_DSL_CHECKOUT] [SAMPLE_PAIRS] [TASKS_DIR]
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
shared=${SHARED:-$here/../shared}
arcrun=${ARCRUN:-$here/arcrun}
ref=${1:-}
sample=${2:-3200}
tasks=${3:-$shared/arc-agi-1/training}
solvers=$shared/corpus/arc-dsl/solvers.py

stats=$(mktemp)
t0=$(date +%s.%N)
"$arcrun" --all-pairs -q --stats=json "$solvers" "$tasks" 2>"$stats"
t1=$(date +%s.%N)
wall=$(awk "BEGIN { print $t1 - $t0 }")
python3 - "$stats" "$wall" <<'PY'
import json, sys
st = json.loads([l for l in open(sys.argv[1]).read().splitlines() if l.startswith('{')][-1])
asked = st['calls'] + st['cache_hits'] + st['cache_waits'] + st.get('cache_twins', 0)
print('arcrun:  %.1f s wall; %d calls asked, %d computed, %.1f%% answered by shared work; '
      '%d pairs not run (output shape, src/run/shape.h)'
      % (float(sys.argv[2]), asked, st['calls'], 100.0 * (asked - st['calls']) / asked,
         st.get('ruled_out', 0)))
PY
rm -f "$stats"
# the same run with every pair run (CPython has no shape rule either)
t0=$(date +%s.%N)
ARCRUN_NO_SHAPE_RULE=1 "$arcrun" --all-pairs -q "$solvers" "$tasks" >/dev/null 2>&1
t1=$(date +%s.%N)
wall_all=$(awk "BEGIN { print $t1 - $t0 }")
echo "arcrun:  $(awk "BEGIN { printf \"%.1f\", $wall_all }") s wall running every pair (ARCRUN_NO_SHAPE_RULE=1)"
if [ -n "$ref" ]; then
  python3 - "$ref" "$tasks" "$sample" "$wall" "$wall_all" <<'PY'
import json, os, random, signal, sys, time
ref, tasks, sample, wall = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
wall_all = float(sys.argv[5])
sys.path.insert(0, ref)
import solvers
names = sorted(n for n in dir(solvers) if n.startswith('solve_'))
files = sorted(f for f in os.listdir(tasks) if f.endswith('.json'))
# Stratified by solver: every solver on the same number of random tasks.
# A pair's time depends mostly on its solver (a few take seconds on most
# tasks), and uniformly drawn pairs miss those often enough to understate
# the total several times over.
per = max(1, -(-sample // len(names)))
random.seed(1)
def alarm(*a): raise TimeoutError
signal.signal(signal.SIGALRM, alarm)
total, lead_total, pairs, capped = 0.0, 0.0, 0, 0
for name in names:
    fn = getattr(solvers, name)
    for f in random.sample(files, per):
        t = json.load(open(os.path.join(tasks, f)))
        samples = [(tuple(map(tuple, p['input'])), tuple(map(tuple, p['output'])))
                   for p in t['train'] + t['test']]
        done = {}               # sample -> (seconds, correct): each runs once
        def run(k):
            global capped
            if k not in done:
                I, O = samples[k]
                t0 = time.perf_counter()
                signal.alarm(10)    # CPython gets the same 10 s an arcrun instance gets
                try:
                    ok = fn(I) == O
                except TimeoutError:
                    ok, capped = False, capped + 1
                except BaseException:
                    ok = False
                signal.alarm(0)
                done[k] = (time.perf_counter() - t0, ok)
            return done[k]
        # the pair is lost at its first failed sample; arcrun's search mode
        # stops there too, trying the smallest input first
        lead = min(range(len(samples)), key=lambda k: len(samples[k][0]) * len(samples[k][0][0]))
        for order, acc in ((range(len(samples)), 'total'),
                           ([lead] + [k for k in range(len(samples)) if k != lead], 'lead')):
            spent = 0.0
            for k in order:
                dt, ok = run(k)
                spent += dt
                if not ok:
                    break
            if acc == 'total':
                total += spent
            else:
                lead_total += spent
        pairs += 1
est = total / pairs * len(names) * len(files)
lead_est = lead_total / pairs * len(names) * len(files)
print('CPython: %.2f s for %d pairs (%d per solver, %d samples cut at 10 s) -> %.0f s extrapolated to %d pairs'
      % (total, pairs, per, capped, est, len(names) * len(files)))
print('         %.0f s extrapolated when CPython, too, tries the smallest sample first' % lead_est)
print('ratio:   %.1fx (CPython in sample order); %.1fx (both smallest sample first)'
      % (est / wall, lead_est / wall))
print('         %.1fx and %.1fx with arcrun running every pair too'
      % (est / wall_all, lead_est / wall_all))
PY
fi
