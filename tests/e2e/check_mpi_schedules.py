"""tests/e2e/mpi_schedules.sh: every in-step schedule across MPI ranks against one process.

Arguments: the one-process set's CSV export, then DIR:RANKS for each set run across ranks, on 4
processors (threads per rank = 4 / RANKS).
"""
import sys

import pandas as pd

from ranked_runs import KEY, runs_across_ranks

PROCESSORS = 4
DYNAMIC = ["ss", "omp_dynamic", "fac2", "gss"]  # hand out single modules or halves


def check(one, where, ranks):
    t = {n: pd.read_csv(f"{where}/{n}.csv") for n in ("runs", "steps", "modules", "spans")}
    runs, threads = t["runs"], PROCESSORS // ranks
    problems = runs_across_ranks(one, runs, ranks, "mpi_self_scheduled")
    modules = t["modules"].merge(runs[["run", "balancer", "modules"]], on="run")
    once = modules.groupby(["run", "step", "phase", "module"]).size()
    if not (once == 1).all():
        problems.append(f"{ranks} ranks: a module ran more than once in a phase")
    away = modules[modules.owner // threads != modules.start_owner // threads]
    if len(away):
        problems.append(f"{ranks} ranks: {len(away)} module runs off their home rank")
    counted = t["steps"].groupby("run").metric_remote_runs.sum()
    recorded = (modules.owner != modules.start_owner).groupby(modules.run).sum()
    if not counted.sort_index().equals(recorded.sort_index().astype(counted.dtype)) or not (
            runs.set_index("run").remote_runs.sort_index() == counted.sort_index()).all():
        problems.append(f"{ranks} ranks: remote_runs differ from the records' runs away from home")
    by = runs.set_index("run").balancer
    if (counted[by[by == "omp_static"].index] != 0).any():
        problems.append(f"{ranks} ranks: omp_static ran a module away from its home thread")
    if threads == 1 and counted.sum() != 0:
        problems.append(f"{ranks} ranks of 1 thread: {counted.sum()} runs away from home")
    if threads > 1 and counted[by[by.isin(DYNAMIC)].index].sum() == 0:
        problems.append(f"{ranks} ranks: no dynamic schedule ran a module away from home")
    spans = t["spans"][t["spans"].kind == "module"].merge(
        modules, on=["run", "step", "phase", "module"])
    if len(spans) != len(modules) or not (spans.proc == spans.owner).all():
        problems.append(f"{ranks} ranks: module spans are not on the threads that ran them")
    auto = t["steps"][t["steps"].run.isin(by[by == "auto4omp"].index)]
    if auto.empty or auto.metric_schedule_choice.isna().any():
        problems.append(f"{ranks} ranks: auto4omp recorded no choice")
    print(f"mpi_schedules: {ranks} ranks x {threads}: {len(runs)} runs verified, checksums equal, "
          f"{int(counted.sum())} module runs away from their home thread")
    return problems


def main():
    one = pd.read_csv(sys.argv[1] + "/runs.csv")
    assert (one.verified == 1).all() and len(one) >= 40, one[KEY + ["verified"]]
    problems = []
    for arg in sys.argv[2:]:
        where, ranks = arg.rsplit(":", 1)
        problems += check(one[KEY + ["checksum"]], where, int(ranks))
    for p in problems:
        print("FAIL:", p)
    sys.exit(1 if problems else 0)


main()
