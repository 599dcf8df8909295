#!/usr/bin/env bash
# Each shipped config run once with `--costs` into a fresh result set in a temporary folder, one
# after another, printing its wall and process CPU time, the overhead line (verification +
# results + harness, docs/engine.md "What --costs counts") and its share, the result
# writer's own CPU (its two "results:" lines) and share, and the 1-minute load average before and
# after. Takes about 10 minutes on 2 cores.
#   scripts/overhead_shares.sh [LBBENCH] [CONFIG...]
# LBBENCH defaults to build/lbbench; CONFIGs to configs/*.yaml and configs/papers/*.yaml, less the
# balance experiments (`balance_cases:`), which `lbbench expect` computes and `run` refuses.
set -euo pipefail
export LC_ALL=C  # a decimal point in $EPOCHREALTIME and in the numbers parsed, whatever the locale
cd "$(dirname "$0")/.."
lbbench=${1:-build/lbbench}
shift || true
configs=("$@")
if [ ${#configs[@]} -eq 0 ]; then
  for c in configs/*.yaml configs/papers/*.yaml; do
    grep -q '^balance_cases:' "$c" || configs+=("$c")
  done
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
load() { cut -d' ' -f1 /proc/loadavg; }
printf '%-42s %8s %9s %10s %7s %9s %7s  %s\n' config wall_s cpu_s overhead_s share results_s share load
for c in "${configs[@]}"; do
  before=$(load)
  start=$EPOCHREALTIME
  if ! "$lbbench" run "$c" -o "$tmp/out" --costs > /dev/null 2> "$tmp/costs.txt"; then
    printf '%-42s failed: %s\n' "$c" "$(tail -n 1 "$tmp/costs.txt")"
    continue
  fi
  wall=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN {printf "%.2f", b - a}')
  cpu=$(sed -n 's/^CPU time of this invocation: \([0-9.]*\) s.*/\1/p' "$tmp/costs.txt")
  read -r overhead share < <(awk '/verification \+ results \+ harness/ {print $(NF-3), $(NF-1)}' \
    "$tmp/costs.txt")
  read -r results results_share < <(awk '/^  results: / {s += $(NF-3); p += $(NF-1)}
    END {printf "%.3f %.1f\n", s, p}' "$tmp/costs.txt")
  printf '%-42s %8s %9s %10s %6s%% %9s %6s%%  %s-%s\n' "$c" "$wall" "$cpu" "$overhead" "$share" \
    "$results" "$results_share" "$before" "$(load)"
  rm -rf "$tmp/out"
done
