#!/bin/sh
# bench/batt.sh -- a batt program over ARC-AGI-1 training: arcrun vs the
# CPython tokpidjin reference, per batt call, side by side in one run.
#
#   bench/batt.sh [TOKPIDJIN_CHECKOUT] [BATT.py] [NTASKS_FOR_CPYTHON]
#
# arcrun runs -j1 (one core, as CPython's one process; JOBS=N for more:
# another figure, never to be read as the per-core one).  The reference
# imports numpy (a venv with it first on PATH will do).
# arcrun runs every sample of all 400 tasks (C=None and C=O), then the
# first NTASKS (default 40; all of them, 400, reuses the first runs);
# CPython runs those NTASKS the same way with
# tests/batt/ref_batt.py (its calls are what the goldens were made with).
# Figures are mean milliseconds per batt call, whole process included; the
# ratio is taken on the same NTASKS tasks.  Each run is made REPEATS times
# (default 3; CPython over 400 tasks takes over a minute a run) and the
# least time counts, on both sides.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
shared=${SHARED:-$here/../shared}
arcrun=${ARCRUN:-$here/arcrun}
ref=${1:-}
batt=${2:-$shared/corpus/tokpidjin/test_batt.py}
ntasks=${3:-40}
tasks=$shared/arc-agi-1/training
reps=${REPEATS:-3}
ms() { awk "BEGIN { printf \"%.3f\", $1 }"; }
# least CMD...: "LINES SECONDS", CMD's output lines and its least wall time
least() {
  best=
  for r in $(seq "$reps"); do
    t0=$(date +%s.%N)
    lines=$("$@" | grep -c '^{"task"')
    t1=$(date +%s.%N)
    best=$(awk "BEGIN { t = $t1 - $t0; b = \"$best\"; print (b == \"\" || t < b + 0) ? t : b }")
  done
  echo "$lines $best"
}

jobs=${JOBS:-1}
set -- $(least "$arcrun" -j"$jobs" --format=jsonl "$batt" "$tasks")
calls=$1 dt=$2
a=$(ms "$dt * 1000 / $calls")
echo "arcrun:  $calls batt calls in $(ms "$dt") s, $a ms per call ($(basename "$batt"), -j$jobs, least of $reps runs)"
if [ -n "$ref" ]; then
  sub=$(mktemp -d)
  ls "$tasks" | head -n "$ntasks" | while read -r f; do ln -s "$tasks/$f" "$sub/$f"; done
  # the ratio compares the same tasks: calls differ in cost from task to task
  if [ "$ntasks" -ge "$(ls "$tasks" | wc -l)" ]; then
    scalls=$calls s=$a     # the whole set: the runs above are these
    dt=$(awk "BEGIN { print $s * $scalls / 1000 }")
  else
    set -- $(least "$arcrun" -j"$jobs" --format=jsonl "$batt" "$sub")
    scalls=$1 dt=$2
    s=$(ms "$dt * 1000 / $scalls")
  fi
  echo "arcrun:  $scalls batt calls in $(ms "$dt") s, $s ms per call (first $ntasks tasks)"
  pyref() { python3 "$here/tests/batt/ref_batt.py" --ref "$ref" "$batt" "$sub" 2>/dev/null; }
  set -- $(least pyref)
  pcalls=$1 dt=$2
  rm -rf "$sub"
  p=$(ms "$dt * 1000 / $pcalls")
  echo "CPython: $pcalls batt calls in $(ms "$dt") s, $p ms per call (first $ntasks tasks, one process)"
  echo "ratio:   $(ms "$p / $s")x per batt call (first $ntasks tasks, both)"
fi
