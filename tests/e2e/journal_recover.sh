#!/usr/bin/env bash
# The step journal after a kill: recovered whole, a torn last record ignored, and a corrupt,
# foreign or stale journal refused without touching the archive (tests/e2e/journal_recover.py).
set -euo pipefail
exec /usr/bin/python3 tests/e2e/journal_recover.py "$1"
