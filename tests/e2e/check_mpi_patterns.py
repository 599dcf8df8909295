"""tests/e2e/mpi_patterns.sh: each balancer's messages per decision across R ranks, as its scope says.

Arguments: the one-process set's CSV export, then DIR:RANKS for each set run across ranks.
A ring of 8 processors, T = 8 / R per rank: a neighbour scope's loads go to the two ring-adjacent
ranks (R > 2; one each way for R = 2), then each rank's transfers to every other rank (R (R - 1));
the global ideal's total is one reduction (R (R - 1)); the centralised greedy gathers the busy
times to rank 0 (R - 1) and rank 0 sends the owners back (R - 1); GDDLB's busy times go all to all
(R (R - 1)), and every rank decides alike on them and the costs every rank holds. Under an
all-ranks exchange of loads the neighbour schemes would send R (R - 1) + R (R - 1): 24 on 4 ranks,
not 20. Multilevel's bisection tree of the ring's path 0..7 has R - 1 cuts between ranks: a sum
goes up and the right half's inheritance down each (2 (R - 1)), then each rank's transfers go to
every rank (R (R - 1)). LCDLB and LDDLB in groups of 4: on 2 ranks each group lies on one rank, so
only the groups' new owners go to the other rank; on 4 ranks a group spans 2, whose second rank
sends its busy times to the first (LCDLB: 2 groups, 2 messages) or both to each other (LDDLB: 4),
then the owners go to every rank.
"""
import sys

import pandas as pd


def expected(label, ranks):
    both_ways = ranks * (ranks - 1)
    neighbours = 2 if ranks == 2 else 2 * ranks
    return {"diffusion": neighbours + both_ways, "random_local": neighbours + both_ways,
            "random_global": both_ways + both_ways, "multilevel": 2 * (ranks - 1) + both_ways, "greedy": 2 * (ranks - 1), "gddlb": both_ways,
            "lcdlb": (0 if ranks == 2 else 2) + both_ways,
            "lddlb": (0 if ranks == 2 else 4) + both_ways}[label]


def check(one, where, ranks):
    problems = []
    runs = pd.read_csv(f"{where}/runs.csv")
    steps = pd.read_csv(f"{where}/steps.csv")
    if not ((runs.status == "complete") & (runs.verified == 1)).all():
        problems.append(f"{ranks} ranks: a run failed or did not verify")
    both = one.merge(runs, on="balancer", suffixes=("_one", ""))
    if len(both) != len(one) or not (both.checksum_one == both.checksum).all():
        problems.append(f"{ranks} ranks: checksums differ from one process's")
    for _, run in runs.iterrows():
        sent = steps[steps.run == run.run].metric_balance_messages
        want = expected(run.balancer, ranks)
        if len(sent) == 0 or not (sent == want).all():
            problems.append(f"{ranks} ranks, {run.balancer}: balance_messages {sorted(set(sent))}, "
                            f"the pattern says {want}")
    moved = runs.set_index("balancer").migrations_total
    print(f"mpi_patterns: {ranks} ranks: balance_messages per step as the patterns say; moves "
          + ", ".join(f"{b} {int(n)}" for b, n in moved.items()))
    return problems


def main():
    one = pd.read_csv(sys.argv[1] + "/runs.csv")[["balancer", "checksum"]]
    problems = []
    for arg in sys.argv[2:]:
        where, ranks = arg.rsplit(":", 1)
        problems += check(one, where, int(ranks))
    for p in problems:
        print("FAIL:", p)
    sys.exit(1 if problems else 0)


main()
