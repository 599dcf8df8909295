"""Reads a result set (schema v4, docs/ARCHITECTURE.md) into pandas: a directory of write-once
HDF5 parts, each holding six tables (parts older than the spans table five), a table a group of
equal-length 1-D columns. A part is checked before its values are read; one that is not such a
file is left out with a line in `problems`, never a crash, a hang or a huge allocation."""
import multiprocessing
import os
import zlib
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field

import h5py
import pandas as pd

SCHEMA, VERSION = "lbbench-results", 5
# The versions read, and each older one's runs columns under their names since.
VERSIONS = (4, 5)
RENAMED = {4: {"archive_seconds": "results_seconds"}}
# Each table's key columns, with the kinds they must have ("S": fixed-length text).
KEYS = {"runs": {"run": "S"}, "steps": {"run": "S", "step": "iu"},
        "procs": {"run": "S", "step": "iu", "proc": "iu"},
        "modules": {"run": "S", "step": "iu", "phase": "iu", "module": "iu"},
        "invocations": {"invocation": "S"},
        "spans": {"run": "S", "step": "iu", "proc": "iu", "start": "iu", "end": "iu"}}
# Tables a switch writes (execution.timeline: spans): absent from older parts, read as empty.
OPTIONAL = {"spans"}
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
    superseded: list = field(default_factory=list)  # interrupted runs a resumed run completed
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
    stored = f.attrs.get_id(name) if name in f.attrs else None
    if stored is None or stored.dtype.kind not in kinds or stored.shape not in ((), (1,)):
        raise PartError(f"root attribute {name}: missing, or not one value of the layout's type")
    value = f.attrs[name].reshape(-1)[0] if stored.shape else f.attrs[name]
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else value


def _member(group, name, kind):
    """group[name] when it is a hard link to a `kind` (a soft or external link reaches out)."""
    member = group.get(name, getlink=True)
    member = group[name] if isinstance(member, h5py.HardLink) else member
    if not isinstance(member, kind):
        raise PartError(f"{group.name.rstrip('/')}/{name} is not a {kind.__name__.lower()}")
    return member


def _table(group, keys, budget):
    """The table `group` as a frame, keys first, once every column is checked (a 1-D dataset of
    a layout type, stored in the file itself, as long as the others, within `budget` bytes)."""
    where, columns = group.name, {name: _member(group, name, h5py.Dataset) for name in group}
    if not columns:  # a table with no rows may be written with no columns
        return pd.DataFrame({key: pd.Series(dtype=object if kinds == "S" else "int64")
                             for key, kinds in keys.items()})
    for name, d in columns.items():
        stored = d.id.get_create_plist()  # in this file: no external or virtual storage
        if d.ndim != 1 or d.dtype.kind not in KINDS or stored.get_external_count() or \
                stored.get_layout() == h5py.h5d.VIRTUAL:
            raise PartError(f"{where}/{name} is {d.dtype} {d.shape}, not a column of the layout")
    budget[0] -= sum(d.size * (d.dtype.itemsize + TEXT_VALUE * (d.dtype.kind == "S"))
                     for d in columns.values())
    if len({d.shape[0] for d in columns.values()}) > 1 or budget[0] < 0:
        raise PartError(f"{where}: columns " + ("larger than the file could hold"
                                                if budget[0] < 0 else "of unequal lengths"))
    for key, allowed in keys.items():
        if key not in columns or columns[key].dtype.kind not in allowed:
            raise PartError(f"{where}/{key}: missing or of the wrong type")
    order = list(keys) + [name for name in columns if name not in keys]
    return pd.DataFrame({name: columns[name].asstr("utf-8", "replace")[:]
                         if columns[name].dtype.kind == "S" else columns[name][:]
                         for name in order})


def _table_of_nothing(keys):
    return pd.DataFrame({key: pd.Series(dtype=object if kinds == "S" else "int64")
                         for key, kinds in keys.items()})


def read_part(path):
    """{table: DataFrame} of one part; raises PartError (or h5py's own) when it is not one."""
    with h5py.File(path, "r") as f:
        version = _attribute(f, "schema_version", "iu") if _attribute(f, "schema", "S") == SCHEMA \
            else None
        if version not in VERSIONS:
            raise PartError(f"not an {SCHEMA} part of schema version {VERSIONS[0]} to {VERSION}")
        budget = [DEFLATE_RATIO * os.path.getsize(path) + (1 << 20)]
        tables = {table: _table(_member(f, table, h5py.Group), keys, budget)
                  if table not in OPTIONAL or table in f else _table_of_nothing(keys)
                  for table, keys in KEYS.items()}
        tables["runs"] = tables["runs"].rename(columns=RENAMED.get(version, {}))
        return tables


def _why(error):
    return (str(error) if isinstance(error, PartError) else f"{type(error).__name__}: {error}")[:400]


def _quiet():
    os.dup2(os.open(os.devnull, os.O_WRONLY), 2)  # glibc's words as HDF5 dies: we say it


