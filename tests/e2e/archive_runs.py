#!/usr/bin/python3
"""The e2e tests' way into a result set's runs: the report's loader (read_set in
report/lbbench_report/results.py), importable from tests/e2e/, and a command line for the shell
tests:

  archive_runs.py ids SET                  the run ids, one a line, sorted
  archive_runs.py attr SET RUN NAME        the run's /runs column NAME (exit 1 when it has none)
  archive_runs.py holding SET TABLE/COLUMN how many runs hold a value of the column, e.g.
                                           steps/metric_utilization or modules/owner
  archive_runs.py dump SET [RUN...]        the runs whole (every /runs column; each of their
                                           steps, procs and modules rows' count and digest), to
                                           compare two versions of a set
"""
import hashlib
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "report"))
from lbbench_report.results import PartError, read_set  # noqa: E402

__all__ = ["PartError", "read_set", "held", "runs_by_id"]  # what the other tests import


def held(column):
    """Which values of a column a run holds: not the layout's fill for an absent value ("" for
    text, NaN for reals, -1 for integers)."""
    if column.dtype == object:
        return column != ""
    if column.dtype.kind in "iu":
        return column != -1
    return column.notna()


def runs_by_id(rs):
    """The set's /runs rows by run id, each a dict of its columns (absent values left out)."""
    has = {k: held(rs.runs[k]).to_numpy() for k in rs.runs}
    return {row["run"]: {k: v for k, v in row.items() if has[k][i]}
            for i, row in enumerate(rs.runs.to_dict("records"))}


def dump(rs, rid):
    lines = [f"== {rid}"]
    row = rs.runs[rs.runs.run == rid].iloc[0]
    lines += [f"{k}: {rs.runs[k].dtype} {v!r}" for k, v in sorted(row.items())]
    for table in ("steps", "procs", "modules"):
        rows = rs.tables[table][rs.tables[table].run == rid]
        rows = rows.sort_values([c for c in ("step", "proc", "phase", "module") if c in rows])
        text = rows[sorted(rows.columns)].to_csv(index=False, float_format="%.17g")
        lines.append(f"{table}: {len(rows)} rows {hashlib.sha256(text.encode()).hexdigest()}")
    return "\n".join(lines)


def main(command, path, *args):
    rs = read_set(path)
    for problem in rs.problems:
        print(f"archive_runs: {path}: {problem}", file=sys.stderr)
    runs = runs_by_id(rs)
    if command == "ids":
        print("\n".join(sorted(runs)))
    elif command == "attr":
        rid, name = args
        if name not in runs.get(rid, {}):
            sys.exit(f"archive_runs: {rid} has no {name}")
        print(runs[rid][name])
    elif command == "holding":
        table, column = args[0].split("/", 1)
        rows = rs.tables[table]
        print(rows.run[held(rows[column])].nunique() if column in rows else 0)
    elif command == "dump":
        print("\n".join(dump(rs, rid) for rid in (args or sorted(runs))))
    else:
        sys.exit(f"archive_runs: unknown command '{command}'")


if __name__ == "__main__":
    main(*sys.argv[1:])
