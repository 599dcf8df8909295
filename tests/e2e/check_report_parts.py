#!/usr/bin/python3
"""Checks the report's tables and module figures against the set, read here with h5py alone:
the provenance has one row per invocation with its host, commit and load averages; each verdict
table has the numbers `lbbench table` gave (TABLE_JSON) and the group's speeds and external load;
the timeline's spans are the chosen run's module costs; each migration map counts the owner
changes of the modules table.
usage: check_report_parts.py SET REPORT_DIR TABLE_JSON TIMELINE_RUN|default"""
import glob
import json
import sys
from html.parser import HTMLParser

import h5py
import numpy as np
import pandas as pd


def fail(msg):
    print("check_report_parts: " + msg)
    sys.exit(1)


def read(result_set, table):
    frames = []
    for part in sorted(glob.glob(f"{result_set}/*.h5")):
        with h5py.File(part, "r") as f:
            frames.append(pd.DataFrame({c: f[table][c].asstr()[:] if f[table][c].dtype.kind == "S"
                                        else f[table][c][:] for c in f[table]}))
    return pd.concat(frames, ignore_index=True)


class Tables(HTMLParser):
    """Every <table>: its class, its rows of cell texts, and the h3 and p.platform before it."""

    def __init__(self):
        super().__init__()
        self.tables, self.text, self.h3, self.platform, self.inside = [], None, "", "", None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "table":
            self.tables.append({"class": attrs.get("class"), "rows": [], "h3": self.h3,
                                "platform": self.platform})
        elif tag == "tr" and self.tables:
            self.tables[-1]["rows"].append([])
        elif tag in ("td", "th", "h3") or (tag == "p" and attrs.get("class") == "platform"):
            self.text, self.inside = "", tag

    def handle_data(self, data):
        if self.text is not None:
            self.text += data

    def handle_endtag(self, tag):
        if tag != self.inside:
            return
        if tag in ("td", "th"):
            self.tables[-1]["rows"][-1].append(self.text)
        elif tag == "h3":
            self.h3 = self.text
        else:
            self.platform = self.text
        self.text, self.inside = None, None


def span(values):
    low, high = values.min(), values.max()
    return f"{low:.2f}" if low == high else f"{low:.2f}-{high:.2f}"


def check_provenance(tables, runs):
    table = next(t for t in tables if t["class"] == "provenance")
    head, rows = table["rows"][0], [r for r in table["rows"][1:] if r[0]]
    if len(rows) != runs.invocation.nunique():
        fail(f"{len(rows)} provenance rows, {runs.invocation.nunique()} invocations")
    for row in rows:
        cell = dict(zip(head, row))
        mine = runs[runs.invocation == cell["invocation"]]
        if mine.empty:
            fail(f"provenance names {cell['invocation']!r}, an invocation the set has no run of")
        want = {"host": mine.host.iloc[0], "commit": mine.git_sha.iloc[0], "runs": str(len(mine)),
                "load average (start)": span(mine.load_start),
                "load average (end)": span(mine.load_end), "started": min(mine.started)}
        for key, value in want.items():
            if cell[key] != value:
                fail(f"provenance {cell['invocation']} {key}: {cell[key]!r}, the set: {value!r}")


def number(text):
    return float(text) if text else np.nan


def check_verdicts(tables, table_json, procs):
    verdicts = [t for t in tables if t["class"] == "verdict"]
    rows = json.load(open(table_json))
    if sum(len(t["rows"]) - 1 for t in verdicts) != len(rows):
        fail(f"verdict tables have {sum(len(t['rows']) - 1 for t in verdicts)} rows, the table "
             f"{len(rows)}")
    for t in verdicts:
        head = t["rows"][0]
        for row in t["rows"][1:]:
            cell = dict(zip(head, row))
            r = next(r for r in rows if r["label"] == cell["balancer"]
                     and t["h3"].startswith(f"{r['workload']}, P={r['processors']}"))
            clock = "makespan" if r["ranked_by"] == "modelled" else "wall"
            median = number(cell[f"median {clock} (s)"])
            if not np.isclose(median, r[clock]["median"], rtol=5e-4):
                fail(f"{cell['balancer']}: median {median}, the table {r[clock]['median']}")
            ratio = cell["ratio to baseline [95 %]"]
            if (ratio == "baseline") != (r["baseline"] == r["label"]) or ratio != "baseline" \
                    and not np.isclose(number(ratio.split()[0]), r["ratio_to_baseline"],
                                       rtol=5e-3):
                fail(f"{cell['balancer']}: ratio {ratio!r}, the table {r['ratio_to_baseline']}")
            if r["ranked"] and r["verdict"] and \
                    not cell["verdict"].startswith(r["verdict"]):
                fail(f"{cell['balancer']}: verdict {cell['verdict']!r}, the table {r}")
    return verdicts


