#!/usr/bin/python3
"""Prints what must not change when the executors change (tests/e2e/engine_behaviour.sh): per run
of a result set, the verification, checksums, assignments (modules' phase-0 owners), migrations
and the workload's step metrics; never a timing. Reals to 10 significant digits. Runs are named
run-<index>-<label>[-<sweep>], as the archives that wrote the golden file named them."""
import re
import sys

import numpy as np

from result_runs import absent, runs_of, table

ATTRS = ["name", "workload", "balancer", "static", "dynamic", "schedule", "executor",
         "processors", "modules", "steps", "warmup", "status", "verified", "checksum",
         "reference_checksum", "migrations_total", "bytes_moved_total", "tasks_total",
         "max_distance", "levels", "nodes", "depth", "leaves", "LB_model", "T_model", "comm_model"]


def text(value):
    if isinstance(value, (float, np.floating)):
        return f"{value:.10g}"
    if isinstance(value, np.integer):
        return str(int(value))
    return str(value)


def line(values):
    return " ".join(text(v) for v in values)


def name_of(k, run):
    label = run.balancer + ("-" + run.sweep if run.sweep else "")
    return f"run-{k:05d}-" + re.sub(r"[^A-Za-z0-9.=+,-]", "_", label)


def dump(d):
    runs = runs_of(d)
    steps, procs, modules = (table(t, d) for t in ("steps", "procs", "modules"))
    named = sorted((name_of(k, run), rid) for k, (rid, run) in enumerate(runs.iterrows()))
    for name, rid in named:
        run = runs.loc[rid]
        print(f"== {name}")
        for a in ATTRS:
            if a in run and (isinstance(run[a], str) or not absent(run[a])):
                print(f"{a}: {text(run[a])}")
        s = steps[steps.run == rid].sort_values("step")
        p = procs[procs.run == rid].sort_values(["step", "proc"])
        if len(s) == 0:
            continue
        print(f"step/migrations[0]: {line(s.migrations)}")
        print(f"step/bytes_moved[0]: {line(s.bytes_moved)}")
        for i, (_, rows) in enumerate(p.groupby("step")):
            print(f"proc/triggered[{i}]: {line(rows.triggered)}")
        m = modules[(modules.run == rid) & (modules.phase == 0)] if "run" in modules else []
        for i, (_, rows) in enumerate(m.groupby("step") if len(m) else []):
            print(f"module/owner[{i}]: {line(rows.sort_values('module').owner)}")
        for c in sorted(c for c in s.columns if c.startswith("metric_")):
            if s[c].notna().any():
                print(f"metric/{c[7:]}[0]: {line(s[c])}")


if __name__ == "__main__":
    for path in sys.argv[1:]:
        dump(path)
