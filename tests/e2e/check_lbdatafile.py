"""Validates LBDatafile JSON files against vt's documented format (vt docs/md/node-lb-data.md and
the schema it publishes), written here as a JSON Schema: argv[1:] are the files. Also checks what
the schema cannot say: each file's tasks of a phase are on its own rank, an entity appears once
per phase, a migratable entity named by seq_id has a collection_id (vt's validate_ids). Prints
the files' communications and their bytes."""
import json
import sys

import jsonschema

ENTITY_IDS = {"anyOf": [{"required": ["id"]}, {"required": ["seq_id"]}]}
ENTITY_FIELDS = {
    "type": {"type": "string"},
    "id": {"type": "integer"},
    "seq_id": {"type": "integer"},
    "home": {"type": "integer"},
    "collection_id": {"type": "integer"},
    "objgroup_id": {"type": "integer"},
    "migratable": {"type": "boolean"},
    "index": {"type": "array", "items": {"type": "integer"}},
}
# vt's validator reads time and bytes as Python floats: a JSON number written with a fraction or
# an exponent. JSON Schema's "number" admits 1 too, so the check below looks at the text.
TASK = {
    "type": "object",
    "required": ["entity", "node", "resource", "time"],
    "additionalProperties": False,
    "properties": {
        "entity": {"type": "object", "required": ["home", "type", "migratable"],
                   "properties": ENTITY_FIELDS, "additionalProperties": False, **ENTITY_IDS},
        "node": {"type": "integer"},
        "resource": {"type": "string"},
        "time": {"type": "number", "minimum": 0},
        "subphases": {"type": "array", "items": {
            "type": "object", "required": ["id", "time"],
            "properties": {"id": {"type": "integer"}, "time": {"type": "number"}}}},
        "user_defined": {"type": "object"},
        "attributes": {"type": "object"},
    },
}
COMMUNICATION = {
    "type": "object",
    "required": ["type", "from", "to", "messages", "bytes"],
    "additionalProperties": False,
    "properties": {
        "type": {"type": "string"},
        "from": {"type": "object", "required": ["type"], "properties": ENTITY_FIELDS,
                 "additionalProperties": False, **ENTITY_IDS},
        "to": {"type": "object", "required": ["type"], "properties": ENTITY_FIELDS,
               "additionalProperties": False, **ENTITY_IDS},
        "messages": {"type": "integer", "minimum": 0},
        "bytes": {"type": "number", "minimum": 0},
    },
}
PHASE_BODY = {
    "tasks": {"type": "array", "items": TASK},
    "communications": {"type": "array", "items": COMMUNICATION},
    "user_defined": {"type": "object"},
}
SCHEMA = {
    "type": "object",
    "required": ["phases"],
    "additionalProperties": False,
    "properties": {
        "type": {"const": "LBDatafile"},
        "metadata": {"type": "object", "properties": {
            "type": {"const": "LBDatafile"},
            "rank": {"type": "integer"},
            "shared_node": {"type": "object", "required": ["id", "size", "rank", "num_nodes"],
                            "properties": {k: {"type": "integer"}
                                           for k in ("id", "size", "rank", "num_nodes")}},
            "phases": {"type": "object"},
            "attributes": {"type": "object"}}},
        "phases": {"type": "array", "items": {
            "type": "object",
            "required": ["id", "tasks"],
            "additionalProperties": False,
            "properties": {
                "id": {"type": "integer"},
                **PHASE_BODY,
                "lb_iterations": {"type": "array", "items": {
                    "type": "object", "required": ["id", "tasks"],
                    "properties": {"id": {"type": "integer"}, **PHASE_BODY}}},
            }}},
    },
}


def floats_written_as_floats(text, name):
    """time and bytes keep a fraction or exponent (vt's Python validator types them float)."""
    def hook(pairs):
        for key, value in pairs:
            if key in ("time", "bytes") and isinstance(value, int):
                raise ValueError(f"{name}: '{key}': {value} is written as an integer")
        return dict(pairs)
    json.loads(text, object_pairs_hook=hook)


def ids_valid(entity, where):
    """vt's validate_ids: a migratable entity named by seq_id belongs to a collection."""
    if entity.get("migratable") and "seq_id" in entity:
        assert "collection_id" in entity, f"{where}: a migratable seq_id without collection_id"


def check(path):
    """Validates one file; returns its (communications, bytes)."""
    text = open(path).read()
    floats_written_as_floats(text, path)
    doc = json.loads(text)
    jsonschema.validate(doc, SCHEMA)
    rank = doc.get("metadata", {}).get("rank")
    for phase in doc["phases"]:
        ids = [t["entity"].get("id", t["entity"].get("seq_id")) for t in phase["tasks"]]
        assert len(ids) == len(set(ids)), f"{path}: phase {phase['id']}: an entity twice"
        if rank is not None:
            assert all(t["node"] == rank for t in phase["tasks"]), f"{path}: a task off rank {rank}"
        where = f"{path}: phase {phase['id']}"
        for t in phase["tasks"]:
            ids_valid(t["entity"], where)
        for c in phase.get("communications", []):
            ids_valid(c["from"], where)
            ids_valid(c["to"], where)
    comms = [c for p in doc["phases"] for c in p.get("communications", [])]
    return len(comms), sum(c["bytes"] for c in comms)


if __name__ == "__main__":
    assert len(sys.argv) > 1, "no files"
    edges = total = 0
    for f in sys.argv[1:]:
        n, b = check(f)
        edges, total = edges + n, total + b
    print(f"{len(sys.argv) - 1} LBDatafiles valid: {edges} communications, {total:.17g} bytes")
