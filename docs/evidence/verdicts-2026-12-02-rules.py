"""The verdict counts of one result set under the table's rules before 2026-12-02 (unpaired
two-sided Mann-Whitney U of the best against every other ranked row, Holm over the group's m - 1
comparisons, 5 %: winner only when every one is significant, else ties) and under today's, read
from `lbbench table SET --format json` (which says which rows are ranked, on which clock, and
today's verdict) and the set's runs (the README's pandas recipe).

usage: python3 verdicts-2026-12-02-rules.py LBBENCH SET
"""
import glob
import json
import subprocess
import sys
from collections import Counter
from functools import lru_cache

import h5py
import pandas as pd


def table(name, d):
    return pd.concat(pd.DataFrame({c: v.asstr()[:] if v.dtype.kind == "S" else v[:]
                                   for c, v in h5py.File(p)[name].items()})
                     for p in sorted(glob.glob(d + "/*.h5")))


@lru_cache(maxsize=None)
def u_counts(m, n):
    """Counts of U = 0..mn over the arrangements of m and n values without ties."""
    if m == 0 or n == 0:
        return (1,)
    a, b = u_counts(m - 1, n), u_counts(m, n - 1)  # the largest value is an a (adds n) or a b
    out = [0] * (m * n + 1)
    for u, c in enumerate(a):
        out[u + n] += c
    for u, c in enumerate(b):
        out[u] += c
    return tuple(out)


def mann_whitney_p(a, b):
    """Two-sided exact p without ties (the samples here have none)."""
    u = sum((x > y) + 0.5 * (x == y) for x in a for y in b)
    counts = u_counts(len(a), len(b))
    low = int(min(u, len(a) * len(b) - u))
    return min(1.0, 2 * sum(counts[: low + 1]) / sum(counts))


def holm(p):
    order = sorted(range(len(p)), key=lambda k: p[k])
    out, running = [0.0] * len(p), 0.0
    for k, i in enumerate(order):
        running = max(running, min(1.0, (len(p) - k) * p[i]))
        out[i] = running
    return out


def old_verdicts(rows, runs):
    """label -> "winner", "tie" or "slower" per group, by the old rule."""
    out = {}
    for _, g in rows.groupby(["workload", "processors", "sweep"], sort=False):
        ranked = g[g.ranked]
        if ranked.empty:
            continue
        clock = "wall_total" if ranked.ranked_by.iloc[0] == "wall" else "makespan_total"
        samples = {}
        for r in ranked.itertuples():
            sel = runs[(runs.workload == r.workload) & (runs.balancer == r.label) &
                       (runs.processors == r.processors) & (runs.sweep == r.sweep) &
                       (runs.status == "complete")]
            samples[r.label] = list(sel[clock])
        best = min(samples, key=lambda k: pd.Series(samples[k]).median())
        others = [k for k in samples if k != best]
        adjusted = holm([mann_whitney_p(samples[best], samples[k]) for k in others])
        for k, p in zip(others, adjusted):
            out[(r.workload, r.processors, r.sweep, k)] = "slower" if p <= 0.05 else "tie"
        won = others and all(p <= 0.05 for p in adjusted)
        out[(r.workload, r.processors, r.sweep, best)] = "winner" if won else "tie"
    return out


def main(lbbench, result_set):
    rows = pd.DataFrame(json.loads(subprocess.run([lbbench, "table", result_set, "--format",
                                                   "json"], capture_output=True, text=True,
                                                  check=True).stdout))
    runs = table("runs", result_set)
    old = old_verdicts(rows, runs)
    now = {(r.workload, r.processors, r.sweep, r.label): (r.verdict if r.ranked else "not ranked")
           for r in rows.itertuples()}
    before = Counter(old.get(k, "not ranked") for k in now)
    print(f"{result_set}: {len(now)} rows")
    print("  before:", dict(before))
    print("  after: ", dict(Counter(now.values())))
    changed = Counter((old.get(k, "not ranked"), v) for k, v in now.items())
    print("  before -> after:", {f"{a} -> {b}": n for (a, b), n in sorted(changed.items())})


if __name__ == "__main__":
    main(*sys.argv[1:])
