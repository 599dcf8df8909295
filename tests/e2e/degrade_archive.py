#!/usr/bin/python3
"""Turns a copy of a complete archive into a damaged one, as a crash or a failure leaves it:
  failed  - the first run failed: status 'failed' with its error, unverified, no totals;
  partial - the first run stopped after 3 steps: status 'partial', no totals;
  allfail - every run failed."""
import sys

import h5py

TOTALS = ["makespan_total", "wall_total", "ideal_total", "efficiency", "imbalance",
          "balance_total", "migrations_total", "bytes_moved_total", "finished"]


def strip_totals(group):
    for name in TOTALS:
        if name in group.attrs:
            del group.attrs[name]


def fail_run(group):
    group.attrs["status"] = "failed"
    group.attrs["error"] = "injected by degrade_archive.py"
    group.attrs["verified"] = 0
    strip_totals(group)


def cut_run(group, steps):
    group.attrs["status"] = "partial"
    group.attrs["verified"] = 0
    strip_totals(group)
    # A run interrupted before its end is written as it grows: chunked, extendible datasets
    # (a finished run's are fixed-size; docs/ARCHITECTURE.md, "Archive layout").
    for kind in ["step", "proc", "module", "metric"]:
        sub = group.get(kind)
        if sub is None:
            continue
        for name in list(sub):
            rows = sub[name][:steps]
            del sub[name]
            sub.create_dataset(name, data=rows, chunks=True,
                               maxshape=(None,) + rows.shape[1:])


def main(path, how):
    with h5py.File(path, "r+") as f:
        runs = list(f["runs"].values())
        if how == "failed":
            fail_run(runs[0])
        elif how == "partial":
            cut_run(runs[0], 3)
        elif how == "allfail":
            for g in runs:
                fail_run(g)
        else:
            sys.exit(f"degrade_archive: unknown damage '{how}'")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
