"""Which figures a result set calls for, and what is missing from it (said, never a crash)."""
import numpy as np
import pandas as pd

from .figures.busy_map import busy_map_figure
from .figures.common import group_title, slug
from .figures.headline import headline_figure
from .figures.migration_map import migration_map_figure, migration_maps
from .figures.model_wall import model_wall_figure
from .figures.scaling import scaling_figure
from .figures.steps import steps_figure
from .figures.sweep_map import two_parameter_sweeps, sweep_map_figure
from .figures.timeline import measured_spans, timeline_figure, timeline_spans
from .notes import load_context
from .platform import describe
from .record_levels import lacking, lacking_note
from .results import simulated
from .strategies import sweep_params

GROUP = ["workload", "processors", "sweep"]


def complete(runs):
    """Runs that finished and verified, or were simulated (nothing to verify): the only ones a
    figure of results shows."""
    return runs[(runs.status == "complete") & ((runs.verified == 1) | simulated(runs))]


def group_runs(complete, key, labels):
    """label -> this group's complete runs (DataFrame), in the table's order."""
    w, p, s = key
    g = complete[(complete.workload == w) & (complete.processors == p) & (complete.sweep == s)]
    return {lab: g[g.label == lab] for lab in labels if (g.label == lab).any()}


def pick_busy_maps(rows, runs, highlight):
    """(role, label, runs): the best, the baseline and one chosen strategy, each once."""
    ranked = rows.sort_values(rows.headline.iloc[0] + "_median")
    best = ranked[ranked.best].label.tolist() or ranked.label.tolist()[:1]
    base = ranked[ranked.baseline].label.tolist()
    others = [lab for lab in ranked.label if lab not in best[:1] + base[:1]]
    chosen = [highlight] if highlight in others else others[:1]
    won = (ranked[ranked.label == best[0]].verdict == "winner").any()
    picks = [("winner" if won else "best median (undecided: no winner yet)", best[0])]
    picks += [("baseline", lab) for lab in base[:1] if lab != best[0]]
    picks += [("chosen (--highlight)" if highlight in chosen else "runner-up", lab)
              for lab in chosen]
    return [(role, lab, runs[lab]) for role, lab in picks if lab in runs]


def measured(rows, key, missing):
    """The table's rows with a median to draw; the others are said to be missing."""
    medians = [r[f"{r.headline}_median"] for _, r in rows.iterrows()]
    ok = [m is not None and 0 < m < float("inf") for m in medians]  # NaN compares false
    for r in rows[[not x for x in ok]].itertuples():
        missing.append(f"{key[0]} P={int(key[1])} {key[2]} {r.label}: no verified repetition "
                       f"(table: verified {r.verified}); not drawn")
    return rows[ok]


def group_figures(rs, rows, key, out_dir, highlight, missing):
    families = dict(zip(rs.runs.label, rs.runs.family))
    name = slug(*key[:2], *[f"{k}={v}" for k, v in sweep_params(key[2]).items()])
    rows = measured(rows, key, missing)
    if rows.empty:
        return []
    figures = [headline_figure(rows, families, out_dir, f"headline-{name}")]
    runs = group_runs(complete(rs.runs), key, list(rows.label))
    if not runs:
        missing.append(f"{key[0]} P={int(key[1])} {key[2]}: no complete run (verified, or "
                       "simulated) to plot")
        return figures
    ids = {lab: list(r.run) for lab, r in runs.items()}
    group = pd.concat(runs.values())
    # A figure is drawn from the runs that recorded its table; the others are said.
    for table, what in (("steps", "step-by-step figure"), ("procs", "busy time per processor")):
        if note := lacking_note(group, table, f"{group_title(*key)}: {what}"):
            missing.append(note)
    if len(lacking(group, "steps")) < len(group):
        figures.append(steps_figure(rs, ids, key, out_dir, f"steps-{name}"))
    picks = pick_busy_maps(rows, runs, highlight)
    if len(lacking(group, "procs")) < len(group):
        figures.append(busy_map_figure(rs, picks, key, rows.headline.iloc[0], out_dir,
                                       f"busy-{name}"))
    maps = migration_maps(rs, runs, key[1])
    if any(m[1].any() for m in maps.values()):
        figures.append(migration_map_figure(maps, key, out_dir, f"migrations-{name}"))
    elif maps:
        missing.append(f"{group_title(*key)}: no strategy changed a module's owner between "
                       "records: no migration map")
    return figures


