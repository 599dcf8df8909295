#!/usr/bin/env bash
# `dynamic: python` end to end (docs/your-balancer.md): the example script
# (examples/balancers/greedy.py) with the built-in greedy as its shadow gives greedy's owners at
# every decision on real kernels (states really migrate, results verify), in `executor:
# simulate` (and there its owners equal a separate greedy run's at every step) and on 2 MPI
# ranks; the runs table names the script and its SHA-256. Hostile answers fail their run with
# exit 1 naming the script, the function, the step and the problem, the set still readable;
# scripts that do not import are refused by validate at file:line:col.
set -uo pipefail
lbbench=$(realpath "$1")
. "$(dirname "$0")/lib/scratch.sh"
say() { echo "python_balancers: $*"; }
fails=0
. "$(dirname "$0")/lib/expect.sh"
fail() { say "FAIL: $*"; fails=$((fails + 1)); }
script=$(realpath examples/balancers/greedy.py) hostile=$(realpath tests/plugins/hostile.py)

cat > "$tmp/twins.yaml" << YAML
name: python_twins
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
  - { dynamic: python, script: $script, function: balance, min_gain: 0.05,
      shadow: greedy, label: python }
output: results/python_twins
YAML
"$lbbench" validate "$tmp/twins.yaml" > /dev/null || fail "validate the twins"
sha=$(sha256sum "$script" | cut -d' ' -f1)

