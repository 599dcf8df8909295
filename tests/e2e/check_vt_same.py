"""Two LBDatafile sets (argv[1], argv[2]: directories of data.*.json) say the same in vt's terms:
every phase's tasks with their entities, nodes, times and subphases, every communication (from,
to, messages, bytes), each rank's shared_node and the recorded speeds. Times compare within a
relative 1e-12 (a time recorded on a slow rank comes back as its cost at speed 1 over the same
speed); everything else exactly. lbbench's own task attributes state_bytes, state_bytes_after
and start_node compare where the first set has them (a hand-written set need not); coords and
busy are left out. Prints what was compared: LABEL (argv[3])."""
import glob
import json
import math
import sys


def entity_key(e):
    return e.get("id", e.get("seq_id"))


def read(folder):
    tasks, comms, meta = {}, [], {}
    for path in sorted(glob.glob(f"{folder}/data.*.json")):
        doc = json.load(open(path))
        m = doc.get("metadata", {})
        meta[m.get("rank")] = (m.get("shared_node"), m.get("attributes", {}).get("speeds"))
        for phase in doc["phases"]:
            for t in phase["tasks"]:
                key = (phase["id"], entity_key(t["entity"]))
                assert key not in tasks, f"{path}: task {key} twice"
                tasks[key] = t
            for c in phase.get("communications", []):
                comms.append((phase["id"], entity_key(c["from"]), entity_key(c["to"]),
                              c["messages"], float(c["bytes"])))
    return tasks, sorted(comms), meta


def close(a, b):
    return math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-300)


def same_task(key, a, b):
    assert a["entity"] == b["entity"], f"task {key}: entity {a['entity']} != {b['entity']}"
    assert a["node"] == b["node"], f"task {key}: node {a['node']} != {b['node']}"
    assert close(a["time"], b["time"]), f"task {key}: time {a['time']} != {b['time']}"
    own_a, own_b = a.get("attributes", {}), b.get("attributes", {})
    for k in ("state_bytes", "state_bytes_after", "start_node"):  # where the first has them
        assert k not in own_a or own_a[k] == own_b.get(k), f"task {key}: {k} differs"
    sa, sb = a.get("subphases", []), b.get("subphases", [])
    assert [s["id"] for s in sa] == [s["id"] for s in sb], f"task {key}: subphase ids"
    assert all(close(x["time"], y["time"]) for x, y in zip(sa, sb)), f"task {key}: subphases"
    return len(sa)


def main():
    ta, ca, ma = read(sys.argv[1])
    tb, cb, mb = read(sys.argv[2])
    assert ta and sorted(ta) == sorted(tb), f"tasks differ: {sorted(set(ta) ^ set(tb))[:5]}"
    subphases = sum(same_task(k, ta[k], tb[k]) for k in sorted(ta))
    assert ca == cb, f"communications differ: {sorted(set(ca) ^ set(cb))[:5]}"
    assert ma == mb, f"metadata (shared_node, speeds) differs: {ma} != {mb}"
    pinned = sum(not t["entity"]["migratable"] for t in ta.values())
    label = sys.argv[3] if len(sys.argv) > 3 else sys.argv[1]
    print(f"{label}: same in vt's terms: {len(ta)} task-phases ({pinned} not migratable, "
          f"{subphases} subphases), {len(ca)} edges, {sum(c[4] for c in ca):.17g} bytes")


if __name__ == "__main__":
    main()
