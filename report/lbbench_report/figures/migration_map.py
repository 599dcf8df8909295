"""Per group: for each strategy, which processor's modules went to which (a P x P heat map of the
owner changes the modules table records), the mean over its repetitions."""
import json

import numpy as np

from .common import Figure, group_title, plt, processor_ticks, save
from .module_moves import LARGEST_P, move_matrix, module_rows

COLUMNS = 4  # maps per row of the figure


def migration_maps(rs, runs_by_label, processors):
    """label -> (runs with module detail, [from, to] owner changes summed over those runs, their
    mean bytes moved: the set records bytes per step and run, not per pair, their speeds). In-step
    schedules are left out: a chunk handed to an idle thread is no migration of state."""
    maps = {}
    for label, runs in runs_by_label.items():
        if "schedule" in runs and runs.schedule.fillna("").astype(str).ne("").any():
            continue
        rows = module_rows(rs, list(runs.run))
        if not rows.empty:
            size = int(rows.owner.max()) + 1
            if processors == processors and 0 < processors <= LARGEST_P:  # NaN: not recorded
                size = max(size, int(processors))
            shown = runs[runs.run.isin(rows.run)]
            maps[label] = (rows.run.nunique(), move_matrix(rows, size),
                           shown.bytes_moved_total.mean(), shown.speeds.iloc[0]
                           if "speeds" in shown else "")
    return maps


def _draw(ax, label, runs, matrix, moved, speeds):
    mean = matrix / runs
    image = ax.imshow(mean, cmap="Reds", vmin=0, vmax=max(mean.max(), 1e-9))
    megabytes = f", {moved / 1e6:.3g} MB" if moved == moved else ""
    ax.set_title(f"{label}: {matrix.sum() / runs:.1f} moves{megabytes} per run", fontsize=9,
                 loc="left")
    ax.grid(False)
    processor_ticks(ax, "x", len(mean), speeds)
    processor_ticks(ax, "y", len(mean), speeds)
    if len(mean) <= 8:
        for (i, j), v in np.ndenumerate(mean):
            if v:
                ax.text(j, i, f"{v:.3g}", ha="center", va="center", fontsize=7,
                        color="white" if v > mean.max() / 2 else "black")
    return image


def migration_map_figure(maps, group, out_dir, key):
    """maps: migration_maps() of one group, strategies with no owner change left out."""
    moving = {lab: m for lab, m in maps.items() if m[1].any()}
    still = [lab for lab in maps if lab not in moving]
    rows = max(1, -(-len(moving) // COLUMNS))
    fig, axes = plt.subplots(rows, COLUMNS, figsize=(11, 0.6 + 2.8 * rows), squeeze=False)
    for ax, (label, (runs, matrix, moved, speeds)) in zip(axes.flat, moving.items()):
        _draw(ax, label, runs, matrix, moved, speeds)
    for ax in axes.flat[len(moving):]:
        ax.axis("off")
    for ax in axes[:, 0]:
        ax.set_ylabel("from processor")
    for ax in axes[-1]:
        ax.set_xlabel("to processor")
    title = f"Migration map: {group_title(*group)}"
    fig.suptitle(f"{group_title(*group)}: modules moved from processor (row) to processor "
                 "(column), mean per run")
    caption = ("Each cell counts the modules whose owner changed from the row's processor to the "
               "column's between consecutive records of the modules table (the set keeps owners, "
               "not the pairs of a migration; bytes it keeps per step: the titles' megabytes), a "
               "mean over the strategy's repetitions, each map on its own colour scale; moves "
               "before the first measured step, a move and its return within one step, and "
               "copies after the last step are not seen, and in-step schedules are left out (their "
               "owner changes are the runtime's hand-outs of modules, self-scheduling chunks, to "
               "idle threads, not copies of state). "
               + (f"No owner changed under: {', '.join(still)}." if still else
                  "Every strategy shown moved modules."))
    with open(f"{out_dir}/{key}.json", "w") as numbers:  # the numbers behind the maps
        json.dump([{"label": lab, "runs": runs, "moves": matrix.tolist(),
                    "bytes_moved_mean": None if moved != moved else moved}
                   for lab, (runs, matrix, moved, _) in maps.items()], numbers, indent=1)
    return save(fig, out_dir, Figure(key, "Migration map", title, caption))
