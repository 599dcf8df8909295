"""Python balancers that misbehave on purpose, one function each (tests/python_balancer_test.cpp,
tests/e2e/python_balancers.sh): lbbench must refuse every answer with a message naming the
script, the function, the step and the problem. Each behaves at step 0 and misbehaves later."""
import numpy as np

kept = []


def wrong_length(view, params):
    return None if view.step < 1 else np.zeros(view.modules + 1, np.int64)


def out_of_range(view, params):
    return None if view.step < 1 else np.full(view.modules, view.processors)


def huge(view, params):
    return None if view.step < 1 else np.full(view.modules, 2**40)


def floats(view, params):
    return None if view.step < 1 else np.zeros(view.modules)


def raising(view, params):
    if view.step >= 1:
        raise ValueError("refusing on purpose at step %d" % view.step)


def keeps_view(view, params):
    if view.step >= 1:
        kept.append(view.cost[1:])


def writes_view(view, params):
    if view.step >= 1:
        view.cost[0] = 1.0


def moves_all_to_0(view, params):
    return np.zeros(view.modules, np.int32)


def same(view, params):
    return view.owner


def echo_params(view, params):
    if params != {"a": "1", "b": "x y"}:
        raise ValueError(f"params {params}")


def raising_at_once(view, params):
    raise ValueError("refusing at step %d" % view.step)


def bad_decides_on(view, params):
    return None


bad_decides_on.decides_on = "everywhere"
