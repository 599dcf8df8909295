#!/usr/bin/env bash
# kill -9 at random moments, then readability and resume (tests/e2e/kill_resume.py).
set -euo pipefail
exec /usr/bin/python3 tests/e2e/kill_resume.py "$1" "${LBB_KILL_TRIALS:-24}" "${LBB_KILL_SEED:-$RANDOM}"
