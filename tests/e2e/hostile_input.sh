#!/usr/bin/env bash
# Input that used to crash, abort or exhaust memory gets a message and exit 2 (bad input) or 1.
set -uo pipefail
lbbench=$1
. "$(dirname "$0")/lib/scratch.sh"
fails=0
. "$(dirname "$0")/lib/expect.sh"
expect 2 "^/dev/zero: larger than 4 MiB" -- "$lbbench" validate /dev/zero
expect 2 "aliases \(\*name\) are not supported" -- \
  "$lbbench" validate configs/smoke.yaml --set 'workload.sd=&a [1, *a]'
thousand=$(seq -s, 1 1000)
printf 'workload: { kind: block_substitution, blocks: 4096, seed: [%s] }\nplatform: { processors: 1, load_seed: [%s] }\nexecution: { steps: [%s] }\nbalancers: [ { static: block } ]\n' \
  "$thousand" "$thousand" "$thousand" > "$tmp/sweep.yaml"
expect 2 "sweep.yaml:1:1: the sweeps expand to 1e\+09 configurations" -- "$lbbench" validate "$tmp/sweep.yaml"
printf 'steps: 1\nsteps: 2\n' > "$tmp/dup.yaml"
expect 2 "dup.yaml:2:1: duplicated key 'steps'" -- "$lbbench" validate "$tmp/dup.yaml"
expect 2 "--processors must be in \[1, 1048576\], got 100000000" -- \
  "$lbbench" partition --method block --processors 100000000 <(echo 1 2 3)
sed 's/static: cyclic/dynamic: redistribution, partitioner: nope/' configs/smoke.yaml > "$tmp/nope.yaml"
expect 2 "partitioner: 'nope' is not a registered static partitioner" -- "$lbbench" validate "$tmp/nope.yaml"
# std::bad_alloc is a message and exit 1, not an abort (134). AddressSanitizer reserves more
# address space than any such limit, so a sanitized build skips this one.
# grep reads all of ldd's output: with -q it could exit first, and pipefail would see SIGPIPE.
if ! ldd "$lbbench" | grep libasan > /dev/null; then
  spike="100000000$(printf ',0%.0s' $(seq 9999))"
  ( ulimit -v 1000000; fails=0
    # Weights streamed without end outgrow the limit.
    expect 1 "^lbbench: out of memory" -- \
      bash -c 'yes 1 | "$0" partition --method block --processors 2 > /dev/null' "$lbbench"
    # The up-front memory check counts the limit (it counted the machine's memory alone, and
    # 5000 and 8000 phases ran out while the JSON report was built, whose destructor allocates).
    for phases in 10000 8000 5000 3000; do
      expect 2 "may keep up to $phases transfer phases of 10000 loads, about [0-9.]+ GiB with its report, more than this machine's 0.954 GiB" \
        -- "$lbbench" balance --method diffusion_horton --topology chain --loads "$spike" \
        --param "max_phases=$phases"
    done
    exit "$fails" ) || fails=$((fails + 1))
fi
echo "hostile_input: $fails failures"
[ "$fails" -eq 0 ]
