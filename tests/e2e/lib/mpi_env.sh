# Sourced by the e2e scripts that start mpirun. Under ASan, LeakSanitizer is told to leave Open
# MPI's own allocations alone (lsan_openmpi.supp); the full unwind makes those suppressions
# match by library, which the fast unwinder's frames through Open MPI's plugins would miss.
export LSAN_OPTIONS="suppressions=$(realpath "${BASH_SOURCE[0]%/*}")/lsan_openmpi.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}fast_unwind_on_malloc=0"
# The e2e scripts' one mpirun command: loopback ranks on a host with fewer cores than ranks.
mpi=(mpirun --oversubscribe --bind-to none)
[ "$(id -u)" -ne 0 ] || mpi+=(--allow-run-as-root)
# one_and_ranks CONFIG: CONFIG run in one process ($tmp/one) and on 2 and 4 ranks ($tmp/r2,
# $tmp/r4), each set exported beside it ($tmp/one.csv, ...). Uses $lbbench, $tmp and fail.
one_and_ranks() {
  local config=$1 ranks
  timeout 300 "$lbbench" run "$config" -q -o "$tmp/one" > /dev/null 2> "$tmp/one.err" ||
    { fail "one process"; cat "$tmp/one.err"; }
  "$lbbench" export "$tmp/one" --to "$tmp/one.csv" > /dev/null || fail "export one"
  for ranks in 2 4; do
    timeout 600 "${mpi[@]}" -np "$ranks" "$lbbench" run "$config" -q -o "$tmp/r$ranks" \
      > "$tmp/r$ranks.out" 2>&1 || { fail "$ranks ranks"; tail -20 "$tmp/r$ranks.out"; }
    "$lbbench" export "$tmp/r$ranks" --to "$tmp/r$ranks.csv" > /dev/null || fail "export $ranks"
  done
}
