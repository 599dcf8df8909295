#!/usr/bin/python3
"""Reads an lbbench archive with h5py alone and checks it against the records table that
`lbbench schema` prints (the one description of the archive, harness/archive/archive_schema.cpp).
Each run table is checked whole first (harness/archive/run_tables.h: its members hard links, its
columns' types and lengths against run_id and step_rows, its attribute records' members typed as
the schema types them, attr_present only where a run lacks a number, its text codes in range);
then every run, whichever layout holds it, through the shared reader (archive_runs.py).

usage: check_archive.py LBBENCH ARCHIVE EXPECTED_RUNS [--allow-partial]
"""
import json
import subprocess
import sys

import h5py
import numpy as np

from archive_runs import ArchiveError, iter_runs

TYPES = {"text": str, "int32": int, "int64": int, "float64": float}
DTYPES = {"int32": np.dtype("<i4"), "int64": np.dtype("<i8"), "float64": np.dtype("<f8")}
STEP_KINDS = ("step", "proc", "metric", "module")
ATTRIBUTE_RECORDS = ("attr_numbers", "attr_present", "attr_texts")
TABLE_MEMBERS = {"run_id", "step_rows", "attr_text_values", *ATTRIBUTE_RECORDS} | set(STEP_KINDS)


def fail(msg):
    print("check_archive: " + msg)
    sys.exit(1)


def load_schema(lbbench):
    return json.loads(subprocess.run([lbbench, "schema"], check=True, capture_output=True,
                                     text=True).stdout)


def attribute_spec(schema, name):
    table = {a["name"]: a for a in schema["run_attributes"]}
    return table.get(name, table["<workload attribute>"])


def step_spec(schema, name):
    """The schema's row for the step dataset `name` ("metric/residual" -> "metric/<name>")."""
    for spec in schema["step_datasets"]:
        if spec["name"] == name or (spec["name"] == "metric/<name>" and
                                    name.startswith("metric/")):
            return spec
    return None


def members(group, where, kind=h5py.Dataset):
    """The members of `group`, each a hard link to a `kind` (a table from elsewhere could link
    anywhere, and a soft link would show one table's runs twice)."""
    if not isinstance(group, h5py.Group):
        fail(f"{where} is not a group")
    for name in group:
        link = group.get(name, getlink=True)
        if isinstance(link, (h5py.SoftLink, h5py.ExternalLink)):
            kind = "soft" if isinstance(link, h5py.SoftLink) else "external"
            fail(f"{where}/{name} is a {kind} link, not a hard link")
        if not isinstance(group[name], kind):
            fail(f"{where}/{name} is not a {getattr(kind, '__name__', 'group or dataset')}")
    return sorted(group)


def vector(t, name, where, length, dtype):
    """A one-dimensional column of `dtype` (None: variable-length text), `length` values long
    (None: any), whole."""
    d = t[name]
    if not isinstance(d, h5py.Dataset) or d.ndim != 1 or d.shape[0] != (length or d.shape[0]):
        fail(f"{where}/{name} is not a column of {length or 'some'} values: "
             f"{getattr(d, 'shape', 'a group')}")
    info = h5py.check_string_dtype(d.dtype)
    if (dtype is None and (info is None or info.length is not None)) or \
            (dtype is not None and d.dtype != dtype):
        fail(f"{where}/{name} is {d.dtype}, expected {dtype or 'variable-length text'}")
    return d.asstr()[()] if dtype is None else d[()]


def compound(t, name, where, length):
    """The compound dataset `name` [length] of a run table as {member: values}, each member one
    number a run (no text, array or nested record)."""
    d = t[name]
    if not isinstance(d, h5py.Dataset) or d.ndim != 1 or d.shape[0] != length or \
            d.dtype.names is None or not d.dtype.names:
        fail(f"{where}/{name} is not a compound dataset of {length} records: "
             f"{getattr(d, 'dtype', 'a group')} {getattr(d, 'shape', '')}")
    for member in d.dtype.names:
        if d.dtype.fields[member][0].kind not in "iuf":
            fail(f"{where}/{name}: member {member} is {d.dtype.fields[member][0]}, not a number")
    records = d[()]
    return {member: records[member] for member in d.dtype.names}


