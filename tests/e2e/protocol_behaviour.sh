#!/usr/bin/env bash
# The bulk-synchronous step protocol kept across its machines' changes (issue 47): shipped configs,
# small by --set, run in one process, across 2 and 4 MPI ranks and in the simulator must give
# tests/golden/protocol_behaviour.txt: checksums, placements of every phase and step, migrations
# and step counts (dump_behaviour.py; of a run whose dynamic balancer reads timings, only what
# they cannot move), and the simulator's whole modelled record. Regenerate only for an intended
# change:   tests/e2e/protocol_behaviour.sh build/lbbench --update
set -uo pipefail
lbbench=$(realpath "$1")
. "$(dirname "$0")/lib/scratch.sh"
say() { echo "protocol_behaviour: $*" >&2; }
# A sanitizer build: Open MPI's own allocations past MPI_Finalize are not lbbench's leaks
# (matched by library, which needs the slow unwinder), as in mpi_ranks.sh.
. "$(dirname "$0")/lib/mpi_env.sh"
small=(--set execution.repetitions=1 --set execution.record=modules)
smoke=(configs/smoke.yaml --set execution.steps=4 --set execution.warmup=1)
trfd=(configs/trfd.yaml --set workload.n=12 --set execution.steps=3 --set execution.warmup=1)
nbody=(configs/nbody.yaml --set workload.particles=2000 --set workload.curve_modules=32
       --set execution.steps=3 --set execution.warmup=1)
run() {  # run OUT LAUNCH... -- CONFIG ARGS...: one lbbench run, its output kept on failure
  local out=$1 launch=()
  shift
  while [ "$1" != "--" ]; do launch+=("$1"); shift; done
  shift
  timeout 900 "${launch[@]}" "$lbbench" run "$@" "${small[@]}" -q -o "$tmp/$out" \
    > "$tmp/$out.log" 2>&1 || { say "FAIL: $out"; tail -20 "$tmp/$out.log" >&2; exit 1; }
}
dump() {  # dump TITLE FLAGS SET...
  echo "### $1"
  /usr/bin/python3 tests/e2e/dump_behaviour.py $2 "${@:3}"
}
{
  run one-smoke -- "${smoke[@]}"
  run one-trfd -- "${trfd[@]}"
  run one-nbody -- "${nbody[@]}"
  dump "one process" "--phases --timed" "$tmp"/one-{smoke,trfd,nbody}
  if command -v mpirun > /dev/null && "$lbbench" list 2> /dev/null | grep '^  mpi - ' > /dev/null; then
    for r in 2 4; do
      four=(--set platform.processors=4)
      run "r$r-smoke" "${mpi[@]}" -np "$r" -- "${smoke[@]}" "${four[@]}"
      run "r$r-trfd" "${mpi[@]}" -np "$r" -- "${trfd[@]}" "${four[@]}"
      run "r$r-nbody" "${mpi[@]}" -np "$r" -- "${nbody[@]}" "${four[@]}"
      dump "$r ranks" "--phases --timed" "$tmp"/r$r-{smoke,trfd,nbody}
    done
  else
    echo "### ranks: no mpirun or no MPI build"
  fi
  # The simulator on fixed costs: recorded runs of smoke and trfd (tests/data/README.md) replayed
  # under their configs' balancers, and synthetic costs (tests/golden/sim.yaml; sim_schedules.yaml
  # under loop schedules); decisions and migrations charged by model, so every figure is exact.
  "$lbbench" convert tests/data/v3_smoke.h5 "$tmp/rec-smoke" > /dev/null 2>&1 &&
    "$lbbench" convert tests/data/v3_trfd_modules.h5 "$tmp/rec-trfd" > /dev/null 2>&1 ||
    { say "FAIL: convert"; exit 1; }
  charged=(--set execution.executor=simulate --set execution.sim_decision=modelled
           --set execution.sim_decision_seconds=1e-4 --set execution.sim_latency=1e-5)
  run sim-smoke -- configs/smoke.yaml --set execution.steps=6 --set execution.warmup=0 \
    "${charged[@]}" --set execution.replay_set="$tmp/rec-smoke"
  run sim-trfd -- configs/trfd.yaml --set workload.n=12 --set execution.steps=4 \
    --set execution.warmup=0 "${charged[@]}" --set execution.replay_set="$tmp/rec-trfd"
  run sim-synthetic -- tests/golden/sim.yaml
  run sim-schedules -- tests/golden/sim_schedules.yaml
  dump "simulator" "--phases --modelled" "$tmp"/sim-{smoke,trfd,synthetic,schedules}
} > "$tmp/behaviour.txt" || exit 1
if [ "${2:-}" = "--update" ]; then
  cp "$tmp/behaviour.txt" tests/golden/protocol_behaviour.txt
  say "golden file written"
  exit 0
fi
diff -u tests/golden/protocol_behaviour.txt "$tmp/behaviour.txt" ||
  { say "FAIL: runs differ from the golden file"; exit 1; }
say "$(grep -c '^== ' "$tmp/behaviour.txt") runs as before"
