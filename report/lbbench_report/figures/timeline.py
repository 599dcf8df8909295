"""One run, processor by processor, over its first steps: its measured spans where it recorded its
timeline (execution.timeline: each module execution, decision, migration, wait and serial end of
step as it happened), else each module a span as long as its recorded cost, laid end to end on
the track of the processor that ran it."""
import numpy as np
import pandas as pd
from matplotlib.patches import Patch

from .common import Figure, plt, processor_ticks, rows_of, save, seconds_unit
from .module_moves import module_rows

STEPS_SHOWN = 8  # the first measured steps: more make each span too thin to see


def step_starts(rs, run_id, steps, lengths):
    """Each shown step's start on the modelled clock: the recorded makespans of the steps before
    it (serial, balance and migration included); the modules' own span where none is recorded."""
    recorded = rows_of(rs, "steps", [run_id])
    makespan = pd.to_numeric(recorded.drop_duplicates("step").set_index("step")
                             .get("makespan", pd.Series(dtype=float)), errors="coerce")
    length = [max(makespan.get(s, np.nan), lengths[s]) if np.isfinite(makespan.get(s, np.nan))
              else lengths[s] for s in steps]
    return dict(zip(steps, np.concatenate([[0.0], np.cumsum(length)[:-1]])))


def timeline_spans(rs, run_id):
    """One row per module per shown step and phase: proc, start, cost, moved (owner changed)."""
    rows = module_rows(rs, [run_id])
    steps = sorted(rows.step.unique())[:STEPS_SHOWN]
    rows = rows[rows.step.isin(steps)].sort_values(["step", "phase", "owner", "module"])
    # Within a phase a processor's modules are laid end to end in module order (the set records
    # costs, not start times); a phase starts when its slowest processor of the one before ends.
    loads = rows.groupby(["step", "phase", "owner"]).cost.sum().groupby(["step", "phase"]).max()
    phase_at = loads.groupby("step").cumsum() - loads
    starts = step_starts(rs, run_id, steps, loads.groupby("step").sum().to_dict())
    offset = rows.groupby(["step", "phase", "owner"]).cost.cumsum() - rows.cost
    begin = [starts[s] + phase_at[(s, p)] for s, p in zip(rows.step, rows.phase)]
    return pd.DataFrame({"step": rows.step, "phase": rows.phase, "proc": rows.owner,
                         "module": rows.module, "start": np.asarray(begin) + offset,
                         "cost": rows.cost, "moved": rows.moved_from >= 0})


# The measured spans other than modules, drawn in greys and red.
OTHER_KINDS = {"wait": "#e4e4e4", "decision": "#222", "migration": "#d00", "serial": "#888"}


def measured_spans(rs, run_id):
    """The run's measured spans of its first shown steps (empty when it recorded no timeline):
    the same columns as timeline_spans(), start and cost in seconds, and each span's kind."""
    rows = rows_of(rs, "spans", [run_id]) if "spans" in rs.tables else pd.DataFrame()
    if rows.empty:
        return rows
    steps = sorted(rows.step.unique())[:STEPS_SHOWN]
    rows = rows[rows.step.isin(steps)]
    return pd.DataFrame({"step": rows.step, "phase": rows.phase, "proc": rows.proc,
                         "module": rows.module, "start": rows.start * 1e-9,
                         "cost": (rows.end - rows.start) * 1e-9, "moved": False,
                         "kind": rows.kind}).reset_index(drop=True)


def timeline_figure(spans, run, out_dir, key):
    """spans: measured_spans() or timeline_spans() of the run; run: its runs row."""
    measured = "kind" in spans
    scale, unit = seconds_unit([(spans.start + spans.cost).max()])
    colours = plt.get_cmap("tab20")
    fig, ax = plt.subplots(figsize=(12, 1.2 + 0.45 * int(spans.proc.max() + 1)))
    for proc, g in spans.groupby("proc"):
        face = [OTHER_KINDS.get(k, "#aaa") if k != "module" else colours(m % 20)
                for k, m in zip(g.kind, g.module)] if measured else \
            [colours(m % 20) for m in g.module]
        ax.broken_barh(list(zip(g.start * scale, g.cost * scale)), (proc - 0.4, 0.8),
                       facecolors=face,
                       edgecolors=["#d00" if m else "white" for m in g.moved], linewidth=0.6)
    for s in spans.groupby("step").start.min() * scale:
        ax.axvline(s, color="#444", lw=0.6, ls=":")
    ax.set_ylabel("processor")
    processors = int(run.processors) if run.processors == run.processors else 0
    if not processor_ticks(ax, "y", max(processors, int(spans.proc.max()) + 1),
                           run.get("speeds", "")):
        ax.set_yticks(sorted(spans.proc.unique()))
    ax.set_xlabel(f"{'measured' if measured else 'modelled'} time ({unit}); dotted: the start "
                  "of each step")
    ax.invert_yaxis()
    ax.grid(False)
    legend = [Patch(facecolor=c, label=k) for k, c in OTHER_KINDS.items()] if measured else \
        [Patch(facecolor="#ccc", edgecolor="#d00", label="module moved in")]
    ax.legend(handles=legend, loc="upper right", fontsize=8)
    steps = spans.step.nunique()
    title = f"Timeline of run {run.run} ({run.label}, {run.workload}, P={int(run.processors)})"
    ax.set_title(title, loc="left")
    caption = (f"The first {steps} measured steps of one run, as measured (execution.timeline): "
               "each module execution a span from its wall-clock start to its end on the track "
               "of the processor that ran it, coloured by module index; waits light grey, "
               "decisions black, migrations red, the workload's serial end of step grey.") \
        if measured else \
        (f"The first {steps} measured steps of one run: each module is a span as long as "
               "its recorded cost on the track of the processor that ran it, coloured by module "
               "index and edged red where it arrived from another processor. The set records "
               "costs, not start times: a processor's modules are laid end to end in module "
               "order, each phase starts when the slowest processor ended the one before, and "
               "the gap before the next step is idle, serial, balance and migration time.")
    spans.to_csv(f"{out_dir}/{key}.csv", index=False)  # the numbers behind the spans
    return save(fig, out_dir, Figure(key, "Timeline of one run", title, caption))
