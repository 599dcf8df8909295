"""The words beside the figures: warnings, what is missing, and where every run came from."""
from .record_levels import LEVELS, lacking, recorded
from .results import simulated

FEW_REPETITIONS = 5  # below this the table warns too (issue 9)


def whole(value):
    """A count as text: '?' where the set holds none (NaN)."""
    return str(int(value)) if value == value else "?"


def warnings(rs, table):
    out = []
    runs = rs.runs
    over = runs[runs.oversubscribed.fillna(0) > 0]
    if len(over):
        procs = [whole(p) for p in sorted(set(over.processors.dropna()))]
        cores = [whole(c) for c in sorted(set(over.available_processors.dropna()))]
        out.append(f"Oversubscribed: {len(over)} of {len(runs)} runs had more threads "
                   f"(P = {', '.join(procs)}) than free cores ({', '.join(cores)}); their wall "
                   "times measure time-sharing, so the table ranks them by the modelled makespan.")
    # Simulated rows repeat their value: one repetition is all they need (as the table says).
    few = table[(table.n.astype(float) < FEW_REPETITIONS)
                & (table.verified != "not verified: simulated")]
    if len(few):
        least = int(few.n.min())
        out.append(f"Few repetitions: {len(few)} of {len(table)} configurations have fewer "
                   f"than {FEW_REPETITIONS} (least: {least}); their intervals are wide"
                   + (" or absent (fewer than two repetitions give no interval)"
                      if least < 2 else "") + ".")
    sim = int(simulated(runs).sum()) if len(runs) else 0
    if sim:
        out.append(f"Not verified: simulated: {sim} of {len(runs)} runs ran no kernel (a "
                   "simulating executor: trace imports, synthetic loads), so nothing was checked "
                   "against a reference; their figures show the simulator's modelled times.")
    coarse = lacking(runs, "procs")
    if len(coarse):
        levels = ", ".join(sorted({LEVELS[k] for k in recorded(coarse)}, key=LEVELS.index))
        out.append(f"Recorded without processors: {len(coarse)} of {len(runs)} runs were "
                   f"recorded at execution.record: {levels} (a simulating executor's default), "
                   "which writes no procs table: their busy time per processor, per-step "
                   "imbalance, measured external load and in-step triggers are not shown; "
                   "record: procs or modules records them.")
    serial = sorted({b for b in runs.openblas if b and "USE_OPENMP" not in b})
    if serial:
        out.append("OpenBLAS fallback: the runs used an OpenBLAS that is not the OpenMP build "
                   f"({serial[0][:80]}); its LAPACK is not safe from several threads at once "
                   "(docs/engine.md), so dense results may be wrong or slowed.")
    return out


def missing_runs(rs):
    out = [f"Could not read {p}" for p in rs.problems]
    if rs.unended:
        out.append(f"{len(rs.unended)} runs began but have not ended (killed, or still running; "
                   f"e.g. {rs.unended[0]}): their steps are left out.")
    if rs.superseded:
        out.append(f"{len(rs.superseded)} interrupted runs (e.g. {rs.superseded[0]}) were run "
                   "again by `run --resume`: the runs that completed them stand for them.")
    for r in rs.runs.assign(simulated_run=simulated(rs.runs)).itertuples():
        where = (f"{r.run} ({r.workload}, {r.label}, P={whole(r.processors)}, "
                 f"repetition {whole(r.repetition)})")
        if r.status == "failed":
            out.append(f"{where}: failed: {r.error or 'no error recorded'}; left out of every "
                       "figure.")
        elif r.status != "complete":
            out.append(f"{where}: {r.status or 'no status'}, {r.steps_recorded} of "
                       f"{whole(r.steps)} steps recorded; left out of every figure.")
        elif r.verified != 1 and not r.simulated_run:
            out.append(f"{where}: its result did not verify; left out of every figure.")
    return out


def _values(column):
    """A column's distinct values as text, ', '-joined (one invocation should have one)."""
    shown = [whole(v) if isinstance(v, float) else str(v) for v in column.dropna().unique()]
    return ", ".join(v for v in shown if v) or "not recorded"


def _span(values):
    values = values.dropna()
    if values.empty:
        return "not recorded"
    low, high = values.min(), values.max()
    return f"{low:.2f}" if low == high else f"{low:.2f}-{high:.2f}"


# The invocations table's fields shown below each row (hwloc's XML export stays in the set).
INVOCATION_MORE = ["command", "compiler", "flags", "build_type", "omp_env", "openblas",
                   "openblas_core", "hdf5_version", "cpu_governor", "slice"]


def provenance(rs):
    """One record per invocation: where, when and under what load its runs ran."""
    invocations = rs.invocations.drop_duplicates("invocation").set_index("invocation")
    records = []
    for invocation, g in rs.runs.groupby("invocation", sort=True):
        cores = [_values(g[c]) for c in ["cores", "hardware_threads", "available_processors"]]
        row = {"invocation": invocation, "started": min(g.started), "host": _values(g.host),
               "CPU": _values(g.cpu_model), "cores / threads / free": " / ".join(cores),
               "P": ", ".join(whole(p) for p in sorted(set(g.processors.dropna()))),
               "commit": _values(g.git_sha), "load average (start)": _span(g.load_start),
               "load average (end)": _span(g.load_end), "runs": len(g),
               "config": _values(g.name), "finished": max(g.finished),
               "topology": _values(g.topology)}
        if invocation in invocations.index:
            extra = invocations.loc[invocation]
            more = {k: _values(extra[[k]]) for k in INVOCATION_MORE if k in extra}
            row.update({k: v for k, v in more.items() if v != "not recorded"})
        records.append(row)
    return records


def load_context(runs):
    """The conditions a figure's runs were measured under, in words: load average and cores."""
    if runs.empty:
        return ""
    cores = [whole(c) for c in sorted(set(runs.available_processors.dropna()))]
    text = f"{len(runs)} runs; free cores: {', '.join(cores) or 'not recorded'}"
    load = runs.load_average.dropna()
    if load.empty:
        return text + "; load average: not recorded in this set"
    low, high = load.min(), load.max()
    span = f"{low:.2f}" if low == high else f"{low:.2f}-{high:.2f}"
    return text + f"; 1-minute load average at the start of its invocation(s): {span}"
