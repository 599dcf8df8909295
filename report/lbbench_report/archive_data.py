"""Reads an lbbench archive (contract in docs/ARCHITECTURE.md) into one row per run.

Only what the figures plot comes from here: per-run attributes and per-step series. Every
statistic over repetitions (medians, intervals, stars, ties) comes from the table instead
(table_stats.py), so the report and `lbbench table` can never disagree.

iter_runs() is the one Python reader of runs, whichever layout holds them: a /runs/<run-id>
group, or a row of a run table /tables/<table-id> (harness/archive/run_tables.h). The e2e tests
read archives through it too (tests/e2e/archive_runs.py), so a layout is read in one place.
"""
import re
from dataclasses import dataclass, field

import h5py
import numpy as np
import pandas as pd

# Attributes every run carries (the writer sets them before its first step).
TEXT_ATTRS = ["workload", "balancer", "static", "dynamic", "schedule", "sweep", "status", "error",
              "git_sha", "compiler", "flags", "host", "cpu_model", "omp_env", "openblas",
              "hdf5_version", "started", "finished", "name", "invocation", "mode", "topology"]
NUMBER_ATTRS = ["processors", "steps", "repetition", "verified", "oversubscribed", "cores",
                "hardware_threads", "available_processors", "makespan_total", "wall_total",
                "ideal_total", "efficiency", "imbalance", "balance_total", "migrations_total",
                "bytes_moved_total", "load_average", "load_start", "load_end"]
# Per-step series a figure plots: [S] or [S, P].
STEP_SERIES = ["step/makespan", "step/wall", "step/ideal", "step/balance", "step/migrations",
               "step/bytes_moved"]
PROC_SERIES = ["proc/busy"]

# The Zaki, Li & Parthasarathy (1997) schemes decide when the fastest processor finishes.
FASTEST_FINISH = {"gcdlb", "gddlb", "lcdlb", "lddlb"}


def _text(value):
    return value.decode() if isinstance(value, bytes) else str(value)


def family(row):
    """The strategy family a run belongs to, for colouring and for what the headline can rank."""
    if row.get("schedule"):
        return "in-step schedule"
    dynamic = row.get("dynamic", "")
    if dynamic in FASTEST_FINISH:
        return "fastest-finish dynamic"
    if dynamic and dynamic != "none":
        return "between-step dynamic"
    return "static"


def sweep_params(sweep):
    """'n=400 r=800 processors=2' -> {'n': '400', 'r': '800'}: the sweep point without P."""
    pairs = dict(re.findall(r"([A-Za-z_][\w.]*)=(\S+)", sweep or ""))
    pairs.pop("processors", None)
    pairs.pop("platform.processors", None)
    return pairs


def label_params(label):
    """'random(alpha=0.5 threshold=1)' -> ('random', {'alpha': '0.5', 'threshold': '1'})."""
    m = re.match(r"^(.*?)\((.*)\)$", label or "")
    if not m:
        return label, {}
    return m.group(1), dict(re.findall(r"([A-Za-z_][\w.]*)=(\S+)", m.group(2)))


class NotAnArchive(ValueError):
    pass


@dataclass
class Archive:
    path: str
    runs: pd.DataFrame                       # one row per run, attributes as columns
    series: dict = field(default_factory=dict)  # run id -> {dataset name: ndarray}
    invocations: dict = field(default_factory=dict)  # id -> attributes of /invocations/<id>
    problems: list = field(default_factory=list)  # what could not be read, in words

    def complete(self):
        """Runs that finished and verified: the only ones a figure of results shows."""
        r = self.runs
        return r[(r["status"] == "complete") & (r["verified"] == 1)]


STEP_GROUPS = ("step", "proc", "metric", "module")  # where a run keeps its step datasets


class ArchiveError(ValueError):
    """A run or a run table that cannot be read as lbbench writes it."""


def _scalar(value, where):
    """An attribute as Python's str, int or float (the schema's text, integers and reals)."""
    if np.shape(value) != ():
        raise ArchiveError(f"{where} is not a single value")
    if isinstance(value, (bytes, str)):
        return _text(value)
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating):
        return float(value)
    raise ArchiveError(f"{where} is neither text nor a number")


def _members(group, name, where):
    """The group `name` of `group` (an archive's tables), or {} when it has none."""
    sub = group.get(name, {})
    if not isinstance(sub, (h5py.Group, dict)):
        raise ArchiveError(f"{where}/{name} is not a group")
    return sub


