"""Reads an lbbench archive (contract in docs/ARCHITECTURE.md) into one row per run.

Only what the figures plot comes from here: per-run attributes and per-step series. Every
statistic over repetitions (medians, intervals, stars, ties) comes from the table instead
(table_stats.py), so the report and `lbbench table` can never disagree.
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


def _read_run(rid, group, problems):
    row = {"run": rid}
    for a in TEXT_ATTRS:
        row[a] = _text(group.attrs[a]) if a in group.attrs else ""
    for a in NUMBER_ATTRS:
        row[a] = float(group.attrs[a]) if a in group.attrs else np.nan
    data = {}
    for name in STEP_SERIES + PROC_SERIES:
        if name in group:
            data[name] = group[name][:]
        else:
            problems.append(f"{rid}: dataset {name} missing")
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
        archive = _read_runs(path, f["runs"])
        # Archives that store provenance once per invocation (the schema's /invocations/<id>).
        for iid, group in f.get("invocations", {}).items():
            archive.invocations[iid] = {k: _text(v) for k, v in group.attrs.items()}
        return archive


def _read_runs(path, runs_group):
    rows, series, problems = [], {}, []
    for rid, group in runs_group.items():
        try:
            row, data = _read_run(rid, group, problems)
        except (OSError, KeyError, ValueError) as e:
            problems.append(f"{rid}: unreadable ({e})")
            continue
        rows.append(row)
        series[rid] = data
    runs = pd.DataFrame(rows, columns=["run", "label", "family", "steps_recorded"] + TEXT_ATTRS
                        + NUMBER_ATTRS)
    return Archive(path, runs, series=series, problems=problems)
