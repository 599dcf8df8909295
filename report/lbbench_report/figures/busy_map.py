"""Per group: busy time per step and processor for the best, the baseline and one more strategy."""
import numpy as np

from .common import Figure, busy_matrix, group_title, plt, processor_ticks, save, seconds_unit


def median_run(runs, clock):
    """The repetition whose total is the median one (the lower of the two middle ones)."""
    ordered = runs.sort_values(f"{clock}_total")
    return ordered.run.iloc[(len(ordered) - 1) // 2]


def busy_map_figure(rs, picks, group, clock, out_dir, key):
    """picks: [(role, label, runs DataFrame)], e.g. ("best", "lpt", ...)."""
    median = [(role, label, runs[runs.run == median_run(runs, clock)].iloc[0])
              for role, label, runs in picks]
    maps = [(role, label, busy_matrix(rs, run.run), run.get("speeds", ""))
            for role, label, run in median]
    top = max([float(np.nanmax(m)) for _, _, m, _ in maps if np.isfinite(m).any()], default=1.0)
    scale, unit = seconds_unit([top])
    fig, axes = plt.subplots(len(maps), 1, figsize=(10, 1.4 + 1.7 * len(maps)), sharex=True,
                             squeeze=False)
    for ax, (role, label, busy, speeds) in zip(axes[:, 0], maps):
        image = ax.imshow(busy.T * scale, aspect="auto", interpolation="nearest", cmap="viridis",
                          vmin=0, vmax=top * scale, origin="lower")
        ax.set_title(f"{role}: {label}", loc="left")
        ax.set_ylabel("processor")
        ax.grid(False)
        processor_ticks(ax, "y", busy.shape[1], speeds)
    axes[-1, 0].set_xlabel("step (after warm-up)")
    fig.colorbar(image, ax=axes[:, 0], label=f"busy CPU time ({unit})", shrink=0.9)
    fig.suptitle(f"{group_title(*group)}: busy time per processor and step")
    caption = ("Busy CPU time of every processor (rows) in every step (columns) for the median "
               "repetition of the best strategy, the baseline and one other, on one colour "
               "scale. A balanced step is a column of equal colour; a bright row is a processor "
               "the others wait for, and a column that changes after a step is a rebalance.")
    return save(fig, out_dir, Figure(key, "Busy time per processor",
                                     f"Busy time: {group_title(*group)}", caption))
