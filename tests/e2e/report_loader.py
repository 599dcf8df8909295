#!/usr/bin/python3
"""The report's loader (report/lbbench_report/results.py) on hostile and faulty parts: each case
damages one part of a synthetic set (make_v4_set.py); the loader must leave exactly that part out
with a line naming it and read the other, with no exception, hang or huge allocation. Then files
that are no parts, 100 copies of a part with bits flipped (some kill HDF5 itself: the loader must
live on), and long and odd text through the report's own parsing.
usage: report_loader.py SCRATCH_DIR"""
import os
import random
import shutil
import sys

import h5py
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "report"))
from lbbench_report.results import PartError, read_set  # noqa: E402
from lbbench_report.strategies import label_params, sweep_params  # noqa: E402
from make_v4_set import main as make_set, write_text  # noqa: E402

GOOD, BAD = "20261128T090000Z-aa-0000.h5", "20261128T100000Z-bb-0000.h5"


def replace(f, path, make):
    """Replaces the object at `path` (e.g. "runs/status") by what make(group, name) creates."""
    group, name = path.rsplit("/", 1) if "/" in path else ("/", path)
    del f[path]
    make(f[group], name)


def external(g, n):
    target = os.path.join(os.path.dirname(g.file.filename), "outside.bin")
    with open(target, "wb") as out:
        out.write(b"\0" * 8)
    g.create_dataset(n, shape=(1,), dtype="f8", external=[(target, 0, 8)])


CASES = {  # name -> (edit of the BAD part, words its problem line holds)
    "schema version 3": (lambda f: f.attrs.modify("schema_version", np.int64(3)), "version"),
    "version as variable-length text": (
        lambda f: f.attrs.create("schema_version", "4", dtype=h5py.string_dtype()),
        "schema_version: missing, or not"),
    "no schema": (lambda f: f.attrs.__delitem__("schema"), "schema: missing"),
    "variable-length text column": (lambda f: replace(
        f, "runs/status", lambda g, n: g.create_dataset(n, data=["complete"] * 3,
                                                        dtype=h5py.string_dtype())), "status"),
    "unequal columns": (lambda f: replace(
        f, "steps/makespan", lambda g, n: g.create_dataset(n, data=np.ones(5))),
        "of unequal lengths"),
    "table not a group": (lambda f: replace(
        f, "procs", lambda g, n: g.create_dataset(n, data=[1])), "/procs"),
    "two-dimensional column": (lambda f: replace(
        f, "steps/wall", lambda g, n: g.create_dataset(n, data=np.ones((16, 2)))), "wall"),
    "compound column": (lambda f: replace(
        f, "steps/wall", lambda g, n: g.create_dataset(
            n, data=np.zeros(16, dtype=[("a", "f8"), ("b", "i4")]))), "wall"),
    "external storage": (lambda f: external(f["invocations"], "outside"), "outside"),
    "soft link": (lambda f: replace(
        f, "runs/name", lambda g, n: g.__setitem__(n, h5py.SoftLink("/runs/status"))), "name"),
    "2^40 values claimed": (lambda f: [replace(f, f"steps/{c}", lambda g, n: g.create_dataset(
        n, shape=(1 << 40,), dtype="f8", chunks=(1 << 20,))) for c in list(f["steps"])],
        "larger than the file could hold"),
    "key of the wrong type": (lambda f: replace(
        f, "runs/run", lambda g, n: g.create_dataset(n, data=np.arange(3))), "/runs/run"),
    "text where the other part has numbers": (lambda f: replace(
        f, "runs/processors", lambda g, n: write_text(g, n, ["2"] * 3)), "processors"),
}


def check_case(scratch, name, edit, words):
    d = os.path.join(scratch, name.replace(" ", "_").replace("^", ""))
    make_set(d)
    with h5py.File(os.path.join(d, BAD), "r+") as f:
        edit(f)
    rs = read_set(d)
    problems = [p for p in rs.problems if p.startswith(BAD)]
    assert rs.parts == [GOOD], (name, rs.parts, rs.problems)
    assert len(problems) == 1 and words in problems[0], (name, rs.problems)
    assert sorted(rs.runs.run) == ["run-a000", "run-a001", "run-a002"], (name, rs.runs.run)


