#!/usr/bin/env bash
# execution.record (issue 52): each level writes exactly its tables and every coarser one's, the
# runs table says which; auto is the executor's default; an unknown level is refused where it
# stands; module_detail reads as its old form with a warning; and the readers of a table a run
# did not write say so (export, simulate --replay, the report).
set -euo pipefail
lbbench=$1
. "$(dirname "$0")/lib/scratch.sh"
fail() { echo "record_levels: $1"; cat "${@:2}" 2> /dev/null; exit 1; }
py=/usr/bin/python3
$py -c 'import h5py' 2> /dev/null || { echo "skip: no python3-h5py"; exit 77; }
small=(--set execution.steps=3 --set execution.warmup=0 -q)

# rows of each table and the runs' record column, over the set's parts: "runs=1 steps=3 ... record=steps"
tables() {
  $py - "$1" << 'EOF'
import glob, sys
import h5py
rows, record = {}, set()
for part in sorted(glob.glob(sys.argv[1] + "/*.h5")):
    with h5py.File(part, "r") as f:
        for t in ("runs", "steps", "procs", "modules"):
            g = f[t]
            rows[t] = rows.get(t, 0) + (len(g["run"]) if "run" in g else 0)
        record |= {v.decode() for v in f["runs/record"][:]}
print(" ".join(f"{t}={rows[t]}" for t in ("runs", "steps", "procs", "modules")),
      "record=" + ",".join(sorted(record)))
EOF
}

# Each level on threads (bsp): smoke's one workload, 2 processors, 3 steps, one entry.
one=(--set 'balancers=[{static: block}]')
expect_tables() {  # level, expected line
  "$lbbench" run configs/smoke.yaml -o "$tmp/$1" "${small[@]}" "${one[@]}" \
    --set execution.record="$1" > /dev/null 2> "$tmp/err.txt" || fail "record: $1 failed" "$tmp/err.txt"
  got=$(tables "$tmp/$1")
  [ "$got" = "$2" ] || fail "record: $1 wrote '$got', not '$2'"
}
P=$(sed -n 's/^platform: { processors: \([0-9]*\).*/\1/p' configs/smoke.yaml)
expect_tables runs "runs=1 steps=0 procs=0 modules=0 record=runs"
expect_tables steps "runs=1 steps=3 procs=0 modules=0 record=steps"
expect_tables procs "runs=1 steps=3 procs=$((3 * P)) modules=0 record=procs"
"$lbbench" run configs/smoke.yaml -o "$tmp/modules" "${small[@]}" "${one[@]}" \
  --set execution.record=modules > /dev/null 2> "$tmp/err.txt" || fail "record: modules failed" "$tmp/err.txt"
got=$(tables "$tmp/modules")
[[ "$got" =~ ^runs=1\ steps=3\ procs=$((3 * P))\ modules=([0-9]+)\ record=modules$ ]] ||
  fail "record: modules wrote '$got'"
[ "${BASH_REMATCH[1]}" -gt 0 ] && [ $((BASH_REMATCH[1] % 3)) -eq 0 ] ||
  fail "record: modules wrote ${BASH_REMATCH[1]} module rows for 3 steps"

# auto: procs on threads, steps in the simulator (iqbal1986's synthetic costs, one run).
"$lbbench" run configs/smoke.yaml -o "$tmp/auto" "${small[@]}" "${one[@]}" --set execution.record=auto \
  > /dev/null 2>&1
[ "$(tables "$tmp/auto")" = "runs=1 steps=3 procs=$((3 * P)) modules=0 record=procs" ] ||
  fail "auto on bsp wrote '$(tables "$tmp/auto")'"
"$lbbench" run configs/papers/iqbal1986.yaml -o "$tmp/sim" "${small[@]}" \
  --set 'workload={kind: synthetic, modules: 16, sd: 1.0, dependencies: chain, seed: 1}' \
  --set 'balancers=[{static: block}]' --set execution.record=auto > /dev/null 2> "$tmp/err.txt" ||
  fail "simulate failed" "$tmp/err.txt"
