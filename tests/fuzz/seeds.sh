#!/bin/sh
# tests/fuzz/seeds.sh -- make the fuzzers' seed corpora and dictionary from
# the project's own test data, under DIR (default tests/fuzz/work):
#   DIR/seeds/program   the parse tests' programs, the first 100 solvers
#   DIR/seeds/eval      every expression of tests/cases (first byte: dialect)
#   DIR/seeds/task      the bad task files of tests/tasks, small ARC tasks
#   DIR/dsl.dict        every primitive name of both dialects, "name(", and
#                       eval's builtins, keywords and operators
set -eu
here=$(cd "$(dirname "$0")/../.." && pwd)
shared=${SHARED:-$here/../shared}
dir=${1:-$here/tests/fuzz/work}
mkdir -p "$dir/seeds/program" "$dir/seeds/eval" "$dir/seeds/task"
cp "$here"/tests/parse/*.dsl "$dir/seeds/program/"
cp "$here"/tests/tasks/*.json "$dir/seeds/task/" 2>/dev/null || true
if [ -d "$shared/arc-agi-1/training" ]; then
  ls -S "$shared/arc-agi-1/training" | tail -n 20 |
    while read -r f; do cp "$shared/arc-agi-1/training/$f" "$dir/seeds/task/"; done
  # one solver a file: the parser sees real programs of every shape;
  # named solve_fuzz so that fuzz_run runs them on its task (id "fuzz")
  awk -v out="$dir/seeds/program/solver" '
    /^def solve_/ { n++; if (n > 100) exit; f = out "_" n ".py"; sub(/solve_[0-9a-f]+/, "solve_fuzz") }
    f { print > f }' "$shared/corpus/arc-dsl/solvers.py"
fi
# dialect byte: even = arc-dsl, odd = tokpidjin (fuzz_eval.c)
n=0
for d in arcdsl tokpidjin; do
  byte=0; [ "$d" = tokpidjin ] && byte=1
  for f in "$here"/tests/cases/$d/*.cases; do
    grep -v '^#' "$f" | cut -f1 | while IFS= read -r e; do
      [ -n "$e" ] && printf '%s%s' "$byte" "$e" > "$dir/seeds/eval/$d-$(basename "$f" .cases)-$n"
      n=$((n + 1))
    done
  done
done
sed -n 's/^ *[A-Z][A-Z_]*(\([a-z_][a-z0-9_]*\),.*/"\1("/p' \
  "$here/dsl/arcdsl/list.h" "$here/dsl/tokpidjin/list.h" | sort -u > "$dir/dsl.dict"
printf '%s\n' '"frozenset({"' '"(("' '"))"' '", "' '"True"' '"None"' '"-1"' '"30"' '"()"' >> "$dir/dsl.dict"
# eval's Python around the calls: its builtins, keywords and operators
for b in len abs min max sum sorted range tuple list frozenset set any all; do
  printf '"%s("\n' "$b"
done >> "$dir/dsl.dict"
printf '%s\n' '"lambda x: "' '" if "' '" else "' '" and "' '" or "' '"not "' '" in "' '" is "' \
  '"=="' '"!="' '"<="' '"//"' '"**"' '"|"' '"&"' '"^"' '"~"' '"[::-1]"' '"key="' '"default="' \
  '"start="' '"reverse="' >> "$dir/dsl.dict"
echo "seeds in $dir/seeds: $(ls "$dir/seeds/program" | wc -l) programs, $(ls "$dir/seeds/eval" | wc -l) expressions, $(ls "$dir/seeds/task" | wc -l) task files; dictionary $(wc -l < "$dir/dsl.dict") entries"
