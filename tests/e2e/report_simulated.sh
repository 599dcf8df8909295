#!/usr/bin/env bash
# A simulated set (synthetic loads, no kernel): its runs verify nothing, so `table`, `show` and the
# report call them "not verified: simulated", never matched nor failed, and the report draws every
# figure from what they recorded: steps, busy maps, the migration map and the timeline.
set -euo pipefail
lbbench=$1
. "$(dirname "$0")/lib/scratch.sh"
/usr/bin/python3 -c "import h5py, matplotlib, pandas" 2> /dev/null ||
  { echo "report_simulated: SKIP: /usr/bin/python3 lacks h5py, matplotlib or pandas"; exit 77; }
cat > "$tmp/sim.yaml" << 'YAML'
name: sim
workload: { kind: synthetic, model: truncated_normal, mean: 1, sd: 1.0, modules: 32, seed: 1 }
platform: { processors: 4, topology: chain, speeds: [1, 1, 0.5, 0.25] }
execution: { executor: simulate, steps: 8, warmup: 0, repetitions: 1, record: modules }
balancers:
  - { dynamic: none }
  - { dynamic: diffusion }
  - { static: lpt }
output: results/sim
YAML
"$lbbench" run "$tmp/sim.yaml" -o "$tmp/set" > /dev/null 2>&1
fails=0
"$lbbench" table "$tmp/set" > "$tmp/table.txt" 2>&1
grep -q "^verified: synthetic: not verified: simulated" "$tmp/table.txt" ||
  { echo "FAIL: table does not say not verified: simulated"; cat "$tmp/table.txt"; fails=$((fails + 1)); }
grep -q "matched its reference\|FAILED" "$tmp/table.txt" &&
  { echo "FAIL: table calls simulated runs matched or failed"; fails=$((fails + 1)); }
sims=$("$lbbench" show "$tmp/set" | grep -c "  complete  sim ")
[ "$sims" -eq 3 ] || { echo "FAIL: show: $sims of 3 runs marked sim"; "$lbbench" show "$tmp/set"; fails=$((fails + 1)); }
/usr/bin/python3 - "$tmp/set" << 'PY' || fails=$((fails + 1))
import glob, sys, h5py
for part in glob.glob(sys.argv[1] + "/*.h5"):
    with h5py.File(part, "r") as f:
        sim, ok = list(f["runs/simulated"][()]), list(f["runs/verified"][()])
        assert sim == [1] * len(sim) and ok == [0] * len(ok), (sim, ok)
PY
"$lbbench" report "$tmp/set" --out "$tmp/page" > /dev/null
grep -q "did not verify\|What is missing" "$tmp/page/index.html" &&
  { echo "FAIL: the report calls simulated runs unverified or missing"; fails=$((fails + 1)); }
grep -q "Not verified: simulated: 3 of 3 runs" "$tmp/page/index.html" ||
  { echo "FAIL: the report does not say the runs are simulated"; fails=$((fails + 1)); }
/usr/bin/python3 tests/e2e/check_report.py "$tmp/set" "$tmp/page" "Migration map" "Timeline of one run" ||
  fails=$((fails + 1))
echo "report_simulated: $fails failures"
[ "$fails" -eq 0 ]
