#!/bin/sh
# summary.sh DIR -- add up the TAP results of the last `make check` (the
# .trs files automake's tap-driver writes) into one closing line:
#   N passed, N failed, N skipped
dir=${1:-.}
find "$dir" -name '*.trs' -exec cat {} + | awk '
  /^:test-result: PASS/  { p++ }
  /^:test-result: XFAIL/ { p++ }
  /^:test-result: SKIP/  { s++ }
  /^:test-result: (FAIL|XPASS|ERROR)/ { f++ }
  END { printf "%d passed, %d failed, %d skipped\n", p, f, s }'
