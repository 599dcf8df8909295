#!/usr/bin/python3
"""check_results.py LBBENCH SET N: the result set holds N runs and keeps the contract that
`lbbench schema` states (the one description, harness/results/result_schema.cpp): every part has
the schema's name and version and its six tables; every column is in the schema, of its type,
with its unit and meaning; each ended run has a steps row per step and a procs row per processor
and step. Read with h5py and pandas only."""
import glob
import json
import subprocess
import sys

import h5py

from result_runs import runs_of, table

KINDS = {"text": "S", "int32": "i", "int64": "i", "float64": "f"}


def fail(why):
    sys.exit(f"check_results: {why}")


def spec_of(schema, table_name, column):
    t = next(t for t in schema["tables"] if t["name"] == table_name)
    exact = [c for c in t["columns"] if c["name"] == column]
    family = [c for c in t["columns"] if c["name"].endswith("*") and
              column.startswith(c["name"][:-1]) and len(column) > len(c["name"]) - 1]
    return (exact or family or [None])[0]


def check_part(path, schema):
    with h5py.File(path, "r") as f:
        if f.attrs["schema"].decode() != schema["schema"] or \
                f.attrs["schema_version"] != schema["schema_version"]:
            fail(f"{path}: schema {f.attrs['schema']!r} version {f.attrs['schema_version']}")
        for t in schema["tables"]:
            g = f[t["name"]]
            lengths = {d.shape for d in g.values()}
            if len(lengths) > 1:
                fail(f"{path}:/{t['name']}: columns of unequal length {lengths}")
            for name, d in g.items():
                spec = spec_of(schema, t["name"], name)
                if spec is None:
                    fail(f"{path}:/{t['name']}/{name}: not in the schema")
                if d.dtype.kind != KINDS[spec["type"]]:
                    fail(f"{path}:/{t['name']}/{name}: {d.dtype}, schema {spec['type']}")
                for attr in ("unit", "meaning"):
                    if d.attrs[attr].decode() != spec[attr]:
                        fail(f"{path}:/{t['name']}/{name}: {attr} {d.attrs[attr]!r}")


def main(lbbench, d, expected):
    schema = json.loads(subprocess.run([lbbench, "schema"], check=True, capture_output=True,
                                       text=True).stdout)
    parts = sorted(glob.glob(d + "/*.h5"))
    for p in parts:
        check_part(p, schema)
    runs = runs_of(d)
    if len(runs) != int(expected) or not runs.index.is_unique:
        fail(f"{d}: {len(runs)} runs (unique: {runs.index.is_unique}), expected {expected}")
    steps, procs = table("steps", d), table("procs", d)
    for rid, run in runs[runs.status == "complete"].iterrows():
        n = (steps.run == rid).sum()
        if n != run.steps:
            fail(f"{rid}: {n} steps rows, steps = {run.steps}")
        if (procs.run == rid).sum() != n * run.processors:
            fail(f"{rid}: procs rows are not steps x processors")
    print(f"check_results: {d}: {len(runs)} runs in {len(parts)} parts keep the schema")


if __name__ == "__main__":
    main(*sys.argv[1:])
