#!/usr/bin/python3
"""Reads an lbbench archive with h5py alone and checks the archive contract (docs/ARCHITECTURE.md)."""
import sys

import h5py
import numpy as np

REQUIRED_ATTRS = ["workload", "balancer", "processors", "steps", "mode", "status", "verified",
                  "config_yaml", "git_sha", "compiler", "flags", "host", "cpu_model", "omp_env",
                  "started", "finished", "oversubscribed"]


def fail(msg):
    print("check_archive: " + msg)
    sys.exit(1)


def main(path, expected_runs):
    with h5py.File(path, "r") as f:
        runs = f["runs"]
        if len(runs) != expected_runs:
            fail(f"{len(runs)} runs, expected {expected_runs}")
        for rid, g in runs.items():
            for a in REQUIRED_ATTRS:
                if a not in g.attrs:
                    fail(f"{rid}: attribute {a} missing")
            if g.attrs["status"] != "complete" or g.attrs["verified"] != 1:
                fail(f"{rid}: status {g.attrs['status']} verified {g.attrs['verified']}")
            S, P = int(g.attrs["steps"]), int(g.attrs["processors"])
            M = int(g.attrs["modules"])
            for name in ["step/wall", "step/makespan", "step/balance", "step/migrations",
                         "step/bytes_moved", "metric/residual"]:
                if g[name].shape != (S,):
                    fail(f"{rid}: {name} shape {g[name].shape}, expected ({S},)")
            for name in ["proc/busy", "proc/idle"]:
                if g[name].shape != (S, P):
                    fail(f"{rid}: {name} shape {g[name].shape}")
            if g["module/owner"].shape != (S, M) or g["module/cost"].shape != (S, M):
                fail(f"{rid}: module datasets shape")
            if g["step/makespan"].compression != "gzip" or g["step/makespan"].chunks is None:
                fail(f"{rid}: datasets must be chunked and compressed")
            makespan, ideal = g["step/makespan"][:], g["step/ideal"][:]
            if np.any(makespan < ideal * (1 - 1e-12)) or np.any(makespan <= 0):
                fail(f"{rid}: makespan below the ideal bound")
            busy, idle = g["proc/busy"][:], g["proc/idle"][:]
            if np.any(busy <= 0) or np.any(idle < -1e-12):
                fail(f"{rid}: busy/idle out of range")
            owners = g["module/owner"][:]
            if owners.min() < 0 or owners.max() >= P:
                fail(f"{rid}: owner outside [0, P)")
            if "processors: " + str(P) not in g.attrs["config_yaml"]:
                fail(f"{rid}: config_yaml does not match the run")
    print(f"check_archive: {path}: {expected_runs} runs OK")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
