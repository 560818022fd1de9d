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
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
arcrun=${ARCRUN:-$here/arcrun}
ops=${1:-all}
[ $# -gt 0 ] && shift
if [ $# -eq 0 ] && [ -d "$here/../shared/arc-agi-1/training" ]; then
  set -- "$here/../shared/arc-agi-1/training" "$here/../shared/arc-agi-2/training"
fi
jobs=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
[ "$jobs" -gt 64 ] && jobs=64
"$arcrun" calibrate --backend="${GPU_BACKEND:-cuda}" -j "$jobs" --ops="$ops" "$@" 2>&1 |
  awk '$1 == "op" { print $0 "   speedup"; next } $2 ~ /^[0-9]+$/ && $4 > 0 { printf "%s %9.2fx\n", $0, $3 / $4; next } { print }'
