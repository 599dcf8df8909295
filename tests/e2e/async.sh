#!/usr/bin/env bash
# End to end: the asynchronous executor through `lbbench run` (execution.executor: async and
# async_modelled) with the predictive balancer from each start: every run verified, the archive
# names the executor and holds utilization and modules moved per step (per run and per step);
# `simulate --replay` refuses the archive (no bsp run), exit 2; a workload without module
# dependencies is refused with a message, exit 2.
set -euo pipefail
lbbench=$1
. "$(dirname "$0")/lib/scratch.sh"
cat > "$tmp/a.yaml" <<'YAML'
name: async-e2e
workload: { kind: block_substitution, blocks: 24, width: 16, mean_lines: 4, sd: 1.0, seed: 3 }
platform: { processors: 4, topology: chain }
execution: { steps: 12, executor: [async, async_modelled] }
balancers:
  - { static: optimal_chain }
  - { dynamic: none }
  - { static: block, dynamic: predictive, threshold: 2, safety_factor: 0.5 }
  - { static: binary_dissection, dynamic: predictive }
YAML
"$lbbench" run "$tmp/a.yaml" -o "$tmp/a" --wide > "$tmp/out.txt" 2> "$tmp/err.txt"
# A wide row's extra figures may continue on the next line (starting '^'): joined first.
rows=$(awk '/^ +\^ /{sub(/^ +\^/, ""); printf "%s", $0; next} {printf "\n%s", $0}' "$tmp/out.txt" |
  grep -cE '^block_substitution +4 .* yes  .*utilization=0\.[0-9]+ +modules_moved_per_step=' || true)
[ "$rows" -eq 8 ] || { cat "$tmp/out.txt" "$tmp/err.txt"; exit 1; }
runs() { /usr/bin/python3 tests/e2e/result_runs.py "$1" "$tmp/a" "${@:2}"; }
[ "$(runs attr '#0' executor)" = async ]
[ "$(runs attr '#4' executor)" = async_modelled ]
h5dump -H "$tmp"/a/*.h5 > /dev/null  # plain HDF5
[ "$(runs holding steps.metric_utilization)" -eq 8 ]
[ "$(runs holding steps.metric_modules_moved)" -eq 8 ]
# Asynchronous runs cannot be replayed: counted on one line per reason, and refused (exit 2).
code=0
"$lbbench" simulate --replay "$tmp/a" > "$tmp/replay.txt" 2> "$tmp/err.txt" || code=$?
[ "$code" -eq 2 ] && grep -q "no run could be replayed" "$tmp/err.txt" &&
  grep -qE '^skipped 4 runs \([^ ]+\.000000, \.\.\.\): executor async:' \
    "$tmp/replay.txt" && [ "$(grep -c '^skipped' "$tmp/replay.txt")" -eq 2 ] ||
  { echo "replay: code $code"; cat "$tmp/replay.txt" "$tmp/err.txt"; exit 1; }
sed -i 's/kind: block_substitution, blocks: 24, width: 16, mean_lines: 4, sd: 1.0/kind: matmul/' \
  "$tmp/a.yaml"
code=0
"$lbbench" run "$tmp/a.yaml" -o "$tmp/bad" > /dev/null 2> "$tmp/err.txt" || code=$?
[ "$code" -ne 0 ] && grep -q "declare their module dependencies" "$tmp/err.txt" ||
  { echo "code $code"; cat "$tmp/err.txt"; exit 1; }
echo "async: OK"
