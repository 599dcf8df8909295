"""Reads an archive of the lbbench before result sets, for `lbbench convert` alone: one HDF5 file
of schema version 2 or 3 (docs/ARCHITECTURE.md at commit 7886be0, "Archive (contract)"). Its
runs are /runs/<run-id> groups or, from version 3, rows of run tables /tables/<table-id>
(harness/archive/run_tables.h at that commit); /invocations/<id> holds provenance as
attributes and a scalar text dataset hwloc_topology.
"""
import os

import h5py
import numpy as np

VERSIONS = (2, 3)
STEP_GROUPS = ("step", "proc", "metric", "module")
MAX_VALUES = 1 << 26  # a dataset's values, read whole (today's archives: < 2^20)
MAX_TOTAL = 1 << 28  # all datasets' values, read into memory at once (2 GiB of float64)
MAX_OBJECTS = 1 << 20


class ArchiveError(ValueError):
    """Not an lbbench archive of version 2 or 3, or one this reader refuses to read."""


def _scalar(value, where):
    """An attribute as Python's str, int or float."""
    if np.shape(value) != ():
        raise ArchiveError(f"{where} is not a single value")
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    if isinstance(value, str):
        return value
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating):
        return float(value)
    raise ArchiveError(f"{where} is neither text nor a number")


def _check_dataset(d):
    """Its count of values; refuses what lbbench never wrote and what would make a read run away."""
    if d.is_virtual or d.id.get_create_plist().get_external_count() > 0:
        raise ArchiveError(f"{d.name}: stored outside the file (external or virtual): refused")
    values = int(np.prod(d.shape, dtype=np.float64)) if d.shape is not None else 0
    if d.shape is None or len(d.shape) > 2 or values > MAX_VALUES:
        raise ArchiveError(f"{d.name}: shape {d.shape}: not one lbbench writes")
    return values


def check_objects(f):
    """Every object of `f`, each visited once: no soft or external link, no dataset stored
    elsewhere or of an absurd shape (cycles of hard links are visited once)."""
    count, values = 0, 0

    def visit(name, obj):
        nonlocal count, values
        count += 1
        if count > MAX_OBJECTS:
            raise ArchiveError(f"more than {MAX_OBJECTS} objects: not an archive lbbench writes")
        if isinstance(obj, h5py.Dataset):
            values += _check_dataset(obj)
            if values > MAX_TOTAL:
                raise ArchiveError(f"more than {MAX_TOTAL} values: more than this reads at once")
            return None
        for member in obj if isinstance(obj, h5py.Group) else ():
            if not isinstance(obj.get(member, getlink=True), h5py.HardLink):
                raise ArchiveError(f"{obj.name.rstrip('/')}/{member}: a soft or external link: "
                                   "refused")

    visit("/", f)
    f.visititems(visit)


def _vector(holder, name, where, length=None, is_text=False):
    """The one-dimensional dataset `name` of a run table, whole (`length` values when given)."""
    d = holder.get(name)
    if not isinstance(d, h5py.Dataset) or d.ndim != 1 or d.shape[0] != (length or d.shape[0]) \
            or is_text != (h5py.check_string_dtype(d.dtype) is not None):
        raise ArchiveError(f"{where}/{name}: not {'text' if is_text else 'numbers'}, "
                           f"{length or 'some'} values")
    return d.asstr(errors="replace")[()] if is_text else d[()]


class _Steps:
    """The step datasets (step/*, proc/*, metric/*, module/*) of a run group, or of a run table
    (`rows`: its runs' rows together), each read whole once."""

    def __init__(self, group, where, rows=None):
        self.group, self.where, self.rows, self._columns = group, where, rows, {}
        self.names = sorted(f"{kind}/{name}" for kind in STEP_GROUPS
                            if isinstance(group.get(kind), h5py.Group) for name in group[kind])

    def column(self, name):
        if name not in self._columns:
            d = self.group[name]
            if not isinstance(d, h5py.Dataset) or d.ndim not in (1, 2) or \
                    d.shape[0] != (self.rows if self.rows is not None else d.shape[0]):
                raise ArchiveError(f"{self.where}/{name}: not a step dataset of {self.rows} rows")
            self._columns[name] = d[()]
        return self._columns[name]


