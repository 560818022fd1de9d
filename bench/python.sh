#!/bin/sh
# bench/python.sh -- arcrun.run (the Python package) against the CLI, the
# 400 arc-dsl solvers over arc-agi-1 training, side by side in one run:
# wall time of each, compile and task loading included on both sides, at
# -j1 and -j2.  PYTHON is an interpreter with the package installed
# (default python3).
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
shared=${SHARED:-$here/../shared}
"${PYTHON:-python3}" - "$here/arcrun" "$shared/corpus/arc-dsl/solvers.py" "$shared/arc-agi-1/training" <<'PY'
import subprocess, sys, time
import arcrun
cli, solvers, tasks = sys.argv[1:4]
src = open(solvers).read()
for jobs in (1, 2):
    best_py = best_cli = float("inf")
    for _ in range(5):
        t0 = time.perf_counter()
        n = sum(1 for _ in arcrun.run(arcrun.compile(src, filename=solvers), arcrun.load_tasks(tasks), jobs=jobs))
        best_py = min(best_py, time.perf_counter() - t0)
        t0 = time.perf_counter()
        subprocess.run([cli, "-q", "-j%d" % jobs, solvers, tasks], check=True, capture_output=True)
        best_cli = min(best_cli, time.perf_counter() - t0)
    print("-j%d: arcrun.run %.3f s (compile, load, run, %d results); CLI %.3f s (whole process); "
          "run/CLI %.2f (least of 5)" % (jobs, best_py, n, best_cli, best_py / best_cli))
PY
