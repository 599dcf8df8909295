#!/usr/bin/env bash
# Names renamed for what they are (issue 47), the old ones read for one release with a warning:
# `run --no-archive` is --no-write, `execution.replay_archive` is execution.replay_set
# (execution.module_detail, execution.record's old form: tests/e2e/record_levels.sh).
set -euo pipefail
lbbench=$1
. "$(dirname "$0")/lib/scratch.sh"
fail() { echo "deprecated_names: $1"; cat "${@:2}"; exit 1; }

# --no-write: the table, no result set, no warning; --no-archive: the same, and the warning.
"$lbbench" run configs/smoke.yaml --no-write -q -o "$tmp/new" > "$tmp/new.txt" 2> "$tmp/new_err.txt"
[ ! -e "$tmp/new" ] || fail "--no-write wrote a result set" "$tmp/new_err.txt"
grep -q '^block_substitution ' "$tmp/new.txt" || fail "--no-write printed no table" "$tmp/new.txt"
! grep -q deprecated "$tmp/new_err.txt" || fail "--no-write warned" "$tmp/new_err.txt"
"$lbbench" run configs/smoke.yaml --no-archive -q -o "$tmp/old" > "$tmp/old.txt" 2> "$tmp/old_err.txt"
[ ! -e "$tmp/old" ] || fail "--no-archive wrote a result set" "$tmp/old_err.txt"
grep -qx 'lbbench: --no-archive is deprecated; use --no-write' "$tmp/old_err.txt" ||
  fail "no warning for --no-archive" "$tmp/old_err.txt"
grep -q '^block_substitution ' "$tmp/old.txt" || fail "--no-archive printed no table" "$tmp/old.txt"
"$lbbench" run --help > "$tmp/help.txt"
grep -q -- '--no-write' "$tmp/help.txt" || fail "--help lacks --no-write" "$tmp/help.txt"
! grep -q -- '--no-archive' "$tmp/help.txt" || fail "--help lists --no-archive" "$tmp/help.txt"

# execution.replay_archive in a file and at a --set: read as replay_set, with the warning where.
sed 's/record: modules }/record: modules, replay_archive: rec }/' configs/smoke.yaml > "$tmp/old.yaml"
grep -q 'replay_archive: rec' "$tmp/old.yaml" || fail "the config was not edited" "$tmp/old.yaml"
"$lbbench" validate "$tmp/old.yaml" > "$tmp/v.txt" 2> "$tmp/v_err.txt" || fail "refused" "$tmp/v_err.txt"
grep -qx "lbbench: $tmp/old.yaml:5:[0-9]*: execution.replay_archive is deprecated; use execution.replay_set" \
  "$tmp/v_err.txt" || fail "no warning for replay_archive in the file" "$tmp/v_err.txt"
"$lbbench" validate configs/smoke.yaml --set execution.replay_archive=rec > /dev/null 2> "$tmp/s_err.txt"
grep -qx "lbbench: --set execution.replay_archive=rec: execution.replay_archive is deprecated; use execution.replay_set" \
  "$tmp/s_err.txt" || fail "no warning for replay_archive at --set" "$tmp/s_err.txt"
"$lbbench" validate configs/smoke.yaml --set execution.replay_set=rec > /dev/null 2> "$tmp/n_err.txt"
! grep -q deprecated "$tmp/n_err.txt" || fail "replay_set warned" "$tmp/n_err.txt"
set +e
"$lbbench" validate "$tmp/old.yaml" --set execution.replay_set=other > /dev/null 2> "$tmp/b_err.txt"
rc=$?
set -e
[ "$rc" -eq 2 ] || fail "both names given: exit $rc, not 2" "$tmp/b_err.txt"
grep -q "execution.replay_archive and execution.replay_set both given" "$tmp/b_err.txt" ||
  fail "both names given: no reason" "$tmp/b_err.txt"
echo "deprecated_names: ok"
