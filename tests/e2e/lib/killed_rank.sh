# Sourced by the e2e scripts across MPI ranks (mpi_ranks.sh, mpi_async.sh): a rank killed mid-run.
# kill_rank_and_resume NAME: runs $tmp/long.yaml (two runs) on 2 ranks and kills rank 1 once the
# leader has printed the first run's line (so the second is in flight, whatever the load; a CPU
# clock is no sign: a rank waiting in a collective busy-polls while the leader has not yet taken
# SIGTERM over): mpirun ends the job (SIGTERM to rank 0). The leader must write on SIGTERM, the
# set must read with the first run complete and the one in flight failed (interrupted), and
# `run --resume` across the ranks must complete both runs. Uses $lbbench, $tmp, the mpi array and
# fail; NAME heads its line of output. Open MPI kills a rank 1 s after its SIGTERM by default
# (odls_base_sigkill_timeout): too short for an ASan leader on a loaded host, so 30 s here
# (docs/engine.md says so for users).
kill_rank_and_resume() {
  local name=$1 job rank1="" pid complete
  LBB_RESULTS_PART_SECONDS=1000 "${mpi[@]}" --mca odls_base_sigkill_timeout 30 -np 2 \
    "$lbbench" run "$tmp/long.yaml" -o "$tmp/killed" > "$tmp/killed.out" 2>&1 &
  job=$!
  for _ in $(seq 3000); do  # 300 s at most
    grep -q '^\[1/2\] .*verified' "$tmp/killed.out" && break
    sleep 0.1
  done
  for pid in $(pgrep -f "lbbench run $tmp/long.yaml"); do
    tr '\0' '\n' < "/proc/$pid/environ" 2> /dev/null | grep -x OMPI_COMM_WORLD_RANK=1 > /dev/null && rank1=$pid
  done
  [ -n "$rank1" ] && kill -KILL "$rank1" || fail "no rank 1 to kill"
  wait "$job" && fail "mpirun exited 0 after a rank was killed"
  grep -q "^lbbench: interrupted (SIGTERM): " "$tmp/killed.out" ||
    { fail "the leader did not write on SIGTERM"; tail "$tmp/killed.out"; }
  "$lbbench" export "$tmp/killed" --to "$tmp/killed.csv" > /dev/null || fail "the killed set does not read"
  /usr/bin/python3 - "$tmp/killed.csv/runs.csv" "$name" << 'PY' || fail "the killed set's runs"
import sys, pandas as pd
runs = pd.read_csv(sys.argv[1])
stopped = runs[runs.status == "failed"]
assert len(stopped) == 1 and stopped.interrupted.iloc[0] == 1, runs.status.tolist()
assert (runs.status == "complete").sum() == 1, runs.status.tolist()
print(f"{sys.argv[2]}: killed set: {(runs.status == 'complete').sum()} complete, 1 interrupted")
PY
  timeout 900 "${mpi[@]}" -np 2 "$lbbench" run "$tmp/long.yaml" -o "$tmp/killed" --resume -q \
    > "$tmp/resume.out" 2>&1 || { fail "resume"; tail "$tmp/resume.out"; }
  complete=$("$lbbench" show "$tmp/killed" | grep -c "  complete  ")
  [ "$complete" = 2 ] || fail "resume left $complete of 2 runs complete"
}
