"""What the report needs of a run beyond the set's columns: its strategy label and family (from
the set's own runs), the parameters of its sweep point and label, and the runs' columns present
and typed as `lbbench schema` describes them.

Text is parsed by splitting, never by a backtracking regular expression: a set's text is not
bounded, and a pattern such as ([A-Za-z_][\\w.]*)= is quadratic on a long word with no '='."""
import numpy as np
import pandas as pd

from .platform import run_settings


def fastest_finish(rs):
    """The dynamic balancers that decide when the fastest processor finishes (Zaki, Li &
    Parthasarathy 1997's schemes, or `auto` choosing one), as the set's runs show them: those of
    which a run's processor triggered an in-step synchronisation (procs' `triggered`)."""
    procs, runs = rs.procs, rs.runs
    if procs.empty or "triggered" not in procs or "dynamic" not in runs:
        return set()
    synchronised = set(procs.run[pd.to_numeric(procs.triggered, errors="coerce") > 0])
    return set(runs.dynamic[runs.run.isin(synchronised)].astype(str))


def family(row, fastest):
    """The strategy family a run belongs to, for colouring and for what the headline can rank;
    fastest: the names of the fastest-finish dynamic balancers."""
    if row.get("schedule"):
        return "in-step schedule"
    dynamic = row.get("dynamic", "")
    if dynamic in fastest:
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


def report_runs(rs, schema):
    """The set's runs as the report reads them: every column `lbbench schema` (schema) names for
    the runs table present and typed as it says (a hostile part may lack one or type it oddly),
    plus label, family and steps recorded."""
    runs, typed = rs.runs, {}
    for spec in schema.named_columns("runs"):
        name = spec["name"]
        if spec["type"] == "text":
            typed[name] = runs[name].astype(str).where(runs[name].notna(), "") if name in runs \
                else ""
        else:
            typed[name] = pd.to_numeric(runs[name], errors="coerce").replace(
                [np.inf, -np.inf], np.nan) if name in runs else np.nan
    # One frame of them, not a column at a time (pandas warns of a fragmented frame at ~100).
    runs = pd.concat([runs.drop(columns=[c for c in typed if c in runs]),
                      pd.DataFrame(typed, index=runs.index)], axis=1)
    runs["load_average"] = runs.load_start
    runs["label"] = runs.balancer
    fastest = fastest_finish(rs)
    runs["family"] = [family(r, fastest) for r in runs[["schedule", "dynamic"]].to_dict("records")]
    runs["steps_recorded"] = runs.run.map(rs.steps.groupby("run").size()).fillna(0).astype(int)
    return run_settings(runs)
