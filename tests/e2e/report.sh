#!/usr/bin/env bash
# lbbench report: the smoke archive's report has every figure its workload calls for, each
# embedded in index.html; a sweep over P and two balancer parameters adds the scaling and the
# parameter heat map; bad input exits 2 and writes nothing.
set -euo pipefail
lbbench=$1
. "$(dirname "$0")/lib/scratch.sh"
"$lbbench" run configs/smoke.yaml -o "$tmp/smoke.h5" > /dev/null
"$lbbench" report "$tmp/smoke.h5" --out "$tmp/smoke" > "$tmp/out.txt"
grep -q "^report: $tmp/smoke/index.html$" "$tmp/out.txt"
/usr/bin/python3 tests/e2e/check_report.py "$tmp/smoke.h5" "$tmp/smoke"
# A sweep over P and over random's alpha x threshold.
"$lbbench" run configs/smoke.yaml -o "$tmp/sweep.h5" --set 'platform.processors=[2,4]' \
  --set 'execution.repetitions=2' --set 'balancers=[{dynamic: none}, {static: lpt},
  {dynamic: random, alpha: [0.5, 1.0], threshold: [1.0, 1.2]}]' > /dev/null
"$lbbench" report "$tmp/sweep.h5" > /dev/null  # default folder: beside the archive
/usr/bin/python3 tests/e2e/check_report.py "$tmp/sweep.h5" "$tmp/sweep_report" "Parameter sweeps"
grep -q "alpha x threshold" "$tmp/sweep_report/figures.json"
# --only selects strategies as lbbench table does (with --highlight naming one of them).
"$lbbench" report "$tmp/sweep.h5" --only 'none|lpt' --highlight lpt --out "$tmp/only" > /dev/null
/usr/bin/python3 - "$tmp/only" <<'PY'
import json, sys
labels = {r["label"] for r in json.load(open(sys.argv[1] + "/table.json"))}
assert labels == {"none", "lpt"}, labels
PY
# Two archives: the comparison figure comes first, then archive A's figures.
"$lbbench" report "$tmp/smoke.h5" "$tmp/smoke.h5" --out "$tmp/both" > /dev/null
/usr/bin/python3 tests/e2e/check_report.py "$tmp/smoke.h5" "$tmp/both" "Comparison of two archives"
# Bad input: exit 2, a message naming the file, no report folder.
echo "not hdf5" > "$tmp/bad.h5"
rc=0
"$lbbench" report "$tmp/bad.h5" --out "$tmp/bad" 2> "$tmp/err.txt" || rc=$?
[ "$rc" -eq 2 ] && grep -q "bad.h5" "$tmp/err.txt" && [ ! -e "$tmp/bad" ] || { cat "$tmp/err.txt"; exit 1; }
echo "report: OK"
