#!/usr/bin/env bash
# The report's loader leaves out damaged and hostile parts of a result set, each with a line
# naming it, and reads the rest, even where a flipped bit kills HDF5 itself
# (tests/e2e/report_loader.py; needs no lbbench).
set -euo pipefail
. "$(dirname "$0")/lib/scratch.sh"
/usr/bin/python3 "$(dirname "$0")/report_loader.py" "$tmp"
