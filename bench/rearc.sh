#!/bin/sh
# bench/rearc.sh -- the 400 arc-dsl solvers over ../shared/rearc-100 (every
# solver on the ~100 generated samples of its task): arcrun against the
# CPython reference, whole processes side by side in one run, time and
# peak RSS, as ratios.
#
#   bench/rearc.sh [ARC_DSL_CHECKOUT]
#
# ARC_DSL_CHECKOUT is a clone of michaelhodel/arc-dsl (dsl.py, constants.py,
# solvers.py); without it only arcrun is measured.  arcrun runs -j1 (one
# core); CPython is one process, one core.  Both are whole processes:
# start-up, reading the tasks and every solver call.  arcrun runs
# ARC_REPEATS times (default 5: a few seconds each, and one slow moment of
# a shared host would be the whole figure), CPython REPEATS times (default
# 1: it takes minutes, over which such moments average out); each side's
# least time and least peak RSS count.
#
# DOUBLE=1 also runs arcrun on a copy of the dataset with twice the
# samples per task (each task's test list twice) and prints how much its
# peak RSS grows: memory should follow the live values of the run, not the
# size of the dataset.  DOUBLE=DIR doubles it with new samples instead:
# each task's test list gets as many of DIR's samples of that task (a
# set made the same way with another seed, `../shared/tools/gen_rearc.py RE_ARC 150
# DIR 5000`) as it has, inputs it already holds left out.  Repeated
# samples run on cached calls; new ones are what a bigger set brings.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
shared=${SHARED:-$here/../shared}
arcrun=${ARCRUN:-$here/arcrun}
solvers=$shared/corpus/arc-dsl/solvers.py
tasks=${TASKS:-$shared/rearc-100}
ref=${1:-}
reps=${REPEATS:-1}
arc_reps=${ARC_REPEATS:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# measure N OUT CMD...: least wall seconds and peak RSS (MB) of N runs
measure() {
  n=$1 out=$2; shift 2
  best_t= best_m=
  for r in $(seq "$n"); do
    /usr/bin/time -f '%e %M' -o "$tmp/time" "$@" >"$out"
    read -r t m <"$tmp/time"
    best_t=$(awk -v a="$best_t" -v b="$t" 'BEGIN { print (a == "" || b + 0 < a + 0) ? b : a }')
    best_m=$(awk -v a="$best_m" -v b="$m" 'BEGIN { print (a == "" || b + 0 < a + 0) ? b : a }')
  done
  echo "$best_t $(awk -v m="$best_m" 'BEGIN { printf "%.1f", m / 1024 }')"
}

set -- $(measure "$arc_reps" "$tmp/arc.out" "$arcrun" -j1 -q "$solvers" "$tasks")
arc_t=$1 arc_m=$2
printf 'arcrun:  %6.2f s  %7.1f MB peak RSS  (-j1, whole process; %s)\n' "$arc_t" "$arc_m" \
  "$(tail -1 "$tmp/arc.out")"

# the lines a user keeps (one per sample) must not cost memory either,
# on one thread or on every core
cores=$(nproc)
set -- $(measure 1 /dev/null "$arcrun" -j1 --format=jsonl "$solvers" "$tasks")
set -- "$@" $(measure 1 /dev/null "$arcrun" -j"$cores" --format=jsonl "$solvers" "$tasks")
printf 'arcrun --format=jsonl: %7.1f MB peak RSS at -j1, %7.1f MB at -j%s\n' "$2" "$4" "$cores"

if [ -n "$ref" ]; then
  cat >"$tmp/ref.py" <<'PY'
import json, os, sys
sys.path.insert(0, sys.argv[1])
sys.setrecursionlimit(10000)
import solvers
tasks, ok, n = sys.argv[2], 0, 0
for f in sorted(os.listdir(tasks)):
    if not f.endswith('.json'):
        continue
    t = json.load(open(os.path.join(tasks, f)))
    solve = getattr(solvers, 'solve_' + f[:-5], None)
    if solve is None:
        continue
    for p in t['train'] + t['test']:
        i = tuple(map(tuple, p['input']))
        n += 1
        try:
            ok += solve(i) == tuple(map(tuple, p['output']))
        except Exception:
            pass
print('%d/%d samples correct' % (ok, n))
PY
  set -- $(measure "$reps" "$tmp/py.out" python3 "$tmp/ref.py" "$ref" "$tasks")
  py_t=$1 py_m=$2
  printf 'CPython: %6.2f s  %7.1f MB peak RSS  (%s, whole process; %s)\n' "$py_t" "$py_m" \
    "$(python3 -c 'import sys; print(sys.version.split()[0])')" "$(cat "$tmp/py.out")"
  printf 'ratio:   %.1fx faster (-j1 against one CPython process); peak RSS %.2fx CPython'"'"'s\n' \
    "$(awk -v a="$arc_t" -v p="$py_t" 'BEGIN { print p / a }')" \
    "$(awk -v a="$arc_m" -v p="$py_m" 'BEGIN { print a / p }')"
fi

double=${DOUBLE:-0} more=
[ -d "$double" ] && more=$double
if [ "$double" = 1 ] || [ -n "$more" ]; then
  mkdir "$tmp/double"
  python3 - "$tasks" "$tmp/double" "$more" <<'PY'
import json, os, sys
src, dst, more = sys.argv[1], sys.argv[2], sys.argv[3]
for f in sorted(os.listdir(src)):
    if f.endswith('.json'):
        t = json.load(open(os.path.join(src, f)))
        extra = t['test']
        if more:     # gen_rearc.py keeps a task's inputs distinct
            have = {json.dumps(p['input']) for p in t['train'] + t['test']}
            m = os.path.join(more, f)
            m = json.load(open(m)) if os.path.exists(m) else {'train': [], 'test': []}
            extra = [p for p in m['train'] + m['test']
                     if json.dumps(p['input']) not in have][:len(t['test'])]
        t['test'] = t['test'] + extra
        json.dump(t, open(os.path.join(dst, f), 'w'))
PY
  set -- $(measure "$arc_reps" "$tmp/dbl.out" "$arcrun" -j1 -q "$solvers" "$tmp/double")
  label="twice the samples${more:+ (new ones)}"
  printf '%s: %6.2f s  %7.1f MB peak RSS (%+.0f%% against the set itself)\n' "$label" "$1" "$2" \
    "$(awk -v a="$arc_m" -v b="$2" 'BEGIN { print (b / a - 1) * 100 }')"
fi
