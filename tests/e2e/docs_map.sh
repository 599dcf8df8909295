#!/usr/bin/env bash
# The documents stay a true map (issue 34): every folder of the tree is in docs/ARCHITECTURE.md's
# layout, every command `lbbench --help` lists has one line in the README's command block, and
# neither document carries a date (dated measurements belong in docs/evidence/).
set -euo pipefail
lbbench=$1
. "$(dirname "$0")/lib/scratch.sh"
fails=0
fail() { echo "docs_map: $1"; fails=$((fails + 1)); }

if files=$(git ls-files 2> /dev/null) && [ -n "$files" ]; then
  sed -n '/^## Layout/,/^## Data path/p' docs/ARCHITECTURE.md > "$tmp/layout.md"
  for folder in $(cut -d/ -f1-2 <<< "$files" | sort -u); do
    [ -d "$folder" ] || continue
    top=${folder%%/*}
    if [ "$folder" = "$top" ]; then
      grep -qF "\`$top/\`" "$tmp/layout.md" || fail "layout lacks $top/"
    else  # a subfolder: by its path anywhere, or by its name in its parent's row
      grep -qF "\`$folder/\`" "$tmp/layout.md" ||
        grep -F "| \`$top/\` |" "$tmp/layout.md" | grep -qF "\`${folder#*/}/\`" ||
        fail "layout lacks $folder/"
    fi
  done
else
  echo "docs_map: not a git checkout, folders not checked"
fi

commands=$("$lbbench" --help | sed -n '/^Subcommands:/,$p' | awk 'NR > 1 && NF { print $1 }')
[ -n "$commands" ] || fail "lbbench --help lists no commands"
for c in $commands; do
  n=$(grep -cE "^lbbench $c( |$)" README.md || true)
  [ "$n" -eq 1 ] || fail "README has $n lines for 'lbbench $c', not 1"
done

grep -nE '\b(19|20)[0-9]{2}-[01][0-9]-[0-3][0-9]\b' README.md docs/ARCHITECTURE.md &&
  fail "a date in README.md or docs/ARCHITECTURE.md"
[ "$fails" -eq 0 ] || exit 1
echo "docs_map: OK"
