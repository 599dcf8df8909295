#!/usr/bin/python3
"""Writes a small synthetic result set, schema v4, with h5py alone, for the report loader's own
tests (tests/e2e/report_loader.sh) to damage: make_v4_set.py DIR [RUNS].

RUNS complete runs (default 6) of three static strategies on 2 processors, 4 steps each, split
over two parts of two invocations, and the steps of one run that never ended (a /steps row with
no /runs row, as a kill leaves it). The values are made up; only the layout is lbbench's."""
import os
import sys

import h5py
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "report"))
from lbbench_report.results import SEAL_BYTES, seal  # noqa: E402

STEPS, PROCS, MODULES = 4, 2, 4


def column(group, name, n, dtype, data=None):
    """A 1-D column as lbbench's writer stores one: a single chunk, deflated, checksummed (an
    empty one has no chunk)."""
    if n == 0:
        return group.create_dataset(name, (0,), dtype)
    return group.create_dataset(name, (n,), dtype, data=data, chunks=(n,), compression="gzip",
                                compression_opts=3, fletcher32=True)


def write_text(group, name, values):
    """A fixed-length UTF-8 column, NULLPAD, as wide as its longest value (at least 1)."""
    encoded = [v if isinstance(v, bytes) else str(v).encode() for v in values]
    width = max([1] + [len(v) for v in encoded])
    d = column(group, name, len(encoded), h5py.string_dtype("utf-8", width))
    if encoded:  # written as bytes: h5py converts no ASCII array to UTF-8 text itself
        d.id.write(h5py.h5s.ALL, h5py.h5s.ALL, np.array(encoded, dtype=f"S{width}"),
                   mtype=d.id.get_type())
    return d


def write_table(group, columns):
    group.attrs["meaning"] = np.bytes_("synthetic")
    for name, values in columns.items():
        values = np.asarray(values)
        if values.dtype.kind == "U":
            d = write_text(group, name, values)
        else:
            d = column(group, name, len(values), values.dtype, values)
        d.attrs["unit"], d.attrs["meaning"] = np.bytes_(""), np.bytes_("synthetic")


def write_part(path, tables):
    with h5py.File(path, "w", libver="latest", userblock_size=SEAL_BYTES) as f:
        f.attrs["schema"] = np.bytes_("lbbench-results")
        f.attrs["schema_version"] = np.int64(4)
        for name, columns in tables.items():
            write_table(f.create_group(name), columns)
    seal(path)


def runs_tables(ids, invocation, seed):
    rng = np.random.default_rng(seed)
    labels = [["none", "block", "cyclic"][i % 3] for i in range(len(ids))]
    steps = [(r, s) for r in ids for s in range(STEPS)]
    procs = [(r, s, p) for r, s in steps for p in range(PROCS)]
    modules = [(r, s, m) for r, s in steps for m in range(MODULES)]
    makespan = rng.uniform(1.0, 2.0, len(steps))
    n = len(ids)
    text = {"name": "synthetic", "workload": "block_substitution", "dynamic": "", "schedule": "",
            "sweep": "", "status": "complete", "invocation": invocation, "topology": "chain",
            "started": "2026-11-28T09:00:00Z", "finished": "2026-11-28T09:00:01Z", "openblas": ""}
    runs = {"run": ids, "balancer": labels, "static": labels,
            **{k: [v] * n for k, v in text.items()}, "verified": np.ones(n, np.int64), "processors": np.full(n, PROCS),
            "steps": np.full(n, STEPS), "repetition": np.arange(n) // 3,
            "makespan_total": makespan.reshape(n, STEPS).sum(1),
            "wall_total": makespan.reshape(n, STEPS).sum(1) * 1.1,
            "load_start": np.full(n, 0.5), "available_processors": np.full(n, 2),
            "oversubscribed": np.zeros(n, np.int64)}
    return {"runs": runs,
            "steps": {"run": [r for r, _ in steps], "step": [s for _, s in steps],
                      "makespan": makespan, "wall": makespan * 1.1, "ideal": makespan * 0.8,
                      "balance": np.zeros(len(steps)), "migrations": np.zeros(len(steps), np.int64),
                      "bytes_moved": np.zeros(len(steps), np.int64),
                      "metric_residual": rng.uniform(size=len(steps))},
            "procs": {"run": [r for r, _, _ in procs], "step": [s for _, s, _ in procs],
                      "proc": [p for _, _, p in procs], "busy": rng.uniform(0.5, 1.0, len(procs))},
            "modules": {"run": [r for r, _, _ in modules], "step": [s for _, s, _ in modules],
                        "phase": np.zeros(len(modules), np.int64),
                        "module": [m for _, _, m in modules],
                        "cost": rng.uniform(size=len(modules)),
                        "owner": np.array([m % PROCS for _, _, m in modules], np.int32)},
            "invocations": {"invocation": [invocation], "command": ["lbbench run synthetic.yaml"],
                            "host": ["synthetic-host"]}}


def main(directory, runs=6):
    os.makedirs(directory, exist_ok=True)
    half = int(runs) // 2
    first = [f"run-a{i:03d}" for i in range(half)]
    second = [f"run-b{i:03d}" for i in range(int(runs) - half)]
    write_part(f"{directory}/20261128T090000Z-aa-0000.h5",
               runs_tables(first, "20261128T090000Z-aa", 1))
    tables = runs_tables(second + ["run-killed"], "20261128T100000Z-bb", 2)
    for name in ("runs",):
        tables[name] = {c: v[:-1] for c, v in tables[name].items()}  # the killed run never ended
    write_part(f"{directory}/20261128T100000Z-bb-0000.h5", tables)


if __name__ == "__main__":
    main(*sys.argv[1:])
