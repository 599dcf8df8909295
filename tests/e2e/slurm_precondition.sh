#!/usr/bin/env bash
# slurm_cluster.sh skips (exit 77, the reason said) on a host without a cgroup filesystem that
# slurmd can use, as in a container or chroot, instead of failing after the node never comes up;
# it installs nothing first.
set -uo pipefail
lbbench=$1
[ "$(id -u)" -eq 0 ] || { echo "slurm_precondition: SKIP: slurm_cluster.sh needs root"; exit 77; }
. "$(dirname "$0")/lib/scratch.sh"
out=$(LBB_CGROUP_ROOT=$tmp bash "$(dirname "$0")/slurm_cluster.sh" "$lbbench" 2>&1)
rc=$?
if [ "$rc" -ne 77 ] || ! grep -q "SKIP: no cgroup filesystem mounted on $tmp" <<< "$out" ||
  grep -q "installing" <<< "$out"; then
  echo "slurm_precondition: FAIL: exit $rc (want 77 before any install):"; echo "$out"; exit 1
fi
echo "slurm_precondition: OK"
