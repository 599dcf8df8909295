"""The words beside the figures: warnings, what is missing, and where every run came from."""
FEW_REPETITIONS = 5  # below this the table warns too (issue 9)

PROVENANCE = ["load_average", "host", "cpu_model", "cores", "hardware_threads", "available_processors",
              "compiler", "flags", "git_sha", "omp_env", "openblas", "hdf5_version"]


def warnings(archive, table):
    out = []
    runs = archive.runs
    over = runs[runs.oversubscribed.fillna(0) > 0]
    if len(over):
        procs = sorted({int(p) for p in over.processors.dropna()})
        cores = sorted({int(c) for c in over.available_processors.dropna()})
        out.append(f"Oversubscribed: {len(over)} of {len(runs)} runs had more threads "
                   f"(P = {', '.join(map(str, procs))}) than free cores ({', '.join(map(str, cores))})"
                   f"; their wall times measure time-sharing, so the table ranks them by the "
                   f"modelled makespan.")
    few = table[table.n.astype(float) < FEW_REPETITIONS]
    if len(few):
        least = int(few.n.min())
        out.append(f"Few repetitions: {len(few)} of {len(table)} configurations have fewer than "
                   f"{FEW_REPETITIONS} (least: {least}); their intervals are wide"
                   + (" or absent (fewer than two repetitions give no interval)" if least < 2 else "") + ".")
    serial = sorted({b for b in runs.openblas if b and "USE_OPENMP" not in b})
    if serial:
        out.append("OpenBLAS fallback: the runs used an OpenBLAS that is not the OpenMP build "
                   f"({serial[0][:80]}); its LAPACK is not safe from several threads at once "
                   "(docs/ARCHITECTURE.md), so dense results may be wrong or slowed.")
    return out


def missing_runs(archive):
    out = [f"Could not read {p}" for p in archive.problems]
    for r in archive.runs.itertuples():
        where = f"{r.run} ({r.workload}, {r.label}, P={int(r.processors)}, repetition {int(r.repetition)})"
        if r.status == "failed":
            out.append(f"{where}: failed: {r.error or 'no error recorded'}; left out of every figure.")
        elif r.status != "complete":
            out.append(f"{where}: {r.status or 'no status'}, {r.steps_recorded} of {int(r.steps)} "
                       "steps recorded (interrupted?); left out of every figure.")
        elif r.verified != 1:
            out.append(f"{where}: its result did not verify; left out of every figure.")
    return out


def _shown(value):
    if isinstance(value, float):
        return "not recorded" if value != value else f"{value:g}"
    return value


def provenance(archive):
    """One record per invocation (or per distinct set of provenance where none is recorded)."""
    runs = archive.runs.fillna({"invocation": ""})
    keys = ["invocation", "name"] + PROVENANCE
    table = []
    for key, g in runs.groupby(keys, sort=False, dropna=False):
        row = {k: _shown(v) for k, v in zip(keys, key)}
        row["topology (platform)"] = ", ".join(sorted(set(g.topology)))
        row["processors"] = ", ".join(str(int(p)) for p in sorted(set(g.processors.dropna())))
        row["runs"] = len(g)
        row["started"] = min(g.started)
        row["finished"] = max(g.finished)
        extra = archive.invocations.get(row["invocation"], {})
        row.update({k: v for k, v in extra.items() if k not in row})
        table.append(row)
    return table


def load_context(runs):
    """The conditions a figure's runs were measured under, in words: load average and cores."""
    if runs.empty:
        return ""
    cores = sorted({int(c) for c in runs.available_processors.dropna()})
    text = f"{len(runs)} runs; free cores: {', '.join(map(str, cores)) or 'not recorded'}"
    load = runs.load_average.dropna()
    if load.empty:
        return text + "; load average: not recorded in this archive"
    low, high = load.min(), load.max()
    span = f"{low:.2f}" if low == high else f"{low:.2f}-{high:.2f}"
    return text + f"; 1-minute load average at the start of its invocation(s): {span}"
