"""Reads `lbbench list` on stdin; prints a config entry for every static and dynamic balancer that
runs on a trace: all but the level balancers (task trees only), the asynchronous one (a trace
does not say which tasks' steps wait for which), prescribed (it needs an assignment, tested on
its own), plugin and python (they need a library or a script: tests/e2e/plugins.sh,
python_balancers.sh), and the partitioners tagged [coordinates], which a trace without
coordinates cannot feed (tests/e2e/geometry.sh runs them). With --schedules, every in-step
schedule's entry too (the simulator refuses the OpenMP runtime's: the caller sorts them out)."""
import re
import sys

schedules = "--schedules" in sys.argv[1:]
section = None
static = set()
for line in sys.stdin:
    if not line.startswith(" "):
        section = "static" if line.startswith("static") else \
            "dynamic" if line.startswith("dynamic") else \
            "schedule" if schedules and line.startswith("in-step schedules") else None
        continue
    m = re.match(r"^  (\w+)(?: \[([^\]]+)\])? - ", line)
    if section and m and m.group(2) not in ("level", "async", "coordinates") and \
            m.group(1) not in ("prescribed", "plugin", "python"):
        # A dynamic balancer named as a static one (scotch) is labelled apart from it.
        twin = section == "dynamic" and m.group(1) in static
        print(f"{{ {section}: {m.group(1)}" + (f", label: dynamic_{m.group(1)}" if twin else "") + " }")
        if section == "static":
            static.add(m.group(1))
