"""lbbench report ARCHIVE [B.h5] [--out DIR] [--only REGEX] [--exclude REGEX] [--highlight LABEL]"""
import argparse
import json
import os
import re
import sys

from . import notes, table_stats
from .archive_data import NotAnArchive, read_archive
from .build import build_figures
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
    p.add_argument("--highlight", help="strategy label for the third busy-time heat map")
    p.add_argument("--lbbench", default=os.environ.get("LBBENCH", "lbbench"), help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if len(args.archives) > 2:
        p.error("at most two archives (the second is compared with the first)")
    return args


def selected(runs, only, exclude):
    keep = runs.label.notna()
    for regex, want in [(only, True), (exclude, False)]:
        if regex:
            hit = runs.label.str.contains(regex) | runs.workload.str.contains(regex)
            keep &= hit if want else ~hit
    return runs[keep]


def filter_args(args):
    return [x for opt in ["only", "exclude"] if getattr(args, opt)
            for x in (f"--{opt}", getattr(args, opt))]


def load_table(args, archive):
    try:
        return table_stats.table_rows(args.lbbench, archive.path, filter_args(args))
    except table_stats.StatsUnavailable:
        return table_stats.interim_rows(archive)  # TEMPORARY until issue 9's JSON


def report(args):
    archive = read_archive(args.archives[0])
    archive.runs = selected(archive.runs, args.only, args.exclude)
    out = args.out or re.sub(r"\.h5$", "", args.archives[0]) + "_report"
    os.makedirs(out, exist_ok=True)
    table = load_table(args, archive)
    figures, missing = build_figures(archive, table, out, args.highlight)
    missing = notes.missing_runs(archive) + missing
    page = os.path.join(out, "index.html")
    write_page(page, f"lbbench report: {os.path.basename(args.archives[0])}", figures,
               notes.warnings(archive, table), missing, notes.provenance(archive),
               intro=f"Archive {args.archives[0]}: {len(archive.runs)} runs. ")
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
