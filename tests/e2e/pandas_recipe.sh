#!/usr/bin/env bash
# The README's pandas recipe (the python block after <!-- pandas-recipe -->), run as it stands
# with Debian's python3 in a folder whose results/default is a set made by configs/smoke.yaml:
# its runs frame has a row per run, its steps frame a row per step of each run.
set -euo pipefail
lbbench=$(realpath "$1")
. "$(dirname "$0")/lib/scratch.sh"
/usr/bin/python3 -c 'import h5py, pandas' 2> /dev/null ||
  { echo "pandas_recipe: skipped: Debian's python3-h5py or python3-pandas is missing"; exit 77; }
awk '/^<!-- pandas-recipe -->$/ { marked = 1; next }
     marked && /^```python$/ { inside = 1; next }
     inside && /^```$/ { exit }
     inside' README.md > "$tmp/recipe.py"
[ "$(wc -l < "$tmp/recipe.py")" -ge 3 ] && [ "$(wc -l < "$tmp/recipe.py")" -le 5 ] ||
  { echo "pandas_recipe: README.md's recipe is not 3 to 5 lines:"; cat "$tmp/recipe.py"; exit 1; }
"$lbbench" run configs/smoke.yaml -o "$tmp/results/default" > /dev/null
# smoke.yaml: three balancers, one repetition, 12 measured steps each.
cat - >> "$tmp/recipe.py" <<'PY'

assert len(runs) == 3 and set(runs.balancer) == {"none", "block", "cyclic"}, runs
assert list(steps.groupby("run").size().sort_index()) == [12, 12, 12], steps.groupby("run").size()
assert len(steps) == runs.steps.sum() and steps.makespan.notna().all(), steps
print(f"pandas_recipe: {len(runs)} runs, {len(steps)} steps")
PY
(cd "$tmp" && /usr/bin/python3 recipe.py)
