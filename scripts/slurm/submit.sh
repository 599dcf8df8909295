#!/usr/bin/env bash
# Runs an lbbench sweep as N Slurm array tasks, every task writing its own parts into the one
# result set SET (a directory on a file system the nodes share); no merge step.
#   scripts/slurm/submit.sh CONFIG N SET [SBATCH_OPTION...]
# The options go to sbatch as they are (e.g. --partition=p --cpus-per-task=8 --oversubscribe, the
# last to share nodes instead of taking each whole); so do SBATCH_* variables.
set -euo pipefail
config=${1:?usage: submit.sh CONFIG N SET [SBATCH_OPTION...]}
n=${2:?usage: submit.sh CONFIG N SET [SBATCH_OPTION...]}
set=${3:?usage: submit.sh CONFIG N SET [SBATCH_OPTION...]}
shift 3
"${LBBENCH:-./build/lbbench}" validate "$config" > /dev/null
array=$(sbatch --parsable --array=0-$((n - 1)) "$@" "$(dirname "$0")/slice.sbatch" "$config" "$set")
echo "slices: job $array (array 0-$((n - 1))) -> $set; read it with: lbbench table $set"
