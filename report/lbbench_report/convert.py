"""lbbench convert ARCHIVE DIR: an archive of schema version 2 or 3 (one HDF5 file) as one part of
the result set DIR (schema version 5), named <archive's name>.converted.0000.h5. Runs that never
ended (status partial) are left out, as a result set holds only ended runs. Tables, columns,
units and meanings come from `lbbench schema`, the table the C++ writer and reader use too.
"""
import argparse
import ctypes
import os
import sys

import h5py
import numpy as np

from . import legacy_archive as legacy
from .results import RENAMED, SEAL_BYTES, VERSION, seal
from .schema import Schema

EXIT_FAILURE, EXIT_BAD_INPUT = 1, 2
ENDED = ("complete", "failed")
DROPPED = {"merged_from", "source_run", "schema_version"}  # the archive's bookkeeping
CHUNK_BYTES = 16 << 20  # as the C++ writer: a chunk of at most 16 MiB, deflate level 3
DEFLATE_LEVEL = 3
MAX_COLUMNS = 4096  # as the C++ writer's kMaxColumns: a table's links stay compact up to it
FILL = {"text": "", "int32": -1, "int64": -1, "float64": np.nan}
DTYPE = {"int32": np.int32, "int64": np.int64, "float64": np.float64}


class ConvertError(ValueError):
    pass


class Table:
    """Rows gathered a block at a time ({column: values}, n rows); a block lacking a column
    holds its type's fill there."""

    def __init__(self, schema, name):
        self.schema, self.name, self.blocks, self.dropped = schema, name, [], set()

    def add(self, n, columns, where):
        kept = {}
        for name, values in columns.items():
            spec = self.schema.column(self.name, name)
            texts = values.dtype.kind not in "iuf" if isinstance(values, np.ndarray) else \
                any(isinstance(v, str) for v in values)
            if spec is None or spec["name"].endswith("*") and texts != (spec["type"] == "text"):
                self.dropped.add(name)  # e.g. a text attribute of an older lbbench
                continue
            if texts != (spec["type"] == "text"):
                raise ConvertError(f"{where}: {name} is {'' if texts else 'not '}text, the schema "
                                   f"says {spec['type']}")
            kept[name] = values
        self.blocks.append((n, kept))

    def rows(self):
        return sum(n for n, _ in self.blocks)

    def names(self):
        """Every named column of the schema, then each family's members, in schema order."""
        present = {name for _, columns in self.blocks for name in columns}
        out = []
        for c in self.schema.tables[self.name][1]:
            if c["name"].endswith("*"):
                out += sorted(n for n in present if n not in out and
                              self.schema.column(self.name, n) is c)
            else:
                out.append(c["name"])
        return out

    def array(self, name):
        kind = self.schema.column(self.name, name)["type"]
        parts = [columns.get(name, [FILL[kind]] * n) for n, columns in self.blocks]
        if kind == "text":
            data = [v.encode("utf-8", "replace") for part in parts for v in part]
            # The dtype carries h5py's UTF-8 mark: HDF5 converts no ASCII memory text to UTF-8.
            width = max([1] + [len(v) for v in data])
            return np.array(data, dtype=h5py.string_dtype("utf-8", width))
        return np.concatenate([_typed(p, kind) for p in parts] or [np.zeros(0, DTYPE[kind])])


def _typed(values, kind):
    """Numbers as the schema's type; an integer column's NaN becomes its fill, -1."""
    a = np.asarray(values, dtype=np.float64 if kind == "float64" else None)
    if a.dtype.kind == "f" and kind != "float64":
        a = np.where(np.isfinite(a), a, -1)
    return a.astype(DTYPE[kind])


def run_id(run):
    """An old id (run-NNNNN-<label>) is unique in its archive only; prefixed by its invocation's
    id (UTC start and a random suffix) it is unique across sets too."""
    return f"{run.attrs.get('invocation') or run.attrs.get('run_uuid') or 'archive'}.{run.id}"


def _run_row(run):
    renamed = RENAMED[4]  # an archive's names are version 4's
    return {renamed.get(k, k): [v] for k, v in run.attrs.items() if k not in DROPPED} | \
        {"run": [run_id(run)]}


