"""Modelled makespan against measured wall time, every run, coloured by strategy family."""
import math

import numpy as np
from matplotlib.ticker import Formatter

from .common import FAMILY_COLOURS, Figure, plt, save


class _Seconds(Formatter):
    """Plain seconds ("0.002", "20"): every decade; between decades only 2 and 5, and only where
    the axis spans less than a decade, so that no two labels meet."""

    def __init__(self, minor):
        self.minor = minor

    def __call__(self, value, pos=None):
        if value <= 0:
            return ""
        low, high = sorted(self.axis.get_view_interval())
        mantissa = round(value / 10 ** math.floor(math.log10(value) + 1e-9), 6)
        if self.minor and (mantissa not in (2, 5) or low <= 0 or high / low >= 10):
            return ""
        return f"{value:g}"


def model_wall_figure(runs, out_dir, key="model-vs-wall"):
    """runs: the complete runs (one row each, the set's /runs columns)."""
    workloads = list(dict.fromkeys(runs.workload))
    cols = min(len(workloads), 2)
    rows_n = -(-len(workloads) // cols)
    fig, axes = plt.subplots(rows_n, cols, figsize=(max(7.0, 5.6 * cols), 4.8 * rows_n), squeeze=False)
    for ax, w in zip(axes.flat, workloads):
        g = runs[(runs.workload == w) & (runs.makespan_total > 0) & (runs.wall_total > 0)]
        ax.set_title(w)
        if g.empty:  # a log scale needs a positive time (NaN compares false)
            ax.text(0.5, 0.5, "no run with positive times", ha="center", transform=ax.transAxes)
            continue
        for fam, colour in FAMILY_COLOURS.items():
            for over, marker in [(0, "o"), (1, "^")]:
                s = g[(g.family == fam) & (g.oversubscribed.fillna(0) == over)]
                if s.empty:
                    continue
                ax.scatter(s.makespan_total, s.wall_total, marker=marker, s=22, alpha=0.75,
                           color=colour if not over else "none", edgecolors=colour,
                           label=f"{fam}" + (" (oversubscribed)" if over else ""))
        both = np.concatenate([g.makespan_total.values, g.wall_total.values])
        lim = [both.min() / 1.5, both.max() * 1.5]
        ax.plot(lim, lim, "k--", lw=1, label="wall = makespan")
        ax.set_xlim(lim)
        ax.set_ylim(lim)
        ax.set_xscale("log")
        ax.set_yscale("log")
        for axis in (ax.xaxis, ax.yaxis):  # plain text: mathtext is off (figures/common.py)
            axis.set_major_formatter(_Seconds(minor=False))
            axis.set_minor_formatter(_Seconds(minor=True))
        ax.set_xlabel("modelled makespan (s)")
        ax.set_ylabel("wall time (s)")
        ax.legend(fontsize=7)
    for ax in list(axes.flat)[len(workloads):]:
        ax.set_visible(False)
    fig.suptitle("Modelled makespan against measured wall time, one point per run")
    caption = ("Every run's modelled makespan (from thread CPU time) against its wall time, "
               "log scales, coloured by strategy family; hollow triangles were oversubscribed "
               "(more threads than free cores). On free cores points lie near the dashed "
               "diagonal; far above it, wall time measures time-sharing rather than the strategy, "
               "and the table ranks by the modelled makespan instead.")
    return save(fig, out_dir, Figure(key, "Model against wall time",
                                     "Modelled makespan against wall time", caption))
