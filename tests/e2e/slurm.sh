#!/usr/bin/env bash
# scripts/slurm/ run as Slurm would run them, with Slurm's environment variables set by hand (a
# stand-in sbatch runs each array task in turn); the merged slices must hold exactly the runs of
# the unsliced sweep, and merging again reports every run as a duplicate and copies none.
set -euo pipefail
export LBBENCH=$(realpath "$1")
root=$(pwd)
. "$(dirname "$0")/lib/scratch.sh"
cat > "$tmp/sweep.yaml" <<'YAML'
name: slurm
workload: { kind: block_substitution, blocks: 8, width: 8, mean_lines: 3, sd: [0.5, 1.0], seed: 3 }
platform: { processors: 2, topology: chain }
execution: { steps: 4, warmup: 0, repetitions: 2 }
balancers:
  - { dynamic: none }
  - { static: cyclic }
YAML
mkdir "$tmp/bin"
cat > "$tmp/bin/sbatch" <<'SB'
#!/usr/bin/env bash
# Stand-in for sbatch: runs the job now, with the variables Slurm sets.
array="" ; args=()
for a in "$@"; do
  case "$a" in
    --parsable|--dependency=*) ;;
    --array=*) array=${a#--array=} ;;
    *) args+=("$a") ;;
  esac
done
id=$((RANDOM + 1000))
export SLURM_JOB_ID=$id SLURM_CPUS_ON_NODE=2
if [ -n "$array" ]; then
  lo=${array%-*}; hi=${array#*-}
  for ((i = lo; i <= hi; i++)); do
    SLURM_ARRAY_JOB_ID=$id SLURM_ARRAY_TASK_ID=$i SLURM_ARRAY_TASK_MIN=$lo \
      SLURM_ARRAY_TASK_MAX=$hi SLURM_ARRAY_TASK_COUNT=$((hi - lo + 1)) \
      bash "${args[@]}" > "$SLURM_TMP/task-$i.log" 2>&1 || exit 1
  done
else
  bash "${args[@]}" > "$SLURM_TMP/merge.log" 2>&1 || exit 1
fi
echo $id
SB
chmod +x "$tmp/bin/sbatch"
export SLURM_TMP=$tmp
PATH="$tmp/bin:$PATH" scripts/slurm/submit.sh "$tmp/sweep.yaml" 3 "$tmp/merged.h5" > "$tmp/submit.txt"
grep -q "merge: job" "$tmp/submit.txt"
grep -q "^8 runs in" "$tmp/merge.log" || { cat "$tmp"/*.log; exit 1; }
"$LBBENCH" run "$tmp/sweep.yaml" -o "$tmp/whole.h5" > /dev/null 2>&1
/usr/bin/python3 tests/e2e/check_archive.py "$LBBENCH" "$tmp/merged.h5" 8
/usr/bin/python3 - "$tmp/merged.h5" "$tmp/whole.h5" <<'PY'
import collections, sys, h5py
sys.path.insert(0, "tests/e2e")
from archive_runs import iter_runs
def runs(path):
    with h5py.File(path, "r") as f:
        return collections.Counter((r.attrs["config_yaml"], r.attrs["repetition"],
                                    r.attrs["status"]) for r in iter_runs(f))
merged, whole = runs(sys.argv[1]), runs(sys.argv[2])
assert merged == whole, (merged - whole, whole - merged)
with h5py.File(sys.argv[1], "r") as f:
    for r in iter_runs(f):
        a = r.attrs
        assert a["merged_from"].endswith(".h5") and a["source_run"].startswith("run-")
        inv = f["invocations"][a["invocation"]]
        assert inv.attrs["slice"] in ("0/3", "1/3", "2/3"), inv.attrs["slice"]
        assert b"topology" in inv["hwloc_topology"][()]
print("slurm: merged slices = unsliced sweep:", sum(merged.values()), "runs")
PY
# The same parts again: every run is reported as a duplicate, nothing is added or overwritten.
"$LBBENCH" merge "$tmp/merged.h5" "$tmp/merged.parts"/part-0.h5 > "$tmp/again.txt" 2> "$tmp/dup.txt"
[ "$(grep -c '^duplicate: ' "$tmp/dup.txt")" -eq 3 ] || { cat "$tmp/dup.txt"; exit 1; }
grep -q "merge: 0 runs" "$tmp/again.txt"
"$LBBENCH" show "$tmp/merged.h5" | grep -q "^8 runs in"
# A bad slice is bad input.
set +e; "$LBBENCH" run "$tmp/sweep.yaml" --no-archive --slice 3/3 2> "$tmp/err.txt"; rc=$?; set -e
[ "$rc" -eq 2 ] && grep -q "0 <= i < n" "$tmp/err.txt"
set +e; "$LBBENCH" run "$tmp/sweep.yaml" --no-archive --resume 2> "$tmp/err.txt"; rc=$?; set -e
[ "$rc" -eq 2 ] && grep -q "needs an archive" "$tmp/err.txt"
# Merging something that is not an archive is bad input, and creates nothing.
echo "not hdf5" > "$tmp/notes.h5"
set +e; "$LBBENCH" merge "$tmp/new.h5" "$tmp/notes.h5" 2> "$tmp/err.txt"; rc=$?; set -e
[ "$rc" -eq 2 ] && grep -q "not an HDF5 file" "$tmp/err.txt" && [ ! -e "$tmp/new.h5" ]
echo "slurm: OK"
