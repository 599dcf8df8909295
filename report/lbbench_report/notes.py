"""The words beside the figures: warnings, what is missing, and where every run came from."""
FEW_REPETITIONS = 5  # below this the table warns too (issue 9)

PROVENANCE = ["load_average", "host", "cpu_model", "cores", "hardware_threads",
              "available_processors", "compiler", "flags", "git_sha", "omp_env", "openblas",
              "hdf5_version"]


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
    few = table[table.n.astype(float) < FEW_REPETITIONS]
    if len(few):
        least = int(few.n.min())
        out.append(f"Few repetitions: {len(few)} of {len(table)} configurations have fewer "
                   f"than {FEW_REPETITIONS} (least: {least}); their intervals are wide"
                   + (" or absent (fewer than two repetitions give no interval)"
                      if least < 2 else "") + ".")
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
    for r in rs.runs.itertuples():
        where = (f"{r.run} ({r.workload}, {r.label}, P={whole(r.processors)}, "
                 f"repetition {whole(r.repetition)})")
        if r.status == "failed":
            out.append(f"{where}: failed: {r.error or 'no error recorded'}; left out of every "
                       "figure.")
        elif r.status != "complete":
            out.append(f"{where}: {r.status or 'no status'}, {r.steps_recorded} of "
                       f"{whole(r.steps)} steps recorded; left out of every figure.")
        elif r.verified != 1:
            out.append(f"{where}: its result did not verify; left out of every figure.")
    return out


def _shown(value):
    if isinstance(value, float):
        return "not recorded" if value != value else f"{value:g}"
    return value


def provenance(rs):
    """One record per invocation (or per distinct set of provenance where none is recorded)."""
    runs = rs.runs
    invocations = rs.invocations.drop_duplicates("invocation").set_index("invocation")
    keys = ["invocation", "name"] + PROVENANCE
    table = []
    for key, g in runs.groupby(keys, sort=False, dropna=False):
        row = {k: _shown(v) for k, v in zip(keys, key)}
        row["topology (platform)"] = ", ".join(sorted(set(g.topology)))
        row["processors"] = ", ".join(whole(p) for p in sorted(set(g.processors.dropna())))
        row["runs"] = len(g)
        row["started"] = min(g.started)
        row["finished"] = max(g.finished)
        if row["invocation"] in invocations.index:
            extra = invocations.loc[row["invocation"]].to_dict()
            row.update({k: _shown(v) for k, v in extra.items() if k not in row})
        table.append(row)
    return table


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
