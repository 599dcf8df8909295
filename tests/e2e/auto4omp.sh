#!/usr/bin/env bash
# End to end: auto4omp beside the fixed schedules it chooses among, simulated (issue 50). `lbbench
# run` and `lbbench expect` print each schedule_regret row with its measured regret (the run's
# makespan_total over the best fixed schedule's, at least 1 less rounding when the best is a
# candidate), and each auto4omp run records its choice per step.
set -euo pipefail
lbbench=$1
. "$(dirname "$0")/lib/scratch.sh"
cat > "$tmp/a.yaml" <<'YAML'
name: auto4omp-e2e
workload: { kind: synthetic, model: truncated_normal, mean: 1, sd: 0.8, modules: 200, seed: 1 }
platform: { processors: 4, speeds: [1, 1, 1, 0.5] }
execution: { executor: simulate, steps: 8, warmup: 0, sim_latency: 0.05 }
balancers:
  - { schedule: gss }
  - { schedule: fac2 }
  - { schedule: ss }
  - { schedule: auto4omp, candidates: "gss,fac2,ss", select: exhaustive, label: ex }
  - { schedule: auto4omp, candidates: "gss,fac2,ss", select: binary, label: bin }
expectations:
  - { row: "ex regret", where: { balancer: ex }, metric: schedule_regret, paper: 1.5, bound: upper, open_choice: "ours" }
  - { row: "bin regret", where: { balancer: bin }, metric: schedule_regret, paper: 1.5, bound: upper, open_choice: "ours" }
YAML
"$lbbench" run "$tmp/a.yaml" -o "$tmp/a" > "$tmp/run.txt" 2> "$tmp/err.txt" ||
  { cat "$tmp/run.txt" "$tmp/err.txt"; exit 1; }
"$lbbench" expect "$tmp/a.yaml" "$tmp/a" > "$tmp/expect.txt"
for out in "$tmp/run.txt" "$tmp/expect.txt"; do
  for row in ex bin; do
    line=$(grep -E "^$row regret +schedule_regret +" "$out") || { cat "$out"; exit 1; }
    # the measured regret: a number of at least 0.99 (the best fixed schedule is a candidate)
    echo "$line" | grep -qE 'schedule_regret +(0\.99|1(\.[0-9]+)?|[2-9](\.[0-9]+)?) ' ||
      { echo "no regret in: $line"; exit 1; }
  done
done
