"""Reads a result set (schema v4, docs/ARCHITECTURE.md): a directory of write-once HDF5 parts,
each holding five tables, a table a group of equal-length 1-D columns. read_set() returns the
tables as pandas frames. A part is checked whole before any value is read: a part that is not
such a file is left out with a line in `problems`, never a crash, a hang or a huge allocation."""
import os
import stat
from dataclasses import dataclass, field

import h5py
import pandas as pd

SCHEMA, VERSION = "lbbench-results", 4
# Each table's key columns, with the kinds they must have ("S": fixed-length text).
KEYS = {"runs": {"run": "S"}, "steps": {"run": "S", "step": "iu"},
        "procs": {"run": "S", "step": "iu", "proc": "iu"},
        "modules": {"run": "S", "step": "iu", "phase": "iu", "module": "iu"},
        "invocations": {"invocation": "S"}}
KINDS = "Siuf"  # fixed-length text, integers, reals: nothing else is in the layout
DEFLATE_RATIO = 1032  # deflate's largest compression: no honest column inflates further
TEXT_VALUE = 64  # bytes a decoded text value costs in Python beyond its characters


class PartError(ValueError):
    """A part that is not a part of a v4 result set."""


@dataclass
class ResultSet:
    path: str
    parts: list = field(default_factory=list)     # file names of the parts read
    problems: list = field(default_factory=list)  # parts and rows left out, in words
    unended: list = field(default_factory=list)   # runs with steps but no /runs row (killed)
    tables: dict = field(default_factory=dict)    # table name -> DataFrame

    def __getattr__(self, name):  # rs.runs, rs.steps, ...
        if name in KEYS:
            return self.tables[name]
        raise AttributeError(name)


def part_files(directory):
    """The set's parts: regular files (not links, FIFOs, ...) named *.h5, not hidden, sorted."""
    with os.scandir(directory) as entries:
        return sorted(e.name for e in entries if e.name.endswith(".h5")
                      and not e.name.startswith(".") and e.is_file(follow_symlinks=False))


def _attribute(f, name, kinds):
    """A root attribute as a Python value, read only once its type is one of `kinds`."""
    if name not in f.attrs:
        raise PartError(f"no root attribute {name}")
    dtype, shape = f.attrs.get_id(name).dtype, f.attrs.get_id(name).shape
    if dtype.kind not in kinds or shape not in ((), (1,)):
        raise PartError(f"root attribute {name} is {dtype} {shape}")
    value = f.attrs[name].reshape(-1)[0] if shape else f.attrs[name]
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else value


def _columns(group, where, budget):
    """The group's columns, each checked (a 1-D dataset of a layout type held in the file
    itself) before the part's total size is compared with `budget`; then read."""
    checked = []
    for name in group:
        d, what = group.get(name, getlink=True), f"{where}/{name}"
        if not isinstance(d, h5py.HardLink) or not isinstance(group[name], h5py.Dataset):
            raise PartError(f"{what} is not a dataset")
        d = group[name]
        if d.ndim != 1 or d.dtype.kind not in KINDS or d.is_virtual or \
                d.id.get_create_plist().get_external_count():
            raise PartError(f"{what} is {d.dtype} {d.shape}, not a column of the layout")
        checked.append((name, d))
    if len({d.shape[0] for _, d in checked}) > 1:
        raise PartError(f"{where}: columns of unequal lengths")
    budget[0] -= sum(d.size * (d.dtype.itemsize + (TEXT_VALUE if d.dtype.kind == "S" else 0))
                     for _, d in checked)
    if budget[0] < 0:
        raise PartError(f"{where}: columns larger than the file could hold")
    return checked


def read_part(path):
    """{table: DataFrame} of one part; raises PartError (or h5py's own) when it is not one."""
    with h5py.File(path, "r") as f:
        if _attribute(f, "schema", "S") != SCHEMA or _attribute(f, "schema_version", "iu") \
                != VERSION:
            raise PartError(f"not an {SCHEMA} part of schema version {VERSION}")
        budget = [DEFLATE_RATIO * os.path.getsize(path) + (1 << 20)]
        frames = {}
        for table, keys in KEYS.items():
            if not isinstance(f.get(table, getlink=True), h5py.HardLink) or \
                    not isinstance(f[table], h5py.Group):
                raise PartError(f"/{table} is not a group")
            columns = _columns(f[table], f"/{table}", budget)
            kinds = {name: d.dtype.kind for name, d in columns}
            for key, allowed in keys.items():
                if kinds.get(key, "-") not in allowed:
                    raise PartError(f"/{table}/{key}: missing or of the wrong type")
            frames[table] = pd.DataFrame({name: d.asstr("utf-8", "replace")[:]
                                          if d.dtype.kind == "S" else d[:] for name, d in columns})
        return frames


def _consistent(frames, kinds):
    """Whether every column has the kind (text or number) the set's earlier parts gave it."""
    for table, frame in frames.items():
        for name, values in frame.items():
            kind = "text" if values.dtype == object else "number"
            if kinds.setdefault((table, name), kind) != kind:
                return f"/{table}/{name} is {kind}, {kinds[(table, name)]} in earlier parts"
    return None


def read_set(directory, parts=None):
    """Every table of the set `directory`: its parts, or only `parts` (names or paths, e.g. the
    parts `lbbench table` accepted). Raises PartError when no part can be read."""
    rs, read, kinds = ResultSet(directory), [], {}
    for name in part_files(directory) if parts is None else parts:
        path = os.path.join(directory, name)
        try:
            if not stat.S_ISREG(os.lstat(path).st_mode):
                raise PartError("not a regular file")
            frames = read_part(path)
            conflict = _consistent(frames, kinds)
            if conflict:
                raise PartError(conflict)
        except Exception as e:  # noqa: BLE001 - h5py raises many kinds on hostile bytes
            rs.problems.append(f"{name}: left out: {type(e).__name__}: {e}"[:400])
            continue
        rs.parts.append(os.path.basename(name))
        read.append(frames)
    if not read:
        raise PartError(f"{directory}: no readable part of an {SCHEMA} set"
                        + (f" ({rs.problems[0]})" if rs.problems else " (no *.h5 file)"))
    for table, keys in KEYS.items():
        frame = pd.concat([r[table] for r in read], ignore_index=True)
        unique = frame.drop_duplicates(list(keys)[:1] if table in ("runs", "invocations")
                                       else list(keys))
        if len(unique) < len(frame) and table != "invocations":  # every part names its invocation
            rs.problems.append(f"/{table}: {len(frame) - len(unique)} rows held twice: first kept")
        rs.tables[table] = unique.reset_index(drop=True)
    ended = set(rs.runs.run)
    for table in ("steps", "procs", "modules"):
        frame = rs.tables[table]
        keep = frame.run.isin(ended)
        rs.unended = sorted(set(rs.unended) | set(frame.run[~keep]))
        rs.tables[table] = frame[keep].reset_index(drop=True)
    return rs
