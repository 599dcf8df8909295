#!/usr/bin/env bash
# Ctrl-C and SIGTERM during `lbbench run`: exit 128 + the signal, one line saying how many runs
# were written (the one in flight among them, as failed, or that none was in flight) and the command
# that resumes; the set then holds exactly that many runs, and running that command completes it,
# its table counting the resumed run instead of the interrupted one.
set -uo pipefail
lbbench=$1
. "$(dirname "$0")/lib/scratch.sh"
fails=0
for sig in INT TERM; do
  set_dir=$tmp/set-$sig
  LBB_RESULTS_PART_SECONDS=1000 "$lbbench" run configs/smoke.yaml --set execution.steps=300 \
    --repetitions 100 -o "$set_dir" > /dev/null 2> "$tmp/err-$sig.txt" &
  pid=$!
  for _ in $(seq 600); do  # until a run has ended (a sanitizer build is slow), 60 s at most
    grep -q ", verified, ETA" "$tmp/err-$sig.txt" 2> /dev/null && break
    sleep 0.1
  done
  kill -"$sig" "$pid"
  wait "$pid"; rc=$?
  want=$((128 + $(kill -l "$sig")))
  [ "$rc" -eq "$want" ] || { echo "FAIL: SIG$sig: exit $rc, want $want"; fails=$((fails + 1)); }
  line=$(grep "^lbbench: interrupted (SIG$sig): " "$tmp/err-$sig.txt")
  written=$(echo "$line" | sed -n 's/.*: \([0-9]*\) runs written to .*/\1/p')
  [ -n "$written" ] && [ "$written" -gt 0 ] || { echo "FAIL: SIG$sig: no count"; cat "$tmp/err-$sig.txt"; fails=$((fails + 1)); continue; }
  "$lbbench" show "$set_dir" | grep -q "^$written runs of 1 invocations in 1 parts" ||
    { echo "FAIL: SIG$sig: the set does not hold $written runs"; fails=$((fails + 1)); }
  # The line says whether a run was in flight; the set holds a failed run exactly when it does.
  failed=$("$lbbench" show "$set_dir" | grep -c "  failed  ")
  case "$line" in
    *"the run in flight among them as failed"*) want_failed=1 ;;
    *"(no run was in flight)"*) want_failed=0 ;;
    *) want_failed=x ;;
  esac
  [ "$failed" = "$want_failed" ] ||
    { echo "FAIL: SIG$sig: '$line' but $failed failed runs"; fails=$((fails + 1)); }
  resume=$(echo "$line" | sed -n 's/.*`\(lbbench run [^`]*\)` runs the rest$/\1/p')
  [ "$resume" = "lbbench run configs/smoke.yaml -o $set_dir --set 'execution.steps=300' --repetitions 100 --resume" ] ||
    { echo "FAIL: SIG$sig: resume command: $resume"; fails=$((fails + 1)); }
done
"$lbbench" run configs/smoke.yaml -o "$tmp/set-INT" --set execution.steps=300 --repetitions 100 \
  --resume > /dev/null 2>&1 || { echo "FAIL: resume"; fails=$((fails + 1)); }
# The run in flight was kept as failed (interrupted) and resumed: 300 complete runs.
complete=$("$lbbench" show "$tmp/set-INT" | grep -c "  complete  ")
[ "$complete" -eq 300 ] || { echo "FAIL: $complete complete runs, want 300"; fails=$((fails + 1)); }
# A resumed run stands for its interrupted attempt: the table shows no FAILED row.
"$lbbench" table "$tmp/set-INT" > "$tmp/table.txt" 2>&1
grep -q "FAILED" "$tmp/table.txt" &&
  { echo "FAIL: the resumed set's table shows FAILED"; cat "$tmp/table.txt"; fails=$((fails + 1)); }
grep -q "^verified: block_substitution: every repetition" "$tmp/table.txt" ||
  { echo "FAIL: the resumed set's table does not say every repetition verified"; fails=$((fails + 1)); }
# interrupted: 1 on the interrupted runs, 0 on every other (never the fill -1): sums to the failed.
if /usr/bin/python3 -c "import h5py" 2> /dev/null; then
  sums=$(/usr/bin/python3 - "$tmp/set-INT" << 'PY'
import glob, sys, h5py
values = []
for part in sorted(glob.glob(sys.argv[1] + "/*.h5")):
    with h5py.File(part, "r") as f:
        values += list(f["runs/interrupted"][()])
print(sum(v == 1 for v in values), sum(v == 0 for v in values), len(values))
PY
)
  read -r ones zeros total <<< "$sums"
  [ "$((ones + zeros))" -eq "$total" ] && [ "$ones" -le 1 ] ||
    { echo "FAIL: interrupted: $ones ones, $zeros zeros of $total runs"; fails=$((fails + 1)); }
else
  echo "note: no h5py in /usr/bin/python3: the interrupted column not read"
fi
echo "interrupt: $fails failures"
[ "$fails" -eq 0 ]
