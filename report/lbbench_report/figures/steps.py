"""Per group: what happens step by step, so a reader sees whether a dynamic balancer pays."""
import numpy as np

from .common import (Figure, busy_matrix, group_title, label_colours, plt, save, seconds_unit,
                     step_series)


def median_of(arrays):
    """The step-wise median over repetitions (runs cut to the shortest one); empty for none."""
    steps = min((len(a) for a in arrays), default=0)
    if steps == 0:
        return np.zeros(0)
    return np.nanmedian(np.stack([a[:steps] for a in arrays]), axis=0)


def step_panels(rs, run_ids):
    makespan = median_of(step_series(rs, run_ids, "makespan"))
    ideal = median_of(step_series(rs, run_ids, "ideal"))
    steps = min(len(makespan), len(ideal))
    busy = [b for b in (busy_matrix(rs, r) for r in run_ids) if b.size]
    imbalance = median_of([np.nanmax(b, 1) / np.nanmean(b, 1) - 1 for b in busy])
    return {"efficiency": ideal[:steps] / makespan[:steps], "imbalance": imbalance,
            "makespan": makespan,
            "migrations": median_of(step_series(rs, run_ids, "migrations")),
            "bytes_moved": median_of(step_series(rs, run_ids, "bytes_moved")),
            "balance": median_of(step_series(rs, run_ids, "balance"))}


PANELS = [("efficiency", "efficiency (ideal / makespan)", 1),
          ("imbalance", "imbalance (max / mean busy - 1)", 1),
          ("makespan", "modelled makespan per step", None),
          ("balance", "balance time per step", None),
          ("migrations", "modules migrated per step", 1),
          ("bytes_moved", "kB moved per step", 1e-3)]


def steps_figure(rs, runs_by_label, group, out_dir, key):
    """runs_by_label: strategy label -> run ids of this group (complete runs only)."""
    panels = {lab: step_panels(rs, ids) for lab, ids in runs_by_label.items()}
    colours = label_colours(list(panels))
    fig, axes = plt.subplots(3, 2, figsize=(11, 8), sharex=True)
    for ax, (name, title, scale) in zip(axes.flat, PANELS):
        unit = ""
        if scale is None:
            scale, unit = seconds_unit(np.concatenate([p[name] for p in panels.values()]))
            unit = f" ({unit})"
        for lab, p in panels.items():
            ax.plot(np.arange(len(p[name])), p[name] * scale, color=colours[lab], lw=1.2,
                    label=lab, marker="." if len(p[name]) < 30 else None)
        ax.set_title(title + unit)
        if name in ("migrations", "bytes_moved", "balance"):
            ax.set_ylim(bottom=0, top=max(ax.get_ylim()[1], 1))  # counts: from 0, never below
    for ax in axes[-1]:
        ax.set_xlabel("step (after warm-up)")
    # Beside the top right panel: constrained layout (matplotlib 3.6) makes room for it there.
    axes[0, 1].legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), fontsize=8,
                      ncol=1 if len(panels) <= 14 else 2)
    fig.suptitle(f"{group_title(*group)}: step by step (median over repetitions)")
    caption = ("Per step, the median over repetitions of each strategy's efficiency and "
               "imbalance (top), modelled makespan and time spent deciding the balance (middle), "
               "and the modules and kilobytes it migrated (bottom). A dynamic balancer pays for "
               "itself where its efficiency rises above the static strategies' by more than its "
               "balance time and migrations cost.")
    return save(fig, out_dir, Figure(key, "Step by step", f"Step by step: {group_title(*group)}",
                                     caption))
