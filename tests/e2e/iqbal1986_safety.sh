#!/usr/bin/env bash
# End to end: Iqbal, Saltz & Bokhari 1986's Figs. 6-7 as a user runs them, shortened to 10 trials
# of 60 steps: `lbbench expect` judges each curve's claim (non-increasing over the sampled safety
# factors) paired by trial, and counts all 12 (none is an open choice any more).
set -euo pipefail
lbbench=$1
. "$(dirname "$0")/lib/scratch.sh"
config=configs/papers/iqbal1986_safety.yaml
"$lbbench" run "$config" --set execution.steps=60 --set "workload.seed=[1,2,3,4,5,6,7,8,9,10]" \
  -o "$tmp/sf" > "$tmp/run.txt"
"$lbbench" expect "$config" "$tmp/sf" > "$tmp/out.txt"
check() { grep -qE "$1" "$2" || { echo "missing: $1"; cat "$2"; exit 1; }; }
check '^Fig. 6 block utilization +utilization .*\(50\) .* non-increasing over safety_factor 0.5-8 [a-z]+ \(paired, 10 trials\)' "$tmp/out.txt"
check '^Fig. 7 binary_dissection modules moved per step .* non-increasing over safety_factor 0.5-8 ' "$tmp/out.txt"
# Every row counted: 12 verdicts among holds, tied and differ, no open choice.
line=$(grep '^verdicts: ' "$tmp/out.txt")
read -r holds tied differs < <(echo "$line" | sed -E 's/.* ([0-9]+) holds, ([0-9]+) tied, ([0-9]+) differ.*/\1 \2 \3/')
[ $((holds + tied + differs)) -eq 12 ] || { echo "not 12 counted: $line"; exit 1; }
check 'not counted: 0 context, 0 open choices$' "$tmp/out.txt"
echo "iqbal1986_safety: OK"
