#!/usr/bin/python3
"""Fuzzes the report's result-set reader (report/lbbench_report/results.py, issue 39).

  fuzz/report_reader_fuzz.py SEED_SET SECONDS FINDINGS_DIR

Each case copies one part of SEED_SET, damages it (bit flips, overwritten or repeated byte
ranges, truncation) and reads a set holding the damaged part beside an intact one, under a
4 GiB address-space limit. A case passes when read_set returns every run of the intact part and
either reads the damaged part or lists it among its problems. A finding (an exception, a lost
run, a case over 30 s) keeps its part in FINDINGS_DIR and makes the exit status 1. Unlike the
libFuzzer targets this is blind (random mutations of the seed, no coverage feedback): the reader
is Python over h5py, which libFuzzer cannot instrument.
"""
import os
import random
import resource
import shutil
import signal
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "report"))
from lbbench_report.results import SEAL_BYTES, part_files, read_set, seal  # noqa: E402

CASE_SECONDS = 30


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
    seed_set, seconds, findings = sys.argv[1], float(sys.argv[2]), sys.argv[3]
    parts = part_files(seed_set)
    if not parts:
        sys.exit(f"report_reader_fuzz: {seed_set} holds no part")
    intact = read_set(seed_set, parts[:1]).runs.run.tolist()
    resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))
    signal.signal(signal.SIGALRM, on_timeout)
    os.makedirs(findings, exist_ok=True)
    rng = random.Random(int(os.environ.get("LBB_FUZZ_SEED", time.time_ns())))
    cases = read = found = 0
    work = tempfile.mkdtemp()
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        cases += 1
        name = "damaged.h5"
        with open(os.path.join(seed_set, rng.choice(parts)), "rb") as f:
            damaged = damage(f.read(), rng)
        with open(os.path.join(work, name), "wb") as f:
            f.write(damaged)
        if rng.random() < 0.5:
            seal(os.path.join(work, name))  # damage past a valid seal too, as a writer's bug would
        shutil.copy(os.path.join(seed_set, parts[0]), os.path.join(work, "intact.h5"))
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
        if why:
            found += 1
            kept = os.path.join(findings, f"report-reader-{found}.h5")
            shutil.copy(os.path.join(work, name), kept)
            print(f"report_reader_fuzz: finding {found}: {why[:300]} (part kept as {kept})")
    shutil.rmtree(work)
    print(f"stat::number_of_executed_units: {cases}")
    print(f"stat::damaged_parts_read_whole: {read}")
    print(f"stat::findings: {found}")
    sys.exit(1 if found else 0)


if __name__ == "__main__":
    main()
