#!/usr/bin/env bash
# Every command that reads a result set names each part it leaves out, on stderr, and why: a
# damaged part, a symbolic link, a FIFO, a directory and an unreadable file named like parts
# (docs/results.md, "Reading": "a part that fails is left out and named").
set -uo pipefail
lbbench=$1
. "$(dirname "$0")/lib/scratch.sh"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
# smoke.yaml's runs (module detail on) with one expectation, so that expect reads the set too.
{ sed '/^output:/d' configs/smoke.yaml; cat <<'YAML'
expectations:
  - { row: bound, where: { balancer: none }, metric: efficiency, paper: 1.0, context: "at most 1" }
YAML
} > "$tmp/c.yaml"
set="$tmp/set"
"$lbbench" run "$tmp/c.yaml" -o "$set" > /dev/null 2>&1 || { echo "setup failed"; exit 1; }
part=$(ls "$set"/*.h5 | head -1)
/usr/bin/python3 - "$part" "$set/damaged.h5" <<'PY'
import sys
data = bytearray(open(sys.argv[1], "rb").read())
data[len(data) // 2] ^= 0x40
open(sys.argv[2], "wb").write(bytes(data))
PY
ln -s "$part" "$set/link.h5"
mkfifo "$set/fifo.h5"
mkdir "$set/folder.h5"
cp "$part" "$set/locked.h5" && chmod 000 "$set/locked.h5"
expected=("damaged.h5: damaged" "link.h5: a symbolic link" "fifo.h5: a FIFO"
          "folder.h5: a directory")
if [ "$(id -u)" -ne 0 ]; then
  expected+=("locked.h5: unreadable: Permission denied")
else
  echo "left_out_parts: as root, chmod 000 does not stop reading: the unreadable case not checked"
  rm -f "$set/locked.h5"
fi
check() {  # check NAME COMMAND...: exits below 124, names every odd part on stderr
  local name=$1 err
  shift
  err=$tmp/$name.err
  timeout 120 "$@" > "$tmp/$name.out" 2> "$tmp/$name.err"
  local rc=$?
  [ "$rc" -lt 124 ] || { fail "$name: exit $rc"; return; }
  for e in "${expected[@]}"; do
    grep -q "left out: .*$e" "$err" || { fail "$name: '$e' not named"; cat "$err"; }
  done
  # stdout is the command's data alone: a part left out is named on stderr only.
  ! grep -q "left out" "$tmp/$name.out" || { fail "$name: parts left out named on stdout"; }
}
check show "$lbbench" show "$set"
check table "$lbbench" table "$set"
check export "$lbbench" export "$set" --to "$tmp/csv"
check vt "$lbbench" export "$set" --to "$tmp/vt" --format vt
check chrome "$lbbench" export "$set" --to "$tmp/chrome" --format chrome
check replay "$lbbench" simulate --replay "$set"
check calibrate "$lbbench" simulate --calibrate "$set"
check expect "$lbbench" expect "$tmp/c.yaml" "$set"
# The exports still hold the good part's runs.
[ "$(ls "$tmp/vt" | wc -l)" -ge 3 ] || fail "vt: runs of the good part not exported"
[ "$(ls "$tmp/chrome" | wc -l)" -ge 3 ] || fail "chrome: runs of the good part not exported"
chmod 600 "$set/locked.h5" 2> /dev/null
echo "left_out_parts: $fails failures"
[ "$fails" -eq 0 ]
