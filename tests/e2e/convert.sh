#!/usr/bin/env bash
# lbbench convert: each archive of tests/data/ (made by the lbbench of schema version 3, see
# tests/data/README.md) becomes one part of a result set holding its ended runs, value for
# value (check_convert.py); a partial run is left out and counted; bad or hostile input exits 2
# and writes nothing outside the target directory, and nothing at all into it.
set -euo pipefail
lbbench=$1
. "$(dirname "$0")/lib/scratch.sh"
py=/usr/bin/python3
"$lbbench" schema > "$tmp/schema.json"
if ! $py -c 'import json, sys; sys.exit(json.load(open(sys.argv[1])).get("schema_version") != 5)' \
    "$tmp/schema.json" 2> /dev/null; then
  echo "skip: \`lbbench schema\` does not print the result-set schema (version 5) yet"
  exit 77
fi
for name in v3_smoke v3_trfd_modules v2_groups v3_mixed; do
  "$lbbench" convert "tests/data/$name.h5" "$tmp/set" > "$tmp/out.txt"
  part="$tmp/set/$name.converted.0000.h5"
  grep -q "^convert: $part: " "$tmp/out.txt" || { cat "$tmp/out.txt"; exit 1; }
  $py tests/e2e/check_convert.py "$tmp/schema.json" "tests/data/$name.h5" "$part"
  # Links compact, as the C++ writer's (docs/results.md): no B-tree or heap holds a table's links.
  h5stat -G "$part" | grep -Eq '^\s+Heap: 0$' ||
    { echo "convert: $part keeps links in a heap"; h5stat -G "$part"; exit 1; }
done
grep -q "(1 partial runs not converted: they never ended)" "$tmp/out.txt"
grep -q " 288 module rows" <("$lbbench" convert tests/data/v3_trfd_modules.h5 "$tmp/trfd")
# Text beyond ASCII comes back whole through h5py's asstr(); an attribute without a column is
# named and left out.
cp tests/data/v2_groups.h5 "$tmp/utf8.h5"
$py - "$tmp/utf8.h5" <<'PY'
import h5py, sys
run = h5py.File(sys.argv[1], "r+")["runs/run-00001-block"]
run.attrs["name"] = "Zaki–Li ß ∑"
run.attrs["retired"] = "a text attribute no schema-5 column takes"
PY
"$lbbench" convert "$tmp/utf8.h5" "$tmp/utf8" > /dev/null 2> "$tmp/err.txt"
grep -q "note: runs: no column in schema version 5 for retired: left out" "$tmp/err.txt"
$py - "$tmp/utf8/utf8.converted.0000.h5" <<'PY'
import h5py, sys
names = sorted(h5py.File(sys.argv[1])["runs/name"].asstr()[:])
assert names == ["Zaki–Li ß ∑", "smoke", "smoke"], names
PY
[ "$(ls -A "$tmp/set" | wc -l)" -eq 4 ]  # four parts, no temporary left behind

# Refused, exit 2 with one line naming the input; the target directory gains nothing.
refused() {  # refused ARCHIVE DIR PATTERN
  local rc=0
  "$lbbench" convert "$1" "$2" > /dev/null 2> "$tmp/err.txt" || rc=$?
  [ "$rc" -eq 2 ] && [ "$(wc -l < "$tmp/err.txt")" -eq 1 ] && grep -q -- "$3" "$tmp/err.txt" ||
    { echo "convert $1 $2: rc $rc"; cat "$tmp/err.txt"; exit 1; }
}
refused tests/data/v3_smoke.h5 "$tmp/set" "exists already"
echo "not hdf5" > "$tmp/text.h5"
refused "$tmp/text.h5" "$tmp/set" "not an HDF5 file"
refused tests/data/v3_smoke.h5 "$tmp/text.h5" "not a directory"
$py tests/e2e/hostile_archive.py tests/data "$tmp"
for kind in foreign soft external storage huge damaged; do
  message=$(sed -n "s/^$kind: //p" "$tmp/expected.txt")
  [ -n "$message" ] || { echo "hostile_archive.py made no $kind.h5"; exit 1; }
  refused "$tmp/$kind.h5" "$tmp/set" "$message"
done
[ "$(ls -A "$tmp/set" | wc -l)" -eq 4 ]
echo "convert: OK"
