#!/usr/bin/env bash
# output: with a control character or a '..' component is refused at file:line:col and creates
# nothing; a bidi control (U+202E) in a set's label is printed escaped; partition refuses a
# device (/dev/zero) and caps what it reads from standard input.
set -uo pipefail
lbbench=$(realpath "$1")
. "$(dirname "$0")/lib/scratch.sh"
fails=0
. "$(dirname "$0")/lib/expect.sh"
cd "$tmp" || exit 1
src=$OLDPWD
sed "s|^output: .*||" "$src/configs/smoke.yaml" > smoke.yaml
printf 'output: "res\\e[31m"\n' >> smoke.yaml
expect 2 "smoke.yaml:[0-9]+:9: output 'res\\\\x1B\[31m' holds a control character" -- "$lbbench" run smoke.yaml
sed -i '$d' smoke.yaml && echo "output: results/../../up" >> smoke.yaml
expect 2 "smoke.yaml:[0-9]+:9: output 'results/../../up' has a '..' component" -- "$lbbench" run smoke.yaml
[ -z "$(ls -A "$tmp" | grep -v smoke.yaml)" ] && [ ! -e "$tmp/../up" ] ||
  { echo "FAIL: a refused output created $(ls -A "$tmp")"; fails=$((fails + 1)); }
# U+202E in a label: the config refuses it as a control character, shown escaped.
sed -i '$d' smoke.yaml && sed -i $'s/static: cyclic }/static: cyclic, label: "a\u202eb" }/' smoke.yaml
expect 2 "label 'a\\\\u202Eb' holds a control character" -- "$lbbench" validate smoke.yaml
expect 2 "/dev/zero: not a regular file" -- "$lbbench" partition --method block --processors 2 /dev/zero
expect 2 "<stdin>:1: '.*\.\.\.' is longer than any number" -- \
  bash -c "head -c 10000000 /dev/zero | '$lbbench' partition --method block --processors 2 -"
echo "hostile_names: $fails failures"
[ "$fails" -eq 0 ]
