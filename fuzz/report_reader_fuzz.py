#!/usr/bin/python3
"""Fuzzes the report's result-set reader (report/lbbench_report/results.py, issue 39) and the
README's pandas recipe (h5py alone, no lbbench code).

  fuzz/report_reader_fuzz.py SECONDS FINDINGS_DIR SEED_SET... [--older SEED_SET...]

Each case copies one part of a SEED_SET (run.sh passes the sets of fuzz/seed_sets.sh), damages
it (bit flips, overwritten or repeated byte ranges, truncation), reseals half of them, and reads
a set holding the damaged part beside an intact one, under a 4 GiB address-space limit. A case
passes when read_set returns every run of the intact part and either reads the damaged part or
lists it among its problems, and when the README's recipe, run on the damaged part alone by a
worker process, raises or reads it but does not die (a signal) or take over 30 s. The sets after
--older are of the older layout (links in dense storage), which the README says h5py may die on
when damaged: the report's reader alone reads their damaged parts. A finding (an
exception of read_set, a lost run, a dead recipe, a case over 30 s) keeps its part in
FINDINGS_DIR and makes the exit status 1. Unlike the
libFuzzer targets this is blind (random mutations of the seed, no coverage feedback): the reader
is Python over h5py, which libFuzzer cannot instrument.
"""
import os
import random
import resource
import shutil
import select
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "report"))
from lbbench_report.results import SEAL_BYTES, part_files, read_set, seal  # noqa: E402

CASE_SECONDS = 30
HERE = os.path.dirname(os.path.abspath(__file__))
# Reads one folder a line (its results/default holds the damaged part) with the recipe, then
# answers: Python's exceptions are the recipe refusing the part, only its death is a finding.
WORKER = """import os, sys
recipe = open(sys.argv[1]).read()
for line in sys.stdin:
    os.chdir(line.strip())
    try:
        exec(recipe, {})
    except Exception:
        pass
    print("read", flush=True)
"""


def readme_recipe():
    """The python block after <!-- pandas-recipe --> in README.md, as tests/e2e/pandas_recipe.sh
    takes it."""
    lines = open(os.path.join(HERE, "..", "README.md")).read().splitlines()
    start = lines.index("<!-- pandas-recipe -->") + 2
    return "\n".join(lines[start:lines.index("```", start)]) + "\n"


class Recipe:
    """The README's recipe in a worker process, started again after it died."""

    def __init__(self, work):
        self.script = os.path.join(work, "recipe.py")
        open(self.script, "w").write(readme_recipe())
        self.worker = None

    def why_not(self, folder):
        """None when the recipe read or refused `folder`'s part, else why it did neither."""
        if self.worker is None:
            self.worker = subprocess.Popen([sys.executable, "-c", WORKER, self.script],
                                           stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                           stderr=subprocess.DEVNULL, text=True)
        self.worker.stdin.write(folder + "\n")
        self.worker.stdin.flush()
        if not select.select([self.worker.stdout], [], [], CASE_SECONDS)[0]:
            self.close()
            return f"the README's recipe took more than {CASE_SECONDS} s"
        if self.worker.stdout.readline():
            return None
        code = self.worker.wait()
        self.worker = None
        return f"the README's recipe died (exit {code})"

    def close(self):
        if self.worker is not None:
            self.worker.kill()
            self.worker.wait()
            self.worker = None


def damage(data, rng):
    """The part's bytes with one to three random kinds of damage past its seal's user block."""
    data = bytearray(data)
    for _ in range(rng.randint(1, 3)):
        at = rng.randrange(SEAL_BYTES, len(data))
        kind = rng.randrange(4)
        if kind == 0:
            data[at] ^= 1 << rng.randrange(8)
        elif kind == 1:
            n = rng.randint(1, 64)
            data[at:at + n] = bytes(rng.choice((0, 0xFF, rng.randrange(256))) for _ in range(n))
        elif kind == 2:
            n = rng.randint(1, 256)
            data[at:at] = data[at:at + n]
        else:
            del data[at:]
    return bytes(data)


def on_timeout(signum, frame):
    raise TimeoutError(f"a case took more than {CASE_SECONDS} s")


def main():
    seconds, findings, seed_sets = float(sys.argv[1]), sys.argv[2], sys.argv[3:]
    older = seed_sets[seed_sets.index("--older") + 1:] if "--older" in seed_sets else []
    seed_sets = [d for d in seed_sets if d != "--older"]
    parts = [(d in older, os.path.join(d, p)) for d in seed_sets for p in part_files(d)]
    if not parts or parts[0][0]:
        sys.exit(f"report_reader_fuzz: {' '.join(seed_sets)}: no part, or an older one first")
    first = parts[0][1]
    intact = read_set(os.path.dirname(first), [os.path.basename(first)]).runs.run.tolist()
    resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))
    signal.signal(signal.SIGALRM, on_timeout)
    os.makedirs(findings, exist_ok=True)
    rng = random.Random(int(os.environ.get("LBB_FUZZ_SEED", time.time_ns())))
    cases = read = found = 0
    work = tempfile.mkdtemp()
    recipe, alone = Recipe(work), os.path.join(work, "alone")
    os.makedirs(os.path.join(alone, "results", "default"))
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        cases += 1
        name = "damaged.h5"
        old, seed = rng.choice(parts)
        with open(seed, "rb") as f:
            damaged = damage(f.read(), rng)
        with open(os.path.join(work, name), "wb") as f:
            f.write(damaged)
        if rng.random() < 0.5:
            seal(os.path.join(work, name))  # damage past a valid seal too, as a writer's bug would
        shutil.copy(first, os.path.join(work, "intact.h5"))
        signal.alarm(CASE_SECONDS)
        try:
            rs = read_set(work)
            missing = set(intact) - set(rs.runs.run)
            listed = name in rs.parts or any(p.startswith(name) for p in rs.problems)
            why = f"runs of the intact part lost: {sorted(missing)[:3]}" if missing else \
                None if listed else "the damaged part neither read nor listed as a problem"
            read += name in rs.parts
        except Exception as e:  # noqa: BLE001 - any exception here is a finding
            why = f"{type(e).__name__}: {e}"
        finally:
            signal.alarm(0)
        # h5py reads no seal: to the recipe a resealed damage and an unsealed one are the same.
        if not why and not old:
            shutil.copy(os.path.join(work, name), os.path.join(alone, "results", "default", name))
            why = recipe.why_not(alone)
        if why:
            found += 1
            kept = os.path.join(findings, f"report-reader-{found}.h5")
            shutil.copy(os.path.join(work, name), kept)
            print(f"report_reader_fuzz: finding {found}: {why[:300]} (part kept as {kept})")
    recipe.close()
    shutil.rmtree(work)
    print(f"stat::number_of_executed_units: {cases}")
    print(f"stat::damaged_parts_read_whole: {read}")
    print(f"stat::findings: {found}")
    sys.exit(1 if found else 0)


if __name__ == "__main__":
    main()
