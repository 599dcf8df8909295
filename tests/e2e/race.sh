#!/usr/bin/env bash
# End to end: a race (execution.repetitions: auto). Strategies far apart are decided at the
# first look and the race stops there; a budget stops it before a round that would pass it, and
# says so; run --resume goes on judging the set's earlier runs with the new ones (never a run
# twice); --slice gives each node whole groups, so every group's rounds are one invocation's;
# progress lines say what is undecided.
set -euo pipefail
lbbench=$1
. "$(dirname "$0")/lib/scratch.sh"
py=/usr/bin/python3
fail() { echo "race: $1"; cat "${@:2}"; exit 1; }

# Two workloads, one group each: no balance against the longest-processing-time partition on
# block heights of spread 2 (lpt about half of none's makespan), P = 4.
cat > "$tmp/far.yaml" <<'YAML'
name: far
workload:
  - { kind: block_substitution, blocks: 32, width: 16, mean_lines: 6, sd: 2.0, seed: 3 }
  - { kind: trfd, n: 12, seed: 1 }
platform: { processors: 4 }
execution: { steps: 4, repetitions: auto }
balancers:
  - { dynamic: none }
  - { static: lpt }
YAML
"$lbbench" run "$tmp/far.yaml" -o "$tmp/far" --format json > "$tmp/far.json" 2> "$tmp/far.err"
grep -q '^race: after round 4, ' "$tmp/far.err" || fail "no progress line at the first look" "$tmp/far.err"
$py - "$tmp/far.json" <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))
assert len(rows) == 4, rows
for r in rows:
    assert r["compared"] == "paired", r
    assert r["verdict"] in ("winner", "slower", "equivalent", "undecided"), r
# A group decided at an early look stops there: its rows ran fewer than 20 rounds.
winners = [r for r in rows if r["verdict"] == "winner"]
assert winners and any(r["n"] < 20 for r in winners), rows
PY

# A budget of 10 runs: the first round has 4, the second 4, the third would pass it.
"$lbbench" run "$tmp/far.yaml" --set execution.budget=10 -o "$tmp/budget" -q > /dev/null \
  2> "$tmp/budget.err"
grep -q '^race: stopped before round 3: its budget of 10 runs' "$tmp/budget.err" ||
  fail "the budget did not stop the race" "$tmp/budget.err"
[ "$($py tests/e2e/result_runs.py ids "$tmp/budget" | wc -l)" -eq 8 ] || fail "not 8 runs" "$tmp/budget.err"

# --resume without the budget: the race goes on from the set's 8 runs, never running one twice.
"$lbbench" run "$tmp/far.yaml" -o "$tmp/budget" --resume -q --format json > "$tmp/resumed.json" \
  2> "$tmp/resumed.err"
$py - "$tmp/budget" "$tmp/resumed.json" <<'PY'
import json, sys
sys.path.insert(0, "tests/e2e")
from result_runs import runs_of
runs = runs_of(sys.argv[1])
keys = list(zip(runs.config_yaml, runs.repetition))
assert len(keys) == len(set(keys)), "a run twice"
assert len(runs) > 8 and runs.invocation.nunique() == 2, (len(runs), runs.invocation.nunique())
rows = json.load(open(sys.argv[2]))
assert all(r["n"] >= 2 for r in rows), rows
PY

# Two slices into one set: each group wholly in one slice, so paired within one invocation.
for i in 0 1; do
  "$lbbench" run "$tmp/far.yaml" --slice "$i/2" -o "$tmp/sliced" -q > /dev/null 2>&1
done
$py - "$tmp/sliced" <<'PY'
import sys
sys.path.insert(0, "tests/e2e")
from result_runs import runs_of
runs = runs_of(sys.argv[1])
per_group = runs.groupby("workload").invocation.nunique()
assert (per_group == 1).all() and runs.invocation.nunique() == 2, per_group
PY
"$lbbench" table "$tmp/sliced" --format json > "$tmp/sliced.json" 2> /dev/null
$py -c "
import json, sys
rows = json.load(open('$tmp/sliced.json'))
assert all(r['compared'] == 'paired' for r in rows), rows"
echo "race: OK"
