#!/usr/bin/python3
"""resealed_damage.py LBBENCH PART WORK N: one-byte damages of PART's HDF5 metadata (the bytes
outside chunk data), each resealed: N in this layout, each read by `lbbench show`, `table` and
`export` and by the README's recipe (h5py), and 4 N in the older one whose tables keep their
links in dense storage (in its link storage), each read by `lbbench export`. Prints every read killed by a signal;
exit 1 if any, in either layout, or if the undamaged older part exports otherwise than PART."""
import os, random, shutil, subprocess, sys
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "report"))
import h5py  # noqa: E402
from lbbench_report.results import SEAL_BYTES, seal  # noqa: E402

RECIPE = """import h5py, pandas as pd, sys
for name in ("runs", "steps", "procs", "modules", "invocations"):
    try:
        f = h5py.File(sys.argv[1])
        pd.DataFrame({c: v.asstr()[:] if v.dtype.kind == "S" else v[:] for c, v in f[name].items()})
    except Exception:
        pass
"""


def dense_copy(part, out):
    """The part with every table's links moved to dense storage, as lbbench wrote them before."""
    shutil.copy(part, out)
    with h5py.File(out, "r+", libver=("v110", "v110")) as f:
        for t in list(f):
            f.create_group("moved")
            for c in list(f[t]):
                f.move(f"{t}/{c}", f"moved/{c}")
            for k, v in f[t].attrs.items():
                f["moved"].attrs[k] = v
            del f[t]
            f.move("moved", t)
    seal(out)


def metadata_offsets(part):
    raw = set()
    with h5py.File(part, "r") as f:
        def visit(name, obj):
            if isinstance(obj, h5py.Dataset) and obj.chunks:
                for k in range(obj.id.get_num_chunks()):
                    c = obj.id.get_chunk_info(k)
                    raw.update(range(c.byte_offset, c.byte_offset + c.size))
        f.visititems(visit)
    return [o for o in range(SEAL_BYTES, os.path.getsize(part)) if o not in raw]


def same_export(lbbench, part, dense, work):
    """The older layout's part, read through a child process, exports as the part itself does."""
    for src in (part, dense):
        d = os.path.join(work, "whole-" + os.path.basename(src))
        os.makedirs(d)
        shutil.copy(src, d)
        subprocess.run([lbbench, "export", d, "--to", d + "/csv"], check=True, capture_output=True)
    for table in ("runs", "steps", "procs", "modules", "invocations"):
        a, b = (open(os.path.join(work, f"whole-{os.path.basename(s)}/csv/{table}.csv")).read()
                for s in (part, dense))
        if a != b or len(a.splitlines()) < 2:
            sys.exit(f"resealed_damage: the older layout's {table} exports otherwise")


def main():
    lbbench, part, work, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    dense = os.path.join(work, "dense.h5")
    dense_copy(part, dense)
    same_export(lbbench, part, dense, work)
    recipe = os.path.join(work, "recipe.py")
    open(recipe, "w").write(RECIPE)
    rng = random.Random(48)
    # The older layout's crashes lie in the link storage that dense_copy appends at the file's
    # end (31 of 800 damages anywhere crashed the reader that read such parts in a child first,
    # then itself, all in its last 7 KB; 2 of 300 of another part, in its last 200 bytes): 4 N
    # damages of its last 8 KB, each read by export, which reads every table.
    tail = [o for o in metadata_offsets(dense) if o >= os.path.getsize(dense) - 8192]
    cases = [(part, o) for o in rng.sample(metadata_offsets(part), n)] + \
        [(dense, o) for o in rng.sample(tail, min(4 * n, len(tail)))]

    def one(case):
        src, o = case
        d = os.path.join(work, f"{os.path.basename(src)}-{o}")
        os.makedirs(d)
        data = bytearray(open(src, "rb").read())
        data[o] ^= 1 << (o % 8)
        p = os.path.join(d, "p.h5")
        open(p, "wb").write(data)
        seal(p)
        runs = [[lbbench, "export", d, "--to", d + "/csv"]]
        if src == part:
            runs += [[lbbench, "show", d], [lbbench, "table", d], ["/usr/bin/python3", recipe, p]]
        found = []
        for cmd in runs:
            r = subprocess.run(cmd, capture_output=True, timeout=120)
            if r.returncode < 0 or r.returncode >= 128:
                found.append(f"{os.path.basename(src)} byte {o}: {' '.join(cmd[:2])} exit {r.returncode}")
        shutil.rmtree(d)
        return found

    with ThreadPoolExecutor(2) as pool:
        found = [f for fs in pool.map(one, cases) for f in fs]
    for f in found:
        print("crash:", f)
    dense = sum(f.startswith("dense.h5") for f in found)
    print(f"resealed_damage: {len(cases)} damaged parts, {len(found) - dense} crashes in the "
          f"current layout, {dense} in the older dense one")
    sys.exit(1 if found else 0)


if __name__ == "__main__":
    main()
