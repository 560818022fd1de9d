#!/bin/sh
# bench/batt.sh -- a batt program over ARC-AGI-1 training: arcrun vs the
# CPython tokpidjin reference, per batt call, side by side in one run.
#
#   bench/batt.sh [TOKPIDJIN_CHECKOUT] [BATT.py] [NTASKS_FOR_CPYTHON]
#
# arcrun runs every sample of all 400 tasks (C=None and C=O), then the
# first NTASKS (default 40); CPython runs those NTASKS the same way with
# tests/batt/ref_batt.py (its calls are what the goldens were made with).
# Figures are mean milliseconds per batt call, whole process included; the
# ratio is taken on the same NTASKS tasks.
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
  # the ratio compares the same tasks: calls differ in cost from task to task
  t0=$(date +%s.%N)
  scalls=$("$arcrun" --format=jsonl "$batt" "$sub" | wc -l)
  t1=$(date +%s.%N)
  s=$(ms "($t1 - $t0) * 1000 / $scalls")
  echo "arcrun:  $scalls batt calls in $(ms "$t1 - $t0") s, $s ms per call (first $ntasks tasks)"
  t0=$(date +%s.%N)
  pcalls=$(python3 "$here/tests/batt/ref_batt.py" --ref "$ref" "$batt" "$sub" 2>/dev/null | grep -c '^{')
  t1=$(date +%s.%N)
  rm -rf "$sub"
  p=$(ms "($t1 - $t0) * 1000 / $pcalls")
  echo "CPython: $pcalls batt calls in $(ms "$t1 - $t0") s, $p ms per call (first $ntasks tasks, one process)"
  echo "ratio:   $(ms "$p / $s")x per batt call (first $ntasks tasks, both)"
fi