# Every script run: verified (kernels) or simulated, its shadow compared at every decision with
# none differing, modules moved, and the script's path and SHA-256 recorded.
check_runs() {  # SET_CSV_DIR LABEL
  /usr/bin/python3 - "$1" "$2" "$script" "$sha" << 'PY'
import csv, sys
where, label, script, sha = sys.argv[1:]
runs = list(csv.DictReader(open(f"{where}/runs.csv")))
mine = [r for r in runs if r["balancer"] == "python"]
problems = []
if len(mine) != 4: problems.append(f"{len(mine)} python runs, want 4")
decisions = differ = moved = 0
for r in mine:
    ok = r["status"] == "complete" and (r["verified"] == "1" or r["simulated"] == "1")
    if not ok: problems.append(f"{r['workload']}: {r['status']} {r.get('error', '')}")
    if r["plugin_library"] != script or r["plugin_sha256"] != sha:
        problems.append(f"{r['workload']}: provenance {r['plugin_library']} {r['plugin_sha256']}")
    decisions += int(float(r["plugin_shadow_decisions"] or 0))
    differ += int(float(r["plugin_shadow_differ"] or 0))
    moved += int(r["migrations_total"])
if decisions < 4 * 5: problems.append(f"only {decisions} decisions compared")
if differ: problems.append(f"{differ} of {decisions} decisions differ from greedy's")
if moved == 0: problems.append("no module moved")
print(f"python_balancers: {label}: {decisions} decisions over {len(mine)} runs compared with "
      f"greedy's, {differ} differ; {moved} modules moved")
for p in problems: print(f"python_balancers: FAIL: {label}: {p}")
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
# Simulated costs repeat exactly: the script's run and greedy's own own the same modules at
# every step.
/usr/bin/python3 - "$tmp/sim.csv" << 'PY' || fails=$((fails + 1))
import csv, sys
where = sys.argv[1]
workload = lambda r: r["config_yaml"].split("platform:")[0]
label = {r["run"]: (workload(r), r["balancer"]) for r in csv.DictReader(open(f"{where}/runs.csv"))}
owners = {}
for r in csv.DictReader(open(f"{where}/modules.csv")):
    workload, balancer = label[r["run"]]
    owners.setdefault(balancer, {})[(workload, r["step"], r["phase"], r["module"])] = r["owner"]
a, b = owners.get("python", {}), owners.get("greedy", {})
same = sum(a[k] == b.get(k) for k in a)
print(f"python_balancers: simulate: {same} of {len(a)} (workload, step, module) owners equal greedy's run's")
if not a or same != len(a) or len(a) != len(b): print("python_balancers: FAIL: owners differ"); sys.exit(1)
PY

"$lbbench" list > "$tmp/list.txt" 2>&1
if command -v mpirun > /dev/null && grep -q '^  mpi - ' "$tmp/list.txt"; then
  . "$(dirname "$0")/lib/mpi_env.sh"
  timeout 600 "${mpi[@]}" -np 2 "$lbbench" run "$tmp/twins.yaml" -q -o "$tmp/mpi" > "$tmp/mpi.out" 2>&1 ||
    { fail "2 ranks"; tail -20 "$tmp/mpi.out"; }
  "$lbbench" export "$tmp/mpi" --to "$tmp/mpi.csv" > /dev/null && check_runs "$tmp/mpi.csv" "2 MPI ranks" ||
    fails=$((fails + 1))
  # A user's balancer that fails on rank 0 fails its run on every rank (exit 1, the message), not
  # the job: the runs before and after it are in the set, complete.
  # So does an initial partition (decided on every rank), and, where the function decides on
  # every rank, an answer that differs between ranks or an error on rank 1 alone.
  every=$(realpath tests/plugins/every_rank.py)
  entries=("{ dynamic: python, script: $hostile, function: raising }"
           "{ static: python, script: $hostile, function: raising_at_once }"
           "{ dynamic: python, script: $every, function: differs }"
           "{ dynamic: python, script: $every, function: raising_on_rank_1 }"
           "{ static: python, script: $every, function: raising_on_rank_1 }")
  msgs=("python raising in ${hostile//./\\.}, step 1, phase 0: raised ValueError"
        "python raising_at_once in ${hostile//./\\.}, step -1, phase 0: raised ValueError: refusing at step -1"
        "decided differently on two ranks"
        "rank 1: python raising_on_rank_1 in ${every//./\\.}, step 0, phase 0: raised ValueError"
        "rank 1: python raising_on_rank_1 in ${every//./\\.}, step -1, phase 0: raised ValueError")
  if [ -f "${LBB_BUILD_DIR:-build}/plugins/libhostile_error_code.so" ]; then
    entries+=("{ dynamic: plugin, library: $(realpath "${LBB_BUILD_DIR:-build}/plugins/libhostile_error_code.so") }"
              "{ static: plugin, library: $(realpath "${LBB_BUILD_DIR:-build}/plugins/libhostile_error_at_once.so") }")
    msgs+=("plugin hostile .*, step 1, phase 0: returned error code -7"
           "plugin hostile .*, step -1, phase 0: returned error code -9: refusing at step -1")
  fi
  for i in "${!entries[@]}"; do
    cat > "$tmp/mpi_fail.yaml" << YAML
name: hostile_ranks
workload: { kind: barnes_hut, particles: 2000, dimensions: 2, decomposition: curve, curve_modules: 32 }
platform: { processors: 4, topology: chain }
execution: { steps: 4, warmup: 0 }
balancers: [{ dynamic: greedy }, ${entries[$i]}, { dynamic: none }]
YAML
    rm -rf "$tmp/mpi_fail"
    expect 1 "${msgs[$i]}" -- timeout 600 "${mpi[@]}" -np 2 "$lbbench" run "$tmp/mpi_fail.yaml" -q -o "$tmp/mpi_fail"
    "$lbbench" export "$tmp/mpi_fail" --to "$tmp/mpi_fail.csv" > /dev/null 2>&1 &&
      [ "$(grep -c ",complete," "$tmp/mpi_fail.csv/runs.csv")" -eq 2 ] &&
      [ "$(grep -c ',failed,' "$tmp/mpi_fail.csv/runs.csv")" -eq 1 ] ||
      fail "2 ranks, ${entries[$i]}: the set does not hold two complete runs and the failed one"
  done
  # Deciding on every rank (the function's decides_on = "every_rank"): both ranks call it at every
  # decision, rank 0 alone where it says "one_rank"; greedy's owners either way.
  for function in balance one_rank; do
    rm -f "$tmp/ranks.log"
    cat > "$tmp/every.yaml" << YAML
name: every_rank
workload: { kind: barnes_hut, particles: 2000, dimensions: 2, decomposition: curve, curve_modules: 32,
            drift: 0.5, seed: 1 }
platform: { processors: 4, topology: chain, speeds: [1, 1, 0.5, 0.75] }
execution: { steps: 4, warmup: 0 }
balancers:
  - { dynamic: python, script: $every, function: $function, shadow: greedy,
      min_gain: 0.05,
      params: { log: $tmp/ranks.log } }
YAML
    rm -rf "$tmp/every"
    timeout 600 "${mpi[@]}" -np 2 "$lbbench" run "$tmp/every.yaml" -q -o "$tmp/every" > "$tmp/every.out" 2>&1 ||
      { fail "2 ranks, $function"; tail -5 "$tmp/every.out"; }
    "$lbbench" export "$tmp/every" --to "$tmp/every.csv" > /dev/null 2>&1 || fail "export $function"
    /usr/bin/python3 - "$tmp/every.csv/runs.csv" "$tmp/ranks.log" "$function" << 'PY' || fails=$((fails + 1))
import csv, sys
runs, log, function = sys.argv[1:]
r = next(csv.DictReader(open(runs)))
calls = [tuple(map(int, line.split())) for line in open(log)]
steps = sorted({s for _, s in calls})
ranks = {s: sorted(rank for rank, t in calls if t == s) for s in steps}
want = [0, 1] if function == "balance" else [0]
problems = []
if r["status"] != "complete" or r["verified"] != "1": problems.append(f"{r['status']} {r.get('error', '')}")
if float(r["plugin_shadow_differ"] or 0) != 0 or float(r["plugin_shadow_decisions"] or 0) < 3:
    problems.append(f"{r['plugin_shadow_differ']} of {r['plugin_shadow_decisions']} decisions differ from greedy's")
if len(steps) < 3 or any(ranks[s] != want for s in steps): problems.append(f"calls by step {ranks}")
print(f"python_balancers: 2 ranks, {function}: {len(calls)} calls over {len(steps)} decisions "
      f"by ranks {sorted(set(ranks[steps[0]]))} each, {r['plugin_shadow_differ']} differ from greedy's")
for p in problems: print(f"python_balancers: FAIL: 2 ranks, {function}: {p}")
sys.exit(1 if problems else 0)
PY
  done
else
  say "2 MPI ranks: not run (no mpirun, or lbbench built without MPI)"
fi

# Hostile answers: the run fails (exit 1) naming the script, the function, the step and the
# problem; the set keeps the failed run, readable.
for case in "wrong_length:returned 33 owners for 32 modules" "out_of_range:owner 4 is not a processor" \
            "floats:array of float64, not a 1-D array of integer owners" \
            "raising:raised ValueError: refusing on purpose at step 1" \
            "keeps_view:kept the view or one of its arrays past the call"; do
  name=${case%%:*}
  cat > "$tmp/$name.yaml" << YAML
name: hostile
workload: { kind: barnes_hut, particles: 2000, dimensions: 2, decomposition: curve, curve_modules: 32 }
platform: { processors: 4, topology: chain }
execution: { steps: 4, warmup: 0 }
balancers: [{ dynamic: greedy }, { dynamic: python, script: $hostile, function: $name }]
YAML
  expect 1 "python $name in ${hostile//./\\.}, step 1, phase 0: .*${case#*:}" -- \
    "$lbbench" run "$tmp/$name.yaml" -q -o "$tmp/$name"
  "$lbbench" export "$tmp/$name" --to "$tmp/$name.csv" > /dev/null 2>&1 &&
    grep -q "failed" "$tmp/$name.csv/runs.csv" && grep -q "complete" "$tmp/$name.csv/runs.csv" ||
    fail "$name: the set does not hold greedy's complete run and the script's failed one"
done

# Scripts that do not import: validate refuses them at the entry's script (or function) value,
# file:line:col (exit 2), the script's own line in the message.
at() {  # FILE TEXT: line:column of TEXT's first occurrence, from 1
  awk -v t="$2" '{ i = index($0, t) } i { print NR ":" i; exit }' "$1"; }
syntax=$(realpath tests/plugins/syntax_error.py)
for case in "$(pwd)/absent.py:no such file" "$syntax:does not compile: ${syntax//./\\.}:4:[0-9]+: SyntaxError" \
            "$(realpath tests/plugins/import_raises.py):RuntimeError: no import for you"; do
  sed "s|$script|${case%%:*}|" "$tmp/twins.yaml" > "$tmp/load.yaml"
  expect 2 "load.yaml:$(at "$tmp/load.yaml" "${case%%:*}"): .*${case#*:}" -- \
    "$lbbench" validate "$tmp/load.yaml"
done
sed "s|function: balance|function: absent|" "$tmp/twins.yaml" > "$tmp/function.yaml"
expect 2 "function.yaml:$(at "$tmp/function.yaml" "absent"): .*has no function 'absent'" -- \
  "$lbbench" validate "$tmp/function.yaml"
# The initial partition: `static: python` and `static: plugin` with the examples
# own the modules as `static: lpt` does at every step (nothing rebalances), in the simulator.
plugin_lib=$(realpath "${LBB_BUILD_DIR:-build}/plugins/libgreedy_plugin.so" 2>/dev/null)
[ -f "$plugin_lib" ] || plugin_lib=""
cat > "$tmp/static.yaml" << YAML
name: python_static
workload:
  - { kind: synthetic, model: lognormal, modules: 64 }
  - { kind: synthetic, model: truncated_normal, modules: 48, phases: 2 }
platform: { processors: 8, topology: ring, speeds: [1, 1, 0.5, 0.75, 1, 1, 1, 0.5] }
execution: { steps: 3, warmup: 0, repetitions: 1, record: modules, executor: simulate }
balancers:
  - { static: lpt }
  - { static: python, script: $script, function: balance, label: python }
YAML
[ -z "$plugin_lib" ] || echo "  - { static: plugin, library: $plugin_lib, label: plugin }" \
  >> "$tmp/static.yaml"
"$lbbench" run "$tmp/static.yaml" -q -o "$tmp/static" > "$tmp/static.out" 2>&1 ||
  { fail "static run"; tail "$tmp/static.out"; }
"$lbbench" export "$tmp/static" --to "$tmp/static.csv" > /dev/null || fail "static export"
/usr/bin/python3 - "$tmp/static.csv" "$script" << 'PY' || fails=$((fails + 1))
import csv, sys
where, script = sys.argv[1:]
runs = list(csv.DictReader(open(f"{where}/runs.csv")))
label = {r["run"]: (r["config_yaml"].split("platform:")[0], r["balancer"]) for r in runs}
owners = {}
for r in csv.DictReader(open(f"{where}/modules.csv")):
    workload, balancer = label[r["run"]]
    owners.setdefault(balancer, {})[(workload, r["step"], r["phase"], r["module"])] = r["owner"]
lpt, bad = owners.get("lpt", {}), []
for name, mine in owners.items():
    same = sum(mine[k] == lpt.get(k) for k in mine)
    print(f"python_balancers: static: {name}: {same} of {len(mine)} owners equal lpt's run's")
    if not mine or same != len(mine) or len(mine) != len(lpt): bad.append(name)
if "python" not in owners: bad.append("no python runs")
if any(r["balancer"] == "python" and (r["static"] != "python" or r["plugin_library"] != script)
       for r in runs): bad.append("python's static and plugin_library columns")
for b in bad: print(f"python_balancers: FAIL: static: {b}")
sys.exit(1 if bad else 0)
PY
say "$fails failures"
[ "$fails" -eq 0 ]
