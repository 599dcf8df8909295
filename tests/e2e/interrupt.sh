#!/usr/bin/env bash
# Ctrl-C and SIGTERM during `lbbench run`: exit 128 + the signal, one line saying how many runs
# were written (the one in flight among them, as failed) and the command that resumes; the set
# then holds exactly that many runs, and running that command completes it.
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
  resume=$(echo "$line" | sed -n 's/.*`\(lbbench run [^`]*\)` runs the rest$/\1/p')
  [ "$resume" = "lbbench run configs/smoke.yaml -o $set_dir --set 'execution.steps=300' --repetitions 100 --resume" ] ||
    { echo "FAIL: SIG$sig: resume command: $resume"; fails=$((fails + 1)); }
done
"$lbbench" run configs/smoke.yaml -o "$tmp/set-INT" --set execution.steps=300 --repetitions 100 \
  --resume > /dev/null 2>&1 || { echo "FAIL: resume"; fails=$((fails + 1)); }
# The run in flight was kept as failed (interrupted) and resumed: 300 complete runs.
complete=$("$lbbench" show "$tmp/set-INT" | grep -c "  complete  ")
[ "$complete" -eq 300 ] || { echo "FAIL: $complete complete runs, want 300"; fails=$((fails + 1)); }
echo "interrupt: $fails failures"
[ "$fails" -eq 0 ]
