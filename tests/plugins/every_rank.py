"""examples/balancers/greedy.py's balance, declared to decide on every rank under mpirun
(tests/e2e/python_balancers.sh): each call appends "RANK STEP" to the file params["log"], so the
test sees which ranks decided; `differs` answers differently on each rank and `raising_on_rank_1`
raises on rank 1 alone, each of which must fail the run on both ranks.
"""
import importlib.util
import os

import numpy as np

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location(
    "greedy_example", os.path.join(here, "..", "..", "examples", "balancers", "greedy.py"))
greedy = importlib.util.module_from_spec(spec)
spec.loader.exec_module(greedy)
rank = int(os.environ.get("OMPI_COMM_WORLD_RANK", "0"))


def logged(view, params):
    with open(params["log"], "a") as log:
        log.write(f"{rank} {view.step}\n")
    return greedy.balance(view, {k: v for k, v in params.items() if k != "log"})


def balance(view, params):
    return logged(view, params)


def one_rank(view, params):
    return logged(view, params)


def differs(view, params):
    return np.full(view.modules, rank % view.processors) if view.step >= 1 else None


def raising_on_rank_1(view, params):
    if rank == 1:
        raise ValueError("refusing on rank 1 at step %d" % view.step)


balance.decides_on = "every_rank"
one_rank.decides_on = "one_rank"
differs.decides_on = "every_rank"
raising_on_rank_1.decides_on = "every_rank"
