# tap.sh -- tiny TAP helpers for the shell tests (sourced).
tap_n=0
ok()      { tap_n=$((tap_n + 1)); echo "ok $tap_n - $*"; }
not_ok()  { tap_n=$((tap_n + 1)); echo "not ok $tap_n - $*"; }
skip()    { tap_n=$((tap_n + 1)); echo "ok $tap_n # SKIP $*"; }
check()   { desc=$1; shift; if "$@"; then ok "$desc"; else not_ok "$desc"; fi; }
diag()    { sed 's/^/# /'; }
done_testing() { echo "1..$tap_n"; }
: "${ARCRUN:=./arcrun}" "${srcdir:=.}" "${SHARED:=$srcdir/../shared}"
