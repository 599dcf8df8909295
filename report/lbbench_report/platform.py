"""Each run's emulated platform, in words: processor speeds and the external load, as its resolved
config (runs/config_yaml) sets them, and the external load the procs table measured."""
import numpy as np
import pandas as pd
import yaml

LONGEST = 400  # characters of a set's value shown (the config in the set has it whole)
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's where PyYAML has it


def _setting(config_yaml):
    """(speeds, external load) of one resolved config, each as text ('' where unset)."""
    try:
        platform = (yaml.load(config_yaml, Loader=LOADER) or {}).get("platform") or {}
    except (yaml.YAMLError, AttributeError, RecursionError):
        return "not readable", "not readable"
    if not isinstance(platform, dict):
        return "not readable", "not readable"
    speeds = platform.get("speeds") or []
    speeds = ", ".join(f"{s:g}" if isinstance(s, (int, float)) else str(s)
                       for s in speeds) if isinstance(speeds, list) else str(speeds)
    load = platform.get("external_load") or 0
    if load:
        load = (f"up to {_levels(load)}, each level lasting "
                f"{platform.get('load_persist_s', '?')} s, seed {platform.get('load_seed', '?')}")
    return speeds[:LONGEST], str(load or "")[:LONGEST]


def _levels(load):
    """The largest load levels in words: a number is every processor's; a pattern (last:1,
    first2:0.5) names its processors, the rest unloaded."""
    if not isinstance(load, str):
        return str(load)
    items = [item.split(":", 1) + [""] for item in load.split(",")]
    text = ", ".join(f"{level} on {who}" for who, level, *_ in items)
    return text if any(who == "all" for who, *_ in items) else text + ", none elsewhere"


def run_settings(runs):
    """runs with `speeds` and `external_load_set` columns (text, '' where the config sets none:
    every processor at speed 1, no external load)."""
    texts = runs.config_yaml.astype(str) if "config_yaml" in runs else pd.Series("", runs.index)
    parsed = {text: _setting(text) for text in texts.unique()}  # one config, many repetitions
    return runs.assign(speeds=[parsed[t][0] for t in texts],
                       external_load_set=[parsed[t][1] for t in texts])


def measured_load(procs, run_ids):
    """The mean emulated load level of each processor over these runs' steps (empty when none)."""
    rows = procs[procs.run.isin(run_ids)] if "external_load" in procs else procs.iloc[:0]
    load = pd.to_numeric(rows.get("external_load", pd.Series(dtype=float)), errors="coerce")
    if rows.empty or not np.isfinite(load).any():
        return pd.Series(dtype=float)
    return load.groupby(rows.proc).mean()


def describe(runs, procs):
    """One line of the platform of a group of runs: speeds, external load set and measured."""
    speeds = sorted(set(runs.speeds))
    loads = sorted(set(runs.external_load_set))
    text = "speeds: " + " | ".join(s or "1 on every processor" for s in speeds)
    text += "; external load: " + " | ".join(s or "none" for s in loads)
    mean = measured_load(procs, runs.run)
    if (mean > 0).any():
        text += "; measured mean per processor: " + " ".join(f"{v:.2f}" for v in mean)
    return text

