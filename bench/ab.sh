#!/bin/sh
# bench/ab.sh -- two arcrun builds on the same run, interleaved: CPU time
# (user + system, from wait4), page faults and peak RSS of each process,
# as a ratio B / A in one run.
#
#   bench/ab.sh ARCRUN_A ARCRUN_B [ARCRUN ARGS...]
#
# The builds alternate (A B, then B A) REPEATS times (default 8), so a
# slow minute of a shared host falls on both.  Printed: each build's least
# and median CPU time, the median and range of the pairwise ratios B / A,
# and the faults and peak RSS of each (their medians).  Both builds must
# print the same output: the first run of each is compared and a
# difference stops the bench.  Default arguments: the 400 arc-dsl solvers
# over ARC-AGI-1 training at -j1.
#
# Why this and not an instruction count: on this project's machines a
# page touched for the first time costs microseconds, which callgrind
# does not see, and cuts of a few percent in instructions have shown no
# change here (docs/notes.md, fifteenth session).
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
shared=${SHARED:-$here/../shared}
if [ $# -lt 2 ]; then
  echo "usage: bench/ab.sh ARCRUN_A ARCRUN_B [ARCRUN ARGS...]" >&2
  exit 2
fi
a=$1
b=$2
shift 2
if [ $# -eq 0 ]; then
  set -- -j1 -q "$shared/corpus/arc-dsl/solvers.py" "$shared/arc-agi-1/training"
fi
for x in "$a" "$b"; do
  if [ ! -x "$x" ]; then
    echo "bench/ab.sh: $x is not an executable" >&2
    exit 2
  fi
done
python3 - "${REPEATS:-8}" "$a" "$b" "$@" <<'PY'
import hashlib, os, statistics, subprocess, sys, tempfile

reps, a, b, args = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4:]
runs = {a: [], b: []}
digest = {}
for r in range(reps):
    for x in ((a, b) if r % 2 == 0 else (b, a)):
        with tempfile.TemporaryFile() as out:
            p = subprocess.Popen([x] + args, stdout=out, stderr=subprocess.DEVNULL)
            _, status, ru = os.wait4(p.pid, 0)
            if r < 2 and x not in digest:
                out.seek(0)
                digest[x] = hashlib.md5(out.read()).hexdigest()
        runs[x].append((ru.ru_utime + ru.ru_stime, ru.ru_minflt + ru.ru_majflt, ru.ru_maxrss / 1024))
if digest[a] != digest[b]:
    sys.exit('bench/ab.sh: the two builds print different outputs (md5 %s, %s)' % (digest[a], digest[b]))

def cpu(x):
    return [t for t, _, _ in runs[x]]

ratios = [tb / ta for ta, tb in zip(cpu(a), cpu(b)) if ta > 0]
for name, x in (('A', a), ('B', b)):
    print('%s %-40s cpu least %.3f s, median %.3f s; faults %d; peak RSS %.1f MB' % (
        name, x, min(cpu(x)), statistics.median(cpu(x)),
        statistics.median(f for _, f, _ in runs[x]), statistics.median(m for _, _, m in runs[x])))
print('B / A: least %.3f, pairwise median %.3f (range %.3f..%.3f, %d pairs)' % (
    min(cpu(b)) / min(cpu(a)), statistics.median(ratios), min(ratios), max(ratios), len(ratios)))
PY
