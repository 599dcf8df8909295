#!/usr/bin/env bash
# Behaviour kept across executor changes: the deterministic configs of tests/golden/ (static
# assignments, a two-phase workload, in-step static schedules, tree levels assigned from
# predicted costs) run through `lbbench run`, and their checksums, assignments, migrations and
# step metrics must equal tests/golden/engine_behaviour.txt, written by the build before the
# executors became classes of harness/exec/. Regenerate only for an intended change:
#   tests/e2e/engine_behaviour.sh build/lbbench --update
set -euo pipefail
lbbench=$1
. "$(dirname "$0")/lib/scratch.sh"
archives=()
for name in chain trfd nbody matmul tree; do
  "$lbbench" run "tests/golden/$name.yaml" -o "$tmp/$name" > "$tmp/$name.out" 2>&1 ||
    { cat "$tmp/$name.out"; exit 1; }
  archives+=("$tmp/$name")
done
/usr/bin/python3 tests/e2e/dump_behaviour.py "${archives[@]}" > "$tmp/behaviour.txt"
if [ "${2:-}" = "--update" ]; then
  cp "$tmp/behaviour.txt" tests/golden/engine_behaviour.txt
  echo "engine_behaviour: golden file written"
  exit 0
fi
diff -u tests/golden/engine_behaviour.txt "$tmp/behaviour.txt" ||
  { echo "engine_behaviour: runs differ from the golden file"; exit 1; }
echo "engine_behaviour: $(grep -c '^== ' "$tmp/behaviour.txt") runs as before"
