#!/usr/bin/env bash
# `lbbench balance` prints one JSON object (Horton 1993's T2 here) and refuses bad input with exit 2.
set -uo pipefail
lbbench=$1
fails=0
out=$("$lbbench" balance --method multilevel --topology chain --loads 16,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0)
python3 - "$out" <<'PY' || fails=$((fails + 1))
import json, sys
d = json.loads(sys.argv[1])
assert len(d["phases"]) == 4, d["phases"]
assert d["final_loads"] == [1] * 16, d["final_loads"]
assert d["imbalance"] == 0
assert d["phases"][0]["transfers"] == [{"from": 7, "to": 8, "units": 8}]
assert all(abs(t["from"] - t["to"]) == 1 for p in d["phases"] for t in p["transfers"])
PY
. "$(dirname "$0")/lib/expect.sh"
expect 2 "no unit-level form" -- "$lbbench" balance --method redistribution --topology chain --loads 1,2
expect 2 "'x' is not a non-negative integer" -- "$lbbench" balance --method multilevel --topology chain --loads 1,x
expect 2 "unknown topology 'torus'" -- "$lbbench" balance --method multilevel --topology torus --loads 1,2
expect 2 "unknown parameter 'foo'" -- "$lbbench" balance --method random --topology chain --loads 1,2 --param foo=1
expect 2 "1 speeds for 2 processors" -- "$lbbench" balance --method random --topology chain --loads 1,2 --speeds 2
expect 2 "required" -- "$lbbench" balance --method multilevel --topology chain
echo "balance: $fails failures"
[ "$fails" -eq 0 ]
