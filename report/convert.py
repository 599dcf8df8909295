#!/usr/bin/python3
"""Entry point of `lbbench convert` (the lbbench executable runs this with Debian's python3)."""
import sys

from lbbench_report.convert import main

if __name__ == "__main__":
    sys.exit(main())
