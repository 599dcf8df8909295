#!/usr/bin/python3
"""Entry point of `lbbench report` (the lbbench executable runs this with Debian's python3)."""
import sys

from lbbench_report.cli import main
from lbbench_report.terminal import escape_output

if __name__ == "__main__":
    escape_output()
    sys.exit(main())
