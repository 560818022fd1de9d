#!/bin/sh
# tests/gpu/bundle.sh -- make gpu-bundle/ for a device check: the built
# arcrun (CUDA built in, cudart and libstdc++ static), the shared libraries
# the device lacks, and ../shared's task sets, corpora and goldens as one
# tarball (../shared does not travel).  Then, on the device:
#   bash tests/gpu/devcheck.sh      (with gpu-bundle in the run's carry)
# gpu-bundle/ must be ignored by git: this adds it to .git/info/exclude.
set -eu
here=$(cd "$(dirname "$0")/../.." && pwd); cd "$here"
shared=${SHARED:-$here/../shared}
./arcrun --version | grep -q '^CUDA backend: built in' || {
  echo "bundle.sh: ./arcrun has no CUDA backend (configure with nvcc on PATH)" >&2; exit 2; }
git_dir=$(git rev-parse --git-dir); mkdir -p "$git_dir/info"
grep -qx 'gpu-bundle/' "$git_dir/info/exclude" 2>/dev/null || echo 'gpu-bundle/' >>"$git_dir/info/exclude"
rm -rf gpu-bundle; mkdir gpu-bundle
cp arcrun gpu-bundle/
for lib in $(ldd arcrun | awk '/libcjson|libpng/ { print $3 }'); do cp "$lib" gpu-bundle/; done
# The program whose nested merges paint batches on the device.
awk '/^def solve_72322fa7\(/ { p = 1 } p { print } p && /return O/ { exit }' \
  "$shared/corpus/arc-dsl/solvers.py" >gpu-bundle/nested_merge.py
tar -C "$shared" -cJf gpu-bundle/data.tar.xz \
  arc-agi-1 arc-agi-2/training rearc-100 corpus golden tools
du -sh gpu-bundle