class _Reader:
    """read_part in a child process: HDF5 1.10.8 itself dies (SIGSEGV, abort) on some corrupt
    group metadata (one flipped bit in a part is enough), and must take only that part with it.
    One child reads part after part; one that died is replaced."""

    def __init__(self):
        self.child = None

    def read(self, path):
        try:
            self.child = self.child or ProcessPoolExecutor(1, multiprocessing.get_context("fork"),
                                                           _quiet)
        except OSError:  # no semaphores here (no /dev/shm): read in this process
            return read_part(path)
        try:
            return self.child.submit(read_part, path).result()
        except BrokenProcessPool:
            self.child = None
            raise PartError("the HDF5 library died reading it") from None

    def close(self):
        if self.child is not None:
            self.child.shutdown()


def _consistent(frames, kinds):
    """Refuses a part that types a column (text or number) otherwise than the parts before it."""
    own = {(table, name): "text" if dtype == object else "number"
           for table, frame in frames.items() for name, dtype in frame.dtypes.items()}
    for (table, name), kind in own.items():
        if kinds.get((table, name), kind) != kind:
            raise PartError(f"/{table}/{name} is {kind}, {kinds[(table, name)]} in earlier parts")
    kinds.update(own)


def _combine(rs, read):
    """The parts' tables as one frame each: an invocation's row (in each of its parts) and a run
    held twice (a part copied twice) kept once; rows of runs with no /runs row left out."""
    twice = 0
    for table, keys in KEYS.items():
        frame = pd.concat([r[table] for r in read], ignore_index=True)
        if table in ("runs", "invocations") or twice:
            unique = frame.drop_duplicates(list(keys))
            twice += (len(frame) - len(unique)) * (table == "runs")
            frame = unique
        if table not in ("runs", "invocations"):
            ended = frame.run.isin(rs.runs.run)
            rs.unended = sorted(set(rs.unended) | set(frame.run[~ended]))
            frame = frame[ended]
        rs.tables[table] = frame.reset_index(drop=True)
    if twice:
        rs.problems.append(f"/runs: {twice} runs held twice, each kept once with its rows")
    _supersede(rs)


def _supersede(rs):
    """Drops the interrupted runs that a run of the same config and repetition, ended on its own,
    stands for (`run --resume` runs them again), as `lbbench table` does."""
    runs = rs.tables["runs"]
    if not {"interrupted", "config_yaml", "repetition"} <= set(runs.columns):
        return
    stopped = runs.interrupted == 1
    attempt = list(zip(runs.config_yaml, runs.repetition))
    ended = {a for a, s in zip(attempt, stopped) if not s}
    gone = [s and a in ended for a, s in zip(attempt, stopped)]
    rs.superseded = list(runs.run[gone])
    rs.tables["runs"] = runs[[not g for g in gone]].reset_index(drop=True)


def read_set(directory, parts=None):
    """Every table of the set `directory`: its parts, or only `parts` (names or paths, e.g. the
    parts `lbbench table` accepted). Raises PartError when no part can be read."""
    rs, read, kinds, reader = ResultSet(directory), [], {}, _Reader()
    for name in part_files(directory) if parts is None else parts:
        path = os.path.join(directory, name)
        try:
            if os.path.islink(path) or not os.path.isfile(path):
                raise PartError("not a regular file")
            frames = reader.read(path)
            _consistent(frames, kinds)
        except Exception as e:  # noqa: BLE001 - h5py raises many kinds on hostile bytes
            rs.problems.append(f"{name}: left out: {_why(e)}")
            continue
        rs.parts.append(os.path.basename(name))
        read.append(frames)
    reader.close()
    if not read:
        raise PartError(f"{directory}: no readable part of an {SCHEMA} set"
                        + (f" ({rs.problems[0]})" if rs.problems else " (no *.h5 file)"))
    _combine(rs, read)
    return rs


def simulated(runs):
    """Whether each run was simulated (no kernel ran, nothing verified): its `simulated` column,
    or in a set older than it the simulator's verification text."""
    column = runs["simulated"] if "simulated" in runs else pd.Series(-1, index=runs.index)
    older = runs.verification.fillna("").astype(str).str.startswith("simulated:") \
        if "verification" in runs else False
    return (column == 1) | (~column.isin([0, 1]) & older)


SEAL_BYTES = 512  # the HDF5 user block that holds a part's seal (harness/results/part_file.cpp)


def seal(path):
    """Writes a part's seal: the CRC-32 and size of its bytes after its 512-byte HDF5 user block
    (create it with userblock_size=512), which lbbench checks before HDF5 reads the part. Call it
    after every write of the part."""
    with open(path, "r+b") as f:
        f.seek(SEAL_BYTES)
        crc = zlib.crc32(f.read())
        size = f.tell()
        f.seek(0)
        f.write(f"lbbench-results part\ncrc32 {crc:08x} size {size}\n".encode().ljust(SEAL_BYTES, b"\0"))
