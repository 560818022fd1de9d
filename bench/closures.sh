#!/bin/sh
# bench/closures.sh -- what a call made inside an op costs: apply and
# sfilter over 100,000 small ints with a primitive, then with closures of
# it (compose, rbind, fork, chain), arcrun against the CPython reference,
# side by side in one run, per item and as a ratio.
#
#   bench/closures.sh ARC_DSL_CHECKOUT
#
# Closures are most of what apply, mapply and sfilter spend in the
# solvers around the median; this isolates their calls from set work.
# arcrun's figure is the statement's time from --stats (one sample, the
# call cache off, least of REPEATS runs, default 5); CPython's is the same
# call in one process, least of REPEATS.  Both -j1.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
arcrun=${ARCRUN:-$here/arcrun}
ref=${1:?usage: bench/closures.sh ARC_DSL_CHECKOUT}
reps=${REPEATS:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/task"
echo '{"train": [{"input": [[0]], "output": [[0]]}], "test": []}' >"$tmp/task/00000000.json"

# name|closure|statement over x1 (x2 is the closure)
cat >"$tmp/cases" <<'EOF'
increment|increment|apply(x2, x1)
compose|compose(increment, increment)|apply(x2, x1)
rbind|rbind(add, TWO)|apply(x2, x1)
fork|fork(add, increment, decrement)|apply(x2, x1)
chain|chain(increment, increment, increment)|apply(x2, x1)
even|even|sfilter(x1, x2)
compose-even|compose(even, increment)|sfilter(x1, x2)
EOF

n=100000
printf '%-14s %12s %12s %8s\n' case "arcrun ns" "CPython ns" ratio
while IFS='|' read -r name fn stmt; do
  cat >"$tmp/p.py" <<EOF
from dsl import *
from constants import *

def solve_00000000(I):
    x0 = interval(0, 100, 1)
    x1 = merge(repeat(x0, $((n / 100))))
    x2 = $fn
    x3 = $stmt
    O = size(x3)
    return O
EOF
  arc=
  for r in $(seq "$reps"); do
    s=$("$arcrun" -j1 -q --no-cache --stats=json "$tmp/p.py" "$tmp/task" 2>&1 >/dev/null |
        python3 -c 'import json, sys
s = json.load(sys.stdin)
print(next(x["seconds"] / x["calls"] for x in s["statements"] if x["assigns"] == "x3"))')
    arc=$(awk "BEGIN { b = \"$arc\"; print (b == \"\" || $s < b + 0) ? $s : b }")
  done
  py=$(python3 - "$ref" "$fn" "$stmt" "$n" "$reps" <<'PY'
import sys, time
ref, fn, stmt, n, reps = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
sys.path.insert(0, ref)
from dsl import *
from constants import *
x1 = merge(repeat(interval(0, 100, 1), n // 100))
x2 = eval(fn)
best = float('inf')
for _ in range(reps):
    t0 = time.perf_counter()
    eval(stmt)
    best = min(best, time.perf_counter() - t0)
print(best)
PY
)
  awk -v name="$name" -v a="$arc" -v p="$py" -v n="$n" \
    'BEGIN { printf "%-14s %12.1f %12.1f %7.1fx\n", name, a * 1e9 / n, p * 1e9 / n, p / a }'
done <"$tmp/cases"
