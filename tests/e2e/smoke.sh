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
# A second run adds runs and leaves the first three byte-for-byte identical.
h5dump -g /runs/run-00000-none "$tmp/smoke.h5" > "$tmp/before.txt"
"$lbbench" run configs/smoke.yaml -o "$tmp/smoke.h5" > /dev/null
h5dump -g /runs/run-00000-none "$tmp/smoke.h5" > "$tmp/after.txt"
cmp "$tmp/before.txt" "$tmp/after.txt"
/usr/bin/python3 tests/e2e/check_archive.py "$lbbench" "$tmp/smoke.h5" 6
echo "smoke: OK"
