"""In-place edits of an archive's runs, whichever layout holds them (archive_runs.StoredRun from
a file opened r+), for the tests that damage or rescale archives on purpose: set or remove one
run's attribute, and cut a run to its first steps as a crash leaves it. Each keeps `run.attrs`
in step with the file; cut_steps moves a row out of its table, so read the runs again after
it. A table's attributes are left as the writer would write them (harness/archive/run_tables.h):
attr_present only for a number some run lacks, no member no run has, each text once in
attr_text_values."""
import h5py
import numpy as np

TEXT = h5py.string_dtype()


def _replace(group, name, data, dtype=None):
    if name in group:
        del group[name]
    group.create_dataset(name, data=data, dtype=dtype)


def _runs_in(table):
    return table["run_id"].shape[0]


class _Attributes:
    """A run table's attributes as columns: numbers, present, texts ({member: array [R]}) and
    values (attr_text_values, a list); save() writes them back whole."""
    COMPOUNDS = (("numbers", "attr_numbers"), ("present", "attr_present"),
                 ("texts", "attr_texts"))

    def __init__(self, table):
        self.table = table
        for field, name in self.COMPOUNDS:
            records = table[name][()] if name in table else None
            setattr(self, field, {} if records is None else
                    {m: records[m].copy() for m in records.dtype.names})
        self.values = list(table["attr_text_values"].asstr()[()]) \
            if "attr_text_values" in table else []

    def keep(self, rows):
        """Keeps the runs where the boolean array `rows` is true."""
        for field, _ in self.COMPOUNDS:
            columns = getattr(self, field)
            for m in columns:
                columns[m] = columns[m][rows]

    def _tidy(self):
        for m, has in list(self.present.items()):
            if np.all(has == 1):  # every run has it
                del self.present[m]
            elif np.all(has == 0):  # no run has it
                del self.present[m], self.numbers[m]
        for m, codes in list(self.texts.items()):
            if np.all(codes == -1):
                del self.texts[m]
        used = sorted({int(c) for codes in self.texts.values() for c in codes if c >= 0})
        index = np.full(len(self.values) + 1, -1, dtype=np.int32)  # index[-1]: -1 stays -1
        index[used] = np.arange(len(used), dtype=np.int32)
        self.texts = {m: index[codes] for m, codes in self.texts.items()}
        self.values = [self.values[c] for c in used]

    def save(self):
        self._tidy()
        for field, name in self.COMPOUNDS:
            columns = getattr(self, field)
            if name in self.table:
                del self.table[name]
            if columns:  # members sorted by name, as the writer's
                records = np.empty(_runs_in(self.table),
                                   dtype=[(m, columns[m].dtype) for m in sorted(columns)])
                for m, values in columns.items():
                    records[m] = values
                self.table.create_dataset(name, data=records)
        if "attr_text_values" in self.table:
            del self.table["attr_text_values"]
        if self.texts:
            self.table.create_dataset("attr_text_values", data=self.values, dtype=TEXT)


def set_attr(run, name, value):
    """Sets attribute `name` of `run` (str, int or float, as the schema types it)."""
    run.attrs[name] = value
    if run.group is not None:
        run.group.attrs[name] = value
        return
    a, k, n = _Attributes(run.table), run.row, _runs_in(run.table)
    if isinstance(value, str):
        if value not in a.values:
            a.values.append(value)
        a.texts.setdefault(name, np.full(n, -1, dtype=np.int32))[k] = a.values.index(value)
    else:
        if name not in a.numbers:  # the first run of the table to have it
            integer = np.asarray(value).dtype.kind in "iu"
            a.numbers[name] = np.zeros(n, np.int64) if integer else np.full(n, np.nan)
            a.present[name] = np.zeros(n, np.int32)
        a.numbers[name][k] = value
        if name in a.present:
            a.present[name][k] = 1
    a.save()


def del_attr(run, name):
    """Removes attribute `name` from `run`, as the writer leaves an attribute a run lacks."""
    run.attrs.pop(name, None)
    if run.group is not None:
        if name in run.group.attrs:
            del run.group.attrs[name]
        return
    a, k, n = _Attributes(run.table), run.row, _runs_in(run.table)
    if name in a.texts:
        a.texts[name][k] = -1
    elif name in a.numbers:
        column = a.numbers[name]
        column[k] = 0 if column.dtype.kind in "iu" else np.nan
        a.present.setdefault(name, np.ones(n, np.int32))[k] = 0
    else:
        return
    a.save()


def _drop_row(run):
    """Takes `run` out of its table (the table goes with its last run)."""
    t, k = run.table, run.row
    n = _runs_in(t)
    if n == 1:
        del t.parent[t.name.rsplit("/", 1)[1]]
        return
    rows = t["step_rows"][()]
    first = int(rows[:k].sum())
    keep_run = np.arange(n) != k
    keep_step = np.ones(int(rows.sum()), dtype=bool)
    keep_step[first:first + int(rows[k])] = False
    a = _Attributes(t)
    a.keep(keep_run)
    for name in ("run_id", "step_rows"):
        d = t[name]
        _replace(t, name, d[()][keep_run], d.dtype)
    a.save()
    for name in run.names():
        d = t[name]
        _replace(t, name, d[()][keep_step], d.dtype)


def cut_steps(f, run, steps):
    """Keeps the first `steps` steps of `run` in a /runs/<run-id> group of extendible datasets:
    how a run still being written when the process died is left (a table holds ended runs
    only, and a finished run's datasets are fixed-size; docs/ARCHITECTURE.md, "Archive layout").
    Returns the group."""
    data = {name: run.series(name)[:steps] for name in run.names()}
    if run.group is None:
        _drop_row(run)
        run.group = f["runs"].create_group(run.id)
        for name, value in run.attrs.items():
            run.group.attrs[name] = value
        run.table = None
    for name, rows in data.items():
        if name in run.group:
            del run.group[name]
        run.group.create_dataset(name, data=rows, chunks=True, maxshape=(None,) + rows.shape[1:])
    return run.group
