#!/usr/bin/env bash
# The report's figures drawn from made-up runs (report_figures.py): tick labels that never meet,
# processor speeds on the processor axes, no schedule in the migration map.
set -uo pipefail
/usr/bin/python3 -c "import matplotlib, pandas, h5py" 2> /dev/null ||
  { echo "report_figures: SKIP: /usr/bin/python3 lacks matplotlib, pandas or h5py"; exit 77; }
/usr/bin/python3 "$(dirname "$0")/report_figures.py"
