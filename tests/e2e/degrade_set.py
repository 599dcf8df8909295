#!/usr/bin/python3
"""Turns a copy of a complete result set into a damaged one, as a failure or a kill leaves it:
  failed  - the first run (by id) failed: status 'failed' with its error, unverified, no totals;
  killed  - the first run never ended: its /runs row gone, its steps left in the set;
  allfail - every run failed.
Rewrites the /runs columns of the set's parts in place, in the layout's types (make_v4_set.py)."""
import glob
import sys

import h5py
import numpy as np

from make_v4_set import seal, write_text

TOTALS = ["makespan_total", "wall_total", "ideal_total", "efficiency", "imbalance",
          "balance_total", "migrations_total", "bytes_moved_total", "finished"]
ERROR = "injected by degrade_set.py"


def rewrite(table, name, values):
    """Writes `values` as the column `name` of the group `table`, in place of the column of that
    name (its unit and meaning kept) or as a new one (a writer may leave out a column no run of
    a part has)."""
    kept = dict(table[name].attrs) if name in table else {"unit": "", "meaning": name}
    if name in table:
        del table[name]
    text = np.asarray(values).dtype.kind in "OUS"
    d = write_text(table, name, values) if text else table.create_dataset(name, data=values)
    d.attrs.update(kept)


def absent(column):
    """The layout's value for a column a run lacks: "" text, NaN real, -1 integer."""
    return "" if column.dtype.kind == "S" else np.nan if column.dtype.kind == "f" else -1


def fail(runs, rows):
    columns = {name: runs[name].asstr()[:] if runs[name].dtype.kind == "S" else runs[name][:]
               for name in runs}
    changes = {"status": "failed", "error": ERROR, "verified": 0}
    changes.update({name: absent(runs[name]) for name in TOTALS if name in runs})
    for name, value in changes.items():
        if name not in columns:  # "error", where no run of the part failed
            columns[name] = np.full(len(rows), "", dtype=object)
        columns[name][rows] = value
        rewrite(runs, name, columns[name])


def drop(runs, rows):
    for name in list(runs):
        values = runs[name].asstr()[:] if runs[name].dtype.kind == "S" else runs[name][:]
        rewrite(runs, name, values[~rows])


def main(directory, how):
    parts = sorted(glob.glob(f"{directory}/*.h5"))
    first = min(id for p in parts for id in h5py.File(p, "r")["runs/run"].asstr()[:])
    for part in parts:
        with h5py.File(part, "r+") as f:
            ids = f["runs/run"].asstr()[:]
            rows = np.ones(len(ids), bool) if how == "allfail" else ids == first
            if how in ("failed", "allfail"):
                fail(f["runs"], rows)
            elif how == "killed":
                drop(f["runs"], rows)
            else:
                sys.exit(f"degrade_set: unknown damage '{how}'")
        seal(part)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
