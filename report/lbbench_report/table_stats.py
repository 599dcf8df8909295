"""The one source of the report's statistics: `lbbench table SET --format json`.

Medians, 95 % intervals, the baseline ratio and the verdicts are the table's, never recomputed
here. table_rows() returns them as a DataFrame with the columns below, whatever the JSON's
spelling; everything else in the report reads this frame.
"""
import json
import subprocess

import pandas as pd

NUMBERS = ["makespan_median", "makespan_ci_low", "makespan_ci_high", "makespan_ci_level",
           "makespan_min", "makespan_max", "makespan_cv",
           "wall_median", "wall_ci_low", "wall_ci_high", "wall_ci_level",
           "wall_min", "wall_max", "wall_cv",
           "ratio", "ratio_ci_low", "ratio_ci_high", "p_vs_best", "delta", "efficiency"]
COLUMNS = ["workload", "label", "processors", "sweep", "n", "headline", *NUMBERS,
           "best", "verdict", "baseline", "ranked", "verified"]
# The table's JSON name -> the report's.
RENAMES = {"ranked_by": "headline", "ratio_to_baseline": "ratio"}
CLOCKS = {"modelled": "makespan", "wall": "wall"}  # ranked_by values -> column prefixes


class StatsUnavailable(RuntimeError):
    """lbbench refused or failed to produce the table: its message, and its exit status."""

    def __init__(self, message, code=1):
        super().__init__(message)
        self.code = code


def _run_json(command):
    try:
        done = subprocess.run(command, capture_output=True, text=True)
    except OSError as e:
        raise StatsUnavailable(f"cannot run {command[0]}: {e}") from e
    if done.returncode != 0:
        raise StatsUnavailable(f"{command[1]}: {done.stderr.strip()[-400:] or 'no message'}",
                               done.returncode if done.returncode > 0 else 1)
    try:
        return json.loads(done.stdout)
    except ValueError as e:
        raise StatsUnavailable(f"{command[1]}: its JSON does not parse ({e})") from e


def _rows_and_parts(answer):
    """The rows, and the parts read where the answer names them ({"rows": .., "parts": ..})."""
    if isinstance(answer, dict):
        return answer.get("rows", []), answer.get("parts")
    return answer, None


def table_rows(lbbench, result_set, extra_args=()):
    """The table of one set, one row per configuration (workload, label, P, sweep), and the
    parts it read (None when the table does not name them: then every part is read)."""
    rows, parts = _rows_and_parts(_run_json([lbbench, "table", result_set, "--format", "json",
                                             *extra_args]))
    return normalise(rows), parts


def compare_rows(lbbench, set_a, set_b, extra_args=()):
    """`lbbench compare A B`: one row per configuration, status matched, only_a or only_b."""
    rows, _ = _rows_and_parts(_run_json([lbbench, "compare", set_a, set_b, "--format", "json",
                                         *extra_args]))
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
    for c in ["best", "baseline", "ranked"]:
        frame[c] = frame[c].fillna(False).astype(bool)
    for c in NUMBERS:
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
