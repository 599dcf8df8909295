#!/usr/bin/python3
"""Sends SIGKILL to `lbbench run` at random moments, then checks that the archive opens with
h5py and h5dump, that every finished run is intact, that after `lbbench recover` every step the
killed process reported finished (LBB_STEP_LOG, one line a step once it is safe) is in the
archive, and that `run --resume` completes exactly the missing runs. Readers also read while a
run writes.

usage: kill_resume.py LBBENCH TRIALS SEED
"""
import os
import random
import signal
import subprocess
import sys
import tempfile
import time

import h5py

from archive_runs import runs_by_id

HERE = os.path.dirname(os.path.abspath(__file__))
# A step at a time (bulk-synchronous threads), and simulated asynchronous runs whose steps reach
# the journal in bursts of 64 (one record each): each config, with its planned run count, takes
# every other pair of trials.
CONFIGS = [("""name: kill
workload: { kind: block_substitution, blocks: 16, width: 16, mean_lines: 4, sd: 1.0, seed: 3 }
platform: { processors: 2, topology: chain }
execution: { steps: 40, warmup: 1, repetitions: 2, module_detail: true }
balancers:
  - { dynamic: none }
  - { static: cyclic }
""", 4), ("""name: kill_bursts
workload: { kind: synthetic, model: truncated_normal, mean: 1, modules: 64, sd: 1.0,
            dependencies: chain, seed: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12] }
platform: { processors: 16, topology: chain }
execution: { steps: 200, warmup: 0, executor: simulate, sim_async: true, sim_decision: modelled }
balancers:
  - { static: optimal_chain }
  - { static: block, dynamic: predictive, threshold: 1, safety_factor: 1 }
""", 24)]


def fail(msg):
    print("kill_resume: " + msg)
    sys.exit(1)


def completed_runs(path):
    """(config, repetition) of every complete run; fails on a duplicate."""
    seen = set()
    with h5py.File(path, "r") as f:
        for rid, run in runs_by_id(f).items():
            if run.attrs["status"] != "complete":
                continue
            key = (run.attrs["config_yaml"], run.attrs["repetition"])
            if key in seen:
                fail(f"{path}: {rid} duplicates a complete run")
            seen.add(key)
    return seen


def check(lbbench, path, allow_partial=True):
    if subprocess.run(["h5dump", "-H", path], capture_output=True).returncode != 0:
        fail(f"h5dump cannot open {path}")
    with h5py.File(path, "r") as f:
        n = len(runs_by_id(f))
    args = [sys.executable, os.path.join(HERE, "check_archive.py"), lbbench, path, str(n)]
    r = subprocess.run(args + (["--allow-partial"] if allow_partial else []), capture_output=True,
                       text=True)
    if r.returncode != 0:
        fail(f"trial archive {path}: {r.stdout}{r.stderr}")
    return n


def finished_steps(log):
    """Run id -> steps the killed process reported finished (rows 0..n-1), and the runs it
    reported ended ("<run-id> end": the run's end is safe, in the journal or the archive)."""
    steps, ended = {}, set()
    if os.path.exists(log):
        with open(log) as f:
            for line in f:
                parts = line.split()
                if len(parts) == 2 and line.endswith("\n"):
                    if parts[1] == "end":
                        ended.add(parts[0])
                    else:
                        steps[parts[0]] = max(steps.get(parts[0], 0), int(parts[1]) + 1)
    return steps, ended


def check_lossless(lbbench, path, log, env):
    """After recover, every reported step is in the archive, in every dataset of its run."""
    r = subprocess.run([lbbench, "recover", path], capture_output=True, text=True, env=env)
    if r.returncode != 0:
        fail(f"recover {path} exited {r.returncode}: {r.stderr}")
    if os.path.exists(path + ".lbbench-journal"):
        fail(f"recover left the journal beside {path}")
    reported, ended = finished_steps(log)
    recovered = 0
    with h5py.File(path, "r") as f:
        runs = runs_by_id(f)
        for rid in ended:  # batched commits: a run's end may have been only in the journal
            if rid not in runs or runs[rid].attrs["status"] == "partial":
                fail(f"{path}: {rid} reported its end but the archive holds it as partial")
        for rid, n in reported.items():
            if rid not in runs:
                fail(f"{path}: {rid} reported {n} finished steps but is not archived")
            lengths = {len(runs[rid].series(name)) for name in runs[rid].names()}
            if len(lengths) != 1 or lengths.pop() < n:
                fail(f"{path}: {rid} holds steps {sorted(lengths)}, the process finished {n}")
            recovered += "recovered" in r.stdout and rid in r.stdout
    return recovered


def trial(lbbench, config, path, delay, env, readers):
    p = subprocess.Popen([lbbench, "run", config, "-o", path], stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL, env=env)
    end = time.monotonic() + delay
    reads = 0
    while time.monotonic() < end and p.poll() is None:
        if readers and os.path.exists(path):
            r = subprocess.run([lbbench, "show", path], capture_output=True, text=True)
            if r.returncode != 0:
                fail(f"show failed while a run writes: {r.stderr}")
            reads += 1
        time.sleep(0.005)
    p.send_signal(signal.SIGKILL)
    p.wait()
    return reads


def main(lbbench, trials, seed):
    rng = random.Random(seed)
    killed_mid_run = reads = recovered = 0
    with tempfile.TemporaryDirectory() as tmp:
        configs = []
        for k, (text, planned) in enumerate(CONFIGS):
            configs.append((os.path.join(tmp, f"kill{k}.yaml"), planned))
            with open(configs[-1][0], "w") as f:
                f.write(text)
        for t in range(trials):
            config, planned = configs[(t // 2) % len(configs)]
            path = os.path.join(tmp, f"t{t}.h5")
            env = dict(os.environ)
            # Half the trials commit every step, so kills land inside commits too.
            env["LBB_ARCHIVE_COMMIT_SECONDS"] = "0" if t % 2 else "1"
            if t % 4 == 3:
                env["HDF5_USE_FILE_LOCKING"] = "FALSE"
            log = os.path.join(tmp, f"t{t}.steps")
            env["LBB_STEP_LOG"] = log
            # The first trials kill within the first milliseconds (a file being created).
            delay = rng.uniform(0, 0.02) if t < 4 else rng.uniform(0, 0.45)
            reads += trial(lbbench, config, path, delay, env, readers=t % 3 == 0)
            if os.path.exists(path):
                recovered += check_lossless(lbbench, path, log, env)
            before = completed_runs(path) if os.path.exists(path) else set()
            if os.path.exists(path):
                n = check(lbbench, path)
                killed_mid_run += n > len(before)
            r = subprocess.run([lbbench, "run", config, "-o", path, "--resume"],
                               capture_output=True, text=True, env=env)
            if r.returncode != 0:
                fail(f"trial {t}: resume exited {r.returncode}: {r.stderr}")
            after = completed_runs(path)
            if len(after) != planned or not before <= after:
                fail(f"trial {t}: {len(after)} complete runs after resume, expected {planned}")
            check(lbbench, path)
            ran = planned - len(before)
            if f"{ran} to run" not in r.stderr:
                fail(f"trial {t}: resume should run {ran}: {r.stderr}")
    print(f"kill_resume: {trials} kills (seed {seed}), {killed_mid_run} inside a run, "
          f"{recovered} recovered from the journal, {reads} reads while writing, every finished "
          f"step archived, every archive readable and resumed: OK")


if __name__ == "__main__":
    main(os.path.abspath(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]))
