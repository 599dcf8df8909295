#!/usr/bin/env bash
# lbbench report on archives a user really ends up with: one repetition, a failed run, a run
# cut short, every run failed. Each still gives a report (exit 0) that says what is missing.
set -euo pipefail
lbbench=$1
. "$(dirname "$0")/lib/scratch.sh"
"$lbbench" run configs/smoke.yaml -o "$tmp/one.h5" > /dev/null  # smoke: 1 repetition
for how in failed partial allfail; do
  cp "$tmp/one.h5" "$tmp/$how.h5"
  /usr/bin/python3 tests/e2e/degrade_archive.py "$tmp/$how.h5" "$how"
done
report() {  # ARCHIVE: writes $tmp/<name>/index.html and prints its "What is missing" items
  local name
  name=$(basename "$1" .h5)
  "$lbbench" report "$1" --out "$tmp/$name" > /dev/null
  /usr/bin/python3 -c 'import re,sys; p=open(sys.argv[1]).read()
print("\n".join(re.findall(r"<li>(.*?)</li>", p)))' "$tmp/$name/index.html" > "$tmp/$name.items"
}
report "$tmp/one.h5"
grep -q "Few repetitions:.*fewer than two repetitions give no interval" "$tmp/one.items"
/usr/bin/python3 tests/e2e/check_report.py "$tmp/one.h5" "$tmp/one"
report "$tmp/failed.h5"
grep -q "run-00000-none.*failed: injected by degrade_archive.py" "$tmp/failed.items"
/usr/bin/python3 tests/e2e/check_report.py "$tmp/failed.h5" "$tmp/failed"
report "$tmp/partial.h5"
grep -q "run-00000-none.*partial, 3 of 12 steps recorded" "$tmp/partial.items"
/usr/bin/python3 tests/e2e/check_report.py "$tmp/partial.h5" "$tmp/partial"
report "$tmp/allfail.h5"
[ "$(grep -c 'failed: injected' "$tmp/allfail.items")" -eq 3 ] || { cat "$tmp/allfail.items"; exit 1; }
grep -q "No complete, verified run" "$tmp/allfail.items"
echo "report_damaged: OK"
