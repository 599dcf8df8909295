#!/usr/bin/env bash
# Runs an lbbench sweep on N nodes: one Slurm array task per slice, every task writing its own
# parts into the one result set SET (a directory on a shared file system); no merge step.
#   scripts/slurm/submit.sh CONFIG N SET
# Extra sbatch options (partition, account) go in SBATCH_* variables, e.g. SBATCH_PARTITION.
set -euo pipefail
config=${1:?usage: submit.sh CONFIG N SET}
n=${2:?usage: submit.sh CONFIG N SET}
set=${3:?usage: submit.sh CONFIG N SET}
here=$(dirname "$0")
"${LBBENCH:-./build/lbbench}" validate "$config" > /dev/null
array=$(sbatch --parsable --array=0-$((n - 1)) "$here/slice.sbatch" "$config" "$set")
echo "slices: job $array (array 0-$((n - 1))) -> $set; read it with: lbbench table $set"
