#!/usr/bin/env bash
# The field's formats (harness/formats/): a run exported as vt LBDatafiles that validate against
# vt's documented format, imported back as workload kind trace and replayed with the same
# decisions; a hand-written vt set and a CSV trace that every applicable balancer runs on; a
# Chrome timeline's structure; hostile traces refused with exit 2.
set -uo pipefail
lbbench=$1
fails=0
here=$(dirname "$0")
. "$here/lib/scratch.sh"
. "$here/lib/expect.sh"
py=/usr/bin/python3  # Debian's, with python3-jsonschema (run.sh installs it)

run() {  # run NAME CONFIG-BODY...: writes $tmp/NAME.yaml and runs it into $tmp/NAME
  printf '%s\n' "name: $1" "${@:2}" >"$tmp/$1.yaml"
  "$lbbench" run "$tmp/$1.yaml" -o "$tmp/$1" >"$tmp/$1.log" 2>&1 || {
    echo "FAIL: run $1"; cat "$tmp/$1.log"; fails=$((fails + 1)); }
}

owners_at_step0() {  # owners_at_step0 SET: module owners of the first step, in module order
  "$lbbench" export "$1" --to "$1.export" >/dev/null &&
    $py -c "import csv; r = [x for x in csv.DictReader(open('$1.export/modules.csv')) if x['step'] == '0']
print(' '.join(x['owner'] for x in sorted(r, key=lambda x: int(x['module']))))"
}

