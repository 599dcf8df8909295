#!/usr/bin/env bash
# `lbbench run` into a folder that takes no part: refused before any run when it is unwritable or
# its disk is full, and stopped at the first part that cannot be written, the parts written
# before kept whole (docs/results.md, "Writing"). A full disk is a small tmpfs where this process
# may mount one; an unwritable folder is one of mode 555, which root writes anyway.
set -uo pipefail
lbbench=$1
. "$(dirname "$0")/lib/scratch.sh"
fails=0 ran=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
if [ "$(id -u)" -ne 0 ]; then
  ran=$((ran + 1))
  mkdir "$tmp/locked" && chmod 555 "$tmp/locked"
  "$lbbench" run configs/smoke.yaml -o "$tmp/locked" > /dev/null 2> "$tmp/locked.txt"; rc=$?
  [ "$rc" -ne 0 ] && grep -q "locked: cannot write a part there: Permission denied" "$tmp/locked.txt" ||
    { fail "unwritable folder: exit $rc"; cat "$tmp/locked.txt"; }
  ! grep -q '^\[1/' "$tmp/locked.txt" || fail "unwritable folder: runs started"
  chmod 755 "$tmp/locked"
else
  echo "unwritable_set: as root a folder of mode 555 takes files: that case not run"
fi
mkdir -p "$tmp/disk"
if mount -t tmpfs -o size=2m tmpfs "$tmp/disk" 2> /dev/null; then
  trap 'umount "$tmp/disk"; rm -rf "$tmp"' EXIT
  ran=$((ran + 1))
  # Full before the first run: refused at once.
  dd if=/dev/zero of="$tmp/disk/fill" bs=64k 2> /dev/null
  "$lbbench" run configs/smoke.yaml -o "$tmp/disk/full" > /dev/null 2> "$tmp/full.txt"; rc=$?
  [ "$rc" -ne 0 ] && grep -q "disk/full: cannot write a part there: .*No space left" "$tmp/full.txt" ||
    { fail "full disk: exit $rc"; cat "$tmp/full.txt"; }
  ! grep -q '^\[1/' "$tmp/full.txt" || fail "full disk: runs started"
  rm -f "$tmp/disk/fill"
  rm -rf "$tmp/disk/full"
  # Full after a few parts (one a run): the invocation stops there, the parts written kept.
  LBB_RESULTS_PART_SECONDS=0 "$lbbench" run configs/smoke.yaml --repetitions 100 \
    -o "$tmp/disk/set" > /dev/null 2> "$tmp/mid.txt"; rc=$?
  [ "$rc" -eq 1 ] || { fail "filled mid-run: exit $rc"; tail -3 "$tmp/mid.txt"; }
  grep -q "disk/set/.*: No space left on device" "$tmp/mid.txt" ||
    { fail "filled mid-run: the path and error not said"; tail -3 "$tmp/mid.txt"; }
  stopped=$(grep -o 'stopped after run [0-9]* of 300' "$tmp/mid.txt" | grep -o '[0-9]* of' | cut -d' ' -f1)
  [ -n "$stopped" ] && [ "$stopped" -lt 300 ] && [ "$(grep -c '^\[[0-9]*/300\]' "$tmp/mid.txt")" -eq "$stopped" ] ||
    { fail "filled mid-run: not stopped at the failed write"; tail -3 "$tmp/mid.txt"; }
  parts=$(ls "$tmp/disk/set"/*.h5 2> /dev/null | wc -l)
  "$lbbench" show "$tmp/disk/set" > "$tmp/show.txt" 2>&1
  [ "$parts" -ge 1 ] && grep -q "^$parts runs of 1 invocations in $parts parts" "$tmp/show.txt" &&
    ! grep -q "left out" "$tmp/show.txt" ||
    { fail "filled mid-run: the parts written are not whole ($parts parts)"; tail -3 "$tmp/show.txt"; }
  [ -z "$(find "$tmp/disk" -name '.*.tmp')" ] || fail "filled mid-run: temporary files left"
else
  echo "unwritable_set: no tmpfs could be mounted here: the full-disk cases not run"
fi
[ "$ran" -gt 0 ] || { echo "unwritable_set: skipped: root, and no tmpfs can be mounted"; exit 77; }
echo "unwritable_set: $fails failures"
[ "$fails" -eq 0 ]
