"""What each run recorded (`execution.record`, docs/results.md "Record levels"): runs < steps <
procs < modules, each level named after the table it adds to the coarser ones' (runs and
invocations at every level). A figure that needs a table its runs did not record says so."""
import pandas as pd

LEVELS = ("runs", "steps", "procs", "modules")


def recorded(runs):
    """Each run's level as an index into LEVELS: its `record` column, or for a set older than
    the column what every run wrote then (steps and procs; modules with module_detail: true)."""
    blank = pd.Series("", index=runs.index)
    record = (runs["record"] if "record" in runs else blank).fillna("").astype(str)
    yaml = (runs["config_yaml"] if "config_yaml" in runs else blank).fillna("").astype(str)
    older = yaml.str.contains("module_detail: true", regex=False).map(
        {True: "modules", False: "procs"})
    level = record.where(record != "", older)
    return level.map(lambda name: LEVELS.index(name) if name in LEVELS else 0).astype(int)


def lacking(runs, table):
    """The runs whose level wrote no rows of `table` (steps, procs or modules)."""
    return runs[recorded(runs) < LEVELS.index(table)] if len(runs) else runs


def lacking_note(runs, table, what):
    """Why `what` is not drawn for these runs when some recorded no `table` rows, else None."""
    short = lacking(runs, table)
    if short.empty:
        return None
    levels = sorted({LEVELS[k] for k in recorded(short)}, key=LEVELS.index)
    return (f"{what}: {len(short)} of {len(runs)} runs were recorded at execution.record: "
            f"{', '.join(levels)}, which writes no {table} table; it needs record: {table} or "
            "finer (docs/results.md, \"Record levels\")")
