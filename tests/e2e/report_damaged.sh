#!/usr/bin/env bash
# lbbench report on result sets a user really ends up with: one repetition, a failed run, a run
# killed before it ended, every run failed. Each still gives a report (exit 0) that says what is
# missing.
set -euo pipefail
lbbench=$1
. "$(dirname "$0")/lib/scratch.sh"
"$lbbench" run configs/smoke.yaml -o "$tmp/one" > /dev/null  # smoke: 1 repetition
first=$(/usr/bin/python3 -c 'import sys; sys.path.insert(0, "report")
from lbbench_report.results import read_set
print(min(read_set(sys.argv[1]).runs.run))' "$tmp/one")  # the run degrade_set.py damages
for how in failed killed allfail; do
  cp -r "$tmp/one" "$tmp/$how"
  /usr/bin/python3 tests/e2e/degrade_set.py "$tmp/$how" "$how"
done
report() {  # SET: writes $tmp/<name>_page/index.html and prints its "What is missing" items
  local name
  name=$(basename "$1")
  "$lbbench" report "$1" --out "$tmp/${name}_page" > /dev/null
  /usr/bin/python3 -c 'import html,re,sys; p=open(sys.argv[1]).read()
print("\n".join(html.unescape(i) for i in re.findall(r"<li>(.*?)</li>", p)))' \
    "$tmp/${name}_page/index.html" > "$tmp/$name.items"
}
report "$tmp/one"
grep -q "Few repetitions:.*fewer than two repetitions give no interval" "$tmp/one.items"
/usr/bin/python3 tests/e2e/check_report.py "$tmp/one" "$tmp/one_page"
report "$tmp/failed"
grep -F "$first (" "$tmp/failed.items" | grep -q "failed: injected by degrade_set.py" ||
  { cat "$tmp/failed.items"; exit 1; }
/usr/bin/python3 tests/e2e/check_report.py "$tmp/failed" "$tmp/failed_page"
report "$tmp/killed"
grep -qF "1 runs began but have not ended (killed, or still running; e.g. $first)" \
  "$tmp/killed.items" || { cat "$tmp/killed.items"; exit 1; }
/usr/bin/python3 tests/e2e/check_report.py "$tmp/killed" "$tmp/killed_page"
report "$tmp/allfail"
[ "$(grep -c 'failed: injected' "$tmp/allfail.items")" -eq 3 ] || { cat "$tmp/allfail.items"; exit 1; }
grep -q "No complete run (verified, or simulated)" "$tmp/allfail.items"
echo "report_damaged: OK"