def _vector(holder, name, where, length=None, text=False):
    """The one-dimensional dataset `name` of a run table, whole; `length` values when given."""
    d = holder.get(name)
    if not isinstance(d, h5py.Dataset) or d.ndim != 1:
        raise ArchiveError(f"{where}/{name} is not a one-dimensional dataset")
    if length is not None and d.shape[0] != length:
        raise ArchiveError(f"{where}/{name} holds {d.shape[0]} values, the table {length} runs")
    if text != (h5py.check_string_dtype(d.dtype) is not None):
        raise ArchiveError(f"{where}/{name} is {'not ' if text else ''}text")
    return d.asstr()[()] if text else d[()]


class _Table:
    """One run table: its runs' ids and row ranges, and its step columns, each read whole once
    (a run's series is a slice of it: one read a column, not one a run)."""

    def __init__(self, group, where):
        self.group, self.where = group, where
        self.ids = [str(i) for i in _vector(group, "run_id", where, text=True)]
        rows = _vector(group, "step_rows", where, len(self.ids))
        if rows.dtype.kind != "i" or np.any(rows < 0):
            raise ArchiveError(f"{where}/step_rows: a run's rows out of range")
        self.first = np.concatenate([[0], np.cumsum(rows, dtype=np.int64)]).tolist()
        self._columns = {}

    def _compound(self, name, integer=False):
        """The compound dataset `name` [R] as {member: values} ({} when the table has none),
        each member a number (integers only, `integer`)."""
        if name not in self.group:
            return {}
        d = self.group[name]
        where = f"{self.where}/{name}"
        if not isinstance(d, h5py.Dataset) or d.ndim != 1 or d.dtype.names is None:
            raise ArchiveError(f"{where} is not a one-dimensional compound dataset")
        if d.shape[0] != len(self.ids):
            raise ArchiveError(f"{where} holds {d.shape[0]} records, the table {len(self.ids)} "
                               "runs")
        kinds, what = ("i", "not an integer") if integer else ("if", "not a number")
        for member in d.dtype.names:
            if d.dtype.fields[member][0].kind not in kinds:
                raise ArchiveError(f"{where}: member {member} is {what}")
        values = d[()]
        return {member: values[member] for member in d.dtype.names}

    def attributes(self):
        """Each run's attributes, a dict a run (sorted by name): the members of attr_numbers
        (those of attr_present say which runs have them) and of attr_texts (indices into
        attr_text_values, -1 where a run lacks it)."""
        n = len(self.ids)
        out = [{} for _ in range(n)]
        numbers = self._compound("attr_numbers")
        present = self._compound("attr_present", integer=True)
        texts = self._compound("attr_texts", integer=True)
        if set(present) - set(numbers):
            raise ArchiveError(f"{self.where}/attr_present: {sorted(set(present) - set(numbers))} "
                               "not members of attr_numbers")
        if set(texts) & set(numbers):
            raise ArchiveError(f"{self.where}: {sorted(set(texts) & set(numbers))} both a number "
                               "(attr_numbers) and a text (attr_texts)")
        for name, values in numbers.items():
            has = present[name].tolist() if name in present else [1] * n
            for r, (value, here) in enumerate(zip(values.tolist(), has)):
                if here:
                    out[r][name] = value
        if texts:
            distinct = _vector(self.group, "attr_text_values", self.where, text=True)
            for name, codes in texts.items():
                if np.any((codes < -1) | (codes >= len(distinct))):
                    raise ArchiveError(f"{self.where}/attr_texts: {name} holds a text index out "
                                       f"of range [-1, {len(distinct)})")
                for r, code in enumerate(codes.tolist()):
                    if code >= 0:
                        out[r][name] = str(distinct[code])
        return [dict(sorted(run.items())) for run in out]

    def column(self, name):
        if name not in self._columns:
            d = self.group[name]  # KeyError: the table's runs lack it
            if not isinstance(d, h5py.Dataset) or d.ndim not in (1, 2) or \
                    d.shape[0] != self.first[-1]:
                raise ArchiveError(f"{self.where}/{name} holds {getattr(d, 'shape', None)}, its "
                                   f"runs {self.first[-1]} rows")
            self._columns[name] = d[()]
        return self._columns[name]


