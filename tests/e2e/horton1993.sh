#!/usr/bin/env bash
# End to end: configs/papers/horton1993.yaml (Horton 1993, Tables 2-5) as a user runs it. Every row
# holds but Table 2's T2 column, whose phases 3 and 4 swap amounts against the paper's own Table 4
# (the summary gives that cause);
# a Table 4 entry changed in a copy makes that row differ; bad cases are refused, exit 2.
set -euo pipefail
lbbench=$1
. "$(dirname "$0")/lib/scratch.sh"
config=configs/papers/horton1993.yaml
"$lbbench" expect "$config" > "$tmp/out.txt"
check() { grep -qE "$1" "$2" || { echo "missing: $1"; cat "$2"; exit 1; }; }
check '^Table 4 L per phase +load_phases_as_paper +4 .* exact' "$tmp/out.txt"
check '^Table 3 L per phase +load_phases_as_paper +9 .* exact' "$tmp/out.txt"
check '^Table 2 T1 transfers +transfer_phases_as_paper +4 .* exact' "$tmp/out.txt"
check '^Table 5 P=128 diffusion iterations +phases +148 .* exact' "$tmp/out.txt"
check '^Table 5 P=128 multilevel iterations +phases +7 .* exact' "$tmp/out.txt"
check '^Table 2 T2 transfers .* differs by -2' "$tmp/out.txt"
check 'T2 multilevel leaves the paper.s transfers at phase 3: measured 14: 1->2, 10: 5->6' "$tmp/out.txt"
check '^verdicts: 27 exact, 0 holds, 0 tied, 1 differ, 0 without runs, 0 not built; not counted: 0 context, 0 open choices$' "$tmp/out.txt"
check '^  differs, paper: Table 2 swaps the amounts of phases 3 and 4 .*: Table 2 T2 transfers$' "$tmp/out.txt"
# Table 4's phase 3, p1 typed as -13: the row must differ from phase 3 on.
sed 's/\[16, -14, 14, -12/[16, -13, 14, -12/' "$config" > "$tmp/changed.yaml"
"$lbbench" expect "$tmp/changed.yaml" > "$tmp/changed.txt"
check '^Table 4 L per phase +load_phases_as_paper +2 .* differs by -2' "$tmp/changed.txt"
check 'T2 multilevel leaves the paper.s loads at phase 3: measured 16 -14 14 .*; paper 16 -13 14' "$tmp/changed.txt"
set +e
. "$(dirname "$0")/lib/expect.sh"
expect 2 "is not run: .lbbench expect $config. computes" -- "$lbbench" run "$config" -o "$tmp/no.h5"
[ ! -e "$tmp/no.h5" ] || { echo "run wrote an archive"; fails=$((fails + 1)); }
sed 's/point_load: 16$/point_lod: 16/' "$config" > "$tmp/key.yaml"
expect 2 "key.yaml:[0-9]+:[0-9]+: unknown balance case key 'point_lod'" -- "$lbbench" expect "$tmp/key.yaml"
sed 's/method: diffusion_horton, topology: chain, processors: 8,/method: orb, topology: chain, processors: 8,/' \
  "$config" > "$tmp/method.yaml"
expect 2 "case 'T5 P=8 diffusion'" -- "$lbbench" expect "$tmp/method.yaml"
sed 's/\[3, 5, 13\]/[3, 5]/' "$config" > "$tmp/transfer.yaml"
expect 2 "transfer.yaml:[0-9]+:[0-9]+: a transfer is \[units, from, to\]" -- "$lbbench" expect "$tmp/transfer.yaml"
echo "horton1993: $fails failures"
[ "$fails" -eq 0 ]
