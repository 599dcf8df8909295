#!/usr/bin/env bash
# The simulator at scale (issue 37 item 4), on this machine:
#   bench/scale/sim_scale.sh [LBBENCH_MICRO] [FILTER]
# Runs bench/scale_sim_bench.cpp one size per process (peak RSS is the process's): the growth
# series, processors and modules x4 a size from 4,096 x 390,625 (10 steps), then the full size,
# 1,048,576 x 100,000,000 x 100 steps, then processors alone and modules alone growing;
# FILTER (a regex on the benchmark names, e.g. 'BM_ScaleSim/1/') picks some. Each line: wall and
# CPU seconds, setup's share (wall), the balancer's CPU, peak RSS, CPU per module-step and per
# processor-step, migrations (and, ScaleSim runs only, in how many steps, and the first and last
# steps' makespans over the ideal, the mean load at speeds 1), the CPU growth over the line before
# of the same balancer and steps where neither processors nor modules fell (with their growth)
# and the 1-minute load average before and after.
# The simulator runs on one thread; on a shared machine wall time counts the other work too,
# so CPU time is the figure to read against the 60 s goal, and peak RSS against the 16 GB one.
# A process that runs past LBB_SCALE_TIMEOUT seconds (default 900) is reported as stopped.
set -euo pipefail
micro=${1:-build/bench/lbbench_micro}
filter=${2:-.}
timeout_s=${LBB_SCALE_TIMEOUT:-900}
load() { cut -d' ' -f1 /proc/loadavg; }
echo "$(date -u +%FT%TZ), $(nproc) cores,$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
previous=$(mktemp)
trap 'rm -f "$previous"' EXIT
"$micro" --benchmark_list_tests --benchmark_filter='BM_(Scale|Ordinary)Sim' | grep -E "$filter" |
  while read -r name; do
    before=$(load)
    if ! json=$(timeout "$timeout_s" "$micro" --benchmark_filter="^${name}\$" \
                --benchmark_format=json 2>/dev/null); then
      echo "${name%/iterations*}: stopped (over $timeout_s s, or failed) (load $before -> $(load))"
      : > "$previous"
      continue
    fi
    /usr/bin/python3 - "$json" "$previous" "$before" <<'PY'
import json, sys
b = json.loads(sys.argv[1])["benchmarks"][0]
name = b["name"].split("/iterations")[0]
bench, kind, processors, modules, steps = name.split("/")
key, cpu = f"{bench}/{kind}/{steps}", b["cpu_s"]
growth = ""
prev = open(sys.argv[2]).read().split()
if prev and prev[0] == key and float(processors) >= float(prev[2]) and float(modules) >= float(prev[3]):
    growth = (f", x{cpu / float(prev[1]):.1f} CPU for x{float(processors) / float(prev[2]):g}"
              f" processors and x{float(modules) / float(prev[3]):g} modules")
open(sys.argv[2], "w").write(f"{key} {cpu} {processors} {modules}\n")
quality = ""
if "first_over_ideal" in b:
    quality = (f" in {int(b['moving_steps'])} steps, makespan over ideal"
               f" {b['first_over_ideal']:.3f} (first step) -> {b['last_over_ideal']:.3f} (last)")
print(f"{name} ({b.get('label', '')}): {b['wall_s']:.2f} s wall, {cpu:.2f} s CPU"
      f" (setup {b['setup_s']:.2f} s wall, balancer {b['decide_cpu_s']:.2f} s CPU),"
      f" peak RSS {b['peak_rss_GiB']:.2f} GiB,"
      f" {1e9 * cpu / (float(modules) * float(steps)):.2f} ns CPU per module-step,"
      f" {1e9 * cpu / (float(processors) * float(steps)):.0f} ns CPU per processor-step,"
      f" {int(b['migrations'])} migrations{quality}{growth}"
      f" (load {sys.argv[3]} -> {b['load1']:.2f})")
PY
  done
