"""What the report needs of a run beyond the set's columns: its strategy label and family, the
parameters of its sweep point and label, and the columns it reads, present and typed.

Text is parsed by splitting, never by a backtracking regular expression: a set's text is not
bounded, and a pattern such as ([A-Za-z_][\\w.]*)= is quadratic on a long word with no '='."""
import numpy as np
import pandas as pd

from .platform import run_settings

# The Zaki, Li & Parthasarathy (1997) schemes decide when the fastest processor finishes.
FASTEST_FINISH = {"gcdlb", "gddlb", "lcdlb", "lddlb"}
TEXT = ["workload", "balancer", "static", "dynamic", "schedule", "sweep", "status", "error",
        "git_sha", "compiler", "flags", "host", "cpu_model", "omp_env", "openblas",
        "hdf5_version", "started", "finished", "name", "invocation", "mode", "topology"]
NUMBERS = ["processors", "steps", "repetition", "verified", "oversubscribed", "cores",
           "hardware_threads", "available_processors", "makespan_total", "wall_total",
           "ideal_total", "efficiency", "imbalance", "balance_total", "migrations_total",
           "bytes_moved_total", "load_start", "load_end"]


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


def _pairs(text):
    """'n=400 r=800' -> {'n': '400', 'r': '800'}: words of the form key=value, others skipped."""
    pairs = {}
    for word in text.split():
        key, eq, value = word.partition("=")
        if eq and value and (key[:1].isalpha() or key[:1] == "_") and \
                key.replace("_", "a").replace(".", "a").isalnum():
            pairs.setdefault(key, value)
    return pairs


def sweep_params(sweep):
    """'n=400 r=800 processors=2' -> {'n': '400', 'r': '800'}: the sweep point without P."""
    pairs = _pairs(sweep or "")
    pairs.pop("processors", None)
    pairs.pop("platform.processors", None)
    return pairs


def label_params(label):
    """'random(alpha=0.5 threshold=1)' -> ('random', {'alpha': '0.5', 'threshold': '1'})."""
    label = label or ""
    open_at = label.find("(")
    if open_at < 0 or not label.endswith(")"):
        return label, {}
    return label[:open_at], _pairs(label[open_at + 1:-1])


def report_runs(rs):
    """The set's runs as the report reads them: every column it uses present and typed (a
    hostile part may lack one or type it oddly), plus label, family and steps recorded."""
    runs = rs.runs.copy()
    for name in TEXT:
        runs[name] = runs[name].astype(str).where(runs[name].notna(), "") if name in runs else ""
    for name in NUMBERS:
        runs[name] = pd.to_numeric(runs[name], errors="coerce").replace([np.inf, -np.inf], np.nan) \
            if name in runs else np.nan
    runs["load_average"] = runs.load_start
    runs["label"] = runs.balancer
    runs["family"] = [family(r) for r in runs[["schedule", "dynamic"]].to_dict("records")]
    runs["steps_recorded"] = runs.run.map(rs.steps.groupby("run").size()).fillna(0).astype(int)
    return run_settings(runs)
