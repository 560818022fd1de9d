#!/bin/sh
# tests/same_outputs.sh ARCRUN OUTDIR -- write the outputs that a change
# meant to keep behaviour must keep byte for byte, so two builds can be
# compared with `diff -r OUT_BEFORE OUT_AFTER`:
#   --trace of the 400 arc-dsl solvers over arc-agi-1 training,
#   --format=jsonl of test_batt and batt_mega_test over training + evaluation,
#   --all-pairs of the solvers over training,
#   --compare --backend=emulate on the GPU test corpus (stdout and trace),
# each at -j1 and -j2.  Needs ../shared (or SHARED=...).  Not part of
# `make check`: it takes minutes.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
shared=${SHARED:-$here/../shared}
arcrun=$1; out=$2
mkdir -p "$out"
solvers=$shared/corpus/arc-dsl/solvers.py
a1=$shared/arc-agi-1
for j in 1 2; do
  "$arcrun" -j$j -q --trace="$out/solvers.trace.j$j" "$solvers" "$a1/training" >"$out/solvers.out.j$j"
  for b in test_batt batt_mega_test; do
    for split in training evaluation; do
      "$arcrun" -j$j --format=jsonl "$shared/corpus/tokpidjin/$b.py" "$a1/$split" \
        >"$out/$b.$split.jsonl.j$j"
    done
  done
  "$arcrun" -j$j --all-pairs "$solvers" "$a1/training" >"$out/allpairs.out.j$j"
  for t in "$here/tests/gpu/edge.json" "$a1/training"; do
    n=$(basename "$t")
    "$arcrun" -j$j --backend=emulate --compare -q --trace="$out/grid_ops.$n.trace.j$j" \
      "$here/tests/gpu/grid_ops.dsl" "$t" >"$out/grid_ops.$n.out.j$j" 2>/dev/null
  done
  "$arcrun" -j$j --backend=emulate --compare --format=jsonl "$here/tests/gpu/tk_ops.py" \
    "$here/tasks/demo" >"$out/tk_ops.demo.j$j" 2>/dev/null
  "$arcrun" -j$j --backend=emulate --compare --format=jsonl "$here/tests/gpu/tk_ops.py" \
    "$a1/training" >"$out/tk_ops.training.j$j" 2>/dev/null
  "$arcrun" -j$j --backend=emulate --compare --format=jsonl "$here/tasks/demo/demo.dsl" \
    "$here/tasks/demo" >"$out/demo.j$j" 2>/dev/null
done
ls "$out" | wc -l
