#!/usr/bin/env bash
# lbbench report: the smoke set's report has every figure its workload calls for, each embedded
# in index.html, and its header counts the runs and invocations read; a sweep over P and two
# balancer parameters adds the scaling and the parameter heat map; --invocation narrows a set of
# two invocations to one; bad input, and a selection lbbench table refuses, exit 2 and write
# nothing.
set -euo pipefail
lbbench=$1
. "$(dirname "$0")/lib/scratch.sh"
header() { grep -o 'Result set [^<]*parts\?\.' "$1/index.html"; }
"$lbbench" run configs/smoke.yaml -o "$tmp/smoke" > /dev/null
"$lbbench" report "$tmp/smoke" --out "$tmp/smoke_page" > "$tmp/out.txt"
grep -q "^report: $tmp/smoke_page/index.html$" "$tmp/out.txt"
/usr/bin/python3 tests/e2e/check_report.py "$tmp/smoke" "$tmp/smoke_page"
header "$tmp/smoke_page" | grep -q ": 3 runs of 1 invocation, read from "
# A second invocation into the same set: read by default, --invocation latest narrows to it.
"$lbbench" run configs/smoke.yaml -o "$tmp/smoke" > /dev/null
"$lbbench" report "$tmp/smoke" --out "$tmp/both_invocations" > /dev/null
header "$tmp/both_invocations" | grep -q ": 6 runs of 2 invocations, read from "
"$lbbench" report "$tmp/smoke" --invocation latest --out "$tmp/latest" > /dev/null
header "$tmp/latest" | grep -q ": 3 runs of 1 invocation, read from "
/usr/bin/python3 - "$tmp" <<'PY'
import json, sys
n = lambda page: sorted(r["n"] for r in json.load(open(f"{sys.argv[1]}/{page}/table.json")))
assert n("both_invocations") == [2, 2, 2] and n("latest") == [1, 1, 1], (n("both_invocations"), n("latest"))
PY
# A sweep over P and over random's alpha x threshold.
"$lbbench" run configs/smoke.yaml -o "$tmp/sweep" --set 'platform.processors=[2,4]' \
  --set 'execution.repetitions=2' --set 'balancers=[{dynamic: none}, {static: lpt},
  {dynamic: random, alpha: [0.5, 1.0], threshold: [1.0, 1.2]}]' > /dev/null
"$lbbench" report "$tmp/sweep" > /dev/null  # default folder: beside the set
/usr/bin/python3 tests/e2e/check_report.py "$tmp/sweep" "$tmp/sweep_report" "Parameter sweeps"
grep -q "alpha x threshold" "$tmp/sweep_report/figures.json"
# --only selects strategies as lbbench table does (with --highlight naming one of them).
"$lbbench" report "$tmp/sweep" --only 'none|lpt' --highlight lpt --out "$tmp/only" > /dev/null
/usr/bin/python3 - "$tmp/only" <<'PY'
import json, sys
labels = {r["label"] for r in json.load(open(sys.argv[1] + "/table.json"))}
assert labels == {"none", "lpt"}, labels
PY
# Two sets: the comparison figure comes first, then set A's figures.
"$lbbench" report "$tmp/sweep" "$tmp/sweep" --out "$tmp/compared" > /dev/null
/usr/bin/python3 tests/e2e/check_report.py "$tmp/sweep" "$tmp/compared" "Comparison of two sets"
# Bad input: exit 2, a message naming the set, no report folder.
mkdir "$tmp/bad" "$tmp/empty"
echo "not hdf5" > "$tmp/bad/part.h5"
for bad in "$tmp/bad" "$tmp/empty" "$tmp/bad/part.h5" "$tmp/missing"; do
  rc=0
  "$lbbench" report "$bad" --out "$tmp/bad_page" 2> "$tmp/err.txt" || rc=$?
  [ "$rc" -eq 2 ] && grep -qF "$bad" "$tmp/err.txt" && [ ! -e "$tmp/bad_page" ] ||
    { echo "report $bad: exit $rc"; cat "$tmp/err.txt"; exit 1; }
done
# What lbbench table refuses, the report refuses with the table's message: no page.
rc=0
"$lbbench" report "$tmp/smoke" --invocation no-such-invocation --out "$tmp/none" \
  2> "$tmp/err.txt" || rc=$?
[ "$rc" -eq 2 ] && grep -q "^lbbench report: table: " "$tmp/err.txt" && [ ! -e "$tmp/none" ] ||
  { echo "report --invocation no-such-invocation: exit $rc"; cat "$tmp/err.txt"; exit 1; }
echo "report: OK"
