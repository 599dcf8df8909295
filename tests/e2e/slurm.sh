#!/usr/bin/env bash
# scripts/slurm/ run as Slurm would run them, with Slurm's environment variables set by hand (a
# stand-in sbatch runs each array task in turn): the slices, written into one result set, must
# hold exactly the runs of the unsliced sweep, and a requeued task runs nothing again. The
# stand-in gives each task one CPU and confines it to none, as a shared node without a task
# plugin would: slice.sbatch must then leave threads unbound and waiting passively.
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
export SLURM_JOB_ID=$id SLURM_CPUS_ON_NODE=1
if [ -n "$array" ]; then
  lo=${array%-*}; hi=${array#*-}
  for ((i = lo; i <= hi; i++)); do
    SLURM_ARRAY_JOB_ID=$id SLURM_ARRAY_TASK_ID=$i SLURM_ARRAY_TASK_MIN=$lo \
      SLURM_ARRAY_TASK_MAX=$hi SLURM_ARRAY_TASK_COUNT=$((hi - lo + 1)) \
      bash "${args[@]}" > "$SLURM_TMP/task-$i.log" 2>&1 || exit 1
  done
else
  bash "${args[@]}" > "$SLURM_TMP/job.log" 2>&1 || exit 1
fi
echo $id
SB
chmod +x "$tmp/bin/sbatch"
export SLURM_TMP=$tmp
unset "${!OMP_@}" "${!GOMP_@}"  # slice.sbatch's own choices are what is checked
PATH="$tmp/bin:$PATH" scripts/slurm/submit.sh "$tmp/sweep.yaml" 3 "$tmp/set" > "$tmp/submit.txt"
grep -q "slices: job" "$tmp/submit.txt"
"$LBBENCH" show "$tmp/set" > "$tmp/show.txt"
grep -q "^8 runs of 3 invocations in 3 parts" "$tmp/show.txt" || { cat "$tmp/show.txt" "$tmp"/*.log; exit 1; }
"$LBBENCH" run "$tmp/sweep.yaml" -o "$tmp/whole" > /dev/null 2>&1
/usr/bin/python3 tests/e2e/check_results.py "$LBBENCH" "$tmp/set" 8
/usr/bin/python3 - "$tmp/set" "$tmp/whole" "$(nproc)" <<'PY'
import collections, sys
sys.path.insert(0, "tests/e2e")
from result_runs import runs_of, table
def runs(d):
    return collections.Counter(zip(*(runs_of(d)[k] for k in ("config_yaml", "repetition", "status"))))
sliced, whole = runs(sys.argv[1]), runs(sys.argv[2])
assert sliced == whole, (sliced - whole, whole - sliced)
invocations = table("invocations", sys.argv[1])
assert sorted(invocations.slice) == ["0/3", "1/3", "2/3"], invocations.slice
assert all("topology" in x for x in invocations.hwloc_topology)
# One CPU given, more seen (nproc): unbound and passive; on a one-CPU machine, bound to it.
omp = ("OMP_WAIT_POLICY=passive;proc_bind=false;places=0" if int(sys.argv[3]) > 1 else
       "OMP_PLACES=cores;OMP_PROC_BIND=close;proc_bind=close;places=1")
assert set(invocations.omp_env) == {omp}, set(invocations.omp_env)
print("slurm: sliced set = unsliced sweep:", sum(sliced.values()), "runs")
PY
# A task run again (a requeue) finds its slice complete and runs nothing.
(cd "$root" && "$LBBENCH" run "$tmp/sweep.yaml" --slice 1/3 --resume -o "$tmp/set" 2> "$tmp/again.txt" > /dev/null)
grep -q "^resume: 3 of 3 runs already in" "$tmp/again.txt" || { cat "$tmp/again.txt"; exit 1; }
"$LBBENCH" show "$tmp/set" | grep -q "^8 runs of 3 invocations"
# A bad slice is bad input.
set +e; "$LBBENCH" run "$tmp/sweep.yaml" --no-write --slice 3/3 2> "$tmp/err.txt"; rc=$?; set -e
[ "$rc" -eq 2 ] && grep -q "0 <= i < n" "$tmp/err.txt"
set +e; "$LBBENCH" run "$tmp/sweep.yaml" --no-write --resume 2> "$tmp/err.txt"; rc=$?; set -e
[ "$rc" -eq 2 ] && grep -q "needs a result set" "$tmp/err.txt"
echo "slurm: OK"