def _step_rows(run, tables):
    """The run's steps, procs and modules rows."""
    names = run.names()
    steps = len(run.series("step/makespan")) if "step/makespan" in names else 0
    rid = run_id(run)
    ids, index = [rid] * steps, np.arange(steps)
    step_cols, proc_cols, proc_width = {"run": ids, "step": index}, {}, None
    for name in names:
        kind, leaf = name.split("/", 1)
        if kind != "module":
            values = np.asarray(run.series(name))
            if values.shape[0] != steps or values.ndim != (2 if kind == "proc" else 1):
                raise ConvertError(f"{run.id}: {name} of shape {values.shape}, {steps} steps")
            if kind == "proc":
                if proc_width not in (None, values.shape[1]):
                    raise ConvertError(f"{run.id}: proc/* datasets of different widths")
                proc_width, proc_cols[leaf] = values.shape[1], values.ravel()
            else:
                step_cols[leaf if kind == "step" else f"metric_{leaf}"] = values
    tables["steps"].add(steps, step_cols, run.id)
    if proc_width is not None:
        n = steps * proc_width
        tables["procs"].add(n, {"run": [rid] * n, "step": np.repeat(index, proc_width),
                                "proc": np.tile(np.arange(proc_width), steps)} | proc_cols,
                            run.id)
    _module_rows(run, names, steps, tables["modules"])


def _module_rows(run, names, steps, modules):
    """module/phase_cost, phase_owner [S, F*M] (column phase x M + module), else module/cost,
    owner [S, M] (one phase)."""
    prefix = "module/phase_" if "module/phase_cost" in names else "module/"
    if prefix + "cost" not in names:
        return
    cost = np.asarray(run.series(prefix + "cost"))
    owner = np.asarray(run.series(prefix + "owner")) if prefix + "owner" in names else \
        np.full(cost.shape, -1)
    m = np.asarray(run.series("module/cost")).shape[-1] if "module/cost" in names else \
        int(run.attrs.get("modules", 0))
    if cost.ndim != 2 or cost.shape != owner.shape or cost.shape[0] != steps or m <= 0 or \
            cost.shape[1] % m:
        raise ConvertError(f"{run.id}: {prefix}cost {cost.shape} does not hold {steps} steps of "
                           f"{m} modules")
    phases, n = cost.shape[1] // m, cost.size
    modules.add(n, {"run": [run_id(run)] * n, "step": np.repeat(np.arange(steps), phases * m),
                    "phase": np.tile(np.repeat(np.arange(phases), m), steps),
                    "module": np.tile(np.arange(m), steps * phases), "cost": cost.ravel(),
                    "owner": owner.ravel()}, run.id)


def read_tables(path, schema):
    """The archive's tables and the count of runs left out, by status."""
    tables = {name: Table(schema, name) for name in schema.tables}
    skipped = {}
    with legacy.open_archive(path) as f:
        for run in legacy.iter_runs(f):
            status = run.attrs.get("status", "")
            if status not in ENDED:
                skipped[status] = skipped.get(status, 0) + 1
                continue
            tables["runs"].add(1, _run_row(run), run.id)
            _step_rows(run, tables)
        for iid, attrs in legacy.invocations(f).items():
            row = {k: [v] for k, v in attrs.items() if k not in DROPPED} | {"invocation": [iid]}
            tables["invocations"].add(1, row, f"/invocations/{iid}")
    return tables, skipped


def _text_attribute(obj, name, value):
    data = value.encode("utf-8", "replace")
    width = max(1, len(data))
    obj.attrs.create(name, np.array(data, dtype=f"S{width}"),
                     dtype=h5py.string_dtype("utf-8", width))


def _hdf5_library():
    """The HDF5 library h5py itself runs on (a property list's id is valid in that one alone)."""
    with open("/proc/self/maps") as maps:
        paths = {line.split()[-1] for line in maps if "/libhdf5" in line and "_hl" not in line}
    if len(paths) != 1:
        raise ConvertError(f"cannot tell which HDF5 library h5py uses: {sorted(paths)}")
    return ctypes.CDLL(paths.pop())


def _compact_group(f, name):
    """A group whose links stay compact in its checksummed object header, as the C++ writer's
    (h5_table.cpp): h5py 3.7 cannot set a link phase change, HDF5's C function can."""
    gcpl = h5py.h5p.create(h5py.h5p.GROUP_CREATE)
    set_phase = _hdf5_library().H5Pset_link_phase_change
    set_phase.argtypes = [ctypes.c_int64, ctypes.c_uint, ctypes.c_uint]
    if set_phase(gcpl.id, MAX_COLUMNS + 1, MAX_COLUMNS) < 0:
        raise ConvertError("HDF5 refused a compact link storage for the tables")
    return h5py.Group(h5py.h5g.create(f.id, name.encode(), gcpl=gcpl))


