#!/usr/bin/env bash
# The README's --set examples, each taken from its text, are accepted on the config it shows
# (configs/default.yaml), so they cannot rot; a --set with a typo is reported at that --set,
# never at a line of the config file.
set -uo pipefail
lbbench=$1
fails=0
. "$(dirname "$0")/lib/expect.sh"
mapfile -t examples < <(/usr/bin/python3 - README.md <<'PY'
import re, shlex, sys
text = open(sys.argv[1]).read()
for arg in re.findall(r"`--set ([^`]+)`", text):
    print(*shlex.split(arg))  # the README's quoting, as a shell reads it
PY
)
[ "${#examples[@]}" -ge 2 ] || { echo "readme_examples: FAIL: found ${#examples[@]} --set examples"; exit 1; }
for example in "${examples[@]}"; do
  err=$("$lbbench" validate configs/default.yaml --set "$example" 2>&1 > /dev/null) ||
    { echo "FAIL: the README's --set '$example' on configs/default.yaml: $err"; fails=$((fails + 1)); }
done
# Typos inside a --set, each reported at the --set that holds it.
expect 2 "^--set workload.sd=\[0.5,2\]: 'sd' must index a list: workload is a list of 4 \(workload.0.sd is its first's\)" -- \
  "$lbbench" validate configs/default.yaml --set 'workload.sd=[0.5,2]'
expect 2 "^--set execution.stepz=3: unknown key 'stepz'" -- \
  "$lbbench" validate configs/default.yaml --set execution.stepz=3
expect 2 "^--set platform=\{processors: 4, topologi: chain\}: unknown key 'topologi'" -- \
  "$lbbench" validate configs/default.yaml --set 'platform={processors: 4, topologi: chain}'
expect 2 "^--set workload.0.sd=\[0.5,2: " -- \
  "$lbbench" validate configs/default.yaml --set 'workload.0.sd=[0.5,2'
echo "readme_examples: $fails failures"
[ "$fails" -eq 0 ]
