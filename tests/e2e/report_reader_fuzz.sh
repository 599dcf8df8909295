#!/usr/bin/env bash
# The report reader's fuzzer (fuzz/report_reader_fuzz.py) for a few seconds on a set made by
# configs/smoke.yaml: it keeps working between the longer runs of `./run.sh test --sanitize`.
set -euo pipefail
lbbench=$1
. "$(dirname "$0")/lib/scratch.sh"
"$lbbench" run configs/smoke.yaml -o "$tmp/seed" --set execution.record=modules > /dev/null 2>&1
/usr/bin/python3 fuzz/report_reader_fuzz.py "${LBB_REPORT_FUZZ_SECONDS:-4}" "$tmp/findings" "$tmp/seed"
