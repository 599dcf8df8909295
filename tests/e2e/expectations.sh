#!/usr/bin/env bash
# End to end: a small config with `expectations:` (the paper-config machinery). `lbbench run`
# prints each row beside its measured value and its tolerance; a row the runs must contradict
# (efficiency 5, above the bound of 1) differs and the summary names its cause, one inside a wide
# stated tolerance is exact, a not-built row says so, a context row is not counted, and a
# speedup relative to another entry is a ratio of medians. `lbbench expect` prints the same from
# the archive; a `dynamic: auto` entry runs a scheme it chose and records its predictions; a
# malformed row is refused with file:line:col, exit 2.
set -euo pipefail
lbbench=$1
. "$(dirname "$0")/lib/scratch.sh"
cat > "$tmp/e.yaml" <<'YAML'
name: expect-e2e
workload: { kind: block_substitution, blocks: 16, width: 16, mean_lines: 4, sd: 1.0, seed: 3 }
platform: { processors: 4, topology: chain }
execution: { steps: 6, warmup: 1, repetitions: 2 }
balancers:
  - { dynamic: none }
  - { static: optimal_chain }
  - { dynamic: auto, candidates: "gcdlb,lcdlb,none", group_size: 2 }
  - { dynamic: gcdlb }
  - { dynamic: lcdlb, group_size: 2 }
expectations:
  - { row: impossible, where: { balancer: none }, metric: efficiency, paper: 5.0, cause: "setting: efficiency is at most 1" }
  - { row: wide, where: { balancer: optimal_chain }, metric: efficiency, paper: 0.5, tolerance: 1.0, tolerance_source: "wide on purpose" }
  - { row: bound, where: { balancer: none }, metric: efficiency, paper: 1.0, context: "efficiency is at most 1" }
  - { row: L4, not_built: "no code of Kopidakis et al. 1997" }
  - row: ratio
    where: { balancer: none }
    relative_to: { balancer: none }
    metric: makespan_total
    paper: 1.0
    tolerance: 0.000001
    tolerance_source: "a run's median over itself is 1"
  - { row: never, where: { balancer: none }, metric: efficiency, paper: 1.5, bound: lower }
YAML
# --wide: each row with its run attributes (auto records its predictions there).
"$lbbench" run "$tmp/e.yaml" -o "$tmp/e" --wide > "$tmp/run.txt" 2> "$tmp/err.txt" ||
  { cat "$tmp/run.txt" "$tmp/err.txt"; exit 1; }
"$lbbench" expect "$tmp/e.yaml" "$tmp/e" > "$tmp/expect.txt"
for out in "$tmp/run.txt" "$tmp/expect.txt"; do
  grep -qE '^impossible +efficiency .* 5 +\+-0\.05  differs by -' "$out" || { cat "$out"; exit 1; }
  grep -qE '^wide +efficiency .* 0\.5 +\+-1\*  exact' "$out" || { cat "$out"; exit 1; }
  grep -qE '^bound +efficiency .*  context: efficiency is at most 1' "$out" || { cat "$out"; exit 1; }
  grep -qE '^L4 .* not built: no code of Kopidakis' "$out" || { cat "$out"; exit 1; }
  grep -qE '^ratio +makespan_total +1 .* exact' "$out" || { cat "$out"; exit 1; }
  grep -qE '^never +efficiency .* differs: beyond the paper.s lower bound' "$out" ||
    { cat "$out"; exit 1; }
  grep -q 'verdicts: 2 exact, 0 holds, 0 tied, 2 differ, 0 without runs, 1 not built; not counted: 1 context, 0 open choices' "$out" ||
    { cat "$out"; exit 1; }
  grep -q '^  differs, setting: efficiency is at most 1: impossible$' "$out" || { cat "$out"; exit 1; }
  grep -q '^  differs, no cause stated: never$' "$out" || { cat "$out"; exit 1; }
  # auto ran one of its candidates, twice (two repetitions): one case, compared with its candidates
  grep -qE 'auto per case: [01] hits, [01] ties, [01] misses of 1 ' "$out" || { cat "$out"; exit 1; }
done
grep -q 'auto_predicted_gcdlb=' "$tmp/run.txt"
grep -q 'auto_predicted_none=' "$tmp/run.txt"
/usr/bin/python3 tests/e2e/check_results.py "$lbbench" "$tmp/e" 10 > /dev/null
# A malformed row: where it is, exit 2, nothing run.
sed 's/tolerance: 1.0/tolerence: 1.0/' "$tmp/e.yaml" > "$tmp/bad.yaml"
set +e
"$lbbench" run "$tmp/bad.yaml" -o "$tmp/bad" > /dev/null 2> "$tmp/bad.txt"
rc=$?
set -e
[ "$rc" -eq 2 ] || { echo "exit $rc"; cat "$tmp/bad.txt"; exit 1; }
grep -qE "bad.yaml:[0-9]+:[0-9]+: unknown expectation key 'tolerence'" "$tmp/bad.txt"
[ ! -e "$tmp/bad" ]
sed 's/candidates: "gcdlb,lcdlb,none"/candidates: "gcdlb,orb"/' "$tmp/e.yaml" > "$tmp/bad2.yaml"
set +e
"$lbbench" validate "$tmp/bad2.yaml" > /dev/null 2> "$tmp/bad2.txt"
rc=$?
set -e
[ "$rc" -eq 2 ] && grep -q "unknown scheme 'orb'" "$tmp/bad2.txt" || { cat "$tmp/bad2.txt"; exit 1; }
echo ok
