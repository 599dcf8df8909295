"""What the modules table (runs with execution.record: modules) tells of a run: each module's owner
and cost per step and phase. The set records no (from, to) pair of a migration; a module whose
owner differs from its owner in the record before (its previous step or phase) was moved, so
owner changes are what the timeline and the migration map show."""
import numpy as np
import pandas as pd

from .common import rows_of

LARGEST_P = 256  # a map or timeline of more processors is left out, said so


def module_rows(rs, run_ids):
    """The modules rows of these runs with a finite cost >= 0 and a recorded owner, in each
    module's record order, with `moved_from`: its owner in the record before (-1: none or same)."""
    rows = rows_of(rs, "modules", run_ids)
    if rows.empty or not {"cost", "owner", "phase"} <= set(rows.columns):
        return pd.DataFrame(columns=["run", "step", "phase", "module", "cost", "owner",
                                     "moved_from"])
    rows = rows.reset_index(drop=True).assign(
        cost=pd.to_numeric(rows.cost, errors="coerce").to_numpy(float),
        owner=pd.to_numeric(rows.owner, errors="coerce").to_numpy(float))
    rows = rows[np.isfinite(rows.cost) & (rows.cost >= 0) & (rows.owner >= 0)
                & (rows.owner < LARGEST_P)].astype({"owner": int})
    rows = rows.drop_duplicates(["run", "step", "phase", "module"])
    rows = rows.sort_values(["run", "module", "step", "phase"])
    before = rows.owner.shift()
    same_module = (rows.run == rows.run.shift()) & (rows.module == rows.module.shift())
    moved = same_module & (before != rows.owner)
    return rows.assign(moved_from=np.where(moved, before.fillna(-1), -1).astype(int))


def move_matrix(rows, size):
    """[from, to]: the owner changes in these rows (summed over their runs)."""
    moves = rows[rows.moved_from >= 0]
    matrix = np.zeros((size, size), int)
    np.add.at(matrix, (moves.moved_from.to_numpy(), moves.owner.to_numpy()), 1)
    return matrix
