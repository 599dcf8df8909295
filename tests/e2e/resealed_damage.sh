#!/usr/bin/env bash
# One byte of a part's HDF5 metadata changed and the seal recomputed (an edit, a collaborator's
# tool): show, table and export refuse it or read it, never crash, in this layout and in the older
# one, whose dense link storage crashes HDF5 1.10.8 (read by a child process alone); the README's
# recipe (h5py) survives it in this layout (tests/e2e/resealed_damage.py). Any crash fails.
set -uo pipefail
lbbench=$(realpath "$1")
. "$(dirname "$0")/lib/scratch.sh"
/usr/bin/python3 -c 'import h5py, pandas' 2> /dev/null ||
  { echo "resealed_damage: skipped: Debian's python3-h5py or python3-pandas is missing"; exit 77; }
# A sanitizer build: HDF5 loses allocations of its own on its error paths, and telling them from
# lbbench's needs the slow unwinder on every malloc of 360 processes; this test asks about crashes
# and memory errors, so it checks no leaks (the results fuzz target checks them on damaged parts).
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
"$lbbench" run configs/smoke.yaml -o "$tmp/set" > /dev/null 2>&1 || { echo "setup failed"; exit 1; }
/usr/bin/python3 tests/e2e/resealed_damage.py "$lbbench" "$(ls "$tmp"/set/*.h5)" "$tmp" 60
