"""In-place edits of an archive's runs, whichever layout holds them (archive_runs.StoredRun from
a file opened r+), for the tests that damage or rescale archives on purpose: set or remove one
run's attribute, and cut a run to its first steps as a crash leaves it. Each keeps `run.attrs`
in step with the file; cut_steps moves a row out of its table, so read the runs again after
it."""
import h5py
import numpy as np

TEXT = h5py.string_dtype()


def _replace(group, name, data, dtype=None):
    if name in group:
        del group[name]
    group.create_dataset(name, data=data, dtype=dtype)


def _runs_in(table):
    return table["run_id"].shape[0]


def set_attr(run, name, value):
    """Sets attribute `name` of `run` (str, int or float, as the schema types it)."""
    run.attrs[name] = value
    if run.group is not None:
        run.group.attrs[name] = value
        return
    t, k = run.table, run.row
    if isinstance(value, str):
        distinct = list(t["text/" + name].asstr()[()]) if f"text/{name}" in t else []
        codes = t["attr/" + name][()] if f"attr/{name}" in t else \
            np.full(_runs_in(t), -1, dtype=np.int32)
        if value not in distinct:
            distinct.append(value)
            _replace(t, "text/" + name, distinct, TEXT)
        codes[k] = distinct.index(value)
        _replace(t, "attr/" + name, codes, np.int32)
        return
    if f"attr/{name}" not in t:  # the first run of the table to have it
        _replace(t, "attr/" + name, np.zeros(_runs_in(t), type(value)))
        _replace(t, "present/" + name, np.zeros(_runs_in(t), np.int32))
    t["attr/" + name][k] = value
    if f"present/{name}" in t:
        t["present/" + name][k] = 1


def del_attr(run, name):
    """Removes attribute `name` from `run`, as the writer leaves an attribute a run lacks."""
    run.attrs.pop(name, None)
    if run.group is not None:
        if name in run.group.attrs:
            del run.group.attrs[name]
        return
    t, k = run.table, run.row
    if f"attr/{name}" not in t:
        return
    if f"text/{name}" in t:
        t["attr/" + name][k] = -1
        return
    if f"present/{name}" not in t:
        _replace(t, "present/" + name, np.ones(_runs_in(t), np.int32))
    t["present/" + name][k] = 0


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
    names = ["run_id", "step_rows"] + [f"{sub}/{m}" for sub in ("attr", "present")
                                       if sub in t for m in t[sub]]
    for name in names:
        d = t[name]
        _replace(t, name, d[()][keep_run], d.dtype)
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
