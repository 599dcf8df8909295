#!/usr/bin/env bash
# End to end: run configs/smoke.yaml, then read the result set back with h5py, h5dump and lbbench.
set -euo pipefail
lbbench=$1
. "$(dirname "$0")/lib/scratch.sh"
"$lbbench" run configs/smoke.yaml -o "$tmp/smoke" > "$tmp/out.txt"
[ "$(grep -c '^block_substitution ' "$tmp/out.txt")" -eq 3 ] || { cat "$tmp/out.txt"; exit 1; }
grep -qx "verified: block_substitution: every repetition of its 3 rows matched its reference" \
  "$tmp/out.txt" || { cat "$tmp/out.txt"; exit 1; }
/usr/bin/python3 tests/e2e/check_results.py "$lbbench" "$tmp/smoke" 3
# (to files first: grep -q would close the pipe early and pipefail would see SIGPIPE)
h5dump -H "$tmp"/smoke/*.h5 > "$tmp/dump.txt"
grep -q 'DATASET "makespan"' "$tmp/dump.txt"
"$lbbench" show "$tmp/smoke" > "$tmp/show.txt"
grep -q "^3 runs of 1 invocations in 1 parts" "$tmp/show.txt"
# A second run adds a part and leaves the first part and its three runs byte-for-byte identical.
runs=(/usr/bin/python3 tests/e2e/result_runs.py)
mapfile -t first < <("${runs[@]}" ids "$tmp/smoke")
"${runs[@]}" dump "$tmp/smoke" "${first[@]}" > "$tmp/before.txt"
sha256sum "$tmp"/smoke/*.h5 > "$tmp/sums.txt"
"$lbbench" run configs/smoke.yaml -o "$tmp/smoke" > /dev/null
"${runs[@]}" dump "$tmp/smoke" "${first[@]}" > "$tmp/after.txt"
[ "${#first[@]}" -eq 3 ] && [ "$(grep -c '^== ' "$tmp/after.txt")" -eq 3 ]
cmp "$tmp/before.txt" "$tmp/after.txt"
sha256sum -c --quiet "$tmp/sums.txt"
/usr/bin/python3 tests/e2e/check_results.py "$lbbench" "$tmp/smoke" 6
# Read as a user would, with no lbbench code: every run and step of the set, in pandas.
"$lbbench" export "$tmp/smoke" --to "$tmp/csv" > /dev/null
/usr/bin/python3 - "$tmp/csv" <<'PY'
import sys, pandas as pd
d = sys.argv[1]
runs, steps, procs = (pd.read_csv(f"{d}/{t}.csv") for t in ("runs", "steps", "procs"))
assert len(runs) == 6 and runs.run.is_unique, runs
assert len(steps) == runs.steps.sum() and len(procs) == (runs.steps * runs.processors).sum()
assert set(steps.run) == set(runs.run) and (runs.status == "complete").all()
PY
# --costs: the parts are the invocation's CPU time split without overlap (each >= 0, summing to
# the total up to rounding), and the executor measured its kernels' modules. On one core the 4
# threads outnumber the cores, so the phase clocks read the CPU clock around every stretch: on a
# host with a core a thread, a short stretch's successor is timed by the wall clock, an upper
# bound that a loaded host's preemptions could push past the rounding (harness/clock.h).
first_cpu=$(taskset -pc $$ | sed 's/.*: //; s/[,-].*//')  # the first this process may use
taskset -c "$first_cpu" "$lbbench" run configs/smoke.yaml --no-write --costs > /dev/null \
  2> "$tmp/costs.txt"
grep -q "on 1 available cores: oversubscribed" "$tmp/costs.txt" || { cat "$tmp/costs.txt"; exit 1; }
awk '/^CPU time of this invocation/ { total = $6 }
     /^  / && !/verification \+ results/ && !/note:/ { n = $(NF - 3); if (n < 0) bad = 1; sum += n }
     /kernels: modules/ { kernels = $(NF - 3) }
     END { if (bad || kernels <= 0 || sum < total - 0.01 || sum > total + 0.01) exit 1 }' \
  "$tmp/costs.txt" || { cat "$tmp/costs.txt"; exit 1; }
echo "smoke: OK"
