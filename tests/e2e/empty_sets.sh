#!/usr/bin/env bash
# An empty or missing result set is refused by every command that reads one, as table refuses it
# (exit 2, "no runs"); report --out naming a file, or a folder of files no report writes, is
# refused before anything is written; expect on a config without expectations says so, exit 2.
set -uo pipefail
lbbench=$1
. "$(dirname "$0")/lib/scratch.sh"
fails=0
. "$(dirname "$0")/lib/expect.sh"
"$lbbench" run configs/smoke.yaml -o "$tmp/set" --quiet > /dev/null 2>&1 || { echo "setup failed"; exit 1; }
mkdir "$tmp/empty"
expect 2 "empty: no runs" -- "$lbbench" table "$tmp/empty"
expect 2 "empty: no runs" -- "$lbbench" show "$tmp/empty"
expect 2 "empty: no runs" -- "$lbbench" export "$tmp/empty" --to "$tmp/csv"
expect 2 "empty: no runs" -- "$lbbench" export "$tmp/empty" --to "$tmp/vt" --format vt
expect 2 "empty: no runs" -- "$lbbench" export "$tmp/empty" --to "$tmp/chrome" --format chrome
expect 2 "empty: no runs" -- "$lbbench" compare "$tmp/empty" "$tmp/set"
expect 2 "empty: no runs" -- "$lbbench" compare "$tmp/set" "$tmp/empty"
expect 2 "missing: no such result set" -- "$lbbench" compare "$tmp/set" "$tmp/missing"
expect 2 "missing: no such result set" -- "$lbbench" export "$tmp/missing" --to "$tmp/csv"
[ ! -e "$tmp/csv" ] || { echo "FAIL: export of an empty set created its --to"; fails=$((fails + 1)); }

# report --out: a file is refused (no traceback) and left as it was; so is a folder of other files.
echo "my notes" > "$tmp/notes.txt"
expect 2 "^lbbench report: --out .*notes.txt: exists and is not a folder" -- \
  "$lbbench" report "$tmp/set" --out "$tmp/notes.txt"
[ "$(cat "$tmp/notes.txt")" = "my notes" ] || { echo "FAIL: notes.txt was touched"; fails=$((fails + 1)); }
mkdir "$tmp/mine" && echo "keep" > "$tmp/mine/thesis.tex"
expect 2 "^lbbench report: --out .*mine: the folder holds 'thesis.tex', which no report writes" -- \
  "$lbbench" report "$tmp/set" --out "$tmp/mine"
[ "$(ls "$tmp/mine")" = "thesis.tex" ] || { echo "FAIL: mine/ was written into"; fails=$((fails + 1)); }
# An earlier report's folder is written again.
"$lbbench" report "$tmp/set" --out "$tmp/page" > /dev/null 2>&1 &&
  "$lbbench" report "$tmp/set" --out "$tmp/page" > /dev/null 2>&1 ||
  { echo "FAIL: a report's own folder was refused"; fails=$((fails + 1)); }

# expect: a config without expectations (smoke) says so instead of printing a bare header.
expect 2 "smoke.yaml: the config has no expectations" -- "$lbbench" expect configs/smoke.yaml "$tmp/set"
echo "empty_sets: $fails failures"
[ "$fails" -eq 0 ]
