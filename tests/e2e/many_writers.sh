#!/usr/bin/env bash
# Four processes write one result set at once (run --slice i/4, as Slurm array tasks or nodes
# on a shared file system would), with no lock and no merge: the set then holds every run of
# the sweep exactly once, keeps the schema, and leaves no temporary file behind.
set -euo pipefail
lbbench=$1
. "$(dirname "$0")/lib/scratch.sh"
pids=()
for i in 0 1 2 3; do
  LBB_RESULTS_PART_SECONDS=0 "$lbbench" run configs/smoke.yaml --repetitions 8 --slice "$i/4" \
    -o "$tmp/set" > /dev/null 2> "$tmp/err-$i.txt" &
  pids+=($!)
done
for p in "${pids[@]}"; do wait "$p" || { cat "$tmp"/err-*.txt; exit 1; }; done
"$lbbench" table "$tmp/set" --format csv 2> "$tmp/header.txt" > "$tmp/table.csv"
grep -qE ": 24 runs of 4 invocations read from [0-9]+ parts$" "$tmp/header.txt" ||
  { cat "$tmp/header.txt"; exit 1; }
[ "$(tail -n +2 "$tmp/table.csv" | cut -d, -f2,5 | sort | tr '\n' ' ')" = "block,8 cyclic,8 none,8 " ] ||
  { cat "$tmp/table.csv"; exit 1; }
/usr/bin/python3 tests/e2e/check_results.py "$lbbench" "$tmp/set" 24
[ -z "$(find "$tmp/set" -name '.*')" ] || { ls -la "$tmp/set"; exit 1; }
/usr/bin/python3 - "$tmp/set" <<'PY'
import sys
sys.path.insert(0, "tests/e2e")
from result_runs import runs_of
runs = runs_of(sys.argv[1])
keys = list(zip(runs.balancer, runs.repetition))
assert len(keys) == len(set(keys)) == 24, keys
PY
echo "many_writers: OK"
