"""tests/e2e/mpi_ranks.sh: runs across MPI ranks against the same runs in one process.

Arguments: the one-process set's CSV export, then DIR:RANKS for each set run across ranks.
"""
import sys

import pandas as pd

from ranked_runs import KEY, runs_across_ranks


def check(one, ranked, ranks):
    runs = ranked["runs"]
    problems = runs_across_ranks(one, runs, ranks, "mpi")
    moved = runs.remote_migrations_total + runs.local_migrations_total
    if not (moved == runs.migrations_total).all():
        problems.append(f"{ranks} ranks: remote + local != migrations")
    if runs[runs.balancer == "greedy"].remote_migrations_total.sum() <= 0:
        problems.append(f"{ranks} ranks: greedy moved nothing across ranks")
    if not (runs.exchange_bytes_total > 0).all():
        problems.append(f"{ranks} ranks: no exchange counted")
    steps = ranked["steps"]
    if not (steps.metric_remote_migrations + steps.metric_local_migrations == steps.migrations).all():
        problems.append(f"{ranks} ranks: a step's remote + local != its migrations")
    return problems


def main():
    one = pd.read_csv(sys.argv[1] + "/runs.csv")
    assert (one.verified == 1).all() and len(one) == 16, one[KEY + ["verified"]]
    problems = []
    for arg in sys.argv[2:]:
        where, ranks = arg.rsplit(":", 1)
        ranked = {t: pd.read_csv(f"{where}/{t}.csv") for t in ("runs", "steps")}
        problems += check(one[KEY + ["checksum"]], ranked, int(ranks))
        r = ranked["runs"]
        print(f"mpi_ranks: {ranks} ranks: {len(r)} runs verified, checksums equal, "
              f"{int(r.remote_migrations_total.sum())} moves across ranks "
              f"({int(r.remote_bytes_total.sum())} B), {int(r.local_migrations_total.sum())} within")
    for p in problems:
        print("FAIL:", p)
    sys.exit(1 if problems else 0)


main()
