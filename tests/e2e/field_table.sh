#!/usr/bin/env bash
# report/field_table.py (issue 50) in its quick mode: every strategy of docs/field-strategies.csv
# is a line of the page, every one lbbench has was run (a bad parameter is refused, so the probe
# runs lbbench rather than trusting the list), a tiny set's figures land in their rows, none,
# greedy, rcb and fac2 (an in-step schedule, hybrid across ranks) ran again across 2 MPI ranks
# (where mpirun is; a build without MPI refuses all), and a name `lbbench list` does not know is
# flagged with exit 1.
set -euo pipefail
lbbench=$1
. "$(dirname "$0")/lib/scratch.sh"
# field_table.py starts mpirun itself: under ASan its ranks need the same LeakSanitizer
# suppressions of Open MPI as every e2e script that starts mpirun.
. "$(dirname "$0")/lib/mpi_env.sh"
gen() { /usr/bin/python3 report/field_table.py --lbbench "$lbbench" --quick "$@"; }
cat > "$tmp/f.yaml" << 'YAML'
name: field-table-e2e
workload: { kind: block_substitution, blocks: 16, width: 16, mean_lines: 4, seed: 3 }
platform: { processors: 4, speeds: [1, 1, 1, 0.5] }
execution: { steps: 4, warmup: 1, repetitions: 3 }
balancers:
  - { dynamic: none, baseline: true }
  - { dynamic: greedy }
  - { schedule: fac2 }
  - { static: orb, label: rcb }
YAML
"$lbbench" run "$tmp/f.yaml" -o "$tmp/set" -q > /dev/null
gen --results "$tmp/set" -o "$tmp/t.md"
ranks=$(command -v mpirun > /dev/null && "$lbbench" list | grep -c '^  mpi - ' || true)
# On a failure the page's notes say why each refused or failed entry did.
notes() { grep -E '^- \[[0-9]+\]' "$tmp/t.md"; exit 1; }
/usr/bin/python3 - docs/field-strategies.csv "$tmp/t.md" "$ranks" << 'PY' || notes
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
lines = {tuple(c.strip() for c in l.split(" | ")[:2]): l for l in open(sys.argv[2])
         if l.startswith("| ")}
bad = []
for r in rows:
    line = lines.get(("| " + r["peer"], r["strategy"]))
    cells = [c.strip() for c in line.split("|")[1:-1]] if line else []
    if not cells:
        bad.append(f"{r['peer']} {r['strategy']}: not in the page")
    elif r["lbbench"] == "-":
        bad += [f"{r['strategy']}: lacked but not 'no'"] if not cells[3].startswith("no") else []
    elif cells[4] != "bs" or "never ran" in cells[3]:
        bad.append(f"{r['strategy']}: `{r['lbbench']}` did not run on bs: {cells[4]}")
    elif r["label"] in ("none", "greedy", "fac2", "rcb") and ", n 3, " not in cells[6]:
        bad.append(f"{r['strategy']}: no figure of the set: {cells[6]}")
    elif sys.argv[3] == "1" and r["label"] in ("none", "greedy", "rcb", "fac2") and (
            cells[5] != "ran"):
        bad.append(f"{r['strategy']}: did not run on 2 ranks: {cells[5]}")
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
grep -q "^Figures: .*lbbench run $tmp/f.yaml" "$tmp/t.md" || { cat "$tmp/t.md"; exit 1; }

{ head -2 docs/field-strategies.csv
  echo "Test,Bogus,no_such_strategy,,Nobody 2026,"
  echo "Test,Bad parameter,gossip bogus=3,,Nobody 2026,"; } > "$tmp/s.csv"
code=0
gen --strategies "$tmp/s.csv" --no-ranks -o "$tmp/u.md" 2> "$tmp/err.txt" || code=$?
[ "$code" -eq 1 ] || { echo "unknown name: exit $code, not 1"; exit 1; }
grep -qF '**unknown**: `no_such_strategy` is not in `lbbench list`' "$tmp/u.md" &&
  grep -qF '`no_such_strategy` is not in `lbbench list`' "$tmp/err.txt" ||
  { cat "$tmp/u.md" "$tmp/err.txt"; exit 1; }
grep -qE '^[|] Test [|] Bad parameter [|].*[*][*]never ran[*][*] [|] bs refused \[1\] [|]' "$tmp/u.md" &&
  grep -qF -e "- [1] refused: unknown parameter 'bogus' for gossip" "$tmp/u.md" ||
  { cat "$tmp/u.md"; exit 1; }
echo "field_table: OK"
