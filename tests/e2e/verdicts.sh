#!/usr/bin/env bash
# End to end: the verdict commands. --format json rows carry their keys, --only / --exclude
# select what they say, `table` reprints every run (one invocation with --invocation), identical
# samples are never called apart, and `compare` finds no difference between a set and its
# copy but finds a 1.2x scaling; runs without a match are listed.
set -euo pipefail
lbbench=$1
. "$(dirname "$0")/lib/scratch.sh"
py=/usr/bin/python3

"$lbbench" --version > "$tmp/version.txt"
grep -qE '^lbbench [0-9]+\.[0-9]+\.[0-9]+ \(git ([0-9a-f]+|unknown), (clean|dirty)\)$' "$tmp/version.txt" ||
  { cat "$tmp/version.txt"; exit 1; }

"$lbbench" run configs/smoke.yaml --repetitions 6 -o "$tmp/a" --format json > "$tmp/a.json"
$py - "$tmp/a.json" <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))
assert [r["label"] for r in rows] == ["none", "block", "cyclic"], rows
for r in rows:
    for k in ["workload", "label", "processors", "sweep", "n", "best", "verdict", "compared",
              "delta", "ratio_to_best"]:
        assert k in r, (k, r)
    for clock in ["makespan", "wall"]:
        for k in ["median", "ci_low", "ci_high", "min", "max", "cv"]:
            assert k in r[clock], (clock, k, r)
        assert r[clock]["ci_low"] <= r[clock]["median"] <= r[clock]["ci_high"], r
    assert r["n"] == 6 and r["baseline"] == "none", r
    assert r["compared"] == "paired" and r["delta"] == 0.05, r  # one invocation: rounds pair
PY

# --only / --exclude on balancer labels and workload kinds, in run and in table.
"$lbbench" run configs/smoke.yaml --only 'cyc' -o "$tmp/only" --format csv > "$tmp/only.csv"
[ "$(tail -n +2 "$tmp/only.csv" | cut -d, -f2 | tr '\n' ' ')" = "cyclic " ] || { cat "$tmp/only.csv"; exit 1; }
"$lbbench" table "$tmp/a" --exclude '^(none|block)$' --format csv > "$tmp/ex.csv"
[ "$(tail -n +2 "$tmp/ex.csv" | cut -d, -f2 | tr '\n' ' ')" = "cyclic " ] || { cat "$tmp/ex.csv"; exit 1; }
"$lbbench" table "$tmp/a" --only 'block_substitution' --format csv > "$tmp/kind.csv"
[ "$(tail -n +2 "$tmp/kind.csv" | wc -l)" -eq 3 ]
"$lbbench" table "$tmp/a" --only 'no_such' > /dev/null 2>&1 && exit 1
set +e
"$lbbench" table "$tmp/a" --only '(' > /dev/null 2> "$tmp/err.txt"
code=$?
set -e
[ "$code" -eq 2 ] && grep -q "not a regular expression" "$tmp/err.txt" || { cat "$tmp/err.txt"; exit 1; }

# A subset added to the set: table reads every run (the header says so), --invocation latest
# that invocation alone.
cp -r "$tmp/a" "$tmp/mixed"
"$lbbench" run configs/smoke.yaml --only cyclic --repetitions 2 -o "$tmp/mixed" > /dev/null 2>&1
"$lbbench" table "$tmp/mixed" --invocation latest --format csv 2> "$tmp/header.txt" |
  cut -d, -f2,5 > "$tmp/latest.csv"
[ "$(tail -n +2 "$tmp/latest.csv" | tr '\n' ' ')" = "cyclic,2 " ] || { cat "$tmp/latest.csv"; exit 1; }
grep -q ": 2 runs of 1 invocations read from 2 parts$" "$tmp/header.txt" || { cat "$tmp/header.txt"; exit 1; }
"$lbbench" table "$tmp/mixed" --format csv 2> "$tmp/header.txt" | cut -d, -f2,5 > "$tmp/all.csv"
[ "$(tail -n +2 "$tmp/all.csv" | tr '\n' ' ')" = "none,6 block,6 cyclic,8 " ] || { cat "$tmp/all.csv"; exit 1; }
grep -q ": 20 runs of 2 invocations read from 2 parts$" "$tmp/header.txt" || { cat "$tmp/header.txt"; exit 1; }
first=$(/usr/bin/python3 tests/e2e/result_runs.py attr "$tmp/a" '#0' invocation)
"$lbbench" table "$tmp/mixed" --invocation "$first" --format csv 2> /dev/null | cut -d, -f2,5 > "$tmp/first.csv"
[ "$(tail -n +2 "$tmp/first.csv" | tr '\n' ' ')" = "none,6 block,6 cyclic,6 " ] || { cat "$tmp/first.csv"; exit 1; }
"$lbbench" table "$tmp/mixed" --invocation latest > "$tmp/table.txt" 2> /dev/null
grep -q "warning: fewer than 5 repetitions" "$tmp/table.txt"

