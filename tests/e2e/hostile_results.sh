#!/usr/bin/env bash
# Hostile and damaged parts (tests/e2e/hostile_parts.py): show, table, export and run --resume
# refuse each with a message naming the part (the other parts of a set are still read), never
# crash, and write nothing but what the user named: an external file a part points to is never
# touched. Outputs that are not directories are refused before anything runs.
set -uo pipefail
lbbench=$1
. "$(dirname "$0")/lib/scratch.sh"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
"$lbbench" run configs/smoke.yaml -o "$tmp/valid" > /dev/null 2>&1 || { echo "setup failed"; exit 1; }
"$lbbench" run configs/smoke.yaml -o "$tmp/good" > /dev/null 2>&1 || { echo "setup failed"; exit 1; }
valid=$(ls "$tmp"/valid/*.h5)
good=$(ls "$tmp"/good/*.h5)
mapfile -t cases < <(/usr/bin/python3 tests/e2e/hostile_parts.py "$valid" "$tmp/cases")
[ "${#cases[@]}" -ge 10 ] || { echo "no cases"; exit 1; }
sums() { (cd "$1" && sha256sum -- *.h5 $(ls victim.bin 2> /dev/null)); }
for c in "${cases[@]}"; do
  d=$tmp/cases/$c
  cp "$good" "$d/good.h5"
  sum=$(sums "$d")
  # export reads every table of every part: the hostile one is named, the good one exported.
  "$lbbench" export "$d" --to "$tmp/csv-$c" > /dev/null 2> "$tmp/export-$c.txt"; rc=$?
  [ "$rc" -eq 0 ] || fail "$c: export exit $rc"
  grep -q "left out: .*part.h5" "$tmp/export-$c.txt" || { fail "$c: not named"; cat "$tmp/export-$c.txt"; }
  /usr/bin/python3 -c "import pandas as p, sys; sys.exit(len(p.read_csv('$tmp/csv-$c/runs.csv')) not in (3, 6))" ||
    fail "$c: the good part's runs not exported"
  for cmd in show table; do
    "$lbbench" $cmd "$d" > "$tmp/$cmd-$c.txt" 2>&1; rc=$?
    [ "$rc" -eq 0 ] || { fail "$c: $cmd exit $rc"; cat "$tmp/$cmd-$c.txt"; }
  done
  "$lbbench" export "$d/part.h5" --to "$tmp/one-$c" > /dev/null 2> "$tmp/one-$c.txt"; rc=$?
  [ "$rc" -lt 128 ] && grep -q "part.h5" "$tmp/one-$c.txt" || fail "$c: export of the part alone exit $rc"
  LBB_RESULTS_PART_SECONDS=0 "$lbbench" run configs/smoke.yaml --resume -o "$d" > /dev/null 2>&1
  rc=$?
  [ "$rc" -eq 0 ] || fail "$c: run --resume exit $rc"
  [ "$(sums "$d" | grep -v -e part.h5 -e good.h5 -e victim.bin | wc -l)" -le 1 ] || fail "$c: resume wrote more than one part"
  [ "$(sums "$d" | grep -e part.h5 -e good.h5 -e victim.bin)" = "$sum" ] || fail "$c: a file was changed"
done
# Outputs that cannot be a result set.
echo "notes" > "$tmp/file"
"$lbbench" run configs/smoke.yaml -o "$tmp/file" > /dev/null 2> "$tmp/err.txt"
[ $? -eq 2 ] && grep -q "not a directory" "$tmp/err.txt" && [ "$(cat "$tmp/file")" = notes ] ||
  fail "-o a file"
"$lbbench" run configs/smoke.yaml -o "" > /dev/null 2> "$tmp/err.txt"
[ $? -eq 2 ] || fail '-o ""'
[ -z "$(find "$tmp" -name '.*.tmp')" ] || fail "temporary files left"
# A full disk (a 64 KiB tmpfs, where this process may mount one): exit 1 with one message, no
# crash, nothing left in the set.
if mkdir -p "$tmp/tiny" && mount -t tmpfs -o size=64k tmpfs "$tmp/tiny" 2> /dev/null; then
  "$lbbench" run configs/smoke.yaml -o "$tmp/tiny/set" > /dev/null 2> "$tmp/full.txt"; rc=$?
  [ "$rc" -eq 1 ] && [ "$(grep -c 'results not written.*No space left' "$tmp/full.txt")" -eq 1 ] ||
    { fail "full disk: exit $rc"; cat "$tmp/full.txt"; }
  [ -z "$(ls -A "$tmp/tiny/set")" ] || fail "full disk: files left"
  umount "$tmp/tiny"
else
  echo "hostile_results: no tmpfs could be mounted here: the full-disk case not run"
fi
echo "hostile_results: ${#cases[@]} cases, $fails failures"
[ "$fails" -eq 0 ]
