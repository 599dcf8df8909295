#!/usr/bin/env bash
# End to end: Franklin & Govindan 1995's Table 5 in the paper's setting as a user runs it, shortened
# to 10 iterations (2 repetitions asked, 1 run: nothing varies between them):
# configs/papers/franklin1995_network_record.yaml records module costs on real threads,
# configs/papers/franklin1995_network.yaml replays them on simulated workstations of unequal speed
# with network charges (migrations and the exchange of bodies), and `lbbench expect` finds runs
# for every row, each order by value and saying it is that of the one recording replayed; a
# speed pool shorter than a run's processors is refused, exit 2.
set -euo pipefail
lbbench=$1
. "$(dirname "$0")/lib/scratch.sh"
"$lbbench" run configs/papers/franklin1995_network_record.yaml --set execution.steps=10 \
  -o "$tmp/rec" > "$tmp/rec.txt"
config=configs/papers/franklin1995_network.yaml
"$lbbench" run "$config" --set execution.steps=10 --set execution.repetitions=2 \
  --set "execution.replay_set=$tmp/rec" -o "$tmp/net" > "$tmp/run.txt"
"$lbbench" expect "$config" "$tmp/net" > "$tmp/out.txt"
check() { grep -qE "$1" "$2" || { echo "missing: $1"; cat "$2"; exit 1; }; }
# One run a row: a simulated config runs one repetition whatever repetitions says (7ddfe1f).
check '^T5 n=16 redistribution +makespan_total +[0-9.]+ .*\(1\) +2.75 ' "$tmp/out.txt"
check '^T5 n=2 ideal +ideal_total .*context: ideal balance' "$tmp/out.txt"
check ', 0 without runs, 0 not built; not counted: 4 context, 0 open choices$' "$tmp/out.txt"
check "^T5 n=4 random .*order [a-z]+ \(exact; the order of one recording, $tmp/rec\)" "$tmp/out.txt"
runs=(/usr/bin/python3 tests/e2e/result_runs.py)
mapfile -t ids < <("${runs[@]}" ids "$tmp/net")
[ "$("${runs[@]}" attr "$tmp/net" "${ids[0]}" executor)" = simulate ] || { echo "not simulated"; exit 1; }
[ "$("${runs[@]}" attr "$tmp/net" "${ids[0]}" sim_exchange_all)" = 1.0 ] || { echo "no exchange"; exit 1; }
set +e
. "$(dirname "$0")/lib/expect.sh"
sed 's/0.5, 0.5, 0.5, 0.5\]/0.5]/' "$config" > "$tmp/short.yaml"
expect 2 "short.yaml:[0-9]+:[0-9]+: speed_pool has 13 values for 16 processors" -- \
  "$lbbench" run "$tmp/short.yaml" -o "$tmp/no"
[ ! -e "$tmp/no" ] || { echo "a refused run wrote an archive"; fails=$((fails + 1)); }
# A recording from elsewhere whose speeds are not its processors' count of positive numbers:
# every run fails with that message (exit 1, as for a recording that lacks the run).
cp -r "$tmp/rec" "$tmp/bad"
/usr/bin/python3 - "$tmp/bad" <<'PY'
import glob, sys, h5py, numpy as np
sys.path.insert(0, "report")
from lbbench_report.results import seal
for part in glob.glob(sys.argv[1] + "/*.h5"):
    with h5py.File(part, "r+") as f:
        n = len(f["runs/speeds"])
        del f["runs/speeds"]
        f["runs/speeds"] = np.array([b"1,abc,-2"] * n, dtype="S8")
    seal(part)
PY
expect 1 "speeds '1,abc,-2' are not its processors' count of positive numbers" -- \
  "$lbbench" run "$config" --set execution.steps=10 --set execution.repetitions=1 \
  --set "execution.replay_set=$tmp/bad" -o "$tmp/bad_out"
echo "franklin1995_network: $fails failures"
[ "$fails" -eq 0 ]
