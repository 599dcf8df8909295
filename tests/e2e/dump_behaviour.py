#!/usr/bin/python3
"""Prints what must not change when the executors change (tests/e2e/engine_behaviour.sh): per run
of a result set, the verification, checksums, assignments (module/owner), migrations and the
workload's step metrics; never a timing. Reals to 10 significant digits."""
import sys

import numpy as np

from archive_runs import held, read_set

ATTRS = ["name", "workload", "balancer", "static", "dynamic", "schedule", "executor",
         "processors", "modules", "steps", "warmup", "status", "verified", "checksum",
         "reference_checksum", "migrations_total", "bytes_moved_total", "tasks_total",
         "max_distance", "levels", "nodes", "depth", "leaves", "LB_model", "T_model", "comm_model"]
# (name printed, table, column, the column that spreads a step over one line, if any)
SERIES = [("step/migrations", "steps", "migrations", None),
          ("step/bytes_moved", "steps", "bytes_moved", None),
          ("proc/triggered", "procs", "triggered", "proc"),
          ("module/owner", "modules", "owner", "module")]


def text(value):
    if isinstance(value, (float, np.floating)):
        return f"{float(value):.10g}"
    return str(value)


def lines(name, rows, column, across):
    """A step series as the golden file spells it: a 1-D series on one line, [0]; a 2-D one
    a line a step, its values in order of `across`."""
    if across is None:
        return [f"{name}[0]: " + " ".join(text(v) for v in rows.sort_values("step")[column])]
    grid = rows.pivot(index="step", columns=across, values=column).sort_index()
    return [f"{name}[{i}]: " + " ".join(text(v) for v in row) for i, row in
            enumerate(grid.itertuples(index=False))]


def run_lines(rs, run):
    out = [f"== {run['run']}"]
    out += [f"{a}: {text(run[a])}" for a in ATTRS if a in run]
    tables = {t: rs.tables[t][rs.tables[t].run == run["run"]] for t in ("steps", "procs")}
    # One owner a module and step: a multi-phase workload's modules move between steps only.
    modules = rs.modules[rs.modules.run == run["run"]]
    tables["modules"] = modules[modules.phase == modules.phase.min()]
    metrics = sorted(c for c in tables["steps"] if c.startswith("metric_")
                     and held(tables["steps"][c]).any())
    for name, table, column, across in SERIES + [(f"metric/{m[7:]}", "steps", m, None)
                                                 for m in metrics]:
        rows = tables[table]
        if column in rows and len(rows):
            out += lines(name, rows, column, across)
    return out


def main(paths):
    for path in paths:
        rs = read_set(path)
        has = {c: held(rs.runs[c]) | (rs.runs[c].dtype == object) for c in rs.runs}
        for i, run in sorted(enumerate(rs.runs.to_dict("records")), key=lambda r: r[1]["run"]):
            print("\n".join(run_lines(rs, {k: v for k, v in run.items() if has[k][i]})))


if __name__ == "__main__":
    main(sys.argv[1:])
