#!/usr/bin/python3
"""Turns a copy of a complete archive into a damaged one, as a crash or a failure leaves it:
  failed  - the first run failed: status 'failed' with its error, unverified, no totals;
  partial - the first run stopped after 3 steps: status 'partial', no totals, and (as a run
            still being written is) in a /runs/<run-id> group, out of its run table;
  allfail - every run failed.
Edits either layout through archive_edit.py (a run table's columns, or a run group)."""
import sys

import h5py

from archive_edit import cut_steps, del_attr, set_attr
from archive_runs import runs_by_id

TOTALS = ["makespan_total", "wall_total", "ideal_total", "efficiency", "imbalance",
          "balance_total", "migrations_total", "bytes_moved_total", "finished"]


def strip_totals(run):
    for name in TOTALS:
        del_attr(run, name)


def fail_run(run):
    set_attr(run, "status", "failed")
    set_attr(run, "error", "injected by degrade_archive.py")
    set_attr(run, "verified", 0)
    strip_totals(run)


def cut_run(f, run, steps):
    set_attr(run, "status", "partial")
    set_attr(run, "verified", 0)
    strip_totals(run)
    cut_steps(f, run, steps)


def main(path, how):
    with h5py.File(path, "r+") as f:
        runs = [run for _, run in sorted(runs_by_id(f).items())]
        if how == "failed":
            fail_run(runs[0])
        elif how == "partial":
            cut_run(f, runs[0], 3)
        elif how == "allfail":
            for run in runs:
                fail_run(run)
        else:
            sys.exit(f"degrade_archive: unknown damage '{how}'")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
