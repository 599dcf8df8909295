#!/usr/bin/env bash
# Archives from elsewhere cannot be turned against their user (issue 10's reproducers):
# show never crashes and never prints the archive's escape sequences; run -o never writes
# through a link or into a file lbbench did not create; validate refuses such outputs up front.
set -euo pipefail
lbbench=$(realpath "$1")
cfg=$(realpath configs/smoke.yaml)
. "$(dirname "$0")/lib/scratch.sh"
cd "$tmp"
/usr/bin/python3 - <<'PY'
import h5py, numpy
# A run attribute that is not a single value (show once overflowed a buffer: SIGSEGV).
h5py.File('array_attr.h5', 'w').create_group('runs/r').attrs['processors'] = numpy.arange(4000.)
# /runs an external link into another file.
with h5py.File('victim.h5', 'w') as f:
    f.create_group('runs')
with h5py.File('external.h5', 'w') as f:
    f['runs'] = h5py.ExternalLink('victim.h5', '/runs')
# A soft link inside a run, and a foreign dataset.
with h5py.File('soft.h5', 'w') as f:
    f.create_group('runs/r')
    f['runs/r/step'] = h5py.SoftLink('/elsewhere')
with h5py.File('foreign.h5', 'w') as f:
    f.create_group('runs/r')
    f['runs/r/notes'] = numpy.arange(3)
# /runs a dataset, and a dangling soft link.
with h5py.File('runs_dataset.h5', 'w') as f:
    f['runs'] = numpy.arange(3)
with h5py.File('dangling.h5', 'w') as f:
    f['runs'] = h5py.SoftLink('/nowhere')
# Terminal escape sequences in strings and a run name.
with h5py.File('escapes.h5', 'w') as f:
    g = f.create_group('runs/run-00000-\x1b]0;owned\x07')
    g.attrs['workload'] = '\x1b[2J\x1b[31mred'
    g.attrs['balancer'] = 'b\u009b31m'
    g.attrs['status'] = 'complete'
PY
expect_exit() {  # expect_exit CODE command...: the command exits with CODE
  local want=$1; shift
  set +e; "$@" > out.txt 2> err.txt; local rc=$?; set -e
  if [ "$rc" -ne "$want" ]; then
    echo "hostile_archives: '$*' exited $rc, expected $want"; cat out.txt err.txt; exit 1
  fi
}
expect_exit 2 "$lbbench" show array_attr.h5
grep -q "not a single value" err.txt
victim_before=$(md5sum victim.h5)
for f in external soft foreign runs_dataset dangling; do
  before=$(md5sum $f.h5)
  expect_exit 2 "$lbbench" run "$cfg" -o $f.h5
  grep -q -E "link|not written by lbbench|expected a group|is missing" err.txt || { cat err.txt; exit 1; }
  [ "$(md5sum $f.h5)" = "$before" ] || { echo "hostile_archives: $f.h5 changed"; exit 1; }
  [ ! -e $f.h5.lbbench-tmp ] && [ ! -e $f.h5.lbbench-lock ]
done
[ "$(md5sum victim.h5)" = "$victim_before" ]
for f in runs_dataset dangling external; do
  expect_exit 2 "$lbbench" validate "$cfg" --set output=$f.h5
  grep -q "output archive" err.txt
done
expect_exit 0 "$lbbench" show escapes.h5
if grep -q -P '[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]' out.txt; then
  echo "hostile_archives: show printed control characters"; cat -v out.txt; exit 1
fi
grep -q '\\x1B\[31mred' out.txt
echo "hostile_archives: OK"
