#!/usr/bin/env bash
# vt's LBDatafile without loss (issue 49, items 1-2): on every workload, runs of several phases,
# at unequal speeds and carrying communication are exported, checked against vt's schema,
# imported back as workload kind trace and replayed, and the replay's owners, migrations, bytes
# moved, task times and communication bytes equal the run's; a hand-written set (integer and
# fractional bytes, subphases, shared_node, seq_id and collection ids, tasks with migratable:
# false) comes back from import -> run -> export unchanged, and no balancer moves its
# non-migratable tasks. Prints the counts per workload (docs/evidence/vt-roundtrip-2026-12-03.md).
set -uo pipefail
lbbench=$1
fails=0
here=$(dirname "$0")
. "$here/lib/scratch.sh"
py=/usr/bin/python3  # Debian's, with python3-jsonschema (run.sh installs it)
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

run() {  # run NAME CONFIG-BODY...: writes $tmp/NAME.yaml and runs it into $tmp/NAME
  printf '%s\n' "name: $1" "${@:2}" >"$tmp/$1.yaml"
  "$lbbench" run "$tmp/$1.yaml" -o "$tmp/$1" >"$tmp/$1.log" 2>&1 || { fail "run $1"; cat "$tmp/$1.log"; }
}

# round_trip NAME PLATFORM STEPS [KEYS]: each run of $tmp/NAME exported, validated, replayed
# from its export on the same platform (its balancer entry given KEYS, as the run's was), and
# compared with its replay run by run.
round_trip() {
  "$lbbench" export "$tmp/$1" --to "$tmp/$1_vt" --format vt >/dev/null || fail "export $1"
  $py "$here/check_lbdatafile.py" "$tmp/$1"_vt/*/data.*.json || fail "schema $1"
  "$lbbench" export "$tmp/$1" --to "$tmp/$1_csv" >/dev/null || fail "csv $1"
  for dir in "$tmp/$1"_vt/*/; do
    label=$($py -c "import csv
print({r['run'].replace('.', '_'): r['balancer'] for r in csv.DictReader(open('$tmp/$1_csv/runs.csv'))}['$(basename "$dir")'])")
    run "$1_b_$label" "workload: { kind: trace, file: '$dir' }" "platform: $2" \
      "execution: { executor: simulate, steps: $3, record: modules }" \
      "balancers: [{ dynamic: $label${4:-} }]"
    grep -q "note: .*recorded at speeds" "$tmp/$1_b_$label.log" && fail "$1 $label: a speed note"
    "$lbbench" export "$tmp/$1_b_$label" --to "$tmp/$1_bvt_$label" --format vt >/dev/null
    $py "$here/check_vt_same.py" "$dir" "$tmp/$1_bvt_$label"/*/ "$1 $label" || fail "vt $1 $label"
    mkdir -p "$tmp/$1_b" && mv "$tmp/$1_b_$label"/* "$tmp/$1_b/"
  done
  "$lbbench" export "$tmp/$1_b" --to "$tmp/$1_b_csv" >/dev/null || fail "csv $1 replayed"
  $py "$here/check_roundtrip.py" "$tmp/$1_csv" "$tmp/$1_b_csv" "$1" || fail "replay $1"
}

slow="{ processors: 4, topology: chain, speeds: last:0.5 }"
# Simulated: two phases, a chain of neighbours reading 1536.5 B of each other per phase, the last
# processor at half speed. gcdlb moves tasks inside the first step before they run: the files say
# where each began (start_node), so the replay starts there and makes the same moves.
run synthetic "workload: { kind: synthetic, modules: 24, model: drift, drift_sd: 0.4, seed: 7," \
  "  phases: 2, dependencies: chain, exchange_bytes: 1536.5 }" "platform: $slow" \
  "execution: { executor: simulate, steps: 6, repetitions: 1, record: modules }" \
  "balancers: [{ dynamic: greedy }, { dynamic: refine }, { dynamic: diffusion }, { dynamic: gcdlb }]"
round_trip synthetic "$slow" 6
$py - "$tmp/synthetic_csv" "$tmp"/synthetic_vt <<'EOF' || fail "gcdlb's first-step moves"
import csv, glob, json, sys
gcdlb = [r["run"] for r in csv.DictReader(open(f"{sys.argv[1]}/runs.csv")) if r["balancer"] == "gcdlb"]
first = [int(r["migrations"]) for r in csv.DictReader(open(f"{sys.argv[1]}/steps.csv"))
         if r["run"] in gcdlb and r["step"] == "0"]
moved = sum(1 for f in glob.glob(f"{sys.argv[2]}/{gcdlb[0].replace('.', '_')}/data.*.json")
            for p in json.load(open(f))["phases"] if p["id"] < 2
            for t in p["tasks"] if "start_node" in t.get("attributes", {}))
assert first and first[0] > 0 and moved > 0, (first, moved)
print(f"gcdlb at speeds 1,1,1,0.5: {first[0]} moves in step 0, {moved} tasks with a start_node")
EOF
# Real kernels, the last processor at half speed (between-step balancers: an in-step scheme's
# decisions depend on when the real threads met, which no record holds).
kernels="execution: { steps: 4, record: modules }"
between="balancers: [{ dynamic: greedy }, { dynamic: diffusion }]"
run block_substitution \
  "workload: { kind: block_substitution, blocks: 16, width: 16, mean_lines: 4, sd: 1.0, seed: 3 }" \
  "platform: $slow" "$kernels" "$between"
round_trip block_substitution "$slow" 4
run barnes_hut \
  "workload: { kind: barnes_hut, particles: 400, dimensions: 2, cells_per_side: 4, seed: 1 }" \
  "platform: $slow" "$kernels" "$between"
round_trip barnes_hut "$slow" 4
# Its bodies cross cells: sizes change step by step and only edges that carry bytes are written.
$py - "$tmp"/barnes_hut_vt <<'EOF' || fail "barnes_hut's sizes and edges"
import glob, json, sys
sizes, edges = set(), []
for f in glob.glob(f"{sys.argv[1]}/*/data.*.json"):
    for p in json.load(open(f))["phases"]:
        sizes |= {(t["entity"]["id"], t["attributes"]["state_bytes"]) for t in p["tasks"]}
        edges += [c["bytes"] for c in p.get("communications", [])]
assert edges and min(edges) > 0 and all(b % 48 == 0 for b in edges), edges[:5]
assert len(sizes) > 16, "no task's state_bytes changed"
print(f"barnes_hut: {len(sizes)} (task, state_bytes) pairs, {len(edges)} edges of bodies "
      f"crossing cells ({sum(edges):.17g} B), none of 0 bytes")
EOF
# Warm-up steps (execution.warmup) run and balance unrecorded: each phase's state_bytes in the
# file is the size its step began with, at the first phase the size at the warm-up's end, which
# a run without warm-up records after its second step (the bodies move alike whoever owns the
# cells); the replay starts from it and moves the same.
bh="workload: { kind: barnes_hut, particles: 400, dimensions: 2, cells_per_side: 4, seed: 1 }"
run warm "$bh" "platform: $slow" "execution: { steps: 4, warmup: 2, record: modules }" \
  "balancers: [{ dynamic: greedy, min_gain: 0 }, { dynamic: diffusion, min_gain: 0 }]"
round_trip warm "$slow" 4 ", min_gain: 0"
run cold "$bh" "platform: $slow" "execution: { steps: 6, record: modules }" \
  "balancers: [{ dynamic: none }]"
"$lbbench" export "$tmp/cold" --to "$tmp/cold_csv" >/dev/null || fail "csv cold"
"$lbbench" export "$tmp/cold" --to "$tmp/cold_vt" --format vt >/dev/null || fail "export cold"
$py - "$tmp/cold_csv" "$tmp"/cold_vt "$tmp"/warm_vt "$tmp"/warm_bvt_* <<'EOF' || fail "warm-up sizes"
import csv, glob, json, sys
def sizes(run):  # (phase, task) -> state_bytes
    return {(p["id"], t["entity"]["id"]): t["attributes"]["state_bytes"]
            for f in glob.glob(f"{run}/data.*.json") for p in json.load(open(f))["phases"]
            for t in p["tasks"]}
ends = {(int(r["step"]), int(r["module"])): int(r["state_bytes"])
        for r in csv.DictReader(open(f"{sys.argv[1]}/modules.csv"))}
first = sizes(glob.glob(f"{sys.argv[2]}/*/")[0])  # the cold run's phase 0: the first sizes
grew = [m for m in range(16) if first[(0, m)] != ends[(1, m)]]
assert grew, "no cell changed size in the warm-up: the check would prove little"
runs = [run for folder in sys.argv[3:] for run in glob.glob(f"{folder}/*/")]
for run in runs:
    got = sizes(run)
    assert len(got) == 4 * 16, (run, len(got))
    bad = [(k, b, ends[(k[0] + 1, k[1])]) for k, b in sorted(got.items())
           if b != ends[(k[0] + 1, k[1])]]
    assert not bad, f"{run}: ((phase, task), state_bytes, size its step began with): {bad[:4]}"
print(f"warm-up of 2 steps: in {len(runs)} exports (run and replay) each phase's state_bytes is "
      f"the size its step began with; {len(grew)} of 16 cells' sizes changed in the warm-up")
EOF
# Matmul's row blocks read only their own rows of X and the shared, read-only Y; their sums go
# to the end of the step, not to another block: no edges.
run matmul "workload: { kind: matmul, n: 96, r: 24, m: 24, block_rows: 4, seed: 1 }" \
  "platform: $slow" "$kernels" "$between"
round_trip matmul "$slow" 4
$py - "$tmp"/matmul_vt/*/ "$tmp"/matmul_bvt_*/*/ <<'EOF' || fail "matmul's edges"
import glob, json, sys
edges = [c for run in sys.argv[1:] for f in glob.glob(f"{run}/data.*.json")
         for p in json.load(open(f))["phases"] for c in p.get("communications", [])]
assert len(sys.argv) == 5 and not edges, (len(sys.argv), edges[:3])
print(f"matmul: {len(sys.argv) - 1} exports, 0 edges (blocks read no other block's output)")
EOF
# TRFD's phases read transposes: phase 1 of module m reads column rs (each rs of m's rows) of
# every row of the half-transformed array, phase 0 (from the second step on) the upper part of
# each of its rows ij, (kl|ij) for kl > ij, in the rows phase 1 wrote. The edges' bytes are
# derived here from those loops over the packed pairs, 8 B a double read in another's row.
run trfd "workload: { kind: trfd, n: 20, iterations_per_module: 1, seed: 1 }" \
  "platform: $slow" "$kernels" "$between"
round_trip trfd "$slow" 4
$py - "$tmp"/trfd_vt/*/ "$tmp"/trfd_bvt_*/*/ <<'EOF' || fail "trfd's edges"
import glob, json, sys
from collections import Counter
n, steps = 20, 4
np_ = n * (n + 1) // 2
owner = [i for i in range(n) for _ in range(i + 1)]  # packed pair ij = i(i+1)/2 + j: module i
want = {}
for step in range(steps):
    for phase in (0, 1):
        reads = Counter()
        for ij in range(np_):
            m = owner[ij]
            if phase == 1:  # module m, for each rs = ij of its rows: column rs of every row
                reads.update((owner[k], m) for k in range(np_) if owner[k] != m)
            elif step > 0:  # row ij's upper part, (kl|ij) in rows kl > ij
                reads.update((owner[k], m) for k in range(ij + 1, np_) if owner[k] != m)
        want[2 * step + phase] = {e: 8 * c for e, c in reads.items()}
total = sum(sum(w.values()) for w in want.values())
for run in sys.argv[1:]:
    got = {}
    for f in glob.glob(f"{run}/data.*.json"):
        for p in json.load(open(f))["phases"]:
            for c in p.get("communications", []):
                got.setdefault(p["id"], {})[(c["from"]["id"], c["to"]["id"])] = c["bytes"]
    assert got == {k: v for k, v in want.items() if v}, (run, sorted(got)[:4])
edges = sum(len(w) for w in want.values())
assert edges > 0 and len(sys.argv) == 5, (edges, len(sys.argv))
print(f"trfd: {len(sys.argv) - 1} exports, each {edges} edges of {total} B, those the kernel reads "
      f"in another module's rows ({len(want[1])} in a phase 1, {len(want[2])} in a later phase 0)")
EOF

# A replay at other speeds than recorded is a what-if, and says so.
first=$(ls -d "$tmp"/synthetic_vt/*/ | head -1)
run other "workload: { kind: trace, file: '$first' }" "platform: { processors: 4 }" \
  "execution: { executor: simulate, steps: 6 }" "balancers: [{ dynamic: greedy }]"
grep -q "note: .*recorded at speeds 1,1,1,0.5 and runs at platform.speeds other than those" \
  "$tmp/other.log" || fail "no note on other speeds: $(cat "$tmp/other.log")"

# External load on the last processor, one level for the whole run (load_persist_s past its
# modelled time): each task's attributes.external_load is its rank's level in that phase (the
# procs table's), on rank 2's tasks only, and a replay without load (speeds 1, nothing moves)
# takes each task's recorded time / (1 + L), and says so.
run loaded "workload: { kind: synthetic, modules: 12, model: drift, drift_sd: 0.4, seed: 7 }" \
  "platform: { processors: 3, external_load: last:1.0, load_persist_s: 1e6 }" \
  "execution: { executor: simulate, steps: 4, record: modules }" "balancers: [{ dynamic: greedy }]"
"$lbbench" export "$tmp/loaded" --to "$tmp/loaded_vt" --format vt >/dev/null || fail "export loaded"
"$lbbench" export "$tmp/loaded" --to "$tmp/loaded_csv" >/dev/null || fail "csv loaded"
$py "$here/check_lbdatafile.py" "$tmp"/loaded_vt/*/data.*.json >/dev/null || fail "schema loaded"
loaded_dir=$(ls -d "$tmp"/loaded_vt/*/ | head -1)
run loaded_b "workload: { kind: trace, file: '$loaded_dir' }" "platform: { processors: 3 }" \
  "execution: { executor: simulate, steps: 4, record: modules }" "balancers: [{ dynamic: none }]"
grep -q "note: .*recorded under external load (levels up to 0\.[0-9]*): its costs are taken without" \
  "$tmp/loaded_b.log" || fail "no note on the recorded load: $(cat "$tmp/loaded_b.log")"
"$lbbench" export "$tmp/loaded_b" --to "$tmp/loaded_bvt" --format vt >/dev/null || fail "export b"
$py - "$loaded_dir" "$tmp"/loaded_bvt/*/ "$tmp/loaded_csv" <<'EOF' || fail "external load"
import csv, glob, json, sys
def tasks(folder):  # (phase, task) -> (node, time, external_load or None)
    out = {}
    for f in glob.glob(f"{folder}/data.*.json"):
        for p in json.load(open(f))["phases"]:
            for t in p["tasks"]:
                out[(p["id"], t["entity"]["id"])] = (
                    t["node"], t["time"], t.get("attributes", {}).get("external_load"))
    return out
run, replay = tasks(sys.argv[1]), tasks(sys.argv[2])
level = {(int(r["step"]), int(r["proc"])): float(r["external_load"])
         for r in csv.DictReader(open(f"{sys.argv[3]}/procs.csv"))}
assert len(run) == 48 and run.keys() == replay.keys(), (len(run), len(replay))
assert level[(0, 2)] > 0 and all(level[(s, p)] == 0 for s in range(4) for p in (0, 1)), level
loaded = [(k, v) for k, v in run.items() if v[2] is not None]
assert loaded and all(node == 2 and load == level[(phase, 2)] for (phase, _), (node, _, load)
                      in loaded), loaded[:3]
assert len(loaded) == sum(node == 2 for node, _, _ in run.values()), "a rank-2 task without load"
worst = 0
for k, (node, time, load) in run.items():
    want = time / (1 + (load or 0))
    worst = max(worst, abs(replay[k][1] - want) / want)
    assert replay[k][2] is None, (k, replay[k])
assert worst < 1e-12, worst
print(f"external load {level[(0, 2)]:.17g} on rank 2: {len(loaded)} of {len(run)} tasks carry it;"
      f" the replay's times are the recorded / (1 + L) (largest relative error {worst:.3g})")
EOF

# Asynchronous steps record each processor's load once for the run (the same every step): their
# export carries it on the loaded rank's tasks as the bulk-synchronous one does, and warns that
# it is the run's mean level; the bulk-synchronous export does not warn.
run async_loaded "workload: { kind: block_substitution, blocks: 12, width: 16, mean_lines: 4," \
  "  sd: 1.0, seed: 3 }" "platform: { processors: 3, external_load: last:1.0, load_persist_s: 1e6 }" \
  "execution: { steps: 4, executor: [async_modelled, bsp], record: modules }" \
  "balancers: [{ static: block, dynamic: none }]"
"$lbbench" export "$tmp/async_loaded" --to "$tmp/async_loaded_vt" --format vt \
  >/dev/null 2>"$tmp/async_loaded.err" || fail "export async_loaded"
"$lbbench" export "$tmp/async_loaded" --to "$tmp/async_loaded_csv" >/dev/null || fail "csv async"
$py - "$tmp/async_loaded_csv" "$tmp/async_loaded_vt" "$tmp/async_loaded.err" <<'EOF' ||
import csv, glob, json, sys
runs = {r["run"]: r["executor"] for r in csv.DictReader(open(f"{sys.argv[1]}/runs.csv"))}
level = {(r["run"], int(r["step"]), int(r["proc"])): float(r["external_load"])
         for r in csv.DictReader(open(f"{sys.argv[1]}/procs.csv"))}
warned = {line.split()[3].rstrip(":") for line in open(sys.argv[3])
          if "ran asynchronously" in line and "mean level" in line}
assert sorted(runs.values()) == ["async_modelled", "bsp"], runs
for run, executor in runs.items():
    assert (run in warned) == (executor == "async_modelled"), (executor, warned)
    tasks = [(p["id"], t) for f in glob.glob(f"{sys.argv[2]}/{run.replace('.', '_')}/data.*.json")
             for p in json.load(open(f))["phases"] for t in p["tasks"]]
    loaded = [(s, t["node"], t["attributes"]["external_load"]) for s, t in tasks
              if "external_load" in t.get("attributes", {})]
    assert len(tasks) == 48 and loaded, (executor, len(tasks))
    assert all(node == 2 and load == level[(run, s, 2)] for s, node, load in loaded), loaded[:3]
    assert len(loaded) == sum(t["node"] == 2 for _, t in tasks), f"{executor}: a rank-2 task bare"
print(f"external load, asynchronous steps: rank 2's tasks carry its level; only async_modelled's "
      f"export warns it is the run's mean")
EOF
  fail "asynchronous external load: $(cat "$tmp/async_loaded.err")"

# The hand-written set: import -> run (nothing moves) -> export gives it back.
hand=$LBB_SOURCE_DIR/tests/data/vt_lossless
run hand "workload: { kind: trace, file: '$hand' }" "platform: { processors: 3, speeds: last:0.5 }" \
  "execution: { executor: simulate, steps: 2, record: modules }" "balancers: [{ dynamic: none }]"
"$lbbench" export "$tmp/hand" --to "$tmp/hand_vt" --format vt >/dev/null || fail "export hand"
$py "$here/check_lbdatafile.py" "$tmp"/hand_vt/*/data.*.json || fail "schema hand"
$py "$here/check_vt_same.py" "$hand" "$tmp"/hand_vt/*/ "hand-written set" || fail "hand-written set"

# Its tasks 11, 13 and 16 (modules 1, 3, 6) say migratable: false: under every balancer (static
# partitioners, between steps, in a step) and every in-step schedule the simulator models (the
# loop self-scheduling techniques and the OpenMP runtime's schedules: such a task runs on its
# owner before that processor takes a chunk) they stay on their homes (ranks 0, 1, 2), while the
# rest move. omp_runtime, whose schedule OMP_SCHEDULE picks, `validate` refuses at the entry.
mapfile -t listed < <("$lbbench" list | $py "$here/balancer_names.py" --schedules)
every=() refused=()
for entry in "${listed[@]}"; do
  case $entry in
    "{ schedule: omp_runtime }") refused+=("$entry") ;;
    *) every+=("$entry") ;;
  esac
done
for entry in "${refused[@]}"; do
  printf '%s\n' "name: refused" "workload: { kind: trace, file: '$hand' }" \
    "platform: { processors: 3 }" "execution: { executor: simulate, steps: 2 }" \
    "balancers: [$entry]" >"$tmp/refused.yaml"
  "$lbbench" validate "$tmp/refused.yaml" >/dev/null 2>"$tmp/refused.err" && fail "$entry validated"
  grep -q "refused.yaml:5:13: omp_runtime: the runtime picked the schedule" \
    "$tmp/refused.err" || fail "$entry: $(cat "$tmp/refused.err")"
done
[ "${#every[@]}" -ge 40 ] && [ "${#refused[@]}" -eq 1 ] || fail "list: ${every[*]} / ${refused[*]}"
echo "omp_runtime refused by validate at the entry (the simulator does not know its schedule)"
entries=$(printf '%s, ' "${every[@]}")
run pinned "workload: { kind: trace, file: '$hand' }" "platform: { processors: 3 }" \
  "execution: { executor: simulate, steps: 2, repetitions: 1, record: modules }" \
  "balancers: [${entries%, }]"
"$lbbench" export "$tmp/pinned" --to "$tmp/pinned_csv" >/dev/null || fail "csv pinned"
$py - "$tmp/pinned_csv" "${#every[@]}" <<'EOF' || fail "migratable: false"
import csv, sys
from collections import defaultdict
home = {1: 0, 3: 1, 6: 2}
owners = defaultdict(set)
for r in csv.DictReader(open(f"{sys.argv[1]}/modules.csv")):
    owners[(r["run"], int(r["module"]))].add(int(r["owner"]))
runs = {run for run, _ in owners}
assert len(runs) == int(sys.argv[2]), (len(runs), sys.argv[2])
bad = [(run, m, o) for (run, m), o in owners.items() if m in home and o != {home[m]}]
assert not bad, f"non-migratable tasks moved: {bad[:5]}"
moved = sum(len(o) > 1 for (run, m), o in owners.items() if m not in home)
assert moved > 0, "no balancer moved anything: the test would prove little"
print(f"migratable: false: {len(runs)} balancers and schedules kept 3 tasks home; {moved} other "
      f"tasks moved")
EOF

echo "vt_roundtrip: $fails failures"
[ "$fails" -eq 0 ]
