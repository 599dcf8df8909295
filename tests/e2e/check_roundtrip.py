"""Export -> import -> replay: each run of set A (argv[1]) replayed from its vt export as workload
kind trace in set B (argv[2]) made the same decisions: owners of every module every step and the
migrations and bytes moved of every step equal. argv[1], argv[2]: the CSV exports (lbbench
export) of A and B; argv[3]: a label for the counts printed; argv[4] "sizes-vary": the module
states change size over the run (Barnes-Hut's bodies cross cells), which no file records, so
bytes moved are not compared."""
import csv
import sys
from collections import defaultdict


def read(folder):
    runs = {r["run"]: r for r in csv.DictReader(open(f"{folder}/runs.csv"))}
    owners = defaultdict(dict)
    for r in csv.DictReader(open(f"{folder}/modules.csv")):
        owners[r["run"]][(int(r["step"]), int(r["phase"]), int(r["module"]))] = int(r["owner"])
    migrations = defaultdict(dict)
    for r in csv.DictReader(open(f"{folder}/steps.csv")):
        migrations[r["run"]][int(r["step"])] = (int(r["migrations"]), int(r["bytes_moved"]))
    return runs, owners, migrations


runs_a, owners_a, moves_a = read(sys.argv[1])
runs_b, owners_b, moves_b = read(sys.argv[2])
by_label = {r["balancer"]: run for run, r in runs_b.items()}
assert len(runs_a) >= 2 and len(by_label) == len(runs_a), (len(runs_a), sorted(by_label))
moved = moved_bytes = owners = 0
for run, info in runs_a.items():
    twin = by_label[info["balancer"]]
    assert runs_b[twin]["workload"] == "trace", runs_b[twin]
    assert owners_a[run] and owners_a[run] == owners_b[twin], f"{info['balancer']}: owners differ"
    assert moves_a[run] == moves_b[twin], f"{info['balancer']}: migrations or bytes moved differ"
    moved += sum(n for n, _ in moves_a[run].values())
    moved_bytes += sum(b for _, b in moves_a[run].values())
    owners += len(owners_a[run])
assert moved > 0, "no balancer moved anything: the round trip would prove little"
label = sys.argv[3] if len(sys.argv) > 3 else "round trip"
print(f"{label}: {len(runs_a)} runs reproduced: {owners} owners, {moved} migrations, "
      f"{moved_bytes} bytes moved")