class _Table(_Steps):
    """One run table: its runs' ids, row ranges and attributes, and its step datasets."""

    def __init__(self, group, where):
        self.ids = [str(i) for i in _vector(group, "run_id", where, is_text=True)]
        rows = _vector(group, "step_rows", where, len(self.ids))
        if rows.dtype.kind != "i" or np.any(rows < 0):
            raise ArchiveError(f"{where}/step_rows: a run's rows out of range")
        self.first = np.concatenate([[0], np.cumsum(rows, dtype=np.int64)]).tolist()
        super().__init__(group, where, self.first[-1])

    def _compound(self, name, kinds):
        if name not in self.group:
            return {}
        d = self.group[name]
        if not isinstance(d, h5py.Dataset) or d.ndim != 1 or d.dtype.names is None or \
                d.shape[0] != len(self.ids) or \
                any(d.dtype.fields[m][0].kind not in kinds for m in d.dtype.names):
            raise ArchiveError(f"{self.where}/{name}: not a record of numbers a run")
        values = d[()]
        return {member: values[member].tolist() for member in d.dtype.names}

    def attributes(self):
        """Each run's attributes: attr_numbers (where attr_present says it has them) and
        attr_texts (indices into attr_text_values, -1 where a run lacks it)."""
        out = [{} for _ in self.ids]
        present = self._compound("attr_present", "i")
        for name, values in self._compound("attr_numbers", "if").items():
            has = present.get(name, [1] * len(out))
            for r, value in enumerate(values):
                if has[r]:
                    out[r][name] = value
        texts = self._compound("attr_texts", "i")
        distinct = _vector(self.group, "attr_text_values", self.where, is_text=True) \
            if texts else []
        for name, codes in texts.items():
            for r, code in enumerate(codes):
                if code >= len(distinct) or code < -1:
                    raise ArchiveError(f"{self.where}/attr_texts: {name}: index out of range")
                if code >= 0:
                    out[r][name] = str(distinct[code])
        return out


class StoredRun:
    """A run, whichever layout holds it: id, attributes (str, int, float) and its rows of the
    step datasets of `source`."""

    def __init__(self, rid, attrs, source, rows=slice(None)):
        self.id, self.attrs, self.source, self.rows = rid, attrs, source, rows

    def names(self):  # "step/makespan", "proc/busy", ..., sorted
        return self.source.names

    def series(self, name):
        return self.source.column(name)[self.rows]


def _group_runs(runs, rid):
    group = runs[rid]
    if not isinstance(group, h5py.Group):
        raise ArchiveError(f"/runs/{rid} is not a group")
    attrs = {k: _scalar(v, f"/runs/{rid} attribute {k}") for k, v in group.attrs.items()}
    return [StoredRun(rid, attrs, _Steps(group, f"/runs/{rid}"))]


def _table_runs(tables, tid):
    table = _Table(tables[tid], f"/tables/{tid}")
    return [StoredRun(rid, attrs, table, slice(table.first[r], table.first[r + 1]))
            for r, (rid, attrs) in enumerate(zip(table.ids, table.attributes()))]


def open_archive(path):
    """The archive at `path`, open for reading, checked; raises ArchiveError."""
    if not os.path.isfile(path):
        raise ArchiveError("no such file")
    try:
        f = h5py.File(path, "r")
    except OSError as e:
        raise ArchiveError("not an HDF5 file, or damaged") from e
    try:
        version = f.attrs.get("schema_version")
        if not isinstance(f.get("runs", getlink=True), h5py.HardLink) or \
                not isinstance(f["runs"], h5py.Group) or not isinstance(version, np.integer):
            raise ArchiveError("not an lbbench archive (no /runs group or no schema_version)")
        if int(version) not in VERSIONS:
            raise ArchiveError(f"schema version {version}: only archives of version 2 or 3 are "
                               "converted")
        check_objects(f)
        return f
    except BaseException:
        f.close()
        raise


def iter_runs(f):
    """Every run of the open archive: /runs/<run-id> groups, then run tables' rows."""
    sources = [(f["runs"], name, _group_runs) for name in f["runs"]]
    tables = f.get("tables", {})
    if not isinstance(tables, (h5py.Group, dict)):
        raise ArchiveError("/tables is not a group")
    sources += [(tables, name, _table_runs) for name in tables]
    seen = set()
    for holder, name, read in sources:
        for run in read(holder, name):
            if run.id in seen:
                raise ArchiveError(f"{run.id}: held twice")
            seen.add(run.id)
            yield run


def invocations(f):
    """{invocation id: {attribute: value}} of /invocations, hwloc_topology among them."""
    out = {}
    for iid, group in f.get("invocations", {}).items():
        if not isinstance(group, h5py.Group):
            raise ArchiveError(f"/invocations/{iid} is not a group")
        attrs = {k: _scalar(v, f"/invocations/{iid} attribute {k}") for k, v in group.attrs.items()}
        topology = group.get("hwloc_topology")
        if isinstance(topology, h5py.Dataset) and topology.shape == () and \
                h5py.check_string_dtype(topology.dtype) is not None:
            attrs["hwloc_topology"] = topology.asstr(errors="replace")[()]
        out[iid] = attrs
    return out
