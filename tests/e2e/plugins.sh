#!/usr/bin/env bash
# `dynamic: plugin` end to end (docs/your-balancer.md): the example C plugin
# (examples/balancers/greedy_plugin.c) with the built-in greedy as its shadow gives greedy's
# owners at every decision on real kernels (states really migrate, results verify), in
# `executor: simulate` (and there its owners equal a separate greedy run's at every step) and on
# 2 MPI ranks; the runs table names the library and its SHA-256. Hostile plugins fail their run
# with exit 1 naming the plugin, the step and the problem, the set still readable; libraries that
# do not load are refused by validate at file:line:col. Skipped where the plugins were not built.
set -uo pipefail
lbbench=$(realpath "$1")
. "$(dirname "$0")/lib/scratch.sh"
say() { echo "plugins: $*"; }
plugins=${LBB_BUILD_DIR:-build}/plugins
[ -f "$plugins/libgreedy_plugin.so" ] ||
  { say "SKIP: $plugins/libgreedy_plugin.so not built (cmake --build build --target greedy_plugin)"; exit 77; }
plugins=$(realpath "$plugins")
fails=0
. "$(dirname "$0")/lib/expect.sh"
fail() { say "FAIL: $*"; fails=$((fails + 1)); }

cat > "$tmp/twins.yaml" << YAML
name: plugin_twins
workload:
  - { kind: block_substitution, blocks: 16, width: 16, mean_lines: 4, sd: 1.0, seed: 3 }
  - { kind: matmul, n: 64, r: 32, m: 32, block_rows: 4, seed: 1 }
  - { kind: trfd, n: 8, iterations_per_module: 1, seed: 1 }
  - { kind: barnes_hut, particles: 2000, dimensions: 2, decomposition: curve, curve_modules: 32,
      theta: 0.5, eps: 0.05, dt: 0.01, drift: 0.5, seed: 1 }
platform: { processors: 4, topology: chain, speeds: [1, 1, 0.5, 0.75] }
execution: { steps: 6, warmup: 1, repetitions: 1, record: modules }
balancers:
  - { dynamic: greedy }
  # The shadow is greedy with its defaults: min_gain 0.05, the entry's guard here.
  - { dynamic: plugin, library: $plugins/libgreedy_plugin.so, min_gain: 0.05,
      shadow: greedy, label: plugin }
output: results/plugin_twins
YAML
"$lbbench" validate "$tmp/twins.yaml" > /dev/null || fail "validate the twins"
sha=$(sha256sum "$plugins/libgreedy_plugin.so" | cut -d' ' -f1)

# Every plugin run: verified (kernels) or simulated, its shadow compared at every decision with
# none differing, modules moved, and the library's path and SHA-256 recorded.
check_runs() {  # SET_CSV_DIR LABEL [LIBRARY]
  local library=${3:-$plugins/libgreedy_plugin.so}
  /usr/bin/python3 - "$1" "$2" "$library" "$(sha256sum "$library" | cut -d' ' -f1)" << 'PY'
import csv, sys
where, label, library, sha = sys.argv[1:]
runs = list(csv.DictReader(open(f"{where}/runs.csv")))
mine = [r for r in runs if r["balancer"] == "plugin"]
problems = []
if len(mine) != 4: problems.append(f"{len(mine)} plugin runs, want 4")
decisions = differ = moved = 0
for r in mine:
    ok = r["status"] == "complete" and (r["verified"] == "1" or r["simulated"] == "1")
    if not ok: problems.append(f"{r['workload']}: {r['status']} {r.get('error', '')}")
    if r["plugin_library"] != library or r["plugin_sha256"] != sha:
        problems.append(f"{r['workload']}: provenance {r['plugin_library']} {r['plugin_sha256']}")
    decisions += int(float(r["plugin_shadow_decisions"] or 0))
    differ += int(float(r["plugin_shadow_differ"] or 0))
    moved += int(r["migrations_total"])
if decisions < 4 * 5: problems.append(f"only {decisions} decisions compared")
if differ: problems.append(f"{differ} of {decisions} decisions differ from greedy's")
if moved == 0: problems.append("no module moved")
# Deciding on every rank, no owners are sent: every message of a decision is one rank's busy
# times to the other (2 processors a rank, 16 bytes); rank 0 deciding also sends its owners.
if label.endswith("on every rank") and any(
        float(r["balance_bytes_total"]) != 16 * float(r["balance_messages_total"]) for r in mine):
    problems.append("a decision's messages are not every rank's busy times alone")
print(f"plugins: {label}: {decisions} decisions over {len(mine)} runs compared with greedy's, "
      f"{differ} differ; {moved} modules moved")
for p in problems: print(f"plugins: FAIL: {label}: {p}")
sys.exit(1 if problems else 0)
PY
}
"$lbbench" run "$tmp/twins.yaml" -q -o "$tmp/bsp" > "$tmp/bsp.out" 2>&1 || { fail "bsp run"; tail "$tmp/bsp.out"; }
"$lbbench" export "$tmp/bsp" --to "$tmp/bsp.csv" > /dev/null && check_runs "$tmp/bsp.csv" "real kernels" || fails=$((fails + 1))

