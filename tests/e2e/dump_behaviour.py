#!/usr/bin/python3
"""Prints what must not change when the executors change (tests/e2e/engine_behaviour.sh): per run
of an archive, the verification, checksums, assignments (module/owner), migrations and the
workload's step metrics; never a timing. Reals to 10 significant digits."""
import sys

import h5py

from archive_runs import runs_by_id

ATTRS = ["name", "workload", "balancer", "static", "dynamic", "schedule", "executor",
         "processors", "modules", "steps", "warmup", "status", "verified", "checksum",
         "reference_checksum", "migrations_total", "bytes_moved_total", "tasks_total",
         "max_distance", "levels", "nodes", "depth", "leaves", "LB_model", "T_model", "comm_model"]
DATASETS = ["step/migrations", "step/bytes_moved", "proc/triggered", "module/owner"]


def text(value):
    if isinstance(value, bytes):
        return value.decode()
    if isinstance(value, float):
        return f"{value:.10g}"
    if hasattr(value, "dtype") and value.dtype.kind == "f":
        return f"{float(value):.10g}"
    if hasattr(value, "item"):
        return str(value.item())
    return str(value)


def rows(data):
    if data.ndim == 1:
        return [" ".join(text(v) for v in data)]
    return [" ".join(text(v) for v in row) for row in data]


def main(paths):
    for path in paths:
        with h5py.File(path, "r") as f:
            for rid, run in sorted(runs_by_id(f).items()):
                print(f"== {rid}")
                for a in ATTRS:
                    if a in run.attrs:
                        print(f"{a}: {text(run.attrs[a])}")
                held = run.names()
                for name in DATASETS + [n for n in held if n.startswith("metric/")]:
                    if name in held:
                        for i, row in enumerate(rows(run.series(name))):
                            print(f"{name}[{i}]: {row}")


if __name__ == "__main__":
    main(sys.argv[1:])
