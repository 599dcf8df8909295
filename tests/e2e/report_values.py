#!/usr/bin/python3
"""The report's figures and page on values a well-formed set may still hold: text of 100,000
characters with '$' (mathtext) and HTML in it, NaN, infinite and negative times and counts, text
where numbers belong, no busy column, no step rows. Each case edits every part of a synthetic
set (make_v4_set.py); the report must draw its page (every PNG valid, every text escaped) with no
exception. The statistics stand in for `lbbench table`'s: the median total of each group.
usage: report_values.py SCRATCH_DIR LBBENCH (for `lbbench schema`)"""
import glob
import os
import sys

import h5py
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "report"))
from lbbench_report import notes, table_stats, tables  # noqa: E402
from lbbench_report.build import build_figures  # noqa: E402
from lbbench_report.page import write_page  # noqa: E402
from lbbench_report.results import read_set  # noqa: E402
from lbbench_report.schema import Schema  # noqa: E402
from lbbench_report.strategies import report_runs  # noqa: E402
from degrade_set import rewrite  # noqa: E402
from make_v4_set import main as make_set, write_text  # noqa: E402

LONG = "$\\frac{" + "x" * 100_000 + "<odd-tag>"


def column(table, name, change):
    def edit(f):
        d = f[table][name]
        values = d.asstr()[:] if d.dtype.kind == "S" else d[:]
        rewrite(f[table], name, change(values))
    return edit


def as_text(table, name):
    def edit(f):
        n = len(f[table][name])
        del f[table][name]
        write_text(f[table], name, ["not a number"] * n)
    return edit


def no_rows(f):
    for table in ("steps", "procs"):
        for name in list(f[table]):
            column(table, name, lambda v: v[:0])(f)


CASES = {
    "long label": column("runs", "balancer", lambda v: np.where(v == "block", LONG, v)),
    "long workload and sweep": lambda f: [column("runs", c, lambda v: np.full(len(v), LONG))(f)
                                          for c in ("workload", "sweep")],
    "odd processors": column("runs", "processors", lambda v: np.where(v % 2, -5, 2**62)),
    "odd totals": column("runs", "makespan_total", lambda v: v * np.array([np.nan, np.inf, -1])[
        np.arange(len(v)) % 3]),
    "odd steps": column("steps", "makespan", lambda v: v * np.nan),
    "infinite busy time": column("procs", "busy", lambda v: v * np.inf),
    "huge step numbers": column("steps", "step", lambda v: v * 2**60 - 7),
    "text totals": as_text("runs", "makespan_total"),
    "no busy column": lambda f: f["procs"].__delitem__("busy"),
    "no step rows": no_rows,
    "odd module costs": column("modules", "cost", lambda v: v * np.array([np.nan, np.inf, -1, 1])[
        np.arange(len(v)) % 4]),
    "odd module owners": column("modules", "owner", lambda v: np.where(v % 2, -7, 2**31 - 1)),
    "modules moving": column("modules", "owner", lambda v: (np.arange(len(v)) // 3) % 2),
}


def table_of(runs):
    """A stand-in for `lbbench table --format json`: one row per configuration."""
    rows = []
    for (w, label, p, s), g in runs.groupby(["workload", "label", "processors", "sweep"]):
        m = float(np.nanmedian(g.makespan_total)) if g.makespan_total.notna().any() else None
        rows.append({"workload": w, "label": label, "processors": p, "sweep": s, "n": len(g),
                     "makespan": {"median": m, "ci_low": m, "ci_high": m},
                     "ranked_by": "modelled", "ranked": True, "best": label == "none",
                     "baseline": "none", "efficiency": 0.5, "verified": "yes"})
    return table_stats.normalise(rows)


def check_case(scratch, schema, name, edit):
    d = os.path.join(scratch, name.replace(" ", "_"))
    make_set(d)
    for part in glob.glob(f"{d}/*.h5"):
        with h5py.File(part, "r+") as f:
            edit(f)
    rs = read_set(d)
    assert not rs.problems, (name, rs.problems)
    rs.tables["runs"] = report_runs(rs, schema)
    table = table_of(rs.runs)
    out = f"{d}_page"
    os.makedirs(out)
    figures, missing = build_figures(rs, table, out)
    page = f"{out}/index.html"
    write_page(page, name, figures, notes.warnings(rs, table), notes.missing_runs(rs) + missing,
               tables.verdict_tables(table, rs.runs, rs.procs),
               tables.provenance_table(notes.provenance(rs)), intro=f"Result set {d}. ")
    for fig in figures:
        with open(fig.path, "rb") as png:
            assert png.read(8) == b"\x89PNG\r\n\x1a\n", (name, fig.path)
    text = open(page, encoding="utf-8").read()
    assert "<odd-tag>" not in text, name  # the set's text is escaped
    if name == "long workload and sweep":  # in the figures' titles, whole on the page
        assert "x" * 100_000 + "&lt;odd-tag&gt;" in text and figures, (name, missing)
    return len(figures)


if __name__ == "__main__":
    schema = Schema(sys.argv[2])
    drawn = [check_case(sys.argv[1], schema, name, edit) for name, edit in CASES.items()]
    print(f"report_values: {len(CASES)} sets with odd values, {sum(drawn)} figures drawn")
