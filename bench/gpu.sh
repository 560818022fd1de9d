#!/bin/sh
# bench/gpu.sh -- each GPU grid op on batches of N grids: the CPU backend
# (all cores, --jobs) against the CUDA backend (packing, one transfer each
# way and unpacking included), side by side in one run, as ratios.
#
#   bench/gpu.sh [N] [REPS]        N grids per batch (default 12000),
#                                  REPS batches per op (default 20)
#
# Each op runs as a program of REPS identical statements over one task of
# N random grids, with --no-cache so every statement is a batch of N calls;
# a baseline program (identity) is timed the same way and subtracted, so a
# figure is the whole-process wall time per batch, loading excluded.
# GPU_BACKEND=emulate times the host emulation instead (a dry run of this
# script on a machine without a GPU; those figures are not GPU figures).
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
arcrun=${ARCRUN:-$here/arcrun}
n=${1:-12000}
reps=${2:-20}
gpu=${GPU_BACKEND:-cuda}
jobs=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
[ "$jobs" -gt 64 ] && jobs=64
if [ "$gpu" = cuda ]; then
  dev=$("$arcrun" --version | sed -n 's/^CUDA device: //p')
  if [ -z "$dev" ] || [ "$dev" = none ]; then
    echo "bench/gpu.sh: no CUDA device:" >&2
    "$arcrun" --version >&2
    exit 1
  fi
else
  dev="host emulation (not a GPU)"
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

# two tasks of n random grids: up to 30x30, and up to 15x15 for the
# upscales (by 2, so every output fits 30x30 and every call can go to the GPU)
python3 - "$n" "$tmp" <<'PY'
import json, random, sys
n, out = int(sys.argv[1]), sys.argv[2]
rng = random.Random(7)
for name, side in (("big", 30), ("small", 15)):
    pairs = []
    for _ in range(n):
        h, w, k = rng.randint(1, side), rng.randint(1, side), rng.randint(1, 10)
        g = [[rng.randrange(k) for _ in range(w)] for _ in range(h)]
        pairs.append({"input": g, "output": g})
    with open(f"{out}/{name}.json", "w") as f:
        json.dump({"train": pairs[:-1], "test": pairs[-1:]}, f)
PY

prog() {   # file call
  { echo "from dsl import *"; echo "from constants import *"; echo "def bench(I):"
    k=1; while [ $k -le "$reps" ]; do echo "    x$k = $2"; k=$((k + 1)); done
    echo "    return x1"; } >"$1"
}
wall() {   # backend program tasks -> seconds
  s=$(date +%s.%N)
  if [ "$1" = cpu ]; then
    "$arcrun" --backend=cpu -j "$jobs" --no-cache -q "$2" "$3" >/dev/null
  else
    "$arcrun" --backend="$1" --no-cache -q "$2" "$3" >/dev/null
  fi
  e=$(date +%s.%N)
  awk "BEGIN { print $e - $s }"
}

prog "$tmp/base.dsl" "identity(I)"
printf 'device: %s; CPU: %d threads; %d grids per batch, %d batches per op\n' "$dev" "$jobs" "$n" "$reps"
printf '%-11s %14s %14s %9s\n' op "cpu ms/batch" "$gpu ms/batch" speedup
for spec in "rot90:rot90(I)" "rot180:rot180(I)" "rot270:rot270(I)" "hmirror:hmirror(I)" \
            "vmirror:vmirror(I)" "dmirror:dmirror(I)" "cmirror:cmirror(I)" \
            "upscale:upscale(I, TWO)" "hupscale:hupscale(I, TWO)" "vupscale:vupscale(I, TWO)" \
            "downscale:downscale(I, TWO)" "replace:replace(I, ZERO, FIVE)" \
            "switch:switch(I, ONE, TWO)" "tophalf:tophalf(I)" "bottomhalf:bottomhalf(I)" \
            "lefthalf:lefthalf(I)" "righthalf:righthalf(I)" "trim:trim(I)" \
            "compress:compress(I)" "colorcount:colorcount(I, ZERO)" "mostcolor:mostcolor(I)" \
            "leastcolor:leastcolor(I)" "palette:palette(I)" "numcolors:numcolors(I)"; do
  op=${spec%%:*}
  case $op in upscale|hupscale|vupscale) tasks=$tmp/small.json ;; *) tasks=$tmp/big.json ;; esac
  prog "$tmp/op.dsl" "${spec#*:}"
  bc=$(wall cpu "$tmp/base.dsl" "$tasks"); c=$(wall cpu "$tmp/op.dsl" "$tasks")
  bg=$(wall "$gpu" "$tmp/base.dsl" "$tasks"); g=$(wall "$gpu" "$tmp/op.dsl" "$tasks")
  awk -v op="$op" -v c="$c" -v bc="$bc" -v g="$g" -v bg="$bg" -v r="$reps" 'BEGIN {
    cm = (c - bc) / r * 1000; gm = (g - bg) / r * 1000
    if (cm < 0) cm = 0; if (gm <= 0) gm = 1e-3
    printf "%-11s %14.3f %14.3f %8.2fx\n", op, cm, gm, cm / gm }'
done
# the counters that prove the last op's batches ran on the GPU path
"$arcrun" --backend="$gpu" --no-cache --stats -q "$tmp/op.dsl" "$tasks" 2>&1 >/dev/null |
  sed -n '/calls per op/,/^numcolors/p'
