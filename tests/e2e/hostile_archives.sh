#!/usr/bin/env bash
# Archives from elsewhere cannot be turned against their user (issue 10's reproducers):
# show never crashes and never prints the archive's escape sequences; run -o never writes
# through a link or into a file lbbench did not create; validate refuses such outputs up front.
# A run table (harness/archive/run_tables.h) with one fault is refused by show and by run -o,
# with a message naming what is wrong, and by the tests' own checker (check_archive.py).
set -euo pipefail
lbbench=$(realpath "$1")
cfg=$(realpath configs/smoke.yaml)
check_archive=$(realpath "$(dirname "$0")/check_archive.py")
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
# Run tables, each a copy of a real one with one fault.
"$lbbench" run "$cfg" -o table.h5 > /dev/null 2>&1
/usr/bin/python3 - <<'PY'
import shutil, h5py, numpy
def variant(name, edit):
    shutil.copy('table.h5', name + '.h5')
    with h5py.File(name + '.h5', 'r+') as f:
        edit(f, f['tables/t-00000'])
def replace(group, name, value):
    del group[name]
    group[name] = value
def negative_rows(f, t):  # the rows still sum to the columns' length
    rows = t['step_rows'][()]
    rows[0] += 2 * rows[1]
    rows[1] = -rows[1]
    t['step_rows'][...] = rows
def text_code(f, t):  # the last run's balancer one past attr_text_values
    texts = t['attr_texts'][()]
    texts['balancer'][-1] = len(t['attr_text_values'])
    t['attr_texts'][...] = texts
def number_text(f, t):  # attr_numbers' member efficiency a text
    numbers = t['attr_numbers'][()]
    members = [(m, h5py.string_dtype() if m == 'efficiency' else numbers.dtype.fields[m][0])
               for m in numbers.dtype.names]
    records = numpy.empty(len(numbers), dtype=members)
    for m in numbers.dtype.names:
        records[m] = numbers[m].astype(str) if m == 'efficiency' else numbers[m]
    replace(t, 'attr_numbers', records)
def present_stray(f, t):  # attr_present naming no number attribute
    records = numpy.ones(len(t['run_id']), dtype=[('nonesuch', '<i4')])
    if 'attr_present' in t:
        del t['attr_present']
    t['attr_present'] = records
def both_kinds(f, t):  # a text member named as a number member (efficiency), every run's -1
    texts = t['attr_texts'][()]
    members = [(m, texts.dtype.fields[m][0]) for m in texts.dtype.names] + [('efficiency', '<i4')]
    records = numpy.empty(len(texts), dtype=members)
    for m in texts.dtype.names:
        records[m] = texts[m]
    records['efficiency'] = -1
    replace(t, 'attr_texts', records)
# A step column one row shorter than sum(step_rows).
variant('short_column', lambda f, t: replace(t, 'step/makespan', t['step/makespan'][:-1]))
variant('negative_rows', negative_rows)
variant('text_code', text_code)
variant('number_text', number_text)
variant('present_stray', present_stray)
variant('both_kinds', both_kinds)
variant('id_not_text', lambda f, t: replace(t, 'run_id', numpy.arange(len(t['run_id']))))
# The same runs again in a second table.
variant('duplicate', lambda f, t: f.copy(t, 'tables/t-00001'))
# Soft links inside /tables: a table, and a column.
variant('soft_table', lambda f, t: f.__setitem__('tables/t-00001', h5py.SoftLink(t.name)))
variant('soft_column',
        lambda f, t: replace(t, 'step/wall', h5py.SoftLink(t.name + '/step/makespan')))
PY
named() {  # named PATTERN WHAT FILE: the last command's message (in FILE) matches PATTERN
  grep -q -E "$1" "$3" || { echo "hostile_archives: $2: no message naming $1"; cat "$3"; exit 1; }
}
# Each case, and what the message must name.
for case in short_column:step/makespan negative_rows:step_rows text_code:attr_texts.*balancer \
    number_text:attr_numbers.*efficiency present_stray:attr_present.*nonesuch \
    both_kinds:attr_texts.*efficiency id_not_text:run_id duplicate:run-00000-none \
    soft_table:t-00001.*soft.link soft_column:step/wall.*soft.link; do
  f=${case%%:*} names=${case#*:}
  before=$(md5sum $f.h5)
  expect_exit 2 "$lbbench" show $f.h5
  named "$names" "show $f.h5" err.txt
  expect_exit 2 "$lbbench" run "$cfg" -o $f.h5
  named "$names" "run -o $f.h5" err.txt
  expect_exit 1 /usr/bin/python3 "$check_archive" "$lbbench" $f.h5 3
  named "^check_archive: .*($names)" "check_archive.py $f.h5" out.txt
  [ "$(md5sum $f.h5)" = "$before" ] || { echo "hostile_archives: $f.h5 changed"; exit 1; }
  [ ! -e $f.h5.lbbench-tmp ] && [ ! -e $f.h5.lbbench-lock ]
done
echo "hostile_archives: OK"
