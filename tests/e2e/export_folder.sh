#!/usr/bin/env bash
# `lbbench export SET --to DIR` leaves DIR holding this export's files only: an earlier export's
# CSV files that this one does not write (modules.csv of a set with module detail) are removed,
# and a DIR holding anything that is not an export's is refused, untouched.
set -uo pipefail
lbbench=$1
. "$(dirname "$0")/lib/scratch.sh"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
"$lbbench" run configs/smoke.yaml -o "$tmp/detail" > /dev/null 2>&1 &&
  "$lbbench" run configs/smoke.yaml -o "$tmp/plain" --set execution.record=procs \
    > /dev/null 2>&1 || { echo "setup failed"; exit 1; }
"$lbbench" export "$tmp/detail" --to "$tmp/out" > /dev/null 2>&1 || fail "first export"
[ -f "$tmp/out/modules.csv" ] || fail "the first export wrote no modules.csv"
"$lbbench" export "$tmp/plain" --to "$tmp/out" > /dev/null 2> "$tmp/err.txt" ||
  { fail "second export"; cat "$tmp/err.txt"; }
[ ! -e "$tmp/out/modules.csv" ] || fail "the earlier export's modules.csv kept beside the new runs.csv"
[ "$(ls -A "$tmp/out" | sort | tr '\n' ' ')" = "invocations.csv procs.csv runs.csv steps.csv " ] ||
  fail "the folder holds: $(ls -A "$tmp/out")"
# A folder with files of its own: refused, nothing written or removed.
mkdir "$tmp/mine" && echo notes > "$tmp/mine/notes.txt" && echo a,b > "$tmp/mine/runs.csv"
"$lbbench" export "$tmp/plain" --to "$tmp/mine" > /dev/null 2> "$tmp/err.txt"; rc=$?
[ "$rc" -eq 2 ] && grep -q "mine: holds 1 files that are not an lbbench export's (notes.txt)" "$tmp/err.txt" ||
  { fail "a folder of other files: exit $rc"; cat "$tmp/err.txt"; }
[ "$(cat "$tmp/mine/notes.txt")" = notes ] && [ "$(cat "$tmp/mine/runs.csv")" = a,b ] &&
  [ "$(ls -A "$tmp/mine" | wc -l)" -eq 2 ] || fail "a folder of other files was changed"
# A folder of an export's name that is not a file is not an export's either.
mkdir -p "$tmp/odd/steps.csv"
"$lbbench" export "$tmp/plain" --to "$tmp/odd" > /dev/null 2>&1 && fail "a folder named steps.csv taken"
[ -d "$tmp/odd/steps.csv" ] || fail "a folder named steps.csv removed"
echo "export_folder: $fails failures"
[ "$fails" -eq 0 ]
