#!/usr/bin/python3
"""The report's figures, drawn from made-up runs: no two tick labels of the model-against-wall
figure meet, whatever the span of the times; processor axes carry each processor's speed where
the speeds differ; the migration map leaves in-step schedules out (their owner changes are
hand-outs of chunks, not migrations)."""
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "report"))
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

import lbbench_report.figures.migration_map as mm  # noqa: E402
import lbbench_report.figures.model_wall as mw  # noqa: E402
from lbbench_report.figures.common import plt, processor_ticks  # noqa: E402

failures = []


def overlapping(labels):
    boxes = [l.get_window_extent() for l in labels if l.get_visible() and l.get_text()]
    return sum(a.overlaps(b) for i, a in enumerate(boxes) for b in boxes[i + 1:])


def drawn(module, draw):
    """The matplotlib figure that `draw` (of the figure module) saves, drawn, not written."""
    kept = {}
    saved = module.save
    module.save = lambda fig, out, record: kept.setdefault("fig", fig)
    try:
        draw()
    finally:
        module.save = saved
    kept["fig"].canvas.draw()
    return kept["fig"]


for low, high in [(0.01, 0.03), (0.0013, 0.0041), (0.5, 40), (1e-4, 3e-3), (2.0, 2.6), (0.02, 0.2)]:
    n = 40
    times = np.geomspace(low, high, 2 * n)
    runs = pd.DataFrame({"workload": ["a"] * n + ["b"] * n, "makespan_total": times,
                         "wall_total": times[::-1] * 1.1, "family": ["static"] * 2 * n,
                         "oversubscribed": [0] * 2 * n})
    fig = drawn(mw, lambda: mw.model_wall_figure(runs, tempfile.mkdtemp()))
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            k = overlapping(axis.get_ticklabels(which="both"))
            if k:
                failures.append(f"model vs wall, times {low}-{high}: {k} tick labels meet")
    plt.close(fig)

fig, ax = plt.subplots()
if not processor_ticks(ax, "y", 4, "1,1,0.5,0.25") or \
        [t.get_text() for t in ax.get_yticklabels()] != ["0 (x1)", "1 (x1)", "2 (x0.5)", "3 (x0.25)"]:
    failures.append(f"unequal speeds not on the axis: {[t.get_text() for t in ax.get_yticklabels()]}")
fig, ax = plt.subplots()
if processor_ticks(ax, "x", 3, "1,1,1") or [t.get_text() for t in ax.get_xticklabels()] != ["0", "1", "2"]:
    failures.append("equal speeds labelled as unequal")

modules = pd.DataFrame({"run": ["s"] * 4 + ["d"] * 4, "step": [0, 0, 1, 1] * 2,
                        "phase": [0] * 8, "module": [0, 1] * 4, "cost": [1.0] * 8,
                        "owner": [0, 1, 1, 0, 0, 1, 1, 1]})


class Set:
    pass


rs = Set()
rs.modules = modules
rs.tables = {"modules": modules}
runs = {"omp_dynamic": pd.DataFrame({"run": ["s"], "schedule": ["omp_dynamic"],
                                     "bytes_moved_total": [0], "speeds": ["1,1"]}),
        "diffusion": pd.DataFrame({"run": ["d"], "schedule": [""], "bytes_moved_total": [8],
                                   "speeds": ["1,1"]})}
try:
    maps = mm.migration_maps(rs, runs, 2)
    if "omp_dynamic" in maps or "diffusion" not in maps:
        failures.append(f"migration map strategies: {sorted(maps)}, want diffusion alone")
except Exception as e:  # noqa: BLE001 - a crash is a failure to report
    failures.append(f"migration_maps: {e!r}")

for f in failures:
    print("FAIL: " + f)
print(f"report_figures: {len(failures)} failures")
sys.exit(1 if failures else 0)
