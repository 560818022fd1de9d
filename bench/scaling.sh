#!/bin/sh
# bench/scaling.sh -- how a run speeds up with threads: test_batt.py and the
# 400 arc-dsl solvers over ARC-AGI-1 training at -j1, -j2, -j4, ... up to
# the host's cores, wall time each, and the speedup over -j1 in the same
# run.  Every -jN output must equal -j1's (its checksum is compared).
#
#   bench/scaling.sh [MAX_JOBS] [REPEATS]
#
# The least of REPEATS runs (default 3) is taken at each N: on a shared
# host single runs wander.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
shared=${SHARED:-$here/../shared}
arcrun=${ARCRUN:-$here/arcrun}
max=${1:-$(nproc)}
reps=${2:-3}
tasks=$shared/arc-agi-1/training

# run WORKLOAD N: "SECONDS CHECKSUM", the least wall time of $reps runs at
# -jN and the output's checksum
run() {
  best=
  for r in $(seq "$reps"); do
    t0=$(date +%s.%N)
    sum=$("$arcrun" -j"$2" --format=jsonl "$1" "$tasks" | cksum | tr ' ' _)
    t1=$(date +%s.%N)
    best=$(awk "BEGIN { t = $t1 - $t0; b = \"$best\"; print (b == \"\" || t < b + 0) ? t : b }")
  done
  echo "$best $sum"
}

for w in "$shared/corpus/tokpidjin/test_batt.py" "$shared/corpus/arc-dsl/solvers.py"; do
  echo "$(basename "$w") x arc-agi-1/training (least of $reps runs):"
  n=1
  while [ "$n" -le "$max" ]; do
    set -- $(run "$w" "$n")
    t=$1 sum=$2
    if [ "$n" -eq 1 ]; then
      t1=$t
      sum1=$sum
    fi
    same=identical
    [ "$sum" = "$sum1" ] || same="DIFFERENT OUTPUT"
    awk "BEGIN { printf \"  -j%-3d %7.3f s  %5.2fx  (%s)\n\", $n, $t, $t1 / $t, \"$same\" }"
    [ "$n" -eq "$max" ] && break
    n=$((n * 2))
    [ "$n" -gt "$max" ] && n=$max
  done
done
