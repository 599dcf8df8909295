#!/usr/bin/env bash
# The results section of docs/ARCHITECTURE.md is the schema table that lbbench itself uses, and
# `lbbench schema` prints JSON that describes every column.
set -euo pipefail
lbbench=$1
. "$(dirname "$0")/lib/scratch.sh"
sed -n '/<!-- schema:begin/,/<!-- schema:end -->/p' docs/ARCHITECTURE.md | sed '1d;$d' > "$tmp/docs.md"
"$lbbench" schema --markdown > "$tmp/table.md"
diff -u "$tmp/table.md" "$tmp/docs.md" || {
  echo "schema_docs: docs/ARCHITECTURE.md's result tables differ from lbbench schema --markdown"
  exit 1
}
"$lbbench" schema > "$tmp/schema.json"
/usr/bin/python3 - "$tmp/schema.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
tables = {t["name"]: {c["name"]: c for c in t["columns"]} for t in s["tables"]}
assert set(tables) == {"runs", "steps", "procs", "modules", "invocations", "spans",
                       "transfers"}, tables.keys()
assert {"makespan", "metric_*"} <= set(tables["steps"]) and "busy" in tables["procs"]
assert tables["runs"]["processors"]["type"] == "int64" and tables["runs"]["status"]["type"] == "text"
assert all(c["meaning"] for t in tables.values() for c in t.values())
assert s["schema"] == "lbbench-results" and isinstance(s["schema_version"], int)
PY
echo "schema_docs: OK"
