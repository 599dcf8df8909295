#!/usr/bin/env bash
# The archive section of docs/ARCHITECTURE.md is the records table that lbbench itself uses, and
# `lbbench schema` prints JSON that describes every record.
set -euo pipefail
lbbench=$1
. "$(dirname "$0")/lib/scratch.sh"
sed -n '/<!-- schema:begin/,/<!-- schema:end -->/p' docs/ARCHITECTURE.md | sed '1d;$d' > "$tmp/docs.md"
"$lbbench" schema --markdown > "$tmp/table.md"
diff -u "$tmp/table.md" "$tmp/docs.md" || {
  echo "schema_docs: docs/ARCHITECTURE.md's archive tables differ from lbbench schema --markdown"
  exit 1
}
"$lbbench" schema > "$tmp/schema.json"
/usr/bin/python3 - "$tmp/schema.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
names = {d["name"] for d in s["step_datasets"]}
assert {"step/makespan", "proc/busy", "metric/<name>"} <= names, names
attrs = {a["name"]: a for a in s["run_attributes"]}
assert attrs["processors"]["type"] == "int64" and attrs["status"]["type"] == "text"
assert all(a["meaning"] for a in s["run_attributes"] + s["step_datasets"])
assert isinstance(s["schema_version"], int)
PY
echo "schema_docs: OK"
