#!/usr/bin/env bash
# The asynchronous executor across MPI ranks (harness/mpi/mpi_async_executor.h): a small block
# substitution run with the predictive balancer in one process (async), on 2 ranks of 2 threads and
# on 4 ranks of 1 thread (mpi_async) must give the same checksums, all verified; takes across ranks
# are counted apart from takes within one, and on 4 ranks of 1 thread every take crosses ranks;
# finished-step notices are counted. async_modelled's runs fail under mpirun, saying why. A rank
# killed mid-run leaves the leader's set readable with the run in flight failed, and `run --resume`
# across the ranks completes it. Skipped without mpirun or where lbbench was built without MPI
# (mpi_ranks.sh checks that refusal).
set -uo pipefail
lbbench=$(realpath "$1")
. "$(dirname "$0")/lib/scratch.sh"
. "$(dirname "$0")/lib/killed_rank.sh"
say() { echo "mpi_async: $*"; }
command -v mpirun > /dev/null || { say "SKIP: no mpirun (Debian's openmpi-bin)"; exit 77; }
"$lbbench" list 2> /dev/null | grep '^  mpi_async - ' > /dev/null ||
  { say "SKIP: lbbench built without MPI"; exit 77; }
. "$(dirname "$0")/lib/mpi_env.sh"
config=tests/data/mpi_async.yaml
fails=0
fail() { say "FAIL: $*"; fails=$((fails + 1)); }

one_and_ranks "$config"
/usr/bin/python3 tests/e2e/check_mpi_async.py "$tmp/one.csv" "$tmp/r2.csv:2" "$tmp/r4.csv:4" ||
  fail "results"

# async_modelled's one-thread order has no meaning across ranks: refused with the reason, no run.
code=0
"${mpi[@]}" -np 2 "$lbbench" run "$config" -q --no-write --set execution.executor=async_modelled \
  > "$tmp/modelled.out" 2>&1 || code=$?
[ "$code" -ne 0 ] && grep -q "executor async_modelled runs in one process" "$tmp/modelled.out" ||
  { fail "async_modelled under mpirun: exit $code"; tail "$tmp/modelled.out"; }

# A rank killed mid-run, then the run resumed across the ranks (lib/killed_rank.sh).
cat > "$tmp/long.yaml" << 'YAML'
name: mpi_async_killed
workload: { kind: block_substitution, blocks: 32, width: 64, mean_lines: 16, sd: 1.0, seed: 1 }
platform: { processors: 4, topology: chain }
execution: { steps: 1000, warmup: 1, repetitions: 2, executor: async }
balancers: [{ static: block, dynamic: predictive, threshold: 2, safety_factor: 0.5 }]
YAML
kill_rank_and_resume mpi_async
say "$fails failures"
[ "$fails" -eq 0 ]
