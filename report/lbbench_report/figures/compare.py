"""Two result sets: per matched configuration, B's median over A's with its interval (compare)."""
import numpy as np
from matplotlib.ticker import FuncFormatter, NullLocator

from .common import Figure, plt, save, tick_labels

CLOCKS = [("makespan", "modelled makespan"), ("wall", "wall time")]


def ratio_ticks(low, high):
    """Readable ticks of a log axis of ratios: powers of ten on wide ranges, finer near 1."""
    span = np.log(high / low)
    if span > np.log(1000):
        ticks = [0.001, 0.01, 0.1, 1, 10, 100, 1000]
    elif span > np.log(8):
        ticks = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100]
    elif span > np.log(2):
        ticks = [0.25, 0.5, 0.8, 1, 1.25, 2, 4]
    else:
        ticks = [0.7, 0.8, 0.9, 1, 1.1, 1.25, 1.4]
    return [t for t in ticks if low <= t <= high]


def config_name(r):
    rest = " ".join(kv for kv in str(r.sweep or "").split() if not kv.startswith("processors="))
    return f"{r.workload} P={int(r.processors)} {r.label}" + (f" {rest}" if rest else "")


def compare_figure(matched, name_a, name_b, out_dir, key="compare"):
    """matched: the compare rows with status 'matched', flattened (makespan_ratio, ...)."""
    y = np.arange(len(matched))[::-1]
    fig, axes = plt.subplots(1, 2, figsize=(12, 1.6 + 0.32 * len(matched)), sharey=True)
    for ax, (clock, title) in zip(axes, CLOCKS):
        ratio, lo, hi = (matched[f"{clock}_{s}"].astype(float).values
                         for s in ["ratio", "ratio_ci_low", "ratio_ci_high"])
        significant = matched[f"{clock}_significant"].fillna(False).astype(bool).values
        err = np.array([ratio - lo, hi - ratio])
        err[np.isnan(err)] = 0
        for sig, colour, face in [(False, "grey", "white"), (True, "#d62728", "#d62728")]:
            pick = significant == sig
            if pick.any():
                ax.errorbar(ratio[pick], y[pick], xerr=err[:, pick], fmt="o", color=colour,
                            mfc=face, capsize=3,
                            label="significant (adjusted p <= 0.05)" if sig else "within noise")
        ax.axvline(1, color="black", lw=1)
        ax.set_xscale("log")
        span = np.nanmax(np.abs(np.log(np.concatenate([ratio, lo, hi, [1.05]]))))
        ax.set_xlim(np.exp(-1.15 * span), np.exp(1.15 * span))
        ax.set_xticks(ratio_ticks(*ax.get_xlim()))
        ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
        ax.xaxis.set_minor_locator(NullLocator())
        ax.set_xlabel(f"{title}: B / A (log scale; below 1: B faster)")
    axes[1].legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.02, 1.0))
    axes[0].set_ylim(-0.6, len(matched) - 0.4)
    axes[0].set_yticks(y, tick_labels(config_name(r) for r in matched.itertuples()), fontsize=8)
    fig.suptitle(f"A = {name_a}, B = {name_b}: matched configurations")
    caption = ("For every configuration found in both sets, the ratio of B's median to A's "
               "with its 95 % interval, for each clock, as `lbbench compare` prints it; red, "
               "filled points differ significantly (U test, adjusted for the number of "
               "comparisons), grey hollow ones are within noise.")
    return save(fig, out_dir, Figure(key, "Comparison of two sets",
                                     f"{name_b} against {name_a}", caption))
