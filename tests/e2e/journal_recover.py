#!/usr/bin/python3
"""Kills `lbbench run` once it has reported some finished steps (no commit in between, so the run
is only in <archive>.lbbench-journal: its header record and its steps), then checks what
recover, show, run and merge do with that journal, intact and damaged: the run is created from
its header (alone: an empty partial run) and its whole records are folded in, a torn last record
is ignored, a journaled end of the run (written as RunWriter::end does) sets its final
attributes, and a journal with a bad checksum, from another archive, of a run that is not
partial, with a gap in its steps, an end that is not the last record or names an attribute the
schema lacks, or of garbage is refused with exit 2, the archive's bytes unchanged.

usage: journal_recover.py LBBENCH
"""
import os
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time
import zlib

import h5py

from archive_edit import set_attr
from archive_runs import iter_runs, runs_by_id

CONFIG = """name: journal
workload: { kind: block_substitution, blocks: 16, width: 16, mean_lines: 4, sd: 1.0, seed: 3 }
platform: { processors: 2, topology: chain }
execution: { steps: 2000, warmup: 1, module_detail: true }
balancers:
  - { dynamic: none }
"""
JOURNAL = ".lbbench-journal"


def fail(msg):
    print("journal_recover: " + msg)
    sys.exit(1)


def killed_run(lbbench, config, path, env):
    """Runs until at least 8 steps are reported, kills; returns the steps reported."""
    log = path + ".steps"
    env = dict(env, LBB_STEP_LOG=log, LBB_ARCHIVE_COMMIT_SECONDS="100000")
    p = subprocess.Popen([lbbench, "run", config, "-o", path], stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL, env=env)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and p.poll() is None:
        if os.path.exists(log) and sum(1 for _ in open(log)) >= 8:
            break
        time.sleep(0.01)
    p.send_signal(signal.SIGKILL)
    p.wait()
    with open(log) as f:
        lines = [l for l in f if l.endswith("\n")]
    if len(lines) < 8 or not os.path.exists(path + JOURNAL):
        fail(f"the run reported {len(lines)} steps and left no journal")
    return len(lines)


def text(s):
    b = s.encode()
    return struct.pack("<I", len(b)) + b


def end_record(journal, attributes):
    """A run's end record (step_journal.h: row ~0, one column per attribute) for the run of the
    journal's first record, in the journal's first format ("LBJ1": no rows field), which lbbench
    still reads. attributes: (name, type code, bytes); 0 text, 2 int64, 3 float64."""
    with open(journal, "rb") as f:
        data = f.read()
    at = 12
    ids = []
    for _ in range(2):  # run id, run_uuid
        (n,) = struct.unpack_from("<I", data, at)
        ids.append(data[at + 4:at + 4 + n].decode())
        at += 4 + n
    payload = text(ids[0]) + text(ids[1]) + struct.pack("<QI", 2**64 - 1, len(attributes))
    for name, code, value in attributes:
        payload += text(name) + struct.pack("<BQQ", code, 0, len(value)) + value
    return struct.pack("<III", 0x314A424C, len(payload), zlib.crc32(payload)) + payload


def with_end(tmp, name, archive, journal, attributes, after=b""):
    path = case(tmp, name, archive, journal)
    with open(path + JOURNAL, "ab") as f:
        f.write(end_record(journal, attributes) + after)
    return path


def records(journal):
    """The journal's records, framed, in order."""
    with open(journal, "rb") as f:
        data = f.read()
    out, at = [], 0
    while at + 12 <= len(data):
        n = 12 + struct.unpack_from("<I", data, at + 4)[0]
        out.append(data[at:at + n])
        at += n
    return out


def with_records(tmp, name, archive, journal, kept):
    path = case(tmp, name, archive, journal)
    with open(path + JOURNAL, "wb") as f:
        f.write(b"".join(kept))
    return path


def the_run(f):
    """The killed run, whichever layout holds it (tests/e2e/archive_runs.py)."""
    return runs_by_id(f)["run-00000-none"]


def rows(path):
    """The rows of the archive's one run (0 without one); all its datasets must hold them."""
    with h5py.File(path, "r") as f:
        runs = list(iter_runs(f))
        if not runs:
            return 0
        lengths = {len(runs[0].series(name)) for name in runs[0].names()}
    if len(lengths) != 1:
        fail(f"{path}: datasets of different lengths {lengths}")
    return lengths.pop()


def case(tmp, name, archive, journal):
    """A fresh copy of an archive with the given journal beside it."""
    d = os.path.join(tmp, name)
    os.mkdir(d)
    path = os.path.join(d, "a.h5")
    shutil.copy(archive, path)
    shutil.copy(journal, path + JOURNAL)
    return path


