"""Per group (workload, P, sweep point): each strategy's headline measure with its interval."""
import numpy as np

from .common import (FAMILY_COLOURS, MARK_BASELINE, MARK_BEST, MARK_EQUIVALENT, MARK_UNDECIDED,
                     MARK_UNRANKED, Figure, group_title, mark, plt, save, seconds_unit,
                     tick_labels)


def row_label(r):
    return f"{mark(r) or ' '} {r.label}" + (f" {MARK_BASELINE}" if r.baseline else "")


def gap_to_ideal(r):
    """The modelled makespan's excess over the ideal bound: 1 / efficiency - 1, since the
    table's efficiency is ideal / makespan."""
    return 1 / r.efficiency - 1 if r.efficiency and r.efficiency > 0 else np.nan


def _annotation(r):
    parts = []
    if r.ratio == r.ratio and not r.baseline:
        ci = "" if r.ratio_ci_low != r.ratio_ci_low else f" [{r.ratio_ci_low:.2f}, {r.ratio_ci_high:.2f}]"
        parts.append(f"×{r.ratio:.2f}{ci}")
    gap = gap_to_ideal(r)
    if gap == gap:
        parts.append(f"ideal +{100 * gap:.0f}%")
    return "  ".join(parts)


def _repetitions(rows):
    least, most = int(rows.n.min()), int(rows.n.max())
    if most < 2:
        return "1 repetition: no interval"
    return f"{least} repetitions" if least == most else f"{least}-{most} repetitions"


def headline_figure(rows, families, out_dir, key):
    """rows: the table's rows of one group. families: label -> strategy family."""
    rows = rows.sort_values(rows.headline.iloc[0] + "_median")
    clock = rows.headline.iloc[0]
    med, lo, hi = (rows[f"{clock}_{s}"].astype(float).values for s in ["median", "ci_low", "ci_high"])
    scale, unit = seconds_unit(np.concatenate([med, hi]))
    y = np.arange(len(rows))[::-1]
    fig, ax = plt.subplots(figsize=(9, 1.2 + 0.38 * len(rows)))
    for yi, r, m, l, h in zip(y, rows.itertuples(), med, lo, hi):
        colour = FAMILY_COLOURS.get(families.get(r.label), "grey")
        err = None if l != l else [[(m - l) * scale], [(h - m) * scale]]
        ax.errorbar(m * scale, yi, xerr=err, fmt="o", color=colour, capsize=3,
                    mfc=colour if r.ranked else "white")
        ax.annotate(_annotation(r), (1.0, yi), xycoords=("axes fraction", "data"),
                    xytext=(6, 0), textcoords="offset points", va="center", fontsize=8)
    ideal = float(np.nanmedian(rows.makespan_median * rows.efficiency)) if len(rows) else np.nan
    if clock == "makespan" and ideal == ideal:
        ax.axvline(ideal * scale, color="black", ls="--", lw=1)
        ax.annotate("ideal bound", (ideal * scale, 1.0), xycoords=("data", "axes fraction"),
                    xytext=(0, 2), textcoords="offset points", ha="center", va="bottom",
                    fontsize=8)
    ax.annotate("vs baseline [95 %], gap to ideal", (1.0, 1.0), xycoords="axes fraction",
                xytext=(6, 2), textcoords="offset points", va="bottom", fontsize=8,
                style="italic")
    ax.set_yticks(y, tick_labels(row_label(r) for r in rows.itertuples()), fontfamily="monospace")
    ends = np.concatenate([med, hi])
    ax.set_xlim(0, 1.06 * np.max(ends[np.isfinite(ends)]) * scale)  # medians: finite (build.py)
    ax.set_ylim(-0.6, len(rows) - 0.4)
    name = "modelled makespan" if clock == "makespan" else "wall time"
    ax.set_xlabel(f"{name} ({unit}), median and 95 % interval; {_repetitions(rows)}")
    w, p, s = rows.workload.iloc[0], rows.processors.iloc[0], rows.sweep.iloc[0]
    ax.set_title(f"{group_title(w, p, s)}: ranked by {name}", pad=14)
    caption = (f"Each strategy's {name} (dot: median; bar: distribution-free 95 % interval of the "
               f"median; colour: strategy family; hollow: not ranked on this host), shortest at the "
               f"top; marks as in `lbbench table`: {MARK_BEST} the winner, {MARK_EQUIVALENT} "
               f"equivalent to it, {MARK_UNDECIDED} undecided, {MARK_UNRANKED} not ranked. Right: the ratio to "
               f"the baseline with its interval (below 1 is faster) and the gap of the modelled "
               f"makespan to the ideal bound (sum of work / sum of speeds).")
    record = Figure(key, "Headline", f"Strategies on {group_title(w, p, s)}", caption)
    return save(fig, out_dir, record)
