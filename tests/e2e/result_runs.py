#!/usr/bin/python3
"""The e2e tests' way into a result set: the README's pandas recipe (h5py + pandas, no lbbench
code), importable from tests/e2e/, and a command line for the shell tests:

  result_runs.py ids SET                the run ids, one a line (by invocation, start, id)
  result_runs.py attr SET RUN NAME      the run's column NAME (exit 1 when it has no value); RUN
                                        is an id or #K, the K-th run from 0
  result_runs.py holding SET TABLE[.COLUMN]  how many runs have rows in TABLE (steps, procs,
                                        modules), or a value (not NaN) in its COLUMN
  result_runs.py dump SET [RUN...]      the runs whole (every column, every table's rows), to
                                        compare two versions
"""
import glob
import hashlib
import math
import sys

import h5py
import pandas as pd


def table(name, d):
    return pd.concat([pd.DataFrame({c: v.asstr()[:] if v.dtype.kind == "S" else v[:]
                                    for c, v in h5py.File(p)[name].items()})
                      for p in sorted(glob.glob(d + "/*.h5"))], ignore_index=True)


def runs_of(d):
    runs = table("runs", d)
    return runs.sort_values(["invocation", "started", "run"], kind="stable").set_index("run")


def absent(value):
    return value == "" or value == -1 or (isinstance(value, float) and math.isnan(value))


def dump(d, ids):
    runs = runs_of(d)
    tables = {t: table(t, d) for t in ("steps", "procs", "modules")}
    lines = []
    for rid in ids:
        lines.append(f"== {rid}")
        lines += [f"{k}: {v!r}" for k, v in sorted(runs.loc[rid].items()) if not absent(v)]
        for name, t in tables.items():
            if "run" not in t:
                continue
            rows = t[t.run == rid].drop(columns="run").dropna(axis=1, how="all")
            digest = hashlib.sha256(rows.to_csv(index=False).encode()).hexdigest()
            lines.append(f"{name}: {len(rows)} rows {digest}")
    return "\n".join(lines)


def main(command, d, *args):
    runs = runs_of(d)
    if command == "ids":
        print("\n".join(runs.index))
    elif command == "attr":
        rid, name = args
        rid = runs.index[int(rid[1:])] if rid.startswith("#") else rid
        if name not in runs or absent(runs.loc[rid, name]):
            sys.exit(f"result_runs: {rid} has no value of {name}")
        print(runs.loc[rid, name])
    elif command == "holding":
        name, _, column = args[0].partition(".")
        t = table(name, d)
        if column:
            t = t[t[column].notna()] if column in t else t.iloc[0:0]
        print(t.run.nunique() if "run" in t else 0)
    elif command == "dump":
        print(dump(d, args or list(runs.index)))
    else:
        sys.exit(f"result_runs: unknown command '{command}'")


if __name__ == "__main__":
    main(*sys.argv[1:])
