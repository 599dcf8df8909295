#!/usr/bin/python3
"""Writes docs/field-table.md (issue 50): every strategy of the field's runtimes that applies to
lbbench's workloads (docs/field-strategies.csv), whether lbbench has it, shown by running it on
tiny workloads, and its figure and verdict in a result set of configs/field.yaml."""
import argparse
import csv
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lbbench_report.results import read_set  # noqa: E402

# `lbbench list`'s sections of strategies, and the config key each one's entries take.
SECTIONS = {"static balancers": "static", "dynamic balancers": "dynamic",
            "in-step schedules": "schedule"}
# The probe's workloads: 16 modules each, so one owners list fits all (prescribed).
PROBES = [("bs", "block_substitution", {"blocks": 16, "width": 16, "mean_lines": 4}, {}),
          ("mm", "matmul", {"n": 64, "r": 32, "m": 32, "block_rows": 4}, {}),
          ("bh", "barnes_hut", {"particles": 400, "cells_per_side": 4}, {}),
          ("trfd", "trfd", {"n": 16}, {}),
          ("sim", "synthetic", {"modules": 16}, {"executor": "simulate"})]


def listed(lbbench):
    """lbbench's strategies as `lbbench list` prints them: name -> (config key, paper), the
    first section's where a name is in two (static scotch, dynamic scotch), and KEY:name for
    each (dynamic:scotch)."""
    text = subprocess.run([lbbench, "list"], check=True, capture_output=True, text=True).stdout
    names, key = {}, None
    for line in text.splitlines():
        if line and not line.startswith(" "):
            key = next((k for s, k in SECTIONS.items() if line.startswith(s)), None)
        elif key and (m := re.match(r"  (\w+)( \[[^]]*\])* - (.*)", line)):
            paper = re.search(r"\(([^()]*)\)$", m.group(3))
            found = (key, paper.group(1) if paper else "")
            names.setdefault(m.group(1), found)
            names[f"{key}:{m.group(1)}"] = found
    return names


def entry(spec, names):
    """A balancers entry from a description's `NAME key=value ...` (lists with ';')."""
    name, *params = spec.split()
    out = {names[name][0]: name.split(":")[-1]}
    for p in params:
        k, v = p.split("=", 1)
        out[k] = [yaml.safe_load(x) for x in v.split(";")] if ";" in v else yaml.safe_load(v)
    return out


def write_config(workload, balancers, scratch):
    """The probe's config: the workload, 4 processors (one at half speed), 3 steps, and one
    balancers entry a line (a refusal's position names its entry)."""
    _, kind, params, execution = workload
    config = {"name": "probe", "workload": {"kind": kind, **params},
              "platform": {"processors": 4, "speeds": [1, 1, 1, 0.5]},
              "execution": {"steps": 3, "warmup": 1, "repetitions": 1, **execution}}
    path = os.path.join(scratch, "probe.yaml")
    with open(path, "w") as f:
        yaml.safe_dump(config, f)
        f.write("balancers:\n" + "".join(f"  - {json.dumps(b)}\n" for b in balancers))
    return path


def probe(lbbench, balancer, workload, scratch):
    """Runs one entry on one tiny workload: 'ran', 'refused: why' or 'failed: why'."""
    path = write_config(workload, [balancer], scratch)
    r = subprocess.run([lbbench, "run", path, "--no-write", "-q", "--format", "json"],
                       capture_output=True, text=True)
    if r.returncode == 2:  # refused before any run: the config's position, then why
        return "refused: " + re.sub(r"^\S+:\d+:\d+: ", "", r.stderr.strip().splitlines()[-1])
    rows = json.loads(r.stdout) if r.returncode in (0, 1) and r.stdout.strip() else []
    bad = [row["verified"] for row in rows if row["verified"].startswith("FAILED")]
    if r.returncode != 0 or not rows or bad:
        return "failed: " + (bad[0] if bad else (r.stderr.strip() or "no rows")[-200:])
    return "ran"


def across_ranks(lbbench, entries, scratch):
    """Each entry run once more across 2 MPI ranks (executor mpi, or mpi_self_scheduled for a
    schedule) on a workload it ran on in one process: spec -> 'ran', 'refused: why' or 'failed:
    why'. One mpirun per workload holds every entry (its own label, its own line); those refused
    are dropped and the rest run again."""
    groups = {}
    for spec, (balancer, workload) in entries.items():
        groups.setdefault(workload[0], (workload, {}))[1][spec] = balancer
    out = {}
    for short, (workload, specs) in groups.items():
        while specs:
            labels = {f"e{i}": spec for i, spec in enumerate(specs)}
            code, rows, stderr, lines = ranks_run(lbbench, workload, specs, labels, scratch)
            refused = {lines[int(m.group(1))]: m.group(2) for m in re.finditer(
                r"^\S+:(\d+):\d+: (.*)$", stderr, re.M) if int(m.group(1)) in lines}
            if code != 2 or not refused:
                for label, spec in labels.items():
                    bad = rows.get(label, "no row")
                    out[spec] = "ran" if code == 0 and bad == "" else (
                        f"failed: {bad or f'exit {code}'}: {stderr.strip()[-200:]}")
                break
            for spec, why in refused.items():
                out[spec] = "refused: " + why
                del specs[spec]
    return out


