#!/usr/bin/env bash
# End to end: the in-step schedules on a module workload through `lbbench run`: every row
# verified, omp_static never runs a module away from its state, the archive says which
# executor ran and who ran each module, and a bad chunk is refused with its position, exit 2.
set -euo pipefail
lbbench=$1
. "$(dirname "$0")/lib/scratch.sh"
cat > "$tmp/s.yaml" <<'YAML'
name: schedules-e2e
workload: { kind: block_substitution, blocks: 16, width: 16, mean_lines: 4, seed: 3 }
platform: { processors: 4, topology: chain }
execution: { steps: 6, warmup: 1, record: modules }
balancers:
  - { dynamic: none }
  - { schedule: omp_static }
  - { schedule: omp_dynamic, chunk: 2 }
  - { schedule: omp_guided }
  - { schedule: omp_tasks }
YAML
"$lbbench" run "$tmp/s.yaml" -o "$tmp/s" --wide > "$tmp/out.txt" 2> "$tmp/err.txt"
rows=$(grep -cE '^block_substitution +4 .* yes  remote_runs=[0-9]+$' "$tmp/out.txt" || true)
[ "$rows" -eq 4 ] || { cat "$tmp/out.txt" "$tmp/err.txt"; exit 1; }
grep -qE '[ *=?-]omp_static .* yes  remote_runs=0$' "$tmp/out.txt" || { cat "$tmp/out.txt"; exit 1; }
runs() { /usr/bin/python3 tests/e2e/result_runs.py "$1" "$tmp/s" "${@:2}"; }
[ "$(runs attr '#0' executor)" = bsp ]
[ "$(runs attr '#2' executor)" = omp_dynamic ]
[ "$(runs attr '#4' executor)" = omp_tasks ]
[ "$(runs attr '#4' schedule)" = omp_tasks ]
h5dump -H "$tmp"/s/*.h5 > /dev/null  # plain HDF5
[ "$(runs holding steps.metric_remote_runs)" -eq 4 ]
[ "$(runs holding modules)" -eq 5 ]
sed -i 's/chunk: 2/chunk: 0/' "$tmp/s.yaml"
code=0
"$lbbench" run "$tmp/s.yaml" -o "$tmp/bad" > /dev/null 2> "$tmp/err.txt" || code=$?
[ "$code" -eq 2 ] && grep -q "s.yaml:8:37: chunk must be >= 1, got 0" "$tmp/err.txt" ||
  { cat "$tmp/err.txt"; exit 1; }
[ ! -e "$tmp/bad" ]
echo "schedules: OK"
