#!/usr/bin/python3
"""hostile_parts.py VALID_PART OUT_DIR: writes hostile variants of a valid part, one per set
OUT_DIR/<case>/part.h5, and prints the case names. Each must be refused by lbbench's reader
with a message, never crash it or make it read or write anything else."""
import os
import shutil
import sys

import h5py
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "report"))
from lbbench_report.results import seal  # noqa: E402

CASES = {}
UNSEALED = {"not_hdf5", "truncated", "bit_flips", "unsealed_edit"}


def case(f):
    CASES[f.__name__] = f
    return f


@case
def external_storage(path, d):
    with h5py.File(path, "r+") as f:
        del f["runs/makespan_total"]
        f["runs"].create_dataset("makespan_total", shape=f["runs/run"].shape, dtype="f8",
                                 external=[(os.path.join(d, "victim.bin"), 0, 1 << 20)])
    open(os.path.join(d, "victim.bin"), "wb").write(b"\0" * 64)


@case
def soft_link(path, d):
    with h5py.File(path, "r+") as f:
        del f["runs/status"]
        f["runs/status"] = h5py.SoftLink("/runs/workload")


@case
def external_link(path, d):
    with h5py.File(path, "r+") as f:
        del f["steps"]
        f["steps"] = h5py.ExternalLink("/etc/passwd", "/")


@case
def variable_length_text(path, d):
    with h5py.File(path, "r+") as f:
        n = f["runs/run"].shape[0]
        del f["runs/status"]
        f["runs"].create_dataset("status", data=["complete"] * n, dtype=h5py.string_dtype())


@case
def unequal_columns(path, d):
    with h5py.File(path, "r+") as f:
        del f["steps/wall"]
        f["steps"].create_dataset("wall", data=np.zeros(1))


@case
def huge_declared(path, d):
    with h5py.File(path, "r+") as f:
        del f["procs/busy"]
        n = f["procs/run"].shape[0]
        f["procs"].create_dataset("busy", shape=(n,), maxshape=(None,), chunks=(1 << 26,),
                                  dtype="f8")


@case
def wrong_type(path, d):
    with h5py.File(path, "r+") as f:
        n = f["runs/run"].shape[0]
        del f["runs/processors"]
        f["runs"].create_dataset("processors", data=np.full(n, 2.5))


@case
def two_dimensional(path, d):
    with h5py.File(path, "r+") as f:
        n = f["steps/run"].shape[0]
        del f["steps/makespan"]
        f["steps"].create_dataset("makespan", data=np.zeros((n, 2)))


@case
def old_schema(path, d):
    with h5py.File(path, "r+") as f:
        f.attrs["schema_version"] = np.int64(3)


@case
def unsealed_edit(path, d):
    with h5py.File(path, "r+") as f:
        f["runs/processors"][0] = 3


@case
def not_hdf5(path, d):
    open(path, "wb").write(b"not an HDF5 file\n" * 10)


@case
def truncated(path, d):
    data = open(path, "rb").read()
    open(path, "wb").write(data[: len(data) // 2])


@case
def bit_flips(path, d):
    data = bytearray(open(path, "rb").read())
    for k in range(0, len(data), 97):
        data[k] ^= 0x10
    open(path, "wb").write(bytes(data))


def main(valid, out):
    for name, make in CASES.items():
        d = os.path.join(out, name)
        os.makedirs(d)
        path = os.path.join(d, "part.h5")
        shutil.copy(valid, path)
        make(path, d)
        if name not in UNSEALED:  # crafted files with a valid seal reach HDF5's checks
            seal(path)
        print(name)


if __name__ == "__main__":
    main(*sys.argv[1:])
