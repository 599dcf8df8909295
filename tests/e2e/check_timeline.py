"""A Chrome trace-event timeline (argv[1]) of a run on argv[2] processors: valid JSON whose
traceEvents have ph, ts, pid and tid (and dur for spans), one track (tid) per processor, spans
that do not overlap within a track, and balancer decisions as instant events."""
import json
import sys
from collections import defaultdict

doc = json.load(open(sys.argv[1]))
processors = int(sys.argv[2])
events = doc["traceEvents"]
spans = defaultdict(list)
kinds = defaultdict(int)
for e in events:
    assert {"ph", "pid", "tid"} <= e.keys(), e
    kinds[e["ph"]] += 1
    if e["ph"] == "M":
        continue
    assert isinstance(e["ts"], (int, float)) and e["ts"] >= 0, e
    if e["ph"] == "X":
        assert isinstance(e["dur"], (int, float)) and e["dur"] >= 0, e
        spans[e["tid"]].append((e["ts"], e["dur"]))
assert sorted(spans) == list(range(processors)), sorted(spans)
for tid, s in spans.items():
    s.sort()
    for (t0, d0), (t1, _) in zip(s, s[1:]):
        assert t0 + d0 <= t1 + 1e-6 * max(1.0, t1), f"track {tid}: spans overlap at {t1} us"
names = {e["name"] for e in events if e["ph"] == "i"}
assert "balancer decision" in names, names
assert any(n.startswith("migrate module") for n in names), "no migration event"
threads = {e["tid"] for e in events if e["ph"] == "M" and e["name"] == "thread_name"}
assert threads == set(range(processors)), threads
print(f"timeline: {kinds['X']} spans on {processors} tracks, {kinds['i']} instant events")
