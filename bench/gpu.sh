#!/bin/sh
# bench/gpu.sh -- each GPU op on batches of 64 to 65536 grids: the CPU
# backend on all cores against the GPU path (validation, packing, both
# transfers, kernels, rebuilding the values), side by side in one process,
# as ratios.  A thin layer over `arcrun calibrate --ops`, which does the
# timing (best of 3 per size) and writes no file.
#
#   bench/gpu.sh [OPS] [TASKS...]   OPS: comma-separated op names (default:
#                                   all); TASKS: take the grids from these
#                                   tasks (default: ../shared's ARC-AGI-1 and
#                                   -2 training sets when present, else
#                                   random grids)
#
# GPU_BACKEND=emulate times the host emulation instead (a dry run on a
# machine without a GPU; those figures are not GPU figures).
#
#   bench/gpu.sh --end-to-end [REARC_1000]
#                                   whole runs on all cores, --backend=cpu,
#                                   auto and cuda side by side, REPEATS
#                                   rounds (default 2): the 400 solvers over
#                                   rearc-100 and over REARC_1000 (a
#                                   dataset made by ../shared/tools/
#                                   gen_rearc.py with 1000 samples per task),
#                                   --all-pairs over arc-agi-2 training,
#                                   test_batt over arc-agi-1 training and
#                                   evaluation.  Wall seconds and peak RSS
#                                   of each, and cpu's time over each
#                                   backend's; outputs must be identical.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
arcrun=${ARCRUN:-$here/arcrun}
if [ "${1:-}" = --end-to-end ]; then
  shared=${SHARED:-$here/../shared}
  sol=$shared/corpus/arc-dsl/solvers.py; tb=$shared/corpus/tokpidjin/test_batt.py
  tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
  set -- "rearc-100|$sol $shared/rearc-100" ${2:+"rearc-1000|$sol $2"} \
    "all-pairs arc-agi-2|--all-pairs $sol $shared/arc-agi-2/training" \
    "test_batt|$tb $shared/arc-agi-1/training $shared/arc-agi-1/evaluation"
  printf '%-20s %-5s %9s %9s %8s  %s\n' workload backend "wall s" "RSS MB" "cpu/it" output
  for w in "$@"; do
    name=${w%%|*}; args=${w#*|}
    for r in $(seq "${REPEATS:-2}"); do
      for b in cpu auto cuda; do
        # wall seconds and peak RSS of one whole run, its output kept
        python3 - "$tmp/$b.out" "$arcrun" --backend=$b -q --format=jsonl $args >"$tmp/$b.t" <<'PY'
import resource, subprocess, sys, time
t = time.monotonic()
with open(sys.argv[1], "w") as out:
    rc = subprocess.call(sys.argv[2:], stdout=out, stderr=subprocess.DEVNULL)
print(rc, time.monotonic() - t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024)
PY
      done
      base=$(awk '{ print $2 }' "$tmp/cpu.t")
      for b in cpu auto cuda; do
        same=identical; cmp -s "$tmp/cpu.out" "$tmp/$b.out" || same=DIFFERS
        awk -v n="$name" -v b=$b -v base="$base" -v s=$same \
          '{ printf "%-20s %-5s %9.3f %9.1f %7.2fx  %s%s\n", n, b, $2, $3, base / $2, s, $1 ? " (exit " $1 ")" : "" }' "$tmp/$b.t"
      done
    done
  done
  exit 0
fi
ops=${1:-all}
[ $# -gt 0 ] && shift
if [ $# -eq 0 ] && [ -d "$here/../shared/arc-agi-1/training" ]; then
  set -- "$here/../shared/arc-agi-1/training" "$here/../shared/arc-agi-2/training"
fi
jobs=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
[ "$jobs" -gt 64 ] && jobs=64
"$arcrun" calibrate --backend="${GPU_BACKEND:-cuda}" -j "$jobs" --ops="$ops" "$@" 2>&1 |
  awk '$1 == "op" { print $0 "   speedup"; next } $2 ~ /^[0-9]+$/ && $4 > 0 { printf "%s %9.2fx\n", $0, $3 / $4; next } { print }'
