"""A Python balancer that decides nothing (bench/plugin_decision_bench.cpp, BM_PythonCall): what
a call costs lbbench beyond the script's own work, the view's arrays and the call itself."""


def keep(view, params):
    return None
