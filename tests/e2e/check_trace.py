#!/usr/bin/python3
"""check_trace.py TRACE TIMES PROCESSORS RANKS STEPS PHASES MODULES: the structure of a Chrome
trace-event export (lbbench export --format chrome) that a strict viewer (speedscope) reads:
otherData.times is TIMES (measured or modelled); every event has the fields of its kind, times in
integer microseconds; one track (pid = rank, tid = processor) per processor, each named; within
a track the slices come in time order and none overlaps the next (exactly, no tolerance); and
every module execution is a slice once per step and phase. Exits 1 naming the first breach."""
import json
import sys
from collections import Counter, defaultdict

REQUIRED = {"M": {"name", "ph", "pid", "tid", "args"},
            "X": {"name", "cat", "ph", "pid", "tid", "ts", "dur", "args"},
            "i": {"name", "cat", "ph", "pid", "tid", "ts", "s", "args"}}


def fail(why):
    sys.exit(f"check_trace: {sys.argv[1]}: {why}")


def main(path, times, processors, ranks, steps, phases, modules):
    doc = json.load(open(path))
    if doc.get("otherData", {}).get("times") != times:
        fail(f"otherData.times {doc.get('otherData', {}).get('times')!r}, expected {times!r}")
    threads = processors // ranks
    tracks = {(p // threads, p) for p in range(processors)}
    named, slices, executions = set(), defaultdict(list), Counter()
    for e in doc["traceEvents"]:
        kind = e.get("ph")
        if kind not in REQUIRED:
            fail(f"event of phase {kind!r}: {e}")
        if not REQUIRED[kind] <= e.keys():
            fail(f"{kind} event lacks {sorted(REQUIRED[kind] - e.keys())}: {e}")
        if not all(isinstance(e[k], int) and e[k] >= 0 for k in ("pid", "tid", "ts", "dur")
                   if k in e):
            fail(f"pid, tid, ts and dur must be integers >= 0 (microseconds): {e}")
        if kind == "M":
            if e["name"] == "thread_name":
                named.add((e["pid"], e["tid"]))
            continue
        if kind == "i":
            if e["s"] not in ("g", "p", "t"):
                fail(f"instant of scope {e['s']!r}")
            continue
        if not {"step", "phase"} <= e["args"].keys():
            fail(f"slice without step and phase: {e}")
        if (e["pid"], e["tid"]) not in tracks:
            fail(f"slice on track {(e['pid'], e['tid'])}, not one of {sorted(tracks)}")
        slices[(e["pid"], e["tid"])].append((e["ts"], e["dur"], e["name"]))
        if e["cat"] == "module":
            executions[(e["args"]["step"], e["args"]["phase"], e["args"]["module"])] += 1
    if named != tracks:
        fail(f"named tracks {sorted(named)}, expected {sorted(tracks)}")
    if set(slices) != tracks:
        fail(f"tracks with slices {sorted(slices)}, expected {sorted(tracks)}")
    for track, s in slices.items():
        for (t0, d0, n0), (t1, _, n1) in zip(s, s[1:]):
            if t1 < t0:
                fail(f"track {track}: {n1} at {t1} us comes after {n0} at {t0} us")
            if t0 + d0 > t1:
                fail(f"track {track}: {n0} [{t0}, {t0 + d0}] overlaps {n1} at {t1} us")
    expected = {(s, f, m) for s in range(steps) for f in range(phases) for m in range(modules)}
    if set(executions) != expected or any(n != 1 for n in executions.values()):
        missing, twice = expected - set(executions), [k for k, n in executions.items() if n != 1]
        fail(f"module executions: {len(missing)} (step, phase, module) missing "
             f"{sorted(missing)[:3]}, {len(twice)} not once {twice[:3]}, "
             f"{len(set(executions) - expected)} unexpected")
    kinds = Counter(e.get("cat") for e in doc["traceEvents"] if e.get("ph") == "X")
    print(f"check_trace: {times}, {sum(map(len, slices.values()))} slices on {len(tracks)} "
          f"tracks of {ranks} ranks, {dict(kinds)}")


if __name__ == "__main__":
    if len(sys.argv) != 8:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2], *map(int, sys.argv[3:]))
