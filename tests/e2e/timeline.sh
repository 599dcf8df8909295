#!/usr/bin/env bash
# The measured timeline (execution.timeline, docs/results.md "Timeline") and its Chrome export:
# Barnes-Hut runs with a slow processor (a between-step balancer and two in-step ones, which on
# MPI ranks decide at the phase end), on threads and on 2 MPI ranks, measured (timeline: true)
# and modelled (record: modules alone), exported with `lbbench export --format chrome` and checked
# by check_trace.py: the fields of each event kind, one named track per processor (pid per rank),
# slices in time order never overlapping within a track, every module execution once per step;
# the report's timeline figure drawn from the measured spans.
# The spans table itself: a processor's spans never overlap. The checker must refuse a trace
# with one slice stretched over the next, or one module execution left out. The MPI half is
# skipped without mpirun or an MPI build.
set -uo pipefail
lbbench=$(realpath "$1")
here=$(realpath "$(dirname "$0")")
. "$here/lib/scratch.sh"
py=/usr/bin/python3
fails=0
fail() { echo "timeline: FAIL: $*"; fails=$((fails + 1)); }

config() {  # config NAME TIMELINE: a Barnes-Hut run whose processor 1 runs at 0.4
  cat > "$tmp/$1.yaml" << YAML
name: $1
workload: { kind: barnes_hut, particles: 1200, dimensions: 2, cells_per_side: 4, theta: 0.5, seed: 1 }
platform: { processors: 4, topology: chain, speeds: [1, 0.4, 1, 1] }
execution: { steps: 4, warmup: 1, record: modules, timeline: $2 }
balancers: [{ dynamic: diffusion }, { dynamic: gcdlb }, { dynamic: lddlb }]
YAML
}

# check SET TIMES RANKS: the set's one run exported and its trace checked.
check() {
  "$lbbench" export "$tmp/$1" --to "$tmp/$1.csv" > /dev/null || { fail "$1: csv export"; return; }
  "$lbbench" export "$tmp/$1" --to "$tmp/$1.chrome" --format chrome > "$tmp/$1.out" ||
    { fail "$1: chrome export"; return; }
  grep -q ", $2 (" "$tmp/$1.out" || fail "$1: the export does not say $2: $(cat "$tmp/$1.out")"
  read -r P M S < <($py -c "import csv; r = next(csv.DictReader(open('$tmp/$1.csv/runs.csv')))
print(r['processors'], r['modules'], r['steps'])")
  for f in "$tmp/$1.chrome"/*.trace.json; do
    $py "$here/check_trace.py" "$f" "$2" "$P" "$3" "$S" 1 "$M" || fail "$1: $f"
  done
  [ "$2" = measured ] || return 0
  $py - "$tmp/$1.csv/spans.csv" "$P" << 'PY' || fail "$1: spans table"
import sys, pandas as pd
s = pd.read_csv(sys.argv[1]).sort_values(["run", "proc", "start", "end"])
assert sorted(s.proc.unique()) == list(range(int(sys.argv[2]))), s.proc.unique()
assert (s.end >= s.start).all() and set(s.kind) >= {"module", "wait"}, set(s.kind)
for p, g in s.groupby(["run", "proc"]):
    assert (g.start.to_numpy()[1:] >= g.end.to_numpy()[:-1]).all(), f"processor {p} overlaps"
PY
}

config threads true && "$lbbench" run "$tmp/threads.yaml" -o "$tmp/threads" -q > /dev/null 2>&1 ||
  fail "run threads"
check threads measured 1
config modelled false && "$lbbench" run "$tmp/modelled.yaml" -o "$tmp/modelled" -q > /dev/null 2>&1 ||
  fail "run modelled"
check modelled modelled 1

# An executor that measures no spans says so.
printf '%s\n' "name: simulated" "workload: { kind: synthetic, modules: 16 }" \
  "platform: { processors: 4 }" "execution: { executor: simulate, steps: 2, timeline: true }" \
  "balancers: [{ dynamic: diffusion }]" > "$tmp/simulated.yaml"
"$lbbench" run "$tmp/simulated.yaml" -o "$tmp/simulated" -q 2>&1 | grep "the simulate executor records no spans" > /dev/null || fail "no note for a simulated timeline"

# The report's timeline figure draws the measured spans: the numbers behind it have their kinds.
"$lbbench" report "$tmp/threads" --out "$tmp/report" > /dev/null 2>&1 || fail "report"
$py - "$tmp"/report/timeline-*.csv << 'PY' || fail "the report's timeline is not the measured one"
import sys, pandas as pd
t = pd.read_csv(sys.argv[1])
assert "kind" in t and {"module", "wait"} <= set(t.kind), list(t)
PY

# The checker refuses a wrong answer: a slice stretched 1 us over the next, a module left out.
trace=$(ls "$tmp"/threads.chrome/*.trace.json | head -1)
$py - "$trace" "$tmp/overlap.json" "$tmp/missing.json" << 'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
x = [e for e in doc["traceEvents"] if e["ph"] == "X" and e["tid"] == 0]
x[0]["dur"] = x[1]["ts"] - x[0]["ts"] + 1
json.dump(doc, open(sys.argv[2], "w"))
doc = json.load(open(sys.argv[1]))
k = next(i for i, e in enumerate(doc["traceEvents"]) if e.get("cat") == "module")
del doc["traceEvents"][k]
json.dump(doc, open(sys.argv[3], "w"))
PY
for bad in overlap missing; do
  $py "$here/check_trace.py" "$tmp/$bad.json" measured "$P" 1 "$S" 1 "$M" > /dev/null 2>&1 &&
    fail "check_trace.py took a trace with a slice $bad"
done

if ! command -v mpirun > /dev/null; then
  echo "timeline: SKIP (MPI half): no mpirun"
elif ! "$lbbench" list 2> /dev/null | grep '^  mpi - ' > /dev/null; then
  echo "timeline: SKIP (MPI half): lbbench built without MPI"
else
  . "$(dirname "$0")/lib/mpi_env.sh"
  for t in true false; do
    name=mpi_$t
    config "$name" "$t"
    timeout 300 "${mpi[@]}" -np 2 "$lbbench" run "$tmp/$name.yaml" -o "$tmp/$name" -q \
      > "$tmp/$name.log" 2>&1 || { fail "run $name"; tail "$tmp/$name.log"; }
  done
  check mpi_true measured 2
  check mpi_false modelled 2
fi
[ "$fails" -eq 0 ] && echo "timeline: OK" || exit 1
