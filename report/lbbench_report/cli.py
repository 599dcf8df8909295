"""lbbench report ARCHIVE [B.h5] [--out DIR] [--only REGEX] [--exclude REGEX] [--highlight LABEL]"""
import argparse
import json
import os
import re
import sys

from . import notes, table_stats
from .archive_data import NotAnArchive, read_archive
from .build import build_figures
from .figures.compare import compare_figure
from .page import write_page

EXIT_BAD_INPUT = 2


def parse(argv):
    p = argparse.ArgumentParser(prog="lbbench report", description=(
        "Write PNG figures and one self-contained HTML page (figures embedded) of an archive; "
        "with a second archive, add the comparison of the two (as lbbench compare)."))
    p.add_argument("archives", nargs="+", metavar="ARCHIVE", help="HDF5 archive (one or two)")
    p.add_argument("--out", help="folder to write into (default: ARCHIVE without .h5 + _report)")
    p.add_argument("--only", help="regex: keep balancer labels / workload kinds it matches")
    p.add_argument("--exclude", help="regex: drop balancer labels / workload kinds it matches")
    p.add_argument("--all", action="store_true",
                   help="every invocation in the archive (else its latest, as lbbench table)")
    p.add_argument("--highlight", help="strategy label for the third busy-time heat map")
    p.add_argument("--lbbench", default=os.environ.get("LBBENCH", "lbbench"), help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if len(args.archives) > 2:
        p.error("at most two archives (the second is compared with the first)")
    return args


def latest_invocation(runs):
    """The runs of the archive's latest `lbbench run` (invocation ids sort by start time)."""
    stamped = runs.invocation.fillna("")
    if not (stamped != "").any():
        return runs
    return runs[stamped == stamped.max()]


def selected(runs, only, exclude):
    keep = runs.label.notna()
    for regex, want in [(only, True), (exclude, False)]:
        if regex:
            hit = runs.label.str.contains(regex) | runs.workload.str.contains(regex)
            keep &= hit if want else ~hit
    return runs[keep]


def filter_args(args):
    """The selection, passed on to lbbench table / compare so that they select the same runs."""
    return [x for opt in ["only", "exclude"] if getattr(args, opt)
            for x in (f"--{opt}", getattr(args, opt))] + (["--all"] if args.all else [])


def load_table(args, archive):
    try:
        return table_stats.table_rows(args.lbbench, archive.path, filter_args(args))
    except table_stats.StatsUnavailable:
        return table_stats.interim_rows(archive)  # TEMPORARY until issue 9's JSON


def load_archive(path, args):
    archive = read_archive(path)
    runs = archive.runs if args.all else latest_invocation(archive.runs)
    archive.runs = selected(runs, args.only, args.exclude)
    return archive


def comparison(args, archive, out):
    """The comparison figure of two archives and the configurations found in only one."""
    b = load_archive(args.archives[1], args)
    try:
        rows = table_stats.compare_rows(args.lbbench, *args.archives, filter_args(args))
    except table_stats.StatsUnavailable:
        rows = table_stats.interim_compare(archive, b)  # TEMPORARY until issue 9's JSON
    names = [os.path.basename(a) for a in args.archives]
    missing = [f"{r.workload} P={int(r.processors)} {r.label} {r.sweep}: only in "
               f"{names[0] if r.status == 'only_a' else names[1]}, not compared"
               for r in rows[rows.status != "matched"].itertuples()]
    rows.to_json(os.path.join(out, "compare.json"), orient="records", indent=1)
    matched = rows[rows.status == "matched"]
    if matched.empty:
        return [], missing + ["No configuration is in both archives: no comparison figure."]
    return [compare_figure(matched, *names, out)], missing


def report(args):
    archive = load_archive(args.archives[0], args)
    out = args.out or re.sub(r"\.h5$", "", args.archives[0]) + "_report"
    os.makedirs(out, exist_ok=True)
    table = load_table(args, archive)
    figures, missing = build_figures(archive, table, out, args.highlight)
    missing = notes.missing_runs(archive) + missing
    if len(args.archives) == 2:
        more, unmatched = comparison(args, archive, out)
        figures, missing = more + figures, missing + unmatched
    page = os.path.join(out, "index.html")
    write_page(page, f"lbbench report: {os.path.basename(args.archives[0])}", figures,
               notes.warnings(archive, table), missing, notes.provenance(archive),
               intro=f"Archive {args.archives[0]}: {len(archive.runs)} runs. ")
    # The numbers behind the figures, as the table gave them.
    table.to_json(os.path.join(out, "table.json"), orient="records", indent=1)
    with open(os.path.join(out, "figures.json"), "w") as manifest:
        json.dump([{"key": f.key, "section": f.section, "title": f.title, "caption": f.caption,
                    "png": os.path.basename(f.path)} for f in figures], manifest, indent=1)
    return page


def main(argv=None):
    args = parse(sys.argv[1:] if argv is None else argv)
    for a in args.archives:
        if not os.path.isfile(a):
            print(f"lbbench report: {a}: no such file", file=sys.stderr)
            return EXIT_BAD_INPUT
    try:
        page = report(args)
    except NotAnArchive as e:
        print(f"lbbench report: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    print(f"report: {page}")
    return 0
