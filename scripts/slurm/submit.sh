#!/usr/bin/env bash
# Runs an lbbench sweep on N nodes: one Slurm array task per slice, then a merge job that
# starts when every slice succeeded.
#   scripts/slurm/submit.sh CONFIG N OUTPUT.h5 [PARTS_DIR]
# Extra sbatch options (partition, account) go in SBATCH_* variables, e.g. SBATCH_PARTITION.
set -euo pipefail
config=${1:?usage: submit.sh CONFIG N OUTPUT.h5 [PARTS_DIR]}
n=${2:?usage: submit.sh CONFIG N OUTPUT.h5 [PARTS_DIR]}
output=${3:?usage: submit.sh CONFIG N OUTPUT.h5 [PARTS_DIR]}
parts=${4:-${output%.h5}.parts}
here=$(dirname "$0")
"${LBBENCH:-./build/lbbench}" validate "$config" > /dev/null
array=$(sbatch --parsable --array=0-$((n - 1)) "$here/slice.sbatch" "$config" "$parts")
merge=$(sbatch --parsable --dependency=afterok:"${array%%;*}" "$here/merge.sbatch" "$output" "$parts")
echo "slices: job $array (array 0-$((n - 1))), merge: job $merge -> $output"
