#!/usr/bin/env bash
# Processors as MPI ranks on loopback (harness/mpi/): a small problem of each workload run in one
# process, on 2 ranks of 2 threads and on 4 ranks of 1 thread must give the same checksums, all
# verified; moves across ranks are counted apart from copies within one; and a rank killed
# mid-run leaves the leader's set readable, the run in flight kept as failed (interrupted), and
# `run --resume` across the ranks completes it. Skipped where lbbench was built without MPI or mpirun is missing.
set -uo pipefail
lbbench=$(realpath "$1")
. "$(dirname "$0")/lib/scratch.sh"
say() { echo "mpi_ranks: $*"; }
command -v mpirun > /dev/null || { say "SKIP: no mpirun (Debian's openmpi-bin)"; exit 77; }
"$lbbench" list 2> /dev/null | grep '^  mpi - ' > /dev/null || { say "SKIP: lbbench built without MPI"; exit 77; }
mpi=(mpirun --oversubscribe --bind-to none)
[ "$(id -u)" -ne 0 ] || mpi+=(--allow-run-as-root)
config=tests/data/mpi_ranks.yaml
fails=0
fail() { say "FAIL: $*"; fails=$((fails + 1)); }

"$lbbench" run "$config" -q -o "$tmp/one" > /dev/null 2> "$tmp/one.err" || { fail "one process"; cat "$tmp/one.err"; }
for ranks in 2 4; do
  timeout 600 "${mpi[@]}" -np "$ranks" "$lbbench" run "$config" -q -o "$tmp/r$ranks" \
    > "$tmp/r$ranks.out" 2>&1 || { fail "$ranks ranks"; tail -20 "$tmp/r$ranks.out"; }
  "$lbbench" export "$tmp/r$ranks" --to "$tmp/r$ranks.csv" > /dev/null || fail "export $ranks"
done
"$lbbench" export "$tmp/one" --to "$tmp/one.csv" > /dev/null || fail "export one"
/usr/bin/python3 tests/e2e/check_mpi_ranks.py "$tmp/one.csv" "$tmp/r2.csv:2" "$tmp/r4.csv:4" || fail "results"

# Rank 1 killed while the leader runs: mpirun ends the job (SIGTERM to rank 0).
LBB_RESULTS_PART_SECONDS=1000 "${mpi[@]}" -np 2 "$lbbench" run "$config" --only matmul \
  --set execution.steps=40 --repetitions 5 -o "$tmp/killed" > "$tmp/killed.out" 2>&1 &
job=$!
rank1=""
for _ in $(seq 600); do  # until rank 0 reports a run (a sanitizer build is slow), 60 s at most
  if grep -q ", verified, ETA" "$tmp/killed.out" 2> /dev/null; then
    for pid in $(pgrep -f "lbbench run $config"); do
      tr '\0' '\n' < "/proc/$pid/environ" 2> /dev/null | grep -x OMPI_COMM_WORLD_RANK=1 > /dev/null && rank1=$pid
    done
    [ -n "$rank1" ] && break
  fi
  sleep 0.1
done
[ -n "$rank1" ] && kill -KILL "$rank1" || fail "no rank 1 to kill"
wait "$job" && fail "mpirun exited 0 after a rank was killed"
grep -q "^lbbench: interrupted (SIGTERM): " "$tmp/killed.out" || { fail "the leader did not write on SIGTERM"; tail "$tmp/killed.out"; }
"$lbbench" export "$tmp/killed" --to "$tmp/killed.csv" > /dev/null || fail "the killed set does not read"
/usr/bin/python3 - "$tmp/killed.csv/runs.csv" << 'PY' || fail "the killed set's runs"
import sys, pandas as pd
runs = pd.read_csv(sys.argv[1])
stopped = runs[runs.status == "failed"]
assert (runs.status == "complete").sum() >= 1, runs.status.tolist()
assert len(stopped) == 1 and stopped.interrupted.iloc[0] == 1, runs[["status", "interrupted"]]
print(f"mpi_ranks: killed set: {(runs.status == 'complete').sum()} complete, 1 interrupted")
PY
timeout 900 "${mpi[@]}" -np 2 "$lbbench" run "$config" --only matmul --set execution.steps=40 \
  --repetitions 5 -o "$tmp/killed" --resume -q > "$tmp/resume.out" 2>&1 || { fail "resume"; tail "$tmp/resume.out"; }
complete=$("$lbbench" export "$tmp/killed" --to "$tmp/resumed.csv" > /dev/null &&
  /usr/bin/python3 -c "import pandas as pd; print((pd.read_csv('$tmp/resumed.csv/runs.csv').status == 'complete').sum())")
[ "$complete" = 20 ] || fail "resume left $complete of 20 runs complete"
say "$fails failures"
[ "$fails" -eq 0 ]
