#!/bin/sh
# bench/allpairs.sh -- every arc-dsl solver on every ARC-AGI-1 training task
# (400 x 400 programs x tasks): arcrun's wall time and share of calls saved
# by shared work, and, given an arc-dsl checkout, CPython's time on a random
# sample of pairs in the same run, extrapolated to all pairs.
#
#   bench/allpairs.sh [ARC_DSL_CHECKOUT] [SAMPLE_PAIRS] [TASKS_DIR]
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
shared=${SHARED:-$here/../shared}
arcrun=${ARCRUN:-$here/arcrun}
ref=${1:-}
sample=${2:-400}
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
asked = st['calls'] + st['cache_hits'] + st['cache_waits']
print('arcrun:  %.1f s wall; %d calls asked, %d computed, %.1f%% answered by shared work'
      % (float(sys.argv[2]), asked, st['calls'], 100.0 * (asked - st['calls']) / asked))
PY
rm -f "$stats"
if [ -n "$ref" ]; then
  python3 - "$ref" "$tasks" "$sample" "$wall" <<'PY'
import json, os, random, signal, sys, time
ref, tasks, sample, wall = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
sys.path.insert(0, ref)
import solvers
names = sorted(n for n in dir(solvers) if n.startswith('solve_'))
files = sorted(f for f in os.listdir(tasks) if f.endswith('.json'))
random.seed(1)
pairs = [(random.choice(names), random.choice(files)) for _ in range(sample)]
def alarm(*a): raise TimeoutError
signal.signal(signal.SIGALRM, alarm)
total = 0.0
for name, f in pairs:
    t = json.load(open(os.path.join(tasks, f)))
    fn = getattr(solvers, name)
    for p in t['train'] + t['test']:
        I = tuple(map(tuple, p['input']))
        t0 = time.perf_counter()
        signal.alarm(10)    # CPython gets the same 10 s an arcrun instance gets
        try:
            fn(I)
        except BaseException:
            pass
        signal.alarm(0)
        total += time.perf_counter() - t0
est = total / sample * len(names) * len(files)
print('CPython: %.2f s for %d random pairs -> %.0f s extrapolated to %d pairs' % (total, sample, est, len(names) * len(files)))
print('ratio:   %.1fx' % (est / wall))
PY
fi
