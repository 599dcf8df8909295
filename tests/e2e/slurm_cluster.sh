#!/usr/bin/env bash
# scripts/slurm/ submitted to a real Slurm: a one-host cluster (Debian's munge, slurmctld and
# slurmd, installed with apt when missing, started here and stopped on exit) runs submit.sh's
# array job; the one result set must then hold every run the config expands to, written by one
# writer per task with no merge step. Each task's threads are bound to the CPUs Slurm gave it
# (slice.sbatch's comment): one CPU of a shared node, or a whole node (a second job, the default).
# Then an MPI job (mpirun -np 2 inside the allocation) writes a set of its own.
set -euo pipefail
lbbench=$(realpath "$1")
say() { echo "slurm_cluster: $*"; }
skip() { say "SKIP: $*"; exit 77; }
[ "$(id -u)" -eq 0 ] || skip "needs root (to install packages and run slurmd, which runs jobs)"
# slurmd will not start without a cgroup filesystem at /sys/fs/cgroup (a v2 mount, or v1's tmpfs
# of controller mounts), which a container or chroot may lack: that is the host, not a defect.
cgroup=${LBB_CGROUP_ROOT:-/sys/fs/cgroup}  # another root: a test of this skip
cgroup_usable() {
  case $(stat -fc %T "$cgroup" 2> /dev/null) in
    cgroup2fs) return 0 ;;
    tmpfs) awk -v root="$cgroup/" '$3 ~ /^cgroup2?$/ && index($2, root) == 1 { found = 1 }
                                   END { exit !found }' /proc/mounts ;;
    *) return 1 ;;
  esac
}
cgroup_usable || skip "no cgroup filesystem mounted on $cgroup (slurmd needs one; a container or chroot without cgroups)"

# Installs the packages without starting their services (policy-rc.d: Debian's switch for that).
install_packages() {
  command -v apt-get > /dev/null || return 1
  local policy=/usr/sbin/policy-rc.d mine="" rc=0
  [ -e "$policy" ] || { printf '#!/bin/sh\nexit 101\n' > "$policy" && chmod +x "$policy" && mine=1; }
  local apt=(apt-get -q -o DPkg::Lock::Timeout=300)  # a fresh machine may be upgrading itself
  export DEBIAN_FRONTEND=noninteractive
  { "${apt[@]}" install -y --no-install-recommends "$@" ||
    { "${apt[@]}" update && "${apt[@]}" install -y --no-install-recommends "$@"; }; } \
    > "$tmp/apt.log" 2>&1 || rc=$?
  [ -z "$mine" ] || rm -f "$policy"
  return "$rc"
}

tmp=$(mktemp -d)
pids=()
stop() {
  set +e
  if [ -n "${cluster_up:-}" ]; then  # jobs first, so that no job step outlives slurmd
    scancel --quiet --user=root 2> /dev/null
    for _ in $(seq 20); do [ -z "$(squeue -h 2> /dev/null)" ] && break; sleep 0.5; done
  fi
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do kill "${pids[i]}" 2> /dev/null; done
  for p in "${pids[@]}"; do wait "$p" 2> /dev/null; done
  pids=()
  rm -rf "$tmp"
}
trap stop EXIT
trap 'exit 1' INT TERM

packages=(munge slurmctld slurmd slurm-client)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f '${Status}' "$p" 2> /dev/null | grep -q "ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  say "installing ${missing[*]} with apt-get"
  install_packages "${missing[@]}" || skip "apt-get could not install ${missing[*]}: $(tail -n 2 "$tmp/apt.log" 2> /dev/null)"
fi

