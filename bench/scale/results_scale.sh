#!/usr/bin/env bash
# The result store at scale (issue "Results anyone can read", item 8), on this machine:
#   bench/scale/results_scale.sh [LBBENCH] [SCRATCH]
# 1. bench/scale/sim_runs.yaml: 100,000 simulated runs, each well under a millisecond, into one
#    set: the parts written, the set's size, the CPU time and the writer's share of it (--costs).
# 2. The README's pandas recipe loading that set's runs table (then runs and steps), timed.
# 3. lbbench table on the set, timed.
# Every figure is printed with the 1-minute load average beside it.
set -euo pipefail
lbbench=${1:-build/lbbench}
scratch=${2:-$(mktemp -d)}
mkdir -p "$scratch"
set_dir=$scratch/sim_runs
load() { cut -d' ' -f1 /proc/loadavg; }
rm -rf "$set_dir"
start=$(date +%s.%N)
"$lbbench" run bench/scale/sim_runs.yaml -o "$set_dir" --costs > /dev/null 2> "$scratch/costs.txt"
wall=$(echo "$(date +%s.%N) - $start" | bc)
echo "sweep: 100000 runs in $wall s wall (load $(load)); $(ls "$set_dir" | wc -l) parts, $(du -sh "$set_dir" | cut -f1)"
grep -E "^CPU time|archive:" "$scratch/costs.txt"
for tables in '"runs"' '"runs", "steps"'; do
  /usr/bin/time -f "%e s wall, %U+%S s CPU, %M KB peak" /usr/bin/python3 - "$set_dir" "$tables" <<'PY' 2>&1 | tr '\n' ' '
import glob, sys, h5py, pandas as pd
def table(name, d=sys.argv[1]):
    return pd.concat(pd.DataFrame({c: v.asstr()[:] if v.dtype.kind == "S" else v[:] for c, v in h5py.File(p)[name].items()}) for p in sorted(glob.glob(d + "/*.h5")))
frames = [table(t) for t in eval("[" + sys.argv[2] + "]")]
print("pandas recipe, tables", sys.argv[2], ":", " x ".join(str(f.shape) for f in frames), end=": ")
PY
  echo "(load $(load))"
done
/usr/bin/time -f "lbbench table: %e s wall, %U+%S s CPU, %M KB peak" "$lbbench" table "$set_dir" > /dev/null 2> "$scratch/table.txt"
tail -n 1 "$scratch/table.txt" | tr '\n' ' '; echo "(load $(load))"
