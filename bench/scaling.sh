#!/bin/sh
# bench/scaling.sh -- how a run speeds up with threads: test_batt.py and the
# 400 arc-dsl solvers over ARC-AGI-1 training at -j1, -j2, -j4, ... up to
# the host's cores, wall time each, and the speedup over -j1 in the same
# run.  Every -jN output must equal -j1's (its checksum is compared).
# Then test_batt.py one task per process, as a user checks a task, over
# the first ONE_TASKS (default 20) training tasks: a task's few samples
# share each step's calls over the threads, and a short step must not
# cost more at -jN than at -j1.
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

one=$(ls "$tasks" | head -n "${ONE_TASKS:-20}")

# run WORKLOAD N: "SECONDS CHECKSUM", the least wall time of $reps runs at
# -jN and the output's checksum; WORKLOAD "one" is test_batt.py a task at
# a time
run() {
  best=
  for r in $(seq "$reps"); do
    t0=$(date +%s.%N)
    if [ "$1" = one ]; then
      sum=$(for t in $one; do
              "$arcrun" -j"$2" --format=jsonl "$shared/corpus/tokpidjin/test_batt.py" "$tasks/$t"
            done | cksum | tr ' ' _)
    else
      sum=$("$arcrun" -j"$2" --format=jsonl "$1" "$tasks" | cksum | tr ' ' _)
    fi
    t1=$(date +%s.%N)
    best=$(awk "BEGIN { t = $t1 - $t0; b = \"$best\"; print (b == \"\" || t < b + 0) ? t : b }")
  done
  echo "$best $sum"
}

for w in "$shared/corpus/tokpidjin/test_batt.py" "$shared/corpus/arc-dsl/solvers.py" one; do
  if [ "$w" = one ]; then
    echo "test_batt.py x $(echo "$one" | wc -l) training tasks, a process per task (least of $reps runs):"
  else
    echo "$(basename "$w") x arc-agi-1/training (least of $reps runs):"
  fi
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