[ "$(tables "$tmp/sim")" = "runs=1 steps=3 procs=0 modules=0 record=steps" ] ||
  fail "auto on simulate wrote '$(tables "$tmp/sim")'"

# An unknown level: file:line:column, exit 2, nothing run.
sed 's/record: modules/record: everything/' configs/smoke.yaml > "$tmp/bad.yaml"
set +e
"$lbbench" validate "$tmp/bad.yaml" > /dev/null 2> "$tmp/bad_err.txt"
rc=$?
set -e
[ "$rc" -eq 2 ] || fail "record: everything: exit $rc, not 2" "$tmp/bad_err.txt"
line=$(grep -n 'record: everything' "$tmp/bad.yaml" | cut -d: -f1)
grep -Eq "$tmp/bad.yaml:$line:[0-9]+: record must be one of auto runs steps procs modules, got 'everything'" \
  "$tmp/bad_err.txt" || fail "record: everything: no file:line:column message" "$tmp/bad_err.txt"

# module_detail, record's old form: true is record: modules, with the warning where it stands.
sed 's/record: modules/module_detail: true/' configs/smoke.yaml > "$tmp/old.yaml"
"$lbbench" run "$tmp/old.yaml" -o "$tmp/old" "${small[@]}" "${one[@]}" > /dev/null 2> "$tmp/old_err.txt" ||
  fail "module_detail: true refused" "$tmp/old_err.txt"
line=$(grep -n 'module_detail: true' "$tmp/old.yaml" | cut -d: -f1)
grep -Eq "^lbbench: $tmp/old.yaml:$line:[0-9]+: execution.module_detail is deprecated; use execution.record" \
  "$tmp/old_err.txt" || fail "no warning for module_detail" "$tmp/old_err.txt"
[[ "$(tables "$tmp/old")" == *" record=modules" ]] || fail "module_detail: true wrote '$(tables "$tmp/old")'"
set +e
"$lbbench" validate "$tmp/old.yaml" --set execution.record=steps > /dev/null 2> "$tmp/both.txt"
rc=$?
set -e
[ "$rc" -eq 2 ] && grep -q "execution.module_detail and execution.record both given" "$tmp/both.txt" ||
  fail "module_detail and record both given: exit $rc" "$tmp/both.txt"

# Readers of a table the runs did not write say which level they need.
"$lbbench" export "$tmp/steps" --to "$tmp/csv" > "$tmp/export.txt" 2>&1 || fail "export failed" "$tmp/export.txt"
grep -q "procs.csv: 0 rows (none of the 1 runs recorded coarser than execution.record: procs)" \
  "$tmp/export.txt" || fail "export did not say why procs.csv is empty" "$tmp/export.txt"
set +e
"$lbbench" export "$tmp/procs" --to "$tmp/vt" --format vt > /dev/null 2> "$tmp/vt_err.txt"
rc=$?
set -e
[ "$rc" -ne 0 ] && grep -q "execution.record: modules" "$tmp/vt_err.txt" ||
  fail "export --format vt of a procs set: exit $rc" "$tmp/vt_err.txt"
"$lbbench" simulate --replay "$tmp/procs" > "$tmp/replay.txt" 2>&1 || true
grep -q "recorded at execution.record: procs, which writes no modules table" "$tmp/replay.txt" ||
  fail "simulate --replay of a procs set did not say why" "$tmp/replay.txt"
if $py -c 'import pandas, matplotlib' 2> /dev/null; then
  "$lbbench" report "$tmp/runs" --out "$tmp/report" > /dev/null 2> "$tmp/report_err.txt" ||
    fail "report of a runs set failed" "$tmp/report_err.txt"
  grep -q "recorded at execution.record: runs, which writes no steps table" "$tmp/report/index.html" ||
    fail "the report did not say why the step figure is missing" "$tmp/report/index.html"
fi
echo "record_levels: ok"
