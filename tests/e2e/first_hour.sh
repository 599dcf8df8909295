#!/usr/bin/env bash
# A researcher's first hour (issue 34): progress lines with an ETA in a log file (a Slurm job's
# stderr) and none under --quiet; OMP_NUM_THREADS named when it is not what runs; the compact
# table (rows under 120 characters, verification once per workload) and --wide; --baseline, and
# --only that keeps the ratio to a baseline it leaves out; speeds and external load that follow
# the processor count.
set -euo pipefail
lbbench=$1
. "$(dirname "$0")/lib/scratch.sh"
fail() { echo "first_hour: $1"; cat "${@:2}"; exit 1; }

# stderr is a file here, not a terminal: one line per run, each with an ETA.
OMP_NUM_THREADS=3 "$lbbench" run configs/smoke.yaml -o "$tmp/set" > "$tmp/out.txt" 2> "$tmp/err.txt"
[ "$(grep -cE '^\[[1-3]/3\] block_substitution P=4 .* verified, ETA [0-9]+s$' "$tmp/err.txt")" -eq 3 ] ||
  fail "no progress line per run" "$tmp/err.txt"
grep -q "^note: OMP_NUM_THREADS=3 is not used: each run starts platform.processors threads (here 4)" \
  "$tmp/err.txt" || fail "no OMP_NUM_THREADS note" "$tmp/err.txt"
OMP_NUM_THREADS=4 "$lbbench" run configs/smoke.yaml --no-write --quiet > /dev/null 2> "$tmp/quiet.txt"
! grep -qE 'ETA|OMP_NUM_THREADS' "$tmp/quiet.txt" || fail "--quiet printed progress" "$tmp/quiet.txt"

# Compact by default: every row under 120 characters, one verification line for the workload.
"$lbbench" table "$tmp/set" > "$tmp/table.txt" 2> /dev/null
rows=$(grep -c '^block_substitution ' "$tmp/table.txt" || true)
[ "$rows" -eq 3 ] || fail "not 3 rows" "$tmp/table.txt"
awk '/^block_substitution / && length($0) >= 120 { exit 1 }' "$tmp/table.txt" ||
  fail "a row of 120 characters or more" "$tmp/table.txt"
grep -qx "verified: block_substitution: every repetition of its 3 rows matched its reference" \
  "$tmp/table.txt" || fail "no verification line" "$tmp/table.txt"
"$lbbench" table "$tmp/set" --wide > "$tmp/wide.txt" 2> /dev/null
[ "$(grep -cE '^block_substitution .* yes$' "$tmp/wide.txt")" -eq 3 ] || fail "--wide" "$tmp/wide.txt"

# --baseline names the row of the ratios; --only keeps the ratio to a baseline it leaves out.
"$lbbench" table "$tmp/set" --baseline block --only cyclic > "$tmp/only.txt" 2> /dev/null
grep -qE ' vs block +binds +verdict$' "$tmp/only.txt" || fail "no ratio to block" "$tmp/only.txt"
grep -qE '^block_substitution +4  .cyclic .* [0-9.]+ \[[0-9.]+,[0-9.]+\]  ' "$tmp/only.txt" ||
  fail "cyclic has no ratio" "$tmp/only.txt"
[ "$(grep -c '^block_substitution ' "$tmp/only.txt")" -eq 1 ] || fail "--only" "$tmp/only.txt"
"$lbbench" table "$tmp/set" --baseline block --format json > "$tmp/rows.json" 2> /dev/null
/usr/bin/python3 -c "
import json, sys
rows = {r['label']: r for r in json.load(open(sys.argv[1]))}
assert all(r['baseline'] == 'block' for r in rows.values()), rows
assert rows['block']['ratio_to_baseline'] == 1.0 and rows['cyclic']['ratio_to_baseline'] > 0
" "$tmp/rows.json"

# The last processor at half speed at P = 2 and 4: one config, the speeds that ran archived.
"$lbbench" run configs/smoke.yaml -o "$tmp/slow" --quiet --only none \
  --set 'platform.processors=[2,4]' --set platform.speeds=last:0.5 > /dev/null 2>&1
/usr/bin/python3 - "$tmp/slow" <<'PY'
import glob, sys, h5py
speeds = []
for part in sorted(glob.glob(f"{sys.argv[1]}/*.h5")):
    with h5py.File(part) as f:
        speeds += [c for c in f["runs"]["config_yaml"].asstr()[:]]
got = sorted(line.strip() for c in speeds for line in c.splitlines() if "speeds" in line)
assert got == ["speeds: [1, 0.5]", "speeds: [1, 1, 1, 0.5]"], got
PY
# Transient external load on the last processor only (P = 3): its emulated load level is above
# 0 in every step, the others' 0; each processor's m is archived beside its speed, and the
# report's platform line names the loaded processors.
"$lbbench" run configs/smoke.yaml -o "$tmp/loaded" --quiet --only none \
  --set platform.processors=3 --set platform.external_load=last:1.0 \
  --set platform.load_persist_s=0.001 > /dev/null 2>&1
/usr/bin/python3 - "$tmp/loaded" <<'PY'
import glob, sys, h5py, pandas as pd
def table(name):
    return pd.concat(pd.DataFrame({c: v.asstr()[:] if v.dtype.kind == "S" else v[:]
                                   for c, v in h5py.File(p)[name].items()})
                     for p in sorted(glob.glob(sys.argv[1] + "/*.h5")))
runs, procs = table("runs"), table("procs")
assert list(runs.external_load_max) == ["0,0,1"], list(runs.external_load_max)
assert "external_load: last:1.0" in runs.config_yaml.iloc[0], runs.config_yaml.iloc[0]
load = procs.groupby("proc").external_load
assert (load.max()[[0, 1]] == 0).all() and (load.min()[2] > 0), load.describe()
PY
"$lbbench" report "$tmp/loaded" --out "$tmp/loaded_page" > /dev/null 2>&1
grep -q "external load: up to 1.0 on last, none elsewhere, each level lasting 0.001 s" \
  "$tmp/loaded_page/index.html" || fail "the report does not say which processors are loaded" /dev/null
"$lbbench" list > "$tmp/list.txt"  # to a file: grep -q would end a pipe early (SIGPIPE)
grep -q "^      external_load (number or pattern, default 0, range \[0, 1000\])" "$tmp/list.txt" ||
  fail "list does not say external_load takes a pattern" /dev/null

set +e  # expect counts failures itself
. "$(dirname "$0")/lib/expect.sh"
expect 2 "--baseline nosuch: no balancer has that label \(labels: block, cyclic, none\)" -- \
  "$lbbench" table "$tmp/set" --baseline nosuch
expect 2 "--baseline nosuch: no balancer has that label" -- \
  "$lbbench" run configs/smoke.yaml --no-write --baseline nosuch
expect 2 "^--set platform.speeds=last3:0.5: speeds 'last3:0.5' names 3 processors of 2$" -- \
  "$lbbench" validate configs/smoke.yaml --set 'platform.processors=[2,4]' \
  --set platform.speeds=last3:0.5
expect 2 "^--set platform.external_load=first3:1: external_load 'first3:1' names 3 processors of 2$" -- \
  "$lbbench" validate configs/smoke.yaml --set 'platform.processors=[2,4]' \
  --set platform.external_load=first3:1
[ "$fails" -eq 0 ] || exit 1
echo "first_hour: OK"
