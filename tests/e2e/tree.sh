#!/usr/bin/env bash
# End to end: a small UTS tree (small-t1: 3987 nodes, depth 5, 3232 leaves) under every tree
# strategy through `lbbench run`: every row verified and showing the published counts, the
# level records and the counts archived, and a malformed tree refused with exit 2.
set -euo pipefail
lbbench=$1
. "$(dirname "$0")/lib/scratch.sh"
cat > "$tmp/tree.yaml" <<'YAML'
name: tree-e2e
workload: { kind: tree_search, t: 1, a: 3, d: 5, b: 4, r: 19, batch: 8 }
platform: { processors: [2, 4], topology: mesh2d }
balancers:
  - { dynamic: none }
  - { dynamic: tree_mesh }
  - { dynamic: list_scheduling }
  - { dynamic: decreasing_fit }
  - { schedule: omp_dynamic, chunk: 2 }
  - { schedule: omp_tasks }
YAML
"$lbbench" run "$tmp/tree.yaml" -o "$tmp/tree" --wide > "$tmp/out.txt" 2> "$tmp/err.txt"
rows=$(grep -c '^tree_search .* yes  nodes=3987  depth=5  leaves=3232  levels=6  LB_model=' \
  "$tmp/out.txt" || true)
[ "$rows" -eq 12 ] || { cat "$tmp/out.txt" "$tmp/err.txt"; exit 1; }
h5dump -H "$tmp"/tree/*.h5 > /dev/null  # plain HDF5
runs() { /usr/bin/python3 tests/e2e/result_runs.py "$1" "$tmp/tree" "${@:2}"; }
[ "$(runs holding steps.metric_t_model)" -eq 12 ]
[ "$(runs attr '#1' leaves)" = 3232.0 ]
[ "$(runs attr '#1' executor)" = level ]
sed -i 's/t: 1, a: 3/t: 0, q: 0.5, m: 2, a: 3/' "$tmp/tree.yaml"
code=0
"$lbbench" run "$tmp/tree.yaml" -o "$tmp/bad" > /dev/null 2> "$tmp/err.txt" || code=$?
[ "$code" -eq 2 ] && grep -q "q \* m < 1" "$tmp/err.txt" || { cat "$tmp/err.txt"; exit 1; }
echo "tree: OK"
