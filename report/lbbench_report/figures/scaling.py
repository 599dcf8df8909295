"""Speedup and efficiency against processor count, from the table's medians and intervals."""
import numpy as np

from .common import Figure, label_colours, plt, save


def scaling_clock(rows):
    """The table's headline clock when every P agrees on it; else the modelled makespan."""
    clocks = set(rows.headline)
    return clocks.pop() if len(clocks) == 1 else "makespan"


def scaling_figure(rows, workload, rest, out_dir, key):
    """rows: the table's rows of one workload and sweep point, at several processor counts."""
    clock = scaling_clock(rows)
    p0 = rows.processors.min()
    base = rows[(rows.processors == p0) & rows.baseline.astype(bool)]
    if base.empty:
        return None
    reference = p0 * float(base[f"{clock}_median"].iloc[0])
    labels = list(dict.fromkeys(rows.label))
    colours = label_colours(labels)
    fig, (ax_s, ax_e) = plt.subplots(1, 2, figsize=(12, 4.4))
    for i, lab in enumerate(labels):
        r = rows[rows.label == lab].sort_values("processors")
        # A small sideways shift per strategy keeps the interval bars apart.
        p = r.processors.astype(float).values * (1 + 0.012 * (i - len(labels) / 2))
        med, lo, hi = (r[f"{clock}_{s}"].astype(float).values for s in ["median", "ci_low", "ci_high"])
        speedup = reference / med
        err = np.array([speedup - reference / hi, reference / lo - speedup])
        err = None if np.isnan(err).any() else err
        ax_s.errorbar(p, speedup, yerr=err, marker="o", capsize=3, color=colours[lab], label=lab)
        ax_e.errorbar(p, speedup / p, yerr=None if err is None else err / p, marker="o",
                      capsize=3, color=colours[lab])
    ps = np.array(sorted(set(rows.processors.astype(float))))
    ax_s.plot(ps, ps, "k--", lw=1, label="linear")
    ax_e.axhline(1, color="black", ls="--", lw=1)
    for ax, name in [(ax_s, "speedup"), (ax_e, "parallel efficiency (speedup / P)")]:
        ax.set_xlabel("processors P")
        ax.set_ylabel(name)
    ax_e.set_ylim(bottom=0)
    ax_s.set_xscale("log", base=2)
    ax_e.set_xscale("log", base=2)
    for ax in (ax_s, ax_e):
        ax.set_xticks(ps, [str(int(x)) for x in ps])
        ax.minorticks_off()
    ax_e.legend(*ax_s.get_legend_handles_labels(), loc="upper left", bbox_to_anchor=(1.02, 1.0),
                fontsize=8)
    what = f"{workload}" + (f", {rest}" if rest else "")
    name = "modelled makespan" if clock == "makespan" else "wall time"
    fig.suptitle(f"{what}: scaling with processor count ({name})")
    caption = (f"Speedup = P0 x T_baseline(P0) / T(P) from the table's median {name} (P0 = "
               f"{int(p0)}, the smallest count swept; bars: the 95 % interval), and efficiency = "
               f"speedup / P. The dashed lines are linear scaling; a strategy whose curve bends "
               f"away from them loses time to imbalance or to balancing.")
    return save(fig, out_dir, Figure(key, "Scaling", f"Scaling: {what}", caption))
