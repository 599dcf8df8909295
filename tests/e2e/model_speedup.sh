#!/usr/bin/env bash
# End to end: a `matrix_model_error` row (Franklin & Govindan 1995's model beside the measured
# speedups, as configs/papers/franklin1995.yaml has it). `lbbench run` and `lbbench expect` print
# the model's speedup beside each measured one, per balancer and processor count, with the ideal
# bound, and judge the largest error against the row's bound; without a 1-processor no-balance
# run there is nothing to calibrate from.
set -euo pipefail
lbbench=$1
. "$(dirname "$0")/lib/scratch.sh"
cat > "$tmp/m.yaml" <<'YAML'
name: model-e2e
workload: { kind: barnes_hut, particles: 256, dimensions: 2, decomposition: curve, curve_modules: 16, drift: 0.5, seed: 1 }
platform: { processors: [1, 2], topology: mesh2d }
execution: { steps: 3, warmup: 0, repetitions: 1 }
balancers:
  - { dynamic: none }
  - { dynamic: random, alpha: 0.5, threshold: 1.1, label: random }
expectations:
  - { row: model, metric: matrix_model_error, paper: 100, bound: upper }
YAML
"$lbbench" run "$tmp/m.yaml" -o "$tmp/m.h5" > "$tmp/run.txt" 2> "$tmp/err.txt" ||
  { cat "$tmp/run.txt" "$tmp/err.txt"; exit 1; }
"$lbbench" expect "$tmp/m.yaml" "$tmp/m.h5" > "$tmp/expect.txt"
for out in "$tmp/run.txt" "$tmp/expect.txt"; do
  grep -q '^Matrix iterative model (Franklin & Govindan 1995, eq. 17)' "$out" || { cat "$out"; exit 1; }
  for row in 'none +1 +1 +1 ' 'none +2 ' 'ideal +2 ' 'random +1 ' 'random +2 '; do
    grep -qE "^$row" "$out" || { echo "no row $row"; cat "$out"; exit 1; }
  done
  grep -qE '^6 of 6 within ' "$out" || { cat "$out"; exit 1; }
  grep -qE '^model +matrix_model_error .*\(6\) +100 +bound  exact \(within the paper.s upper bound\)' "$out" ||
    { cat "$out"; exit 1; }
done
# Only the 2-processor runs: no calibration, so the row has no runs.
sed 's/processors: \[1, 2\]/processors: 2/' "$tmp/m.yaml" > "$tmp/two.yaml"
"$lbbench" run "$tmp/two.yaml" -o "$tmp/two.h5" > "$tmp/two.txt" 2>&1
grep -qE '^model +matrix_model_error .* no runs' "$tmp/two.txt" || { cat "$tmp/two.txt"; exit 1; }
echo ok
