#!/usr/bin/env bash
# fuzz/seed_sets.sh LBBENCH DIR: the result sets the results fuzz targets damage, made by the
# lbbench just built (none is committed): DIR/smoke (configs/smoke.yaml, module detail), DIR/default
# (configs/default.yaml cut to one repetition of 3 steps), DIR/simulated (the vt trace of
# tests/data replayed by the simulate executor) and DIR/dense (the smoke set's part in the older
# layout, every table's links in dense storage, as resealed_damage.py makes it). A part a set.
set -euo pipefail
lbbench=$1 dir=$2
rm -rf "$dir" && mkdir -p "$dir"
export LBB_RESULTS_PART_SECONDS=100000  # one part a set, however slow the build
"$lbbench" run configs/smoke.yaml -o "$dir/smoke" -q > /dev/null
"$lbbench" run configs/default.yaml -o "$dir/default" -q --repetitions 1 \
  --set execution.steps=3 --set execution.warmup=0 > /dev/null
cat > "$dir/simulated.yaml" <<YAML
name: simulated
workload: { kind: trace, file: '$PWD/tests/data/vt_trace' }
platform: { processors: 3 }
execution: { executor: simulate, steps: 2, warmup: 0, repetitions: 1, record: modules }
balancers: [{ dynamic: none }, { dynamic: diffusion }, { schedule: gss }]
YAML
"$lbbench" run "$dir/simulated.yaml" -o "$dir/simulated" -q > /dev/null
rm "$dir/simulated.yaml"
mkdir "$dir/dense"
/usr/bin/python3 - "$(ls "$dir"/smoke/*.h5)" "$dir/dense/dense.h5" <<'PY'
import os, sys
sys.path.insert(0, "tests/e2e")
from resealed_damage import dense_copy
dense_copy(sys.argv[1], sys.argv[2])
PY
