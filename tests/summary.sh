#!/bin/sh
# summary.sh DIR -- add up the TAP results of the last `make check` (the
# .trs files automake's tap-driver writes) into one closing line:
#   N passed, N failed, N skipped
# Skipped counts TAP SKIPs and TODOs (known gaps, XFAIL); a line before it
# says how many of each.
dir=${1:-.}
find "$dir" -name '*.trs' -exec cat {} + | awk '
  /^:test-result: PASS/  { p++ }
  /^:test-result: XFAIL/ { t++ }
  /^:test-result: SKIP/  { s++ }
  /^:test-result: (FAIL|XPASS|ERROR)/ { f++ }
  END { if (s + t) printf "(%d skipped, %d todo: known gaps, see the test logs)\n", s, t
        printf "%d passed, %d failed, %d skipped\n", p, f, s + t }'