# Rewrites each run's two clocks in the set's one part: scale x (1 + spread * u), u uniform in
# [-1, 1], seeded; `twins` gives block the same samples as none (one strategy under two labels).
$py - "$tmp" <<'PY'
import glob, shutil, sys, h5py, numpy as np
sys.path.insert(0, "report")
from lbbench_report.results import seal
tmp = sys.argv[1]
def edit(dst, change):
    shutil.copytree(f"{tmp}/a", dst)
    (part,) = glob.glob(f"{dst}/*.h5")
    with h5py.File(part, "r+") as f:
        runs = f["runs"]
        balancer = runs["balancer"].asstr()[:]
        for k in ["makespan_total", "wall_total"]:
            values = runs[k][:]
            change(balancer, values)
            runs[k][...] = values
    seal(part)  # an edited part's seal is renewed, or lbbench refuses it as damaged
def scaled(scale, seed):
    rng = np.random.default_rng(seed)
    def change(balancer, values):
        for i, b in enumerate(balancer):
            values[i] = (3.0 if b == "cyclic" else 1.0) * scale * (1 + 0.03 * rng.uniform(-1, 1))
    return change
def twins(balancer, values):
    none, block = np.flatnonzero(balancer == "none"), np.flatnonzero(balancer == "block")
    assert len(none) == len(block) == 6, (len(none), len(block))
    values[block] = values[none][::-1]
edit(f"{tmp}/s1", scaled(1.0, 1))
edit(f"{tmp}/s12", scaled(1.2, 2))
edit(f"{tmp}/twins", twins)
PY
"$lbbench" table "$tmp/twins" --format json > "$tmp/twins.json"
$py - "$tmp/twins.json" <<'PY'
import json, sys
rows = {r["label"]: r for r in json.load(open(sys.argv[1]))}
# Never apart: the twin of the best is not slower, and the best is a winner only beside a twin
# shown equivalent (a tie, docs/results.md "Verdicts"; on a quiet host the rounds show it).
for a, b in [("none", "block"), ("block", "none")]:
    if rows[a]["best"]:
        assert rows[b]["verdict"] != "slower" and rows[b]["p_vs_best"] > 0.99, rows[b]
        assert rows[a]["verdict"] != "winner" or rows[b]["verdict"] == "equivalent", (rows[a],
                                                                                    rows[b])
PY

"$lbbench" compare "$tmp/a" "$tmp/a" --format json > "$tmp/same.json"
"$lbbench" compare "$tmp/s1" "$tmp/s12" --format json > "$tmp/scaled.json"
"$lbbench" compare "$tmp/a" "$tmp/only" > "$tmp/unmatched.txt"
$py - "$tmp/same.json" "$tmp/scaled.json" <<'PY'
import json, sys
same, scaled = (json.load(open(p)) for p in sys.argv[1:3])
assert len(same) == 3 and len(scaled) == 3
for r in same:
    assert r["status"] == "matched", r
    for c in ["makespan", "wall"]:
        assert not r[c]["significant"] and r[c]["ratio"] == 1.0, r
for r in scaled:
    for c in ["makespan", "wall"]:
        x = r[c]
        assert x["significant"] and x["ratio_ci_low"] > 1.0 and abs(x["ratio"] - 1.2) < 0.1, r
PY
[ "$(grep -c '^only in A: block_substitution P=4 \(none\|block\) (6 runs)$' "$tmp/unmatched.txt")" -eq 2 ] ||
  { cat "$tmp/unmatched.txt"; exit 1; }
grep -qE '^block_substitution +4  cyclic ' "$tmp/unmatched.txt"
echo "verdicts: OK"
