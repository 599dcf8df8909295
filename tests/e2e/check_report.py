#!/usr/bin/python3
"""Checks an lbbench report against its result set: every figure the set's workloads call for is
there, is a PNG, has a caption of one or two sentences, and is embedded in index.html."""
import base64
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "report"))
from lbbench_report.results import read_set  # noqa: E402 (the report's own loader)


def fail(msg):
    print("check_report: " + msg)
    sys.exit(1)


def sweep_point(sweep):
    return [kv for kv in sweep.split() if not kv.startswith("processors=")]


def expected(result_set):
    """(section, words every such title holds) for each figure the set calls for."""
    want, procs = [], {}
    runs = read_set(result_set).runs
    # Verified runs, and simulated ones (nothing to verify): every figure draws both.
    simulated = runs.simulated == 1 if "simulated" in runs else False
    runs = runs[(runs.status == "complete") & ((runs.verified == 1) | simulated)].to_dict("records")
    groups = {(a["workload"], a["processors"], a["sweep"]) for a in runs}
    for w, p, s in groups:
        words = [f"{w}, P={p}"] + sweep_point(s)
        want += [(sec, words) for sec in ["Headline", "Step by step", "Busy time per processor"]]
        procs.setdefault((w, " ".join(sweep_point(s))), set()).add(p)
    want += [("Scaling", [w] + rest.split()) for (w, rest), ps in procs.items() if len(ps) > 1]
    if runs:
        want.append(("Model against wall time", []))
    return want


def check_figure(out_dir, page, fig):
    png = os.path.join(out_dir, fig["png"])
    with open(png, "rb") as f:
        data = f.read()
    if not data.startswith(b"\x89PNG\r\n\x1a\n"):
        fail(f"{png} is not a PNG")
    if f'id="{fig["key"]}"' not in page:
        fail(f"index.html has no image {fig['key']}")
    if "data:image/png;base64," + base64.b64encode(data).decode() not in page:
        fail(f"index.html does not embed {fig['png']} as it is on disk")
    sentences = re.split(r"(?<=[.!?])\s+(?=[A-Z])", fig["caption"].strip())
    if not fig["caption"].strip() or len(sentences) > 2:
        fail(f"{fig['key']}: caption of {len(sentences)} sentences: {fig['caption']!r}")


def main(result_set, out_dir, extra_sections):
    figures = json.load(open(os.path.join(out_dir, "figures.json")))
    page = open(os.path.join(out_dir, "index.html"), encoding="utf-8").read()
    for fig in figures:
        check_figure(out_dir, page, fig)
    want = expected(result_set) + [(sec, []) for sec in extra_sections]
    for section, words in want:
        if not any(f["section"] == section and all(w in f["title"] for w in words)
                   for f in figures):
            fail(f"no '{section}' figure for {' '.join(words) or 'the set'}; have "
                 f"{[f['title'] for f in figures]}")
    print(f"check_report: {out_dir}: {len(figures)} figures, all embedded, {len(want)} expected found")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3:])
