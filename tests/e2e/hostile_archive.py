"""hostile_archive.py DATA DIR: copies of DATA/v3_smoke.h5 and DATA/v2_groups.h5 that `lbbench
convert` must refuse (DIR/<kind>.h5), and DIR/expected.txt: `<kind>: <what its message says>`."""
import shutil
import sys

import h5py

data, out = sys.argv[1:3]
table = "/tables/t-00000"


def foreign(f):
    del f["runs"]


def soft(f):
    f["runs/run-00099-none"] = h5py.SoftLink(table)


def external(f):
    f["runs/run-00099-none"] = h5py.ExternalLink("/etc/passwd", "/")


def storage(f):
    del f[table + "/step/wall"]
    f.create_dataset(table + "/step/wall", shape=(36,), dtype="f8",
                     external=[("/etc/passwd", 0, h5py.h5f.UNLIMITED)])


def huge(f):
    f.create_dataset(table + "/step/huge", shape=(1 << 40,), dtype="f8", chunks=(1024,))


def damaged(path):  # one byte changed, found by changing bytes at random: HDF5 1.10.8 crashes
    with open(path, "r+b") as raw:  # (SIGSEGV) reading a run's attributes
        raw.seek(35864)
        raw.write(b"\x26")


KINDS = {foreign: "not an lbbench archive", soft: "a soft or external link",
         external: "a soft or external link", storage: "stored outside the file",
         huge: "not one lbbench writes", damaged: "damaged files"}
with open(f"{out}/expected.txt", "w") as expected:
    for make, message in KINDS.items():
        path = f"{out}/{make.__name__}.h5"
        shutil.copyfile(f"{data}/{'v2_groups' if make is damaged else 'v3_smoke'}.h5", path)
        if make is damaged:
            damaged(path)
        else:
            with h5py.File(path, "r+") as f:
                make(f)
        print(f"{make.__name__}: {message}", file=expected)
