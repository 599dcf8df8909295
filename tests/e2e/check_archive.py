#!/usr/bin/python3
"""Reads an lbbench archive with h5py alone and checks it against the records table that
`lbbench schema` prints (the one description of the archive, harness/archive/archive_schema.cpp).

usage: check_archive.py LBBENCH ARCHIVE EXPECTED_RUNS [--allow-partial]
"""
import json
import subprocess
import sys

import h5py
import numpy as np

TYPES = {"text": (str, bytes), "int32": np.integer, "int64": np.integer, "float64": np.floating}
DTYPES = {"int32": np.dtype("<i4"), "int64": np.dtype("<i8"), "float64": np.dtype("<f8")}


def fail(msg):
    print("check_archive: " + msg)
    sys.exit(1)


def load_schema(lbbench):
    return json.loads(subprocess.run([lbbench, "schema"], check=True, capture_output=True,
                                     text=True).stdout)


def check_attributes(rid, g, schema, status):
    table = {a["name"]: a for a in schema["run_attributes"]}
    ended = status in ("complete", "failed")
    for a in table.values():
        need = a["presence"] == "always" or (a["presence"] == "when ended" and ended)
        if need and a["name"] not in g.attrs:
            fail(f"{rid}: attribute {a['name']} missing")
    for name, value in g.attrs.items():
        spec = table.get(name, table["<workload attribute>"])
        if np.shape(value) != ():
            fail(f"{rid}: attribute {name} is not a single value")
        if not isinstance(value, TYPES[spec["type"]]):
            fail(f"{rid}: attribute {name} is {type(value).__name__}, schema says {spec['type']}")


def check_datasets(rid, g, schema):
    S, P = int(g.attrs["steps"]), int(g.attrs["processors"])
    M = int(g.attrs["modules"])
    F = max(int(g["module/phase_cost"].shape[1]) // M, 2) if "module/phase_cost" in g else 2
    width = {"[S]": (), "[S,P]": (P,), "[S,M]": (M,), "[S,F*M]": (F * M,)}
    rows = set()
    for spec in schema["step_datasets"]:
        names = [spec["name"]]
        if spec["name"] == "metric/<name>":
            names = ["metric/" + n for n in g.get("metric", {})]
        for name in names:
            if name not in g:
                if spec["presence"] == "always":
                    fail(f"{rid}: dataset {name} missing")
                continue
            d = g[name]
            if d.dtype != DTYPES[spec["type"]]:
                fail(f"{rid}: {name} is {d.dtype}, schema says {spec['type']}")
            if d.shape[1:] != width[spec["shape"]]:
                fail(f"{rid}: {name} shape {d.shape}, schema says {spec['shape']}")
            d[:]  # every chunk decompresses
            # A fixed-size dataset is only written with the run's end (docs: "Archive layout");
            # a partial run's must stay extendible for recovery to append to it.
            if g.attrs["status"] == "partial" and d.maxshape[0] is not None:
                fail(f"{rid}: {name} of a partial run is fixed-size {d.maxshape}")
            rows.add(d.shape[0])
    if len(rows) != 1:
        fail(f"{rid}: datasets of different lengths {sorted(rows)}")
    return rows.pop(), S


def check_complete_run(rid, g):
    P = int(g.attrs["processors"])
    makespan, ideal = g["step/makespan"][:], g["step/ideal"][:]
    if np.any(makespan < ideal * (1 - 1e-12)) or np.any(makespan <= 0):
        fail(f"{rid}: makespan below the ideal bound")
    busy, idle = g["proc/busy"][:], g["proc/idle"][:]
    # A bulk-synchronous step busies every processor; an asynchronous (simulated) run's
    # processors may have run all their modules' steps before the last steps close.
    idle_steps = np.any(busy <= 0) if g.attrs["executor"] != "simulate" else \
        np.any(busy < 0) or not np.all(busy.sum(axis=0) > 0)
    if idle_steps or np.any(idle < -1e-12):
        fail(f"{rid}: busy/idle out of range")
    if "module/owner" in g:
        owners = g["module/owner"][:]
        if owners.min() < 0 or owners.max() >= P:
            fail(f"{rid}: owner outside [0, P)")
    if "processors: " + str(P) not in g.attrs["config_yaml"]:
        fail(f"{rid}: config_yaml does not match the run")


def main(lbbench, path, expected_runs, allow_partial):
    schema = load_schema(lbbench)
    with h5py.File(path, "r") as f:
        if f.attrs.get("schema_version") != schema["schema_version"]:
            fail(f"schema_version {f.attrs.get('schema_version')}, lbbench writes "
                 f"{schema['schema_version']}")
        runs = f["runs"]
        if len(runs) != expected_runs:
            fail(f"{len(runs)} runs, expected {expected_runs}")
        for rid, g in runs.items():
            status = g.attrs["status"]
            check_attributes(rid, g, schema, status)
            rows, S = check_datasets(rid, g, schema)
            if status == "partial" and allow_partial:
                if rows > S:
                    fail(f"{rid}: {rows} rows of a {S}-step run")
                continue
            # A simulated run executes no kernel: nothing to verify, and its archive says so.
            simulated = str(g.attrs.get("verification", "")).startswith("simulated:")
            if status != "complete" or (g.attrs["verified"] != 1 and not simulated):
                fail(f"{rid}: status {status} verified {g.attrs['verified']}")
            if rows != S:
                fail(f"{rid}: {rows} rows, {S} steps")
            check_complete_run(rid, g)
        for iid in f.get("invocations", {}):
            inv = f["invocations"][iid]
            for a in schema["invocation_attributes"]:
                held = inv if a["stored_as"] == "dataset" else inv.attrs
                if a["name"] not in held:
                    fail(f"invocation {iid}: {a['name']} missing")
    print(f"check_archive: {path}: {expected_runs} runs OK")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]), "--allow-partial" in sys.argv[4:])
