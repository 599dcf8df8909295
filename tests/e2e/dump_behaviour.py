#!/usr/bin/python3
"""Prints what must not change when the executors change (tests/e2e/engine_behaviour.sh): per run
of a result set, the verification, checksums, assignments (modules' phase-0 owners), migrations
and the workload's step metrics; never a timing. Reals to 10 significant digits. Runs are named
run-<index>-<label>[-<sweep>], as the archives that wrote the golden file named them.

Options (tests/e2e/protocol_behaviour.sh): --phases adds every later phase's owners; --modelled
adds the simulator's modelled step and processor figures, which no clock moves; --timed prints
of a run with a dynamic balancer only what its timings cannot move (status, checksums, steps)."""
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
        # A sum that cancels to 0 in one build is +-4e-15 in another (Debug -O1 under ASan orders
        # floating-point operations differently): below 1e-12 s a value is zero.
        return "0" if abs(value) < 1e-12 else f"{value:.10g}"
    if isinstance(value, np.integer):
        return str(int(value))
    return str(value)


def line(values):
    return " ".join(text(v) for v in values)


def name_of(k, run):
    label = run.balancer + ("-" + run.sweep if run.sweep else "")
    return f"run-{k:05d}-" + re.sub(r"[^A-Za-z0-9.=+,-]", "_", label)


STEP_MODELLED = ["makespan", "ideal", "serial", "balance", "predicted_before", "predicted_after"]
PROC_MODELLED = ["busy", "idle", "balance", "migration"]
TIMING_FREE = ["name", "workload", "balancer", "static", "dynamic", "schedule", "executor",
               "processors", "modules", "steps", "warmup", "status", "verified", "checksum",
               "reference_checksum"]


def timed(run):
    return run.dynamic not in ("", "none")


def dump(d, phases=False, modelled=False, timing_free=False):
    runs = runs_of(d)
    steps, procs, modules = (table(t, d) for t in ("steps", "procs", "modules"))
    named = sorted((name_of(k, run), rid) for k, (rid, run) in enumerate(runs.iterrows()))
    for name, rid in named:
        run = runs.loc[rid]
        print(f"== {name}")
        s = steps[steps.run == rid].sort_values("step")
        if timing_free and timed(run):
            for a in TIMING_FREE:
                if a in run and (isinstance(run[a], str) or not absent(run[a])):
                    print(f"{a}: {text(run[a])}")
            print(f"step rows: {len(s)}")
            continue
        for a in ATTRS:
            if a in run and (isinstance(run[a], str) or not absent(run[a])):
                print(f"{a}: {text(run[a])}")
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
        if phases and len(m):
            later = modules[(modules.run == rid) & (modules.phase > 0)]
            for (i, ph), rows in later.groupby(["step", "phase"]):
                print(f"module/owner[{i}/{ph}]: {line(rows.sort_values('module').owner)}")
        if modelled:
            for c in STEP_MODELLED:
                print(f"step/{c}: {line(s[c])}")
            for i, (_, rows) in enumerate(p.groupby("step")):
                for c in PROC_MODELLED:
                    print(f"proc/{c}[{i}]: {line(rows[c])}")
        for c in sorted(c for c in s.columns if c.startswith("metric_")):
            clocked = c.endswith("_seconds") and not modelled  # the mpi executor's timings
            if s[c].notna().any() and not clocked:
                print(f"metric/{c[7:]}[0]: {line(s[c])}")


if __name__ == "__main__":
    flags = {a for a in sys.argv[1:] if a.startswith("--")}
    for path in (a for a in sys.argv[1:] if not a.startswith("--")):
        dump(path, "--phases" in flags, "--modelled" in flags, "--timed" in flags)