def check_table(tid, t, schema):
    """The table as a whole; returns its run count."""
    where = f"/tables/{tid}"
    names = members(t, where, (h5py.Group, h5py.Dataset))
    if not {"run_id", "step_rows"} <= set(names) <= TABLE_MEMBERS:
        fail(f"{where} holds {names}, not a run table's members")
    ids = vector(t, "run_id", where, None, None)
    n = len(ids)
    if n == 0 or len(set(ids)) != n:
        fail(f"{where}: {n} runs, {len(set(ids))} distinct ids")
    rows = vector(t, "step_rows", where, n, DTYPES["int64"])
    if np.any(rows < 0):
        fail(f"{where}/step_rows: a negative row count {rows.tolist()}")
    records = {name: compound(t, name, where, n) for name in ATTRIBUTE_RECORDS if name in t}
    numbers, texts = records.get("attr_numbers", {}), records.get("attr_texts", {})
    present = records.get("attr_present", {})
    for name, values in numbers.items():
        spec = attribute_spec(schema, name)
        if spec["type"] not in ("int64", "float64") or values.dtype != DTYPES[spec["type"]]:
            fail(f"{where}/attr_numbers: member {name} is {values.dtype}, schema says "
                 f"{spec['type']}")
    for name, has in present.items():
        if name not in numbers:
            fail(f"{where}/attr_present: member {name} is not a member of attr_numbers")
        if has.dtype != DTYPES["int32"] or not np.all((has == 0) | (has == 1)) or \
                np.all(has == 1):
            fail(f"{where}/attr_present: {name} is {has.dtype} {has.tolist()} (int32 0 or 1, "
                 "only where some run lacks it)")
    if ("attr_texts" in t) != ("attr_text_values" in t):
        fail(f"{where}: attr_texts without attr_text_values, or the other way round")
    distinct = vector(t, "attr_text_values", where, None, None) if "attr_texts" in t else []
    for name, codes in texts.items():
        spec = attribute_spec(schema, name)
        if spec["type"] != "text" or codes.dtype != DTYPES["int32"]:
            fail(f"{where}/attr_texts: member {name} is {codes.dtype}, schema says "
                 f"{spec['type']} (a text attribute's member is int32)")
        if np.any((codes < -1) | (codes >= len(distinct))):
            fail(f"{where}/attr_texts: {name}'s text codes {codes.tolist()} outside "
                 f"[-1, {len(distinct)})")
    sub = {s: members(t[s], f"{where}/{s}") if s in t else [] for s in STEP_KINDS}
    for kind in STEP_KINDS:
        for leaf in sub[kind]:
            name = f"{kind}/{leaf}"
            spec, d = step_spec(schema, name), t[name]
            if spec is None:
                fail(f"{where}/{name} is not a step dataset of the schema")
            if d.dtype != DTYPES[spec["type"]] or d.ndim != (1 if spec["shape"] == "[S]" else 2):
                fail(f"{where}/{name} is {d.dtype} {d.shape}, schema says {spec['type']} "
                     f"{spec['shape']}")
            if d.shape[0] != rows.sum():
                fail(f"{where}/{name} holds {d.shape[0]} rows, step_rows sum to {rows.sum()}")
            if d.maxshape != d.shape:  # a table holds ended runs: nothing appends to it
                fail(f"{where}/{name} is extendible {d.maxshape}; a table's datasets are not")
    return n


def check_attributes(run, schema, status):
    ended = status in ("complete", "failed")
    for a in schema["run_attributes"]:
        need = a["presence"] == "always" or (a["presence"] == "when ended" and ended)
        if need and a["name"] not in run.attrs:
            fail(f"{run.id}: attribute {a['name']} missing")
    for name, value in run.attrs.items():
        spec = attribute_spec(schema, name)
        if not isinstance(value, TYPES[spec["type"]]):
            fail(f"{run.id}: attribute {name} is {type(value).__name__}, schema says "
                 f"{spec['type']}")


