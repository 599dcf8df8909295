#!/usr/bin/env bash
# The report draws its page from sets holding odd values (long text with '$' and HTML, NaN,
# infinities, text for numbers, missing columns and rows) with no exception
# (tests/e2e/report_values.py; lbbench only for `lbbench schema`, which types the runs' columns).
set -euo pipefail
. "$(dirname "$0")/lib/scratch.sh"
/usr/bin/python3 "$(dirname "$0")/report_values.py" "$tmp" "$1"
