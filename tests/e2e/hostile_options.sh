#!/usr/bin/env bash
# Hostile command-line options (issue 39) get a message and exit 2: a regular expression RE2
# refuses, numbers that are NaN, infinite or absurd, an empty --slice; and a run
# this process cannot start (its threads, its memory) is refused before anything is written.
set -uo pipefail
lbbench=$1
. "$(dirname "$0")/lib/scratch.sh"
fails=0
. "$(dirname "$0")/lib/expect.sh"
# 80,000 characters crashed std::regex's recursive compiler (SIGSEGV) in table, run and compare;
# RE2 takes them, and refuses a pattern whose program would outgrow its memory bound.
long=$(head -c 80000 /dev/zero | tr '\0' a)
"$lbbench" run configs/smoke.yaml --no-write --exclude "$long" > /dev/null ||
  { echo "FAIL: a literal pattern of 80,000 characters was refused"; fails=$((fails + 1)); }
expect 2 "--only: not a regular expression: .*(invalid repetition size|too large)" -- \
  "$lbbench" run configs/smoke.yaml --no-write --only '((a{1000}){1000}){1000}'
expect 2 "--exclude: not a regular expression: \\(" -- \
  "$lbbench" compare configs/smoke.yaml configs/smoke.yaml --exclude '('
# std::regex backtracked exponentially: (a|aa)*c$ against a label of 190 a's did not end. RE2 is
# linear in the text; the run ends (the timeout fails the test if it does not).
cat > "$tmp/aa.yaml" <<EOF
name: aa
workload: { kind: block_substitution, blocks: 8, width: 4 }
platform: { processors: 2 }
execution: { steps: 2 }
balancers:
  - { static: block, label: $(head -c 190 /dev/zero | tr '\0' a) }
EOF
timeout 60 "$lbbench" run "$tmp/aa.yaml" --no-write --exclude '(a|aa)*c$' > /dev/null ||
  { echo "FAIL: a backtracking pattern did not end or failed"; fails=$((fails + 1)); }
# NaN was read as 0; speeds 1e-308 beside 1e308 moved -2^63 units a phase for 100,000 phases.
expect 2 "--latency: nan must be a finite number" -- \
  "$lbbench" simulate --replay configs/smoke.yaml --latency nan
expect 2 "--bandwidth: inf must be a finite number" -- \
  "$lbbench" simulate --replay configs/smoke.yaml --bandwidth inf
expect 2 "--latency: -1 must be >= 0" -- "$lbbench" simulate --replay configs/smoke.yaml --latency -1
expect 2 "--speeds: '1e-308' must be >= 1e-06" -- "$lbbench" balance --method diffusion_horton \
  --topology chain --loads 5,1,7 --speeds 1e-308,1e308,1
expect 2 "--speeds: 'nan' must be a finite number" -- "$lbbench" balance --method diffusion_horton \
  --topology chain --loads 5,1,7 --speeds nan,1,1
expect 2 "--speeds: 1e\+07 must be <= 1e\+06" -- \
  "$lbbench" partition --method block --processors 2 <(echo 1 2 3) --speeds 1,1e7
"$lbbench" balance --method diffusion_horton --topology chain --loads 5,1,7 \
  --speeds 1e-6,1e6,1 > /dev/null || { echo "FAIL: speeds 1e-6,1e6,1 were refused"; fails=$((fails + 1)); }
# An empty slice ran everything.
expect 2 "--slice: '' is not i/n with 0 <= i < n" -- \
  "$lbbench" run configs/smoke.yaml -o "$tmp/slice.h5" --slice ""
[ -e "$tmp/slice.h5" ] && { echo "FAIL: a refused slice wrote $tmp/slice.h5"; fails=$((fails + 1)); }
# Limits (AddressSanitizer reserves more address space than these, so a sanitized build skips).
if ! ldd "$lbbench" | grep libasan > /dev/null; then
  cat > "$tmp/threads.yaml" <<'YAML'
name: threads
workload: { kind: block_substitution, blocks: 256, width: 4, mean_lines: 2 }
platform: { processors: 256 }
execution: { steps: 1 }
balancers: [ { static: block } ]
YAML
  # 255 thread stacks of 8 MiB do not fit in 1 GB: libgomp ended the process with only
  # "Thread creation failed" (exit 1).
  ( ulimit -v 1000000; ulimit -s 8192; fails=0
    expect 2 "cannot start the 256 threads of a run at 256 processors: thread [0-9]+ failed" -- \
      "$lbbench" run "$tmp/threads.yaml" -o "$tmp/threads.h5"
    exit "$fails" ) || fails=$((fails + 1))
  [ -e "$tmp/threads.h5" ] && { echo "FAIL: a refused run wrote $tmp/threads.h5"; fails=$((fails + 1)); }
  # Barnes-Hut, 2^26 bodies in 3-D, one a module: about 86 GB; it passed validate and ended in
  # std::bad_alloc after 39 s under a 4 GiB limit.
  cat > "$tmp/bodies.yaml" <<'YAML'
name: bodies
workload: { kind: barnes_hut, particles: 67108864, dimensions: 3, decomposition: particles,
  bodies_per_module: 1 }
platform: { processors: 2 }
balancers: [ { static: block } ]
YAML
  ( ulimit -v 4194304; fails=0
    expect 2 "barnes_hut needs about [0-9.]+ GiB for its state at these parameters, more than this machine's 4 GiB" -- \
      "$lbbench" validate "$tmp/bodies.yaml"
    exit "$fails" ) || fails=$((fails + 1))
fi
echo "hostile_options: $fails failures"
[ "$fails" -eq 0 ]