def check_datasets(run, schema):
    S, P = run.attrs["steps"], run.attrs["processors"]
    M = run.attrs["modules"]
    names = run.names()
    F = max(run.series("module/phase_cost").shape[1] // M, 2) \
        if "module/phase_cost" in names else 2
    width = {"[S]": (), "[S,P]": (P,), "[S,M]": (M,), "[S,F*M]": (F * M,)}
    rows = set()
    for spec in schema["step_datasets"]:
        if spec["presence"] == "always" and spec["name"] not in names:
            fail(f"{run.id}: dataset {spec['name']} missing")
    for name in names:
        spec = step_spec(schema, name)
        if spec is None:
            fail(f"{run.id}: {name} is not a step dataset of the schema")
        d = run.series(name)  # every chunk decompresses
        if d.dtype != DTYPES[spec["type"]]:
            fail(f"{run.id}: {name} is {d.dtype}, schema says {spec['type']}")
        if d.shape[1:] != width[spec["shape"]]:
            fail(f"{run.id}: {name} shape {d.shape}, schema says {spec['shape']}")
        # A fixed-size dataset is only written with the run's end (docs: "Archive layout");
        # a partial run's must stay extendible for recovery to append to it.
        if run.attrs["status"] == "partial" and run.group[name].maxshape[0] is not None:
            fail(f"{run.id}: {name} of a partial run is fixed-size {run.group[name].maxshape}")
        rows.add(d.shape[0])
    if len(rows) != 1:
        fail(f"{run.id}: datasets of different lengths {sorted(rows)}")
    return rows.pop(), S


def check_complete_run(run):
    P, a = run.attrs["processors"], run.attrs
    makespan, ideal = run.series("step/makespan"), run.series("step/ideal")
    if np.any(makespan < ideal * (1 - 1e-12)) or np.any(makespan <= 0):
        fail(f"{run.id}: makespan below the ideal bound")
    busy, idle = run.series("proc/busy"), run.series("proc/idle")
    # A bulk-synchronous step busies every processor; an asynchronous (simulated) run's
    # processors may have run all their modules' steps before the last steps close.
    idle_steps = np.any(busy <= 0) if a["executor"] != "simulate" else \
        np.any(busy < 0) or not np.all(busy.sum(axis=0) > 0)
    if idle_steps or np.any(idle < -1e-12):
        fail(f"{run.id}: busy/idle out of range")
    if "module/owner" in run.names():
        owners = run.series("module/owner")
        if owners.min() < 0 or owners.max() >= P:
            fail(f"{run.id}: owner outside [0, P)")
    if "processors: " + str(P) not in a["config_yaml"]:
        fail(f"{run.id}: config_yaml does not match the run")


def check_run(run, schema, allow_partial):
    status = run.attrs["status"]
    if run.group is None and status not in ("complete", "failed"):
        fail(f"{run.id}: a {status} run in {run.where} (a run table holds ended runs)")
    check_attributes(run, schema, status)
    rows, S = check_datasets(run, schema)
    if status == "partial" and allow_partial:
        if rows > S:
            fail(f"{run.id}: {rows} rows of a {S}-step run")
        return
    # A simulated run executes no kernel: nothing to verify, and its archive says so.
    simulated = run.attrs.get("verification", "").startswith("simulated:")
    if status != "complete" or (run.attrs["verified"] != 1 and not simulated):
        fail(f"{run.id}: status {status} verified {run.attrs['verified']}")
    if rows != S:
        fail(f"{run.id}: {rows} rows, {S} steps")
    check_complete_run(run)


def main(lbbench, path, expected_runs, allow_partial):
    schema = load_schema(lbbench)
    with h5py.File(path, "r") as f:
        if f.attrs.get("schema_version") != schema["schema_version"]:
            fail(f"schema_version {f.attrs.get('schema_version')}, lbbench writes "
                 f"{schema['schema_version']}")
        members(f["runs"], "/runs", h5py.Group)
        tables = members(f["tables"], "/tables", h5py.Group) if "tables" in f else []
        in_tables = sum(check_table(tid, f["tables"][tid], schema) for tid in tables)
        try:
            runs = list(iter_runs(f))
            if len(runs) != expected_runs or len(runs) != len(f["runs"]) + in_tables:
                fail(f"{len(runs)} runs ({len(f['runs'])} in /runs, {in_tables} in "
                     f"{len(tables)} tables), expected {expected_runs}")
            for run in runs:
                check_run(run, schema, allow_partial)
        except ArchiveError as e:
            fail(str(e))
        for iid in f.get("invocations", {}):
            inv = f["invocations"][iid]
            for a in schema["invocation_attributes"]:
                held = inv if a["stored_as"] == "dataset" else inv.attrs
                if a["name"] not in held:
                    fail(f"invocation {iid}: {a['name']} missing")
    print(f"check_archive: {path}: {expected_runs} runs OK")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]), "--allow-partial" in sys.argv[4:])