round_trip() {  # round_trip SET P STEPS: each run of $tmp/SET replayed from its vt export
  "$lbbench" export "$tmp/$1" --to "$tmp/$1_vt" --format vt >/dev/null || fails=$((fails + 1))
  $py "$here/check_lbdatafile.py" "$tmp/$1"_vt/*/data.*.json || fails=$((fails + 1))
  "$lbbench" export "$tmp/$1" --to "$tmp/$1_csv" >/dev/null || fails=$((fails + 1))
  for dir in "$tmp/$1"_vt/*/; do
    label=$($py -c "import csv
print({r['run'].replace('.', '_'): r['balancer'] for r in csv.DictReader(open('$tmp/$1_csv/runs.csv'))}['$(basename "$dir")'])")
    run "$1_b_$label" "workload: { kind: trace, file: '$dir' }" \
      "platform: { processors: $2, topology: chain }" \
      "execution: { executor: simulate, steps: $3, record: modules }" \
      "balancers: [{ dynamic: $label }]"
    mkdir -p "$tmp/$1_b" && mv "$tmp/$1_b_$label"/* "$tmp/$1_b/"
  done
  "$lbbench" export "$tmp/$1_b" --to "$tmp/$1_b_csv" >/dev/null || fails=$((fails + 1))
  $py "$here/check_roundtrip.py" "$tmp/$1_csv" "$tmp/$1_b_csv" || fails=$((fails + 1))
}

# Export -> import -> replay, on a drifting synthetic load that makes the balancers move (of one
# phase and of two), and on a real run of kernels (block substitution's uneven blocks), as
# `simulate --replay` replays it.
balancers=(greedy refine diffusion random redistribution multilevel)
run a "workload: { kind: synthetic, modules: 24, model: drift, drift_sd: 0.4, seed: 5 }" \
  "platform: { processors: 4, topology: chain }" \
  "execution: { executor: simulate, steps: 8, repetitions: 1, record: modules }" \
  "balancers: [$(printf '{ dynamic: %s }, ' "${balancers[@]}")]"
round_trip a 4 8
# A workload of two phases, each balanced on its own (in-step schemes too): each step's phases are
# consecutive vt phases, the files say how many make a step, and the import balances them apart.
run phases \
  "workload: { kind: synthetic, modules: 24, model: drift, drift_sd: 0.4, seed: 7, phases: 2 }" \
  "platform: { processors: 4, topology: chain }" \
  "execution: { executor: simulate, steps: 8, repetitions: 1, record: modules }" \
  "balancers: [{ dynamic: greedy }, { dynamic: refine }, { dynamic: diffusion }, { dynamic: gcdlb }]"
round_trip phases 4 8
# TRFD's two loops on real kernels (the between-step balancers: an in-step scheme's decisions
# depend on when the real threads met, which no record holds).
run trfd "workload: { kind: trfd, n: 20, iterations_per_module: 1, seed: 1 }" \
  "platform: { processors: 4, topology: chain }" "execution: { steps: 6, record: modules }" \
  "balancers: [{ dynamic: greedy }, { dynamic: refine }, { dynamic: diffusion }]"
round_trip trfd 4 6
run real "workload: { kind: block_substitution, blocks: 16, width: 16, mean_lines: 4, sd: 1.0, seed: 3 }" \
  "platform: { processors: 4, topology: chain }" "execution: { steps: 6, record: modules }" \
  "balancers: [{ dynamic: greedy }, { dynamic: diffusion }]"
round_trip real 4 6

# A timeline of one run.
"$lbbench" export "$tmp/a" --to "$tmp/timeline" --format chrome >/dev/null || fails=$((fails + 1))
for f in "$tmp"/timeline/*.trace.json; do $py "$here/check_timeline.py" "$f" 4 >/dev/null || {
  echo "FAIL: timeline $f"; fails=$((fails + 1)); }; done
"$lbbench" export "$tmp/a" --to "$tmp/timeline2" --timeline >/dev/null &&  # the issue's spelling
  diff -rq "$tmp/timeline" "$tmp/timeline2" >/dev/null || { echo "FAIL: --timeline"; fails=$((fails + 1)); }
"$lbbench" export "$tmp/a" --to "$tmp/timeline3" --timeline --format vt >/dev/null 2>&1 &&
  { echo "FAIL: --timeline with --format vt taken"; fails=$((fails + 1)); }

# The hand-written vt set (3 ranks, 2 phases) and the CSV trace under every balancer that runs
# between steps or in a step, on 2 to 5 processors; the table gives verdicts on them.
mapfile -t every < <("$lbbench" list | $py "$here/balancer_names.py")
[ "${#every[@]}" -ge 10 ] || { echo "FAIL: balancer list: ${every[*]}"; fails=$((fails + 1)); }
entries=$(printf '%s, ' "${every[@]}")
run vt "workload: { kind: trace, file: '$LBB_SOURCE_DIR/tests/data/vt_trace' }" \
  "platform: { processors: [2, 3, 5] }" \
  "execution: { executor: simulate, steps: 2, repetitions: 3 }" "balancers: [${entries%, }]"
run csv "workload: { kind: trace, file: '$LBB_SOURCE_DIR/tests/data/trace.csv' }" \
  "platform: { processors: 2 }" \
  "execution: { executor: simulate, steps: 3, repetitions: 1 }" "balancers: [${entries%, }]"
# Without owners a CSV trace starts from the partition (block here, greedy's own start).
printf 'step,task,cost\n0,0,0.3\n0,1,0.1\n0,2,0.1\n0,3,0.1\n1,0,0.3\n1,1,0.1\n1,2,0.1\n1,3,0.1\n' \
  >"$tmp/no_owner.csv"
run no_owner "workload: { kind: trace, file: '$tmp/no_owner.csv' }" "platform: { processors: 2 }" \
  "execution: { executor: simulate, steps: 2, record: modules }" "balancers: [{ dynamic: greedy }]"
[ "$(owners_at_step0 "$tmp/no_owner")" = "0 0 1 1" ] || {
  echo "FAIL: CSV without owners: $(owners_at_step0 "$tmp/no_owner")"; fails=$((fails + 1)); }
for set in vt csv; do
  "$lbbench" table --wide "$tmp/$set" >"$tmp/$set.table" 2>&1 || { echo "FAIL: table $set";
    cat "$tmp/$set.table"; fails=$((fails + 1)); }
done
# One complete row per balancer and P in the vt set's table (one repetition each, whatever the
# config asks: a simulated run repeats its value; --wide: the compact one has no verified column),
# not verified: simulated (no kernel ran).
rows=$(grep -cE '^trace +[235] .* 1 .* not verified: simulated' "$tmp/vt.table")
[ "$rows" -eq $((3 * ${#every[@]})) ] || {
  echo "FAIL: vt table: $rows verified rows of $((3 * ${#every[@]}))"; fails=$((fails + 1)); }

# vt's default, brotli-compressed files, read as the plain ones are.
mkdir -p "$tmp/vt_br"
$py -c "import brotli, glob, os
for f in glob.glob('$LBB_SOURCE_DIR/tests/data/vt_trace/*.json'):
    open('$tmp/vt_br/' + os.path.basename(f), 'wb').write(brotli.compress(open(f, 'rb').read()))"
for kind in vt_trace vt_br; do
  dir=$LBB_SOURCE_DIR/tests/data/vt_trace
  [ "$kind" = vt_br ] && dir=$tmp/vt_br
  run "$kind" "workload: { kind: trace, file: '$dir' }" "platform: { processors: 3 }" \
    "execution: { executor: simulate, steps: 2, record: modules }" "balancers: [{ dynamic: greedy }]"
  "$lbbench" export "$tmp/$kind" --to "$tmp/$kind.export" >/dev/null
  $py -c "import csv
print(sorted(sorted((k, v) for k, v in r.items() if k != 'run')
             for r in csv.DictReader(open('$tmp/$kind.export/modules.csv'))))" >"$tmp/$kind.modules"
done
[ -s "$tmp/vt_br.modules" ] && cmp -s "$tmp/vt_trace.modules" "$tmp/vt_br.modules" || {
  echo "FAIL: compressed vt files"; fails=$((fails + 1)); }

# A prescribed mapping (vt's OfflineLB idea) read by the harness: the vt set's first phase on the
# simulator, and a text file on real kernels; a mapping that is not one is refused.
run offline "workload: { kind: trace, file: '$LBB_SOURCE_DIR/tests/data/vt_trace' }" \
  "platform: { processors: 3 }" "execution: { executor: simulate, steps: 2, record: modules }" \
  "balancers: [{ static: prescribed, assignment: '$LBB_SOURCE_DIR/tests/data/vt_trace' }]"
[ "$(owners_at_step0 "$tmp/offline")" = "0 0 0 1 1 2 2" ] || {
  echo "FAIL: prescribed from vt: $(owners_at_step0 "$tmp/offline")"; fails=$((fails + 1)); }
printf '1, 0\n1 0\n' >"$tmp/map.txt"
run kernels "workload: { kind: block_substitution, blocks: 4, width: 8, mean_lines: 2, seed: 1 }" \
  "platform: { processors: 2 }" "execution: { steps: 2, record: modules }" \
  "balancers: [{ static: prescribed, assignment: '$tmp/map.txt' }]"
[ "$(owners_at_step0 "$tmp/kernels")" = "1 0 1 0" ] || {
  echo "FAIL: prescribed from text: $(owners_at_step0 "$tmp/kernels")"; fails=$((fails + 1)); }
printf '0 x\n' >"$tmp/bad_map.txt"
sed "s|$tmp/map.txt|$tmp/bad_map.txt|" "$tmp/kernels.yaml" >"$tmp/bad_map.yaml"
expect 2 "bad_map.txt: module 1's owner 'x' is not a processor" -- "$lbbench" validate "$tmp/bad_map.yaml"
printf '0 1 0\n' >"$tmp/short_map.txt"
sed "s|$tmp/map.txt|$tmp/short_map.txt|" "$tmp/kernels.yaml" >"$tmp/short_map.yaml"
expect 2 "prescribed: the assignment has 3 owners for 4 modules" -- \
  "$lbbench" run "$tmp/short_map.yaml" -o "$tmp/short_map"
printf '0 1 0 2\n' >"$tmp/far_map.txt"
sed "s|$tmp/map.txt|$tmp/far_map.txt|" "$tmp/kernels.yaml" >"$tmp/far_map.yaml"
expect 2 "prescribed: module 3 on processor 2 of 2" -- "$lbbench" validate "$tmp/far_map.yaml"

# A run longer than its trace is refused before it starts.
sed 's/steps: 2, /steps: 3, /' "$tmp/offline.yaml" >"$tmp/long.yaml"
expect 2 "the trace has 2 steps; the run needs 3" -- "$lbbench" validate "$tmp/long.yaml"

# Hostile traces: a clear message and exit 2, never a crash or memory exhaustion (under a 4 GB
# limit; AddressSanitizer reserves more address space than that, so a sanitized build runs free).
sanitized=$(ldd "$lbbench" | grep -c libasan || true)
hostile() {  # hostile NAME PATTERN: $tmp/h/NAME holds the trace
  printf '%s\n' "name: h" "workload: { kind: trace, file: '$tmp/h/$1' }" "platform: { processors: 2 }" \
    "execution: { executor: simulate, steps: 1, repetitions: 1 }" "balancers: [{ dynamic: greedy }]" \
    >"$tmp/h.yaml"
  (if [ "$sanitized" = 0 ]; then ulimit -v 4000000; fi
    expect 2 "$2" -- "$lbbench" run "$tmp/h.yaml" -o "$tmp/h_out"; exit $fails)
  fails=$?
}
mkdir -p "$tmp/h"
good='{"entity": {"type": "object", "id": 1, "home": 0, "migratable": true}, "node": 0, "resource": "cpu", "time": 0.5}'
echo "{\"phases\": [{\"id\": 0, \"tasks\": [${good/0.5/\"x\"}]}]}" >"$tmp/h/type.json"
hostile type.json 'phases\[0\]\.tasks\[0\]\.time: expected a number'
echo '{"type": "LBDatafile"}' >"$tmp/h/nophases.json"
hostile nophases.json "missing 'phases'"
echo "{\"phases\": [{\"id\": 0, \"tasks\": [${good/0.5/-1.0}]}]}" >"$tmp/h/negative.json"
hostile negative.json 'negative.json: phases\[0\]\.tasks\[0\]\.time: -1 is not a time in \[0, 1e\+06\] s'
# Times and bytes past any recording (docs/workloads.md gives the bounds), and a file that says it
# is no LBDatafile: each refused with its file and field.
echo "{\"phases\": [{\"id\": 0, \"tasks\": [${good/0.5/1e30}]}]}" >"$tmp/h/eons.json"
hostile eons.json 'eons.json: phases\[0\]\.tasks\[0\]\.time: 1e\+30 is not a time'
echo "{\"phases\": [{\"id\": 0, \"tasks\": [${good/0.5/18446744073709551616}]}]}" >"$tmp/h/two64.json"
hostile two64.json 'two64.json: phases\[0\]\.tasks\[0\]\.time: 1\.845e\+19 is not a time'
entity='{"type": "object", "id": 1, "home": 0, "migratable": true}'
for b in -1:-1 1e30:1e\\+30; do  # the value written, and as the message prints it
  echo "{\"phases\": [{\"id\": 0, \"tasks\": [$good], \"communications\": [{\"type\": \"SendRecv\"," \
    "\"from\": $entity, \"to\": $entity, \"messages\": 1, \"bytes\": ${b%%:*}}]}]}" >"$tmp/h/bytes.json"
  hostile bytes.json "bytes.json: phases\[0\]\.communications\[0\]\.bytes: ${b#*:} is not a byte count"
done
echo "{\"type\": \"NotLB\", \"phases\": [{\"id\": 0, \"tasks\": [$good]}]}" >"$tmp/h/other.json"
hostile other.json "other.json: type: '\"NotLB\"' is not an LBDatafile"
printf 'step,task,cost\n0,1,1e30\n' >"$tmp/h/eons.csv"
hostile eons.csv 'eons.csv:2: cost: 1e\+30 is not a time'
printf 'step,task,cost,bytes\n0,1,0.1,-1\n' >"$tmp/h/bytes.csv"
hostile bytes.csv 'bytes.csv:2: bytes: -1 is not a byte count'
echo "{\"phases\": [{\"id\": 0, \"tasks\": [${good/\"node\": 0/\"node\": 99999999}]}]}" >"$tmp/h/rank.json"
hostile rank.json "a rank .* must be in"
$py -c "print('{\"phases\": ' + '[' * 200000 + ']' * 200000 + '}')" >"$tmp/h/deep.json"
hostile deep.json "nested deeper than"
truncate -s 300M "$tmp/h/huge.json"
hostile huge.json "more than the .* a trace file may have"
# A billion tasks claimed: step k holds task k (k < 5000), a 5000 x 5000 matrix, is refused.
$py -c "
print('step,task,cost')
for k in range(5000): print(f'{k},{k * 200000},0.1')" >"$tmp/h/claim.csv"
hostile claim.csv "phases x 5000 tasks is more than"
two_phases() {  # two_phases F: two phases of one task, F of them a step
  echo "{\"metadata\": {\"attributes\": {\"phases_per_step\": $1}}," \
    "\"phases\": [{\"id\": 0, \"tasks\": [$good]}, {\"id\": 1, \"tasks\": [$good]}]}"
}
two_phases 3 >"$tmp/h/steps.json"
hostile steps.json "2 phases are not whole steps of 3 phases"
two_phases 0 >"$tmp/h/zero.json"
hostile zero.json "phases_per_step must be in \[1, "
printf 'step,task,cost\n0,1,abc\n' >"$tmp/h/bad.csv"
hostile bad.csv "bad.csv:2: 'abc' is not a number"
printf 'step,task\n0,1\n' >"$tmp/h/header.csv"
hostile header.csv "the header lacks 'cost'"
printf '\x1b\x2f\x00\x00' >"$tmp/h/garbage.json"
hostile garbage.json "neither JSON nor brotli-compressed JSON"
$py -c "import brotli, sys; sys.stdout.buffer.write(brotli.compress(b' ' * (300 << 20), quality=1))" \
  >"$tmp/h/bomb.json"
hostile bomb.json "inflates to more than the .* bytes a trace file may have"
hostile missing.json "no trace files"
printf 'step,task,cost,owner\n0,0,0.1,0\n0,1,0.1,\n' >"$tmp/h/some_owners.csv"
hostile some_owners.csv "owners are given for some tasks only"

echo "formats: $fails failures"
[ "$fails" -eq 0 ]
