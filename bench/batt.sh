#!/bin/sh
# bench/batt.sh -- a batt program over ARC-AGI-1 training: arcrun vs the
# CPython tokpidjin reference, per batt call, side by side in one run.
#
#   bench/batt.sh [TOKPIDJIN_CHECKOUT] [BATT.py] [NTASKS_FOR_CPYTHON]
#
# arcrun runs every sample of all 400 tasks (C=None and C=O); CPython runs
# the first NTASKS (default 40) tasks the same way with tests/batt/ref_batt.py
# (its calls are what the goldens were made with).  Both figures are mean
# milliseconds per batt call, whole process included.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
shared=${SHARED:-$here/../shared}
arcrun=${ARCRUN:-$here/arcrun}
ref=${1:-}
batt=${2:-$shared/corpus/tokpidjin/test_batt.py}
ntasks=${3:-40}
tasks=$shared/arc-agi-1/training
ms() { awk "BEGIN { printf \"%.3f\", $1 }"; }

t0=$(date +%s.%N)
calls=$("$arcrun" --format=jsonl "$batt" "$tasks" | wc -l)
t1=$(date +%s.%N)
a=$(ms "($t1 - $t0) * 1000 / $calls")
echo "arcrun:  $calls batt calls in $(ms "$t1 - $t0") s, $a ms per call ($(basename "$batt"), jobs: all cores)"
if [ -n "$ref" ]; then
  sub=$(mktemp -d)
  ls "$tasks" | head -n "$ntasks" | while read -r f; do ln -s "$tasks/$f" "$sub/$f"; done
  t0=$(date +%s.%N)
  pcalls=$(python3 "$here/tests/batt/ref_batt.py" --ref "$ref" "$batt" "$sub" 2>/dev/null | grep -c '^{')
  t1=$(date +%s.%N)
  rm -rf "$sub"
  p=$(ms "($t1 - $t0) * 1000 / $pcalls")
  echo "CPython: $pcalls batt calls in $(ms "$t1 - $t0") s, $p ms per call (first $ntasks tasks, one process)"
  echo "ratio:   $(ms "$p / $a")x per batt call"
fi