def ranks_run(lbbench, workload, specs, labels, scratch):
    """One mpirun of the entries on 2 ranks, rank 0's output read from --output-filename: its
    exit code, label -> '' (verified) or why not, its stderr, and config line -> spec."""
    path = write_config(workload, [{**specs[s], "label": label} for label, s in labels.items()],
                        scratch)
    with open(path) as f:
        first = f.read().splitlines().index("balancers:") + 2
    logs = tempfile.mkdtemp(dir=scratch)
    mpi = ["mpirun", "-np", "2", "--oversubscribe", "--bind-to", "none", "--allow-run-as-root",
           "--output-filename", logs]
    code = subprocess.run(mpi + [lbbench, "run", path, "--no-write", "-q", "--format", "json"],
                          capture_output=True, timeout=600).returncode

    def rank0(name):
        p = os.path.join(logs, "1", "rank.0", name)
        return open(p).read() if os.path.exists(p) else ""
    rows = json.loads(rank0("stdout")) if code in (0, 1) and rank0("stdout").strip() else []
    verdicts = {r["label"]: r["verified"] if r["verified"].startswith("FAILED") else ""
                for r in rows}
    return code, verdicts, rank0("stderr"), {first + i: s for i, s in enumerate(labels.values())}


def field_rows(lbbench, results):
    """`lbbench table --format json` of the field's result set: (workload, label) -> row."""
    out = subprocess.run([lbbench, "table", results, "--format", "json"], check=True,
                         capture_output=True, text=True).stdout
    return {(r["workload"], r["label"]): r for r in json.loads(out)}


def figure(row):
    """A row's ratio to the baseline with its interval, n and verdict, as the table says."""
    if row is None:
        return "not in the set"
    ratio = (f"{row['ratio_to_baseline']:.2f} "
             f"[{row['ratio_ci_low']:.2f}, {row['ratio_ci_high']:.2f}]")
    verdict = row["verdict"] if row["ranked"] else "not ranked"
    return f"{ratio}, n {row['n']}, {verdict}" + (" (replay)" if row["modelled_by_replay"] else "")


def short_sha(sha):
    """A commit's 7 characters, keeping git_sha's -dirty mark (uncommitted changes)."""
    return sha[:7] + (" (dirty)" if sha.endswith("-dirty") else "")


def provenance(results):
    """What the field set says of its sitting: commands, start, host, sha, load averages."""
    rs = read_set(results)
    inv, runs = rs.invocations, rs.runs
    cmds = "; ".join(f"`{c}`" for c in inv["command"])
    return (f"{cmds} (started {', '.join(inv['started'])}, host {', '.join(set(inv['host']))}, "
            f"build {', '.join(short_sha(s) for s in set(inv['git_sha']))}): {len(runs)} runs, "
            f"1-minute "
            f"load average {runs['load_start'].min():.2f} to {runs['load_end'].max():.2f} "
            f"over its runs")


def probe_cell(outcomes, notes):
    """Ran / refused / failed per probe workload, each refusal's or failure's why a note."""
    parts = []
    for short, outcome in outcomes:
        if outcome != "ran":
            notes.setdefault(outcome, len(notes) + 1)
            short += f" {outcome.split(':')[0]} [{notes[outcome]}]"
        parts.append(short)
    return " ".join(parts)


def ranks_cell(outcome, notes):
    """'ran', or refused / failed with its why a note; '' where not tried."""
    if outcome in ("", "ran"):
        return outcome
    notes.setdefault(outcome, len(notes) + 1)
    return f"{outcome.split(':')[0]} [{notes[outcome]}]"


