"""The checks every set run across MPI ranks shares (check_mpi_ranks.py, check_mpi_async.py).

runs_across_ranks: each run complete and verified, run by `executor` on `ranks` ranks, and with
the checksum of the same run (workload, balancer) in one process.
"""

KEY = ["workload", "balancer"]


def runs_across_ranks(one, runs, ranks, executor):
    problems = []
    if not (runs.status == "complete").all() or not (runs.verified == 1).all():
        problems.append(f"{ranks} ranks: a run failed or did not verify")
    if not (runs.executor == executor).all():
        problems.append(f"{ranks} ranks: executor {set(runs.executor)}")
    if not runs.ranks.map(lambda t: len(t.split(","))).eq(ranks).all():
        problems.append(f"{ranks} ranks: placement {runs.ranks.iloc[0]}")
    both = one.merge(runs, on=KEY, suffixes=("_one", ""))
    if len(both) != len(one) or not (both.checksum_one == both.checksum).all():
        problems.append(f"{ranks} ranks: checksums differ from one process's\n"
                        f"{both[KEY + ['checksum_one', 'checksum']]}")
    return problems
