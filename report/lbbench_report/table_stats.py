"""The one source of the report's statistics: `lbbench table ARCHIVE --format json`.

Medians, 95 % intervals, the baseline ratio, stars and ties are the table's, never recomputed
here. table_rows() returns them as a DataFrame with the columns below, whatever the JSON's
spelling; everything else in the report reads this frame.
"""
import json
import subprocess

import pandas as pd

COLUMNS = ["workload", "label", "processors", "sweep", "n", "headline",
           "makespan_median", "makespan_ci_low", "makespan_ci_high",
           "wall_median", "wall_ci_low", "wall_ci_high",
           "ratio", "ratio_ci_low", "ratio_ci_high",
           "best", "starred", "tied", "baseline", "ranked", "efficiency", "verified"]
# The table's JSON name -> the report's.
RENAMES = {"ranked_by": "headline", "tied_with_best": "tied", "ratio_to_baseline": "ratio"}
CLOCKS = {"modelled": "makespan", "wall": "wall"}  # ranked_by values -> column prefixes


class StatsUnavailable(RuntimeError):
    """lbbench could not produce the table (its message says why)."""


def _run_json(command):
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise StatsUnavailable(f"{' '.join(command)}: exit {done.returncode}: "
                               f"{done.stderr.strip()[-400:]}")
    return json.loads(done.stdout)


def table_rows(lbbench, archive, extra_args=()):
    """The table of one archive, one row per configuration (workload, label, P, sweep)."""
    rows = _run_json([lbbench, "table", archive, "--format", "json", *extra_args])
    return normalise(rows)


def compare_rows(lbbench, archive_a, archive_b, extra_args=()):
    """`lbbench compare A B`: one row per configuration, status matched, only_a or only_b."""
    rows = _run_json([lbbench, "compare", archive_a, archive_b, "--format", "json", *extra_args])
    return pd.DataFrame([_flatten(r) for r in rows])


def normalise(rows):
    frame = pd.DataFrame([_flatten(r) for r in rows]).rename(columns=RENAMES)
    for c in COLUMNS:
        if c not in frame:
            frame[c] = None
    # The table names each row's baseline (a label); the report asks "is this the baseline?".
    frame["baseline"] = [b is True or (isinstance(b, str) and b == lab)
                         for b, lab in zip(frame.baseline, frame.label)]
    frame["headline"] = frame.headline.map(lambda c: CLOCKS.get(c, c))
    for c in ["best", "starred", "tied", "baseline", "ranked"]:
        frame[c] = frame[c].fillna(False).astype(bool)
    for c in COLUMNS[5:15] + ["efficiency"]:
        if c != "headline":
            frame[c] = pd.to_numeric(frame[c], errors="coerce")
    return frame[COLUMNS]


def _flatten(row):
    """One JSON row to the report's column names (nested per-clock objects flattened)."""
    out = {}
    for key, value in row.items():
        if isinstance(value, dict):
            for sub, v in value.items():
                out[f"{key}_{sub}"] = v
        else:
            out[key] = value
    return out


def interim_rows(archive):  # TEMPORARY: see interim_table.py
    from . import interim_table
    return normalise(interim_table.rows_from_archive(archive))


def interim_compare(a, b):  # TEMPORARY: see interim_table.py
    from . import interim_table
    return pd.DataFrame([_flatten(r) for r in interim_table.compare_from_archives(a, b)])
