#!/usr/bin/env bash
# What cannot fit in this machine's memory is refused up front with exit 2, before anything is
# written: a UTS tree whose expected widest levels outgrow it (validate and run), and a
# diffusion_horton plan whose phases could (balance; 50,000 loads ended in std::bad_alloc).
set -uo pipefail
lbbench=$1
. "$(dirname "$0")/lib/scratch.sh"
fails=0
. "$(dirname "$0")/lib/expect.sh"
# Geometric, fixed shape: 100 children a node down to depth 10, about 10^20 nodes expected.
cat > "$tmp/tree.yaml" <<'YAML'
name: huge_tree
workload: { kind: tree_search, t: 1, a: 3, b: 100, d: 10 }
platform: { processors: 2, topology: mesh2d }
balancers: [ { dynamic: none } ]
YAML
need="tree_search needs about .* GiB for its state at these parameters, more than this machine's"
expect 2 "$need" -- "$lbbench" validate "$tmp/tree.yaml"
expect 2 "$need" -- "$lbbench" run "$tmp/tree.yaml" -o "$tmp/tree.h5"
[ -e "$tmp/tree.h5" ] && { echo "FAIL: a refused run wrote $tmp/tree.h5"; fails=$((fails + 1)); }
ls "$tmp" | grep -q lbbench && { echo "FAIL: a refused run left files: $(ls "$tmp")"; fails=$((fails + 1)); }
# The same tree at depth 4 (about 10^8 nodes expected, a few GiB) is not refused by validate.
"$lbbench" validate "$tmp/tree.yaml" --set workload.b=4 > /dev/null 2>&1 ||
  { echo "FAIL: a small tree was refused"; fails=$((fails + 1)); }
loads=$(/usr/bin/python3 -c 'print(",".join(str(i % 10) for i in range(50000)))')
expect 2 "diffusion_horton may keep up to 100000 transfer phases of 50000 loads.*--param max_phases=N" \
  -- "$lbbench" balance --method diffusion_horton --topology chain --loads "$loads"
out=$("$lbbench" balance --method diffusion_horton --topology chain --loads "$loads" \
  --param max_phases=3) || { echo "FAIL: max_phases=3 was refused"; fails=$((fails + 1)); }
echo "$out" | /usr/bin/python3 -c 'import json,sys; d=json.load(sys.stdin); assert len(d["phases"]) == 3' ||
  { echo "FAIL: max_phases=3 did not print 3 phases"; fails=$((fails + 1)); }
echo "memory_refusal: $fails failures"
[ "$fails" -eq 0 ]
