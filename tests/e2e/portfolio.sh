#!/usr/bin/env bash
# The entry options balance_every and model, and dynamic: hierarchical, on threads, in the
# simulator (replaying the threads' costs) and on 2 MPI ranks: every run completes (verified
# where a kernel ran), the runs table records the options, balance_every: 3 decides after steps 3
# and 6 only, and the hierarchical balancer moves modules. An option on a balancer that is not
# between steps is refused at its position (exit 2). Skipped (77) after the threads and the
# simulator without mpirun.
set -uo pipefail
lbbench=$(realpath "$1")
. "$(dirname "$0")/lib/scratch.sh"
say() { echo "portfolio: $*"; }
fails=0
fail() { say "FAIL: $*"; fails=$((fails + 1)); }
cat > "$tmp/c.yaml" << 'YAML'
name: portfolio
workload: { kind: block_substitution, blocks: 32, width: 32, mean_lines: 8, sd: 1.0, seed: 1 }
platform: { processors: 4, speeds: [1, 1, 1, 0.5] }
execution: { steps: 6, warmup: 0, record: modules }
balancers:
  - { dynamic: greedy, balance_every: 3, model: moving_average, model_window: 3, label: every3 }
  - { dynamic: refine, model: [persistence, linear] }
  - { dynamic: hierarchical, group: 2, within: greedy, across: greedy }
YAML
check() {  # SET EXECUTOR VERIFIED
  /usr/bin/python3 - "$@" << 'PY'
import glob, sys, h5py, numpy as np
d, executor, verified = sys.argv[1], sys.argv[2], int(sys.argv[3])
def table(name):
    cols = {}
    for p in sorted(glob.glob(d + "/*.h5")):
        for c, v in h5py.File(p)[name].items():
            cols.setdefault(c, []).extend(v.asstr()[:] if v.dtype.kind == "S" else v[:])
    return {c: np.array(v) for c, v in cols.items()}
runs, steps = table("runs"), table("steps")
got = {b: i for i, b in enumerate(runs["balancer"])}
want = {"every3": (3, "moving_average", 3), "refine(model=persistence)": (1, "persistence", 4),
        "refine(model=linear)": (1, "linear", 4), "hierarchical": (1, "last", 1)}
assert set(got) == set(want), got
for b, (every, model, window) in want.items():
    i = got[b]
    assert runs["status"][i] == "complete" and runs["executor"][i] == executor, (b, runs["status"][i], runs["executor"][i])
    assert runs["verified"][i] == verified, (b, runs["verified"][i])
    row = (runs["balance_every"][i], runs["load_model"][i], runs["load_model_window"][i])
    assert row == (every, model, window), (b, row)
    decided = list(np.where(~np.isnan(steps["predicted_before"][steps["run"] == runs["run"][i]]))[0])
    assert decided == ([2, 5] if every == 3 else list(range(6))), (b, decided)
assert runs["migrations_total"][got["hierarchical"]] > 0
PY
}
"$lbbench" run "$tmp/c.yaml" -q -o "$tmp/threads" > "$tmp/threads.out" 2>&1 || { fail "threads"; cat "$tmp/threads.out"; }
check "$tmp/threads" bsp 1 || fail "threads' runs"
"$lbbench" run "$tmp/c.yaml" -q --set execution.executor=simulate --set "execution.replay_set=$tmp/threads" -o "$tmp/sim" > "$tmp/sim.out" 2>&1 ||
  { fail "simulator"; cat "$tmp/sim.out"; }
check "$tmp/sim" simulate 0 || fail "simulated runs"
# Refused where it cannot apply: an in-step balancer, a schedule.
for entry in "{ dynamic: gcdlb, balance_every: 2 }" "{ schedule: ss, model: linear }"; do
  sed "/^balancers:/,\$d" "$tmp/c.yaml" > "$tmp/bad.yaml"
  printf 'balancers:\n  - %s\n' "$entry" >> "$tmp/bad.yaml"
  "$lbbench" validate "$tmp/bad.yaml" > "$tmp/bad.out" 2>&1
  rc=$?
  [ "$rc" = 2 ] && grep -qE "bad.yaml:6:[0-9]+: (balance_every|model) applies to" "$tmp/bad.out" ||
    { fail "$entry: exit $rc"; cat "$tmp/bad.out"; }
done
[ "$fails" -eq 0 ] || { say "$fails failures"; exit 1; }
command -v mpirun > /dev/null || { say "SKIP: no mpirun (threads and simulator passed)"; exit 77; }
"$lbbench" list | grep '^  mpi - ' > /dev/null || { say "SKIP: lbbench built without MPI"; exit 77; }
. "$(dirname "$0")/lib/mpi_env.sh"
timeout 300 "${mpi[@]}" -np 2 "$lbbench" run "$tmp/c.yaml" -q -o "$tmp/mpi" > "$tmp/mpi.out" 2>&1 ||
  { fail "2 ranks"; tail -20 "$tmp/mpi.out"; }
check "$tmp/mpi" mpi 1 || fail "the runs across 2 ranks"
say "$fails failures"
[ "$fails" -eq 0 ]
