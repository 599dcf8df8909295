#!/usr/bin/env bash
# End to end: Franklin & Govindan 1995's Table 5 in the paper's setting as a user runs it, shortened
# to 10 iterations and 2 repetitions: configs/papers/franklin1995_network_record.yaml records module
# costs on real threads, configs/papers/franklin1995_network.yaml replays them on simulated
# workstations of unequal speed with network charges, and `lbbench expect` finds runs for every
# row; a speed pool shorter than a run's processors is refused, exit 2.
set -euo pipefail
lbbench=$1
. "$(dirname "$0")/lib/scratch.sh"
"$lbbench" run configs/papers/franklin1995_network_record.yaml --set execution.steps=10 \
  -o "$tmp/rec" > "$tmp/rec.txt"
config=configs/papers/franklin1995_network.yaml
"$lbbench" run "$config" --set execution.steps=10 --set execution.repetitions=2 \
  --set "execution.replay_archive=$tmp/rec" -o "$tmp/net" > "$tmp/run.txt"
"$lbbench" expect "$config" "$tmp/net" > "$tmp/out.txt"
check() { grep -qE "$1" "$2" || { echo "missing: $1"; cat "$2"; exit 1; }; }
check '^T5 n=16 redistribution +makespan_total +[0-9.]+ .*\(2\) +2.75 ' "$tmp/out.txt"
check '^T5 n=2 ideal +ideal_total .*context: ideal balance' "$tmp/out.txt"
check ', 0 without runs, 0 not built; not counted: 4 context, 0 open choices$' "$tmp/out.txt"
runs=(/usr/bin/python3 tests/e2e/result_runs.py)
mapfile -t ids < <("${runs[@]}" ids "$tmp/net")
[ "$("${runs[@]}" attr "$tmp/net" "${ids[0]}" executor)" = simulate ] || { echo "not simulated"; exit 1; }
set +e
. "$(dirname "$0")/lib/expect.sh"
sed 's/0.5, 0.5, 0.5, 0.5\]/0.5]/' "$config" > "$tmp/short.yaml"
expect 2 "short.yaml:[0-9]+:[0-9]+: speed_pool has 13 values for 16 processors" -- \
  "$lbbench" run "$tmp/short.yaml" -o "$tmp/no"
[ ! -e "$tmp/no" ] || { echo "a refused run wrote an archive"; fails=$((fails + 1)); }
echo "franklin1995_network: $fails failures"
[ "$fails" -eq 0 ]
