#!/usr/bin/env bash
# A name with terminal control characters in a result set (a label edited with h5py, stored as
# h5py stores text by default: fixed-length ASCII) is printed escaped by show, table and
# simulate --replay, never raw; so are names in the arguments of report and convert (Python).
set -euo pipefail
lbbench=$1
. "$(dirname "$0")/lib/scratch.sh"
"$lbbench" run configs/smoke.yaml -o "$tmp/set" > /dev/null 2>&1
/usr/bin/python3 - "$tmp/set" <<'PY'
import glob, sys, h5py, numpy as np
sys.path.insert(0, "report")
from lbbench_report.results import seal
# Every part: under load the run writes more than one (a part every 2 s).
for part in glob.glob(sys.argv[1] + "/*.h5"):
    with h5py.File(part, "r+") as f:
        runs = f["runs"]
        labels = [v.replace(b"cyclic", b"cy\x1b[31mclic") for v in runs["balancer"][:]]
        attrs = dict(runs["balancer"].attrs)
        del runs["balancer"]
        d = runs.create_dataset("balancer", data=np.array(labels, dtype=f"S{max(map(len, labels))}"))
        d.attrs.update(attrs)
    seal(part)
PY
for cmd in "show $tmp/set" "table $tmp/set" "simulate --replay $tmp/set"; do
  $lbbench $cmd > "$tmp/out.txt" 2>&1 || { echo "escaped_names: $cmd failed"; cat "$tmp/out.txt"; exit 1; }
  ! grep -q $'\x1b' "$tmp/out.txt" || { echo "escaped_names: $cmd printed a raw ESC"; exit 1; }
  grep -qF 'cy\x1B[31mclic' "$tmp/out.txt" || { echo "escaped_names: $cmd lost the name"; cat "$tmp/out.txt"; exit 1; }
done
bad=$'x\x1b[31m\u202Ey'
for cmd in "report $tmp/set --timeline-run $bad --out $tmp/page" "report $tmp/$bad" \
  "convert $tmp/$bad $tmp/converted"; do
  $lbbench $cmd > "$tmp/out.txt" 2>&1 && { echo "escaped_names: $cmd exited 0"; exit 1; }
  ! grep -q $'[\x1b]\|\u202E' "$tmp/out.txt" || { echo "escaped_names: $cmd printed it raw"; exit 1; }
  grep -qF 'x\x1B[31m\u202Ey' "$tmp/out.txt" || { echo "escaped_names: $cmd: $(cat "$tmp/out.txt")"; exit 1; }
done
echo "escaped_names: OK"
