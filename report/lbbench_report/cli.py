"""lbbench report SET [B] [--out DIR] [--invocation ID|latest] [--only REGEX] [--exclude REGEX]
[--highlight LABEL] [--timeline-run RUN_ID]"""
import argparse
import json
import os
import sys

from . import notes, table_stats, tables
from .build import build_figures
from .figures.compare import compare_figure
from .help import HelpAction
from .page import write_page
from .results import PartError, read_set
from .schema import Schema
from .strategies import report_runs

EXIT_FAILURE, EXIT_BAD_INPUT = 1, 2


class Refused(Exception):
    """Input the report will not draw: the message says why; nothing is written."""

    def __init__(self, message, code=EXIT_BAD_INPUT):
        super().__init__(message)
        self.code = code


def parse(argv):
    p = argparse.ArgumentParser(prog="lbbench report", add_help=False, description=(
        "write PNG figures and one self-contained HTML page (figures embedded) of a result set; "
        "with a second set, add the comparison of the two (as lbbench compare)"))
    p.add_argument("-h", "--help", action=HelpAction)  # the other commands' style (CLI11's)
    p.add_argument("sets", nargs="+", metavar="SET",
                   help="result set (one or two): a directory, e.g. results/default, or one part")
    p.add_argument("--out", help="folder to write into (default: SET_report beside SET)")
    p.add_argument("--invocation", metavar="ID|latest",
                   help="only the runs of this invocation (latest: the last one); default: all")
    p.add_argument("--only", metavar="REGEX",
                   help="keep only balancer labels or workload kinds matching this regular "
                        "expression")
    p.add_argument("--exclude", metavar="REGEX",
                   help="drop balancer labels and workload kinds matching this regular expression")
    p.add_argument("--highlight", metavar="LABEL",
                   help="strategy label for the third busy-time heat map")
    p.add_argument("--timeline-run", metavar="RUN_ID",
                   help="run whose timeline is drawn (one with module detail or a measured"
                        " timeline); default: the first with a measured timeline, else the first"
                        " complete one that moved modules, else the first")
    p.add_argument("--lbbench", default=os.environ.get("LBBENCH", "lbbench"), help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if len(args.sets) > 2:
        p.error("at most two result sets (the second is compared with the first)")
    return args


def selected(runs, args, table=None):
    """The runs lbbench table read with the same options: one invocation; with --only or
    --exclude, those of the configurations the table kept (its regex engine, not a second one)."""
    if args.invocation:
        wanted = runs.invocation.max() if args.invocation == "latest" else args.invocation
        runs = runs[runs.invocation == wanted]
    if table is not None and (args.only or args.exclude):
        kept = set(zip(table.workload, table.label))
        runs = runs[[pair in kept for pair in zip(runs.workload, runs.label)]]
    return runs


def filter_args(args):
    """The selection, passed on to lbbench table / compare so that they select the same runs."""
    return [x for opt in ["invocation", "only", "exclude"] if getattr(args, opt)
            for x in (f"--{opt}", getattr(args, opt))]


def stats(call, *command):
    """lbbench table / compare's answer; its refusal is the report's (same message, same exit)."""
    try:
        return call(*command)
    except table_stats.StatsUnavailable as e:
        raise Refused(str(e), e.code) from e


def load_set(path, args, schema, parts=None, table=None):
    """The set's runs (selected, typed by `schema`) and tables; refuses a set with no readable
    part. A file is read as a set of that one part, as lbbench table reads it."""
    if os.path.isfile(path):
        path, parts = os.path.dirname(path) or ".", [os.path.basename(path)]
    try:
        rs = read_set(path, parts)
        rs.tables["runs"] = selected(report_runs(rs, schema), args, table)
    except (PartError, OSError) as e:
        raise Refused(str(e)) from e
    return rs


def comparison(args, out):
    """The comparison figure of two sets and the configurations found in only one."""
    rows = stats(table_stats.compare_rows, args.lbbench, *args.sets, filter_args(args))
    names = [os.path.basename(os.path.normpath(s)) for s in args.sets]
    missing = [f"{r.workload} P={int(r.processors)} {r.label} {r.sweep}: only in "
               f"{names[0] if r.status == 'only_a' else names[1]}, not compared"
               for r in rows[rows.status != "matched"].itertuples()]
    rows.to_json(os.path.join(out, "compare.json"), orient="records", indent=1)
    matched = rows[rows.status == "matched"]
    if matched.empty:
        return [], missing + ["No configuration is in both sets: no comparison figure."]
    return [compare_figure(matched, *names, out)], missing


def default_out(path):
    path = os.path.normpath(path.removesuffix(".h5") if os.path.isfile(path) else path)
    return (os.path.abspath(path) if os.path.basename(path) in ("", ".", "..") else path) \
        + "_report"


REPORT_FILES = (".png", ".json", ".html", ".csv")  # what a report writes into its folder


def check_out(out):
    """--out must be a new folder, or one holding only what a report writes (an earlier or an
    interrupted report's): a file, or a folder of other files, is refused before anything is read
    or written."""
    if not os.path.lexists(out):
        return
    if not os.path.isdir(out):
        raise Refused(f"--out {out}: exists and is not a folder; name a new folder or an "
                      "earlier report's")
    other = sorted(f for f in os.listdir(out)
                   if not (f.endswith(REPORT_FILES) and os.path.isfile(os.path.join(out, f))))
    if other:
        raise Refused(f"--out {out}: the folder holds {other[0]!r}, which no report writes; "
                      "name a new folder or an earlier report's (nothing was written)")


def report(args):
    out = args.out or default_out(args.sets[0])
    check_out(out)
    for path in args.sets:
        if not os.path.isdir(path) and not os.path.isfile(path):
            raise Refused(f"{path}: not a result set (a directory of *.h5 parts, or one part)")
    table, parts = stats(table_stats.table_rows, args.lbbench, args.sets[0], filter_args(args))
    try:
        schema = Schema(args.lbbench)  # the columns' names and types, as the writer has them
    except RuntimeError as e:
        raise Refused(str(e), EXIT_FAILURE) from e
    rs = load_set(args.sets[0], args, schema, parts, table)
    if len(args.sets) == 2:
        load_set(args.sets[1], args, schema)  # refuses B before anything is written
    wanted = args.timeline_run
    drawn = (rs.modules.run == wanted).any() or (rs.tables["spans"].run == wanted).any()
    if wanted and not ((rs.runs.run == wanted).any() and drawn):
        raise Refused(f"--timeline-run {wanted}: no run of that id with module detail or a "
                      f"measured timeline in {args.sets[0]} (or in the selection); runs with "
                      "execution.record: modules or execution.timeline: true have it")
    try:
        os.makedirs(out, exist_ok=True)
    except OSError as e:
        raise Refused(f"--out {out}: {e.strerror}") from e
    figures, missing = build_figures(rs, table, out, args.highlight, args.timeline_run)
    missing = notes.missing_runs(rs) + missing
    if len(args.sets) == 2:
        more, unmatched = comparison(args, out)
        figures, missing = more + figures, missing + unmatched
    page = os.path.join(out, "index.html")
    invocations = rs.runs.invocation.nunique()
    write_page(page, f"lbbench report: {os.path.basename(os.path.normpath(args.sets[0]))}",
               figures, notes.warnings(rs, table), missing,
               tables.verdict_tables(table, rs.runs, rs.procs),
               tables.provenance_table(notes.provenance(rs)),
               intro=f"Result set {args.sets[0]}: {len(rs.runs)} runs of {invocations} "
                     f"invocation{'s' * (invocations != 1)}, read from {len(rs.parts)} "
                     f"part{'s' * (len(rs.parts) != 1)}. ")
    # The numbers behind the figures, as the table gave them.
    table.to_json(os.path.join(out, "table.json"), orient="records", indent=1)
    with open(os.path.join(out, "figures.json"), "w") as manifest:
        json.dump([{"key": f.key, "section": f.section, "title": f.title, "caption": f.caption,
                    "png": os.path.basename(f.path)} for f in figures], manifest, indent=1)
    return page


def main(argv=None):
    args = parse(sys.argv[1:] if argv is None else argv)
    try:
        page = report(args)
    except Refused as e:
        print(f"lbbench report: {e}", file=sys.stderr)
        return e.code
    print(f"report: {page}")
    return 0
