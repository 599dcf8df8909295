#!/usr/bin/env bash
# A run killed with SIGKILL again and again keeps every run that ended seconds before the kill
# and resumes exactly what is missing (tests/e2e/kill_resume.py).
set -euo pipefail
lbbench=$(realpath "$1")
. "$(dirname "$0")/lib/scratch.sh"
/usr/bin/python3 tests/e2e/kill_resume.py "$lbbench" "$tmp"