class StoredRun:
    """One run of an archive, whichever layout holds it: its id, its attributes (`attrs`, as
    str, int and float) and its step datasets by name ("step/makespan", "proc/busy", ...).
    `group` is the h5py group of a /runs/<run-id> run; a table's row has `table` (the h5py group
    /tables/<table-id>) and `row` (its index there) instead. Valid while the file is open."""

    def __init__(self, rid, attrs, where, group=None, table=None, row=0):
        self.id, self.attrs, self.where, self.group = rid, attrs, where, group
        self._table, self.row = table, row
        self.table = table.group if table is not None else None

    def names(self):
        """The names of its step datasets, sorted."""
        holder = self.group if self.group is not None else self.table
        return sorted(f"{kind}/{name}" for kind in STEP_GROUPS
                      if isinstance(holder.get(kind), h5py.Group) for name in holder[kind])

    def series(self, name):
        """Its rows of the step dataset `name` as an array; KeyError when it has none."""
        if self.group is not None:
            return self.group[name][()]
        t = self._table
        return t.column(name)[t.first[self.row]:t.first[self.row + 1]]


def _group_run(runs, rid):
    group = runs[rid]
    if not isinstance(group, h5py.Group):
        raise ArchiveError(f"/runs/{rid} is not a group")
    attrs = {k: _scalar(v, f"/runs/{rid} attribute {k}") for k, v in group.attrs.items()}
    return [StoredRun(rid, attrs, f"/runs/{rid}", group=group)]


def _table_runs(tables, tid):
    table = _Table(tables[tid], f"/tables/{tid}")
    return [StoredRun(rid, attrs, f"/tables/{tid}", table=table, row=r)
            for r, (rid, attrs) in enumerate(zip(table.ids, table.attributes()))]


def iter_runs(f, problems=None):
    """Every run of the open h5py archive `f`: its /runs/<run-id> groups, then its run tables'
    rows, as StoredRun. A run or table that cannot be read, or a run id held twice, raises
    ArchiveError; given a list `problems`, it is described there instead and left out."""
    sources = [(f["runs"], name, _group_run) for name in f["runs"]]
    tables = _members(f, "tables", "")
    sources += [(tables, name, _table_runs) for name in tables]
    seen = {}
    for holder, name, read in sources:
        try:
            runs = read(holder, name)
        except (OSError, KeyError, TypeError, ValueError) as e:
            if problems is None:
                raise ArchiveError(f"{holder.name}/{name}: unreadable ({e})") from e
            problems.append(f"{holder.name}/{name}: unreadable ({e})")
            continue
        for run in runs:
            if run.id in seen:
                message = f"{run.id}: held twice, in {seen[run.id]} and {run.where}"
                if problems is None:
                    raise ArchiveError(message)
                problems.append(message)
                continue
            seen[run.id] = run.where
            yield run


def _read_run(run, problems):
    row = {"run": run.id}
    for a in TEXT_ATTRS:
        row[a] = _text(run.attrs[a]) if a in run.attrs else ""
    for a in NUMBER_ATTRS:
        row[a] = float(run.attrs[a]) if a in run.attrs else np.nan
    data = {}
    for name in STEP_SERIES + PROC_SERIES:
        try:
            data[name] = run.series(name)
        except KeyError:
            problems.append(f"{run.id}: dataset {name} missing")
    row["steps_recorded"] = len(data["step/makespan"]) if "step/makespan" in data else 0
    if row["load_average"] != row["load_average"]:  # archives that name it load_start
        row["load_average"] = row["load_start"]
    row["label"] = row["balancer"]
    row["family"] = family(row)
    return row, data


def read_archive(path):
    """Every run of the archive; raises NotAnArchive when it cannot be read as one."""
    try:
        f = h5py.File(path, "r")
    except OSError as e:
        raise NotAnArchive(f"{path}: not an HDF5 file ({e})") from e
    with f:
        if "runs" not in f:
            raise NotAnArchive(f"{path}: no /runs group (not an lbbench archive)")
        archive = _read_runs(path, f)
        # Archives that store provenance once per invocation (the schema's /invocations/<id>).
        for iid, group in f.get("invocations", {}).items():
            archive.invocations[iid] = {k: _text(v) for k, v in group.attrs.items()}
        return archive


def _read_runs(path, f):
    rows, series, problems = [], {}, []
    for run in iter_runs(f, problems):
        try:
            row, data = _read_run(run, problems)
        except (OSError, KeyError, ValueError) as e:
            problems.append(f"{run.id}: unreadable ({e})")
            continue
        rows.append(row)
        series[run.id] = data
    runs = pd.DataFrame(rows, columns=["run", "label", "family", "steps_recorded"] + TEXT_ATTRS
                        + NUMBER_ATTRS)
    return Archive(path, runs, series=series, problems=problems)
