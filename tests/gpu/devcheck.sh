#!/bin/bash
# tests/gpu/devcheck.sh -- the device check, one call (tests/gpu/bundle.sh
# made gpu-bundle/): the self-test, tests/gpu_device.test, --compare
# --backend=cuda over the large sets (every value against the CPU's),
# rearc-100's jsonl under cpu, cuda and cuda --compare (the same bytes),
# and the CPython goldens' tests with every supported op on the device.
# Each compare's output and table go to $W; the run's log is stdout.
B=$(cd "$(dirname "$0")/../../gpu-bundle" && pwd); export LD_LIBRARY_PATH=$B
W=${TMPDIR:-/tmp}/devcheck; mkdir -p "$W"
D=${DATA:-/tmp/arcdata}; mkdir -p $D; [ -d $D/rearc-100 ] || tar -C $D -xJf $B/data.tar.xz
A=$B/arcrun; S=$D/corpus/arc-dsl/solvers.py; TB=$D/corpus/tokpidjin/test_batt.py
printf '#!/bin/sh\nexec "%s" --backend=cuda "$@"\n' "$A" >$B/cuda.sh; chmod +x $B/cuda.sh
export SHARED=$D srcdir=. TMPDIR=${TMPDIR:-/tmp}
TIMEFORMAT='  %R s'
echo "== version"; $A --version; echo "cores: $(nproc)"
echo "== gpu_device.test"; ARCRUN=$A sh tests/gpu_device.test 2>&1 | grep -v '^#'
cmpr() {
  n=$1; shift; echo "== compare $n"
  time $A --backend=cuda --compare -q "$@" >$W/$n.out 2>$W/$n.err
  echo "  exit $?"; grep -i "all values\|differ" $W/$n.err | tail -2
}
cmpr rearc $S $D/rearc-100
cmpr batt_training $TB $D/arc-agi-1/training
cmpr allpairs_training --all-pairs $S $D/arc-agi-1/training
cmpr mega_evaluation $D/corpus/tokpidjin/batt_mega_test.py $D/arc-agi-1/evaluation
cmpr lines tests/gpu/lines.py $D/arc-agi-1/training
cmpr nested_merge --all-pairs $B/nested_merge.py $D/arc-agi-1/evaluation
cmpr allpairs_agi2 --all-pairs $S $D/arc-agi-2/training
echo "== rearc-100 jsonl: cpu, cuda, cuda --compare (all cores)"
time $A --backend=cpu --format=jsonl $S $D/rearc-100 >$TMPDIR/dc_cpu.jsonl 2>/dev/null
time $A --backend=cuda --format=jsonl $S $D/rearc-100 >$TMPDIR/dc_cuda.jsonl 2>/dev/null
time $A --backend=cuda --compare --format=jsonl $S $D/rearc-100 >$TMPDIR/dc_compare.jsonl 2>/dev/null
md5sum $TMPDIR/dc_*.jsonl
if command -v python3 >/dev/null; then
  echo "== CPython goldens, --backend=cuda"
  for t in rearc_golden batt_golden arcdsl_solvers; do
    ARCRUN=$B/cuda.sh sh tests/$t.test 2>&1 | grep -E '^(ok|not ok)|RESULT' | grep -v '^ok .* equals CPython on'
  done
else
  echo "== no python3 here: goldens not checked"
fi
for n in rearc batt_training allpairs_agi2 nested_merge; do
  echo "== device calls per op: $n"
  grep -E '^[a-z_0-9]+ +[0-9]+ ' $W/$n.err
done