def check_files(scratch):
    """Parts that are no HDF5 file, cut short, a FIFO or a link; a part held twice; invalid
    UTF-8; an explicit list of parts; a set with no readable part."""
    d = os.path.join(scratch, "files")
    make_set(d)
    with open(os.path.join(d, "text.h5"), "w") as out:
        out.write("not hdf5\n")
    with open(os.path.join(d, BAD), "rb") as part, open(os.path.join(d, "cut.h5"), "wb") as out:
        out.write(part.read()[:5000])
    os.mkfifo(os.path.join(d, "fifo.h5"))  # opening it would block: never opened
    os.symlink(BAD, os.path.join(d, "link.h5"))
    shutil.copy(os.path.join(d, GOOD), os.path.join(d, "copy.h5"))
    rs = read_set(d)
    assert rs.parts == [GOOD, BAD, "copy.h5"], rs.parts
    assert [p.split(":")[0] for p in rs.problems[:2]] == ["cut.h5", "text.h5"], rs.problems
    assert "/runs: 3 runs held twice, each kept once with its rows" in rs.problems, rs.problems
    assert len(rs.runs) == 6 and rs.unended == ["run-killed"], (rs.runs.run, rs.unended)
    assert len(rs.steps) == 6 * 4, len(rs.steps)  # the killed run's steps left out
    assert read_set(d, [GOOD]).parts == [GOOD]
    with h5py.File(os.path.join(d, GOOD), "r+") as f:
        replace(f, "runs/name", lambda g, n: write_text(g, n, [b"\xff"] * 3))
    assert list(read_set(d, [GOOD]).runs.name) == ["\ufffd"] * 3
    try:
        read_set(d, ["text.h5", "fifo.h5", "missing.h5"])
        raise AssertionError("a set with no readable part was read")
    except PartError as e:
        assert "no readable part" in str(e), e


def check_flips(scratch, count=100):
    """Copies of a part with bits flipped (seeded): each is read or left out, and the loader
    lives on; HDF5 1.10.8 itself dies (SIGSEGV, abort) on some, one in five or so."""
    d = os.path.join(scratch, "flips")
    make_set(d)
    with open(os.path.join(d, BAD), "rb") as part:
        whole = part.read()
    rng, died = random.Random(1), 0
    for _ in range(count):
        flipped = bytearray(whole)
        for _ in range(rng.choice([1, 4, 16])):
            flipped[rng.randrange(len(flipped))] ^= 1 << rng.randrange(8)
        with open(os.path.join(d, BAD), "wb") as part:
            part.write(flipped)
        rs = read_set(d)
        assert GOOD in rs.parts, rs.problems
        died += any("HDF5 library died" in p for p in rs.problems)
    return died


def check_text():
    """Text a set may hold, through the report's parsing: long (a quadratic pattern would not
    end), odd, or numbers where text belongs."""
    long = "x" * 1_000_000
    assert sweep_params(long) == {} and sweep_params("n=4 processors=2 = =v a.b=1") == \
        {"n": "4", "a.b": "1"}
    assert label_params("(" * 200_000) == ("(" * 200_000, {})
    assert label_params("random(alpha=0.5 threshold=1)") == \
        ("random", {"alpha": "0.5", "threshold": "1"})
    assert label_params("r(" + long + ")") == ("r", {})


if __name__ == "__main__":
    for case, (edit, words) in CASES.items():
        check_case(sys.argv[1], case, edit, words)
    check_files(sys.argv[1])
    died = check_flips(sys.argv[1])
    check_text()
    print(f"report_loader: {len(CASES)} damaged parts left out; files and text OK; 100 parts "
          f"with flipped bits read or left out ({died} killed HDF5 itself)")