def scaling_figures(table, out_dir, missing):
    figures = []
    table = table.assign(rest=[" ".join(f"{k}={v}" for k, v in sweep_params(s).items())
                               for s in table.sweep])
    for (w, rest), rows in table.groupby(["workload", "rest"], sort=False):
        if rows.processors.nunique() < 2:
            continue
        fig = scaling_figure(rows, w, rest, out_dir, f"scaling-{slug(w, rest)}")
        if fig is None:
            missing.append(f"{w} {rest}: scaling needs the baseline at the smallest P")
        else:
            figures.append(fig)
    return figures


def sweep_figures(table, out_dir):
    figures = []
    for (w, p), rows in table.groupby(["workload", "processors"], sort=False):
        for (x, y), by_base in two_parameter_sweeps(rows).items():
            figures.append(sweep_map_figure(w, p, x, y, by_base, out_dir,
                                            f"sweep-{slug(w, int(p), x, y)}"))
    return figures


def with_context(figures, runs, procs=None):
    """The runs' load, and with procs (figures of one platform) their speeds and external load."""
    for f in figures:
        f.context = load_context(runs) + (f"; {describe(runs, procs)}" if procs is not None
                                          else "")
    return figures


def with_module_detail(rs, runs):
    """The runs the modules table has rows of, those that moved modules first."""
    runs = runs[runs.run.isin(rs.modules.run)]
    moved = (runs.migrations_total.fillna(0) > 0).to_numpy()
    return runs.iloc[np.argsort(~moved, kind="stable")]


def timeline(rs, done, run_id, out_dir):
    """The timeline of run_id, by default of the first complete run with a measured timeline,
    else with module detail (one that moved modules where there is one): [figure], or [] and why
    not."""
    spans = rs.tables["spans"].run if "spans" in rs.tables else pd.Series(dtype=object)
    measured = done[done.run.isin(spans)]  # those with a measured timeline first
    runs = rs.runs[rs.runs.run == run_id] if run_id else \
        pd.concat([measured, with_module_detail(rs, done[~done.run.isin(spans)])])
    if runs.empty:
        return [], ["No complete run recorded its modules (execution.record: modules): no "
                    "timeline of a run and no migration map."]
    run = runs.iloc[0]
    spans = measured_spans(rs, run.run)
    spans = spans if not spans.empty else timeline_spans(rs, run.run)
    if spans.empty:
        return [], [f"{run.run}: no module row with a cost and an owner: no timeline"]
    return with_context([timeline_figure(spans, run, out_dir, f"timeline-{slug(run.run)}")],
                        runs.iloc[:1], rs.procs), []


def build_figures(rs, table, out_dir, highlight=None, timeline_run=None):
    """Every figure the set calls for, and the list of what could not be shown."""
    figures, missing = [], []
    done = complete(rs.runs)
    if table.empty or done.empty:
        missing.append("No complete run (verified, or simulated) in the set (or the selection): "
                       "no figure of results can be drawn.")
    for key, rows in table.groupby(GROUP, sort=False):
        runs = done[(done.workload == key[0]) & (done.processors == key[1])
                    & (done.sweep == key[2])]
        figures += with_context(group_figures(rs, rows, key, out_dir, highlight, missing), runs,
                                rs.procs)
    for w, runs in done.groupby("workload", sort=False):
        figures += with_context(scaling_figures(table[table.workload == w], out_dir, missing),
                                runs)
        figures += with_context(sweep_figures(table[table.workload == w], out_dir), runs)
    if not done.empty:
        figures += with_context([model_wall_figure(done, out_dir)], done)
        drawn, why_not = timeline(rs, done, timeline_run, out_dir)
        figures, missing = figures + drawn, missing + why_not
    return figures, missing
