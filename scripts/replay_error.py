#!/usr/bin/env python3
"""The modelled replay's error against wall time, from `lbbench export SET --to DIR`'s runs.csv.

Run on a host with P free cores (there wall time is the truth): per row with a replay
(replayed_makespan_total, docs/results.md), the median replay over the median wall time - 1, and
the same for the run's own modelled makespan; per group (workload, P, sweep), Kendall's tau-b of
the rows' wall-time order against the modelled clock's order (the replay where a row has one,
else makespan_total), the order the table would give on an oversubscribed host.

usage: scripts/replay_error.py DIR/runs.csv
"""
import csv
import statistics
import sys
from collections import defaultdict


def number(text):
    try:
        return float(text)
    except ValueError:
        return float("nan")


def tau_b(xs, ys):
    """Kendall's tau-b; None when either side has fewer than two distinct values."""
    concordant = discordant = ties_x = ties_y = 0
    for i in range(len(xs)):
        for j in range(i + 1, len(xs)):
            dx, dy = xs[i] - xs[j], ys[i] - ys[j]
            if dx == 0 and dy == 0:
                continue
            if dx == 0:
                ties_x += 1
            elif dy == 0:
                ties_y += 1
            elif (dx > 0) == (dy > 0):
                concordant += 1
            else:
                discordant += 1
    n = concordant + discordant
    denominator = ((n + ties_x) * (n + ties_y)) ** 0.5
    return (concordant - discordant) / denominator if denominator > 0 else None


def main(path):
    rows = defaultdict(lambda: defaultdict(list))  # group -> label -> [(wall, makespan, replay)]
    for r in csv.DictReader(open(path, newline="")):
        if r["status"] != "complete":
            continue
        group = (r["workload"], r["processors"], r["sweep"])
        rows[group][r["balancer"]].append(
            (number(r["wall_total"]), number(r["makespan_total"]),
             number(r.get("replayed_makespan_total", ""))))
    print(f"{'workload':20} {'P':>3} {'balancer':16} {'n':>3} {'wall_s':>10} {'replay_s':>10} "
          f"{'error':>8} {'own_error':>9}")
    for group, labels in rows.items():
        walls, modelled = [], []
        for label, runs in labels.items():
            wall = statistics.median(x[0] for x in runs)
            own = statistics.median(x[1] for x in runs)
            replays = [x[2] for x in runs if x[2] == x[2]]
            replay = statistics.median(replays) if len(replays) == len(runs) else None
            walls.append(wall)
            modelled.append(replay if replay is not None else own)
            if replay is not None:
                print(f"{group[0]:20} {group[1]:>3} {label:16} {len(runs):3} {wall:10.4g} "
                      f"{replay:10.4g} {replay / wall - 1:+8.1%} {own / wall - 1:+9.1%}")
        tau = tau_b(walls, modelled)
        print(f"  {group[0]} P={group[1]} {group[2]}: {len(labels)} rows, tau-b(wall, modelled "
              f"clock) = {'-' if tau is None else format(tau, '.3f')}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
