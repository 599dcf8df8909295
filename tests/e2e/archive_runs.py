#!/usr/bin/python3
"""The e2e tests' way into an archive's runs: the report's reader (iter_runs in
report/lbbench_report/archive_data.py), which reads both layouts (/runs/<run-id> groups and run
tables), importable from tests/e2e/, and a command line for the shell tests:

  archive_runs.py ids ARCHIVE              the run ids, one a line, in the reader's order
  archive_runs.py attr ARCHIVE RUN NAME    the run's attribute NAME (exit 1 when it lacks it)
  archive_runs.py holding ARCHIVE DATASET  how many runs hold the step dataset DATASET
  archive_runs.py dump ARCHIVE [RUN...]    the runs whole (every attribute, every step dataset's
                                           type, shape and bytes), to compare two versions
"""
import hashlib
import os
import sys

import h5py

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "report"))
from lbbench_report.archive_data import ArchiveError, iter_runs  # noqa: E402

__all__ = ["ArchiveError", "iter_runs", "runs_by_id"]  # what the other tests import from here


def runs_by_id(f):
    """The open archive's runs by id (StoredRun, valid while `f` is open)."""
    return {run.id: run for run in iter_runs(f)}


def dump(run):
    lines = [f"== {run.id}"]
    lines += [f"{k}: {type(v).__name__} {v!r}" for k, v in sorted(run.attrs.items())]
    for name in run.names():
        data = run.series(name)
        digest = hashlib.sha256(data.tobytes()).hexdigest()
        lines.append(f"{name}: {data.dtype} {data.shape} {digest}")
    return "\n".join(lines)


def main(command, path, *args):
    with h5py.File(path, "r") as f:
        runs = runs_by_id(f)
        if command == "ids":
            print("\n".join(runs))
        elif command == "attr":
            rid, name = args
            if name not in runs[rid].attrs:
                sys.exit(f"archive_runs: {rid} has no attribute {name}")
            print(runs[rid].attrs[name])
        elif command == "holding":
            print(sum(args[0] in run.names() for run in runs.values()))
        elif command == "dump":
            print("\n".join(dump(runs[rid]) for rid in (args or runs)))
        else:
            sys.exit(f"archive_runs: unknown command '{command}'")


if __name__ == "__main__":
    main(*sys.argv[1:])
