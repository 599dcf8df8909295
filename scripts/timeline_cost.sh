#!/usr/bin/env bash
# The measured timeline's cost (execution.timeline, docs/results.md "Timeline"): configs/default.yaml's
# four workloads at its module sizes, timeline off and on in the same rounds (a sweep, so each
# round runs both back to back), on P processors (default 2: this host's cores). Prints, per
# workload and balancer, the median over rounds of the step wall time with the timeline on over
# off, and the spans a step recorded. Usage: scripts/timeline_cost.sh LBBENCH [P] [ROUNDS]
set -euo pipefail
lbbench=$1 P=${2:-2} rounds=${3:-8}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
{
  sed -n '/^workload:/,/^platform:/p' configs/default.yaml | sed '$d'
  echo "name: timeline_cost"
  echo "platform: { processors: $P, topology: chain }"
  echo "execution: { executor: bsp, steps: 20, warmup: 2, repetitions: $rounds, record: steps, timeline: [false, true] }"
  echo "balancers: [{ dynamic: none }, { dynamic: diffusion }, { dynamic: gcdlb }]"
} > "$dir/cost.yaml"
"$lbbench" run "$dir/cost.yaml" -o "$dir/set" -q > /dev/null
"$lbbench" export "$dir/set" --to "$dir/csv" > /dev/null
/usr/bin/python3 - "$dir/csv" << 'PY'
import sys, pandas as pd
runs = pd.read_csv(f"{sys.argv[1]}/runs.csv")
runs["timeline"] = runs.config_yaml.str.contains("timeline: true")
runs["step_wall"] = runs.wall_total / runs.steps
try:
    spans = pd.read_csv(f"{sys.argv[1]}/spans.csv").groupby("run").size()
except FileNotFoundError:
    spans = pd.Series(dtype=int)
runs["spans_per_step"] = runs.run.map(spans).fillna(0) / runs.steps
key = ["workload", "balancer", "repetition"]
on = runs[runs.timeline].set_index(key)
off = runs[~runs.timeline].set_index(key)
ratio = (on.step_wall / off.step_wall).dropna()
out = ratio.groupby(level=[0, 1]).agg(["median", "min", "max", "count"])
out["off_ms"] = off.step_wall.groupby(level=[0, 1]).median() * 1e3
out["on_ms"] = on.step_wall.groupby(level=[0, 1]).median() * 1e3
out["spans_per_step"] = on.spans_per_step.groupby(level=[0, 1]).median()
print(out.round(4).to_string())
print(f"all rows: median ratio {ratio.median():.4f}, geometric mean "
      f"{ratio.prod() ** (1 / len(ratio)):.4f} over {len(ratio)} pairs")
PY
