#!/usr/bin/env bash
# Bad input gets a clear message and exit 2, and never touches an existing result set.
set -uo pipefail
lbbench=$1
. "$(dirname "$0")/lib/scratch.sh"
fails=0
. "$(dirname "$0")/lib/expect.sh"
"$lbbench" run configs/smoke.yaml -o "$tmp/a" > /dev/null 2>&1 || { echo "setup failed"; exit 1; }
sum=$(cd "$tmp/a" && ls -a && sha256sum -- *)
printf 'workload: { kind: block_substitution\nplatform: [\n' > "$tmp/syntax.yaml"
expect 2 "syntax.yaml:2:9: " -- "$lbbench" run "$tmp/syntax.yaml" -o "$tmp/a"
sed 's/static: cyclic/static: nope/' configs/smoke.yaml > "$tmp/unknown.yaml"
expect 2 "unknown.yaml:[0-9]+:[0-9]+: unknown static balancer 'nope'" -- \
  "$lbbench" run "$tmp/unknown.yaml" -o "$tmp/a"
expect 2 "^--set balancers.1.static=nope: unknown static balancer" -- \
  "$lbbench" run configs/smoke.yaml -o "$tmp/a" --set 'balancers.1.static=nope'
expect 2 "processors \(64\) exceeds the workload's 16 modules" -- \
  "$lbbench" run configs/smoke.yaml -o "$tmp/a" --set platform.processors=64
expect 2 "must be >= 1, got 0" -- "$lbbench" validate configs/smoke.yaml --set platform.processors=0
# Refused by validate, not mid-run: asynchronous simulated steps have no contention model.
cat > "$tmp/async_contention.yaml" <<'YAML'
name: async_contention
workload: { kind: synthetic, model: truncated_normal, modules: 32, dependencies: chain }
platform: { processors: 4 }
execution: { steps: 5, executor: simulate, sim_contention: 0.1 }
balancers:
  - { static: block }
  - { dynamic: predictive }
YAML
expect 2 "async_contention.yaml:7:5: simulate: the contention model \(sim_contention\) is not simulated for asynchronous" -- \
  "$lbbench" validate "$tmp/async_contention.yaml"
# A balancer that needs the modules' communication graph, on a workload without one (matmul);
# the same entry on one with a graph (block substitution's chain) is accepted.
cat > "$tmp/no_graph.yaml" <<'YAML'
name: no_graph
workload:
  - { kind: matmul, n: 200, r: 50, m: 50, block_rows: 25 }
  - { kind: block_substitution, blocks: 16, width: 16 }
platform: { processors: 4 }
balancers:
  - { static: block }
  - { dynamic: multilevel, bisect: communication }
YAML
expect 2 "no_graph.yaml:8:5: matmul: multilevel with bisect: communication needs a communication graph" -- \
  "$lbbench" validate "$tmp/no_graph.yaml"
[ "$("$lbbench" validate "$tmp/no_graph.yaml" 2>&1 | grep -c 'communication graph')" -eq 1 ] ||
  { echo "FAIL: the entry was refused for block_substitution too"; fails=$((fails + 1)); }
# validate makes the whole-run checks run makes, so that it never says OK where every run fails:
# the simulator on a kernel without recorded costs, and the predictive balancer's asynchronous
# steps on a trace (it declares no module dependencies).
cat > "$tmp/sim_kernel.yaml" <<'YAML'
name: sim_kernel
workload: { kind: block_substitution, blocks: 16, width: 16 }
platform: { processors: 4 }
execution: { steps: 3, executor: simulate }
balancers:
  - { dynamic: none }
YAML
for cmd in validate "run -o $tmp/sim_kernel"; do
  expect 2 "sim_kernel.yaml:6:5: simulate: a workload with a kernel needs recorded costs" -- \
    "$lbbench" $cmd "$tmp/sim_kernel.yaml"
done
printf '%s\n' "name: async_trace" "workload: { kind: trace, file: tests/data/trace.csv }" \
  "platform: { processors: 2 }" "execution: { steps: 2 }" "balancers:" "  - { dynamic: predictive }" \
  > "$tmp/async_trace.yaml"
for cmd in validate "run -o $tmp/async_trace"; do
  expect 2 "async_trace.yaml:6:5: trace: an asynchronous run needs workloads that declare their module dependencies" -- \
    "$lbbench" $cmd "$tmp/async_trace.yaml"
done
[ ! -e "$tmp/sim_kernel" ] && [ ! -e "$tmp/async_trace" ] ||
  { echo "FAIL: a refused config created its result set"; fails=$((fails + 1)); }
echo "not an archive" > "$tmp/notes.h5"
expect 2 "notes.h5: not a directory" -- "$lbbench" run configs/smoke.yaml -o "$tmp/notes.h5"
expect 2 "notes.h5: not a part lbbench wrote" -- "$lbbench" show "$tmp/notes.h5"
expect 2 "no such result set" -- "$lbbench" show "$tmp/missing"
expect 2 "" -- "$lbbench" run
expect 2 "" -- "$lbbench" frobnicate
[ "$(cat "$tmp/notes.h5")" = "not an archive" ] || { echo "FAIL: notes.h5 was touched"; fails=$((fails + 1)); }
[ "$(cd "$tmp/a" && ls -a && sha256sum -- *)" = "$sum" ] || { echo "FAIL: the result set was modified"; fails=$((fails + 1)); }
for sub in run validate list show; do
  "$lbbench" "$sub" --help > /dev/null || { echo "FAIL: $sub --help"; fails=$((fails + 1)); }
done
echo "bad_input: $fails failures"
[ "$fails" -eq 0 ]
