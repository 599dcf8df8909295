#!/usr/bin/env bash
# Every in-step schedule `lbbench list` registers, run hybrid across MPI ranks (executor
# mpi_self_scheduled: modules in blocks over the ranks, each rank's threads taking its modules as
# the schedule hands them out) on 2 ranks of 2 threads and 4 ranks of 1: checksums equal one
# process's, every module run once a phase by a thread of its home rank, remote_runs equal to
# the records' runs away from home, and none with one thread a rank (tests/e2e/
# check_mpi_schedules.py). Skipped without MPI or mpirun.
set -uo pipefail
lbbench=$(realpath "$1")
. "$(dirname "$0")/lib/scratch.sh"
say() { echo "mpi_schedules: $*"; }
command -v mpirun > /dev/null || { say "SKIP: no mpirun (Debian's openmpi-bin)"; exit 77; }
"$lbbench" list 2> /dev/null | grep '^  mpi_self_scheduled - ' > /dev/null ||
  { say "SKIP: lbbench built without MPI"; exit 77; }
. "$(dirname "$0")/lib/mpi_env.sh"
fails=0
fail() { say "FAIL: $*"; fails=$((fails + 1)); }

schedules=$("$lbbench" list | sed -n '/^in-step schedules/,/^[a-z]/s/^  \([a-z0-9_]*\) - .*/\1/p')
[ "$(wc -w <<< "$schedules")" -ge 20 ] || { say "FAIL: schedules listed: $schedules"; exit 1; }
config=$tmp/schedules.yaml
cat > "$config" << 'YAML'
name: mpi_schedules
workload:
  - { kind: block_substitution, blocks: 16, width: 16, mean_lines: 4, sd: 1.0, seed: 3 }
  - { kind: trfd, n: 8, iterations_per_module: 1, seed: 1 }
platform: { processors: 4, topology: chain }
execution: { steps: 4, warmup: 1, repetitions: 1, record: modules, timeline: true }
balancers:
YAML
for s in $schedules; do echo "  - { schedule: $s }" >> "$config"; done

one_and_ranks "$config"
/usr/bin/python3 tests/e2e/check_mpi_schedules.py "$tmp/one.csv" "$tmp/r2.csv:2" "$tmp/r4.csv:4" ||
  fail "results"
say "$fails failures"
[ "$fails" -eq 0 ]
