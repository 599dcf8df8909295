"""A heat map over every two-parameter sweep (workload or balancer parameters)."""
import numpy as np

from ..strategies import label_params, sweep_params
from .common import MARK_BEST, MARK_EQUIVALENT, Figure, mark, plt, save, tick_labels


def _value(text):
    try:
        return float(text)
    except ValueError:
        return text


def with_params(rows):
    """The table's rows with 'base' (strategy without parameters) and 'params' (the sweep point)."""
    rows = rows.copy()
    rows["base"] = [label_params(lab)[0] for lab in rows.label]
    rows["params"] = [{**sweep_params(s), **label_params(lab)[1]}
                      for s, lab in zip(rows.sweep, rows.label)]
    return rows


def two_parameter_sweeps(rows):
    """{(x, y): {base: rows}} for every strategy whose rows vary in exactly two parameters."""
    found = {}
    for base, g in with_params(rows).groupby("base", sort=False):
        if g.baseline.all():
            continue  # the baseline against itself: 1 everywhere
        keys = set().union(*g.params)
        varying = sorted(k for k in keys if len({p.get(k) for p in g.params}) > 1)
        if len(varying) == 2:
            found.setdefault(tuple(varying), {})[base] = g
    return found


def _grid(g, x, y):
    xs = sorted({p[x] for p in g.params}, key=_value)
    ys = sorted({p[y] for p in g.params}, key=_value)
    ratio = np.full((len(ys), len(xs)), np.nan)
    text = [["" for _ in xs] for _ in ys]
    for r, p in zip(g.itertuples(), g.params):
        i, j = ys.index(p[y]), xs.index(p[x])
        ratio[i, j] = float(r.ratio) if r.ratio is not None else np.nan
        text[i][j] = f"{ratio[i, j]:.2f}{mark(r)}"
    return xs, ys, ratio, text


def sweep_map_figure(workload, processors, x, y, by_base, out_dir, key):
    bases = list(by_base)
    grids = {b: _grid(by_base[b], x, y) for b in bases}
    finite = np.concatenate([g[2][np.isfinite(g[2])] for g in grids.values()] + [np.array([1.0])])
    spread = max(abs(np.log(finite.min())), abs(np.log(finite.max())), 0.05)
    cols = min(len(bases), 3)
    rows_n = -(-len(bases) // cols)
    fig, axes = plt.subplots(rows_n, cols, figsize=(3.8 * cols + 1.2, 3.2 * rows_n), squeeze=False)
    for ax, b in zip(axes.flat, bases):
        xs, ys, ratio, text = grids[b]
        image = ax.imshow(np.log(ratio), cmap="RdBu_r", vmin=-spread, vmax=spread, origin="lower",
                          aspect="auto")
        for i in range(len(ys)):
            for j in range(len(xs)):
                dark = abs(np.log(ratio[i, j])) > 0.6 * spread if np.isfinite(ratio[i, j]) else False
                ax.text(j, i, text[i][j], ha="center", va="center", fontsize=8,
                        color="white" if dark else "black")
        ax.set_xticks(range(len(xs)), tick_labels(xs))
        ax.set_yticks(range(len(ys)), tick_labels(ys))
        ax.set_xlabel(x)
        ax.set_ylabel(y)
        ax.set_title(b)
        ax.grid(False)
    for ax in list(axes.flat)[len(bases):]:
        ax.set_visible(False)
    bar = fig.colorbar(image, ax=axes, shrink=0.8, label="ratio to the baseline (log scale)")
    ticks = np.exp(np.linspace(-spread, spread, 5))
    bar.set_ticks(np.log(ticks), labels=[f"{t:.2f}" for t in ticks])
    title = f"{workload}, P={int(processors)}: {x} x {y}"
    fig.suptitle(title)
    caption = (f"Each cell is one point of the {x} x {y} sweep: the table's ratio of the "
               f"strategy's median to the baseline's at that point (blue, below 1: faster; red: "
               f"slower), with {MARK_BEST} for the winner of its group and {MARK_EQUIVALENT} "
               f"for a strategy equivalent to it.")
    return save(fig, out_dir, Figure(key, "Parameter sweeps", f"Sweep {title}", caption))
