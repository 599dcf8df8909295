#!/usr/bin/env bash
# Processors as MPI ranks on loopback (harness/mpi/): a small problem of each workload run in one
# process, on 2 ranks of 2 threads and on 4 ranks of 1 thread must give the same checksums, all
# verified; moves across ranks are counted apart from copies within one; and a rank killed
# mid-run leaves the leader's set readable, the run in flight kept as failed (interrupted), and
# `run --resume` across the ranks completes it. Skipped without mpirun; where lbbench was built
# without MPI, only its refusal of a launch across ranks (exit 2) is checked.
set -uo pipefail
lbbench=$(realpath "$1")
. "$(dirname "$0")/lib/scratch.sh"
. "$(dirname "$0")/lib/killed_rank.sh"
say() { echo "mpi_ranks: $*"; }
command -v mpirun > /dev/null || { say "SKIP: no mpirun (Debian's openmpi-bin)"; exit 77; }
# A sanitizer build: Open MPI's own allocations past MPI_Finalize are not lbbench's leaks
# (matched by library, which needs the slow unwinder: Open MPI keeps no frame pointers).
. "$(dirname "$0")/lib/mpi_env.sh"
if ! "$lbbench" list 2> /dev/null | grep '^  mpi - ' > /dev/null; then
  # Built without MPI: a launch across ranks is refused with its reason (exit 2), never run twice.
  timeout 120 "${mpi[@]}" -np 2 "$lbbench" run configs/smoke.yaml --no-write -q > "$tmp/no_mpi.txt" 2>&1
  rc=$?
  [ "$rc" -ne 0 ] && grep -q 'built without MPI' "$tmp/no_mpi.txt" ||
    { say "FAIL: a build without MPI under mpirun: exit $rc"; cat "$tmp/no_mpi.txt"; exit 1; }
  say "SKIP: lbbench built without MPI (a launch across 2 ranks refused, exit $rc)"; exit 77
fi
config=tests/data/mpi_ranks.yaml
fails=0
fail() { say "FAIL: $*"; fails=$((fails + 1)); }

one_and_ranks "$config"
/usr/bin/python3 tests/e2e/check_mpi_ranks.py "$tmp/one.csv" "$tmp/r2.csv:2" "$tmp/r4.csv:4" || fail "results"
# The simulator's network charges fitted from the moves across ranks and the ranks' exchanges,
# and the runs replayed: a between-step balancer's decisions come back exactly, with and without
# those charges; with them, the ranks' exchange brings the predicted makespan from far below the
# runs' modelled makespan into a band measured in docs/evidence/replay-mpi-2026-11-28.md.
"$lbbench" simulate --calibrate "$tmp/r4" > "$tmp/calibrate.txt" 2>&1 &&
  grep -E "^  the ranks' exchange after each phase .*, from [0-9]+ steps: L = " "$tmp/calibrate.txt" > /dev/null ||
  { fail "calibrate"; cat "$tmp/calibrate.txt"; }
read -ra rates <<< "$(sed -n 's/^replay: lbbench simulate --replay SET //p' "$tmp/calibrate.txt")"
"$lbbench" simulate --replay "$tmp/r4" > "$tmp/uncharged.txt" 2>&1 || { fail "replay"; tail "$tmp/uncharged.txt"; }
"$lbbench" simulate --replay "$tmp/r4" "${rates[@]}" > "$tmp/replay.txt" 2>&1 ||
  { fail "replay ${rates[*]}"; tail "$tmp/replay.txt"; }
for t in uncharged replay; do
  for b in cyclic greedy diffusion; do
    [ "$(awk -v b="$b" '$3 == b && $NF == "yes"' "$tmp/$t.txt" | wc -l)" = 4 ] ||
      { fail "$t of $b's runs across ranks"; cat "$tmp/$t.txt"; }
  done
done
# Median error against the modelled makespan of the reproduced runs: -89 % to -77 % uncharged and
# -28 % to +21 % charged over 16 runs of this test at load 1 on 2 cores (docs/evidence/
# replay-mpi-2026-11-28.md has sittings at other loads). Only the direction is asserted: at load
# 4 the runs' exchanges waited for the host (-99 % uncharged, -88 to -95 % charged), which no
# rate fitted to the undelayed steps predicts; the charges' formula is tests/replay_ranks_test.cpp's.
median() { awk '$NF == "yes" && $3 != "gddlb" { sub("%", "", $9); print $9 }' "$1" | sort -g |
  awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
before=$(median "$tmp/uncharged.txt") after=$(median "$tmp/replay.txt")
awk -v b="$before" -v a="$after" 'BEGIN { exit !(a > b) }' ||
  fail "the charged replay's median error $after % is not above the uncharged $before %"
say "${rates[*]}; replayed: $(grep -c ' yes$' "$tmp/replay.txt") runs reproduced; median error against the modelled makespan $before % uncharged, $after % charged"

# A rank killed mid-run, then the run resumed across the ranks (lib/killed_rank.sh).
cat > "$tmp/long.yaml" << 'YAML'
name: mpi_killed
workload: { kind: barnes_hut, particles: 20000, dimensions: 2, decomposition: curve, curve_modules: 64, seed: 1 }
platform: { processors: 4, topology: chain }
execution: { steps: 40, warmup: 1, repetitions: 2 }
balancers: [{ static: cyclic }]
YAML
kill_rank_and_resume mpi_ranks
say "$fails failures"
[ "$fails" -eq 0 ]
