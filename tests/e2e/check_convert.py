"""check_convert.py SCHEMA_JSON ARCHIVE PART: the part `lbbench convert` made of ARCHIVE holds its
ended runs, their steps, processors, modules and invocations, value for value, each table and
column described as `lbbench schema` (SCHEMA_JSON) says. ARCHIVE is read here with h5py alone
(schema version 2 or 3: /runs/<id> groups and /tables/<id> run tables), not by the converter's
reader, so the two readings check each other."""
import json
import sys

import h5py
import numpy as np

schema_path, archive_path, part_path = sys.argv[1:4]
schema = {t["name"]: t for t in json.load(open(schema_path))["tables"]}
TYPES = {"int32": np.int32, "int64": np.int64, "float64": np.float64}


def spec(table, name):
    cols = schema[table]["columns"]
    exact = [c for c in cols if c["name"] == name]
    family = [c for c in cols if c["name"].endswith("*") and name.startswith(c["name"][:-1])]
    assert exact or family, f"{table}/{name}: not in the schema"
    return (exact or family)[0]


def old_runs(f):
    """{old run id: (attributes, {dataset: values})} from both layouts."""
    runs = {}
    for rid, g in f["runs"].items():
        data = {f"{k}/{n}": g[k][n][()] for k in ("step", "proc", "metric", "module") if k in g
                for n in g[k]}
        runs[rid] = ({k: v.decode() if isinstance(v, bytes) else v for k, v in g.attrs.items()},
                     data)
    for t in f.get("tables", {}).values():
        ids = t["run_id"].asstr()[:]
        first = np.concatenate([[0], np.cumsum(t["step_rows"][:])])
        numbers, texts = t["attr_numbers"][:], t["attr_texts"][:]
        values = t["attr_text_values"].asstr()[:]
        present = t["attr_present"][:] if "attr_present" in t else None
        for r, rid in enumerate(ids):
            attrs = {n: numbers[n][r].item() for n in numbers.dtype.names
                     if present is None or n not in present.dtype.names or present[n][r]}
            attrs |= {n: values[texts[n][r]] for n in texts.dtype.names if texts[n][r] >= 0}
            data = {f"{k}/{n}": t[k][n][first[r]:first[r + 1]] for k in ("step", "proc", "metric",
                                                                          "module") if k in t
                    for n in t[k]}
            runs[rid] = (attrs, data)
    return runs


def read_table(part, name):
    g = part[name]
    assert g.attrs["meaning"].decode() == schema[name]["meaning"], name
    lengths = {ds.shape for ds in g.values()}
    assert len(lengths) == 1 and len(next(iter(lengths))) == 1, f"{name}: columns {lengths}"
    out = {}
    for col, ds in g.items():
        s = spec(name, col)
        assert ds.attrs["unit"].decode() == s["unit"] and ds.attrs["meaning"].decode() == \
            s["meaning"], f"{name}/{col}: unit or meaning"
        if s["type"] == "text":
            info = h5py.check_string_dtype(ds.dtype)
            assert ds.dtype.kind == "S" and info.encoding == "utf-8" and info.length, col
            out[col] = ds.asstr()[:]
        else:
            assert ds.dtype == TYPES[s["type"]], f"{name}/{col}: {ds.dtype}, not {s['type']}"
            out[col] = ds[:]
    for c in schema[name]["columns"]:
        assert c["name"].endswith("*") or c["name"] in out, f"{name}: no column {c['name']}"
    return out


def check():
    with h5py.File(archive_path, "r") as f, h5py.File(part_path, "r") as part:
        assert part.attrs["schema"].decode() == "lbbench-results"
        assert part.attrs["schema_version"] == 5 and part.attrs["schema_version"].dtype == np.int64
        runs, steps, procs, modules, invocations = (read_table(part, t) for t in (
            "runs", "steps", "procs", "modules", "invocations"))
        old = old_runs(f)
        ended = {rid: v for rid, v in old.items() if v[0]["status"] in ("complete", "failed")}
        assert len(runs["run"]) == len(ended), (len(runs["run"]), len(ended))
        for rid, (attrs, data) in ended.items():
            new = f"{attrs['invocation']}.{rid}"
            (row,) = np.flatnonzero(runs["run"] == new)
            for a in ("workload", "balancer", "status", "processors", "steps", "makespan_total",
                      "config_yaml"):
                assert runs[a][row] == attrs[a], (rid, a, runs[a][row], attrs[a])
            mine = steps["run"] == new
            assert np.array_equal(steps["step"][mine], np.arange(len(data["step/makespan"])))
            assert np.array_equal(steps["makespan"][mine], data["step/makespan"])
            for name in (n for n in data if n.startswith("metric/")):
                assert np.array_equal(steps["metric_" + name[7:]][mine], data[name],
                                      equal_nan=True)
            mine = procs["run"] == new
            assert np.array_equal(procs["busy"][mine], data["proc/busy"].ravel())
            assert np.array_equal(procs["proc"][mine][:data["proc/busy"].shape[1]],
                                  np.arange(data["proc/busy"].shape[1]))
            check_modules(modules, new, data, attrs["modules"])
        assert len(steps["run"]) == sum(len(d["step/makespan"]) for _, d in ended.values())
        ids = sorted(f["invocations"])
        assert sorted(invocations["invocation"]) == ids
        for k, iid in enumerate(invocations["invocation"]):
            g = f["invocations"][iid]
            assert invocations["hwloc_topology"][k] == g["hwloc_topology"].asstr()[()]
            assert invocations["command"][k] == g.attrs["command"]
            assert invocations["git_dirty"][k] == g.attrs["git_dirty"]
    print(f"check_convert: {part_path}: {len(runs['run'])} runs of {len(old)}, "
          f"{len(steps['run'])} steps, {len(modules['run'])} module rows: OK")


def check_modules(modules, new, data, m):
    """Rows (step, phase, module) in that order, phase_cost's column phase x M + module."""
    mine = modules["run"] == new
    cost = data.get("module/phase_cost", data.get("module/cost"))
    if cost is None:
        assert not mine.any()
        return
    st, ph, k = (modules[c][mine] for c in ("step", "phase", "module"))
    phases = cost.shape[1] // m
    assert np.array_equal((st * phases + ph) * m + k, np.arange(cost.size)), "row order"
    assert np.array_equal(modules["cost"][mine], cost[st, ph * m + k])
    owner = data.get("module/phase_owner", data.get("module/owner"))
    assert np.array_equal(modules["owner"][mine], owner[st, ph * m + k])


check()
