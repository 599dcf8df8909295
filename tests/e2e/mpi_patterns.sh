#!/usr/bin/env bash
# The balancers' own message patterns across MPI ranks (harness/mpi/scoped_decision.h): diffusion
# and random (both ideals) decide each rank's part on its scope's loads, received point to point,
# and multilevel its cuts up and down its bisection tree, on 2 and 4 ranks. Their checksums equal one process's; their decisions equal the one-process
# balancer's on the same recorded costs (simulate --replay takes every step's recorded costs and
# owners and decides on the full view); and each step's balance_messages is what the pattern
# predicts (tests/e2e/check_mpi_patterns.py). Skipped without MPI or mpirun.
set -uo pipefail
lbbench=$(realpath "$1")
. "$(dirname "$0")/lib/scratch.sh"
say() { echo "mpi_patterns: $*"; }
command -v mpirun > /dev/null || { say "SKIP: no mpirun (Debian's openmpi-bin)"; exit 77; }
"$lbbench" list 2> /dev/null | grep '^  mpi - ' > /dev/null || { say "SKIP: lbbench built without MPI"; exit 77; }
. "$(dirname "$0")/lib/mpi_env.sh"
config=tests/data/mpi_patterns.yaml
fails=0
fail() { say "FAIL: $*"; fails=$((fails + 1)); }

one_and_ranks "$config"
for ranks in 2 4; do
  "$lbbench" simulate --replay "$tmp/r$ranks" > "$tmp/replay$ranks.txt" 2>&1 ||
    { fail "replay $ranks"; tail "$tmp/replay$ranks.txt"; }
  for b in diffusion random_local random_global multilevel; do
    [ "$(awk -v b="$b" '$3 == b && $NF == "yes"' "$tmp/replay$ranks.txt" | wc -l)" = 1 ] ||
      { fail "$ranks ranks: $b's decisions are not the one-process balancer's"; cat "$tmp/replay$ranks.txt"; }
  done
done
/usr/bin/python3 tests/e2e/check_mpi_patterns.py "$tmp/one.csv" "$tmp/r2.csv:2" "$tmp/r4.csv:4" || fail "patterns"
say "$fails failures"
[ "$fails" -eq 0 ]