def _write_table(f, table):
    meaning, _ = table.schema.tables[table.name]
    group = _compact_group(f, table.name)
    _text_attribute(group, "meaning", meaning)
    for name in table.names():
        values, spec = table.array(name), table.schema.column(table.name, name)
        options = {}
        if len(values):
            chunk = min(len(values), max(1, CHUNK_BYTES // values.dtype.itemsize))
            options = dict(chunks=(chunk,), compression="gzip", compression_opts=DEFLATE_LEVEL,
                           shuffle=values.dtype.kind != "S", fletcher32=True)
        d = group.create_dataset(name, data=values, **options)
        _text_attribute(d, "unit", spec["unit"])
        _text_attribute(d, "meaning", spec["meaning"])


def part_name(archive):
    stem = os.path.basename(archive).lstrip(".")
    stem = stem[:-3] if stem.endswith(".h5") else stem
    return f"{stem or 'archive'}.converted.0000.h5"


def write_part(directory, name, tables):
    """Writes the part under a hidden name in `directory`, then links it to `name` (never over
    an existing file), so a reader of the set sees it whole or not at all."""
    target = os.path.join(directory, name)
    temp = os.path.join(directory, f".{name}.{os.getpid()}.tmp")
    try:
        with h5py.File(temp, "w-", libver=("v110", "v110"), userblock_size=SEAL_BYTES) as f:
            _text_attribute(f, "schema", "lbbench-results")
            f.attrs.create("schema_version", np.int64(VERSION), dtype=np.int64)
            for table in tables.values():
                _write_table(f, table)
        seal(temp)
        fd = os.open(temp, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        try:
            os.link(temp, target)
        except FileExistsError:
            raise ConvertError(f"{target} exists already (converted before?): not replaced")
    finally:
        if os.path.lexists(temp):
            os.unlink(temp)
    fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
    return target


def check_target(path):
    if os.path.lexists(path) and not os.path.isdir(path):
        raise ConvertError(f"{path}: not a directory (the result set to write into)")


def parse(argv):
    p = argparse.ArgumentParser(prog="lbbench convert", description=(
        "Convert an archive of an older lbbench (one HDF5 file, schema version 2 or 3) into one "
        "part of the result set DIR (created if absent). Runs left partial are not converted."))
    p.add_argument("archive", metavar="ARCHIVE", help="the old archive (.h5)")
    p.add_argument("directory", metavar="DIR", help="the result set to add the part to")
    p.add_argument("--lbbench", default=os.environ.get("LBBENCH", "lbbench"),
                   help=argparse.SUPPRESS)
    return p.parse_args(argv)


def convert(args):
    """Reads the archive and writes its part; the exit status."""
    try:
        schema = Schema(args.lbbench)
    except RuntimeError as e:
        print(f"lbbench convert: {e}", file=sys.stderr)
        return EXIT_FAILURE
    try:
        check_target(args.directory)
        try:
            tables, skipped = read_tables(args.archive, schema)
        except (ValueError, TypeError, OSError, KeyError, IndexError, RuntimeError) as e:
            raise ConvertError(f"{args.archive}: {e}") from e
        os.makedirs(args.directory, exist_ok=True)
        target = write_part(args.directory, part_name(args.archive), tables)
    except (ConvertError, OSError) as e:
        print(f"lbbench convert: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    for table in tables.values():
        if table.dropped:
            print(f"lbbench convert: note: {table.name}: no column in schema version {VERSION} for "
                  f"{', '.join(sorted(table.dropped))}: left out", file=sys.stderr)
    left_out = ", ".join(f"{n} {s or 'without status'}" for s, n in sorted(skipped.items()))
    print(f"convert: {target}: {tables['runs'].rows()} runs, {tables['steps'].rows()} steps, "
          f"{tables['modules'].rows()} module rows, {tables['invocations'].rows()} invocations"
          f"{f' ({left_out} runs not converted: they never ended)' if left_out else ''}")
    return 0


def main(argv=None):
    """Converts in a child process: HDF5 1.10 can crash on a damaged file (seen: a corrupt
    attribute heap), and a crash must still end in one line and exit 2."""
    args = parse(sys.argv[1:] if argv is None else argv)
    sys.stdout.flush()
    pid = os.fork()
    if pid == 0:
        code = convert(args)
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    _, status = os.waitpid(pid, 0)
    if not os.WIFSIGNALED(status):
        return os.WEXITSTATUS(status)
    temp = os.path.join(args.directory, f".{part_name(args.archive)}.{pid}.tmp")
    if os.path.lexists(temp):
        os.unlink(temp)
    print(f"lbbench convert: {args.archive}: the conversion died of signal "
          f"{os.WTERMSIG(status)} (HDF5 crashes on some damaged files)", file=sys.stderr)
    return EXIT_BAD_INPUT


if __name__ == "__main__":
    sys.exit(main())