# The cluster: this host as its only node, with the CPUs and memory slurmd finds on it.
chmod 755 "$tmp"  # munged refuses a socket in a folder others cannot enter
mkdir -p "$tmp"/{munge,state,spool,log}
head -c 1024 /dev/urandom > "$tmp/munge/key" && chmod 400 "$tmp/munge/key"
node=$(slurmd -C | head -n 1)
host=${node%% *} && host=${host#NodeName=}
read -r ctld_port slurmd_port < <(/usr/bin/python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*(x.getsockname()[1] for x in s))')
export SLURM_CONF=$tmp/slurm.conf
cat > "$SLURM_CONF" <<EOF
ClusterName=lbbtest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$tmp/munge/socket
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/affinity
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
ReturnToService=2
$node NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=lbbtest Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
munged -F --socket="$tmp/munge/socket" --key-file="$tmp/munge/key" --pid-file="$tmp/munge/pid" \
  --log-file="$tmp/log/munged.log" --seed-file="$tmp/munge/seed" > /dev/null 2>&1 &
pids+=($!)
for _ in $(seq 50); do [ -S "$tmp/munge/socket" ] && break; sleep 0.1; done
slurmctld -D > "$tmp/log/slurmctld.out" 2>&1 &
pids+=($!)
cluster_up=1
slurmd -D > "$tmp/log/slurmd.out" 2>&1 &
pids+=($!)
fail() {
  say "FAIL: $*"
  tail -n 15 "$tmp"/log/*.log "$tmp"/task-*.log 2> /dev/null
  exit 1
}
for _ in $(seq 60); do
  [ "$(sinfo -h -o %T 2> /dev/null)" = idle ] && break
  sleep 0.5
done
if [ "$(sinfo -h -o %T 2> /dev/null)" != idle ]; then
  # A cgroup slurmd cannot use (read-only, no controllers) is the host's too, not a defect.
  why=$(grep -hiE 'error|fatal' "$tmp"/log/slurmd.* 2> /dev/null | grep -i cgroup | head -n 1)
  [ -z "$why" ] || skip "slurmd cannot use the host's cgroups: $why"
  fail "the node did not come up idle in 30 s"
fi
say "cluster up: $(sinfo -V), one node: $node"

cat > "$tmp/sweep.yaml" <<'YAML'
name: slurm_cluster
workload: { kind: block_substitution, blocks: 8, width: 8, mean_lines: 3, sd: 1.0, seed: 3 }
platform: { processors: 2, topology: chain }
execution: { steps: 4, warmup: 0, repetitions: 2 }
balancers:
  - { dynamic: none }
  - { static: block }
  - { static: cyclic }
YAML
export LBBENCH=$lbbench
unset "${!OMP_@}" "${!GOMP_@}"  # slice.sbatch's own choices are what is checked
started=$SECONDS
# submit SET TASKS [SBATCH_OPTION...]: submit.sh's array job of the sweep, its id in $job.
submit() {
  local set=$1 tasks=$2
  shift 2
  scripts/slurm/submit.sh "$tmp/sweep.yaml" "$tasks" "$tmp/$set" --time=5 \
    --output="$tmp/task-$set-%a.log" "$@" > "$tmp/submit.txt"
  job=$(sed -n 's/^slices: job \([0-9]*\) .*/\1/p' "$tmp/submit.txt")
  [ -n "$job" ] || fail "submit.sh: $(cat "$tmp/submit.txt")"
  say "submitted job $job: array 0-$((tasks - 1)) of scripts/slurm/slice.sbatch -> $set ${*:-(whole node)}"
}
# No accounting here (no sacct): a finished task stays in slurmctld's memory for MinJobAge (300 s).
states() { scontrol -o show job "$1" | grep -o 'JobState=[A-Z_]*' | cut -d= -f2 | sort | uniq -c; }
wait_job() {
  until ! states "$1" | grep -qE 'PENDING|CONFIGURING|RUNNING|COMPLETING|REQUEUE|SUSPENDED'; do
    [ $((SECONDS - started)) -lt 90 ] || fail "job $1 unfinished after 90 s: $(states "$1")"
    sleep 1
  done
  [ "$(states "$1" | awk '$2 == "COMPLETED" { print $1 }')" = "$2" ] ||
    fail "job $1: $(states "$1" | tr -s ' \n' ' ')"
  say "job $1: $2 of $2 tasks COMPLETED, $((SECONDS - started)) s after submitting"
}
tasks=3
submit set "$tasks" --cpus-per-task=1 --oversubscribe
shared=$job
submit node 1
whole=$job
wait_job "$shared" "$tasks"
wait_job "$whole" 1

# The set holds exactly the runs `validate` lists, each complete, from one invocation per task.
"$lbbench" validate "$tmp/sweep.yaml" | awk 'NR > 1 { n = substr($NF, 2); for (i = 0; i < n; i++) print $1, $2, $4 }' |
  sort > "$tmp/expected.txt"
"$lbbench" show "$tmp/set" > "$tmp/show.txt"
awk '$6 == "complete" { print $2, "P=" $4, $3 }' "$tmp/show.txt" | sort > "$tmp/read.txt"
diff "$tmp/expected.txt" "$tmp/read.txt" > "$tmp/diff.txt" ||
  fail "the set's complete runs (>) differ from validate's (<): $(cat "$tmp/diff.txt") $(cat "$tmp/show.txt")"
"$lbbench" table "$tmp/set" --format csv 2> "$tmp/table.txt" > /dev/null
runs=$(wc -l < "$tmp/expected.txt")
grep -qE ": $runs runs of $tasks invocations read from [0-9]+ parts$" "$tmp/table.txt" ||
  fail "lbbench table: $(cat "$tmp/table.txt")"
say "read $tmp/set with lbbench table: $(grep -oE "$runs runs .* parts$" "$tmp/table.txt"), = the $runs runs validate lists"
cores=1
for kv in $node; do case $kv in Boards=* | SocketsPerBoard=* | CoresPerSocket=*) cores=$((cores * ${kv#*=})) ;; esac; done
/usr/bin/python3 - "$tmp" "$tasks" "$(hostname)" "$cores" <<'PY'
import sys
sys.path.insert(0, "tests/e2e")
from result_runs import table
tmp, tasks, host, cores = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
inv = table("invocations", tmp + "/set")
assert sorted(inv.slice) == [f"{i}/{tasks}" for i in range(tasks)], list(inv.slice)
assert set(inv.host) == {host}, set(inv.host)
bound = "OMP_PLACES=cores;OMP_PROC_BIND=close;proc_bind=close;places="
# --cpus-per-task=1 under task/affinity: each task sees only its CPU, so slice.sbatch binds.
assert set(inv.omp_env) == {bound + "1"}, set(inv.omp_env)
print("slurm_cluster: one writer per slice", ", ".join(sorted(inv.slice)), "on", host,
      "each with", inv.omp_env[0])
# The default, a whole node: bound to all its cores.
node = table("invocations", tmp + "/node").omp_env
assert list(node) == [bound + cores], list(node)
print("slurm_cluster: the whole-node task ran with", node[0])
PY
# An MPI job: mpirun inside the allocation, processors as 2 ranks (harness/mpi/), one set.
if command -v mpirun > /dev/null && "$lbbench" list 2> /dev/null | grep '^  mpi - ' > /dev/null; then
  root=()
  [ "$(id -u)" -ne 0 ] || root=(--allow-run-as-root)
  # A sanitizer build: Open MPI's allocations past MPI_Finalize are not lbbench's (sbatch passes
  # the environment on).
  . "$(dirname "$0")/lib/mpi_env.sh"
  job=$(sbatch --parsable --time=5 --output="$tmp/mpi.log" --wrap \
    "mpirun ${root[*]} --oversubscribe -np 2 $lbbench run $tmp/sweep.yaml -q -o $tmp/mpi") ||
    fail "sbatch of the MPI job"
  say "submitted job $job: mpirun -np 2 lbbench run -> mpi"
  started=$SECONDS
  wait_job "$job" 1
  /usr/bin/python3 - "$tmp/mpi" "$runs" <<'PY' || fail "the MPI job's set: $(cat "$tmp/mpi.log")"
import sys
sys.path.insert(0, "tests/e2e")
from result_runs import table
runs = table("runs", sys.argv[1])
assert len(runs) == int(sys.argv[2]) and set(runs.status) == {"complete"}, runs.status
assert set(runs.executor) == {"mpi"} and all(len(r.split(",")) == 2 for r in runs.ranks), runs.ranks
print(f"slurm_cluster: the MPI job's set: {len(runs)} runs, executor mpi on ranks {runs.ranks.iloc[0]}")
PY
else
  say "MPI job: not run (no mpirun, or lbbench built without MPI)"
fi
stop
trap - EXIT
say "OK: daemons stopped, $tmp removed"
