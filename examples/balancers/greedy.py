"""Greedy between steps in Python: the owners of lbbench's built-in `greedy` at every step.

Largest measured cost first onto the processor where it finishes first (Graham 1969's LPT);
greedy's min_gain (0.05) is the config entry's:
{ dynamic: python, script: examples/balancers/greedy.py, min_gain: 0.05 }.
"""
import heapq

import numpy as np


def equal_speeds(cost, P):
    """LPT on P equal processors, in batches: the next k modules go to the k least loaded
    processors in turn while each of those is below every load raised before it in the batch
    (ties stop a batch: one module at a time keeps the built-in's order of (load, processor))."""
    load, out, i = np.zeros(P), np.empty(len(cost), np.int64), 0
    while i < len(cost):
        q = np.argsort(load, kind="stable")[: len(cost) - i]  # by (load, processor)
        c = cost[i : i + len(q)]
        raised = np.minimum.accumulate(load[q] + c)
        k = 1 + int(np.argmin(np.append(load[q][1:] < raised[:-1], False)))
        out[i : i + k], load[q[:k]] = q[:k], load[q[:k]] + c[:k]
        i += k
    return out


def any_speeds(cost, speed):
    """LPT with one min-heap of (load, processor) per speed, as the built-in's."""
    heaps = {s: [(0.0, p) for p in np.flatnonzero(speed == s).tolist()]
             for s in np.unique(speed).tolist()}
    out = np.empty(len(cost), np.int64)
    for i, w in enumerate(cost.tolist()):
        s = min(heaps, key=lambda s: ((heaps[s][0][0] + w) / s, heaps[s][0][1]))
        load, p = heaps[s][0]
        heapq.heapreplace(heaps[s], (load + w, p))
        out[i] = p
    return out


def balance(view, params):
    order = np.argsort(-view.cost, kind="stable")  # largest first, ties by module
    if np.all(view.speed == view.speed[0]):
        placed = equal_speeds(view.cost[order], view.processors)
    else:
        placed = any_speeds(view.cost[order], view.speed)
    owner = np.empty(view.modules, np.int64)
    owner[order] = placed
    return owner
