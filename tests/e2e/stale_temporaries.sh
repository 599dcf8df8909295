#!/usr/bin/env bash
# A killed writer's hidden temporary (.<part>.h5.tmp) is removed by the next writer of the set
# (`run --resume`), and said; one a live writer holds (its flock) or one changed in the last
# ten minutes is left alone (harness/results/part_file.h, remove_stale_temporaries).
set -uo pipefail
lbbench=$1
. "$(dirname "$0")/lib/scratch.sh"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
set=$tmp/set
"$lbbench" run configs/smoke.yaml -o "$set" > /dev/null 2>&1 || { echo "setup failed"; exit 1; }
echo "half a part" > "$set/.killed.0000.h5.tmp" && touch -d '2 hours ago' "$set/.killed.0000.h5.tmp"
echo "being written" > "$set/.fresh.0000.h5.tmp"
holder=
if command -v flock > /dev/null; then
  echo "being written" > "$set/.held.0000.h5.tmp" && touch -d '2 hours ago' "$set/.held.0000.h5.tmp"
  (exec 9<> "$set/.held.0000.h5.tmp" && flock 9 && exec sleep 300) & holder=$!
  for _ in $(seq 50); do flock -n "$set/.held.0000.h5.tmp" true || break; sleep 0.1; done
else
  echo "stale_temporaries: no flock(1) here: the held temporary not checked"
fi
"$lbbench" run configs/smoke.yaml -o "$set" --resume > /dev/null 2> "$tmp/err.txt" ||
  { fail "run --resume"; cat "$tmp/err.txt"; }
[ ! -e "$set/.killed.0000.h5.tmp" ] || fail "the killed writer's temporary kept"
grep -q "removed 1 temporary files of killed writers (.killed.0000.h5.tmp)" "$tmp/err.txt" ||
  { fail "the removal not said"; cat "$tmp/err.txt"; }
[ -e "$set/.fresh.0000.h5.tmp" ] || fail "a temporary changed just now removed"
if [ -n "$holder" ]; then
  [ -e "$set/.held.0000.h5.tmp" ] || fail "a temporary a live writer holds removed"
  kill "$holder"
  wait "$holder" 2> /dev/null
fi
echo "stale_temporaries: $fails failures"
[ "$fails" -eq 0 ]
