#!/usr/bin/env bash
# output: with a control character or a '..' component is refused at file:line:col and creates
# nothing; a bidi control (U+202E) in a set's label is printed escaped; partition refuses a
# device (/dev/zero) and caps what it reads from standard input. ESC and U+202E in a set's text
# columns (a label edited with h5py) and in the paths and names given on the command line are
# printed escaped, never raw, by every command that reads or writes a set and by schedule,
# balance and partition.
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
# ESC and U+202E in every name-like text column of a set, and in the paths of its commands.
bad=$'\e[31m\xe2\x80\xae'
/usr/bin/python3 -c 'import h5py' 2> /dev/null || { echo "hostile_names: h5py missing"; exit 77; }
{ sed "s|^output: .*||" "$src/configs/smoke.yaml"; cat <<'YAML'
expectations:
  - { row: bound, where: { balancer: none }, metric: efficiency, paper: 1.0, context: "at most 1" }
YAML
} > plain.yaml
"$lbbench" run plain.yaml -o "set$bad" > /dev/null 2> run.err || { cat run.err; exit 1; }
/usr/bin/python3 - "set$bad" "$src/report" <<'PY'
import glob, sys, h5py, numpy as np
sys.path.insert(0, sys.argv[2])
from lbbench_report.results import seal
bad = "\x1b[31m\u202e".encode()
names = {"runs": ("workload", "balancer", "static", "dynamic", "sweep", "verification",
                  "host", "cpu_model"), "invocations": ("command", "host")}
for part in glob.glob(sys.argv[1] + "/*.h5"):
    with h5py.File(part, "r+") as f:
        for table, columns in names.items():
            for c in columns:
                if c not in f[table]:
                    continue
                values = [v + bad for v in f[table][c][:]]
                attrs = dict(f[table][c].attrs)
                del f[table][c]
                d = f[table].create_dataset(c, data=np.array(values, dtype=f"S{max(map(len, values))}"))
                d.attrs.update(attrs)
    seal(part)
PY
raw() {  # raw NAME COMMAND...: the command's stdout and stderr hold no raw ESC or U+202E
  local name=$1
  shift
  timeout 300 "$@" > "out-$name.txt" 2>&1
  if grep -q $'\e' "out-$name.txt" || grep -qF $'\xe2\x80\xae' "out-$name.txt"; then
    echo "FAIL: $name printed a raw ESC or U+202E:"; head -c 2000 "out-$name.txt" | cat -A | head -20
    fails=$((fails + 1))
  fi
}
raw run-output "$lbbench" run plain.yaml -o "new$bad"
raw run-resume "$lbbench" run plain.yaml --resume -o "set$bad"
raw show "$lbbench" show "set$bad"
raw table "$lbbench" table "set$bad"
raw table-wide "$lbbench" table --wide --baseline "cyclic$bad" "set$bad"
raw table-only "$lbbench" table --only "x$bad" "set$bad"
raw compare "$lbbench" compare "set$bad" "set$bad"
raw export "$lbbench" export "set$bad" --to "csv$bad"
raw export-vt "$lbbench" export "set$bad" --to "vt$bad" --format vt
raw export-chrome "$lbbench" export "set$bad" --to "chrome$bad" --format chrome
raw export-run "$lbbench" export "set$bad" --to "one$bad" --format vt --run "r$bad"
raw replay "$lbbench" simulate --replay "set$bad"
raw calibrate "$lbbench" simulate --calibrate "set$bad"
raw no-set "$lbbench" show "none$bad"
raw no-config "$lbbench" run "none$bad.yaml"
raw validate "$lbbench" validate plain.yaml --set "name=n$bad"
raw expect "$lbbench" expect plain.yaml "set$bad"
printf '1 x\n' > "times$bad.txt"
raw schedule-file "$lbbench" schedule --method omp_dynamic --processors 2 --iteration-times "times$bad.txt"
raw schedule-none "$lbbench" schedule --method omp_dynamic --processors 2 --iteration-times "none$bad"
raw schedule-method "$lbbench" schedule --method "m$bad" --processors 2 --iterations 4
raw balance-method "$lbbench" balance --method "m$bad" --topology chain --loads 1,2
raw balance-param "$lbbench" balance --method diffusion --topology chain --loads 1,2 --param "k$bad=1"
raw partition-file "$lbbench" partition --method block --processors 2 "times$bad.txt"
# A config's problems, escaped where they are found, stay one a line (not escaped again as \x0A).
printf 'name: x\nworkload: { kind: nope }\n' > two.yaml
for cmd in validate run expect; do
  [ "$("$lbbench" $cmd two.yaml 2>&1 | grep -c '^two.yaml:[0-9]*:[0-9]*: ')" -eq 3 ] ||
    { echo "FAIL: $cmd: a config's problems not one a line"; fails=$((fails + 1)); }
done
echo "hostile_names: $fails failures"
[ "$fails" -eq 0 ]
