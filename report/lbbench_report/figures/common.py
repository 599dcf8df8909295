"""What every figure shares: its record (file, title, caption), saving, colours, group keys."""
import re
from dataclasses import dataclass

import matplotlib
import numpy as np
import pandas as pd

matplotlib.use("Agg")  # files only: no display on a build machine
import matplotlib.pyplot as plt  # noqa: E402

DPI = 110
FAMILY_COLOURS = {"static": "#1f77b4", "between-step dynamic": "#2ca02c",
                  "fastest-finish dynamic": "#d62728", "in-step schedule": "#9467bd"}
MARK_BEST, MARK_EQUIVALENT, MARK_UNDECIDED, MARK_UNRANKED, MARK_BASELINE = \
    "*", "=", "?", "-", "(baseline)"

# A set's labels are text, never TeX: "$" in a name must not start mathtext (or fail to parse).
plt.rcParams.update({"font.size": 10, "axes.titlesize": 11, "axes.grid": True,
                     "grid.alpha": 0.3, "figure.constrained_layout.use": True,
                     "text.parse_math": False})


@dataclass
class Figure:
    key: str       # file stem, unique in the report
    section: str   # heading the page puts it under
    title: str
    caption: str   # one or two sentences: what it shows and how to read it
    path: str = ""
    context: str = ""  # the conditions of the runs it shows (load average, cores)


# The table's `verified` of a row whose every repetition counts (lbbench table).
COMPLETE = ("yes", "not verified: simulated")


def mark(r):
    """The table's mark of a row (`lbbench table`): the winner, equivalent to it, undecided, or
    not ranked on this host (a slower row has none)."""
    marks = {"winner": MARK_BEST, "equivalent": MARK_EQUIVALENT, "undecided": MARK_UNDECIDED}
    if r.verdict in marks:
        return marks[r.verdict]
    if r.verified in COMPLETE and not r.ranked:
        return MARK_UNRANKED
    return ""


def slug(*parts):
    text = "-".join(str(p) for p in parts if str(p))
    return re.sub(r"[^A-Za-z0-9_.=-]+", "_", text).strip("_")[:120]


def group_title(workload, processors, sweep):
    rest = " ".join(f"{k}={v}" for k, v in sweep_rest(sweep).items())
    return f"{workload}, P={int(processors)}" + (f", {rest}" if rest else "")


def sweep_rest(sweep):
    from ..strategies import sweep_params
    return sweep_params(sweep)


def _numbers(values):
    return pd.to_numeric(values, errors="coerce").to_numpy(float)


def rows_of(rs, table, run_ids):
    """The rows of these runs in a table of the set, through an index by run built once (a
    figure asks for a few runs of a set that may hold 100,000)."""
    indexed = rs.__dict__.setdefault("by_run", {})
    if table not in indexed:
        frame = rs.tables[table]
        indexed[table] = frame.set_axis(frame.run.to_numpy()).sort_index()
    frame = indexed[table]
    return frame.loc[[r for r in dict.fromkeys(run_ids) if r in frame.index]]


def step_series(rs, run_ids, column):
    """Each run's `column` of the steps table in step order, one array a run that has it."""
    rows = rows_of(rs, "steps", run_ids)
    if column not in rows:
        return []
    return [_numbers(g.sort_values("step")[column]) for _, g in rows.groupby("run")]


def busy_matrix(rs, run_id):
    """One run's busy CPU time [step, processor] (NaN where the set holds none)."""
    rows = rows_of(rs, "procs", [run_id])
    if "busy" not in rows or rows.empty:
        return np.full((0, 0), np.nan)
    rows = rows.drop_duplicates(["step", "proc"])  # a hostile part may repeat a row
    return rows.assign(busy=_numbers(rows.busy)).pivot(index="step", columns="proc",
                                                       values="busy").to_numpy(float)


LONGEST_TEXT, LONGEST_TICK = 160, 80  # characters of a set's text a figure shows (the page
# has it whole): a title or legend line, a tick label


def shorter(text, longest=LONGEST_TEXT):
    text = str(text)
    return text if len(text) <= longest else text[:longest - 1] + "…"


def tick_labels(labels):
    """Tick labels from a set's text, each shorter() (a tick label is drawn from this list)."""
    return [shorter(label, LONGEST_TICK) for label in labels]


def save(fig, out_dir, record):
    # A set's text is unbounded: a label of 100,000 characters overflows the rasteriser.
    for text in fig.findobj(matplotlib.text.Text):
        text.set_text(shorter(text.get_text()))
    record.path = f"{out_dir}/{record.key}.png"
    fig.savefig(record.path, dpi=DPI)
    plt.close(fig)
    return record


def label_colours(labels):
    cmap = plt.get_cmap("tab20" if len(labels) > 10 else "tab10")
    return {lab: cmap(i % cmap.N) for i, lab in enumerate(labels)}


def seconds_unit(values):
    """A unit that keeps the numbers readable: (scale, name)."""
    top = max((abs(v) for v in values if v == v), default=1.0)
    for scale, name in [(1, "s"), (1e3, "ms"), (1e6, "µs")]:
        if top * scale >= 1:
            return scale, name
    return 1e6, "µs"


def speeds_of(text, processors):
    """A run's processor speeds (its `speeds` column, comma-separated), 1 where not given."""
    try:
        given = [float(s) for s in str(text).split(",") if s.strip()]
    except ValueError:
        given = []
    return [given[p] if p < len(given) else 1.0 for p in range(processors)]


def processor_ticks(ax, axis, processors, speeds_text):
    """Ticks processor by processor on `axis` ("x" or "y"); where the speeds differ, each
    labelled with its processor's speed ("2 (x0.5)"). Returns whether they differ."""
    if not 0 < processors <= 32:
        return False  # a label a processor would not fit (and a set's odd P must not fill memory)
    speeds = speeds_of(speeds_text, processors)
    unequal = len(set(speeds)) > 1
    if processors > 16 and not unequal:
        return False  # matplotlib's own ticks read better than 17 or more
    ticks = list(range(processors))
    labels = [f"{p} (x{s:g})" if unequal else str(p) for p, s in zip(ticks, speeds)]
    getattr(ax, f"set_{axis}ticks")(ticks)
    getattr(ax, f"set_{axis}ticklabels")(labels, fontsize=7 if unequal else None)
    if unequal:
        getattr(ax, f"set_{axis}label")("processor (x its speed)")
    return unequal