# The simulator: synthetic costs that drift, move with particles or are drawn afresh each step.
sed -e '/^workload:/,/^platform:/c\
workload:\
  - { kind: synthetic, model: drift, modules: 64, drift_sd: 0.2 }\
  - { kind: synthetic, model: particles, modules: 64, lambda: 5, mu: 0.3 }\
  - { kind: synthetic, model: lognormal, modules: 64, redraw: true }\
  - { kind: synthetic, model: truncated_normal, modules: 48, phases: 2, redraw: true }\
platform: { processors: 8, topology: ring, speeds: [1, 1, 0.5, 0.75, 1, 1, 1, 0.5] }' \
  -e 's/steps: 6, warmup: 1/steps: 30, warmup: 1, executor: simulate/' "$tmp/twins.yaml" > "$tmp/sim.yaml"
"$lbbench" run "$tmp/sim.yaml" -q -o "$tmp/sim" > "$tmp/sim.out" 2>&1 ||
  { fail "simulate run"; tail "$tmp/sim.out"; }
"$lbbench" export "$tmp/sim" --to "$tmp/sim.csv" > /dev/null && check_runs "$tmp/sim.csv" "simulate" || fails=$((fails + 1))
# Simulated costs repeat exactly: the plugin's run and greedy's own own the same modules at
# every step.
/usr/bin/python3 - "$tmp/sim.csv" << 'PY' || fails=$((fails + 1))
import csv, sys
where = sys.argv[1]
# A run's workload: its resolved config up to the platform (all four are kind synthetic).
workload = lambda r: r["config_yaml"].split("platform:")[0]
label = {r["run"]: (workload(r), r["balancer"]) for r in csv.DictReader(open(f"{where}/runs.csv"))}
owners = {}
for r in csv.DictReader(open(f"{where}/modules.csv")):
    workload, balancer = label[r["run"]]
    owners.setdefault(balancer, {})[(workload, r["step"], r["phase"], r["module"])] = r["owner"]
a, b = owners.get("plugin", {}), owners.get("greedy", {})
same = sum(a[k] == b.get(k) for k in a)
print(f"plugins: simulate: {same} of {len(a)} (workload, step, module) owners equal greedy's run's")
if not a or same != len(a) or len(a) != len(b): print("plugins: FAIL: owners differ"); sys.exit(1)
PY

