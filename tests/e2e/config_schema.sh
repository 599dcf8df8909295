#!/usr/bin/env bash
# The config reference: `lbbench list` names every key of `lbbench schema --config` (a JSON
# Schema, draft 2020-12, generated from the same tables), the schema accepts every shipped run
# config, and a typo in a section, workload or balancer key fails the schema as it fails
# `lbbench validate`, and both take `{ static: prescribed, assignment: FILE }` and refuse the key
# in any other entry.
set -euo pipefail
lbbench=$1
. "$(dirname "$0")/lib/scratch.sh"
if ! /usr/bin/python3 -c "import jsonschema, yaml" 2> /dev/null; then
  echo "config_schema: skipped: python3-jsonschema or python3-yaml missing (./run.sh installs them)"
  exit 77
fi
"$lbbench" schema --config > "$tmp/schema.json"
"$lbbench" list > "$tmp/list.txt"
sed 's/steps: 12/stpes: 12/' configs/smoke.yaml > "$tmp/section.yaml"
sed 's/blocks: 16/blcoks: 16/' configs/smoke.yaml > "$tmp/workload.yaml"
sed 's/{ static: cyclic }/{ static: cyclic, treshold: 2 }/' configs/smoke.yaml > "$tmp/balancer.yaml"
# A prescribed mapping read from a file (`assignment:`); that key where it does not belong, and
# beside the owners it gives.
printf '0 1 0 1\n' > "$tmp/map.txt"
sed 's/blocks: 16/blocks: 4/; s|{ static: cyclic }|{ static: prescribed, assignment: map.txt }|' \
  configs/smoke.yaml > "$tmp/assignment.yaml"
sed 's|{ static: block }|{ static: block, assignment: map.txt }|' "$tmp/assignment.yaml" \
  > "$tmp/misplaced.yaml"
sed 's|assignment: map.txt|&, owners: [0, 1, 0, 1]|' "$tmp/assignment.yaml" > "$tmp/both.yaml"
(cd "$tmp" && "$lbbench" validate assignment.yaml > /dev/null) ||
  { echo "config_schema: validate refused the assignment config"; exit 1; }
for bad in "misplaced:assignment belongs to { static: prescribed }" \
           "both:give assignment or owners, not both"; do
  code=0
  (cd "$tmp" && "$lbbench" validate "${bad%%:*}.yaml" > "$tmp/bad.log" 2>&1) || code=$?
  [ "$code" -eq 2 ] && grep -qF "${bad#*:}" "$tmp/bad.log" ||
    { echo "config_schema: validate accepted ${bad%%:*}.yaml"; cat "$tmp/bad.log"; exit 1; }
done
for typo in section workload balancer; do
  code=0
  "$lbbench" validate "$tmp/$typo.yaml" > /dev/null 2>&1 || code=$?
  [ "$code" -eq 2 ] || { echo "config_schema: validate accepted the $typo typo"; exit 1; }
done
/usr/bin/python3 - "$tmp" <<'PY'
import glob, json, re, sys
import jsonschema, yaml

tmp = sys.argv[1]
schema = json.load(open(f"{tmp}/schema.json"))
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)

class Loader(yaml.SafeLoader):  # YAML 1.2 numbers, as yaml-cpp reads them: 5.0e9 is a number
    pass
Loader.add_implicit_resolver("tag:yaml.org,2002:float",
                             re.compile(r"^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)[eE][-+]?[0-9]+$"),
                             list("-+0123456789."))

def errors(path):
    config = yaml.load(open(path), Loader=Loader)
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(config)]

checked = 0
for path in sorted(glob.glob("configs/**/*.yaml", recursive=True)):
    if "balance_cases" in yaml.load(open(path), Loader=Loader):
        continue  # Horton 1993's balance experiments: `lbbench expect` reads them, not `run`
    problems = errors(path)
    assert not problems, (path, problems[:5])
    checked += 1
assert checked >= 15, checked
for typo, key in [("section", "stpes"), ("workload", "blcoks"), ("balancer", "treshold")]:
    problems = errors(f"{tmp}/{typo}.yaml")
    assert any(key in p for p in problems), (typo, problems)
# `assignment: FILE` gives prescribed's owners: accepted there, refused in another entry, and
# prescribed needs it or owners.
assert not errors(f"{tmp}/assignment.yaml"), errors(f"{tmp}/assignment.yaml")
for bad in ["misplaced", "both"]:
    assert errors(f"{tmp}/{bad}.yaml"), f"the schema accepted {bad}.yaml"
used = yaml.load(open(f"{tmp}/assignment.yaml"), Loader=Loader)["balancers"][2]
assert used == {"static": "prescribed", "assignment": "map.txt"}, used
entry = jsonschema.Draft202012Validator({"$defs": schema["$defs"], "$ref": "#/$defs/balancer_entry"})
assert not entry.is_valid({"static": "prescribed"})
assert entry.is_valid({"static": "prescribed", "owners": [0]})

# Every key the schema knows is in `lbbench list`, with its meaning.
listed = open(f"{tmp}/list.txt").read()
props = schema["properties"]
keys = set(props) | set(props["platform"]["properties"]) | set(props["execution"]["properties"])
keys |= set(schema["$defs"]["balancer_entry"]["properties"])
for case in schema["$defs"]["workload"]["allOf"] + schema["$defs"]["balancer_entry"]["allOf"]:
    keys |= set(case["then"]["properties"])
missing = [k for k in keys if not re.search(rf"^ +{re.escape(k)}[ :(]", listed, re.M)]
assert not missing, missing
print(f"config_schema: {checked} configs valid, 3 typos and 2 misplaced assignments refused, "
      f"{len(keys)} keys listed")
PY
echo "config_schema: OK"
