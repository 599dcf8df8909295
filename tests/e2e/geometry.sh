#!/usr/bin/env bash
# The geometric partitioners (orb = RCB, rib, mj, hsfc) and scotch on barnes_hut (2-D cells) and
# block_substitution (1-D strips), on threads, in the simulator and on 2 MPI ranks: every run
# completes (verified where a kernel ran) and the runs table holds the placement's imbalance,
# edge cut and communication volume. `lbbench partition --grid 4x4` prints the same figures;
# rib on weights without coordinates is refused (exit 2). Skipped (77) after the threads and the
# simulator without mpirun.
set -uo pipefail
lbbench=$(realpath "$1")
. "$(dirname "$0")/lib/scratch.sh"
say() { echo "geometry: $*"; }
fails=0
fail() { say "FAIL: $*"; fails=$((fails + 1)); }
cat > "$tmp/c.yaml" << 'YAML'
name: geometry
workload:
  - { kind: barnes_hut, particles: 400, dimensions: 2, cells_per_side: 4, seed: 1 }
  - { kind: block_substitution, blocks: 16, width: 16, mean_lines: 6, sd: 1.0, seed: 1 }
platform: { processors: 4, speeds: [1, 1, 1, 0.5] }
execution: { steps: 2, warmup: 0, record: modules }
balancers:
  - { static: orb }
  - { static: orb, rectilinear: true, label: rcb_rectilinear }
  - { static: rib }
  - { static: mj }
  - { static: hsfc }
  - { static: scotch }
YAML
check() {  # SET EXECUTOR VERIFIED
  /usr/bin/python3 - "$@" << 'PY'
import glob, math, sys, h5py, numpy as np
d, executor, verified = sys.argv[1], sys.argv[2], int(sys.argv[3])
cols = {}
for p in sorted(glob.glob(d + "/*.h5")):
    for c, v in h5py.File(p)["runs"].items():
        cols.setdefault(c, []).extend(v.asstr()[:] if v.dtype.kind == "S" else v[:])
runs = {c: np.array(v) for c, v in cols.items()}
assert len(runs["run"]) == 12, len(runs["run"])
for i in range(12):
    what = (runs["workload"][i], runs["balancer"][i])
    assert runs["status"][i] == "complete", (what, runs["error"][i])
    assert runs["executor"][i] == executor and runs["verified"][i] == verified, what
    imb, cut, vol = (runs[c][i] for c in ("partition_imbalance", "partition_edge_cut",
                                          "partition_communication_volume"))
    assert 1 <= imb < 2, (what, imb)
    assert 3 <= cut <= vol, (what, cut, vol)  # 4 parts of a connected graph cut 3 links at least
PY
}
"$lbbench" run "$tmp/c.yaml" -q -o "$tmp/threads" > "$tmp/threads.out" 2>&1 || { fail "threads"; cat "$tmp/threads.out"; }
check "$tmp/threads" bsp 1 || fail "threads' runs"
"$lbbench" run "$tmp/c.yaml" -q --set execution.executor=simulate --set "execution.replay_set=$tmp/threads" -o "$tmp/sim" > "$tmp/sim.out" 2>&1 ||
  { fail "simulator"; cat "$tmp/sim.out"; }
check "$tmp/sim" simulate 0 || fail "simulated runs"
# Refused by validate, before any run, where the modules have no coordinates; tagged in `list`.
printf 'workload: { kind: synthetic, modules: 8 }\nplatform: { processors: 2 }\nbalancers: [ { static: mj } ]\n' > "$tmp/nocoords.yaml"
"$lbbench" validate "$tmp/nocoords.yaml" > "$tmp/v.out" 2>&1
rc=$?
[ "$rc" != 0 ] && grep -q "nocoords.yaml:3:14: synthetic: mj places modules by their coordinates" "$tmp/v.out" ||
  { fail "validate mj without coordinates: exit $rc"; cat "$tmp/v.out"; }
[ "$("$lbbench" list | grep -c '^  [a-z]* \[coordinates\] - ')" = 3 ] || fail "list tags rib, mj and hsfc"
# 4 quadrants of a 4x4 grid: 8 links cut, 16 cells' worth of neighbours on other processors.
for m in orb rib mj; do
  printf '1 %.0s' {1..16} | "$lbbench" partition --method $m --processors 4 --grid 4x4 > "$tmp/p.json" ||
    fail "partition $m"
  grep -q '"communication_volume":16,"edge_cut":8,"imbalance":1.0' "$tmp/p.json" || { fail "$m on 4x4"; cat "$tmp/p.json"; }
done
printf '1 %.0s' {1..16} | "$lbbench" partition --method rib --processors 4 > "$tmp/no.json" 2> "$tmp/no.err"
rc=$?
[ "$rc" = 2 ] && grep -q "rib is a geometric partitioner" "$tmp/no.err" || { fail "rib without coordinates: exit $rc"; cat "$tmp/no.err"; }
[ "$fails" -eq 0 ] || { say "$fails failures"; exit 1; }
command -v mpirun > /dev/null || { say "SKIP: no mpirun (threads and simulator passed)"; exit 77; }
"$lbbench" list | grep '^  mpi - ' > /dev/null || { say "SKIP: lbbench built without MPI"; exit 77; }
. "$(dirname "$0")/lib/mpi_env.sh"
timeout 300 "${mpi[@]}" -np 2 "$lbbench" run "$tmp/c.yaml" -q -o "$tmp/mpi" > "$tmp/mpi.out" 2>&1 ||
  { fail "2 ranks"; tail -20 "$tmp/mpi.out"; }
check "$tmp/mpi" mpi 1 || fail "the runs across 2 ranks"
say "$fails failures"
[ "$fails" -eq 0 ]