def run(args, env):
    return subprocess.run(args, capture_output=True, text=True, env=env)


def expect_refused(lbbench, path, env, words, what):
    before = open(path, "rb").read()
    for args in (["recover", path], ["run", env["CONFIG"], "-o", path, "--resume"]):
        r = run([lbbench] + args, env)
        if r.returncode != 2 or words not in r.stderr:
            fail(f"{what}: {args[0]} exited {r.returncode}, expected 2 naming '{words}': "
                 f"{r.stderr}")
    if open(path, "rb").read() != before:
        fail(f"{what}: the archive changed")
    if not os.path.exists(path + JOURNAL):
        fail(f"{what}: the refused journal was removed")
    r = run([lbbench, "show", path], env)
    if r.returncode != 0 or "refused" not in r.stdout:
        fail(f"{what}: show exited {r.returncode} without a note: {r.stdout}{r.stderr}")


def main(lbbench):
    env = dict(os.environ)
    env.pop("LBB_STEP_LOG", None)
    with tempfile.TemporaryDirectory() as tmp:
        config = os.path.join(tmp, "journal.yaml")
        with open(config, "w") as f:
            f.write(CONFIG)
        env["CONFIG"] = config
        a, b = os.path.join(tmp, "a.h5"), os.path.join(tmp, "b.h5")
        reported = killed_run(lbbench, config, a, env)
        killed_run(lbbench, config, b, env)
        ja, jb = a + JOURNAL, b + JOURNAL
        committed = rows(a)
        if committed != 0:
            fail(f"the killed run committed {committed} steps; expected them only in the journal")
        whole_records = records(ja)

        # show reads, never writes: the archive and the journal stay as they are.
        path = case(tmp, "show", a, ja)
        before = open(path, "rb").read()
        r = run([lbbench, "show", path], env)
        if r.returncode != 0 or "wait in" not in r.stdout or open(path, "rb").read() != before:
            fail(f"show: {r.returncode} {r.stdout}{r.stderr}")

        # Intact: every reported step comes back; the journal goes.
        path = case(tmp, "intact", a, ja)
        r = run([lbbench, "recover", path], env)
        if r.returncode != 0 or rows(path) < committed + reported or \
                os.path.exists(path + JOURNAL) or "created from its header" not in r.stdout:
            fail(f"intact: exit {r.returncode}, {rows(path)} rows, reported {reported}: "
                 f"{r.stdout}{r.stderr}")
        with h5py.File(path, "r") as f:
            attrs = the_run(f).attrs
            if attrs["status"] != "partial" or "config_yaml" not in attrs:
                fail(f"intact: the created run lacks its header: {attrs}")
        intact = path
        whole = rows(path)
        if subprocess.run(["h5dump", "-H", path], capture_output=True).returncode != 0:
            fail("intact: h5dump cannot open the recovered archive")
        # The same journal again: its steps are all there, nothing is added.
        shutil.copy(ja, path + JOURNAL)
        r = run([lbbench, "recover", path], env)
        if r.returncode != 0 or rows(path) != whole or "already" not in r.stdout:
            fail(f"stale: exit {r.returncode}, {rows(path)} rows: {r.stdout}{r.stderr}")

        # A writer folds it first: run --resume.
        path = case(tmp, "resume", a, ja)
        r = run([lbbench, "run", config, "-o", path, "--resume", "--set", "execution.steps=20"],
                env)
        with h5py.File(path, "r") as f:
            first = len(the_run(f).series("step/wall"))
        if r.returncode != 0 or "recovered" not in r.stderr or first != whole:
            fail(f"resume: exit {r.returncode}, {first} rows of {whole}: {r.stderr}")

        # Torn in the middle of its last record: that step is left out, the rest come back.
        path = case(tmp, "torn", a, ja)
        os.truncate(path + JOURNAL, os.path.getsize(ja) - 7)
        r = run([lbbench, "recover", path], env)
        if r.returncode != 0 or rows(path) != whole - 1 or "torn" not in r.stdout:
            fail(f"torn: exit {r.returncode}, {rows(path)} rows of {whole - 1}: {r.stdout}")

        # A flipped byte inside a record: its checksum fails, the journal is refused whole.
        path = case(tmp, "checksum", a, ja)
        with open(path + JOURNAL, "r+b") as f:
            f.seek(os.path.getsize(ja) // 2)
            byte = f.read(1)
            f.seek(-1, 1)
            f.write(bytes([byte[0] ^ 0x40]))
        expect_refused(lbbench, path, env, "checksum", "corrupt checksum")

        # The header alone (a kill before the first step's record): an empty partial run.
        path = with_records(tmp, "header-only", a, ja, whole_records[:1])
        r = run([lbbench, "recover", path], env)
        with h5py.File(path, "r") as f:
            status = the_run(f).attrs["status"]
        if r.returncode != 0 or rows(path) != 0 or status != "partial" or \
                "created from its header" not in r.stdout:
            fail(f"header only: exit {r.returncode}, {rows(path)} rows, {status}: {r.stdout}")

        # A header whose first dataset has another type than the schema's.
        header = bytearray(whole_records[0][12:])
        at = 0
        for _ in range(2):  # run id, run_uuid
            at += 4 + struct.unpack_from("<I", header, at)[0]
        at += 16  # row, rows, columns
        at += 4 + struct.unpack_from("<I", header, at)[0]  # the first column's name
        header[at] ^= 1  # its type code: float64 <-> int64
        header = bytes(header)
        mistyped = whole_records[0][:4] + struct.pack("<II", len(header), zlib.crc32(header)) + \
            header  # framed as lbbench framed it
        expect_refused(lbbench, with_records(tmp, "mistyped", a, ja,
                                             [mistyped] + whole_records[1:2]),
                       env, "not a dataset of the archive's schema", "a mistyped dataset")

        expect_refused(lbbench, with_records(tmp, "gap", a, ja,
                                             whole_records[:3] + whole_records[4:]),
                       env, "steps are missing", "a gap in the steps")
        # A run the archive lacks, named by steps without its header.
        expect_refused(lbbench, with_records(tmp, "headless", a, ja, whole_records[1:]), env,
                       "does not hold", "steps of a run the archive lacks")

        # The archive holds the run (with another run_uuid): another archive's journal.
        expect_refused(lbbench, case(tmp, "foreign", intact, jb), env, "another archive",
                       "journal of another archive")

        # The archive holds the run's first steps, ended: the journal's later steps are refused.
        path = with_records(tmp, "ended", a, ja, whole_records[:4])
        r = run([lbbench, "recover", path], env)
        if r.returncode != 0 or rows(path) != 3:
            fail(f"first steps: exit {r.returncode}, {rows(path)} rows: {r.stdout}{r.stderr}")
        with h5py.File(path, "r+") as f:
            set_attr(the_run(f), "status", "complete")
        shutil.copy(ja, path + JOURNAL)
        expect_refused(lbbench, path, env, "not partial", "journal of a complete run")

        # Header, steps and end, from the journal alone (batched commits): recover creates the
        # run and sets its final attributes.
        ended = [("status", 0, b"complete"), ("verified", 2, struct.pack("<q", 1)),
                 ("wall_total", 3, struct.pack("<d", 1.5))]
        path = with_end(tmp, "end", a, ja, ended)
        r = run([lbbench, "recover", path], env)
        with h5py.File(path, "r") as f:
            attrs = the_run(f).attrs
            got = (attrs["status"], attrs["verified"], attrs["wall_total"])
        if r.returncode != 0 or got != ("complete", 1, 1.5) or rows(path) != whole or \
                "its end" not in r.stdout:
            fail(f"end: exit {r.returncode}, {got}, {rows(path)} rows: {r.stdout}{r.stderr}")
        expect_refused(lbbench, with_end(tmp, "end-type", a, ja,
                                         [("status", 3, struct.pack("<d", 1.0))]),
                       env, "not in the archive's schema", "an end with a mistyped attribute")
        with open(ja, "rb") as f:
            data = f.read()
        first_record = data[:12 + struct.unpack_from("<I", data, 4)[0]]
        expect_refused(lbbench, with_end(tmp, "after-end", a, ja, ended, first_record), env,
                       "after its run's end", "a step after the run's end")

        garbage = os.path.join(tmp, "random-bytes")
        with open(garbage, "wb") as f:
            f.write(os.urandom(4096))
        expect_refused(lbbench, case(tmp, "garbage", a, garbage), env, "not a journal record",
                       "garbage journal")

        # merge folds the output's journal before adding runs.
        path = case(tmp, "merge", a, ja)
        r = run([lbbench, "merge", path, b], env)
        with h5py.File(path, "r") as f:
            first = len(the_run(f).series("step/wall"))
        if r.returncode != 0 or first != whole:
            fail(f"merge: exit {r.returncode}, {first} rows of {whole}: {r.stderr}")
    print(f"journal_recover: {reported} reported steps recovered ({whole - committed} from the "
          "journal); torn record skipped; checksum, foreign, ended and garbage journals refused "
          "with the archive unchanged: OK")


if __name__ == "__main__":
    main(os.path.abspath(sys.argv[1]))
