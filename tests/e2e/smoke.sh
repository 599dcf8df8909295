#!/usr/bin/env bash
# End to end: run configs/smoke.yaml, then read the archive back with h5py, h5dump and lbbench.
set -euo pipefail
lbbench=$1
. "$(dirname "$0")/lib/scratch.sh"
"$lbbench" run configs/smoke.yaml -o "$tmp/smoke.h5" > "$tmp/out.txt"
grep -q "verified" "$tmp/out.txt"
[ "$(grep -c ' yes$' "$tmp/out.txt")" -eq 3 ] || { cat "$tmp/out.txt"; exit 1; }
/usr/bin/python3 tests/e2e/check_archive.py "$lbbench" "$tmp/smoke.h5" 3
# (to files first: grep -q would close the pipe early and pipefail would see SIGPIPE)
h5dump -H "$tmp/smoke.h5" > "$tmp/dump.txt"
grep -q 'DATASET "makespan"' "$tmp/dump.txt"
"$lbbench" show "$tmp/smoke.h5" > "$tmp/show.txt"
grep -q "^3 runs in" "$tmp/show.txt"
# A second run adds runs and leaves the first three byte-for-byte identical (every attribute,
# and every step dataset's type, shape and bytes, read through the shared reader).
runs=(/usr/bin/python3 tests/e2e/archive_runs.py)
mapfile -t first < <("${runs[@]}" ids "$tmp/smoke.h5")
"${runs[@]}" dump "$tmp/smoke.h5" "${first[@]}" > "$tmp/before.txt"
"$lbbench" run configs/smoke.yaml -o "$tmp/smoke.h5" > /dev/null
"${runs[@]}" dump "$tmp/smoke.h5" "${first[@]}" > "$tmp/after.txt"
[ "${#first[@]}" -eq 3 ] && [ "$(grep -c '^== ' "$tmp/after.txt")" -eq 3 ]
cmp "$tmp/before.txt" "$tmp/after.txt"
/usr/bin/python3 tests/e2e/check_archive.py "$lbbench" "$tmp/smoke.h5" 6
# --costs: the parts are the invocation's CPU time split without overlap (each >= 0, summing to
# the total up to rounding), and the executor measured its kernels' modules. On one core the 4
# threads outnumber the cores, so the phase clocks read the CPU clock around every stretch: on a
# host with a core a thread, a short stretch's successor is timed by the wall clock, an upper
# bound that a loaded host's preemptions could push past the rounding (harness/clock.h).
first_cpu=$(taskset -pc $$ | sed 's/.*: //; s/[,-].*//')  # the first this process may use
taskset -c "$first_cpu" "$lbbench" run configs/smoke.yaml --no-archive --costs > /dev/null \
  2> "$tmp/costs.txt"
grep -q "on 1 available cores: oversubscribed" "$tmp/costs.txt" || { cat "$tmp/costs.txt"; exit 1; }
awk '/^CPU time of this invocation/ { total = $6 }
     /^  / && !/verification \+ archive/ && !/note:/ { n = $(NF - 3); if (n < 0) bad = 1; sum += n }
     /kernels: modules/ { kernels = $(NF - 3) }
     END { if (bad || kernels <= 0 || sum < total - 0.01 || sum > total + 0.01) exit 1 }' \
  "$tmp/costs.txt" || { cat "$tmp/costs.txt"; exit 1; }
echo "smoke: OK"
