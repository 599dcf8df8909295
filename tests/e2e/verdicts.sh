#!/usr/bin/env bash
# End to end: the verdict commands. --format json rows carry their keys, --only / --exclude
# select what they say, `table` reprints the latest invocation (all with --all), identical
# samples are never starred apart, and `compare` finds no difference between an archive and its
# copy but finds a 1.2x scaling; runs without a match are listed.
set -euo pipefail
lbbench=$1
. "$(dirname "$0")/lib/scratch.sh"
py=/usr/bin/python3

"$lbbench" --version > "$tmp/version.txt"
grep -qE '^lbbench [0-9]+\.[0-9]+\.[0-9]+ \(git ([0-9a-f]+|unknown), (clean|dirty)\)$' "$tmp/version.txt" ||
  { cat "$tmp/version.txt"; exit 1; }

"$lbbench" run configs/smoke.yaml --repetitions 6 -o "$tmp/a.h5" --format json > "$tmp/a.json"
$py - "$tmp/a.json" <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))
assert [r["label"] for r in rows] == ["none", "block", "cyclic"], rows
for r in rows:
    for k in ["workload", "label", "processors", "sweep", "n", "best", "tied_with_best"]:
        assert k in r, (k, r)
    for clock in ["makespan", "wall"]:
        for k in ["median", "ci_low", "ci_high", "min", "max", "cv"]:
            assert k in r[clock], (clock, k, r)
        assert r[clock]["ci_low"] <= r[clock]["median"] <= r[clock]["ci_high"], r
    assert r["n"] == 6 and r["baseline"] == "none", r
PY

# --only / --exclude on balancer labels and workload kinds, in run and in table.
"$lbbench" run configs/smoke.yaml --only 'cyc' -o "$tmp/only.h5" --format csv > "$tmp/only.csv"
[ "$(tail -n +2 "$tmp/only.csv" | cut -d, -f2 | tr '\n' ' ')" = "cyclic " ] || { cat "$tmp/only.csv"; exit 1; }
"$lbbench" table "$tmp/a.h5" --exclude '^(none|block)$' --format csv > "$tmp/ex.csv"
[ "$(tail -n +2 "$tmp/ex.csv" | cut -d, -f2 | tr '\n' ' ')" = "cyclic " ] || { cat "$tmp/ex.csv"; exit 1; }
"$lbbench" table "$tmp/a.h5" --only 'block_substitution' --format csv > "$tmp/kind.csv"
[ "$(tail -n +2 "$tmp/kind.csv" | wc -l)" -eq 3 ]
"$lbbench" table "$tmp/a.h5" --only 'no_such' > /dev/null 2>&1 && exit 1
set +e
"$lbbench" table "$tmp/a.h5" --only '(' > /dev/null 2> "$tmp/err.txt"
code=$?
set -e
[ "$code" -eq 2 ] && grep -q "not a regular expression" "$tmp/err.txt" || { cat "$tmp/err.txt"; exit 1; }

# A subset appended to the archive: table shows that invocation alone unless --all.
cp "$tmp/a.h5" "$tmp/mixed.h5"
"$lbbench" run configs/smoke.yaml --only cyclic --repetitions 2 -o "$tmp/mixed.h5" > /dev/null 2>&1
"$lbbench" table "$tmp/mixed.h5" --format csv | cut -d, -f2,5 > "$tmp/latest.csv"
[ "$(tail -n +2 "$tmp/latest.csv" | tr '\n' ' ')" = "cyclic,2 " ] || { cat "$tmp/latest.csv"; exit 1; }
"$lbbench" table "$tmp/mixed.h5" --all --format csv | cut -d, -f2,5 > "$tmp/all.csv"
[ "$(tail -n +2 "$tmp/all.csv" | tr '\n' ' ')" = "none,6 block,6 cyclic,8 " ] || { cat "$tmp/all.csv"; exit 1; }
"$lbbench" table "$tmp/mixed.h5" > "$tmp/table.txt"
grep -q "warning: fewer than 5 repetitions" "$tmp/table.txt"

# Rewrites each run's two clocks: scale x (1 + spread * u), u uniform in [-1, 1], seeded;
# `twins` gives block the same samples as none (one strategy under two labels). Either layout
# (a run table's attr_numbers records or run groups' attributes), through tests/e2e/archive_edit.py.
$py - "$tmp" <<'PY'
import shutil, sys, h5py, numpy as np
sys.path.insert(0, "tests/e2e")
from archive_edit import set_attr
from archive_runs import runs_by_id
tmp = sys.argv[1]
def rewrite(dst, scale, seed):
    shutil.copy(f"{tmp}/a.h5", dst)
    rng = np.random.default_rng(seed)
    with h5py.File(dst, "r+") as f:
        for _, run in sorted(runs_by_id(f).items()):
            base = 1.0 if run.attrs["balancer"] != "cyclic" else 3.0
            for k in ["makespan_total", "wall_total"]:
                set_attr(run, k, base * scale * (1 + 0.03 * rng.uniform(-1, 1)))
def twins(dst):
    shutil.copy(f"{tmp}/a.h5", dst)
    with h5py.File(dst, "r+") as f:
        runs = [run for _, run in sorted(runs_by_id(f).items())]
        none = [r for r in runs if r.attrs["balancer"] == "none"]
        block = [r for r in runs if r.attrs["balancer"] == "block"]
        assert len(none) == len(block) == 6, (len(none), len(block))
        for n, b in zip(none, reversed(block)):
            for k in ["makespan_total", "wall_total"]:
                set_attr(b, k, n.attrs[k])
rewrite(f"{tmp}/s1.h5", 1.0, 1)
rewrite(f"{tmp}/s12.h5", 1.2, 2)
twins(f"{tmp}/twins.h5")
PY
"$lbbench" table "$tmp/twins.h5" --format json > "$tmp/twins.json"
$py - "$tmp/twins.json" <<'PY'
import json, sys
rows = {r["label"]: r for r in json.load(open(sys.argv[1]))}
for a, b in [("none", "block"), ("block", "none")]:
    assert not rows[a]["starred"], rows[a]
    if rows[a]["best"]:
        assert rows[b]["tied_with_best"] and rows[b]["p_vs_best"] == 1.0, rows[b]
PY

"$lbbench" compare "$tmp/a.h5" "$tmp/a.h5" --format json > "$tmp/same.json"
"$lbbench" compare "$tmp/s1.h5" "$tmp/s12.h5" --format json > "$tmp/scaled.json"
"$lbbench" compare "$tmp/a.h5" "$tmp/only.h5" > "$tmp/unmatched.txt"
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