"$lbbench" list > "$tmp/list.txt" 2>&1
if command -v mpirun > /dev/null && grep -q '^  mpi - ' "$tmp/list.txt"; then
  # A sanitizer build: Open MPI's own allocations past MPI_Finalize are not lbbench's leaks
  # (tests/e2e/mpi_ranks.sh says why the slow unwinder).
  . "$(dirname "$0")/lib/mpi_env.sh"
  timeout 600 "${mpi[@]}" -np 2 "$lbbench" run "$tmp/twins.yaml" -q -o "$tmp/mpi" > "$tmp/mpi.out" 2>&1 ||
    { fail "2 ranks"; tail -20 "$tmp/mpi.out"; }
  "$lbbench" export "$tmp/mpi" --to "$tmp/mpi.csv" > /dev/null && check_runs "$tmp/mpi.csv" "2 MPI ranks" ||
    fails=$((fails + 1))
  # The example declaring LBB_PLUGIN_ON_EVERY_RANK (tests/plugins/greedy_every_rank.c).
  every=$plugins/libgreedy_every_rank.so
  sed "s|$plugins/libgreedy_plugin.so|$every|" "$tmp/twins.yaml" > "$tmp/every.yaml"
  timeout 600 "${mpi[@]}" -np 2 "$lbbench" run "$tmp/every.yaml" -q -o "$tmp/every" > "$tmp/every.out" 2>&1 ||
    { fail "2 ranks, every rank deciding"; tail -20 "$tmp/every.out"; }
  "$lbbench" export "$tmp/every" --to "$tmp/every.csv" > /dev/null &&
    check_runs "$tmp/every.csv" "2 MPI ranks, on every rank" "$every" || fails=$((fails + 1))
else
  say "2 MPI ranks: not run (no mpirun, or lbbench built without MPI)"
fi

# Hostile plugins: the run fails (exit 1) naming the plugin, the step and the problem; the set
# keeps the failed run, readable.
for case in "wrong_length:wrote past the 32 owners" "out_of_range:owner 4 is not a processor" \
            "error_code:returned error code -7: refusing on purpose" \
            "unknown_code:returned 5, neither" "garbage:owner -2147483648 is not a processor"; do
  name=${case%%:*} lib=$plugins/libhostile_${case%%:*}.so
  cat > "$tmp/$name.yaml" << YAML
name: hostile
workload: { kind: barnes_hut, particles: 2000, dimensions: 2, decomposition: curve, curve_modules: 32 }
platform: { processors: 4, topology: chain }
execution: { steps: 4, warmup: 0 }
balancers: [{ dynamic: greedy }, { dynamic: plugin, library: $lib }]
YAML
  expect 1 "plugin hostile \($lib\), step 1, phase 0: .*${case#*:}" -- \
    "$lbbench" run "$tmp/$name.yaml" -q -o "$tmp/$name"
  "$lbbench" export "$tmp/$name" --to "$tmp/$name.csv" > /dev/null 2>&1 &&
    grep -q "failed" "$tmp/$name.csv/runs.csv" && grep -q "complete" "$tmp/$name.csv/runs.csv" ||
    fail "$name: the set does not hold greedy's complete run and the plugin's failed one"
done

# Libraries that do not load: validate refuses them at the entry's library (or params) value,
# file:line:col (exit 2).
at() {  # FILE TEXT: line:column of TEXT's first occurrence, from 1
  awk -v t="$2" '{ i = index($0, t) } i { print NR ":" i; exit }' "$1"; }
for case in "libabsent.so:no such file" "libhostile_no_symbol.so:has no symbol lbb_balancer_plugin" \
            "libhostile_wrong_version.so:built against balancer_plugin.h version 3, but this lbbench has version 2" \
            "libhostile_bad_decides_on.so:its decides_on is 7, neither"; do
  sed "s|$plugins/libgreedy_plugin.so|$plugins/${case%%:*}|" "$tmp/twins.yaml" > "$tmp/load.yaml"
  expect 2 "load.yaml:$(at "$tmp/load.yaml" "$plugins/${case%%:*}"): .*${case#*:}" -- \
    "$lbbench" validate "$tmp/load.yaml"
done
sed "s|libgreedy_plugin.so,|libhostile_bad_init.so, params: { x: 1 },|" "$tmp/twins.yaml" > "$tmp/init.yaml"
expect 2 "init.yaml:$(at "$tmp/init.yaml" "{ x: 1"): .*refused its params: init refuses" -- \
  "$lbbench" validate "$tmp/init.yaml"
# The field config with one more entry, in one command (docs/your-balancer.md).
"$lbbench" validate configs/field.yaml \
  --set "balancers.+={ dynamic: plugin, library: $plugins/libgreedy_plugin.so, label: mine }" \
  > "$tmp/field.txt" 2>&1 && grep -q ' mine x5$' "$tmp/field.txt" ||
  { fail "field config with the plugin appended"; tail -3 "$tmp/field.txt"; }
say "$fails failures"
[ "$fails" -eq 0 ]