def table(description, names, probes, ranks, rows, workloads):
    """The markdown table, one line per field strategy, and its notes and counts."""
    head = ["peer", "strategy", "paper", "lbbench", "probe", "2 ranks"] + workloads
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    notes, unknown, verdicts = {}, [], {}
    for d in description:
        spec, label, cells = d["lbbench"], d["label"], []
        if spec == "-":
            have, probed = f"no: {d['why']}", ""
            spec = ""
        elif spec.split()[0] not in names:
            unknown.append(spec.split()[0])
            have, probed = f"**unknown**: `{spec.split()[0]}` is not in `lbbench list`", ""
            spec = ""
        else:
            outcomes = probes[spec]
            ran = any(o == "ran" for _, o in outcomes)
            have = f"`{spec}`" + (f" ({d['why']})" if d["why"] else "") + ("" if ran else
                                                                              " **never ran**")
            probed = probe_cell(outcomes, notes)
            for w in workloads:
                row = rows.get((w, label)) if label else None
                cells.append(figure(row) if label else "")
                if row:
                    verdicts[(w, label)] = row["verdict"] if row["ranked"] else "not ranked"
        cells += [""] * (len(workloads) - len(cells))
        lines.append("| " + " | ".join([d["peer"], d["strategy"], d["paper"], have, probed,
                                        ranks_cell(ranks.get(spec, ""), notes)] + cells) + " |")
    return lines, notes, unknown, verdicts


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--lbbench", required=True)
    ap.add_argument("--strategies", default="docs/field-strategies.csv")
    ap.add_argument("--results", help="a result set of configs/field.yaml (default: none)")
    ap.add_argument("--quick", action="store_true", help="probe block_substitution only")
    ap.add_argument("--no-ranks", action="store_true", help="no runs across 2 MPI ranks")
    ap.add_argument("--see", action="append", default=[], help="a link to earlier evidence")
    ap.add_argument("-o", "--output", default="docs/field-table.md")
    a = ap.parse_args()
    names = listed(a.lbbench)
    with open(a.strategies, newline="") as f:
        description = list(csv.DictReader(f))
    workloads = PROBES[:1] if a.quick else PROBES
    probes = {}
    with tempfile.TemporaryDirectory() as scratch:
        for spec in {d["lbbench"] for d in description} - {"-"}:
            if spec.split()[0] in names:
                b = entry(spec, names)
                probes[spec] = [(w[0], probe(a.lbbench, b, w, scratch)) for w in workloads]
        # each on the first workload it ran on in one process with the default executor
        ran = {}
        for spec, got in probes.items():
            if w := next((w for w in workloads if (w[0], "ran") in got and not w[3]), None):
                ran[spec] = (entry(spec, names), w)
        start = time.monotonic()
        mpi = shutil.which("mpirun") and not a.no_ranks
        ranks = across_ranks(a.lbbench, ran, scratch) if mpi else {}
        print(f"field_table: 2 ranks: {time.monotonic() - start:.1f} s", file=sys.stderr)
    rows = field_rows(a.lbbench, a.results) if a.results else {}
    field = sorted({w for w, _ in rows})
    lines, notes, unknown, verdicts = table(description, names, probes, ranks, rows, field)
    write(a, lines, notes, unknown, verdicts, description, workloads, field, probes, ranks)
    for name in unknown:
        print(f"field_table: {a.strategies}: `{name}` is not in `lbbench list`", file=sys.stderr)
    return 1 if unknown else 0


def write(a, lines, notes, unknown, verdicts, description, workloads, field, probes, ranks):
    """The page: provenance, the table, the notes, the counts."""
    load = os.getloadavg()
    now = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    have = sum(any(o == "ran" for _, o in probes.get(d["lbbench"], [])) for d in description)
    lacks = sum(d["lbbench"] == "-" for d in description)
    counts = {v: list(verdicts.values()).count(v) for v in sorted(set(verdicts.values()))}
    across = {k: sum(ranks.get(d["lbbench"], "").split(":")[0] == k for d in description)
              for k in ("ran", "refused", "failed")}
    command = "/usr/bin/python3 report/field_table.py " + " ".join(sys.argv[1:])
    out = [
        "# The field's strategies and lbbench's",
        "",
        f"Written by `{command}` on {now}, host {platform.node()} ({os.cpu_count()} cores), "
        f"1-minute load average {load[0]:.2f} when written. Do not edit: the strategies are "
        f"[field-strategies.csv](field-strategies.csv), lbbench's names come from `lbbench list`.",
        "",
        f"{len(description)} strategies of LB4OMP, Charm++, vt and Zoltan2; lbbench has "
        f"{have} (`lbbench` column, its entry in a config; it ran), lacks {lacks} (`no`, with "
        "why). \"probe\": each entry run by `lbbench run` on a tiny workload (3 "
        "steps, 4 processors, one at half speed; "
        + ", ".join(f"{w[0]} = {w[1]}" + (" simulated" if w[3] else "") for w in workloads)
        + "): `ran` (every run complete and, where a kernel ran, verified), `refused` (lbbench "
        "refused the config, reason in the notes) or `failed`. \"2 ranks\": each entry that "
        "ran, run once more by `mpirun -np 2 lbbench run` (executor mpi, or mpi_self_scheduled "
        "for a schedule) on the first of those workloads it ran on (rank 0's output read): "
        + (f"{across['ran']} ran, {across['refused']} refused, {across['failed']} failed."
           if ranks else "not tried."),
        ""]
    if field:
        out += [f"Figures: {provenance(a.results)}. Each cell: modelled makespan over `none`, "
                "median ratio over paired rounds [95 %], n, and the verdict of `lbbench table` "
                "against the group's best (docs/results.md, \"Verdicts\"); (replay): an "
                "in-step schedule's costs replayed through the schedule model; n differs where "
                "a race stopped a decided row. Verdicts of the rows above (each workload and "
                "label once): " + ", ".join(f"{n} {v}" for v, n in counts.items()) + ".", ""]
    out += lines + [""] + [f"- [{n}] {why}" for why, n in notes.items()]
    if unknown:
        out += ["", "Unknown to `lbbench list`: " + ", ".join(f"`{u}`" for u in unknown)]
    if a.see:
        out += ["", "Evidence: " + ", ".join(f"[{os.path.basename(s)}]({s})"
                                                    for s in a.see) + "."]
    with open(a.output, "w") as f:
        f.write("\n".join(out).rstrip() + "\n")


if __name__ == "__main__":
    sys.exit(main())