def check_platform(verdicts, runs, procs):
    """The external_load config's group: its speeds, load set and the mean load measured."""
    t = next(t for t in verdicts if t["h3"].startswith("block_substitution, P=3"))
    loaded = runs[(runs.name == "external_load")].run
    mean = procs[procs.run.isin(loaded)].groupby("proc").external_load.mean()
    want = ["speeds: 1, 1, 0.5", "external load: up to 1, each level lasting 0.05 s, seed 7",
            "measured mean per processor: " + " ".join(f"{v:.2f}" for v in mean)]
    for words in want:
        if words not in t["platform"]:
            fail(f"platform line {t['platform']!r} lacks {words!r}")


def owner_changes(modules):
    """Summed over runs: [from, to] modules whose owner changed between consecutive records."""
    m = modules.sort_values(["run", "module", "step", "phase"])
    same = (m.run == m.run.shift()) & (m.module == m.module.shift())
    moved = same & (m.owner != m.owner.shift())
    counts = np.zeros((3, 3), int)
    for a, b in zip(m.owner.shift()[moved].astype(int), m.owner[moved]):
        counts[a, b] += 1
    return counts


def check_modules(out, runs, modules, timeline_run):
    figures = json.load(open(f"{out}/figures.json"))
    timeline = [f for f in figures if f["section"] == "Timeline of one run"]
    if timeline_run == "default":  # a run that moved modules; where none did, any with detail
        detailed = runs[runs.run.isin(modules.run)]
        moved = detailed[detailed.migrations_total > 0].run
        pool = moved if len(moved) else detailed.run
        timeline_run = next((r for r in pool if timeline and r in timeline[0]["title"]), "")
    if len(timeline) != 1 or not timeline_run or timeline_run not in timeline[0]["title"]:
        fail(f"no timeline of {timeline_run or 'a run that moved modules'}: "
             f"{[f['title'] for f in timeline]}")
    spans = pd.read_csv(f"{out}/{timeline[0]['key']}.csv")
    own = modules[(modules.run == timeline_run) & modules.step.isin(spans.step)]
    want = own.groupby(["step", "owner"]).cost.sum()
    got = spans.groupby(["step", "proc"]).cost.sum()
    if len(want) != len(got) or not np.allclose(want.to_numpy(), got.to_numpy(), rtol=1e-9):
        fail(f"timeline costs per step and processor {got.tolist()}, the set {want.tolist()}")
    ends = spans.start + spans.cost
    for (step, proc), g in spans.groupby(["step", "proc"]):  # end to end, never overlapping
        if (g.start.to_numpy()[1:] < ends[g.index].to_numpy()[:-1] - 1e-12).any():
            fail(f"timeline: spans of step {step} overlap on processor {proc}")
    if (spans.groupby("step").start.min().to_numpy()[1:]
            < ends.groupby(spans.step).max().to_numpy()[:-1] - 1e-12).any():
        fail("timeline: a step starts before the one before it ended")
    maps = [f for f in figures if f["section"] == "Migration map"]
    if not maps:  # drawn where the modules table shows an owner change (a schedule's hand-outs
        # are not moves; a move after the last step is counted in migrations_total but never seen)
        balanced = runs[(runs.name == "external_load") & (runs.schedule.fillna("") == "")]
        if owner_changes(modules[modules.run.isin(balanced.run)]).any():
            fail("no migration map")
        return 0
    for entry in json.load(open(f"{out}/{maps[0]['key']}.json")):
        ids = runs[(runs.balancer == entry["label"]) & (runs.name == "external_load")].run
        want = owner_changes(modules[modules.run.isin(ids)])
        if entry["runs"] != len(ids) or not (np.array(entry["moves"]) == want).all():
            fail(f"{entry['label']}: moves {entry['moves']}, the set {want.tolist()}")
        moved = runs[runs.run.isin(ids)].bytes_moved_total.mean()
        if not np.isclose(entry["bytes_moved_mean"], moved):
            fail(f"{entry['label']}: {entry['bytes_moved_mean']} bytes moved, the set {moved}")
    return len(maps)


def main(result_set, out, table_json, timeline_run):
    runs, procs, modules = (read(result_set, t) for t in ("runs", "procs", "modules"))
    parser = Tables()
    parser.feed(open(f"{out}/index.html", encoding="utf-8").read())
    check_provenance(parser.tables, runs)
    verdicts = check_verdicts(parser.tables, table_json, procs)
    check_platform(verdicts, runs, procs)
    check_modules(out, runs, modules, timeline_run)
    print(f"check_report_parts: {out}: provenance, {len(verdicts)} verdict tables, platform, "
          "timeline and migration map agree with the set")


if __name__ == "__main__":
    main(*sys.argv[1:5])
