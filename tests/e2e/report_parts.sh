#!/usr/bin/env bash
# lbbench report's tables and module figures, checked against the set (check_report_parts.py):
# one provenance row per invocation; a verdict table per group with lbbench table's numbers and
# the group's speeds and external load; the timeline of a run with module detail (by default one
# that moved modules, or --timeline-run's); a migration map of owner changes. A --timeline-run
# that names no run with module detail exits 2 and writes nothing.
set -euo pipefail
lbbench=$1
. "$(dirname "$0")/lib/scratch.sh"
"$lbbench" run configs/smoke.yaml -o "$tmp/set" > /dev/null 2>&1
"$lbbench" run configs/external_load.yaml -o "$tmp/set" --set platform.processors=3 \
  --set 'platform.speeds=[1, 1, 0.5]' --set execution.steps=6 --set execution.repetitions=2 \
  --set execution.record=modules --set 'workload={kind: block_substitution, blocks: 24,
  width: 16, mean_lines: 4, sd: 1.0, seed: 1}' --set 'balancers=[{dynamic: none},
  {dynamic: diffusion}, {schedule: omp_dynamic, chunk: 1}]' > /dev/null 2>&1
"$lbbench" table "$tmp/set" --format json > "$tmp/table.json"
"$lbbench" report "$tmp/set" --out "$tmp/page" > /dev/null
/usr/bin/python3 tests/e2e/check_report_parts.py "$tmp/set" "$tmp/page" "$tmp/table.json" default
# Another run's timeline: the second diffusion run's.
run=$(/usr/bin/python3 - "$tmp/set" <<'PY'
import glob, sys, h5py
ids = [r for p in sorted(glob.glob(sys.argv[1] + "/*.h5")) for r, b in zip(*(
    h5py.File(p)["runs"][c].asstr()[:] for c in ("run", "balancer"))) if b == "diffusion"]
print(ids[-1])
PY
)
"$lbbench" report "$tmp/set" --timeline-run "$run" --out "$tmp/chosen" > /dev/null
/usr/bin/python3 tests/e2e/check_report_parts.py "$tmp/set" "$tmp/chosen" "$tmp/table.json" "$run"
rc=0
"$lbbench" report "$tmp/set" --timeline-run no-such-run --out "$tmp/bad" 2> "$tmp/err.txt" ||
  rc=$?
[ "$rc" -eq 2 ] && grep -q "no-such-run" "$tmp/err.txt" && [ ! -e "$tmp/bad" ] ||
  { echo "report --timeline-run no-such-run: exit $rc"; cat "$tmp/err.txt"; exit 1; }
echo "report_parts: OK"
