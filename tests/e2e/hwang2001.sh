#!/usr/bin/env bash
# End to end: configs/papers/hwang2001.yaml (Hwang & Hong 2001, Tables 1 and 3) as a user runs
# it, shortened to 20 generations and three trees a row: every run is archived with executor
# simulate, and `lbbench expect` finds runs for every built row; a static partition or a kernel
# executor is refused, exit 2.
set -euo pipefail
lbbench=$1
. "$(dirname "$0")/lib/scratch.sh"
config=configs/papers/hwang2001.yaml
# three trees a row of the config's fifty: each workload entry's seeds set by its index
three=()
for i in 0 1 2 3 4; do three+=(--set "workload.$i.seed=[1,2,3]"); done
"$lbbench" run "$config" --set execution.steps=20 "${three[@]}" -o "$tmp/s" > "$tmp/run.txt"
"$lbbench" expect "$config" "$tmp/s" > "$tmp/out.txt"
check() { grep -qE "$1" "$2" || { echo "missing: $1"; cat "$2"; exit 1; }; }
check '^T1 C-COST=0.3 L1 +T_mean +[0-9.]+ +[0-9.]+-[0-9.]+ \(3\) +65.9 ' "$tmp/out.txt"
check '^T3 MIN-MAX=8-12 L3 T/LB \(75.6/51.5\) +T_over_LB +[0-9.]+ .*\(3\) +1.468 ' "$tmp/out.txt"
check ', 0 without runs, 0 not built; not counted: 11 context, 44 open choices$' "$tmp/out.txt"
check '^T1 C-COST=0.3 LB +LB_mean .*  context: a lower bound' "$tmp/out.txt"
runs=(/usr/bin/python3 tests/e2e/result_runs.py)
mapfile -t ids < <("${runs[@]}" ids "$tmp/s")
[ "$("${runs[@]}" attr "$tmp/s" "${ids[0]}" executor)" = simulate ] || { echo "not simulated"; exit 1; }
set +e
. "$(dirname "$0")/lib/expect.sh"
sed 's/  - { dynamic: tree_mesh }        # L1/  - { static: block, dynamic: tree_mesh }/' \
  "$config" > "$tmp/static.yaml"
expect 2 "static.yaml:[0-9]+:[0-9]+: task_tree creates its tasks level by level" -- \
  "$lbbench" run "$tmp/static.yaml" -o "$tmp/no"
sed 's/executor: simulate/executor: bsp/' "$config" > "$tmp/bsp.yaml"
expect 2 "bsp.yaml:[0-9]+:[0-9]+: executor bsp runs kernels" -- \
  "$lbbench" run "$tmp/bsp.yaml" -o "$tmp/no"
[ ! -e "$tmp/no" ] || { echo "a refused run wrote an archive"; fails=$((fails + 1)); }
echo "hwang2001: $fails failures"
[ "$fails" -eq 0 ]
